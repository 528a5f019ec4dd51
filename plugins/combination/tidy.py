"""Combination's post-processing (paper 002, section 4.1), without a solver: a level's
board loses the lines of walls and holes along its edges (``trim``), and a wall that can
never stop a ray becomes a hole (``soften``). Neither changes the level's solutions, up to
the removed squares, which hold no piece."""
from __future__ import annotations

from collections.abc import Sequence

from .squares import EMPTY, HOLE, WALL

Board = tuple[int, ...]

#: The four lines through a square, each as one of its two steps (row, column): the row,
#: the column and both diagonals.
LINES = ((0, 1), (1, 0), (1, 1), (1, -1))


def trim(width: int, height: int, board: Sequence[int]) -> tuple[int, int, Board]:
    """The board without its edge rows and columns (top, bottom, left, right, again and
    again) that hold only walls and holes; one row and one column stay at least.

    The solutions stay the same. No piece stands on a removed square, as pieces stand on
    empty squares only. No ray runs along an edge line, since no piece stands on it; a ray
    that reaches an edge line from inside crosses it and leaves the board, so it meets no
    piece there, wall or hole alike. Once the edge line is gone, the same ray leaves the
    board one step earlier, having met the same pieces.

    Rows go first, then columns: a removed column holds no empty square, so no row becomes
    removable after it."""
    rows = [tuple(board[r:r + width]) for r in range(0, width * height, width)]
    columns = stripped(list(zip(*stripped(rows))))
    rows = list(zip(*columns))
    return len(columns), len(rows), tuple(v for row in rows for v in row)


def stripped(lines: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The lines without those of no empty square at either end, keeping one at least."""
    while len(lines) > 1 and EMPTY not in lines[0]:
        lines = lines[1:]
    while len(lines) > 1 and EMPTY not in lines[-1]:
        lines = lines[:-1]
    return lines


def soften(width: int, height: int, board: Sequence[int]) -> Board:
    """The board with every wall that can never stop a ray turned into a hole.

    A wall stops a ray along one of its four lines only if both sides of it along that
    line have an empty square before the next wall or the edge (holes let the ray on): a
    piece may stand on one to send the ray, and on the other to be hit. When no line has
    that, any ray through the wall would meet no piece beyond it, so a hole there leaves
    every attack, and the solutions, as they are. All four lines count whatever the
    attacks of the level, so the board stays right for any pieces.

    The walls are taken one at a time, row by row, each against the board as it is then
    (a wall turned into a hole lets later walls see further), so the result is fixed and
    each step keeps the solutions of the board before it."""
    squares = list(board)
    for i in range(len(squares)):
        if squares[i] == WALL and not any(blocks(width, height, squares, i, step)
                                          for step in LINES):
            squares[i] = HOLE
    return tuple(squares)


def blocks(width: int, height: int, squares: Sequence[int], i: int,
           step: tuple[int, int]) -> bool:
    """Whether the wall at ``i`` has an empty square on both sides along ``step``."""
    dr, dc = step
    return sees_empty(width, height, squares, i, dr, dc) and \
        sees_empty(width, height, squares, i, -dr, -dc)


def sees_empty(width: int, height: int, squares: Sequence[int], i: int, dr: int,
               dc: int) -> bool:
    """Whether an empty square lies from square ``i`` one way, before a wall or the edge."""
    r, c = divmod(i, width)
    r, c = r + dr, c + dc
    while 0 <= r < height and 0 <= c < width and squares[r * width + c] != WALL:
        if squares[r * width + c] == EMPTY:
            return True
        r, c = r + dr, c + dc
    return False


def tidy(width: int, height: int, board: Sequence[int]) -> tuple[int, int, Board]:
    """The board trimmed, then softened; the solutions stay the same (see ``trim`` and
    ``soften``).

    Both orders give the same board: softening changes no empty square, so the same lines
    go; and a removed line holds no empty square, while a line through a kept wall leaves
    the kept rectangle once and meets only removed squares after it, so a removed wall,
    hole or not, changes no decision on a kept one. Trimming first softens fewer walls."""
    width, height, board = trim(width, height, board)
    return width, height, soften(width, height, board)
