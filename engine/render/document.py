"""``puzzle-engine render`` without the command line: puzzles in, files out. A sheet of
puzzles in SVG, PDF or PNG, with the answer key on pages of its own when asked for, or
the HTML play page. Every file is written whole or not at all (a temporary file renamed
into place), so an interrupted run leaves no half-written output."""
from __future__ import annotations

import contextlib
import os
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ..errors import PuzzleInputError
from . import convert, html, play, sheet
from .caption import caption
from .drawing import drawing
from .sources import Entry

FORMATS = ("svg", "pdf", "png", "html")
PNG_DPI = 192  #: PNG resolution: two pixels per SVG unit, sharp on screen and in print

Solve = Callable[[Entry], Any]


def outputs(out: Path, fmt: str, pages: int, keys: int) -> tuple[list[Path], list[Path]]:
    """The files of ``pages`` puzzle pages and ``keys`` answer-key pages: ``OUT`` when it
    is one page, else ``STEM-1.EXT``, ``STEM-2.EXT``...; keys ``STEM-key.EXT`` or
    ``STEM-key-1.EXT``... A PDF and a play page are always the one file ``OUT``."""
    if fmt in ("pdf", "html"):
        return [out], []

    def named(tag: str, count: int) -> list[Path]:
        if count == 1:
            return [out.with_name(f"{out.stem}{tag}{out.suffix}")]
        return [out.with_name(f"{out.stem}{tag}-{n}{out.suffix}") for n in range(1, count + 1)]

    return named("", pages), named("-key", keys)


def stale(out: Path, fmt: str, pages: int, keys: int) -> list[Path]:
    """The page files an earlier run of the same ``out`` left that this run does not
    write (it had more pages, or a key): only names ``outputs`` gives, ``OUT``,
    ``STEM-key.EXT`` and ``STEM[-key]-N.EXT`` numbered on from 1 without a gap, so that no
    other file is touched."""
    if fmt in ("pdf", "html"):
        return []
    written = set(sum(outputs(out, fmt, pages, keys), []))
    found = []
    for tag in ("", "-key"):
        found.append(out.with_name(f"{out.stem}{tag}{out.suffix}"))
        n = 1
        while (path := out.with_name(f"{out.stem}{tag}-{n}{out.suffix}")).exists():
            found.append(path)
            n += 1
    return [path for path in found if path not in written and path.is_file()]


def _write(path: Path, write: Callable[[Path], None]) -> None:
    """``write(temporary)``, then the temporary file renamed to ``path``; a failure to
    write (a full disk) is one line naming the file."""
    part = path.with_name(f".{path.name}.part")
    try:
        write(part)
        os.replace(part, path)
    except OSError as exc:
        raise PuzzleInputError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            part.unlink()


def _drawn(entry: Entry, solution=None) -> ET.Element:
    root = drawing(entry.ptype, entry.params, entry.instance, solution)
    if root is None:
        raise PuzzleInputError(f"{entry.where}: puzzle type '{entry.ptype.name}' (plugin "
                               f"'{entry.ptype.plugin}') draws no pictures (render_svg)")
    return root


#: Explained steps of a puzzle for the play page's hints (``html``): ``steps(entry,
#: solution)`` gives ``[{"square": i, "value": v, "text": "..."}]`` in solving order.
Steps = Callable[[Entry, Any], Sequence[dict[str, Any]]]


def play_page(entries: Sequence[Entry], solve: Solve, title: str,
              steps: Steps | None = None) -> str:
    """The HTML play page of ``entries``. ``steps`` is where an explainer plugs in: with
    it, each hint follows the next explained step; without, it reveals a square."""
    puzzles = []
    for number, entry in enumerate(entries, 1):
        solution = solve(entry)
        grid = play.play_grid(entry.ptype, entry.params, entry.instance, solution)
        svg = None
        if grid is None:
            svg = ET.tostring(_drawn(entry), encoding="unicode")
        explained = tuple(steps(entry, solution)) if steps and grid is not None else ()
        puzzles.append(html.Playable(caption(entry, number), grid, svg, explained))
    return html.page(puzzles, title)


def render(entries: Iterable[Entry], fmt: str, out: Path, solve: Solve, per_page: int = 4,
           solutions: bool = False, paper: str = "a4", title: str = "Puzzles",
           dpi: float = PNG_DPI, steps: Steps | None = None) -> list[Path]:
    """Draw ``entries`` to ``out`` in ``fmt``; ``solve(entry)`` gives a puzzle's solution
    (for answer keys and the play page); ``dpi`` is the resolution of PNG pages;
    ``steps``, the play page's explained hints (``play_page``). Returns the files
    written."""
    if fmt in ("pdf", "png"):
        convert.check_available()
    entries = list(entries)
    if not entries:
        raise PuzzleInputError("no puzzles to render")
    if fmt == "html":
        text = play_page(entries, solve, title, steps)
        _write(out, lambda p: p.write_text(text, encoding="utf-8"))
        return [out]
    captions = [caption(entry, n) for n, entry in enumerate(entries, 1)]
    pages = sheet.pages([sheet.Placed(_drawn(e), c) for e, c in zip(entries, captions)],
                        per_page, paper, title)
    keys = []
    if solutions:
        keys = sheet.pages([sheet.Placed(_drawn(e, solve(e)), c)
                            for e, c in zip(entries, captions)],
                           per_page, paper, f"{title}: answer key")
    if fmt == "pdf":
        _write(out, lambda p: convert.to_pdf(pages + keys, p))
        return [out]
    page_files, key_files = outputs(out, fmt, len(pages), len(keys))
    for path in stale(out, fmt, len(pages), len(keys)):
        try:
            path.unlink()
        except OSError as exc:
            raise PuzzleInputError(f"cannot remove the old page {path}: "
                                   f"{exc.strerror or exc}") from None
    for number, (path, page) in enumerate(zip(page_files + key_files, pages + keys), 1):
        if fmt == "svg":
            _write(path, lambda p, page=page: p.write_text(page, encoding="utf-8"))
        else:
            _write(path, lambda p, page=page, number=number:
                   convert.to_png(page, p, dpi / convert.DPI, number))
    return page_files + key_files
