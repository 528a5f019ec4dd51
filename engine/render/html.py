"""The play page: one self-contained HTML file (its style, script and puzzles inline, no
network: its Content-Security-Policy allows no request at all) in which a person fills
in a board, sees conflicts, asks for a hint and reveals the solution.

Each puzzle on the page is its caption, its board (the type's ``play_grid``, or when the
type offers none, its drawing), and the explained steps a hint follows. Steps are the
seam for an explainer: ``{"square": i, "value": v, "text": "..."}`` in solving order
(``hints`` makes them from the explainer's); given them, a hint fills in the next step's
square and shows its text. A hint fixes a square filled in wrong first; without steps,
or past the last, it reveals the first empty square.

The page's script is ``assets/core.js`` (the shell every board shares: the puzzle chosen,
undo and redo, pencil marks on or off, a timer, progress saved in the browser's
localStorage under the puzzle's id) and one ``assets/board-KIND.js`` per kind of board
(``grid``: a ``PlayGrid``), each registering itself with the shell; a puzzle's kind is
its ``board`` field, else ``grid`` when it has a play grid, else ``drawing``."""
from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

from ..errors import PluginError
from .play import SCRIPT_CLOSERS, PlayBoard, PlayGrid, to_json
from .svg import plain

_ASSETS = files(__package__) / "assets"
POLICY = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
          "img-src data:")


@dataclass(frozen=True)
class Playable:
    """One puzzle of the page: caption lines, and the board or else the drawing."""

    caption: Sequence[str]
    grid: PlayBoard | None
    svg: str | None = None
    steps: Sequence[dict[str, Any]] = field(default_factory=tuple)
    rules: str = ""  #: the rules in words (``rules.rules``), shown above the board
    id: str = ""  #: the puzzle's id (``caption.short_id``): its saved progress's key


def _scripts() -> str:
    """The page's own script: ``core.js`` (the shell: undo, timer, saved progress), then
    each kind of board, ``board-KIND.js``, which registers itself with the shell."""
    boards = sorted((f for f in _ASSETS.iterdir() if f.name.startswith("board-")
                     and f.name.endswith(".js")), key=lambda f: f.name)
    return "\n".join(f.read_text(encoding="utf-8") for f in [_ASSETS / "core.js", *boards])


def _script_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``</script>``, no ``<!--``."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e")


def page(puzzles: Sequence[Playable], title: str) -> str:
    """The HTML document."""
    title = plain(title)
    scripts: list[str] = []
    data = []
    for puzzle in puzzles:
        grid = None
        if puzzle.grid is not None:
            grid = to_json(puzzle.grid)
            if isinstance(puzzle.grid, PlayGrid) and puzzle.grid.rule == "script":
                source = puzzle.grid.script
                if any(bad in source for bad in SCRIPT_CLOSERS):  # play.play_grid checks it
                    raise PluginError("a play board's script holds '</' or '<!--', which "
                                      "cannot stand inside an HTML <script>")
                if source not in scripts:
                    scripts.append(source)
                grid["script"] = scripts.index(source)
        data.append({"caption": [plain(line) for line in puzzle.caption], "grid": grid,
                     "board": grid["kind"] if grid else None,
                     "svg": puzzle.svg, "steps": list(puzzle.steps),
                     "rules": plain(puzzle.rules), "id": puzzle.id})
    # Each type's rule in a <script> of its own, so that one that does not even parse
    # leaves the others working (board-grid.js says when a board's rule is missing or fails).
    own = "".join(f"<script>\ntry {{\n  window.puzzleEngineRules[{k}] = ({source}\n);\n}} "
                  f"catch (error) {{\n  console.error(error);\n}}\n</script>\n"
                  for k, source in enumerate(scripts))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>
{(_ASSETS / "play.css").read_text(encoding="utf-8")}
{(_ASSETS / "boards.css").read_text(encoding="utf-8")}</style>
</head>
<body>
<header><h1>{html.escape(title)}</h1>
<select id="choose" aria-label="Puzzle"></select></header>
<p id="caption"></p>
<p id="rules"></p>
<div id="board"></div>
<div id="controls">
<button type="button" id="undo" title="Undo (Ctrl+Z)">Undo</button>
<button type="button" id="redo" title="Redo (Ctrl+Y)">Redo</button>
<button type="button" id="pencil" aria-pressed="false" title="Type candidates instead of answers">Pencil</button>
<button type="button" id="hint">Hint</button>
<button type="button" id="check">Check</button>
<button type="button" id="reveal">Reveal the solution</button>
<button type="button" id="restart">Start again</button>
<label id="mistakes-label"><input type="checkbox" id="mistakes"> Show mistakes</label>
<span id="timer" role="timer" aria-label="Time"></span>
</div>
<p id="message" role="status" hidden></p>
<p id="status" role="status"></p>
<script type="application/json" id="puzzles">{_script_json(data)}</script>
<script>
window.puzzleEngineRules = [];
</script>
{own}<script>
{_scripts()}
window.PuzzleEngine.start();
</script>
</body>
</html>
"""
