"""What the Sudoku variants (sudoku-x, jigsaw, killer: their own plugins) share with
Sudoku and with each other: an n x n board of 1..n whose *units* (rows, columns, boxes,
diagonals, regions, cages) hold every value at most once, on the model core
``units.mzn`` beside this file.

A variant's board is the digits block (n rows, 0 = empty) followed by ``layers - 1``
blocks of n rows of *structure* (``FlatBoard.structure``): jigsaw's region of each
square, killer's cage of each square and the cage sums. The structure is never emptied,
is data of every model (``to_data`` and ``checker_data`` give it), and is drawn rather
than written on a sheet. ``SudokuVariant`` is the type's base: a variant says its units
(named as a person would), its model, how it reads and writes its structure, and how it
draws it.
"""
from __future__ import annotations

import math
import re
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

from puzzle_engine import (ConstraintGroup, ConstraintGroups, Drawing, Explanation,
                           GridPuzzle, Play, PuzzleInputError)
from puzzle_engine.render.play import PlayGrid
from puzzle_engine.render.svg import GridDrawing

from .groups import LINE_WEIGHT
from .logic import ALPHABET, check_params, dims, format_line, format_text, parse, repeated
from .logic import units as sudoku_units

#: The model core every variant's own model is appended to.
CORE = files("puzzle_engine_plugins.sudoku") / "units.mzn"
#: The largest board whose symbols and structure fit one character a square.
MAX_VARIANT_SIZE = 9

Unit = tuple[str, str, Sequence[int]]  #: (name for a person, kind, squares)


def lines_of(n: int) -> list[Unit]:
    """The rows and columns, in the order of ``units.mzn``'s ``rows_u ++ cols_u``."""
    return [(name, name.split()[0], cells) for name, cells in sudoku_units(n, n, 1)[:2 * n]]


def boxes_of(n: int, r: int, c: int) -> list[Unit]:
    """The r x c boxes, band by band as the models' ``boxes_u`` list them ("box 1" to
    "box n", as a reader counts them)."""
    return [(name, "box", cells) for name, cells in sudoku_units(n, r, c)[2 * n:]]


def conflict(board: Sequence[int], units: Sequence[Unit]) -> str | None:
    """The first value a unit holds twice, in words, or None."""
    return repeated(board, [(name, squares) for name, _, squares in units])


def labelled(labels: Sequence[int]) -> dict[int, list[int]]:
    """Squares by label (a region's or a cage's number), labels in order."""
    out: dict[int, list[int]] = {}
    for i, g in enumerate(labels):
        out.setdefault(g, []).append(i)
    return dict(sorted(out.items()))


def reading_order(labels: Sequence[int]) -> list[int]:
    """The same regions (or cages), renumbered 1, 2, ... in reading order: region 1 holds
    the top-left square, region 2 the first square met after it outside region 1..."""
    number: dict[int, int] = {}
    for g in labels:
        number.setdefault(g, len(number) + 1)
    return [number[g] for g in labels]


def connected(squares: Sequence[int], n: int) -> bool:
    """Whether ``squares`` of an n x n board are joined side by side."""
    todo, inside = [squares[0]], set(squares)
    seen = {squares[0]}
    while todo:
        i = todo.pop()
        for j in neighbours(i, n):
            if j in inside and j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(inside)


def neighbours(i: int, n: int) -> list[int]:
    """The squares beside square ``i`` of an n x n board."""
    r, c = divmod(i, n)
    return [(r + dr) * n + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < n and 0 <= c + dc < n]


def sections(text: str) -> list[str]:
    """A puzzle's parts: the line format separates them with ``/``, the text format with
    blank lines."""
    if "/" in text:
        return [part.strip() for part in text.split("/")]
    return [part for part in re.split(r"\n[ \t]*\n", text.strip()) if part.strip()]


def read_labels(text: str, alphabet: str, n: int | None, what: str) -> list[int]:
    """A block of one character a square (white space ignored) as labels from 1, each
    character's place in ``alphabet`` plus one."""
    chars = [ch for ch in text if not ch.isspace()]
    if n is None:
        n = math.isqrt(len(chars))
    if len(chars) != n * n:
        raise PuzzleInputError(f"wrong length: the {what} hold {len(chars)} squares, "
                               f"expected {n * n}")
    labels = []
    for i, ch in enumerate(chars):
        k = alphabet.find(ch)
        if k < 0:
            raise PuzzleInputError(f"bad {what} symbol '{ch}' at row {i // n + 1}, column "
                                   f"{i % n + 1} (expected one of {alphabet[0]}-{alphabet[-1]})")
        labels.append(k + 1)
    return labels


def write_labels(labels: Sequence[int], alphabet: str, n: int, fmt: str) -> str:
    """``read_labels``'s block: one line, or n rows of characters split by spaces."""
    chars = [alphabet[g - 1] for g in labels]
    if fmt == "line":
        return "".join(chars)
    return "\n".join(" ".join(chars[i * n:(i + 1) * n]) for i in range(n))


class SudokuVariant(GridPuzzle, Explanation, Drawing, Play):
    """The base of a variant: a board of ``layers`` blocks of n x n, the digits first."""

    decision = "grid"
    #: The blocks of the board: 1 (the digits alone), 2 or 3 (with structure).
    layers = 1
    #: ``models`` is ``(CORE, the variant's own model)``.

    # -- what a variant says ---------------------------------------------------------------
    def units(self, params, instance) -> list[Unit]:
        """Every unit of ``instance`` in the order of the model's ``units``."""
        raise NotImplementedError

    def model_data(self, params) -> dict[str, Any]:
        """The model's data beyond the core's (a box shape)."""
        return {}

    def extra_groups(self, params, instance) -> list[ConstraintGroup]:
        """Constraint groups beyond the units' (killer's cages)."""
        return []

    def box_shape(self, params) -> tuple[int, int] | None:
        """The boxes' r x c, for the text format's box borders; None: no boxes."""
        return None

    # -- the board ---------------------------------------------------------------------------
    def side(self, params) -> int:
        return params["size"]

    def shape(self, params):
        n = self.side(params)
        return self.layers * n, n

    def structure(self, params, board):
        n = self.side(params)
        return frozenset(range(n * n, self.layers * n * n))

    def preferred_solver(self, params):
        # The SAT back end, as for Sudoku up to 16x16 (sudoku/logic.py, preferred_solver).
        return "sat"

    def to_data(self, params, instance, solver):
        n = self.side(params)
        return {"n": n, "layers": self.layers, "top": n if self.layers == 1 else n * n,
                "board": self.rows(instance, n), "level": 0, **self.model_data(params)}

    def checker_data(self, params, board, solver):
        n = self.side(params)  # the givens are fixed by the checks; the structure is data
        return self.to_data(params, (0,) * (n * n) + tuple(board[n * n:]), solver)

    def digits(self, params, board) -> tuple[int, ...]:
        n = self.side(params)
        return tuple(board[:n * n])

    # -- explanation -------------------------------------------------------------------------
    def constraint_groups(self, params, instance):
        groups = [ConstraintGroup(name, f"unit_rule({u})",
                                  LINE_WEIGHT if kind in ("row", "column", "diagonal") else 0.0,
                                  kind)
                  for u, (name, kind, _) in enumerate(self.units(params, instance), 1)]
        return ConstraintGroups(tuple(groups + self.extra_groups(params, instance)),
                                {"level": -1})

    # -- text --------------------------------------------------------------------------------
    def format_digits(self, params, instance, fmt) -> str:
        digits, n = self.digits(params, instance), self.side(params)
        if fmt == "line":
            return format_line(digits)
        box = self.box_shape(params)
        if box is None:  # no boxes, no borders: one symbol a square, "." for empty
            return write_labels([v + 1 for v in digits], "." + ALPHABET, n, fmt)
        return format_text(digits, n, *box)

    def check_size(self, params: dict[str, Any]) -> dict[str, Any]:
        """``params``, refused in one line when the board is larger than a variant's."""
        if params["size"] > MAX_VARIANT_SIZE:
            raise PuzzleInputError(f"bad size {params['size']}: {self.name} boards run up to "
                                   f"{MAX_VARIANT_SIZE}x{MAX_VARIANT_SIZE}")
        return params

    def boxed_params(self, raw: dict[str, Any]) -> dict[str, Any]:
        """``{"size", "box"}`` from ``--size``/``--box``, as Sudoku reads them, for a
        variant with boxes."""
        params = self.check_size(check_params(raw))
        return {"size": params["size"], "box": params["box"]}

    def box_data(self, params) -> dict[str, Any]:
        """The box shape as the variants' models take it: ``r`` and ``c``."""
        _, r, c = dims(params)
        return {"r": r, "c": c}

    def parse_digits(self, text: str, raw: dict[str, Any]) -> tuple[dict[str, Any], tuple]:
        """The digits block, with Sudoku's reader (``raw`` holds the size or box)."""
        params, board = parse(text, raw)
        return self.check_params(self.check_size(params)), board

    def check_units(self, params, board) -> tuple:
        """``board``, refused in one line when a unit holds a value twice."""
        found = conflict(board, self.units(params, board))
        if found:
            raise PuzzleInputError(f"conflicting givens: {found}")
        return tuple(board)

    # -- drawing and play ----------------------------------------------------------------------
    def symbols(self, drawing: GridDrawing, params, instance, solution) -> None:
        """The givens, and the answer key's digits when ``solution`` is given."""
        n = self.side(params)
        for i in range(n * n):
            if instance[i]:
                drawing.symbol(i, ALPHABET[instance[i] - 1])
            elif solution is not None:
                drawing.symbol(i, ALPHABET[solution[i] - 1], given=False)

    def play_regions(self, params, instance) -> list[int] | None:
        """The regions the play page outlines thick (boxes, jigsaw regions, cages)."""
        return None

    def play_grid(self, params, instance, solution):
        n = self.side(params)
        return PlayGrid(rows=n, cols=n, cells=self.digits(params, instance),
                        solution=self.digits(params, solution), symbols=tuple(ALPHABET[:n]),
                        rule="all-different",
                        units=tuple(tuple(s) for _, _, s in self.units(params, instance)),
                        regions=self.play_regions(params, instance),
                        rules=self.rules(params))


__all__ = ["CORE", "MAX_VARIANT_SIZE", "SudokuVariant", "Unit", "boxes_of", "conflict",
           "connected", "labelled", "lines_of", "neighbours", "read_labels", "reading_order",
           "sections",
           "write_labels"]
