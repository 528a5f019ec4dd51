"""Sudoku drawn: the SVG picture of a board (``render_svg``), and the board the HTML play
page lets a person fill in (``play_grid``). Symbols are those of the line format: 1-9,
then letters."""
from __future__ import annotations

from puzzle_engine.render.play import PlayGrid
from puzzle_engine.render.svg import GridDrawing

from .logic import ALPHABET, dims


def boxes(n: int, r: int, c: int) -> list[int]:
    """The box of every square: boxes are r rows tall and c columns wide."""
    return [(i // n // r) * r + (i % n) // c for i in range(n * n)]


def units(n: int, r: int, c: int) -> list[list[int]]:
    """The rows, the columns and the boxes, each as its squares."""
    box = boxes(n, r, c)
    return ([[row * n + col for col in range(n)] for row in range(n)]
            + [[row * n + col for row in range(n)] for col in range(n)]
            + [[i for i in range(n * n) if box[i] == b] for b in range(n)])


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


def play_grid(params, instance, solution) -> PlayGrid:
    n, r, c = dims(params)
    return PlayGrid(rows=n, cols=n, cells=tuple(instance), solution=tuple(solution),
                    symbols=tuple(ALPHABET[:n]), rule="all-different", units=units(n, r, c),
                    regions=tuple(boxes(n, r, c)),
                    rules=f"Fill every row, column and {r}x{c} box with "
                          f"{ALPHABET[0]}-{ALPHABET[n - 1]}, each once.")
