"""Drawing a board of squares as SVG: the helper a grid type's ``render_svg`` builds on.

A ``GridDrawing`` is a rows x cols board of square cells: it shades squares, writes a
symbol in a square, draws round tokens, and draws the grid lines, thin inside a region
and thick between regions and round the board. Lengths are SVG user units (a pixel at
96 dpi); a cell is ``CELL`` wide unless asked otherwise. The thin lines fall on pixel
centres, so that a drawing rasterised at its own size has crisp one-pixel lines.

Text is set in the DejaVu Sans family first (the test set-up pins its package, so that
pictures rasterise the same everywhere), then the usual sans-serif fallbacks.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

SVG_NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG_NS)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
CELL = 36          #: the side of a square
THIN, THICK = 1, 3  #: line widths inside a region, and between regions and round the board
INK = "#000000"     #: lines and givens
ANSWER = "#1f4fa8"  #: symbols that the answer key adds to the puzzle's givens
SHADE = "#d9d9d9"
MARGIN = THICK + 0.5  #: room for the outer line; a pixel centre for the lines


#: What XML 1.0 cannot hold, even escaped: control characters but tab and line ends,
#: lone surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def plain(text: str) -> str:
    """``text`` without the characters XML cannot hold (a record's or the command line's
    text, written into a caption or a title), so that every page is well-formed."""
    return _NOT_XML.sub("", text)


def num(value: float) -> str:
    """A length as SVG text: no trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


class GridDrawing:
    """A rows x cols board of ``cell``-sized squares, with ``below`` units of free space
    under it (for a legend). Squares are numbered row by row from 0."""

    def __init__(self, rows: int, cols: int, cell: float = CELL, below: float = 0):
        self.rows, self.cols, self.cell = rows, cols, cell
        self.width = cols * cell + 2 * MARGIN
        self.height = rows * cell + 2 * MARGIN + below
        self.root = ET.Element(f"{{{SVG_NS}}}svg", {
            "version": "1.1", "width": num(self.width), "height": num(self.height),
            "viewBox": f"0 0 {num(self.width)} {num(self.height)}",
            "font-family": FONT})
        ET.SubElement(self.root, f"{{{SVG_NS}}}rect", {
            "x": "0", "y": "0", "width": num(self.width), "height": num(self.height),
            "fill": "#ffffff"})
        # Layers, bottom to top, so that lines cross shading and symbols stand on both.
        self._shades = self.group("shades")
        self._lines = self.group("lines")
        self._marks = self.group("symbols")

    # -- geometry ------------------------------------------------------------------------
    def x(self, col: float) -> float:
        """The left edge of column ``col`` (0-based); a fraction reaches into the square."""
        return MARGIN + col * self.cell

    def y(self, row: float) -> float:
        """The top edge of row ``row``."""
        return MARGIN + row * self.cell

    def centre(self, square: int) -> tuple[float, float]:
        r, c = divmod(square, self.cols)
        return self.x(c + 0.5), self.y(r + 0.5)

    @property
    def bottom(self) -> float:
        """The first unit below the board (where a legend starts)."""
        return self.y(self.rows) + MARGIN

    # -- elements ------------------------------------------------------------------------
    def group(self, name: str, parent: ET.Element | None = None) -> ET.Element:
        """A named ``<g>`` layer (the ``class`` attribute holds ``name``)."""
        return ET.SubElement(self.root if parent is None else parent, f"{{{SVG_NS}}}g",
                             {"class": name})

    def shade(self, square: int, fill: str = SHADE, name: str = "shade") -> None:
        """Fill a whole square."""
        r, c = divmod(square, self.cols)
        ET.SubElement(self._shades, f"{{{SVG_NS}}}rect", {
            "class": name, "x": num(self.x(c)), "y": num(self.y(r)),
            "width": num(self.cell), "height": num(self.cell), "fill": fill})

    def text(self, x: float, y: float, text: str, size: float, fill: str = INK,
             bold: bool = False, anchor: str = "middle", name: str = "label",
             parent: ET.Element | None = None) -> ET.Element:
        """Text whose middle (``anchor``) sits at ``x`` and whose centre line is ``y``."""
        attrs = {"class": name, "x": num(x), "y": num(y + 0.36 * size),
                 "font-size": num(size), "text-anchor": anchor, "fill": fill}
        if bold:
            attrs["font-weight"] = "bold"
        element = ET.SubElement(self._marks if parent is None else parent,
                                f"{{{SVG_NS}}}text", attrs)
        element.text = text
        return element

    def symbol(self, square: int, text: str, given: bool = True) -> ET.Element:
        """A square's symbol: bold ink for a given, the answer colour for the key's other
        squares. The ``class`` is ``given`` or ``answer``, ``data-square`` the square."""
        x, y = self.centre(square)
        size = self.cell * (0.62 if len(text) == 1 else 0.5 if len(text) == 2 else 0.38)
        element = self.text(x, y, text, size, INK if given else ANSWER, bold=given,
                            name="given" if given else "answer")
        element.set("data-square", str(square))
        return element

    def disc(self, x: float, y: float, radius: float, fill: str, stroke: str = INK,
             name: str = "disc", parent: ET.Element | None = None) -> ET.Element:
        return ET.SubElement(self._marks if parent is None else parent, f"{{{SVG_NS}}}circle", {
            "class": name, "cx": num(x), "cy": num(y), "r": num(radius), "fill": fill,
            "stroke": stroke, "stroke-width": "1"})

    def lines(self, regions: Sequence[int] | None = None) -> None:
        """The grid lines: thin between two squares of one region, thick between squares
        of two regions (``regions`` gives each square's region; ``None``: one region), and
        thick round the board."""
        thin = self.group("thin", self._lines)
        thick = self.group("thick", self._lines)
        for layer, width in ((thin, THIN), (thick, THICK)):
            layer.set("stroke", INK)
            layer.set("stroke-width", str(width))
            layer.set("stroke-linecap", "square")

        def same(a: int, b: int) -> bool:
            return regions is None or regions[a] == regions[b]

        def segment(layer: ET.Element, x1: float, y1: float, x2: float, y2: float) -> None:
            ET.SubElement(layer, f"{{{SVG_NS}}}line", {
                "x1": num(x1), "y1": num(y1), "x2": num(x2), "y2": num(y2)})

        rows, cols = self.rows, self.cols
        for r in range(rows):
            for c in range(1, cols):  # the line left of square (r, c)
                a = r * cols + c
                segment(thin if same(a - 1, a) else thick,
                        self.x(c), self.y(r), self.x(c), self.y(r + 1))
        for r in range(1, rows):
            for c in range(cols):  # the line above square (r, c)
                a = r * cols + c
                segment(thin if same(a - cols, a) else thick,
                        self.x(c), self.y(r), self.x(c + 1), self.y(r))
        ET.SubElement(thick, f"{{{SVG_NS}}}rect", {
            "class": "border", "x": num(self.x(0)), "y": num(self.y(0)),
            "width": num(cols * self.cell), "height": num(rows * self.cell),
            "fill": "none"})

    def to_string(self) -> str:
        """The standalone SVG document."""
        return ET.tostring(self.root, encoding="unicode")


__all__ = ["ANSWER", "CELL", "FONT", "GridDrawing", "INK", "SHADE", "SVG_NS", "THICK", "THIN", "num",
           "plain"]
