"""Pieces on a rectangle: where each piece can lie, whether a multiset of pieces tiles the
rectangle, every such multiset of pieces of given sizes, random tilings, the paper's 10x10
sets composed of four 5x5 sets, and the fusing of two adjacent 4-ominoes.

A placement is a bit mask of the board's squares (bit ``r * cols + c``).
"""
from __future__ import annotations

import itertools
import random
from functools import lru_cache

from .shapes import Shape, free, of_size, orientations, sort_pieces


@lru_cache(maxsize=256)
def placements(shape: Shape, rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    """Every placement of ``shape`` on a rows x cols board, as ``(orientation, mask)``
    (orientation an index into ``orientations(shape)``), orientation by orientation, each
    in reading order of its top-left corner. Placements with the same squares appear once
    (a symmetric piece has fewer than eight orientations)."""
    found = []
    for k, image in enumerate(orientations(shape)):
        height = max(r for r, _ in image) + 1
        width = max(c for _, c in image) + 1
        for r0 in range(rows - height + 1):
            for c0 in range(cols - width + 1):
                found.append((k, sum(1 << ((r0 + r) * cols + c0 + c) for r, c in image)))
    return tuple(found)


def cells(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _anchored(kinds, rows, cols):
    """For each square, the placements ``(kind, mask)`` whose first square (in reading
    order) is that square: a tiling search fills the first empty square next."""
    at = [[] for _ in range(rows * cols)]
    for k, shape in enumerate(kinds):
        for _, mask in placements(shape, rows, cols):
            at[(mask & -mask).bit_length() - 1].append((k, mask))
    return at


class GaveUp(Exception):
    """The tiling search took more steps than it was allowed."""


def tilings(pieces, rows: int, cols: int, rng: random.Random | None = None,
            steps: int | None = None):
    """Tilings of the board by exactly the multiset ``pieces``, each a list of
    ``(piece shape, mask)``; in a random order of choices with ``rng``. A generator;
    with ``steps``, it raises ``GaveUp`` after that many search steps."""
    budget = [steps]
    kinds = sorted(set(pieces))
    counts = [list(pieces).count(k) for k in kinds]
    at = _anchored(kinds, rows, cols)
    full = (1 << rows * cols) - 1
    failed: set = set()  # (covered, counts) known to lead nowhere
    chosen: list = []

    def search(covered):
        if covered == full:
            yield list(chosen)
            return
        key = (covered, tuple(counts))
        if key in failed:
            return
        if budget[0] is not None:
            budget[0] -= 1
            if budget[0] < 0:
                raise GaveUp
        first = (~covered & (covered + 1)).bit_length() - 1  # the lowest empty square
        options = at[first]
        if rng is not None:
            options = rng.sample(options, len(options))
        any_found = False
        for k, mask in options:
            if counts[k] and not mask & covered:
                counts[k] -= 1
                chosen.append((kinds[k], mask))
                for t in search(covered | mask):
                    any_found = True
                    yield t
                chosen.pop()
                counts[k] += 1
        if not any_found:
            failed.add(key)

    if sum(len(p) for p in pieces) == rows * cols:
        yield from search(0)


def one_tiling(pieces, rows, cols, rng=None, steps=None):
    """One tiling, or None when ``pieces`` cannot tile the board (``GaveUp`` after
    ``steps`` search steps)."""
    return next(tilings(pieces, rows, cols, rng, steps), None)


def multisets(sizes, area: int):
    """Every multiset of free polyominoes whose sizes are in ``sizes`` and whose areas add
    up to ``area``, as sorted tuples of shapes."""
    kinds = [s for n in sorted(set(sizes)) for s in of_size(n)]

    def fill(i, left):
        if left == 0:
            yield ()
            return
        if i == len(kinds):
            return
        n = len(kinds[i])
        for k in range(left // n, -1, -1):
            for rest in fill(i + 1, left - k * n):
                yield (kinds[i],) * k + rest
    for found in fill(0, area):
        yield sort_pieces(found)


def tileable_sets(sizes, rows: int, cols: int):
    """Every multiset of free polyominoes of the given sizes that tiles the board, with
    one tiling each: ``(pieces, tiling)``."""
    for pieces in multisets(sizes, rows * cols):
        found = one_tiling(pieces, rows, cols)
        if found is not None:
            yield pieces, found


def random_tiling(sizes, rows: int, cols: int, rng: random.Random, tries: int = 200):
    """A random tiling by pieces of the given sizes: each step covers the first empty
    square with a random piece and orientation, backtracking on a dead end. None when
    ``tries`` restarts all fail (or no tiling exists)."""
    kinds = [s for n in sorted(set(sizes)) for s in of_size(n)]
    at = _anchored(kinds, rows, cols)
    full = (1 << rows * cols) - 1
    for _ in range(tries):
        budget = [2000]

        def search(covered, chosen):
            if covered == full:
                return list(chosen)
            budget[0] -= 1
            if budget[0] < 0:
                return None
            first = (~covered & (covered + 1)).bit_length() - 1
            for k, mask in rng.sample(at[first], len(at[first])):
                if not mask & covered:
                    chosen.append((kinds[k], mask))
                    done = search(covered | mask, chosen)
                    if done is not None:
                        return done
                    chosen.pop()
            return None
        found = search(0, [])
        if found is not None:
            return found
    return None


def shift(mask: int, rows: int, cols: int, dr: int, dc: int, to_cols: int) -> int:
    """A mask on a rows x cols board moved by (dr, dc) onto a board ``to_cols`` wide."""
    return sum(1 << ((i // cols + dr) * to_cols + i % cols + dc) for i in cells(mask))


def compose(quarters, half_rows: int, half_cols: int):
    """A tiling of the 2*half_rows x 2*half_cols board from four tilings of the quarter
    board, in reading order of the quarters. The composed set tiles the board in at least
    as many ways as the product of its quarters' tilings, and more when the pieces move
    between quarters."""
    cols = 2 * half_cols
    out = []
    for q, quarter in enumerate(quarters):
        dr, dc = (q // 2) * half_rows, (q % 2) * half_cols
        out.extend((shape, shift(mask, half_rows, half_cols, dr, dc, cols))
                   for shape, mask in quarter)
    return out


def adjacent(a: int, b: int, cols: int) -> bool:
    """Whether two disjoint masks on a board ``cols`` wide share a side."""
    other = {divmod(i, cols) for i in cells(b)}
    return any(n in other for r, c in (divmod(i, cols) for i in cells(a))
               for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)))


def fuse(layout, cols: int, rng: random.Random, size: int = 4):
    """The layout with two adjacent pieces of ``size`` squares, drawn from ``rng``, made
    one piece of twice the size (the paper's 8-omino from two 4-ominoes); None when no two
    such pieces touch."""
    pairs = [(i, j) for i, j in itertools.combinations(range(len(layout)), 2)
             if len(layout[i][0]) == size == len(layout[j][0])
             and adjacent(layout[i][1], layout[j][1], cols)]
    if not pairs:
        return None
    i, j = rng.choice(pairs)
    mask = layout[i][1] | layout[j][1]
    fused = free(divmod(c, cols) for c in cells(mask))
    return [p for k, p in enumerate(layout) if k not in (i, j)] + [(fused, mask)]


def pieces_of(layout) -> tuple[Shape, ...]:
    return sort_pieces(shape for shape, _ in layout)
