"""Sudoku's canonical form: the least image of a puzzle under the whole symmetry group of
its box shape, so that two puzzles have the same form exactly when one is an image of the
other (``PuzzleType.canonical_form``; the puzzle store dedups by it).

The group, for r x c boxes (n = r*c): permutations of the c bands, of the r rows within
each band, of the r stacks and of the c columns within each stack, relabelling of the n
values, and, for square boxes only (r == c), transposition. Reflections and rotations are
products of these. A 9x9 has 2 * 6^8 * 9! (about 1.2 * 10^12) elements.

The order: an image is compared first by its *pattern* (row by row, an empty square
before a given), then by its *values* (row by row, the givens). The least image has the
most empty squares at its start, and among those the least values. This is the
lexicographic order of the string ``pattern + values``; it is not the "minlex" order of
the Sudoku literature (values and empties compared as one string), which costs more to
search because relabelling and placement interact from the first row on.

The algorithm (exact, no invariant key): a minlex search row by row in two passes.

1. *Pattern.* The image is built one row at a time. A row of the image is any row of the
   band being filled (or the first row of any band not used yet). Column permutations are
   never enumerated: the set of those that give the least pattern so far is an ordered
   partition (groups of interchangeable stacks, each stack an ordered list of cells of
   interchangeable columns), and placing a row refines it: within each cell the columns
   where the row is empty go first, and within each group the stacks sort by their new
   pattern. Only the row choices whose pattern ties the least one survive to the next row.
2. *Values.* For each surviving row order, every column order the final partition allows
   (for a puzzle with a unique solution almost always one) is relabelled in order of first
   appearance (the least relabelling of a fixed order), compared row by row with the best
   so far and dropped at the first row that is worse.

The cost (docs/performance.md) is a few milliseconds for a 9x9 puzzle in pure Python.
Boards with almost no givens have huge stabilisers and take longer; a puzzle with a unique
solution cannot have two empty rows in a band (swapping them would give a second
solution), which bounds the ties.
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence

from .logic import ALPHABET

Cell = tuple[int, ...]        # interchangeable columns
Stack = tuple[Cell, ...]      # a stack's columns: cells in order
Group = tuple[Stack, ...]     # interchangeable stacks
Columns = tuple[Group, ...]   # the column permutations still in play


def _refine(columns: Columns, row: Sequence[int]) -> tuple[tuple[int, ...], Columns]:
    """The least pattern of ``row`` (0 empty, 1 given) over the column permutations
    ``columns`` allows, and the partition of those that give it."""
    bits: list[int] = []
    groups: list[Group] = []
    for group in columns:
        scored = []
        for stack in group:
            cells: list[Cell] = []
            pattern: list[int] = []
            for cell in stack:
                empty = tuple(x for x in cell if not row[x])
                given = tuple(x for x in cell if row[x])
                if empty:
                    cells.append(empty)
                    pattern.extend([0] * len(empty))
                if given:
                    cells.append(given)
                    pattern.extend([1] * len(given))
            scored.append((tuple(pattern), tuple(cells)))
        if len(scored) > 1:
            scored.sort(key=lambda s: s[0])
        for pattern, tied in itertools.groupby(scored, key=lambda s: s[0]):
            stacks = tuple(cells for _, cells in tied)
            groups.append(stacks)
            bits.extend(pattern * len(stacks))
    return tuple(bits), tuple(groups)


def _column_orders(columns: Columns):
    """Every column order the partition allows."""
    def stack_orders(stack: Stack):
        return (tuple(x for part in parts for x in part)
                for parts in itertools.product(*(itertools.permutations(cell)
                                                 for cell in stack)))

    def group_orders(group: Group):
        for stacks in itertools.permutations(group):
            for parts in itertools.product(*(stack_orders(s) for s in stacks)):
                yield tuple(x for part in parts for x in part)

    for parts in itertools.product(*(list(group_orders(g)) for g in columns)):
        yield tuple(x for part in parts for x in part)


def canonical(board: Sequence[int], n: int, r: int, c: int) -> str:
    """The canonical form of ``board`` (flat, row-major, 0 empty; r x c boxes): the box
    shape and the least image in the line format, e.g. ``3x3:.......12...``."""
    rows = [tuple(board[i * n:(i + 1) * n]) for i in range(n)]
    grids = [rows]
    if r == c:
        grids.append([tuple(rows[i][j] for i in range(n)) for j in range(n)])
    start: Columns = (tuple((tuple(range(s * c, (s + 1) * c)),) for s in range(r)),)
    bands = [tuple(range(b * r, (b + 1) * r)) for b in range(c)]
    # A state: (grid, rows placed, columns).
    states = [(g, (), start) for g in grids]
    for k in range(n):
        best: tuple[int, ...] | None = None
        survivors = []
        for grid, placed, columns in states:
            if k % r == 0:
                used = {i // r for i in placed}
                choices = [i for b, band in enumerate(bands) if b not in used for i in band]
            else:
                band = bands[placed[-1] // r]
                choices = [i for i in band if i not in placed]
            for i in choices:
                bits, refined = _refine(columns, grid[i])
                if best is None or bits < best:
                    best, survivors = bits, [(grid, placed + (i,), refined)]
                elif bits == best:
                    survivors.append((grid, placed + (i,), refined))
        states = survivors
    best_values: list[int] | None = None
    for grid, placed, columns in states:
        for order in _column_orders(columns):
            labels: dict[int, int] = {}
            values: list[int] = []
            worse = False
            for i in placed:
                row = grid[i]
                for j in order:
                    v = row[j]
                    if v:
                        values.append(labels.setdefault(v, len(labels) + 1))
                if best_values is not None:
                    head = best_values[:len(values)]
                    if values > head:
                        worse = True
                        break
                    if values < head:
                        best_values = None  # better already: no more comparing
            if not worse:
                best_values, best_grid = values, (grid, placed, order)
    grid, placed, order = best_grid
    labels = {}
    cells = [labels.setdefault(grid[i][j], len(labels) + 1) if grid[i][j] else 0
             for i in placed for j in order]
    return f"{r}x{c}:" + "".join(ALPHABET[v - 1] if v else "." for v in cells)
