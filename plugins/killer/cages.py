"""Killer cages drawn from a full grid: squares joined side by side, no digit twice in a
cage, numbered in reading order (cage 1 holds the top-left square, cage 2 the first square
met after it that is not in cage 1...). A cage's sum is its digits' total."""
from __future__ import annotations

import random
from collections.abc import Sequence

from puzzle_engine_plugins.sudoku.variant import labelled, neighbours, reading_order

#: The sizes a cage is drawn with, those below n on a small board (it stops early where
#: no square can join it).
SIZES = (2, 2, 3, 3, 3, 4, 4, 5)
#: A cage of one square joins a neighbouring cage below this size.
LARGEST = 6


def draw(digits: Sequence[int], n: int, rng: random.Random) -> list[int]:
    """Cages over the full grid ``digits`` (n x n): each grown from a random free square
    towards a size from ``SIZES``; a cage of one square then joins a neighbour's cage that
    lacks its digit, where one is small enough."""
    cage = [0] * (n * n)
    count = 0
    for first in rng.sample(range(n * n), n * n):
        if cage[first]:
            continue
        count += 1
        members, target = [first], rng.choice([s for s in SIZES if s < n])
        cage[first] = count
        while len(members) < target:
            held = {digits[i] for i in members}
            free = sorted({j for i in members for j in neighbours(i, n)
                           if not cage[j] and digits[j] not in held})
            if not free:
                break
            j = rng.choice(free)
            cage[j] = count
            members.append(j)
    squares = labelled(cage)
    for g, members in squares.items():
        if len(members) != 1:
            continue
        i = members[0]
        hosts = sorted({cage[j] for j in neighbours(i, n)
                        if len(squares[cage[j]]) < LARGEST
                        and digits[i] not in {digits[k] for k in squares[cage[j]]}})
        if hosts:
            host = rng.choice(hosts)
            cage[i] = host
            squares[host].append(i)
            squares[g] = []
    return reading_order(cage)


def sums(digits: Sequence[int], cage: Sequence[int]) -> list[int]:
    """The sums block: each cage's total on its first square, 0 on the others."""
    out = [0] * len(cage)
    for members in labelled(cage).values():
        out[members[0]] = sum(digits[i] for i in members)
    return out
