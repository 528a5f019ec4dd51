"""The Fillomino plugin (paper 000, section 3.2), end to end on the real solvers."""
import json
import random
import re
from types import SimpleNamespace

import pytest

from puzzle_engine import PuzzleInputError, calls
from puzzle_engine.solving.backend import Backend
from puzzle_engine.engine import Engine
from puzzle_engine.strategies import GenOptions
from puzzle_engine_plugins.fillomino import logic
from support import brute_force_solutions, params_for, TESTS

DATA = TESTS / "data" / "fillomino_public.txt"


@pytest.fixture(scope="module")
def fillomino(host):
    return host.get_type("fillomino")


@pytest.fixture(scope="module")
def fengines(host):
    """Chuffed with free search, as the plugin asks for, and plain Gecode; no time limit."""
    return {"chuffed": Engine(host, Backend("chuffed", free_search=True)),
            "gecode": Engine(host, Backend("gecode"))}


def public_puzzles():
    lines = [ln for ln in DATA.read_text().splitlines() if ln and not ln.startswith("#")]
    header = lines[0].split("\t")
    return [dict(zip(header, ln.split("\t"))) for ln in lines[1:]]


# -- the model --------------------------------------------------------------------------------
@pytest.mark.parametrize("solver", ["gecode", "chuffed"])
@pytest.mark.parametrize("puzzle", public_puzzles(), ids=lambda p: p["id"])
def test_public_puzzles_have_exactly_their_published_solution(fengines, fillomino, solver, puzzle):
    engine = fengines[solver]
    parsed = fillomino.parse({}, puzzle["givens"])
    assert (parsed.params["rows"], parsed.params["cols"]) == (int(puzzle["rows"]), int(puzzle["cols"]))
    _, solution = logic.parse(puzzle["solution"], {})
    result, boards = engine.solve(fillomino, parsed.params, parsed.board, nr_solutions=2)
    assert result.complete
    assert boards == [solution]


@pytest.mark.parametrize("rows, cols", [(3, 3), (2, 4)])
@pytest.mark.parametrize("solver", ["gecode", "chuffed"])
def test_model_counts_exactly_the_fillomino_solutions(fengines, fillomino, solver, rows, cols):
    """Every auxiliary variable is a function of the values, so the model's solutions are
    the Fillomino solutions, one each: compared with a brute-force enumeration, on the
    empty board and on random partial boards (whose data carry the value bound)."""
    expected = brute_force_solutions(rows, cols)
    engine = fengines[solver]
    params = params_for(engine, fillomino, rows, cols)
    result, boards = engine.solve(fillomino, params, (0,) * (rows * cols), nr_solutions=10_000)
    assert result.complete
    assert len(boards) == len(set(boards))
    assert set(boards) == expected
    rng = random.Random(7)
    for _ in range(6):
        full = rng.choice(sorted(expected))
        board = tuple(v if rng.random() < 0.3 else 0 for v in full)
        result, boards = engine.solve(fillomino, params, board, nr_solutions=10_000)
        assert result.complete
        assert set(boards) == {s for s in expected
                               if all(g in (0, v) for g, v in zip(board, s))}


@pytest.mark.fast
def test_value_bound_is_never_below_a_solution_value():
    """The bound passed as maxv must admit every solution of the givens."""
    rows, cols = 3, 3
    solutions = sorted(brute_force_solutions(rows, cols))
    rng = random.Random(3)
    for _ in range(300):
        full = rng.choice(solutions)
        board = tuple(v if rng.random() < 0.4 else 0 for v in full)
        bound = logic.value_bound(board, rows, cols)
        for s in solutions:
            if all(g in (0, v) for g, v in zip(board, s)):
                assert max(s) <= bound, (board, s, bound)
    # and it is tight where it can be: a full board needs nothing beyond its values
    assert logic.value_bound((1, 2, 2, 3, 3, 3), 2, 3) == 3


# -- GetRandomPuzzle ------------------------------------------------------------------------
@pytest.mark.fast
@pytest.mark.parametrize("rows, cols, sizes", [
    (5, 5, (1, 2, 3, 4, 5)), (9, 9, tuple(range(1, 10))), (7, 4, (1, 2, 4)),
    (12, 12, (3, 5, 7)), (16, 16, tuple(range(1, 17))), (1, 6, (1, 2))])
def test_random_partition_is_a_valid_board_within_max_region(rows, cols, sizes):
    for seed in range(25):
        board = logic.random_partition(rows, cols, sizes, random.Random(seed))
        assert len(board) == rows * cols
        assert logic.is_valid_solution(board, rows, cols)
        assert max(board) <= max(sizes)


@pytest.mark.fast
def test_random_partition_is_reproducible():
    a = logic.random_partition(9, 9, range(1, 10), random.Random(5))
    b = logic.random_partition(9, 9, range(1, 10), random.Random(5))
    c = logic.random_partition(9, 9, range(1, 10), random.Random(6))
    assert a == b != c


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_solver_seeding_gives_a_valid_full_board(fengines, fillomino, seed):
    engine = fengines["chuffed"]
    params = params_for(engine, fillomino, 6, 6, seeding="solver")
    result = engine.generate(fillomino, params, seed, GenOptions(target_empty=1))
    assert logic.is_valid_solution(result.puzzle.solution, 6, 6)


# -- GenPuzzles ----------------------------------------------------------------------------
def check_generated(fengines, ptype, params, puzzle, independent):
    """Agrees with its solution, keeps a given in every region, and is unique by an
    independent check: a full MiniZinc run (not the generator's compiled checker) asking
    for 2 solutions, with ``independent``."""
    rows, cols = params["rows"], params["cols"]
    assert logic.is_valid_solution(puzzle.solution, rows, cols)
    assert all(g in (0, s) for g, s in zip(puzzle.grid, puzzle.solution))
    region_of = logic.regions(puzzle.solution, rows, cols)
    assert {region_of[c] for c, v in enumerate(puzzle.grid) if v} == set(region_of)
    result, boards = independent.solve(ptype, params, puzzle.grid, nr_solutions=2)
    assert result.complete
    assert boards == [puzzle.solution]


@pytest.mark.parametrize("size, seed", [(5, 1), (5, 2), (5, 3), (7, 1), (7, 2), (7, 3),
                                        (9, 1), (9, 2), (9, 3)])
def test_generated_puzzles_are_unique_and_keep_a_given_per_region(fengines, fillomino, size, seed):
    engine = fengines["chuffed"]
    params = params_for(engine, fillomino, size, size)
    puzzle = engine.generate(fillomino, params, seed).puzzle
    assert puzzle.minimal and puzzle.unknown == 0
    assert sum(1 for x in puzzle.grid if x) < size * size
    # Gecode is the other solver where it is fast enough (5x5). On 7x7, Chuffed following
    # the model's search annotation; on 9x9, Chuffed with free search (without it a check
    # takes minutes). Either way a full MiniZinc run with the givens compiled in, not the
    # generator's compiled checker.
    independent = {5: fengines["gecode"], 7: Engine(engine.host, Backend("chuffed"))}.get(
        size, fengines["chuffed"])
    check_generated(fengines, fillomino, params, puzzle, independent)


# -- a 12x12 board (slow): a minute of GenPuzzles, run in stages ---------------------------
#: tests/data/fillomino_12x12.json, written by scripts/make_golden.py: the puzzle of ``gen
#: fillomino --size 12 --seed 2`` (one square per solver call; about a minute, seed 1 takes
#: three) and the boards of that run where 70 and 84 squares were empty. No solver chose
#: them: the full board is Python's random partition, and each decision is a fact about
#: uniqueness.
BIG = json.loads((DATA.parent / "fillomino_12x12.json").read_text())


def flat(rows):
    return tuple(v for row in rows for v in row)


BIG_SOLUTION = flat(BIG["solution"])
BIG_BOARDS = [*(flat(b) for b in BIG["stages"]), flat(BIG["grid"])]  # where each stage ends
BIG_STAGES = [f"empty {a}-{b}" for a, b in zip([0, *(b.count(0) for b in BIG_BOARDS)],
                                               [b.count(0) for b in BIG_BOARDS])]


def replaying(fillomino, checkpoint):
    """The Fillomino type, but that isRemoveValid is answered from ``checkpoint``, a board
    of the recorded run, for every square judged before the run reached it (the square
    goes if it is empty there); the solver judges the squares after it. The first of
    those checks that the run did reach ``checkpoint``."""
    reached = []

    class Replaying(type(fillomino)):
        def is_remove_valid(self, params, board, index, solution, checker, max_solutions):
            if board.count(0) <= checkpoint.count(0):  # before: fewer empty than checkpoint
                return checkpoint[index] == 0
            if not reached:
                before = board[:index] + (solution[index],) + board[index + 1:]
                assert before == checkpoint, "the run did not reach the recorded board"
                reached.append(index)
            return super().is_remove_valid(params, board, index, solution, checker,
                                           max_solutions)

    replay = Replaying()
    replay.plugin, replay.plugin_version = fillomino.plugin, fillomino.plugin_version
    return replay


@pytest.mark.slow
@pytest.mark.parametrize("stage", range(len(BIG_BOARDS)), ids=BIG_STAGES)
def test_generated_12x12_in_stages(fengines, fillomino, stage):
    """Each stage makes its part of the recorded 12x12 run with Chuffed, starting where the
    previous stage ended, and must end on the recorded board; together they are the whole
    run, every square judged by the solver once. The last ends on the puzzle: minimal, with
    no time-out."""
    engine = fengines["chuffed"]
    params = params_for(engine, fillomino, 12, 12)
    end = BIG_BOARDS[stage]
    last = stage == len(BIG_BOARDS) - 1
    ptype = replaying(fillomino, BIG_BOARDS[stage - 1]) if stage else fillomino
    options = GenOptions() if last else GenOptions(target_empty=end.count(0))
    puzzle = engine.generate(ptype, params, 2, options).puzzle
    assert (puzzle.grid, puzzle.solution) == (end, BIG_SOLUTION)
    assert puzzle.unknown == 0
    if last:
        assert puzzle.minimal


@pytest.mark.slow
def test_generated_12x12_is_unique_and_keeps_a_given_per_region(fengines, fillomino):
    """The recorded puzzle (which the last stage makes) and the boards where the stages
    end, checked independently of the generator."""
    engine = fengines["chuffed"]
    params = params_for(engine, fillomino, 12, 12)
    for board in BIG_BOARDS:
        puzzle = SimpleNamespace(grid=board, solution=BIG_SOLUTION)
        check_generated(fengines, fillomino, params, puzzle, engine)


def test_gecode_generates_small_puzzles_too(fengines, fillomino):
    engine = fengines["gecode"]
    params = params_for(engine, fillomino, 4, 5)
    puzzle = engine.generate(fillomino, params, 4).puzzle
    assert puzzle.minimal
    check_generated(fengines, fillomino, params, puzzle, fengines["chuffed"])


def test_same_seed_gives_the_same_puzzle(fengines, fillomino):
    engine = fengines["chuffed"]
    params = params_for(engine, fillomino, 6, 6)
    a, b = (engine.generate(fillomino, params, 11).puzzle for _ in range(2))
    assert (a.grid, a.solution) == (b.grid, b.solution)


def test_allow_empty_regions_lets_regions_lose_every_given(fengines, fillomino):
    """Without the paper's rule the generator may empty whole regions; over a few seeds
    at least one region does lose all its givens, and the puzzles stay unique."""
    engine = fengines["chuffed"]
    params = params_for(engine, fillomino, 5, 5, allow_empty_regions=True)
    emptied = 0
    for seed in range(1, 4):
        puzzle = engine.generate(fillomino, params, seed).puzzle
        region_of = logic.regions(puzzle.solution, 5, 5)
        emptied += len(set(region_of) - {region_of[c] for c, v in enumerate(puzzle.grid) if v})
        result, boards = fengines["gecode"].solve(fillomino, params, puzzle.grid, nr_solutions=2)
        assert boards == [puzzle.solution]
    assert emptied > 0


@pytest.mark.fast
def test_region_rule_refuses_without_a_solver_call(fillomino):
    params = calls.canonical_params(fillomino, {"rows": 2, "cols": 3})
    full = (1, 2, 2, 3, 3, 3)

    class NoSolver:
        def at_most(self, board, k):
            raise AssertionError("the region rule must answer without the solver")
    # emptying the only given left of the 1-region
    board = (0, 2, 0, 0, 3, 0)
    assert fillomino.is_remove_valid(params, board=board, index=0, solution=full,
                                     checker=NoSolver(), max_solutions=1) is False


# -- transformations ---------------------------------------------------------------------------
@pytest.mark.parametrize("rows, cols, expected", [(6, 6, 8), (5, 7, 4)])
def test_transformations_give_8_or_4_boards_and_keep_uniqueness(fengines, fillomino, rows, cols, expected):
    engine = fengines["chuffed"]
    params = params_for(engine, fillomino, rows, cols)
    puzzle = engine.generate(fillomino, params, 3).puzzle
    variants = {}
    rng = random.Random(0)
    for _ in range(200):
        f = engine.random_variant(fillomino, params, rng)
        variants[f(puzzle.solution)] = f(puzzle.grid)
    assert len(variants) == expected  # a random board has no symmetry of its own
    for solution, grid in variants.items():
        assert logic.is_valid_solution(solution, rows, cols)
        result, boards = fengines["gecode"].solve(fillomino, params, grid, nr_solutions=2)
        assert result.complete and boards == [solution]


# -- features (paper 000, 3.2.4) ---------------------------------------------------------------
def test_features(fengines, fillomino):
    engine = fengines["chuffed"]
    params = params_for(engine, fillomino, 5, 5)
    puzzle = engine.generate(fillomino, params, 2).puzzle
    features = engine.features(fillomino, params, puzzle.grid)
    assert features == {"cells": 25.0, "empty": float(25 - sum(1 for x in puzzle.grid if x)),
                        "regions": float(len(set(logic.regions(puzzle.solution, 5, 5)))),
                        "optimal": 1.0}
    # One given more than a minimal puzzle: that given can go again, so not optimal.
    region_of = logic.regions(puzzle.solution, 5, 5)
    kept = {region_of[c] for c, v in enumerate(puzzle.grid) if v}
    extra = next(c for c, v in enumerate(puzzle.grid) if v == 0 and region_of[c] in kept)
    richer = puzzle.grid[:extra] + (puzzle.solution[extra],) + puzzle.grid[extra + 1:]
    assert engine.features(fillomino, params, richer)["optimal"] == 0.0


# -- text formats and bad input ---------------------------------------------------------------
def test_text_and_line_formats_round_trip(fengines, fillomino):
    engine = fengines["chuffed"]
    params = params_for(engine, fillomino, 4, 6)
    board = (0, 10, 3, 0, 0, 1, 2, 0, 0, 4, 0, 0) * 2
    for fmt in ("text", "line"):
        text = fillomino.format(params, board, fmt)
        parsed = fillomino.parse({}, text)
        assert parsed.board == board and parsed.params == params
    assert fillomino.format(params, board, "line").startswith(". 10 3 . . 1/2 . . 4 . ./")


@pytest.mark.fast
@pytest.mark.parametrize("text, message", [
    ("1 . 2/. 3", "wrong row length: row 2 has 2 cells, row 1 has 3"),
    (". 10/. .", "bad value 10 at row 1, column 2: larger than the board (4 cells)"),
    (". 0/. .", "bad value 0 at row 1, column 2"),
    (". -2/. .", "bad value -2 at row 1, column 2"),
    (". x/. .", "bad symbol 'x' at row 1, column 2"),
    ("1 1/. .", "conflicting givens: two 1s touch at row 1, column 1 and row 1, column 2"),
    ("/".join([" ".join(["."] * 31)] * 2), "board 2x31 is larger than the Fillomino model supports"),
    ("", "empty puzzle"),
])
def test_bad_input_gets_a_one_line_error(text, message):
    with pytest.raises(PuzzleInputError) as err:
        logic.parse(text, {})
    assert message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.fast
def test_wrong_row_count_for_the_given_size():
    with pytest.raises(PuzzleInputError, match="wrong number of rows: 2, expected 3"):
        logic.parse(". ./. .", {"size": 3})


@pytest.mark.fast
@pytest.mark.parametrize("raw, message", [
    ({"size": 31}, "bad rows 31"), ({"rows": 0, "cols": 4}, "bad rows 0"),
    ({"size": 5, "max_region": 26}, "bad --max-region 26"),
    ({"size": 5, "region_sizes": "0-3"}, "bad --region-sizes '0-3'"),
    ({"size": 5, "region_sizes": "two"}, "bad --region-sizes 'two'"),
    ({"size": 5, "seeding": "magic"}, "bad --seeding 'magic'"),
    ({"size": 5, "rows": 4}, "give either --size N or --rows and --cols"),
])
def test_bad_parameters(raw, message):
    with pytest.raises(PuzzleInputError, match=re.escape(message)):
        logic.check_params(raw)


def test_checker_recompiles_only_when_the_checker_data_change(host, fillomino, monkeypatch):
    """puzzle_checker_data: boards with equal data share one compiled model. Fillomino's
    data carry the value bound rounded up to a multiple of 4, so dense boards share one
    model and an empty board, whose bound is the whole board, needs another."""
    engine = Engine(host, Backend("chuffed", free_search=True))
    compiles = []
    compile_ = engine.backend.compile
    monkeypatch.setattr(engine.backend, "compile",
                        lambda *a, **k: compiles.append(a[1]["maxv"]) or compile_(*a, **k))
    params = params_for(engine, fillomino, 6, 6)
    full = logic.random_partition(6, 6, range(1, 7), random.Random(1))
    checker = engine.checker(fillomino, params, full)
    try:
        for i in (0, 7, 20):
            assert checker.count_other(full[:i] + (0,) + full[i + 1:], 1) == (0, True)
        assert compiles == [8]
        assert checker.count_other((0,) * 36, 1) == (1, True)   # the empty board has others
        assert compiles == [8, 36]
    finally:
        checker.close()
