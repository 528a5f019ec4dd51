"""Every acceptance criterion's verdict, on the fake solver's scripted answers: what SAT,
ALL, OPTIMAL, UNSAT and UNKNOWN each lead to, kept apart, and that a time-out (UNKNOWN,
or SAT cut short) is never an acceptance."""
import pytest

from puzzle_engine import PuzzleInputError, Status
from puzzle_engine.engine import Engine
from puzzle_engine.errors import PluginError, SolverError
from puzzle_engine.solving.results import SolveResult
from puzzle_engine.strategies import GenOptions

from fake_solver import FakeBackend, TimeOut, latin_squares
from fake_types import ORACLES, fake_host

pytestmark = pytest.mark.fast

LATIN = latin_squares(4)
UNIQUE = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 0, 0, 0, 0)  # the last row is forced
TWO = (1, 0, 0, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 0, 0, 1)     # 2 3 or 3 2 in rows 1 and 4
CLASH = (1, 1) + (0,) * 14                                 # two 1s in a row: no solution
EMPTY = (0,) * 16


@pytest.fixture(scope="module")
def host():
    return fake_host()


def judge(host, name, instance, script=None, limit=1, oracles=ORACLES):
    engine = Engine(host, FakeBackend(oracles, script))
    ptype = host.get_type(name)
    params = engine.check_params(ptype, {})
    return engine.criterion(ptype).judge(engine, ptype, params, instance, limit), engine


def solutions_of(board):
    return [b for b in LATIN if all(g == 0 or g == v for g, v in zip(board, b))]


def test_the_boards_are_what_their_names_say():
    assert [len(solutions_of(b)) for b in (UNIQUE, TWO, CLASH)] == [1, 2, 0]
    assert len(solutions_of(EMPTY)) == 576


def test_statuses_and_what_complete_means():
    assert {s.value for s in Status} == {"sat", "all", "optimal", "unsat", "unknown"}
    assert [SolveResult(s).complete for s in Status] == [
        s in (Status.ALL, Status.OPTIMAL, Status.UNSAT) for s in Status]


# -- unique (at most k) ------------------------------------------------------------------------
AT_MOST = [  # (board, limit, script, accepted, solutions, status, solvable)
    (UNIQUE, 1, None, True, 1, Status.ALL, True),
    (TWO, 1, None, False, 2, Status.SAT, True),
    (TWO, 2, None, True, 2, Status.ALL, True),
    (EMPTY, 2, None, False, 3, Status.SAT, True),
    (CLASH, 1, None, False, 0, Status.UNSAT, False),
    (UNIQUE, 1, TimeOut(0), None, 0, Status.UNKNOWN, None),
    (UNIQUE, 1, TimeOut(1), None, 1, Status.SAT, True),   # one found, then out of time
    (TWO, 1, TimeOut(2), False, 2, Status.SAT, True),     # a second one found in time
    (CLASH, 1, TimeOut(0), None, 0, Status.UNKNOWN, None),
]


@pytest.mark.parametrize("board, limit, answer, accepted, n, status, solvable", AT_MOST)
def test_unique(host, board, limit, answer, accepted, n, status, solvable):
    verdict, engine = judge(host, "fake_own_latin", board, lambda q: answer, limit)
    assert (verdict.accepted, verdict.solutions, verdict.status, verdict.solvable) == \
        (accepted, n, status, solvable)
    if n:
        assert verdict.solution in solutions_of(board)
    [query] = engine.backend.queries
    assert (query.kind, query.limit, query.goal) == ("solve", limit + 1, "satisfy")


# -- unique-modulo-symmetry ----------------------------------------------------------------------
def test_unique_modulo_symmetry(host):
    first_row = (1, 2, 3, 4) + (0,) * 12
    verdict, _ = judge(host, "fake_first_row", first_row)
    assert (verdict.accepted, verdict.solutions, verdict.status) == (True, 1, Status.ALL)
    assert verdict.fields == {"solutions": len(solutions_of(first_row)), "classes": 1}
    assert verdict.fields["solutions"] > 1  # many solutions, one class
    # the solutions are asked for in rounds (2, 16, 128 ...), and a round that shows a
    # second class settles it: the 24 classes of the empty board are not all listed
    verdict, engine = judge(host, "fake_first_row", EMPTY)
    limits = [q.limit for q in engine.backend.queries]
    assert limits == [2, 16, 128, 1024][:len(limits)] and verdict.accepted is False
    assert 2 <= verdict.solutions == verdict.fields["classes"] < 24
    verdict, _ = judge(host, "fake_first_row", EMPTY, limit=24)
    assert verdict.accepted is True
    verdict, _ = judge(host, "fake_first_row", CLASH)
    assert (verdict.accepted, verdict.status, verdict.solvable) == (False, Status.UNSAT, False)
    # out of time after 5 solutions, all of one class: not known to be the only class
    verdict, _ = judge(host, "fake_first_row", first_row, lambda q: TimeOut(5))
    assert (verdict.accepted, verdict.solutions, verdict.status) == (None, 1, Status.SAT)
    verdict, _ = judge(host, "fake_first_row", first_row, lambda q: TimeOut(0))
    assert (verdict.accepted, verdict.status, verdict.solvable) == (None, Status.UNKNOWN, None)
    # two classes seen before the time-out are a refusal
    verdict, _ = judge(host, "fake_first_row", EMPTY, lambda q: TimeOut(200))
    assert verdict.accepted is False and verdict.status == Status.SAT


# -- unique-optimum ------------------------------------------------------------------------------
ONE_BEST = ((1, 2, 3), (1, 2, 4), 3)   # {item 3}: value 4, weight 3; {1, 2}: value 3
TWO_BEST = ((1, 1), (2, 2), 1)         # either item: value 2
NOTHING = ((1,), (1,), -1)             # not even the empty subset fits


def is_counting(q):
    """The second solve of unique-optimum: the objective fixed, solutions counted."""
    return any("value =" in e for e in q.extra)


def test_a_unique_optimum_is_accepted(host):
    verdict, engine = judge(host, "fake_knapsack", ONE_BEST)
    assert (verdict.accepted, verdict.solutions, verdict.status) == (True, 1, Status.OPTIMAL)
    assert (verdict.solution, verdict.value) == ((0, 0, 1), 4)
    assert verdict.fields == {"optimum": 4, "optimal_solutions": 1}
    optimise, count = engine.backend.queries
    assert (optimise.goal, optimise.extra) == ("maximize", ())
    assert (count.goal, count.extra, count.limit) == ("satisfy", ("constraint value = 4;",), 2)


def test_two_optima_are_refused(host):
    verdict, _ = judge(host, "fake_knapsack", TWO_BEST)
    assert (verdict.accepted, verdict.solutions, verdict.value) == (False, 2, 2)
    assert verdict.fields["optimal_solutions"] == 2


def test_no_solution_is_refused(host):
    verdict, engine = judge(host, "fake_knapsack", NOTHING)
    assert (verdict.accepted, verdict.solutions, verdict.status, verdict.solvable) == \
        (False, 0, Status.UNSAT, False)
    assert len(engine.backend.queries) == 1


@pytest.mark.parametrize("answer, status", [(TimeOut(0), Status.UNKNOWN), (TimeOut(1), Status.SAT)])
def test_an_optimum_not_proven_is_unknown(host, answer, status):
    """Out of time before the optimum was proven: a best-so-far is no optimum."""
    verdict, engine = judge(host, "fake_knapsack", ONE_BEST,
                            lambda q: None if is_counting(q) else answer)
    assert (verdict.accepted, verdict.status, verdict.value) == (None, status, None)
    assert len(engine.backend.queries) == 1  # never counted
    # The best placement found so far comes back, named as the best, not as an optimum.
    if answer.found:
        assert (verdict.solution, verdict.fields) == ((0, 0, 0), {"best": 0})
    else:
        assert (verdict.solution, verdict.fields) == (None, {})


@pytest.mark.parametrize("answer, status, solutions", [
    (None, Status.OPTIMAL, [(0, 0, 1)]), (TimeOut(1), Status.SAT, [(0, 0, 0)]),
    (TimeOut(0), Status.UNKNOWN, [])])
def test_solve_gives_the_best_found_without_solving_again(host, answer, status, solutions):
    """``solve``'s optimum: a time-out gives the criterion's best solution, with status SAT
    (not proven optimal), or nothing; never a second solve, which would take the time
    limit once more and could print its best as an optimum."""
    from puzzle_engine.cli.solve import _optimum
    engine = Engine(host, FakeBackend(ORACLES, lambda q: None if is_counting(q) else answer))
    ptype = host.get_type("fake_knapsack")
    result, found, _ = _optimum(engine, ptype, engine.check_params(ptype, {}), ONE_BEST)
    assert (result.status, found) == (status, solutions)
    assert result.objective == (4 if answer is None else 0 if solutions else None)
    assert len(engine.backend.queries) == (2 if answer is None else 1)


@pytest.mark.parametrize("answer, status", [(TimeOut(0), Status.UNKNOWN), (TimeOut(1), Status.SAT)])
def test_an_optimum_whose_count_timed_out_is_unknown(host, answer, status):
    verdict, _ = judge(host, "fake_knapsack", ONE_BEST, lambda q: answer if is_counting(q) else None)
    assert (verdict.accepted, verdict.status, verdict.value) == (None, status, 4)


def test_an_objective_that_is_not_a_number_is_a_plugin_error(host):
    oracles = {**ORACLES, "fake_knapsack": lambda data: [{"take": [1], "value": "much"}]}
    with pytest.raises(PluginError, match="the objective 'value' of puzzle 'fake_knapsack', "
                                          "plugin 'fake_types' is 'much', not a number"):
        judge(host, "fake_knapsack", ONE_BEST, oracles=oracles)


def test_unique_optimum_needs_an_objective():
    host = fake_host(fake_own_latin={"criterion": "unique-optimum"})
    with pytest.raises(PluginError, match="uses criterion 'unique-optimum' but declares no "
                                          "objective"):
        judge(host, "fake_own_latin", UNIQUE)


# -- unique-answer -------------------------------------------------------------------------------
def test_a_forced_answer_is_accepted(host):
    verdict, engine = judge(host, "fake_corner_quiz", TWO)  # the corner is given: 1
    assert (verdict.accepted, verdict.value, verdict.fields) == (True, 0, {"answer": 0})
    assert verdict.status == Status.SAT
    hidden = (0,) + UNIQUE[1:]  # the corner is not given, but forced: 1
    verdict, _ = judge(host, "fake_corner_quiz", hidden)
    assert (verdict.accepted, verdict.value) == (True, 0)
    # one satisfying solve; "never X" settles each of the 3 distractors; the correct
    # option takes "never X" (false) and "never not X" (true)
    assert len(engine.backend.queries) == 1 + 3 + 2


def test_an_answer_that_holds_in_some_solutions_only_is_refused(host):
    verdict, _ = judge(host, "fake_corner_quiz", EMPTY)
    assert (verdict.accepted, verdict.fields) == (False, {"ambiguous_option": 0})


def test_two_correct_answers_or_none_are_refused():
    host = fake_host(fake_corner_quiz={"options": ("grid[1,1] = 1", "grid[1,1] > 0")})
    verdict, _ = judge(host, "fake_corner_quiz", TWO)
    assert (verdict.accepted, verdict.fields) == (False, {"correct": [0, 1]})
    host = fake_host(fake_corner_quiz={"options": ("grid[1,1] = 3", "not (grid[1,1] < 9)")})
    verdict, _ = judge(host, "fake_corner_quiz", TWO)
    assert (verdict.accepted, verdict.fields) == (False, {"correct": []})


def test_no_solution_or_a_time_out_is_never_an_answer(host):
    verdict, _ = judge(host, "fake_corner_quiz", CLASH)
    assert (verdict.accepted, verdict.status, verdict.solvable) == (False, Status.UNSAT, False)
    verdict, _ = judge(host, "fake_corner_quiz", TWO, lambda q: TimeOut(0))
    assert (verdict.accepted, verdict.status, verdict.solvable) == (None, Status.UNKNOWN, None)
    # only the check that option 3 never holds times out: the answer (option 1) is not
    # known to be the only one
    verdict, _ = judge(host, "fake_corner_quiz", TWO,
                       lambda q: TimeOut(0) if q.extra == ("constraint (grid[1,1] = 3);",) else None)
    assert (verdict.accepted, verdict.status) == (None, Status.UNKNOWN)


@pytest.mark.parametrize("options", [("grid[1,1] = 1",), ("grid[1,1] = 1", ""), "grid[1,1] = 1",
                                     ("grid[1,1] = 1", 2)])
def test_bad_answer_options_are_a_plugin_error(options):
    host = fake_host(fake_corner_quiz={"options": options})
    with pytest.raises(PluginError, match=r"answer_options \(puzzle 'fake_corner_quiz', plugin "
                                          r"'fake_types'\) returned .*, not two or more MiniZinc"):
        judge(host, "fake_corner_quiz", TWO)


def test_emptying_with_a_judged_criterion_keeps_the_answer_forced():
    """GenPuzzles with unique-answer: each square is judged by the criterion (no compiled
    check); the puzzle's corner value is forced and every given is needed for that."""
    host = fake_host(fake_corner_quiz={"strategy": "emptying"})
    ptype = host.get_type("fake_corner_quiz")
    for seed in (1, 2):
        for options in (GenOptions(batch=1), GenOptions(batch=8, probes=2)):
            engine = Engine(host, FakeBackend(ORACLES))
            p = engine.generate(ptype, {"size": 4}, seed, options).puzzle
            corners = {s[0] for s in solutions_of(p.grid)}
            assert corners == {p.solution[0]} and p.minimal
            for i, v in enumerate(p.grid):
                if v:
                    weaker = p.grid[:i] + (0,) + p.grid[i + 1:]
                    assert len({s[0] for s in solutions_of(weaker)}) > 1, (seed, i)


# -- the engine's own use of the answers -----------------------------------------------------------
def test_unique_solution_tells_none_several_and_time_outs_apart(host):
    ptype = host.get_type("fake_own_latin")

    def unique(board, script=None):
        engine = Engine(host, FakeBackend(ORACLES, script))
        return engine.unique_solution(ptype, {"size": 4}, board)
    assert unique(UNIQUE) == solutions_of(UNIQUE)[0]
    with pytest.raises(PuzzleInputError, match="the puzzle has no solution"):
        unique(CLASH)
    with pytest.raises(PuzzleInputError, match="the puzzle has 2 or more solutions"):
        unique(TWO)
    for answer in (TimeOut(0), TimeOut(1)):
        with pytest.raises(SolverError, match="solver timed out solving the puzzle"):
            unique(UNIQUE, lambda q: answer)


@pytest.mark.parametrize("split", [({}, {}, 5), ({}, {}, "m", "more"), ({}, {"pe_answer": [True]})])
def test_a_bad_split_is_a_plugin_error(split):
    """``split_data`` gives ``(shared, fixed)`` or ``(shared, fixed, model text)``: anything
    else names the method and the type before any solver call."""
    host = fake_host(fake_corner_quiz={"split_data": lambda self, params, instance, solver: split})
    with pytest.raises(PluginError, match=r"split_data \(puzzle 'fake_corner_quiz', plugin "
                                          r"'fake_types'\) returned .*, not None or \(shared"):
        judge(host, "fake_corner_quiz", TWO)


def test_option_questions_without_a_split_model_add_the_option_to_the_model():
    """Where no split selects an option (no ``pe_answer``), unique-answer's option
    questions are whole solves with the option's text added, as before; the type is
    asked for its split on every question (an option question has no ``extra``)."""
    seen = []

    def split(self, params, instance, solver):
        seen.append(instance)
        return None

    host = fake_host(fake_corner_quiz={"split_data": split})
    verdict, engine = judge(host, "fake_corner_quiz", TWO)
    assert (verdict.accepted, verdict.value) == (True, 0)
    assert [q.extra for q in engine.backend.queries[1:3]] == [
        ("constraint (grid[1,1] = 1);",), ("constraint not (grid[1,1] = 1);",)]
    assert len(seen) == len(engine.backend.queries)  # every question asked it first
