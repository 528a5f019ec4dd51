"""Explanations of a type whose answer is its decision array: Combination, through its
``explanation_board`` and ``constraint_groups``, on the real solvers.

Each reason is checked as in test_explain.py, independently of the explainer's CP-SAT:
MiniZinc and Gecode on the type's model with its own rules off and only the reason's
groups and facts stated. Levels are 2x3, so a whole path takes seconds."""
from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from puzzle_engine import ExplanationBoard, PuzzleInputError
from puzzle_engine.errors import PluginError
from puzzle_engine.explain import Explainer
from puzzle_engine.explain.flatten import groups_of

from support import _check_reason, _cli, _forced, _parse

# gen combination --width 3 --height 2 --seed 2 (unique; no two colours alike)
LEVEL = "1 bishop a, 2 rook b, 1 bishop b: .../o.."
# ... --seed 1: colours a and b have the same pieces (unique up to swapping them)
ALIKE = "1 bishop a, 1 queen b, 1 bishop b, 1 queen a: .#./..."
# two placements that no swap of colours relates: the explainer gets stuck
TWO = "2 queen b, 1 bishop b, 1 bishop a: .../..."
PIECES = {"empty", "rook a", "bishop a", "queen a", "rook b", "bishop b", "queen b"}


@pytest.fixture(scope="module")
def combination(host):
    return host.get_type("combination")


def _path(engine, ptype, text, **options):
    parsed = _parse(ptype, text)
    ex = Explainer(engine, ptype, parsed.params, parsed.instance, **options)
    return parsed, ex, ex.run()


def _solutions(engines, ptype, parsed) -> list[tuple[int, ...]]:
    _, solutions = engines["gecode"].solve(ptype, parsed.params, parsed.instance, nr_solutions=0)
    return solutions


def _filled(parsed, ex, steps) -> list[int | None]:
    """The board the steps leave: walls and holes known, each "=" step filled in."""
    board: list[int | None] = [None] * len(parsed.instance.board)
    for x, v in ex.board.known.items():
        board[x] = v
    for step in steps:
        if step.fact.equal:
            assert board[step.fact.square] is None, step
            board[step.fact.square] = step.fact.value
    return board


def test_the_steps_solve_the_level_each_forced_and_minimal(engines, cpsat_engine, combination):
    parsed, ex, result = _path(cpsat_engine, combination, LEVEL)
    assert result.solved and result.stuck is None
    # The squares to find are the empty ones; walls and holes are known as -1 and -2.
    assert ex.board.known == {3: -2}
    assert [ex.square_name(x) for x in (0, 5)] == ["r1c1", "r2c3"]
    assert [_filled(parsed, ex, result.steps)] == [list(s) for s in _solutions(
        engines, combination, parsed)]   # the one solution
    # Every reason forces its step by Gecode, with only its groups and facts, and is
    # minimal: dropping any group or fact lets the negation through.
    for step in result.steps:
        assert step.names == tuple(ex.names[g] for g in step.groups)
    _check_reasons(engines["gecode"], combination, parsed, result.steps)
    assert max(s.size for s in result.steps) <= 4


def _check_reasons(engine, ptype, parsed, steps) -> None:
    """test_explain's ``_check_reason`` (forced, and minimal) for every step, the same
    MiniZinc runs, four at a time (each is mostly MiniZinc starting and compiling, so they
    overlap well even on two cores: 26 s to 7 s here): each reason forces its step, and
    without any one of its groups or facts does not."""
    jobs = []
    for step in steps:
        groups, facts = list(step.groups), list(step.facts)
        jobs.append((step, "does not force it", groups, facts, True))
        jobs += [(step, f"group {step.names[k]} is not needed", groups[:k] + groups[k + 1:],
                  facts, False) for k in range(len(groups))]
        jobs += [(step, f"fact {facts[k]} is not needed", groups, facts[:k] + facts[k + 1:],
                  False) for k in range(len(facts))]
    with ThreadPoolExecutor(4) as pool:
        forced = list(pool.map(lambda job: _forced(engine, ptype, parsed.params, parsed.instance,
                                                   job[2], job[3], job[0].fact), jobs))
    for (step, what, _, _, expected), found in zip(jobs, forced):
        assert found == expected, f"{step}: {what}"


def test_alike_colours_are_ordered_by_a_group_of_their_own(engines, cpsat_engine, combination):
    """Colours a and b have the same pieces, so the level is unique only up to swapping
    them; the model orders them, and a reason that picks one says so."""
    parsed, ex, result = _path(cpsat_engine, combination, ALIKE)
    order = "a and b have the same pieces: a's first piece comes before b's, row by row"
    assert order in ex.names and result.solved
    first = result.steps[0]
    assert first.names == (order,) and not first.fact.equal and first.fact.value in (9, 10, 11)
    _check_reason(engines["gecode"], combination, parsed.params, parsed.instance, first)
    assert [_filled(parsed, ex, result.steps)] == [list(s) for s in _solutions(
        engines, combination, parsed)]   # the one solution


def test_the_groups_have_exactly_the_models_solutions(engines, cpsat_engine, combination):
    """With the model's rules off (``grouped = true``), every group stated gives back the
    model's solutions (here four, so the check has something to compare)."""
    parsed = _parse(combination, TWO)
    declared = groups_of(combination, parsed.params, parsed.instance)
    data = {**combination.to_data(parsed.params, parsed.instance, None), **declared.data}
    extra = [f"constraint {g.constraint};" for g in declared.groups]
    _, raw = engines["gecode"].backend.solve(combination, data, nr_solutions=0, extra=extra)
    grouped = sorted(combination.from_solution(parsed.params, r) for r in raw)
    assert grouped == sorted(_solutions(engines, combination, parsed)) and len(grouped) == 4
    # Without the groups, the grouped model has many more.
    _, raw = engines["gecode"].backend.solve(combination, data, nr_solutions=0)
    assert len(raw) > 100


def test_a_level_with_two_placements_needs_search(engines, cpsat_engine, combination):
    parsed, ex, result = _path(cpsat_engine, combination, TWO)
    assert not result.solved and "needs search" in result.stuck
    # Each step it took holds in both placements.
    solutions = _solutions(engines, combination, parsed)
    for step in result.steps:
        f = step.fact
        assert all((s[f.square] == f.value) == f.equal for s in solutions), step


def test_explain_and_hint_on_a_generated_level(tmp_path):
    level = tmp_path / "level.jsonl"
    out = _cli("gen", "combination", "--width", "3", "--height", "2", "--seed", "2",
               "--format", "json", "--out", str(level))
    assert out.returncode == 0, out.stderr
    record = json.loads(level.read_text())
    assert f"{record['pieces']}: {'/'.join(record['board'])}" == LEVEL
    out = _cli("explain", "combination", str(level))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert re.match(r"solved in \d+ steps \(\d+ facts found\); largest reason \d+ groups",
                    lines[-1])
    # Each step in Combination's words (issue 41): its technique, then pieces by name.
    step = re.compile(r"^ *\d+\. [A-Z][a-z ]+: .*r\dc\d")
    for line in lines[:-1]:
        assert step.match(line) and not re.search(r"hold \d", line), line  # pieces by name
    assert "Only square left: by the count of bishop a (1), r1c1 is the only square left " \
        "for bishop a" in out.stdout
    assert any("r1c3 holds rook b" in line for line in lines)
    assert any(re.search(r"row \d|column \d|the diagonal r\dc\d-r\dc\d", line) for line in lines)
    assert any("the count of rook b (2)" in line for line in lines)

    out = _cli("explain", "combination", str(level), "--format", "json")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["solved"] and record["needs_search"] is None
    assert len({s["said"] for s in record["steps"]} - {None}) == len(lines) - 1
    for s in record["steps"]:
        assert s["value_name"] in PIECES and isinstance(s["value"], int)
        assert all(f["value_name"] in PIECES for f in s["facts"])

    out = _cli("hint", "combination", str(level), "--format", "json")
    assert out.returncode == 0, out.stderr
    first = next(s for s in record["steps"] if s["said"] == 1 and s["technique"] != "elimination")
    assert json.loads(out.stdout)["step"] == first
    out = _cli("hint", "combination", str(level))
    assert out.returncode == 0 and out.stdout.count("\n") == 1
    assert out.stdout.startswith(lines[0].split(". ", 1)[1])


def test_cli_needs_search_and_bad_input():
    out = _cli("explain", "combination", TWO)
    assert out.returncode == 1 and "needs search" in out.stdout
    # A first step that needs three groups, under --max-size 2: needing search there.
    out = _cli("hint", "combination", LEVEL, "--max-size", "2")
    assert out.returncode == 1
    assert out.stdout == "needs search: no step has a reason of at most 2 groups\n"
    for level, message in (("1 rook z: ...", "unknown colour 'z'"),
                           ("2 rook a, 1 rook b: ../..", "the puzzle has no solution"),
                           ("1 rook a, 1 rook b: .x./...", "unknown square 'x'")):
        out = _cli("hint", "combination", level)
        assert out.returncode == 2, (level, out.stdout)
        assert message in out.stderr and out.stderr.count("\n") == 1, out.stderr
        assert "Traceback" not in out.stderr


@pytest.mark.parametrize("bad", [
    "r1c1", ExplanationBoard({}, ()), ExplanationBoard({9: 0}, ("a",) * 6),
    ExplanationBoard({0: "wall"}, ("a",) * 6), ExplanationBoard({}, ("a",) * 6, {"x": "y"}),
    # data that is no MiniZinc data (was "internal error: TypeError ... not JSON
    # serializable"), a name on two lines (was a step printed on two lines)
    ExplanationBoard({}, ("a",) * 6, {}, {"w": object()}),
    ExplanationBoard({}, ("a",) * 5 + ("r2c3\nsecond line",)),
    ExplanationBoard({}, ("a",) * 6, {1: "rook\ta"})])
def test_a_bad_explanation_board_is_the_plugins_error(cpsat_engine, combination, monkeypatch,
                                                      bad):
    monkeypatch.setattr(combination, "explanation_board", lambda params, instance: bad)
    parsed = _parse(combination, LEVEL)
    with pytest.raises(PluginError, match=r"explanation_board \(puzzle 'combination', "):
        Explainer(cpsat_engine, combination, parsed.params, parsed.instance)
    # The CLI says it in one line.
    monkeypatch.setattr(type(combination), "explanation_board",
                        lambda self, params, instance: bad)
    out = _cli("hint", "combination", LEVEL)
    assert out.returncode != 0 and out.stderr.count("\n") == 1 and "explanation_board" in out.stderr


def test_a_board_of_the_wrong_size_is_one_line(cpsat_engine, combination, monkeypatch):
    monkeypatch.setattr(combination, "explanation_board",
                        lambda params, instance: ExplanationBoard({}, ("a",) * 5))
    parsed = _parse(combination, LEVEL)
    with pytest.raises(PuzzleInputError, match="the puzzle has 5 squares, the model 6"):
        Explainer(cpsat_engine, combination, parsed.params, parsed.instance)


def test_a_file_of_another_type_is_one_line_naming_the_file(tmp_path):
    """A Sudoku grid (or its record) given to ``hint combination``: exit 2, one line that
    names the file (the grid's error named no file)."""
    grid = tmp_path / "sudoku.txt"
    grid.write_text(". . | . 4\n. 3 | 2 .\n----+----\n. . | . .\n2 . | 4 .\n")
    record = tmp_path / "sudoku.jsonl"
    record.write_text('{"type": "sudoku", "params": {"size": 4}, "grid": [[0, 0, 0, 4], '
                      '[0, 3, 2, 0], [0, 0, 0, 0], [2, 0, 4, 0]]}\n')
    for path, says in ((grid, "piece type 1"), (record, "a 'sudoku' puzzle, not 'combination'")):
        out = _cli("hint", "combination", str(path))
        assert out.returncode == 2 and out.stdout == "", (out.stdout, out.exception)
        assert out.stderr.count("\n") == 1 and f"{path}" in out.stderr and says in out.stderr, \
            out.stderr


def test_solution_support_rules_out_exactly_what_is_forced_with_few_solutions(cpsat_engine,
                                                                              combination):
    """Each set of one or two groups rules out exactly the candidates that no solution of
    its model has (checked one by one, by the same CP-SAT model); and each solution asked
    for is rich, showing new values on several squares at once: far fewer solves than
    candidates shown (253 against 812 here; 609 when each solution was the solver's own)."""
    parsed = _parse(combination, LEVEL)
    ex = Explainer(cpsat_engine, combination, parsed.params, parsed.instance)
    before, shown = ex.checks, 0
    for k in (1, 2):
        for s in ex._sets(k):
            ruled = set(ex.implied(s))
            model = ex._model(s)
            base = ex._fact_literals(model, model.squares)
            for x in model.squares:
                for w in sorted(ex.domains[x]):
                    allowed = model.check(base + [model.literal(x, w)]).sat
                    assert allowed == ((x, w) not in ruled), (ex.names, s, x, w)
                    shown += allowed and len(ex.domains[x]) > 1
    assert ex.checks - before < shown / 2, (ex.checks - before, shown)
