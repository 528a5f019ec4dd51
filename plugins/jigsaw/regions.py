"""Jigsaw regions drawn from a seed: n regions of n squares each, joined side by side,
numbered in reading order (region 1 holds the top-left square, region 2 the first square
met after it that is not in region 1, and so on)."""
from __future__ import annotations

import random

from puzzle_engine_plugins.sudoku.logic import squarest_box
from puzzle_engine_plugins.sudoku.variant import (connected, labelled, neighbours,
                                                  reading_order)

#: Successful moves per square: enough that no box or row is left standing.
MOVES_PER_SQUARE = 4


def start(n: int) -> list[int]:
    """Boxes where n has a box shape (6: 2x3, 9: 3x3), else rows (5, 7)."""
    r, c = squarest_box(n)
    if r == 1:
        return [i // n + 1 for i in range(n * n)]
    return [(i // n) // r * r + (i % n) // c + 1 for i in range(n * n)]


def draw(n: int, rng: random.Random) -> list[int]:
    """Random regions: from ``start``, square after square moves from a region to the one
    beside it while another square comes back, both regions staying joined."""
    labels = start(n)
    moves, tries = 0, 0
    while moves < MOVES_PER_SQUARE * n * n and tries < 100 * n * n:
        tries += 1
        a = rng.randrange(n * n)
        b = rng.choice(neighbours(a, n))
        old, new = labels[a], labels[b]
        if old == new:
            continue
        moved = list(labels)
        moved[a] = new
        back = [c for c in range(n * n) if moved[c] == new and c != a
                and any(moved[d] == old for d in neighbours(c, n))]
        if not back:
            continue
        moved[rng.choice(back)] = old
        squares = labelled(moved)
        if connected(squares[old], n) and connected(squares[new], n):
            labels, moves = moved, moves + 1
    return reading_order(labels)
