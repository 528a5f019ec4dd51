"""The boards of the HTML play page: what a puzzle type's ``play_grid`` returns, and their
checks. The page (``html``) knows nothing of puzzle types. It plays three kinds of board:

- ``PlayGrid``: a rows x cols board; a person types symbols into the open squares, and
  the page marks conflicts by one of a few rules that it implements in JavaScript, chosen
  by name;
- ``ChoiceBoard``: a question; a person chooses one of its options (or types an answer),
  checks it, and may reveal the answer;
- ``PieceBoard``: a board and pieces of a few kinds (a shape, a colour, a symbol); a
  person places and removes pieces, and the page counts what is left to place, and by
  its rule marks the pieces attacked (``attacks``) or keeps the score (``score``)."""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import calls

#: The conflict rules the page implements (``PlayGrid.rule``):
RULES = {
    "all-different": "no symbol twice in a unit (``units``: rows, columns, boxes...)",
    "region-size": "a square holds the size of its region, the squares of equal numbers "
                   "joined side by side: a region larger than its number, or closed off "
                   "smaller, is in conflict; regions show thick borders",
    "solution": "a filled square that differs from the solution (for types whose own "
                "rule the page does not know)",
    "script": "the type's own rule, ``script``: a JavaScript function",
}
BLOCKED = -1  #: a square of ``cells`` that is no part of the play (a wall)
HOLE = -2  #: a square of a ``PieceBoard`` where no piece stands but attacks pass over
#: The rules of a ``PieceBoard`` (``PieceBoard.rule``):
PIECE_RULES = {
    "attacks": "a piece attacks along its kind's rays, up to the first piece or blocked "
               "square (holes let attacks pass); a piece attacked by one of another "
               "group is marked; solved when every piece is placed and none is attacked",
    "score": "a placed piece scores by ``scoring`` the numbers under it; the page shows "
             "the total against ``goal`` (the optimum), and is solved when it reaches it",
}
#: How a ``PieceBoard`` with the rule ``score`` scores a piece from its numbers:
SCORINGS = {"max": "the larger of their sum and their product", "sum": "their sum",
            "product": "their product"}
SCRIPT_CLOSERS = ("</", "<!--")  #: what a ``script`` cannot hold: it would end its <script>
LABEL_MOST = 6  #: the longest text of a ``PlayGrid`` label (it sits in a square's corner)


@dataclass(frozen=True)
class PlayGrid:
    """A puzzle as a board to fill in on the play page.

    ``cells`` holds a value per square, row by row: 0 for a square to fill in, a given's
    value (from 1), or ``BLOCKED``. ``solution`` holds every square's answer. ``symbols``
    are how the values are written and typed, ``symbols[v - 1]`` for ``v`` (a single
    character each, typed case-insensitively); ``None`` for decimal numbers. ``rule``
    names one of ``RULES``; ``units`` are the groups of squares for ``all-different``.
    ``regions`` give each square a fixed region (boxes), drawn with thick borders.
    ``script`` is the source of a JavaScript function ``(values, grid) => [squares]``
    that returns the squares in conflict (``values``: the board as filled in, 0 empty),
    for the rule ``script``; it comes from the plugin's code, never from a puzzle file.
    ``rules`` is one line telling the player the rules. ``labels`` put a small text in
    the top left corner of some squares (a cage's sum): ``{square: text}`` or a
    sequence of ``(square, text)``, each text one line of up to ``LABEL_MOST`` characters,
    a square at most once. ``shaded`` are squares drawn on a light grey background (a
    diagonal)."""

    rows: int
    cols: int
    cells: Sequence[int]
    solution: Sequence[int]
    symbols: Sequence[str] | None = None
    rule: str = "solution"
    units: Sequence[Sequence[int]] = ()
    regions: Sequence[int] | None = None
    script: str = ""
    rules: str = ""
    labels: Mapping[int, str] | Sequence[tuple[int, str]] = ()
    shaded: Sequence[int] = ()


@dataclass(frozen=True)
class ChoiceBoard:
    """A question to answer on the play page: ``question`` (plain text, its lines kept),
    and either ``options`` (one line each) with ``answer`` the right one's index (from 0),
    or no options and ``answer`` the answer as text, which the player types; it is
    checked case and spacing aside, and with ``unordered`` as a list whose parts
    (separated by commas) may come in any order. ``rules``: one line of rules."""

    question: str
    options: Sequence[str] = ()
    answer: int | str = 0
    unordered: bool = False
    rules: str = ""


@dataclass(frozen=True)
class PieceKind:
    """A kind of piece of a ``PieceBoard``. ``squares``: its shape, ``(row, col)`` cells
    (``((0, 0),)`` for a piece on one square); ``count``: how many are to be placed;
    ``name``: how the page calls it ("rook a", "L3"); ``colour``: a CSS colour ``#rgb`` or
    ``#rrggbb``; ``symbol``: up to 3 characters shown on it; ``turns``: whether it may be
    turned and flipped. For the rule ``attacks``: ``group`` (pieces of one group never
    attack one another) and ``rays``, the ``(drow, dcol)`` steps it attacks along. For
    explained hints: ``value``, the explainer's value of a square holding it."""

    squares: Sequence[tuple[int, int]] = ((0, 0),)
    count: int = 1
    name: str = ""
    colour: str = "#c0c0c0"
    symbol: str = ""
    turns: bool = False
    group: int = 0
    rays: Sequence[tuple[int, int]] = ()
    value: int | None = None


@dataclass(frozen=True)
class PieceBoard:
    """Pieces to place on a rows x cols board. ``cells`` holds a value per square, row by
    row: 0 where a piece may stand, ``BLOCKED`` (a wall: no piece, stops an attack) or
    ``HOLE`` (no piece, an attack passes). ``kinds`` are the ``PieceKind`` s; ``solution``
    places pieces as ``(kind index, squares)`` each. ``rule`` names one of
    ``PIECE_RULES``; ``numbers`` (a whole number per square, shown on it) and ``goal``
    (the best total) are for ``score``, which scores each piece by ``scoring`` (one of
    ``SCORINGS``). ``rules``: one line of rules."""

    rows: int
    cols: int
    cells: Sequence[int]
    kinds: Sequence[PieceKind]
    solution: Sequence[tuple[int, Sequence[int]]]
    rule: str = "attacks"
    numbers: Sequence[int] | None = None
    goal: int | None = None
    scoring: str = "max"
    rules: str = ""


def _ints(value: Any, n: int | None = None, least: int | None = None) -> bool:
    """Whether ``value`` is a sequence of ``n`` whole numbers (from ``least``)."""
    return isinstance(value, (list, tuple)) and (n is None or len(value) == n) and all(
        isinstance(v, int) and not isinstance(v, bool) and (least is None or v >= least)
        for v in value)


def _problem(grid: PlayGrid) -> str | None:
    """What is wrong with ``grid``, or None."""
    for name in ("rows", "cols"):
        value = getattr(grid, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return f"{name} must be a whole number from 1"
    n = grid.rows * grid.cols
    if not _ints(grid.cells, n, BLOCKED):
        return f"cells must be {n} whole numbers from {BLOCKED}"
    if not _ints(grid.solution, n):
        return f"solution must be {n} whole numbers"
    for i, (given, answer) in enumerate(zip(grid.cells, grid.solution)):
        if given > 0 and given != answer:
            return f"square {i} holds the given {given} but its solution is {answer}"
        if given == 0 and answer < 1:
            return f"the open square {i} has no answer (from 1) in the solution"
    top = max([v for v in grid.solution if v > 0] or [0])
    if grid.symbols is not None:
        symbols = grid.symbols
        if not isinstance(symbols, (list, tuple)) or len(symbols) < top or not all(
                isinstance(s, str) and len(s) == 1 and not s.isspace() for s in symbols):
            return f"symbols must be {top} or more single characters"
        if len({s.upper() for s in symbols}) != len(symbols):
            return "symbols must differ (case aside)"
    if grid.rule not in RULES:
        return f"unknown rule {grid.rule!r} (known: {', '.join(RULES)})"
    if grid.rule == "all-different" and (not isinstance(grid.units, (list, tuple)) or not all(
            _ints(unit, least=0) and all(i < n for i in unit) for unit in grid.units)):
        return "units must be lists of squares of the board"
    if grid.regions is not None and not _ints(grid.regions, n):
        return f"regions must be None or {n} whole numbers"
    if grid.rule == "script" and not (isinstance(grid.script, str) and grid.script.strip()):
        return "the rule 'script' needs the JavaScript function in script"
    if grid.rule == "script" and any(bad in grid.script for bad in SCRIPT_CLOSERS):
        return ("the script holds '</' or '<!--', which cannot stand inside the page's "
                "HTML <script>")
    if not isinstance(grid.rules, str) or "\n" in grid.rules:
        return "rules must be one line of text"
    if _label_pairs(grid.labels, n) is None:
        return (f"labels must be {{square: text}} or (square, text) pairs: squares 0 to "
                f"{n - 1}, each once, texts of 1 to {LABEL_MOST} characters on one line")
    if not _ints(grid.shaded, least=0) or any(i >= n for i in grid.shaded):
        return f"shaded must be a list of squares, 0 to {n - 1}"
    return None


def _label_pairs(labels: Any, n: int) -> list[tuple[int, str]] | None:
    """A ``PlayGrid``'s ``labels`` as ``(square, text)`` pairs, or None if they are not
    sound for a board of ``n`` squares."""
    if isinstance(labels, Mapping):
        labels = list(labels.items())
    if not isinstance(labels, (list, tuple)):
        return None
    out: list[tuple[int, str]] = []
    for pair in labels:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            return None
        square, text = pair
        if not _ints([square], 1, 0) or square >= n or not _line(text) or \
                not 1 <= len(text.strip()) <= LABEL_MOST or square in dict(out):
            return None
        out.append((square, text.strip()))
    return out


def _line(value: Any) -> bool:
    return isinstance(value, str) and "\n" not in value


def _choice_problem(board: ChoiceBoard) -> str | None:
    """What is wrong with a ``ChoiceBoard``, or None."""
    if not isinstance(board.question, str) or not board.question.strip():
        return "question must be text"
    if not isinstance(board.options, (list, tuple)) or not all(
            _line(o) and o.strip() for o in board.options):
        return "options must be lines of text"
    if board.options:
        if isinstance(board.answer, bool) or not isinstance(board.answer, int) or \
                not 0 <= board.answer < len(board.options):
            return f"answer must be an option's index, 0 to {len(board.options) - 1}"
    elif not isinstance(board.answer, str) or not board.answer.strip():
        return "answer must be the answer's text when there are no options"
    if not isinstance(board.unordered, bool):
        return "unordered must be True or False"
    if not _line(board.rules):
        return "rules must be one line of text"
    return None


def _colour(value: Any) -> bool:
    return isinstance(value, str) and re.fullmatch(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})",
                                                   value) is not None


def _cells(value: Any) -> list[tuple[int, int]] | None:
    """``value`` as a list of ``(row, col)`` pairs of whole numbers, or None."""
    if not isinstance(value, (list, tuple)) or not value:
        return None
    out = []
    for pair in value:
        if not _ints(pair, 2):
            return None
        out.append((pair[0], pair[1]))
    return out


def _images(shape: Sequence[tuple[int, int]], turns: bool) -> set[tuple[tuple[int, int], ...]]:
    """The shape's images (moved to row 0, column 0), turned and flipped if ``turns``."""
    cells, out = list(shape), set()
    for _ in range(2 if turns else 1):
        for _ in range(4 if turns else 1):
            r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
            out.add(tuple(sorted((r - r0, c - c0) for r, c in cells)))
            cells = [(c, -r) for r, c in cells]
        cells = [(r, -c) for r, c in cells]
    return out


def _kind_problem(k: int, kind: Any) -> str | None:
    if not isinstance(kind, PieceKind):
        return f"kinds[{k}] must be a PieceKind"
    shape = _cells(kind.squares)
    if shape is None or len(set(shape)) != len(shape) or min(min(p) for p in shape) < 0:
        return f"kinds[{k}].squares must be distinct (row, col) pairs from 0"
    if isinstance(kind.count, bool) or not isinstance(kind.count, int) or kind.count < 1:
        return f"kinds[{k}].count must be a whole number from 1"
    if not _line(kind.name) or not _line(kind.symbol) or len(kind.symbol) > 3:
        return f"kinds[{k}]: name must be one line, symbol up to 3 characters"
    if not _colour(kind.colour):
        return f"kinds[{k}].colour must be a CSS colour #rgb or #rrggbb"
    if not isinstance(kind.turns, bool):
        return f"kinds[{k}].turns must be True or False"
    if isinstance(kind.group, bool) or not isinstance(kind.group, int):
        return f"kinds[{k}].group must be a whole number"
    rays = [] if not kind.rays else _cells(kind.rays)
    if rays is None or (0, 0) in rays:
        return f"kinds[{k}].rays must be (drow, dcol) steps other than (0, 0)"
    if kind.value is not None and (isinstance(kind.value, bool) or
                                   not isinstance(kind.value, int)):
        return f"kinds[{k}].value must be a whole number or None"
    return None


def _piece_problem(board: PieceBoard) -> str | None:
    """What is wrong with a ``PieceBoard``, or None."""
    for name in ("rows", "cols"):
        value = getattr(board, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return f"{name} must be a whole number from 1"
    n = board.rows * board.cols
    if not _ints(board.cells, n) or not set(board.cells) <= {0, BLOCKED, HOLE}:
        return f"cells must be {n} values, each 0, {BLOCKED} (blocked) or {HOLE} (hole)"
    if not isinstance(board.kinds, (list, tuple)) or not board.kinds:
        return "kinds must be a list of one or more PieceKind"
    for k, kind in enumerate(board.kinds):
        problem = _kind_problem(k, kind)
        if problem:
            return problem
    if board.rule not in PIECE_RULES:
        return f"unknown rule {board.rule!r} (known: {', '.join(PIECE_RULES)})"
    if board.numbers is not None and not _ints(board.numbers, n):
        return f"numbers must be None or {n} whole numbers"
    if board.rule == "score":
        if board.numbers is None:
            return "the rule 'score' needs numbers"
        if board.scoring not in SCORINGS:
            return f"unknown scoring {board.scoring!r} (known: {', '.join(SCORINGS)})"
        if isinstance(board.goal, bool) or not isinstance(board.goal, int):
            return "the rule 'score' needs goal, the best total, a whole number"
    if not isinstance(board.solution, (list, tuple)):
        return "solution must be a list of (kind index, squares)"
    used: set[int] = set()
    placed = [0] * len(board.kinds)
    for p, piece in enumerate(board.solution):
        if not isinstance(piece, (list, tuple)) or len(piece) != 2 or \
                not _ints([piece[0]], 1, 0) or piece[0] >= len(board.kinds) or \
                not _ints(piece[1], least=0) or not piece[1]:
            return f"solution[{p}] must be (kind index, squares)"
        k, squares = piece
        if any(i >= n or board.cells[i] != 0 for i in squares) or used & set(squares) or \
                len(set(squares)) != len(squares):
            return f"solution[{p}] covers a square off the board, not open, or taken"
        used |= set(squares)
        kind = board.kinds[k]
        if _images([divmod(i, board.cols) for i in squares], False).isdisjoint(
                _images(kind.squares, kind.turns)):
            return f"solution[{p}]'s squares are not the shape of kinds[{k}]"
        placed[k] += 1
        if placed[k] > kind.count:
            return f"the solution places more than kinds[{k}].count pieces of that kind"
    if not _line(board.rules):
        return "rules must be one line of text"
    return None


#: A board of the play page, of any kind.
PlayBoard = PlayGrid | ChoiceBoard | PieceBoard
_CHECKS = ((PlayGrid, _problem), (ChoiceBoard, _choice_problem), (PieceBoard, _piece_problem))


def play_grid(ptype, params, instance, solution) -> PlayBoard | None:
    """The type's ``play_grid``, checked: ``None`` (no play page) or a sound board of one
    of the kinds (``PlayGrid``, ``ChoiceBoard``, ``PieceBoard``). A board that gives no
    ``rules`` shows the type's rules text (``Rules.rules``)."""
    value = calls.call(ptype, "play_grid", params=params, instance=instance, solution=solution)
    if value is None:
        return None
    check = next((check for kind, check in _CHECKS if isinstance(value, kind)), None)
    if check is None:
        raise calls.bad_result("play_grid", ptype, value,
                               "a PlayGrid, ChoiceBoard, PieceBoard or None")
    problem = check(value)
    if problem:
        raise calls.bad_result("play_grid", ptype, value,
                               f"a sound {type(value).__name__} ({problem})")
    if not value.rules:
        said = calls.rules(ptype, params)
        if said:
            value = dataclasses.replace(value, rules=said)
    return value


def to_json(grid: PlayBoard) -> dict[str, Any]:
    """The page's data for one board: plain JSON, its ``kind`` "grid", "choice" or
    "pieces"."""
    if isinstance(grid, ChoiceBoard):
        return {"kind": "choice", "question": grid.question, "options": list(grid.options),
                "answer": grid.answer, "unordered": grid.unordered, "rules": grid.rules}
    if isinstance(grid, PieceBoard):
        return {"kind": "pieces", "rows": grid.rows, "cols": grid.cols,
                "cells": list(grid.cells),
                "kinds": [{"squares": [list(p) for p in k.squares], "count": k.count,
                           "name": k.name, "colour": k.colour, "symbol": k.symbol,
                           "turns": k.turns, "group": k.group,
                           "rays": [list(r) for r in k.rays], "value": k.value}
                          for k in grid.kinds],
                "solution": [[k, list(squares)] for k, squares in grid.solution],
                "rule": grid.rule,
                "numbers": None if grid.numbers is None else list(grid.numbers),
                "goal": grid.goal, "scoring": grid.scoring, "rules": grid.rules}
    n = grid.rows * grid.cols
    return {"kind": "grid", "rows": grid.rows, "cols": grid.cols, "cells": list(grid.cells),
            "solution": list(grid.solution),
            "symbols": None if grid.symbols is None else list(grid.symbols),
            "rule": grid.rule, "units": [list(u) for u in grid.units],
            "regions": None if grid.regions is None else list(grid.regions),
            "script": grid.script, "rules": grid.rules,
            "labels": [list(pair) for pair in _label_pairs(grid.labels, n) or ()],
            "shaded": list(grid.shaded)}
