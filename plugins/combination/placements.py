"""Combination levels from full placements (the growing strategy's ``--start full``): a
random board filled with pieces until no square takes one more, then pieces taken away
one at a time, each removal leaving a placement that is still valid, so that every level
on the way comes with one of its solutions, built here without a solver.

A placement is a solution's squares: -1 a wall, -2 a hole, 0 an empty square, ``4 *
colour + attack`` a piece (attack 1 rook, 2 bishop, 3 queen)."""
from __future__ import annotations

import random
from collections import Counter

from . import tidy
from .level import ATTACKS, Level, Piece
from .rules import attacks, met, safe
from .squares import HOLE, WALL


def fill(board: tuple[int, ...], width: int, colours: int, kinds: list[str],
         rng: random.Random) -> tuple[int, ...]:
    """A random maximal placement on ``board``: each colour draws one attack of ``kinds``,
    a different one for each colour while they last (a colour of one kind of piece makes
    far more unique levels than a mix, and colours of different kinds fewer swaps of
    their pieces that no hole can rule out: measured in docs/performance.md), then the
    empty squares, in random order, each take the piece
    of the first colour, in a random order of the colours, that stands safe there. A
    piece more only stops rays between the others, so the placement stays valid as it
    grows, and no square is left where a piece would stand safe. Of the colours that
    fit a square, the one with the fewest pieces so far takes it (ties in random order)."""
    drawn = []
    while len(drawn) < colours:  # distinct kinds while they last
        drawn += rng.sample(kinds, len(kinds))
    codes = [4 * colour + ATTACKS.index(drawn[colour - 1]) + 1
             for colour in range(1, colours + 1)]
    placement = [-v for v in board]
    squares = [i for i, v in enumerate(board) if v == 0]
    rng.shuffle(squares)
    placed = Counter()
    for i in squares:
        options = codes[:]
        rng.shuffle(options)
        options.sort(key=lambda code: placed[code])  # the smallest army first
        for code in options:
            if safe(placement, width, i, code):
                placement[i] = code
                placed[code] += 1
                break
    return tuple(placement)


def pieces_of(placement: tuple[int, ...]) -> tuple[Piece, ...]:
    """The piece types a placement holds, by colour then attack."""
    counts = Counter(v for v in placement if v > 0)
    return tuple(Piece(counts[code], code // 4, ATTACKS[code % 4 - 1])
                 for code in sorted(counts))


def opens(placement: tuple[int, ...], width: int, i: int) -> bool:
    """Whether taking the piece on square ``i`` away lets two enemies attack each other:
    only the rays through ``i`` change, so it is enough to look at the first piece on
    either side of ``i`` along each of its four lines."""
    height = len(placement) // width
    r0, c0 = divmod(i, width)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        ends = []
        for sr, sc in ((dr, dc), (-dr, -dc)):
            r, c = r0 + sr, c0 + sc
            end = 0
            while 0 <= r < height and 0 <= c < width and placement[r * width + c] != -1:
                if placement[r * width + c] > 0:
                    end = placement[r * width + c]
                    break
                r, c = r + sr, c + sc
            ends.append(end)
        a, b = ends
        orthogonal = dr == 0 or dc == 0
        if a and b and attacks(a, orthogonal, b):
            return True
    return False


def removals(level: Level, placement: tuple[int, ...], rng: random.Random
             ) -> list[tuple[Level, tuple[int, ...]]]:
    """The levels with one piece fewer than ``level``, each with its placement: the
    placement less one piece whose going leaves it valid (a piece that stood between two
    enemies would let them attack each other), in random order. Only a type with exactly
    one such piece is offered: with two, taking either away gives two placements of the
    same smaller level, which is then not unique (pieces of one type are alike). A
    colour's last piece stays."""
    per_colour = Counter(v // 4 for v in placement if v > 0)
    free: dict[int, list[int]] = {}
    for i, code in enumerate(placement):
        if code > 0 and per_colour[code // 4] > 1 and not opens(placement, level.width, i):
            free.setdefault(code, []).append(i)
    found = []
    for code in sorted(free):
        if len(free[code]) == 1:
            i = free[code][0]
            smaller = placement[:i] + (0,) + placement[i + 1:]
            found.append((level._replace(pieces=pieces_of(smaller)), smaller))
    rng.shuffle(found)
    return found


def attackers(placement: tuple[int, ...], width: int, i: int, code: int) -> int:
    """How many pieces would attack a piece ``code`` on square ``i`` (or be attacked by it):
    the first piece along each of the eight directions, before a wall or the edge, of
    another colour, where either attacks along that line."""
    return sum(attacks(code, orthogonal, other) for orthogonal, other in met(placement, width, i))


def open_squares(placement: tuple[int, ...], width: int) -> list[int]:
    """The empty squares of a placement, those another placement most likely puts a piece
    on first: by the fewest pieces that would attack one of its kinds there (fewest to
    move away), then row by row."""
    codes = sorted({v for v in placement if v > 0})
    empty = [i for i, v in enumerate(placement) if v == 0]
    return sorted(empty, key=lambda i: (min(attackers(placement, width, i, code)
                                            for code in codes), i))


def placement_on(board: tuple[int, ...], placement: tuple[int, ...]) -> tuple[int, ...]:
    """``placement``'s pieces on ``board`` (its walls and holes as a placement writes them)."""
    return tuple(v if v > 0 else -b for v, b in zip(placement, board))


def valid(placement: tuple[int, ...], width: int) -> bool:
    """Whether no piece of a placement attacks one of another colour."""
    return all(safe(placement[:i] + (0,) + placement[i + 1:], width, i, v)
               for i, v in enumerate(placement) if v > 0)


def repair(level: Level, placement: tuple[int, ...], square: int | None,
           other: tuple[int, ...] | None) -> tuple[Level, tuple[int, ...]] | None:
    """A level that keeps ``placement`` and loses other placements (``Growing.repair``),
    post-processed, or None: with ``square`` (empty in ``placement``, a piece there in
    another placement), a hole on it, which rules out every placement with a piece
    there and changes no ray; with ``other`` (a placement of the same squares), the
    first wall, row by row, that as a hole leaves ``placement`` valid and ``other`` not.
    A hole only ever removes placements, and so does a wall that opens. None when no
    such wall exists, or when post-processing would trim the board (the level would not
    be the size asked for)."""
    board = list(level.board)
    if square is not None:
        board[square] = HOLE
    else:
        for i, v in enumerate(board):
            if v == WALL and valid(placement[:i] + (-HOLE,) + placement[i + 1:], level.width) \
                    and not valid(other[:i] + (-HOLE,) + other[i + 1:], level.width):
                board[i] = HOLE
                break
        else:
            return None
    width, height, tidied = tidy.tidy(level.width, level.height, board)
    if (width, height) != (level.width, level.height):
        return None
    return level._replace(board=tidied), placement_on(tidied, placement)
