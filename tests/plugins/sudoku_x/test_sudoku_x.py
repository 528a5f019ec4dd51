"""Sudoku X (``sudoku-x``): a real 9x9 puzzle generated on the SAT back end, unique by
Chuffed, keeping both diagonals; its explanation names the diagonals; and, without a
solver, its text, drawing, play board and constraint groups."""
import pytest

from puzzle_engine import calls
from puzzle_engine.engine import Engine
from puzzle_engine.solving.backend import Backend
from support import run

#: A 6x6 Sudoku X (gen sudoku-x --size 6 --seed 1 --format line).
SIX = ".........6.3....54.2.......5........"


@pytest.fixture(scope="module")
def sudoku_x(host):
    return host.get_type("sudoku-x")


def test_a_generated_9x9_is_unique_keeps_the_diagonals_and_is_explained(host, sudoku_x):
    engine = Engine(host, Backend("sat", time_limit=None))
    params = engine.check_params(sudoku_x, {"size": 9})
    puzzle = engine.generate(sudoku_x, params, 1).puzzle
    assert puzzle.minimal and puzzle.unknown == 0 and 0 < calls.call(
        sudoku_x, "givens", params=params, board=puzzle.grid) < 40
    again = engine.generate(sudoku_x, params, 1).puzzle
    assert (again.grid, again.solution) == (puzzle.grid, puzzle.solution)
    chuffed = Engine(host, Backend("chuffed", time_limit=None))
    _, boards = chuffed.solve(sudoku_x, params, puzzle.grid, nr_solutions=2)
    assert boards == [puzzle.solution]
    s = puzzle.solution
    assert {s[i * 9 + i] for i in range(9)} == {s[i * 9 + 8 - i] for i in range(9)} == set(
        range(1, 10))
    line = sudoku_x.format(params, puzzle.grid, "line")
    assert run("check", "sudoku-x", line).output.strip() == "1 solution (unique)"
    assert run("solve", "sudoku-x", line).exit_code == 0
    explained = run("explain", "sudoku-x", SIX)
    assert explained.exit_code == 0 and "solved in" in explained.output
    assert "the main diagonal" in explained.output or "the anti-diagonal" in explained.output


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
    assert "both long diagonals" in grid.rules
