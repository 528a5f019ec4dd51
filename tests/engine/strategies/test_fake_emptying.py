"""The emptying strategy (GenPuzzles) end to end on the fake solver (tests/fake_solver.py):
4x4 Sudoku and 4x4 Latin squares, whose every solution the oracles enumerate, so that each
puzzle is checked by enumeration, independently of the engine's checker.

One by one, batched, probed and optimised runs give the same puzzle; a check that times
out is counted as unknown and never lets a square go; a draw the type refuses is drawn
again from the same seeded generator."""
import pytest

from puzzle_engine import PuzzleInputError, hookimpl
from puzzle_engine.engine import Engine
from puzzle_engine.errors import PluginError, SolverError
from puzzle_engine.plugins import get_host
from puzzle_engine.strategies import GenOptions

from fake_solver import LATIN, SUDOKU, FakeBackend, TimeOut, latin_squares, sudoku_boards
from support import TYPE, ToyLatin, ToyLatinType, plugin, registered

pytestmark = pytest.mark.fast

ORACLES = {"sudoku": SUDOKU, TYPE: LATIN}
BOARDS = {"sudoku": sudoku_boards(2, 2), TYPE: latin_squares(4)}
#: The ways of judging squares; each must give the one-by-one puzzle.
MODES = {"batch 16": GenOptions(batch=16, probes=1),
         "batch 16, probes 2": GenOptions(batch=16, probes=2),
         "batch 3, probes 3, optimise": GenOptions(batch=3, probes=3, optimise=True),
         "batch 16, probes 2, optimise": GenOptions(batch=16, probes=2, optimise=True)}


@pytest.fixture(scope="module")
def host():
    host = get_host()
    host.register(ToyLatin(), name="toy_latin", version="0.0.test")
    return host


def engine_on(host, script=None):
    return Engine(host, FakeBackend(ORACLES, script))


def solutions(name, grid):
    """The solutions of ``grid``, by enumeration."""
    return [b for b in BOARDS[name] if all(g == 0 or g == v for g, v in zip(grid, b))]


def without(grid, i):
    return grid[:i] + (0,) + grid[i + 1:]


def assert_acceptable_and_minimal(name, puzzle, k=1):
    """At most ``k`` solutions, the puzzle's among them, and every given needed."""
    found = solutions(name, puzzle.grid)
    assert puzzle.solution in found and len(found) <= k
    for i, v in enumerate(puzzle.grid):
        if v:
            assert len(solutions(name, without(puzzle.grid, i))) > k, f"given at {i} is not needed"


def params_of(engine, host, name, **extra):
    return engine.check_params(host.get_type(name), {"size": 4, **extra})


@pytest.mark.parametrize("name, extra", [("sudoku", {}), ("sudoku", {"choose": "random"}),
                                         (TYPE, {})])
def test_one_by_one_and_batched_give_the_same_minimal_puzzle(host, name, extra):
    ptype = host.get_type(name)
    for seed in range(1, 9):
        engine = engine_on(host)
        params = params_of(engine, host, name, **extra)
        one = engine.generate(ptype, params, seed, GenOptions(batch=1, variants=1))
        assert one.puzzle.minimal and one.puzzle.unknown == 0
        assert_acceptable_and_minimal(name, one.puzzle)
        assert one.puzzle.solver_calls == engine.backend.calls
        for mode, options in MODES.items():
            calls = engine.backend.calls
            other = engine.generate(ptype, params, seed, GenOptions(
                batch=options.batch, probes=options.probes, optimise=options.optimise,
                variants=1))
            assert (other.puzzle.grid, other.puzzle.solution) == \
                (one.puzzle.grid, one.puzzle.solution), (seed, mode)
            assert other.puzzle.minimal and other.puzzle.unknown == 0
            assert other.compl_dict == one.compl_dict, (seed, mode)
            assert [v.grid for v in other.variants] == [v.grid for v in one.variants]
            assert other.puzzle.solver_calls == engine.backend.calls - calls


def test_the_same_seed_gives_the_same_puzzle_and_another_seed_another(host):
    ptype = host.get_type(TYPE)
    made = {}
    for seed in (1, 2, 1):
        engine = engine_on(host)
        p = engine.generate(ptype, params_of(engine, host, TYPE), seed).puzzle
        made.setdefault(seed, set()).add((p.grid, p.solution))
    assert len(made[1]) == 1 and made[1] != made[2]


def test_at_most_two_solutions_and_target_empty(host):
    ptype = host.get_type("sudoku")
    engine = engine_on(host)
    params = params_of(engine, host, "sudoku")
    for seed in (1, 2, 3):
        p = engine.generate(ptype, params, seed, GenOptions(max_solutions=2)).puzzle
        assert_acceptable_and_minimal("sudoku", p, k=2)
        early = engine.generate(ptype, params, seed, GenOptions(target_empty=5)).puzzle
        assert early.grid.count(0) == 5 and not early.minimal
        assert len(solutions("sudoku", early.grid)) == 1


def spread(board):
    """A fixed, board-dependent choice of about a quarter of all boards."""
    return sum((i + 1) * v for i, v in enumerate(board)) % 4 == 0


@pytest.mark.parametrize("mode", ["one by one", *MODES])
def test_a_check_that_times_out_is_unknown_and_never_lets_a_square_go(host, mode):
    """Checks of boards with square 5 empty time out: square 5 stays a given, the
    puzzle says it is not known to be minimal, and every accepted board is unique."""
    ptype = host.get_type(TYPE)
    options = MODES.get(mode, GenOptions(batch=1))
    for seed in range(1, 6):
        engine = engine_on(host, lambda q: TimeOut() if q.check and q.board[5] == 0 else None)
        params = params_of(engine, host, TYPE)
        result = engine.generate(ptype, params, seed, options)
        p = result.puzzle
        assert any(q.check and q.board[5] == 0 for q in engine.backend.queries)
        assert p.grid[5] != 0
        assert p.unknown >= 1 and p.minimal is False
        assert len(solutions(TYPE, p.grid)) == 1
        assert all(b[5] != 0 and len(solutions(TYPE, b)) == 1
                   for boards in result.compl_dict.values() for b in boards)


@pytest.mark.parametrize("mode", ["one by one", *MODES])
def test_scattered_time_outs_never_accept_a_board(host, mode):
    """A quarter of all checks time out, a fixed set of boards: whatever the mode, every
    board the strategy accepted has one solution, and the time-outs are counted."""
    ptype = host.get_type("sudoku")
    options = MODES.get(mode, GenOptions(batch=1))
    for seed in range(1, 6):
        engine = engine_on(host, lambda q: TimeOut() if q.check and spread(q.board) else None)
        result = engine.generate(ptype, params_of(engine, host, "sudoku"), seed, options)
        timed = [q for q in engine.backend.queries if q.check and spread(q.board)]
        accepted = [b for boards in result.compl_dict.values() for b in boards]
        assert accepted and all(len(solutions("sudoku", b)) == 1 for b in accepted)
        assert (result.puzzle.unknown > 0) == (result.puzzle.minimal is False)
        if result.puzzle.unknown:
            assert timed


def test_a_full_board_the_solver_could_not_verify_is_unknown(host):
    """The one solve that verifies the random full board times out: the puzzle is made,
    but flagged (unknown, not minimal)."""
    ptype = host.get_type(TYPE)
    engine = engine_on(host, lambda q: TimeOut() if q.kind == "run" and q.differs is None
                       and 0 not in q.board else None)
    p = engine.generate(ptype, params_of(engine, host, TYPE), 1).puzzle
    assert p.unknown == 1 and p.minimal is False
    assert len(solutions(TYPE, p.grid)) == 1


def test_a_time_out_while_completing_the_full_board_is_an_error(host):
    ptype = host.get_type(TYPE)
    engine = engine_on(host, lambda q: TimeOut() if q.kind == "run" and q.differs is None
                       and 0 in q.board else None)
    with pytest.raises(SolverError, match=f"solver timed out completing a '{TYPE}' board "
                                          r"\(raise --time-limit\)"):
        engine.generate(ptype, params_of(engine, host, TYPE), 1)


class Picky(ToyLatinType):
    """Refuses the finished puzzles in ``refused`` (set per test) and the random full
    boards for which its generator draws below ``skip``."""

    name = "picky_latin"
    refused: frozenset = frozenset()
    skip = 0.0

    def random_solution(self, params, rng, solve, transform):
        if rng.random() < self.skip:
            return None
        return super().random_solution(params, rng, solve, transform)

    def accept_puzzle(self, params, instance, solution):
        return instance not in self.refused


def picky_host(**attrs):
    host = get_host()
    picky = type("Picky", (Picky,), attrs)()
    assert host.register(plugin(lambda register: register(picky)), name="picky")
    return host, host.get_type("picky_latin")


def test_a_refused_puzzle_is_drawn_again_from_the_same_generator():
    """Refusing the puzzle of seed 3 gives another one, the same on every run, recorded
    with the number of draws; refusing that one too takes a third draw."""
    oracles = {"picky_latin": LATIN}
    host, ptype = picky_host()
    first = Engine(host, FakeBackend(oracles)).generate(ptype, {"size": 4}, 3).puzzle
    assert "draws" not in first.extra
    host, ptype = picky_host(refused=frozenset({first.grid}))
    second = [Engine(host, FakeBackend(oracles)).generate(ptype, {"size": 4}, 3, options).puzzle
              for options in (GenOptions(batch=1), GenOptions(batch=16, probes=2))]
    assert second[0].grid != first.grid and second[0].extra["draws"] == 2
    # the same removals, decided by the same paths, one by one and batched
    assert (second[1].grid, second[1].extra) == (second[0].grid, second[0].extra)
    removals = second[0].extra["removals"]
    assert set(removals) <= {"checker", "type"} and sum(
        p["kept"] + p["refused"] for p in removals.values()) == 16
    assert_acceptable_and_minimal(TYPE, second[0])
    host, ptype = picky_host(refused=frozenset({first.grid, second[0].grid}))
    third = Engine(host, FakeBackend(oracles)).generate(ptype, {"size": 4}, 3).puzzle
    assert third.extra["draws"] == 3 and third.grid not in (first.grid, second[0].grid)


def test_refused_random_boards_are_drawn_again_and_a_type_that_refuses_all_is_an_error():
    oracles = {"picky_latin": LATIN}
    host, ptype = picky_host(skip=0.5)
    made = {Engine(host, FakeBackend(oracles)).generate(ptype, {"size": 4}, 4).puzzle.grid
            for _ in range(2)}
    assert len(made) == 1 and len(solutions(TYPE, made.pop())) == 1
    host, ptype = picky_host(skip=1.0)
    with pytest.raises(PluginError, match=r"^random_solution \(puzzle 'picky_latin', plugin "
                                          r"'picky'\) refused 100 draws in a row$"):
        Engine(host, FakeBackend(oracles)).generate(ptype, {"size": 4}, 4)


def test_a_type_that_refuses_every_puzzle_is_a_one_line_error():
    class Never(Picky):
        def accept_puzzle(self, params, instance, solution):
            return False

    never = registered(Never(), "picky")
    engine = Engine(get_host(), FakeBackend({"picky_latin": LATIN}))
    with pytest.raises(PluginError) as caught:
        engine.generate(never, {"size": 4}, 1)
    assert str(caught.value) == ("accept_puzzle (puzzle 'picky_latin', plugin 'picky') "
                                 "refused 100 puzzles in a row")
    # 100 whole emptyings: the solver was asked every time
    assert engine.backend.calls > 100


def test_bad_strategy_options_are_refused_before_any_solve(host):
    engine = engine_on(host)
    ptype = host.get_type(TYPE)
    for options, says in (({"batch": 0}, "bad --batch 0"), ({"probes": 65}, "bad --probes 65"),
                          ({"nosuch": 1}, "strategy 'emptying' has no option --nosuch")):
        with pytest.raises(PuzzleInputError, match=says):
            engine.generate(ptype, {"size": 4}, 1, options)
    assert engine.backend.calls == 0


@pytest.mark.parametrize("label", [["deduced"], "", None])
@pytest.mark.parametrize("batch", [1, 16])
def test_a_bad_note_is_a_one_line_plugin_error(label, batch):
    """``checker.note`` takes a name (a non-empty str): anything else is the plugin's
    error, one line naming it, never a traceback from the record of removals."""
    class Noting(Picky):
        def is_remove_valid(self, params, board, index, solution, checker, max_solutions):
            checker.note(label)
            return checker.at_most(board, max_solutions)

    noting = registered(Noting(), "picky")
    engine = Engine(get_host(), FakeBackend({"picky_latin": LATIN}))
    with pytest.raises(PluginError, match=r"^is_remove_valid \(puzzle 'picky_latin', plugin "
                                          r"'picky'\) raised TypeError: checker.note takes a "
                                          r"non-empty str"):
        engine.generate(noting, {"size": 4}, 1, GenOptions(batch=batch))
