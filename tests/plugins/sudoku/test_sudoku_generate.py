"""Every generated Sudoku is unique (checked by the other solver), agrees with its
recorded solution, and is minimal when the run went to completion."""
import pytest

from puzzle_engine.strategies import GenOptions
from support import SOLVERS, assert_unique_and_minimal

CASES = [(4, s) for s in (1, 2, 3)] + [(6, s) for s in (1, 2, 3)] + [(9, s) for s in (1, 2, 3)]
CASES += [pytest.param(size, 1, marks=pytest.mark.slow) for size in (12, 15, 16)]


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("size,seed", CASES)
def test_generated_puzzle_is_unique_and_minimal(engines, sudoku, solver, size, seed):
    engine = engines[solver]
    params = engine.check_params(sudoku, {"size": size})
    result = engine.generate(sudoku, params, seed)
    p = result.puzzle
    assert p.solver == engine.backend.solver_id and p.solver_version
    assert p.plugin == "sudoku" and p.plugin_version
    assert p.seed == seed and p.solver_calls >= size * size and p.seconds > 0
    assert p.unknown == 0
    assert sum(1 for x in p.grid if x) < size * size
    assert_unique_and_minimal(engines, sudoku, params, p, solver)


@pytest.mark.parametrize("box", ["2x4", "4x2"])
def test_rectangular_boxes(engines, sudoku, box):
    params = engines["gecode"].check_params(sudoku, {"box": box})
    p = engines["gecode"].generate(sudoku, params, 5).puzzle
    assert_unique_and_minimal(engines, sudoku, params, p, "gecode")


def test_random_chooser_and_target_empty(engines, sudoku):
    engine = engines["chuffed"]
    params = engine.check_params(sudoku, {"size": 9, "choose": "random"})
    p = engine.generate(sudoku, params, 11, GenOptions(target_empty=30)).puzzle
    assert p.grid.count(0) == 30
    assert not p.minimal  # stopped early, not every square was tried
    result, boards = engines["gecode"].solve(sudoku, params, p.grid, nr_solutions=2)
    assert boards == [p.solution]


def test_same_seed_same_puzzle(engines, sudoku):
    engine = engines["gecode"]
    params = engine.check_params(sudoku, {"size": 9})
    a = engine.generate(sudoku, params, 42).puzzle
    b = engine.generate(sudoku, params, 42).puzzle
    c = engine.generate(sudoku, params, 43).puzzle
    assert (a.grid, a.solution) == (b.grid, b.solution)
    assert a.grid != c.grid


def test_variants_do_not_change_the_puzzle(engines, sudoku):
    engine = engines["gecode"]
    params = engine.check_params(sudoku, {"size": 6})
    plain = engine.generate(sudoku, params, 8).puzzle
    result = engine.generate(sudoku, params, 8, GenOptions(variants=3))
    assert result.puzzle.grid == plain.grid
    assert len(result.variants) == 3
    assert [v.variant for v in result.variants] == [1, 2, 3]
    for v in result.variants:
        assert sum(1 for x in v.grid if x) == sum(1 for x in plain.grid if x)
        assert_unique_and_minimal(engines, sudoku, params, v, "gecode")


def test_max_solutions_allows_more_solutions(engines, sudoku):
    engine = engines["gecode"]
    params = engine.check_params(sudoku, {"size": 4})
    for seed in (1, 2, 3):
        p = engine.generate(sudoku, params, seed, GenOptions(max_solutions=3)).puzzle
        _, boards = engines["chuffed"].solve(sudoku, params, p.grid, nr_solutions=4)
        assert 1 <= len(boards) <= 3
        assert p.solution in boards


def test_compl_dict_bins_every_accepted_puzzle(engines, sudoku):
    engine = engines["gecode"]
    params = engine.check_params(sudoku, {"size": 4})
    result = engine.generate(sudoku, params, 4, GenOptions(variants=2))
    empties = result.puzzle.grid.count(0)
    boards = [b for level in result.compl_dict.values() for b in level]
    assert len(boards) == empties * 3  # each accepted removal, plus 2 variants of it
    for level, group in result.compl_dict.items():
        assert all(sum(1 for v in b if v) == level for b in group)  # the 'givens' complexity
    assert result.puzzle.grid in result.compl_dict[sum(1 for x in result.puzzle.grid if x)]
