"""Combination for the explainer: the rules cut into groups a player can name, and the
level as the explainer sees it.

The groups are the model's three rules, in a player's words:

- a *stretch* of a line: a row, a column or a diagonal between walls (or the board's
  edges), on which no piece may see a piece of another colour that attacks along it, or
  that it attacks ("row 2", "row 2, c1-c3" where a wall cuts the row, "column 4", "the
  diagonal r1c2-r3c4"); the model's ``segment_rule``. A stretch with fewer than two empty
  squares, or along a direction no piece attacks, has no rule and no group;
- the count of a piece type, "the count of rook a (2)"; the model's ``count_rule``;
- for two colours with the same pieces, which comes first ("a and b have the same pieces:
  a's first piece comes before b's, row by row"): the model's symmetry breaking,
  ``colour_order``. The level is unique only up to swapping such colours; a reason that
  uses this group says which of the two equal answers the explainer picked.

A fact is a square's content: "r2c3 = rook a", "r2c3 != empty" (a piece stands there),
"r2c3 = empty". Walls and holes are known from the start.
"""
from __future__ import annotations

from puzzle_engine import ConstraintGroup, ConstraintGroups, ExplanationBoard

from .squares import EMPTY, WALL

#: Directions as the model numbers them (``dr``, ``dc``): 1 along a row, 2 down a column,
#: 3 and 4 the two diagonals.
DIRECTIONS = {1: (0, 1), 2: (1, 0), 3: (1, 1), 4: (1, -1)}


def square_name(x: int, width: int) -> str:
    return f"r{x // width + 1}c{x % width + 1}"


def stretches(width: int, height: int, board) -> list[tuple[int, int, int, int]]:
    """Every stretch of a line with no wall on it and two or more empty squares, as
    ``(square, direction, length, line)``: its first square (0-based), the model's
    direction, its number of squares, and whether it is the line's whole length (1) or a
    part (0)."""
    out = []
    for d, (dr, dc) in DIRECTIONS.items():
        for r in range(height):
            for c in range(width):
                if 0 <= r - dr < height and 0 <= c - dc < width:
                    continue  # not where a line starts
                line = []
                i, j = r, c
                while 0 <= i < height and 0 <= j < width:
                    line.append(i * width + j)
                    i, j = i + dr, j + dc
                run: list[int] = []
                for x in line + [None]:
                    if x is not None and board[x] != WALL:
                        run.append(x)
                        continue
                    if sum(1 for y in run if board[y] == EMPTY) >= 2:
                        out.append((run[0], d, len(run), int(len(run) == len(line))))
                    run = []
    return out


def stretch_name(first: int, d: int, length: int, whole: int, width: int) -> str:
    dr, dc = DIRECTIONS[d]
    last = first + (length - 1) * (dr * width + dc)
    r, c = divmod(first, width)
    if d == 1:
        return f"row {r + 1}" if whole else f"row {r + 1}, c{c + 1}-c{last % width + 1}"
    if d == 2:
        return f"column {c + 1}" if whole else \
            f"column {c + 1}, r{r + 1}-r{last // width + 1}"
    return f"the diagonal {square_name(first, width)}-{square_name(last, width)}"


def constraint_groups(level, colour_letters: str, sets) -> ConstraintGroups:
    """The groups of ``level`` (``sets``: each colour's piece set); ``grouped = true``
    turns the model's own rules off."""
    w, h = level.width, level.height
    colours = {p.colour for p in level.pieces}
    covered = set()
    if len(colours) > 1:
        for p in level.pieces:
            if p.attack in ("rook", "queen"):
                covered |= {1, 2}
            if p.attack in ("bishop", "queen"):
                covered |= {3, 4}
    groups = []
    for first, d, length, whole in stretches(w, h, level.board):
        if d in covered:
            groups.append(ConstraintGroup(
                stretch_name(first, d, length, whole, w),
                f"segment_rule({first // w + 1}, {first % w + 1}, {d}, {length})"))
    for k, p in enumerate(level.pieces, 1):
        groups.append(ConstraintGroup(
            f"the count of {p.attack} {colour_letters[p.colour - 1]} ({p.count})",
            f"count_rule({k})"))
    for c1 in sorted(sets):
        for c2 in sorted(sets):
            if c1 < c2 and sets[c1] == sets[c2]:
                a, b = colour_letters[c1 - 1], colour_letters[c2 - 1]
                groups.append(ConstraintGroup(
                    f"{a} and {b} have the same pieces: {a}'s first piece comes before "
                    f"{b}'s, row by row",
                    f"colour_order({c1}, {c2})"))
    return ConstraintGroups(tuple(groups), {"grouped": True})


def explanation_board(level, colour_letters: str, attacks: tuple[str, ...]
                      ) -> ExplanationBoard:
    """Walls and holes known (the model's ``cell`` is -1 and -2 there), every empty square
    to find; a piece named as in the level's pieces line, "rook a"."""
    w = level.width
    known = {x: -v for x, v in enumerate(level.board) if v != EMPTY}
    values = {0: "empty", -1: "wall", -2: "hole"}
    for p in level.pieces:
        values[4 * p.colour + attacks.index(p.attack) + 1] = \
            f"{p.attack} {colour_letters[p.colour - 1]}"
    return ExplanationBoard(known, tuple(square_name(x, w) for x in range(len(level.board))),
                            values)
