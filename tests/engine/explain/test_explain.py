"""The explainer (puzzle_engine.explain) and its commands, on the real solvers.

Each step's reason is checked by an independent path: MiniZinc and Gecode, on the type's
model with the model's own rules off and only the reason's groups and facts stated. The
reason must force the step (no solution with the step negated) and be subset-minimal
(dropping any one group or fact lets the negation through)."""
from __future__ import annotations

import json
from importlib.resources import files

import pytest

from puzzle_engine import ConstraintGroup, ConstraintGroups
from puzzle_engine.errors import PluginError
from puzzle_engine.explain import Explainer
from puzzle_engine.explain.flatten import RULES, groups_of
from puzzle_engine.explain.report import next_step
from support import _check_reason, _cli, _forced, _parse

SUDOKU_4 = "...4.32.....2.4."            # unique (gen sudoku --size 4 --seed 1)
SUDOKU_4_TWO = "12..34.........."        # two rows begun: several solutions
FILLOMINO_3 = ". . 2/3 1 ./2 . 1"        # unique (gen fillomino --rows 3 --cols 3 --seed 2)


def test_sudoku_steps_are_forced_minimal_and_solve_it(engines, cpsat_engine, sudoku):
    parsed = _parse(sudoku, SUDOKU_4)
    ex = Explainer(cpsat_engine, sudoku, parsed.params, parsed.instance)
    result = ex.run()
    assert result.solved and result.stuck is None
    # The steps solve the puzzle: givens and "=" steps give the unique solution.
    board = list(parsed.instance)
    for step in result.steps:
        if step.fact.equal:
            assert board[step.fact.square] == 0
            board[step.fact.square] = step.fact.value
    _, solutions = engines["gecode"].solve(sudoku, parsed.params, parsed.instance, nr_solutions=2)
    assert solutions == [tuple(board)]
    # Each reason forces its step and is subset-minimal (Gecode, not the explainer's
    # CP-SAT). To keep the test short: every "=" step and every fourth "!=" step is checked
    # to be forced, the first step of each kind and the one with most facts to be minimal.
    gecode = engines["gecode"]
    minimal = {result.steps[0], next(s for s in result.steps if s.fact.equal),
               max(result.steps, key=lambda s: len(s.facts))}
    for k, step in enumerate(result.steps):
        assert step.names == tuple(ex.names[g] for g in step.groups)
        if step.fact.equal or k % 4 == 0 or step in minimal:
            _check_reason(gecode, sudoku, parsed.params, parsed.instance, step,
                          minimal=step in minimal)
    # The smallest step first: sizes never exceed what an exhaustive search allowed.
    assert max(s.size for s in result.steps) <= 2


def test_reasons_name_units_and_hint_is_the_first_step(cpsat_engine, sudoku):
    parsed = _parse(sudoku, SUDOKU_4)
    step, ex = next_step(cpsat_engine, sudoku, parsed.params, parsed.instance)
    first = Explainer(cpsat_engine, sudoku, parsed.params, parsed.instance).run(limit=1).steps[0]
    assert step == first
    assert set(step.names) <= {f"{k} {i}" for k in ("row", "column") for i in range(1, 5)} | {
        f"box {b},{s}" for b in (1, 2) for s in (1, 2)}


def test_a_puzzle_with_two_solutions_needs_search(cpsat_engine, sudoku):
    parsed = _parse(sudoku, SUDOKU_4_TWO)
    result = Explainer(cpsat_engine, sudoku, parsed.params, parsed.instance).run()
    assert not result.solved
    assert result.stuck is not None and "needs search" in result.stuck
    # It stopped: every step it did take is forced (no square filled against a solution).
    assert len(result.steps) < 16 * 4


def test_max_size_stops_as_needing_search(cpsat_engine, sudoku):
    parsed = _parse(sudoku, SUDOKU_4)
    result = Explainer(cpsat_engine, sudoku, parsed.params, parsed.instance, max_size=0).run()
    assert not result.solved and "at most 0 groups" in result.stuck


def test_fillomino_regions_explain_the_first_step(engines, cpsat_engine, host):
    fillomino = host.get_type("fillomino")
    parsed = _parse(fillomino, FILLOMINO_3)
    ex = Explainer(cpsat_engine, fillomino, parsed.params, parsed.instance)
    result = ex.run(limit=1)
    assert len(result.steps) == 1
    for step in result.steps:
        assert all(n.startswith("the region ") for n in step.names)
        _check_reason(engines["gecode"], fillomino, parsed.params, parsed.instance, step)
    assert "the region of 2 at r1c3" in ex.names and "the region at r1c1" in ex.names


@pytest.fixture(scope="module")
def fillomino_path(cpsat_engine, host):
    fillomino = host.get_type("fillomino")
    parsed = _parse(fillomino, FILLOMINO_3)
    ex = Explainer(cpsat_engine, fillomino, parsed.params, parsed.instance)
    return fillomino, parsed, ex, ex.run()


def test_fillomino_whole_path_names_groups_on_each_square(fillomino_path):
    """The whole model's core once named three groups that do not even reach r1c1 for
    "r1c1 != 1" (it leant on what flattening made of r1c1's own group, which was off),
    and the explainer crashed on them: every reason now reaches its square."""
    _, _, ex, result = fillomino_path
    assert result.solved
    for step in result.steps:
        if step.groups:
            assert any(step.fact.square in ex._scope[g] for g in step.groups), step


def test_fillomino_every_step_is_forced_by_its_own_groups(engines, fillomino_path):
    """Each group is compiled under an indicator, so nothing of it is folded into a domain
    that would hold with the group off: every reason holds with its own groups alone.
    (Before, one of the 9 steps here named too few groups.)"""
    fillomino, parsed, _, result = fillomino_path
    _every_step_forced(engines, fillomino, parsed, result)


# gen fillomino --rows 4 --cols 4 --seed 1 and --seed 2: before the indicators, 5 of 22
# and 7 of 25 steps named too few groups. Checked by Chuffed (independent of the
# explainer's CP-SAT too): with most cells' rules off Gecode took 259 s for seed 1 and
# over 8 minutes for one reason of seed 2; Chuffed takes about 11 s for each puzzle.
@pytest.mark.slow
@pytest.mark.parametrize("text", [". . . ./2 . 4 ./. . 2 3/. . 4 1", "4 . . ./. 3 . 1/. 2 4 ./1 . . 1"])
def test_fillomino_4x4_every_step_is_forced_by_its_own_groups(engines, cpsat_engine, host, text):
    fillomino = host.get_type("fillomino")
    parsed = _parse(fillomino, text)
    result = Explainer(cpsat_engine, fillomino, parsed.params, parsed.instance).run()
    assert result.solved
    _every_step_forced(engines, fillomino, parsed, result, "chuffed")


def _every_step_forced(engines, fillomino, parsed, result, solver="gecode"):
    for step in result.steps:
        if step.groups:
            assert _forced(engines[solver], fillomino, parsed.params, parsed.instance,
                           list(step.groups), list(step.facts), step.fact), step


def test_a_check_that_runs_out_of_time_is_an_error_not_a_deduction(cpsat_engine, sudoku,
                                                                  monkeypatch):
    """A check CP-SAT leaves UNKNOWN stops the explainer with a one-line error; it is
    never read as "no solution" (which would make a step of it)."""
    from puzzle_engine.errors import ModelError
    from puzzle_engine.explain.model import GroupModel
    parsed = _parse(sudoku, SUDOKU_4)
    ex = Explainer(cpsat_engine, sudoku, parsed.params, parsed.instance, backend="cp-sat")
    check = GroupModel.check

    def out_of_time(self, assumptions, want_core=False):
        self.solver.parameters.max_time_in_seconds = 0.0
        return check(self, assumptions, want_core)
    monkeypatch.setattr(GroupModel, "check", out_of_time)
    with pytest.raises(ModelError, match="ended UNKNOWN"):
        ex.run(limit=1)


def test_a_sat_check_left_unknown_is_an_error_not_a_deduction(cpsat_engine, sudoku,
                                                              monkeypatch):
    """The same on the SAT back end: a solve that gives no answer (python-sat's None, a
    budget run out) is an error, never "no solution"."""
    from puzzle_engine.errors import ModelError
    from puzzle_engine.explain.sat import SatModel
    parsed = _parse(sudoku, SUDOKU_4)
    ex = Explainer(cpsat_engine, sudoku, parsed.params, parsed.instance)
    assert ex.backend == "sat"
    monkeypatch.setattr(SatModel, "_solve", lambda self, assumptions: None)
    with pytest.raises(ModelError, match="ended UNKNOWN"):
        ex.run(limit=1)


def test_without_groups_the_model_is_one_group(cpsat_engine, host, monkeypatch):
    sudoku = host.get_type("sudoku")
    monkeypatch.setattr(sudoku, "constraint_groups", lambda params, instance: None)
    parsed = _parse(sudoku, SUDOKU_4)
    ex = Explainer(cpsat_engine, sudoku, parsed.params, parsed.instance)
    result = ex.run(limit=3)
    assert ex.names == [RULES]
    assert [s.names for s in result.steps] == [(RULES,)] * 3


@pytest.mark.fast
@pytest.mark.parametrize("bad", [
    "row 1", ConstraintGroups(()), ConstraintGroups(("x",)),
    # a name on two lines printed a step's reason over two lines
    ConstraintGroups((ConstraintGroup("row 1\nand more", "true"),))])
def test_a_bad_groups_value_is_the_plugins_error(host, monkeypatch, bad):
    sudoku = host.get_type("sudoku")
    monkeypatch.setattr(sudoku, "constraint_groups", lambda params, instance: bad)
    params = sudoku.check_params({"size": 4, "box": None, "choose": None})
    with pytest.raises(PluginError, match="constraint_groups .*puzzle 'sudoku'"):
        groups_of(sudoku, params, (0,) * 16)


def test_cli_explain_hint_and_errors():
    out = _cli("explain", "sudoku", SUDOKU_4, "--steps", "3", "--format", "json")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    # (three steps shown; the plain eliminations they rest on are folded into them)
    assert {s["said"] for s in record["steps"]} - {None} == {1, 2, 3} and record["needs_search"] is None
    assert {"name", "relation", "value", "size", "groups", "facts", "technique", "text"} <= \
        set(record["steps"][0])
    out = _cli("hint", "sudoku", SUDOKU_4)
    assert out.returncode == 0 and out.stdout.count("\n") == 1 and ": " in out.stdout
    out = _cli("explain", "sudoku", SUDOKU_4_TWO)
    assert out.returncode == 1 and "needs search" in out.stdout
    for args, message in ((("--format", "line"), "bad --format 'line'"),
                          (("--steps", "0"), "bad --steps 0")):
        out = _cli("explain", "sudoku", SUDOKU_4, *args)
        assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr
    out = _cli("hint", "polyomino-math", "2xL3: 991/191")
    assert out.returncode == 2 and "cannot be explained" in out.stderr
    # MiniZinc's symbol table (--keep-paths) goes to a temporary folder, not the package.
    assert not [p.name for p in files("puzzle_engine_models").iterdir() if p.name.endswith(".paths")]


def test_hint_on_the_last_empty_square_does_not_say_already_solved():
    """Issue 38: the hint fills the last square; what follows must not contradict it."""
    out = _cli("hint", "sudoku", "123434122143432.")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "Full house: r4c4 is the last empty square of row 4, so it holds 1",
        "solved: that was the last square"]
    out = _cli("hint", "sudoku", "1234341221434321")
    assert (out.returncode, out.stdout) == (0, "already solved\n")


@pytest.mark.fast
def test_step_features_count_reasons_above_each_size():
    from puzzle_engine.explain import Fact, Step
    from puzzle_engine.explain.rating import score, step_features

    def step(size, equal):
        return Step(Fact(0, 1, equal), tuple(range(size)), ("g",) * size, None)
    steps = [step(1, False), step(1, True), step(2, False), step(3, True), step(0, True)]
    feats = step_features(steps)
    assert feats["step_max_size"] == 3 and feats["step_mean_size"] == pytest.approx(7 / 5)
    assert feats["step_mean_fill_size"] == pytest.approx(4 / 3) and feats["step_count"] == 5
    assert [feats[f"steps_above_{k}"] for k in (0, 1, 2, 3, 5)] == [4, 2, 1, 0, 0]
    assert score(feats) == pytest.approx(3 + 2 / 5)
    # A path cut short by search is rated one size above its largest step.
    assert step_features(steps, solved=False)["step_max_size"] == 4


def test_grade_with_steps_adds_the_step_features():
    out = _cli("grade", "sudoku", SUDOKU_4, "--steps", "--runs", "3", "--format", "json")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["options"]["steps"] is True
    assert record["steps"]["step_max_size"] >= 1 and record["steps"]["step_count"] >= 10


def test_sudoku_runs_on_sat_fillomino_on_cpsat_and_puzzles_share_one_flattening(
        cpsat_engine, sudoku, host):
    """Issue 39: a model that encodes as CNF is explained on SAT, one that does not
    (Fillomino's linear sums) on CP-SAT as before; puzzles of one type and size share the
    flattened model (MiniZinc runs once for a page of hints), and give the same steps on
    both back ends (solution support does not depend on the solver)."""
    first, other = _parse(sudoku, SUDOKU_4), _parse(sudoku, "1..4.32.....2.4.")
    ex = Explainer(cpsat_engine, sudoku, first.params, first.instance)
    again = Explainer(cpsat_engine, sudoku, other.params, other.instance)
    assert ex.backend == again.backend == "sat" and ex.flat is again.flat
    on_sat = ex.run()
    on_cpsat = Explainer(cpsat_engine, sudoku, first.params, first.instance,
                         backend="cp-sat").run()
    assert [(s.fact, s.groups) for s in on_sat.steps] == \
        [(s.fact, s.groups) for s in on_cpsat.steps]
    fillomino = host.get_type("fillomino")
    parsed = _parse(fillomino, FILLOMINO_3)
    assert Explainer(cpsat_engine, fillomino, parsed.params, parsed.instance).backend == "cp-sat"
