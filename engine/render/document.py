"""``puzzle-engine render`` without the command line: puzzles in, files out. A sheet of
puzzles in SVG, PDF or PNG, with the answer key on pages of its own when asked for, or
the HTML play page. Every file is written whole or not at all (a temporary file renamed
into place), so an interrupted run leaves no half-written output."""
from __future__ import annotations

import contextlib
import os
import zlib
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from .. import files
from ..errors import PuzzleInputError
from . import convert, html, play, sheet
from .caption import caption, kind, short_id
from .drawing import drawing
from .rules import rules
from .sources import Entry

FORMATS = ("svg", "pdf", "png", "html")
PNG_DPI = 192  #: PNG resolution: two pixels per SVG unit, sharp on screen and in print

Solve = Callable[[Entry], Any]
Key = Callable[[Entry], Any]  #: the solution an answer key draws, or None for no key


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


#: The mark of a page file this tool wrote: an XML comment opening an SVG page, a text
#: chunk of a PNG page (keyword ``Software``). Page clean-up (``stale``) removes only
#: files that carry it.
MARK = "puzzle-engine render page"
_SVG_MARK = f"<!-- {MARK} -->\n"
_PNG_CHUNK = b"tEXt" + b"Software\0" + MARK.encode("ascii")
_PNG_HEAD = 8 + 25  #: the PNG signature and its first chunk, IHDR (13 bytes of data)


def marked_png(data: bytes) -> bytes:
    """The PNG ``data`` with ``MARK`` in a text chunk right after its header chunk."""
    body = _PNG_CHUNK[4:]
    chunk = len(body).to_bytes(4, "big") + _PNG_CHUNK + \
        zlib.crc32(_PNG_CHUNK).to_bytes(4, "big")
    return data[:_PNG_HEAD] + chunk + data[_PNG_HEAD:]


def is_ours(path: Path) -> bool:
    """Whether ``path`` is a page this tool wrote (it carries ``MARK``)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(_PNG_HEAD + len(_PNG_CHUNK) + 8)
    except OSError:
        return False
    if path.suffix.lower() == ".svg":
        return head.startswith(_SVG_MARK.encode("ascii"))
    return head.startswith(b"\x89PNG") and _PNG_CHUNK in head


def stale(out: Path, fmt: str, pages: int, keys: int) -> list[Path]:
    """The page files an earlier run of the same ``out`` left that this run does not
    write (it had more pages, or a key): only names ``outputs`` gives, ``OUT``,
    ``STEM-key.EXT`` and ``STEM[-key]-N.EXT`` numbered on from 1 without a gap, and of
    those only the files this tool wrote (``is_ours``), so that no other file is
    touched."""
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
    return [path for path in found
            if path not in written and path.is_file() and is_ours(path)]


def _write(path: Path, write: Callable[[Path], None]) -> None:
    """``write(temporary)``, then the temporary file renamed to ``path``; a failure to
    write (a full disk) is one line naming the file."""
    part = path.with_name(f".{path.name}.part")
    try:
        with files.writing(path):
            write(part)
            os.replace(part, path)
    finally:
        with contextlib.suppress(OSError):
            part.unlink()


def _drawn(entry: Entry, solution=None) -> ET.Element:
    root = drawing(entry.ptype, entry.params, entry.instance, solution)
    if root is None:
        raise PuzzleInputError(f"{entry.where}: puzzle type '{entry.ptype.name}' (plugin "
                               f"'{entry.ptype.plugin}') draws no pictures (render_svg)")
    return root


#: Progress of a long render: ``progress(description, total)`` starts a stage and gives
#: the function that marks one of its ``total`` items done (the command line's bar).
Progress = Callable[[str, int], Callable[[], None]]


def _stage(progress: Progress | None, description: str, total: int) -> Callable[[], None]:
    return progress(description, total) if progress is not None else (lambda: None)


#: Explained steps of a puzzle for the play page's hints (``html``): ``steps(entry,
#: solution)`` gives ``[{"square": i, "value": v, "text": "..."}]`` in solving order.
Steps = Callable[[Entry, Any], Sequence[dict[str, Any]]]


def play_page(entries: Sequence[Entry], solve: Solve, title: str,
              steps: Steps | None = None, captions: str = "short",
              progress: Progress | None = None) -> str:
    """The HTML play page of ``entries``. ``steps`` is where an explainer plugs in: with
    it, each hint follows the next explained step; without, it reveals a square."""
    puzzles = []
    done = _stage(progress, "explaining hints" if steps else "solving", len(entries))
    for number, entry in enumerate(entries, 1):
        solution = solve(entry)
        grid = play.play_grid(entry.ptype, entry.params, entry.instance, solution)
        svg = None
        if grid is None:
            svg = ET.tostring(_drawn(entry), encoding="unicode")
        explained = tuple(steps(entry, solution)) if steps and grid is not None else ()
        puzzles.append(html.Playable(caption(entry, number, captions), grid, svg, explained,
                                     rules(entry.ptype, entry.params, grid), short_id(entry)))
        done()
    return html.page(puzzles, title)


def render(entries: Iterable[Entry], fmt: str, out: Path, solve: Solve, per_page: int = 4,
           solutions: bool = False, paper: str = "a4", title: str = "Puzzles",
           dpi: float = PNG_DPI, steps: Steps | None = None, key: Key | None = None,
           force: bool = False, captions: str = "short",
           progress: Progress | None = None) -> list[Path]:
    """Draw ``entries`` to ``out`` in ``fmt``; ``solve(entry)`` gives a puzzle's solution
    (for the play page, and for answer keys unless ``key`` is given: ``key(entry)`` gives
    the solution to draw, or None for no key of that puzzle); ``dpi`` is the resolution
    of PNG pages; ``steps``, the play page's explained hints (``play_page``). A page file
    that is there and not empty is refused (``files.check_out``) unless ``force``, before
    any file is written. ``captions`` is ``caption``'s mode (short, full or none);
    ``progress`` is told each stage and each item done. Returns the files written."""
    if fmt in ("pdf", "png"):
        convert.check_available()
    entries = list(entries)
    if not entries:
        raise PuzzleInputError("no puzzles to render")
    if fmt == "html":
        text = play_page(entries, solve, title, steps, captions, progress)
        _write(out, lambda p: p.write_text(text, encoding="utf-8"))
        return [out]
    lines = [caption(entry, n, captions) for n, entry in enumerate(entries, 1)]
    done = _stage(progress, "drawing", len(entries))
    drawn = []
    for e, c in zip(entries, lines):
        drawn.append(sheet.Placed(_drawn(e), c, rules(e.ptype, e.params), kind(e.ptype),
                                  e.where))
        done()
    pages = sheet.pages(drawn, per_page, paper, title)
    if fmt != "pdf":  # the puzzle pages' files, before the answer keys are solved
        for path in outputs(out, fmt, len(pages), 0)[0]:
            files.check_out(path, force=force, devices=False)
    keys = []
    if solutions:
        done = _stage(progress, "solving the answer key", len(entries))

        def answer(entry):
            found = (key or solve)(entry)
            done()
            return found

        answers = [(answer(e), c) for e, c in zip(entries, lines)]
        answers = [sheet.Placed(_drawn(e, answer), c, where=e.where)
                   for e, (answer, c) in zip(entries, answers) if answer is not None]
        if answers:
            keys = sheet.pages(answers, per_page, paper, f"{title}: answer key")
    if fmt == "pdf":
        done = _stage(progress, "writing pages", len(pages + keys))
        _write(out, lambda p: convert.to_pdf(pages + keys, p, done))
        return [out]
    page_files, key_files = outputs(out, fmt, len(pages), len(keys))
    for path in page_files + key_files:
        files.check_out(path, force=force, devices=False)
    for path in stale(out, fmt, len(pages), len(keys)):
        try:
            path.unlink()
        except OSError as exc:
            raise PuzzleInputError(f"cannot remove the old page {path}: "
                                   f"{exc.strerror or exc}") from None
    done = _stage(progress, "writing pages", len(pages + keys))
    for number, (path, page) in enumerate(zip(page_files + key_files, pages + keys), 1):
        if fmt == "svg":
            _write(path, lambda p, page=page: p.write_text(_SVG_MARK + page, encoding="utf-8"))
        else:
            _write(path, lambda p, page=page, number=number: p.write_bytes(
                marked_png(convert.to_png(page, None, dpi / convert.DPI, number))))
        done()
    return page_files + key_files
