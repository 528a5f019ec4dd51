"""Killer's cages drawn: a dashed outline inside each cage's squares with its sum in the
corner of its first square (``cages``), and the play page's conflict rule (``CAGE_RULE``)."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

from puzzle_engine.render.svg import INK, SVG_NS, GridDrawing, num
from puzzle_engine_plugins.sudoku.variant import labelled

#: How far a cage's outline stands inside its squares, as a share of a square's side.
INSET = 0.12
#: The sum's size, as a share of a square's side (10.8 units in a 36-unit square).
SUM_SIZE = 0.3


def cages(drawing: GridDrawing, cage: Sequence[int], sums: Mapping[int, int]) -> None:
    """Each cage's dashed outline, ``INSET`` inside its border squares, and its sum at the
    top left of its first square (on a white patch, so the outline passes behind it)."""
    n, cell = drawing.cols, drawing.cell
    d = INSET * cell
    layer = drawing.group("cages")
    layer.set("stroke", INK)
    layer.set("stroke-width", "1")
    layer.set("stroke-dasharray", "3 2")

    def inside(r: int, c: int, g: int) -> bool:
        return 0 <= r < n and 0 <= c < n and cage[r * n + c] == g

    for i, g in enumerate(cage):
        r, c = divmod(i, n)
        x0, y0, x1, y1 = drawing.x(c), drawing.y(r), drawing.x(c + 1), drawing.y(r + 1)
        # Each side on the cage's border, (dr, dc) towards the outside; each of its ends
        # stops inside the corner, reaches the square's edge where the cage goes on
        # straight, or goes d beyond it round an inner corner.
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if inside(r + dr, c + dc, g):
                continue
            along = ((0, -1), (0, 1)) if dr else ((-1, 0), (1, 0))
            ends = [d if not inside(r + ar, c + ac, g)
                    else -d if inside(r + ar + dr, c + ac + dc, g) else 0.0
                    for ar, ac in along]
            if dr:  # a horizontal side, ends to the left and right
                y = y0 + d if dr < 0 else y1 - d
                segment(layer, x0 + ends[0], y, x1 - ends[1], y)
            else:   # a vertical side, ends above and below
                x = x0 + d if dc < 0 else x1 - d
                segment(layer, x, y0 + ends[0], x, y1 - ends[1])
    sums_layer = drawing.group("sums")  # above the outlines
    size = SUM_SIZE * cell
    for g, squares in labelled(cage).items():
        r, c = divmod(squares[0], n)
        text = str(sums[g])
        ET.SubElement(sums_layer, f"{{{SVG_NS}}}rect", {
            "x": num(drawing.x(c) + 1.5), "y": num(drawing.y(r) + 1.5),
            "width": num(0.62 * size * len(text) + 2), "height": num(size + 1),
            "fill": "#ffffff"})
        drawing.text(drawing.x(c) + 2.5, drawing.y(r) + 1.5 + size / 2, text, size,
                     anchor="start", name="sum", parent=sums_layer)


def segment(layer: ET.Element, x1: float, y1: float, x2: float, y2: float) -> None:
    ET.SubElement(layer, f"{{{SVG_NS}}}line", {"x1": num(x1), "y1": num(y1),
                                              "x2": num(x2), "y2": num(y2)})


#: The play page's rule (``PlayGrid.rule == "script"``): a digit twice in a unit (rows,
#: columns, boxes, cages), and a cage (a region of the grid) whose digits add up to more
#: than its sum, or to another sum once full. The sum is the cage's total in the solution.
CAGE_RULE = """function (values, grid) {
  const bad = new Set();
  for (const unit of grid.units) {
    const seen = new Map();
    for (const i of unit) {
      const v = values[i];
      if (v <= 0) continue;
      if (seen.has(v)) { bad.add(i); bad.add(seen.get(v)); } else seen.set(v, i);
    }
  }
  const cages = new Map();
  grid.regions.forEach((g, i) => { if (!cages.has(g)) cages.set(g, []); cages.get(g).push(i); });
  for (const squares of cages.values()) {
    const target = squares.reduce((s, i) => s + grid.solution[i], 0);
    const filled = squares.filter((i) => values[i] > 0);
    const total = filled.reduce((s, i) => s + values[i], 0);
    if (total > target || (filled.length === squares.length && total !== target)) {
      filled.forEach((i) => bad.add(i));
    }
  }
  return [...bad];
}"""
