"""Brute force over the whole symmetry group of a small Sudoku, for checking the
canonical form of ``puzzle_engine_plugins.sudoku.canonical`` (tests only)."""
from __future__ import annotations

import itertools

from puzzle_engine_plugins.sudoku.logic import ALPHABET


def orders(blocks: int, width: int):
    """Every permutation of ``blocks`` blocks of ``width`` lines and of the lines within
    each block."""
    for outer in itertools.permutations(range(blocks)):
        for inner in itertools.product(*(itertools.permutations(range(width))
                                         for _ in range(blocks))):
            yield tuple(b * width + inner[k][j] for k, b in enumerate(outer)
                        for j in range(width))


def brute_canonical(board, n: int, r: int, c: int) -> str:
    """The least image by (pattern, values), over every element of the group."""
    rows = [tuple(board[i * n:(i + 1) * n]) for i in range(n)]
    grids = [rows] + ([[tuple(rows[i][j] for i in range(n)) for j in range(n)]]
                      if r == c else [])
    col_orders = list(orders(r, c))
    best = None
    for grid in grids:
        for row_order in orders(c, r):
            for col_order in col_orders:
                cells = [grid[i][j] for i in row_order for j in col_order]
                labels: dict[int, int] = {}
                values = [labels.setdefault(v, len(labels) + 1) for v in cells if v]
                pattern = [1 if v else 0 for v in cells]
                key = (pattern, values)
                if best is None or key < best[0]:
                    labels = {}
                    best = (key, [labels.setdefault(v, len(labels) + 1) if v else 0
                                  for v in cells])
    return f"{r}x{c}:" + "".join(ALPHABET[v - 1] if v else "." for v in best[1])
