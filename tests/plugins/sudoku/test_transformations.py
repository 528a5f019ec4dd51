"""The seven symmetries of paper 000 (section 3.1.5) keep boards valid and puzzles unique."""
import random

import pytest

from puzzle_engine_plugins.sudoku import logic
from support import assert_unique_and_minimal, assert_valid_full


@pytest.mark.parametrize("box", ["2x2", "2x3", "3x2", "3x3", "3x4"])
def test_each_transformation_keeps_a_full_board_valid(engines, sudoku, box):
    engine = engines["gecode"]
    params = engine.check_params(sudoku, {"box": box})
    n, r, c = logic.dims(params)
    full = engine.complete(sudoku, params, logic.seed_board(n, r, c, random.Random(0)))
    names = [t.name for t in engine.transformations(sudoku, params)]
    expected = {"relabel", "bands", "stacks", "rows_in_band", "columns_in_stack", "reflect"}
    assert set(names) == (expected | {"rotate"} if r == c else expected)
    rng = random.Random(1)
    changed = set()
    for t in engine.transformations(sudoku, params):
        for _ in range(5):
            out = t.draw(rng)(full)
            assert_valid_full(out, n, r, c)
            changed.add(t.name) if out != full else None
    assert changed == set(names)  # every transformation does something


@pytest.mark.fast
def test_rotation_is_a_quarter_turn():
    ident = tuple(range(1, 17))
    rotate = dict(logic.transformations(4, 2, 2))["rotate"]

    class Turns(random.Random):
        def randrange(self, *args):
            return 1
    turned = rotate(Turns())(ident)
    # the first row of a clockwise quarter turn is the first column, read bottom-up
    assert turned[:4] == (13, 9, 5, 1)


def test_transformed_puzzles_stay_unique(engines, sudoku):
    engine = engines["chuffed"]
    params = engine.check_params(sudoku, {"size": 9})
    p = engine.generate(sudoku, params, 7).puzzle
    rng = random.Random(3)
    for _ in range(3):
        f = engine.random_variant(sudoku, params, rng)
        variant = type(p)(**{**p.__dict__, "instance": f(p.grid), "solution": f(p.solution)})
        assert variant.grid != p.grid
        assert_unique_and_minimal(engines, sudoku, params, variant, "chuffed")
