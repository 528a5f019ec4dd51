"""Scores: a placed piece scores the larger of the sum and the product of the numbers it
covers. Also the paper's greedy rule for a covering with every piece placed (largest
numbers under largest pieces) and the exact best for that case, which Lemma 1 makes a
question about piece sizes alone."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache


def best_of(values: Sequence[int]) -> int:
    """max(sum, product): the puzzle's rule."""
    return max(sum(values), math.prod(values))


def product(values: Sequence[int]) -> int:
    """The first version of the puzzle: products only."""
    return math.prod(values)


RULES: dict[str, Callable[[Sequence[int]], int]] = {"max": best_of, "product": product,
                                                     "sum": sum}


def greedy(sizes: Sequence[int], numbers: Sequence[int], rule=best_of) -> int:
    """The paper's greedy score with every piece placed: the numbers sorted largest
    first, dealt to the pieces sorted largest first."""
    values = sorted(numbers, reverse=True)
    total, at = 0, 0
    for size in sorted(sizes, reverse=True):
        total += rule(values[at:at + size])
        at += size
    return total


def best_split(sizes: Sequence[int], numbers: Sequence[int], rule=best_of) -> int:
    """The best score with every piece placed: the best way to deal the multiset
    ``numbers`` into groups of the given ``sizes`` (exhaustive, over multisets; for small
    cases). By Lemma 1 it is the best over every arrangement of the numbers under any
    covering by these pieces."""
    sizes = tuple(sorted(sizes, reverse=True))
    counts = {}
    for v in numbers:
        counts[v] = counts.get(v, 0) + 1
    values = tuple(sorted(counts))

    def groups(size, left, i=0):
        """Every multiset of ``size`` numbers drawn from ``left`` (counts per value)."""
        if size == 0:
            yield ()
            return
        for j in range(i, len(values)):
            if left[j]:
                rest = left[:j] + (left[j] - 1,) + left[j + 1:]
                for g in groups(size - 1, rest, j):
                    yield (values[j],) + g

    @lru_cache(maxsize=None)
    def best(k, left):
        if k == len(sizes):
            return 0
        top = None
        for g in groups(sizes[k], left):
            rest = list(left)
            for v in g:
                rest[values.index(v)] -= 1
            score = rule(g) + best(k + 1, tuple(rest))
            top = score if top is None else max(top, score)
        return top if top is not None else -10 ** 9

    return best(0, tuple(counts[v] for v in values))
