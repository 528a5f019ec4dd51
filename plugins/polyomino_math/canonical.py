"""The canonical form of a Polyomino Math puzzle: its rules do not change under the eight
symmetries of the square lattice (the pieces are free, so any rotation or reflection of
the board is the same puzzle, a 5x6 board turned a quarter being a 6x5 one). The form is
the least image of the board's numbers, as ``[rows, cols, numbers row by row]``, with the
piece multiset, which no symmetry changes."""
from __future__ import annotations

from .shapes import pieces_text


def images(rows: int, cols: int, numbers):
    """The board's eight images ``(rows, cols, numbers)`` (some equal when it is symmetric)."""
    grid = [list(numbers[r * cols:(r + 1) * cols]) for r in range(rows)]
    for _ in range(2):
        for _ in range(4):
            yield len(grid), len(grid[0]), tuple(v for row in grid for v in row)
            grid = [list(row) for row in zip(*grid[::-1])]  # a quarter turn
        grid = [row[::-1] for row in grid]  # a reflection


def canonical_form(board) -> dict:
    rows, cols, numbers = min(images(board.rows, board.cols, board.numbers))
    return {"rows": rows, "cols": cols, "numbers": list(numbers),
            "pieces": pieces_text(board.pieces)}
