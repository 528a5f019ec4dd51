"""Sudoku's canonical form: the least image of a puzzle under the whole symmetry group of
its box shape, so that two puzzles have the same form exactly when one is an image of the
other (``Symmetry.canonical_form``; the puzzle store dedups by it).

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


def _distinct(orders, content):
    """The column orders of ``orders`` that differ in what they show: columns of equal
    content (empty in every row, say) swapped give the same image."""
    seen = set()
    for order in orders:
        shown = tuple(content[x] for x in order)
        if shown not in seen:
            seen.add(shown)
            yield order


def _cell_orders(cell: Cell, content: Sequence[tuple[int, ...]]):
    """The orders of a cell's columns that differ in what they show: the permutations of
    the multiset of their contents (in lexicographic order, each made once)."""
    classes: dict[tuple[int, ...], list[int]] = {}
    for x in cell:
        classes.setdefault(content[x], []).append(x)
    members = list(classes.values())
    word = sorted(k for k, m in enumerate(members) for _ in m)
    while True:
        taken = [iter(m) for m in members]
        yield tuple(next(taken[k]) for k in word)
        # The next permutation of ``word`` in lexicographic order, if any.
        i = len(word) - 2
        while i >= 0 and word[i] >= word[i + 1]:
            i -= 1
        if i < 0:
            return
        j = len(word) - 1
        while word[j] <= word[i]:
            j -= 1
        word[i], word[j] = word[j], word[i]
        word[i + 1:] = reversed(word[i + 1:])


def _column_orders(columns: Columns, content: Sequence[tuple[int, ...]]):
    """Every column order the partition allows, but one of each set that show the same
    image (``content[x]``: column x in the rows placed)."""
    def joined(parts):
        return tuple(x for part in parts for x in part)

    def stack_orders(stack: Stack):
        cells = [list(_cell_orders(cell, content)) for cell in stack]
        return list(_distinct(map(joined, itertools.product(*cells)), content))

    def group_orders(group: Group):
        return list(_distinct((joined(parts) for stacks in itertools.permutations(group)
                               for parts in itertools.product(*map(stack_orders, stacks))),
                              content))

    for parts in itertools.product(*map(group_orders, columns)):
        yield joined(parts)


def _signature(state, bands, r: int):
    """What decides a state's images from here on: the content of the rows placed, the
    column partition, and the content of the rows left, by band."""
    grid, placed, columns = state
    current = bands[placed[-1] // r]
    used = {i // r for i in placed}
    left = tuple(sorted(grid[i] for i in current if i not in placed))
    bands_left = tuple(sorted(tuple(sorted(grid[i] for i in band))
                              for b, band in enumerate(bands) if b not in used))
    return tuple(grid[i] for i in placed), columns, left, bands_left


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
        # States that placed rows of the same content, with the same rows left, give the
        # same images from here on: keep one (an almost empty board has many).
        unique = {}
        for state in survivors:
            unique.setdefault(_signature(state, bands, r), state)
        states = list(unique.values())
    best_values: list[int] | None = None
    for grid, placed, columns in states:
        content = [tuple(grid[i][x] for i in placed) for x in range(n)]
        for order in _column_orders(columns, content):
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
