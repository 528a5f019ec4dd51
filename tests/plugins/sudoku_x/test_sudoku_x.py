"""Sudoku X (``sudoku-x``): a real 9x9 puzzle generated on the SAT back end, unique by
Chuffed, keeping both diagonals; its explanation names the diagonals; and, without a
solver, its text, drawing, play board and constraint groups."""
import pytest

from support import variant_end_to_end

#: A 6x6 Sudoku X (gen sudoku-x --size 6 --seed 1 --format line).
SIX = ".........6.3....54.2.......5........"


@pytest.fixture(scope="module")
def sudoku_x(host):
    return host.get_type("sudoku-x")


def test_a_generated_9x9_is_unique_keeps_the_diagonals_and_is_explained(host):
    sudoku_x, params, puzzle = variant_end_to_end(host, "sudoku-x", {"size": 9}, 1, SIX,
                                                  "by the main diagonal, with")
    assert 0 < sudoku_x.givens(params, puzzle.grid) < 40
    s = puzzle.solution
    assert {s[i * 9 + i] for i in range(9)} == {s[i * 9 + 8 - i] for i in range(9)} == set(
        range(1, 10))


@pytest.mark.fast
def test_text_groups_drawing_and_play_board(sudoku_x):
    params = sudoku_x.check_params({"size": 6, "box": None, "choose": None})
    parsed = sudoku_x.parse({"size": None, "box": None, "choose": None}, SIX)
    assert parsed.params == params
    assert sudoku_x.format(params, parsed.instance, "line") == SIX
    assert sudoku_x.parse(params, sudoku_x.format(params, parsed.instance, "text")).instance \
        == parsed.instance
    groups = sudoku_x.constraint_groups(params, parsed.instance)
    names = [g.name for g in groups.groups]
    assert names[:2] == ["row 1", "row 2"] and names[-2:] == ["the main diagonal",
                                                               "the anti-diagonal"]
    assert groups.groups[-1].constraint == f"unit_rule({len(names)})" and groups.data == {
        "level": -1}
    svg = sudoku_x.render_svg(params, parsed.instance)
    assert svg.count('class="diagonal"') == 12  # 6 + 6 squares: no square on both when n is even
    solution = tuple([1] * 36)
    grid = sudoku_x.play_grid(params, parsed.instance, solution)
    assert len(grid.units) == 6 * 3 + 2 and tuple(range(0, 36, 7)) in grid.units
    assert "both long diagonals (the shaded squares)" in grid.rules
    assert grid.shaded == tuple(sorted(set(range(0, 36, 7)) | set(range(5, 31, 5))))
