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
from .drawing import size
from .svg import CELL, FONT, SVG_NS, num, plain

#: Paper sizes in pixels at 96 dpi: A4 (210 x 297 mm) and US Letter (8.5 x 11 in).
PAPERS = {"a4": (793.7, 1122.5), "letter": (816.0, 1056.0)}
FIT = "fit"        #: no paper: each page is as large as its drawings at their own size
FIT_MARGIN = 16.0
MARGIN = 48.0   #: half an inch round the page
GAP = 24.0      #: between slots
TITLE = 14.0    #: font size of the page title
CAPTION = 9.5   #: font size of captions
LINE = 1.3      #: line height, in font sizes
#: The least scale a drawing is shrunk to on paper: a square of ``CELL`` is then 8 points
#: (96 units are 72 points), about the smallest a symbol can be written in by hand.
SMALLEST = 8 * 96 / 72 / CELL


@dataclass(frozen=True)
class Placed:
    """A drawing for the sheet: the ``<svg>`` element (``drawing.drawing``) and the lines
    of its caption."""

    svg: ET.Element
    caption: Sequence[str]


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


def most_per_page(paper: str) -> int:
    """More drawings than this never fit a page of ``paper``, whatever they are: a slot
    must be wider than nothing and taller than a line of caption. Checked before any
    work (``--per-page``); ``_check_fits`` then finds the most that fit the drawings."""
    width, height = PAPERS[paper]
    width, height = width - 2 * MARGIN, height - 2 * MARGIN - TITLE * 2
    cols = math.ceil((width + GAP) / GAP) - 1
    rows = math.ceil((height + GAP) / (GAP + CAPTION * LINE + CAPTION * 0.5)) - 1
    return cols * rows


def layout(count: int, paper: str, aspect: float) -> tuple[int, int]:
    """``(columns, rows)`` of slots for ``count`` drawings of ``aspect`` (height / width)
    on ``paper``: the grid that lets the drawings be largest."""
    width, height = PAPERS[paper]
    width, height = width - 2 * MARGIN, height - 2 * MARGIN - TITLE * 2
    best, shape = -1.0, (1, count)
    for cols in range(1, count + 1):
        rows = math.ceil(count / cols)
        slot_w = (width - (cols - 1) * GAP) / cols
        slot_h = (height - (rows - 1) * GAP) / rows - 3 * CAPTION * LINE
        scale = min(slot_w, slot_h / aspect)
        if scale > best + 1e-9:
            best, shape = scale, (cols, rows)
    return shape


def _slots(count: int, paper: str, aspect: float) -> tuple[int, int, float, float]:
    """``(columns, rows, slot width, slot height)`` of ``count`` drawings on ``paper``."""
    cols, rows = layout(count, paper, aspect)
    page_w, page_h = PAPERS[paper]
    return (cols, rows, (page_w - 2 * MARGIN - (cols - 1) * GAP) / cols,
            (page_h - 2 * MARGIN - TITLE * 2 - (rows - 1) * GAP) / rows)


def _scale(chunk: Sequence[Placed], slot_w: float, slot_h: float) -> float:
    """The largest scale at which every drawing of ``chunk`` and its caption fit a slot
    (one scale for a page: the squares of boards of one size are then of one size)."""
    return min(min(slot_w / width, (slot_h - len(_caption_lines(item.caption, slot_w))
                                    * CAPTION * LINE - CAPTION * 0.5) / height)
               for item in chunk for width, height in [size(item.svg)])


def _check_fits(drawings: Sequence[Placed], per_page: int, paper: str, aspect: float) -> None:
    """Refuse a ``per_page`` that shrinks the drawings below ``SMALLEST``, naming the
    most that fit."""
    def fits(n: int) -> bool:
        *_, slot_w, slot_h = _slots(min(n, len(drawings)), paper, aspect)
        return slot_w > 0 and slot_h > 0 and _scale(drawings, slot_w, slot_h) >= SMALLEST

    if per_page == 1 or fits(per_page):
        return
    most = next((n for n in range(min(per_page, len(drawings), most_per_page(paper)) - 1, 1, -1)
                 if fits(n)), 1)
    raise PuzzleInputError(f"--per-page {per_page} does not fit on {paper}: at most {most} "
                           "of these puzzles fit a page at a readable size (squares of "
                           "8 points), or use --paper fit")


def pages(drawings: Sequence[Placed], per_page: int, paper: str, title: str) -> list[str]:
    """The pages (SVG documents) holding ``drawings`` in order, ``per_page`` to a page,
    each titled ``title`` with its page number. On paper, a ``per_page`` that would
    shrink the drawings below ``SMALLEST`` is a ``PuzzleInputError`` naming the most
    that fit."""
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
        page_w = 2 * margin + max(content, 0.65 * TITLE * len(heading(len(chunks))))
        left = (page_w - content) / 2
        page_h = 2 * margin + TITLE * 2 + rows * slot_h + (rows - 1) * GAP
    else:
        margin = left = MARGIN
        aspect = max((h / w for w, h in (size(d.svg) for d in drawings)), default=1.0)
        _check_fits(drawings, per_page, paper, aspect)
        cols, rows, slot_w, slot_h = _slots(count, paper, aspect)
        page_w, page_h = PAPERS[paper]
    top = margin + TITLE * 2
    out = []
    for n, chunk in enumerate(chunks, 1):
        root = ET.Element(f"{{{SVG_NS}}}svg", {
            "version": "1.1", "width": num(page_w), "height": num(page_h),
            "viewBox": f"0 0 {num(page_w)} {num(page_h)}", "font-family": FONT})
        _el(root, "rect", x="0", y="0", width=num(page_w), height=num(page_h),
            fill="#ffffff")
        head = _el(root, "text", x=num(margin), y=num(margin + TITLE),
                   font_size=num(TITLE), font_weight="bold", fill="#000000")
        head.set("class", "title")
        head.text = plain(heading(n))
        scale = _scale(chunk, slot_w, slot_h)
        for k, item in enumerate(chunk):
            lines = _caption_lines(item.caption, slot_w)
            row, col = divmod(k, cols)
            x = left + col * (slot_w + GAP)
            y = top + row * (slot_h + GAP)
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
            for m, line in enumerate(lines):
                text = _el(root, "text", x=num(x + slot_w / 2),
                           y=num(y + h + CAPTION * LINE * (m + 1)), font_size=num(CAPTION),
                           text_anchor="middle", fill="#000000")
                text.set("class", "caption")
                text.text = line
        out.append(ET.tostring(root, encoding="unicode"))
    return out
