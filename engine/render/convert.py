"""SVG pages to PDF and PNG, through CairoSVG (the optional extra ``pdf``).

CairoSVG renders SVG with the cairo library, which also writes the PDF: no PDF is
written by hand. A PDF gets one page per SVG page: each page is drawn by CairoSVG onto
the same cairo PDF surface, sized to it, and ended with ``show_page``."""
from __future__ import annotations

import contextlib
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from pathlib import Path

from ..errors import PuzzleEngineError, one_line

EXTRA = ("PDF and PNG need the optional extra 'pdf': pip install 'puzzle-engine[pdf]' "
         "(and the cairo library, Debian's libcairo2)")
DPI = 96  #: SVG user units are pixels at 96 dpi


class MissingExtraError(PuzzleEngineError):
    """An optional feature whose extra is not installed."""


def _cairosvg():
    try:
        import cairosvg  # noqa: PLC0415 - optional: only PDF and PNG need it
        import cairosvg.surface  # noqa: PLC0415
    except (ImportError, OSError) as exc:  # OSError: cairocffi finds no libcairo
        raise MissingExtraError(f"{EXTRA}; {one_line(exc)}") from None
    return cairosvg


def check_available() -> None:
    """Raise ``MissingExtraError`` when PDF and PNG cannot be made (before any work)."""
    _cairosvg()


@contextlib.contextmanager
def _drawing(fmt: str, number: int):
    """CairoSVG's failure to read or draw page ``number`` as one line (the pages are
    checked before, so this is a bug of ours or CairoSVG's, never a traceback)."""
    try:
        yield
    except (ET.ParseError, ValueError, TypeError, KeyError, IndexError) as exc:
        raise PuzzleEngineError(f"CairoSVG could not draw page {number} as {fmt}: "
                                f"{type(exc).__name__}: {one_line(exc)}") from None


def to_pdf(pages: Sequence[str], path: Path, done: Callable[[], None] = lambda: None) -> None:
    """One PDF of ``pages`` (SVG documents), a page each, written to ``path``; ``done()``
    after each page."""
    cairosvg = _cairosvg()
    cairo = cairosvg.surface.cairo
    target = cairo.PDFSurface(str(path), 1, 1)

    class Page(cairosvg.surface.PDFSurface):
        """CairoSVG's PDF surface, drawing on ``target`` instead of a new file."""

        def _create_surface(self, width, height):
            target.set_size(width, height)
            return target, width, height

    try:
        for number, page in enumerate(pages, 1):
            with _drawing("PDF", number):
                Page(cairosvg.parser.Tree(bytestring=page.encode("utf-8")), None, DPI)
            target.show_page()
            done()
    finally:
        target.finish()  # closes the file, also when a page failed


def to_png(page: str, path: Path | None, scale: float = 1.0, number: int = 1) -> bytes | None:
    """A PNG of one page (page ``number`` of the document) at ``scale`` pixels per SVG
    unit, written to ``path`` (or, when it is None, returned)."""
    cairosvg = _cairosvg()
    with _drawing("PNG", number):
        return cairosvg.svg2png(bytestring=page.encode("utf-8"),
                                write_to=None if path is None else str(path), scale=scale,
                                background_color="#ffffff")
