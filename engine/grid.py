"""The shared helper for grid puzzles: a puzzle is a flat board of integers, row by row, 0
for an empty square, emptied by the ``emptying`` strategy.

A grid type subclasses ``GridPuzzle`` (``PuzzleType``, ``Codec``, ``Emptying`` and
``Grading``), says its shape, and writes ``to_data``, ``parse`` and ``format``; the rest
(JSON records, the multiple method's search variables, the basic features) is here. It
adds other facets (``Symmetry``, ``Drawing``...) by subclassing them too. Squares that
are structure (``structure``) are never emptied, never counted as givens and never
branched on.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any

from . import calls
from .errors import PuzzleInputError
from .hookspecs import Codec, Emptying, Grading, PuzzleType
from .types import Board, flatten


def rows_of(board: Board, cols: int) -> list[list[int]]:
    """A flat board as a list of rows."""
    return [list(board[i:i + cols]) for i in range(0, len(board), cols)]


def board_images(board: Board, rows: int, cols: int) -> list[Board]:
    """``board``'s images under the rotations and reflections that keep its shape: the 8
    of a square board, the 4 of a rectangular one (the identity first). For canonical
    forms of grid types: the least image is a representative under that group."""
    grid = rows_of(board, cols)
    turned = [grid, [row[::-1] for row in grid], grid[::-1], [row[::-1] for row in grid[::-1]]]
    if rows == cols:
        transposed = [list(col) for col in zip(*grid)]
        turned += [transposed, [row[::-1] for row in transposed], transposed[::-1],
                   [row[::-1] for row in transposed[::-1]]]
    return [tuple(v for row in g for v in row) for g in turned]


class GridPuzzle(PuzzleType, Codec, Emptying, Grading):
    """A rows x cols board of integers; 0 is an empty square."""

    def shape(self, params: Mapping[str, Any]) -> tuple[int, int]:
        """``(rows, cols)`` of the board for these params."""
        raise NotImplementedError

    def board_size(self, params: Mapping[str, Any]) -> int:
        rows, cols = self.shape(params)
        return rows * cols

    def orbits(self, params: Mapping[str, Any], symmetry: str) -> list[frozenset[int]]:
        """The orbits of the rows x cols board's squares (row by row) under ``symmetry``;
        a quarter turn and the diagonal need a square board."""
        rows, cols = self.shape(params)
        image = {
            "rot180": lambda r, c: (rows - 1 - r, cols - 1 - c),
            "mirror": lambda r, c: (r, cols - 1 - c),
            "rot90": lambda r, c: (c, rows - 1 - r),
            "diagonal": lambda r, c: (c, r),
        }.get(symmetry)
        if image is None:
            raise PuzzleInputError(f"bad --symmetry {symmetry!r}: expected one of rot180, rot90, "
                                   "mirror, diagonal")
        if symmetry in ("rot90", "diagonal") and rows != cols:
            raise PuzzleInputError(f"--symmetry {symmetry} needs a square board; this one is "
                                   f"{rows}x{cols} (rows x columns): use rot180 or mirror")
        seen: dict[int, frozenset[int]] = {}
        for square in range(rows * cols):
            if square in seen:
                continue
            orbit, (r, c) = {square}, divmod(square, cols)
            while True:
                r, c = image(r, c)
                if r * cols + c in orbit:
                    break
                orbit.add(r * cols + c)
            for i in orbit:
                seen[i] = frozenset(orbit)
        return list(dict.fromkeys(seen.values()))

    # -- the Codec and Grading methods, for a board ------------------------------------------
    def to_json(self, params, instance: Board, solution: Board | None) -> dict[str, Any]:
        _, cols = self.shape(params)
        givens = calls.call(self, "givens", params=params, board=instance)
        fixed = len(calls.call(self, "structure", params=params, board=instance))
        record = {"grid": rows_of(instance, cols)}
        if solution is not None:
            record["solution"] = rows_of(solution, cols)
        record.update({"givens": givens, "empty": len(instance) - givens - fixed})
        return record

    def from_json(self, params, record) -> Board:
        if "grid" not in record:
            raise PuzzleInputError("the record has no field 'grid'")
        grid = record["grid"]
        if not isinstance(grid, list):  # said as JSON: null, true, "1 2"
            raise PuzzleInputError(f"field 'grid' must be a list of rows, not "
                                   f"{json.dumps(grid, default=str)[:40]}")
        flat = [v for row in grid for v in (row if isinstance(row, list) else [row])]
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in flat):
            raise PuzzleInputError("field 'grid' must hold non-negative integers")
        n = self.board_size(params)
        if len(flat) != n:
            raise PuzzleInputError(f"field 'grid' has {len(flat)} squares, expected {n}")
        return tuple(flat)

    def search_variables(self, params, instance: Board) -> list[int]:
        fixed = calls.call(self, "structure", params=params, board=instance)
        return [i for i, v in enumerate(instance) if not v and i not in fixed]

    def features(self, params, instance: Board, solution, checker) -> dict[str, float]:
        givens = self.givens(params, instance)
        fixed = len(self.structure(params, instance))
        return {"squares": float(len(instance) - fixed), "givens": float(givens),
                "empties": float(len(instance) - fixed - givens)}

    def random_solution(self, params, rng: random.Random, solve: Callable, transform: Callable):
        board = solve(tuple([0] * self.board_size(params)))
        return None if board is None else transform(board)

    @staticmethod
    def rows(board: Board, cols: int) -> list[list[int]]:
        """``board`` as a list of rows, the usual shape of a MiniZinc ``givens`` array."""
        return rows_of(board, cols)


__all__ = ["GridPuzzle", "board_images", "flatten", "rows_of"]
