"""What the explainer knows of an instance before its first step: the data to flatten the
model from, the facts known from the start, and the names of squares and values.

A type says it through ``Explanation.explanation_board`` (an ``ExplanationBoard``), checked
here like every value a plugin returns. A ``FlatBoard`` type need not: its instance is a
flat board, 0 for an empty square, the givens are the facts known, and the model is
flattened from its checker data (no givens: they are facts, stated as assumptions).
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .. import calls
from ..errors import PuzzleInputError
from ..hookspecs import Explanation, FlatBoard
from ..types import ExplanationBoard

WANTED = ("ExplanationBoard(known, squares, values, data): known a mapping of positions to "
          "integer values, squares a tuple of names, values a mapping of integers to names "
          "(names of printable characters, on one line), data a mapping of MiniZinc data "
          "or None")


def explainable(ptype) -> bool:
    """Whether the explainer can explain puzzles of ``ptype``: flat boards of squares to
    fill (``FlatBoard``), or an ``Explanation`` type that says how it sees an instance
    (writes ``explanation_board``)."""
    return isinstance(ptype, FlatBoard) or (
        isinstance(ptype, Explanation)
        and type(ptype).explanation_board is not Explanation.explanation_board)


def refusal(ptype) -> PuzzleInputError:
    return PuzzleInputError(f"puzzle '{ptype.name}' cannot be explained: the explainer "
                            "works on puzzles whose answer fills a board of squares (types "
                            "that are a FlatBoard, such as the emptying strategy's, and "
                            "types whose explanation_board says how it sees one)")


def board_of(engine, ptype, params, instance) -> ExplanationBoard:
    """The explainer's view of ``instance``, with its data filled in (checked; the number
    of squares is checked against the model once it is flattened)."""
    value = calls.call(ptype, "explanation_board", params=params, instance=instance)
    if value is None:
        if not isinstance(ptype, FlatBoard):
            raise refusal(ptype)
        return _flat_board(engine, ptype, params, tuple(instance))
    if not _well_formed(value):
        raise calls.bad_result("explanation_board", ptype, value, WANTED)
    n = len(value.squares)
    outside = [x for x in value.known if not 0 <= x < n]
    if outside:
        raise calls.bad_result("explanation_board", ptype, value,
                               f"known positions within the {n} squares (got {outside[0]})")
    data = value.data
    if data is None:
        data = engine.data(ptype, params, instance)
    return ExplanationBoard(dict(value.known), tuple(value.squares), dict(value.values),
                            dict(data))


def _well_formed(value: Any) -> bool:
    def whole(v):
        return isinstance(v, int) and not isinstance(v, bool)

    def name(s):  # printed in a step's one line
        return isinstance(s, str) and s and s.isprintable()
    return (isinstance(value, ExplanationBoard)
            and isinstance(value.known, Mapping)
            and all(whole(x) and whole(v) for x, v in value.known.items())
            and isinstance(value.squares, (tuple, list)) and value.squares
            and all(name(s) for s in value.squares)
            and isinstance(value.values, Mapping)
            and all(whole(v) and name(s) for v, s in value.values.items())
            and (value.data is None or (isinstance(value.data, Mapping)
                                        and all(isinstance(k, str) for k in value.data)
                                        and _plain(value.data))))


def _plain(data: Mapping) -> bool:
    """Whether ``data`` is plain JSON values (what MiniZinc's data can be)."""
    try:
        json.dumps(dict(data), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


def _flat_board(engine, ptype, params, board: tuple[int, ...]) -> ExplanationBoard:
    """An ``emptying`` type's board: givens known, squares named by row and column when
    the type has a ``shape`` that fits, else numbered."""
    rows, cols = _shape(ptype, params, len(board))
    squares = tuple(f"r{x // cols + 1}c{x % cols + 1}" if rows else f"square {x + 1}"
                    for x in range(len(board)))
    fixed = calls.call(ptype, "structure", params=params, board=board)
    if not isinstance(fixed, (set, frozenset)) or not all(
            isinstance(x, int) and 0 <= x < len(board) for x in fixed):
        raise calls.bad_result("structure", ptype, fixed, f"a set of squares 0..{len(board) - 1}")
    # The givens, and every structure square, 0 ("no clue here") included: known.
    known = {x: v for x, v in enumerate(board) if v or x in fixed}
    return ExplanationBoard(known, squares, {}, engine.checker_data(ptype, params, board))


def _shape(ptype, params, n: int) -> tuple[int, int]:
    shape = getattr(ptype, "shape", None)
    if shape is None:
        return 0, n
    try:
        rows, cols = shape(params)
    except Exception:  # noqa: BLE001 - a name is only a name
        return 0, n
    return (rows, cols) if rows * cols == n else (0, n)
