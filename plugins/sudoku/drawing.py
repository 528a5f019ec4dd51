"""Sudoku drawn: the SVG picture of a board (``render_svg``), and the board the HTML play
page lets a person fill in (``play_grid``). Symbols are those of the line format: 1-9,
then letters."""
from __future__ import annotations

from puzzle_engine.render.play import PlayGrid
from puzzle_engine.render.svg import GridDrawing

from .logic import ALPHABET, dims, units


def boxes(n: int, r: int, c: int) -> list[int]:
    """The box of every square, numbered as ``logic.units`` lists the boxes (after the n
    rows and n columns)."""
    box = [0] * (n * n)
    for b, (_, squares) in enumerate(units(n, r, c)[2 * n:]):
        for i in squares:
            box[i] = b
    return box


def render_svg(params, instance, solution=None) -> str:
    n, r, c = dims(params)
    drawing = GridDrawing(n, n)
    for i, v in enumerate(instance):
        if v:
            drawing.symbol(i, ALPHABET[v - 1])
        elif solution is not None:
            drawing.symbol(i, ALPHABET[solution[i] - 1], given=False)
    drawing.lines(boxes(n, r, c))
    return drawing.to_string()


def rules(params) -> str:
    """The rules in words, for the printed sheet and the play page."""
    n, r, c = dims(params)
    return (f"Fill every row, column and {r}x{c} box with {ALPHABET[0]}-{ALPHABET[n - 1]}, "
            "each once.")


def play_grid(params, instance, solution) -> PlayGrid:
    n, r, c = dims(params)
    return PlayGrid(rows=n, cols=n, cells=tuple(instance), solution=tuple(solution),
                    symbols=tuple(ALPHABET[:n]), rule="all-different",
                    units=tuple(tuple(squares) for _, squares in units(n, r, c)),
                    regions=tuple(boxes(n, r, c)),
                    rules=rules(params))
