"""A Polyomino Math puzzle drawn as SVG: the board with its numbers, and the pieces to
cut out below it at the board's scale; with a solution, each placed piece shaded and
outlined on the board, and the pieces left over below it."""
from __future__ import annotations

from collections import Counter
from html import escape

from .shapes import free, text_of

CELL = 36
PIECE_CELL = CELL  #: the pieces to cut out are drawn at the board's scale
PIECE_GAP = 12     #: between pieces, room for the scissors
PIECES_WIDTH = 14 * CELL  #: the pieces are laid out in rows about this wide
COLOURS = ("#f4a6a6", "#a6c8f4", "#b7e4a8", "#f4dca6", "#d4b0f0", "#a6e8e4", "#f0b8d8",
           "#d8d8a0", "#c0c0c0", "#f7c59f")


def _outline(squares, cols, x0, y0, size, width):
    """Line segments along the sides of ``squares`` that no other of them shares."""
    cells = {divmod(s, cols) for s in squares}
    out = []
    for r, c in cells:
        x, y = x0 + c * size, y0 + r * size
        for (dr, dc), (x1, y1, x2, y2) in (((-1, 0), (x, y, x + size, y)),
                                            ((1, 0), (x, y + size, x + size, y + size)),
                                            ((0, -1), (x, y, x, y + size)),
                                            ((0, 1), (x + size, y, x + size, y + size))):
            if (r + dr, c + dc) not in cells:
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                           f'stroke="#000" stroke-width="{width}" stroke-linecap="square"/>')
    return out


def render(board, placed=None) -> str:
    """``placed``: the solution's pieces, ``(shape, squares, score)`` each, or None."""
    rows, cols = board.rows, board.cols
    margin = 10
    # The pieces under the board, at the board's scale (to cut out and place): on the
    # puzzle all of them; on the answer key, the ones left over.
    pieces = list(board.pieces)
    if placed is not None:
        left = Counter(free(shape) for shape in board.pieces)
        left.subtract(free(shape) for shape, _, _ in placed)
        pieces = sorted(left.elements())
    width = max([margin * 2 + cols * CELL, PIECES_WIDTH] + [
        margin * 2 + (max(c for _, c in shape) + 1) * PIECE_CELL for shape in pieces])
    parts = [f'<g transform="translate({(width - 2 * margin - cols * CELL) / 2:g} 0)">']
    for i, v in enumerate(board.numbers):
        r, c = divmod(i, cols)
        parts.append(f'<rect x="{margin + c * CELL}" y="{margin + r * CELL}" width="{CELL}" '
                     f'height="{CELL}" fill="#fff" stroke="#999" stroke-width="1"/>')
    for k, (_, squares, _) in enumerate(placed or ()):
        for s in squares:
            r, c = divmod(s, cols)
            parts.append(f'<rect x="{margin + c * CELL}" y="{margin + r * CELL}" '
                         f'width="{CELL}" height="{CELL}" fill="{COLOURS[k % len(COLOURS)]}"/>')
        parts.extend(_outline(squares, cols, margin, margin, CELL, 3))
    for i, v in enumerate(board.numbers):
        r, c = divmod(i, cols)
        x, y = margin + c * CELL + CELL / 2, margin + r * CELL + CELL * 0.68
        parts.append(f'<text x="{x}" y="{y}" '
                     f'font-family="sans-serif" font-size="{CELL // 2}" text-anchor="middle">'
                     f'{v}</text>')
    parts.append(f'<rect x="{margin}" y="{margin}" width="{cols * CELL}" height="{rows * CELL}" '
                 'fill="none" stroke="#000" stroke-width="2"/></g>')
    label = ("Pieces to cut out" if placed is None else "Pieces left over" if pieces
             else "No piece left over")
    y = margin + rows * CELL + 28
    parts.append(f'<text x="{margin}" y="{y - 8}" font-family="sans-serif" font-size="14" '
                 f'class="pieces-label">{label}</text>')
    x, line = margin, 0
    for shape in pieces:
        w = (max(c for _, c in shape) + 1) * PIECE_CELL
        h = (max(r for r, _ in shape) + 1) * PIECE_CELL
        if x + w > width - margin and x > margin:
            x, y = margin, y + line + PIECE_GAP
            line = 0
        squares = [r * 8 + c for r, c in shape]
        parts.append(f'<g class="piece"><title>{escape(text_of(shape))}</title>')
        for r, c in shape:
            parts.append(f'<rect x="{x + c * PIECE_CELL}" y="{y + r * PIECE_CELL}" '
                         f'width="{PIECE_CELL}" height="{PIECE_CELL}" fill="#eee" '
                         'stroke="#999" stroke-width="1"/>')
        parts.extend(_outline(squares, 8, x, y, PIECE_CELL, 2))
        parts.append('</g>')
        x += w + PIECE_GAP
        line = max(line, h)
    height = y + line + margin
    total = sum(score for _, _, score in placed) if placed else None
    if total is not None:
        parts.append(f'<text x="{margin}" y="{height + 14}" font-family="sans-serif" '
                     f'font-size="14">score {total}</text>')
        height += 22
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">' + "".join(parts) + "</svg>")
