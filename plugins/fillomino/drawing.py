"""Fillomino drawn: the SVG picture of a board (``render_svg``), whose answer key shows the
regions' borders, and the board of the HTML play page (``play_grid``)."""
from __future__ import annotations

from puzzle_engine.render.play import PlayGrid
from puzzle_engine.render.svg import GridDrawing

from .logic import regions

#: The rules in a player's words, for the sheet and the play page.
RULES = ("Write a number in every square: each region of equal numbers, joined side by side, "
         "has as many squares as its number, and two regions of the same size never touch.")


def render_svg(rows, cols, instance, solution=None) -> str:
    drawing = GridDrawing(rows, cols)
    for i, v in enumerate(instance):
        if v:
            drawing.symbol(i, str(v))
        elif solution is not None:
            drawing.symbol(i, str(solution[i]), given=False)
    drawing.lines(None if solution is None else regions(solution, rows, cols))
    return drawing.to_string()


RULES = ("Write a number in every square: each region of equal numbers, joined side by "
         "side, has as many squares as its number, and two regions of the same size never "
         "touch.")


def play_grid(rows, cols, instance, solution) -> PlayGrid:
    return PlayGrid(rows=rows, cols=cols, cells=tuple(instance), solution=tuple(solution),
                    symbols=None, rule="region-size", rules=RULES)
