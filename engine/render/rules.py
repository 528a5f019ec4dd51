"""The rules of a puzzle in a person's words: one text, printed on the sheet above the
puzzles and shown on the play page above the board.

The text is the type's ``rules(params)`` (contract v3's ``Rules`` facet). A type that
does not offer it (an older plugin) falls back to the one line its play board gives
(``PlayGrid.rules``), when there is a board at hand; else it has no rules text."""
from __future__ import annotations

from typing import Any

from .. import calls
from ..errors import PluginError, PuzzleEngineError, one_line


def rules(ptype, params, grid: Any = None) -> str:
    """The rules of ``ptype`` with ``params`` as one line of text, or ``""``. ``grid`` is
    the puzzle's ``PlayGrid``, if any: its ``rules`` are the fallback."""
    method = getattr(ptype, "rules", None)
    text = None
    if callable(method):
        try:
            text = method(params=params)
        except NotImplementedError:  # the facet's default: not offered
            text = None
        except PuzzleEngineError:
            raise
        except Exception as exc:  # noqa: BLE001 - a plugin's bug is one line
            raise PluginError(f"rules ({calls.owner(ptype)}) raised {type(exc).__name__}: "
                              f"{one_line(exc)}") from exc
        if text is not None and not isinstance(text, str):
            raise calls.bad_result("rules", ptype, text, "one line of text or None")
    if not text and grid is not None:
        text = getattr(grid, "rules", "") or ""
    return " ".join((text or "").split())
