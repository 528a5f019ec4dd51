"""Jigsaw Sudoku (``jigsaw``): regions drawn from the seed; a real 9x9 puzzle generated on
the SAT back end and unique by Chuffed; its explanation names the regions; and, without
a solver, its text, drawing and play board."""
import random

import pytest

from puzzle_engine_plugins.jigsaw import regions
from puzzle_engine_plugins.sudoku.variant import connected, labelled
from support import variant_end_to_end

#: A 6x6 jigsaw (gen jigsaw --size 6 --seed 1 --format line).
SIX = "....4.3..1....2.....5..1........4.../AAABBBCAABBBCADDDDCCEDFDCCEEFFEEEFFF"


@pytest.fixture(scope="module")
def jigsaw(host):
    return host.get_type("jigsaw")


@pytest.mark.fast
@pytest.mark.parametrize("n", [5, 6, 9])
def test_regions_from_a_seed_are_n_joined_squares_each_and_irregular(n):
    drawn = regions.draw(n, random.Random(7))
    assert drawn == regions.draw(n, random.Random(7)) != regions.draw(n, random.Random(8))
    squares = labelled(drawn)
    assert sorted(squares) == list(range(1, n + 1))
    assert all(len(s) == n and connected(s, n) for s in squares.values())
    assert drawn[0] == 1 and drawn != regions.start(n)  # in reading order; no box kept
    assert sum(a != b for a, b in zip(drawn, regions.start(n))) > n


def test_a_generated_9x9_is_unique_and_explained(host):
    jigsaw, params, puzzle = variant_end_to_end(host, "jigsaw", {"size": 9}, 1, SIX,
                                                "by region ")
    digits, layout = puzzle.solution[:81], puzzle.solution[81:]
    assert layout == puzzle.grid[81:]  # the regions are structure: never emptied
    for squares in labelled(layout).values():
        assert sorted(digits[i] for i in squares) == list(range(1, 10))


@pytest.mark.fast
def test_text_drawing_and_play_board(jigsaw):
    parsed = jigsaw.parse({"size": None}, SIX)
    params = parsed.params
    assert params == {"size": 6} and jigsaw.format(params, parsed.instance, "line") == SIX
    text = jigsaw.format(params, parsed.instance, "text")
    assert text.split("\n\n")[1].splitlines()[0] == "A A A B B B"
    assert jigsaw.parse({"size": None}, text).instance == parsed.instance
    groups = [g.name for g in jigsaw.constraint_groups(params, parsed.instance).groups]
    assert groups[12:] == [f"region {g}" for g in range(1, 7)]
    svg = jigsaw.render_svg(params, parsed.instance)
    # Thick lines between squares of two regions: as many as the layout's borders.
    layout = parsed.instance[36:]
    borders = sum(layout[i] != layout[i + 1] for i in range(36) if i % 6 < 5) + sum(
        layout[i] != layout[i + 6] for i in range(30))
    thick = svg.split('class="thick"')[1].split("</g>")[0]
    assert thick.count("<line") == borders
    grid = jigsaw.play_grid(params, parsed.instance, tuple([1] * 72))
    assert grid.regions == layout and len(grid.units) == 18 and len(grid.cells) == 36
