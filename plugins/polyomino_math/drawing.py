"""A Polyomino Math puzzle drawn as SVG: the board with its numbers, and the pieces to
cut out below it; with a solution, each placed piece shaded and outlined on the board."""
from __future__ import annotations

from html import escape

from .shapes import text_of

CELL = 36
PIECE_CELL = 14
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
    parts = []
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
                 'fill="none" stroke="#000" stroke-width="2"/>')
    # The pieces to place, in a row (wrapping) under the board.
    x, y = margin, margin + rows * CELL + 16
    width = max(margin * 2 + cols * CELL, 200)
    line = 0
    for shape in board.pieces:
        w = (max(c for _, c in shape) + 1) * PIECE_CELL
        h = (max(r for r, _ in shape) + 1) * PIECE_CELL
        if x + w > width - margin:
            x, y = margin, y + line + 10
            line = 0
        squares = [r * 8 + c for r, c in shape]
        for r, c in shape:
            parts.append(f'<rect x="{x + c * PIECE_CELL}" y="{y + r * PIECE_CELL}" '
                         f'width="{PIECE_CELL}" height="{PIECE_CELL}" fill="#ddd" '
                         'stroke="#999" stroke-width="0.5"/>')
        parts.extend(_outline(squares, 8, x, y, PIECE_CELL, 1.5))
        parts.append(f'<title>{escape(text_of(shape))}</title>')
        x += w + 10
        line = max(line, h)
    height = y + line + margin
    total = sum(score for _, _, score in placed) if placed else None
    if total is not None:
        parts.append(f'<text x="{margin}" y="{height + 14}" font-family="sans-serif" '
                     f'font-size="14">score {total}</text>')
        height += 22
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">' + "".join(parts) + "</svg>")
