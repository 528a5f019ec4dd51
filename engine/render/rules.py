"""The rules of a puzzle in a person's words: one text, printed on the sheet above the
puzzles and shown on the play page above the board.

The text is the type's ``rules(params)`` (contract v3's ``Rules`` facet). A type that
does not offer it (an older plugin) falls back to the one line its play board gives
(``PlayGrid.rules``), when there is a board at hand; else it has no rules text."""
from __future__ import annotations

from typing import Any

from .. import calls


def rules(ptype, params, grid: Any = None) -> str:
    """The rules of ``ptype`` with ``params`` as one line of text, or ``""``. ``grid`` is
    the puzzle's ``PlayGrid``, if any: its ``rules`` are the fallback."""
    text = calls.rules(ptype, params)
    if not text and grid is not None:
        text = getattr(grid, "rules", "") or ""
    return " ".join((text or "").split())
