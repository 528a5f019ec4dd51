"""A Polyomino Math puzzle: a rectangular board of numbers and a multiset of pieces that
can cover it exactly; its text forms; and the multiset of numbers a board is shuffled from.

Text (``format``/``parse``): the first line lists the pieces (``2xL3 I4 T4``), the rows of
numbers follow, separated by spaces. The one-line form is ``2xL3 I4 T4: 123412/...``
(digits run together when every number is below 10, else separated by spaces).
"""
from __future__ import annotations

import re
from typing import NamedTuple

from puzzle_engine import PuzzleInputError

from .shapes import Shape, digits, pieces_text, read_pieces

#: The paper's numbers: for 5x6, 8 ones, 8 twos, 8 threes and 6 fours; for 10x10, the
#: same proportions, 25, 30, 30 and 15 (the paper's "24/25, 29/30, 29/30, 14/15" are read
#: as the counts that fill 100 squares).
PAPER_NUMBERS = {30: {1: 8, 2: 8, 3: 8, 4: 6}, 100: {1: 25, 2: 30, 3: 30, 4: 15}}


class Board(NamedTuple):
    rows: int
    cols: int
    numbers: tuple[int, ...]   # row by row
    pieces: tuple[Shape, ...]  # in canonical order (shapes.sort_pieces)


def default_numbers(area: int) -> dict[int, int]:
    """The paper's multiset for 30 and 100 squares; for another area, its 8:8:8:6
    proportions of 1..4, rounded by largest remainder to fill the board."""
    if area in PAPER_NUMBERS:
        return dict(PAPER_NUMBERS[area])
    share = {1: 8, 2: 8, 3: 8, 4: 6}
    exact = {v: area * w / 30 for v, w in share.items()}
    counts = {v: int(e) for v, e in exact.items()}
    for v in sorted(exact, key=lambda v: (counts[v] - exact[v], v))[:area - sum(counts.values())]:
        counts[v] += 1
    return counts


def numbers_text(counts: dict[int, int]) -> str:
    return ",".join(f"{v}:{n}" for v, n in sorted(counts.items()) if n)


def read_numbers(text: str) -> dict[int, int]:
    """A multiset of numbers from ``1:8,2:8,3:8,4:6`` (number:count)."""
    counts: dict[int, int] = {}
    for part in str(text).replace(" ", "").split(","):
        value, sep, count = part.partition(":")
        if not sep or not digits(value) or not digits(count):
            raise PuzzleInputError(f"bad --numbers part {part!r}: expected NUMBER:COUNT, "
                                   "e.g. 1:8,2:8,3:8,4:6")
        counts[int(value)] = counts.get(int(value), 0) + int(count)
    return counts


def count_of(numbers) -> dict[int, int]:
    counts: dict[int, int] = {}
    for v in numbers:
        counts[v] = counts.get(v, 0) + 1
    return counts


def rows_of(board: Board) -> list[list[int]]:
    return [list(board.numbers[r * board.cols:(r + 1) * board.cols]) for r in range(board.rows)]


def format_board(board: Board, fmt: str) -> str:
    head = pieces_text(board.pieces)
    rows = rows_of(board)
    if fmt == "line":
        join = "" if max(board.numbers) < 10 else " "
        return f"{head}: " + "/".join(join.join(map(str, row)) for row in rows)
    width = len(str(max(board.numbers)))
    return "\n".join([head, *(" ".join(str(v).rjust(width) for v in row) for row in rows)])


def read_row(text: str, r: int) -> list[int]:
    words = text.split() if " " in text.strip() else list(text.strip())
    for c, w in enumerate(words, 1):
        if not digits(w):
            raise PuzzleInputError(f"row {r}, column {c}: {w!r} is not a number")
    return [int(w) for w in words]


def parse_board(text: str) -> Board:
    """A board in either text form; a bad one is one line naming the row or piece."""
    text = text.strip()
    first = text.splitlines()[0] if text else ""
    if ":" in first:
        head, _, body = text.partition(":")
        lines = re.split(r"[/\n]", body)
    else:
        head, _, body = text.partition("\n")
        lines = body.splitlines()
    if not head.strip():
        raise PuzzleInputError("a polyomino-math puzzle starts with its pieces, e.g. "
                               "'2xL3 I4 T4: 123/...'")
    pieces = read_pieces(head)
    rows = [read_row(line, r) for r, line in enumerate((x for x in lines if x.strip()), 1)]
    if not rows:
        raise PuzzleInputError("the puzzle has no rows of numbers")
    for r, row in enumerate(rows, 1):
        if len(row) != len(rows[0]):
            raise PuzzleInputError(f"row {r} has {len(row)} numbers, row 1 has {len(rows[0])}")
    return Board(len(rows), len(rows[0]), tuple(v for row in rows for v in row), pieces)
