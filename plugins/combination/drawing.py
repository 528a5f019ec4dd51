"""Combination drawn (``render_svg``): the board with its walls (dark squares) and holes
(black rounds), the pieces to place listed under it, and in the answer key, each piece on
its square. A piece is a disc of its colour bearing its chess symbol (rook, bishop or
queen), so that a key printed in grey still tells the attacks apart, and a white badge with
its colour's letter (a, b, ...), so that it tells the colours apart too: two palette colours
can print as the same grey (red and blue do). The list names the colours by the same
letters."""
from __future__ import annotations

from puzzle_engine.render.svg import GridDrawing, num

from .squares import HOLE, WALL

#: Colours a to h.
PALETTE = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#17becf")
GLYPHS = {"rook": "\u265c", "bishop": "\u265d", "queen": "\u265b"}
WALL_FILL = "#4d4d4d"


def _piece(drawing, x, y, colour, attack, name, radius, letter):
    """A piece: a disc of its colour with the attack's chess symbol in white (outlined in
    black), and at its
    top right a white badge bearing ``letter``, its colour's name, in black."""
    group = drawing.group(name)
    drawing.disc(x, y, radius, PALETTE[(colour - 1) % len(PALETTE)], parent=group)
    glyph = drawing.text(x - radius * 0.12, y + radius * 0.06, GLYPHS[attack], radius * 1.25,
                         fill="#ffffff", name="glyph", parent=group)
    # outlined in black, so that the symbol stands out on the light colours too
    glyph.set("stroke", "#000000")
    glyph.set("stroke-width", num(radius * 0.06))
    bx, by, br = x + radius * 0.62, y - radius * 0.62, radius * 0.48
    drawing.disc(bx, by, br, "#ffffff", name="badge", parent=group)
    drawing.text(bx, by - br * 0.12, letter, br * 1.6, bold=True, name="letter", parent=group)
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
                colour = v // 4
                _piece(drawing, x, y, colour, attacks[v % 4 - 1], "piece", cell * 0.4,
                       colour_names[colour - 1]).set(
                    "data-square", str(i))
    drawing.lines()
    step = (drawing.width - 8) / per_row
    for n, p in enumerate(level.pieces):
        row, col = divmod(n, per_row)
        x = 4 + col * step + cell * 0.35
        y = drawing.bottom + 3 + (row + 0.5) * cell * 0.9
        _piece(drawing, x, y, p.colour, p.attack, "legend", cell * 0.32,
               colour_names[p.colour - 1])
        drawing.text(x + cell * 0.45, y, f"\u00d7{p.count} {colour_names[p.colour - 1]}",
                     cell * 0.38, anchor="start", name="count")
    return drawing.to_string()
