"""A second solution near the emptied square: a cheap, exact way to refuse a removal.

When a square is emptied from a board whose only solution is S, any other solution T of
the new board differs from S at that square, and in practice only there and in the few
regions of S around it: T re-partitions them. So before the exact check is asked to look
at the whole board, this module looks for T among the boards that agree with S outside
the regions of S within ``k`` steps of the emptied square's region (k = 1, 2, ...): the
cells outside are filled in from S as if they were givens, and the deductions with a small
search (``deduce.solve``) look for a solution of what is left.

A solution found this way is a solution of the real board (it keeps every given, and the
cells filled in from S are only more givens), and it differs from S at the emptied square:
the removal is refused, exactly. Finding none proves nothing (T may re-partition regions
further away), so the caller then asks the exact check. Every step counts search nodes,
never seconds: the same board gets the same answer on any machine.
"""
from __future__ import annotations

from collections.abc import Sequence

from . import deduce, logic

#: Rings of regions around the emptied square tried, and the search nodes of each try.
RINGS = (1, 2, 3)
NODES = 300


def other_nearby(board: tuple[int, ...], rows: int, cols: int, solution: tuple[int, ...],
                 index: int) -> tuple[int, ...] | None:
    """A solution of ``board`` (0 = empty) that holds another value than ``solution`` at
    the empty square ``index``, found among those that agree with ``solution`` outside a
    few regions around ``index``; None when there is none there (or the search gave up)."""
    exclude = (index, solution[index])
    for cells in _rings(solution, rows, cols, index):
        trial = tuple(v or (0 if c in cells else solution[c]) for c, v in enumerate(board))
        found = deduce.solve(trial, rows, cols, limit=1, budget=NODES, avoid=solution,
                             exclude=exclude)
        if found.solutions:
            return found.solutions[0]
    return None


def _rings(solution: tuple[int, ...], rows: int, cols: int, index: int):
    """For k in ``RINGS``, the cells of the regions of ``solution`` at most k steps (from a
    region to a neighbouring one) from the region of ``index``; stops when a ring covers the
    whole board (the full search has been tried on it already)."""
    region_of = logic.solution_regions(solution, rows, cols)
    near = _region_graph(region_of, rows, cols)
    seen = {region_of[index]}
    front = set(seen)
    done = 0
    for k in RINGS:
        while done < k:
            front = {q for p in front for q in near[p]} - seen
            seen |= front
            done += 1
        if len(seen) == len(near):
            return
        yield frozenset(c for c, r in enumerate(region_of) if r in seen)


def _region_graph(region_of: Sequence[int], rows: int, cols: int) -> dict[int, set[int]]:
    near: dict[int, set[int]] = {r: set() for r in region_of}
    for c, r in enumerate(region_of):
        i, j = divmod(c, cols)
        for d in ((c + 1) if j + 1 < cols else None, (c + cols) if i + 1 < rows else None):
            if d is not None and region_of[d] != r:
                near[r].add(region_of[d])
                near[region_of[d]].add(r)
    return near
