"""The board of the HTML play page: what a puzzle type's ``play_grid`` returns, and its
check. The page (``html``) knows nothing of puzzle types: it draws a rows x cols board,
lets a person type symbols into the open squares, and marks conflicts by one of a few
rules that it implements in JavaScript, chosen by name."""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
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
SCRIPT_CLOSERS = ("</", "<!--")  #: what a ``script`` cannot hold: it would end its <script>


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
    ``rules`` is one line telling the player the rules."""

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
    return None


def play_grid(ptype, params, instance, solution) -> PlayGrid | None:
    """The type's ``play_grid``, checked: ``None`` (no play page) or a sound ``PlayGrid``.
    A grid that gives no ``rules`` shows the type's rules text (``Rules.rules``)."""
    value = calls.call(ptype, "play_grid", params=params, instance=instance, solution=solution)
    if value is None:
        return None
    if not isinstance(value, PlayGrid):
        raise calls.bad_result("play_grid", ptype, value, "a PlayGrid or None")
    problem = _problem(value)
    if problem:
        raise calls.bad_result("play_grid", ptype, value, f"a sound PlayGrid ({problem})")
    if not value.rules:
        said = calls.rules(ptype, params)
        if said:
            value = dataclasses.replace(value, rules=said)
    return value


def to_json(grid: PlayGrid) -> dict[str, Any]:
    """The page's data for one board: plain JSON."""
    return {"rows": grid.rows, "cols": grid.cols, "cells": list(grid.cells),
            "solution": list(grid.solution),
            "symbols": None if grid.symbols is None else list(grid.symbols),
            "rule": grid.rule, "units": [list(u) for u in grid.units],
            "regions": None if grid.regions is None else list(grid.regions),
            "script": grid.script, "rules": grid.rules}
