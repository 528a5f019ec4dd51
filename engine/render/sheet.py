"""Laying drawings out on pages: ``per_page`` drawings in a grid of slots, scaled to fill
their slots with their proportions kept, a caption under each, and a title line at the
top of each page. Pages are SVG documents of the paper's size (A4 or US Letter, in SVG
user units: pixels at 96 dpi), or with the paper ``fit``, just large enough for the
drawings at their own size (for screens, and pictures in documents)."""
from __future__ import annotations

import copy
import functools
import math
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import PuzzleInputError
from .drawing import size, smallest_text
from .svg import CELL, FONT, SVG_NS, num, plain

#: Paper sizes in pixels at 96 dpi: A4 (210 x 297 mm) and US Letter (8.5 x 11 in).
PAPERS = {"a4": (793.7, 1122.5), "letter": (816.0, 1056.0)}
FIT = "fit"        #: no paper: each page is as large as its drawings at their own size
FIT_MARGIN = 16.0
FIT_RULES = 360.0  #: on a page that fits its drawings, the rules wrap at least this wide
MARGIN = 48.0   #: half an inch round the page, at the least (the content is centred)
GAP = 24.0      #: between slots
POINT = 96 / 72  #: a point in SVG units
SMALLEST_TEXT = 8 * POINT  #: no text on paper is smaller than 8 points
TITLE = 14.0    #: font size of the page title
CAPTION = 11.0  #: font size of captions (8.25 points)
RULES = 11.0    #: font size of the rules under the title
LINE = 1.3      #: line height, in font sizes
#: The least scale a drawing is shrunk to on paper: a square of ``CELL`` is then 8 points
#: (96 units are 72 points), about the smallest a symbol can be written in by hand.
SMALLEST = 8 * 96 / 72 / CELL


@dataclass(frozen=True)
class Placed:
    """A drawing for the sheet: the ``<svg>`` element (``drawing.drawing``), the lines
    of its caption, the rules of its type in words (printed under the page's title,
    once for each type on the page) and the type's name in words, and ``where`` it came
    from (for a message)."""

    svg: ET.Element
    caption: Sequence[str]
    rules: str = ""
    kind: str = ""
    where: str = ""


def _el(parent: ET.Element, tag: str, **attrs) -> ET.Element:
    return ET.SubElement(parent, f"{{{SVG_NS}}}{tag}", {k.replace("_", "-"): v
                                                         for k, v in attrs.items()})


def _caption_lines(lines: Sequence[str], width: float) -> list[str]:
    """The caption wrapped to ``width`` (DejaVu Sans averages about 0.6 em a character)."""
    return list(_wrapped(tuple(lines), max(12, int(width / (0.6 * CAPTION)))))


@functools.lru_cache(maxsize=65536)
def _wrapped(lines: tuple[str, ...], chars: int) -> tuple[str, ...]:
    """``lines`` wrapped at ``chars`` characters (remembered: ``_check_fits`` wraps every
    caption for each number of slots it tries)."""
    return tuple(part for line in lines for part in textwrap.wrap(plain(line), chars) or [""])


def _rules_lines(chunk: Sequence[Placed], width: float) -> list[str]:
    """The rules of each type on a page, ``Type: rules``, wrapped to ``width``."""
    texts: list[str] = []
    for item in chunk:
        text = f"{item.kind}: {item.rules}" if item.kind else item.rules
        if item.rules and text not in texts:
            texts.append(text)
    return list(_wrapped(tuple(texts), max(20, int(width / (0.6 * RULES)))))


def _header(lines: Sequence[str]) -> float:
    """The height of a page's title and its rules lines."""
    return TITLE * 2 + (len(lines) * RULES * LINE + RULES * 0.5 if lines else 0.0)


def _caption_height(lines: Sequence[str]) -> float:
    return len(lines) * CAPTION * LINE + CAPTION * 0.5 if lines else 0.0


def most_per_page(paper: str) -> int:
    """More drawings than this never fit a page of ``paper``, whatever they are: a slot
    must be wider than nothing and taller than a line of caption. Checked before any
    work (``--per-page``); ``_check_fits`` then finds the most that fit the drawings."""
    width, height = PAPERS[paper]
    width, height = width - 2 * MARGIN, height - 2 * MARGIN - TITLE * 2
    cols = math.ceil((width + GAP) / GAP) - 1
    rows = math.ceil((height + GAP) / (GAP + CAPTION * LINE + CAPTION * 0.5)) - 1
    return cols * rows


def layout(count: int, paper: str, aspect: float, header: float = TITLE * 2) -> tuple[int, int]:
    """``(columns, rows)`` of slots for ``count`` drawings of ``aspect`` (height / width)
    on ``paper`` under a ``header`` that high: the grid that lets the drawings be largest."""
    width, height = PAPERS[paper]
    width, height = width - 2 * MARGIN, height - 2 * MARGIN - header
    best, shape = -1.0, (1, count)
    for cols in range(1, count + 1):
        rows = math.ceil(count / cols)
        slot_w = (width - (cols - 1) * GAP) / cols
        slot_h = (height - (rows - 1) * GAP) / rows - 3 * CAPTION * LINE
        scale = min(slot_w, slot_h / aspect)
        if scale > best + 1e-9:
            best, shape = scale, (cols, rows)
    return shape


def _slots(count: int, paper: str, aspect: float,
           header: float = TITLE * 2) -> tuple[int, int, float, float]:
    """``(columns, rows, slot width, slot height)`` of ``count`` drawings on ``paper``."""
    cols, rows = layout(count, paper, aspect, header)
    page_w, page_h = PAPERS[paper]
    return (cols, rows, (page_w - 2 * MARGIN - (cols - 1) * GAP) / cols,
            (page_h - 2 * MARGIN - header - (rows - 1) * GAP) / rows)


def _scale(chunk: Sequence[Placed], slot_w: float, slot_h: float) -> float:
    """The largest scale at which every drawing of ``chunk`` and its caption fit a slot
    (one scale for a page: the squares of boards of one size are then of one size)."""
    return min(min(slot_w / width, (slot_h - _caption_height(_caption_lines(item.caption,
                                                                             slot_w))) / height)
               for item in chunk for width, height in [size(item.svg)])


def _text_at(drawings: Sequence[Placed], scale: float) -> tuple[float, Placed] | None:
    """The smallest text of ``drawings`` at ``scale``, in points, and its drawing; None
    when they hold no text."""
    found = [(font * scale / POINT, item) for item in drawings
             if (font := smallest_text(item.svg)) is not None]
    return min(found, key=lambda pair: pair[0]) if found else None


def _check_fits(drawings: Sequence[Placed], per_page: int, paper: str, aspect: float,
                header: float = TITLE * 2) -> None:
    """Refuse a ``per_page`` that shrinks the drawings' squares, or their text, below
    ``SMALLEST`` (8 points), naming the most that fit. Text that does not reach 8 points
    even alone on a page is refused too, naming its puzzle: it is never shrunk."""
    def scale_of(n: int) -> float | None:
        *_, slot_w, slot_h = _slots(min(n, len(drawings)), paper, aspect, header)
        return _scale(drawings, slot_w, slot_h) if slot_w > 0 and slot_h > 0 else None

    def text_fits(scale: float) -> bool:
        small = _text_at(drawings, scale)
        return small is None or small[0] >= 8 - 1e-6

    def fits(n: int) -> bool:
        scale = scale_of(n)
        return scale is not None and scale >= SMALLEST and text_fits(scale)

    for one in drawings:  # text too small even alone on a page: refused, never shrunk
        width, height = size(one.svg)
        *_, slot_w, slot_h = _slots(1, paper, height / width, header)
        small = _text_at([one], _scale([one], slot_w, slot_h)) if slot_w > 0 < slot_h else None
        if small is not None and small[0] < 8 - 1e-6:
            raise PuzzleInputError(f"{one.where or 'a puzzle'}: its text would print at "
                                   f"{small[0]:.1f} pt on {paper}, under 8 pt, even alone "
                                   "on a page: use --paper fit")
    if per_page == 1 or fits(per_page):
        return
    most = next((n for n in range(min(per_page, len(drawings), most_per_page(paper)) - 1, 1, -1)
                 if fits(n)), 1)
    raise PuzzleInputError(f"--per-page {per_page} does not fit on {paper}: at most {most} "
                           "of these puzzles fit a page at a readable size (squares and "
                           "text of 8 points), or use --paper fit")


def pages(drawings: Sequence[Placed], per_page: int, paper: str, title: str) -> list[str]:
    """The pages (SVG documents) holding ``drawings`` in order, ``per_page`` to a page,
    each titled ``title`` with its page number and the rules of the types on it. On
    paper, the content is centred on the page (margins of at least ``MARGIN``), and a
    ``per_page`` that would shrink the drawings' squares or text below 8 points is a
    ``PuzzleInputError`` naming the most that fit."""
    chunks = [drawings[i:i + per_page] for i in range(0, len(drawings), per_page)]

    def heading(n: int) -> str:
        return title if len(chunks) == 1 else f"{title} \u00b7 page {n} of {len(chunks)}"

    count = min(per_page, len(drawings)) or 1
    if paper == FIT:  # the page fits its drawings, at their own size
        margin = FIT_MARGIN
        cols = math.ceil(math.sqrt(count))
        rows = math.ceil(count / cols)
        slot_w = max(size(d.svg)[0] for d in drawings)
        slot_h = max(size(d.svg)[1] for d in drawings) + 4 * CAPTION * LINE
        content = cols * slot_w + (cols - 1) * GAP
        wrap = max(content, FIT_RULES)
        rules = [_rules_lines(chunk, wrap) for chunk in chunks]
        header = max(_header(lines) for lines in rules)
        widest = max((len(line) * 0.6 * RULES for lines in rules for line in lines), default=0)
        page_w = 2 * margin + max(content, 0.65 * TITLE * len(heading(len(chunks))), widest)
        left = (page_w - content) / 2
        page_h = 2 * margin + header + rows * slot_h + (rows - 1) * GAP
    else:
        margin = left = MARGIN
        page_w, page_h = PAPERS[paper]
        rules = [_rules_lines(chunk, page_w - 2 * MARGIN) for chunk in chunks]
        header = max(_header(lines) for lines in rules)
        aspect = max((h / w for w, h in (size(d.svg) for d in drawings)), default=1.0)
        _check_fits(drawings, per_page, paper, aspect, header)
        cols, rows, slot_w, slot_h = _slots(count, paper, aspect, header)
    out = []
    for n, (chunk, lines) in enumerate(zip(chunks, rules), 1):
        scale = _scale(chunk, slot_w, slot_h)
        captions = [_caption_lines(item.caption, slot_w) for item in chunk]
        top = margin
        row_h = slot_h
        if paper != FIT:  # the rows as high as their drawings, the whole centred
            row_h = max(size(item.svg)[1] * scale + _caption_height(lines_)
                        for item, lines_ in zip(chunk, captions))
            used_rows = math.ceil(len(chunk) / cols)
            used = _header(lines) + used_rows * row_h + (used_rows - 1) * GAP
            top = max(margin, (page_h - used) / 2)
        root = ET.Element(f"{{{SVG_NS}}}svg", {
            "version": "1.1", "width": num(page_w), "height": num(page_h),
            "viewBox": f"0 0 {num(page_w)} {num(page_h)}", "font-family": FONT})
        _el(root, "rect", x="0", y="0", width=num(page_w), height=num(page_h),
            fill="#ffffff")
        head = _el(root, "text", x=num(margin), y=num(top + TITLE),
                   font_size=num(TITLE), font_weight="bold", fill="#000000")
        head.set("class", "title")
        head.text = plain(heading(n))
        for m, line in enumerate(lines):
            text = _el(root, "text", x=num(margin),
                       y=num(top + TITLE * 2 + RULES * (LINE * m + 1)),
                       font_size=num(RULES), fill="#000000")
            text.set("class", "rules")
            text.text = line
        body = top + _header(lines)
        for k, (item, caption_lines) in enumerate(zip(chunk, captions)):
            row, col = divmod(k, cols)
            x = left + col * (slot_w + GAP)
            y = body + row * (row_h + GAP)
            width, height = size(item.svg)
            w, h = width * scale, height * scale
            placed = copy.deepcopy(item.svg)
            for key in ("x", "y", "width", "height"):
                placed.attrib.pop(key, None)
            placed.attrib.update({"x": num(x + (slot_w - w) / 2), "y": num(y),
                                  "width": num(w), "height": num(h),
                                  "preserveAspectRatio": "xMidYMid meet"})
            placed.set("class", "puzzle")
            root.append(placed)
            for m, line in enumerate(caption_lines):
                text = _el(root, "text", x=num(x + slot_w / 2),
                           y=num(y + h + CAPTION * LINE * (m + 1)), font_size=num(CAPTION),
                           text_anchor="middle", fill="#000000")
                text.set("class", "caption")
                text.text = line
        out.append(ET.tostring(root, encoding="unicode"))
    return out
