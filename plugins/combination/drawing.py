"""Combination drawn (``render_svg``): the board with its walls (dark squares) and holes
(black rounds), the pieces to place listed under it, and in the answer key, each piece on
its square. A piece is a disc of its colour bearing its chess symbol (rook, bishop or
queen), so that a key printed in grey still tells the attacks apart, and crossed by its
colour's pattern of lines (plain, across, down, the two slants, a grid, a lattice, rings),
so that it tells the colours apart too: two palette colours can print as the same grey
(red and blue do). Patterns, not letters: a letter on a piece would be the sheet's
smallest text, and the 8-point rule would then keep 8x8 levels from sharing a page. The
list names the colours by letter."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from puzzle_engine.render.svg import SVG_NS, GridDrawing, num

from .squares import HOLE, WALL

#: Colours a to h.
PALETTE = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#17becf")
GLYPHS = {"rook": "\u265c", "bishop": "\u265d", "queen": "\u265b"}
WALL_FILL = "#4d4d4d"


#: Each colour's pattern of lines across its disc (a, the first colour, is plain): angles
#: in degrees of the families of parallel lines, or "ring" for rings inside the rim.
PATTERNS = ((), (0,), (90,), (45,), (135,), (0, 90), (45, 135), ("ring",))


def _lum(colour: str) -> float:
    """A colour's grey (ITU-R 601), 0 to 255: how a greyscale print shows it."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def _pattern(drawing, group, x, y, radius, colour, ink):
    """The lines of ``colour``'s pattern across the disc at (x, y), in ``ink``."""
    width = num(radius * 0.13)
    for family in PATTERNS[(colour - 1) % len(PATTERNS)]:
        if family == "ring":
            for k in (0.55, 0.8):
                drawing.disc(x, y, radius * k, "none", stroke=ink, name="pattern",
                             parent=group).set("stroke-width", width)
            continue
        a = math.radians(family)
        dx, dy = math.cos(a), math.sin(a)   # along the lines
        nx, ny = -dy, dx                    # across them
        step = radius * 0.42
        for k in (-1.5, -0.5, 0.5, 1.5):  # none through the centre
            off = k * step
            half = math.sqrt(max(0.0, (radius * 0.95) ** 2 - off ** 2))
            cx, cy = x + nx * off, y + ny * off
            ET.SubElement(group, f"{{{SVG_NS}}}line", {
                "class": "pattern", "x1": num(cx - dx * half), "y1": num(cy - dy * half),
                "x2": num(cx + dx * half), "y2": num(cy + dy * half), "stroke": ink,
                "stroke-width": width})


def _piece(drawing, x, y, colour, attack, name, radius):
    """A piece: a disc of its colour, crossed by its colour's pattern (in white on a dark
    colour, black on a light one), with the attack's chess symbol in white outlined in
    black."""
    group = drawing.group(name)
    fill = PALETTE[(colour - 1) % len(PALETTE)]
    drawing.disc(x, y, radius, fill, parent=group)
    _pattern(drawing, group, x, y, radius, colour, "#ffffff" if _lum(fill) < 128 else "#000000")
    glyph = drawing.text(x, y, GLYPHS[attack], radius * 1.4, fill="#ffffff", name="glyph",
                         parent=group)
    # outlined in black, so that the symbol stands out on the light colours and the lines
    glyph.set("stroke", "#000000")
    glyph.set("stroke-width", num(radius * 0.035))
    return group


def render_svg(level, solution, colour_names, attacks) -> str:
    """The level; with ``solution`` (a piece ``4 * colour + attack`` on a square, attack
    1 to 3 in the order of ``attacks``), its answer key."""
    cell = 36
    per_row = max(1, level.width // 2)  # pieces listed on one line under the board
    lines = -(-len(level.pieces) // per_row)
    drawing = GridDrawing(level.height, level.width, cell, below=lines * cell * 0.9 + 6)
    for i, v in enumerate(level.board):
        if v == WALL:
            drawing.shade(i, WALL_FILL, name="wall")
        elif v == HOLE:
            x, y = drawing.centre(i)
            drawing.disc(x, y, cell * 0.22, "#000000", name="hole")
    if solution is not None:
        for i, v in enumerate(solution):
            if v > 0:
                x, y = drawing.centre(i)
                _piece(drawing, x, y, v // 4, attacks[v % 4 - 1], "piece", cell * 0.4).set(
                    "data-square", str(i))
    drawing.lines()
    step = (drawing.width - 8) / per_row
    for n, p in enumerate(level.pieces):
        row, col = divmod(n, per_row)
        x = 4 + col * step + cell * 0.35
        y = drawing.bottom + 3 + (row + 0.5) * cell * 0.9
        _piece(drawing, x, y, p.colour, p.attack, "legend", cell * 0.32)
        drawing.text(x + cell * 0.45, y, f"\u00d7{p.count} {colour_names[p.colour - 1]}",
                     cell * 0.38, anchor="start", name="count")
    return drawing.to_string()
