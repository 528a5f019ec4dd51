"""Looking at rendered pages as a person would: rasterise a page (SVG through cairo, PDF
through poppler's pdftoppm), find where a puzzle was placed on it, and read pixels in the
puzzle's own squares."""
from __future__ import annotations

import io
import json
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import cairosvg
from PIL import Image
from typer.testing import CliRunner

from puzzle_engine.cli import app
from puzzle_engine.render.svg import CELL, MARGIN, SVG_NS

NS = {"svg": SVG_NS}
runner = CliRunner()


def cli(*args, input=None):
    """Run ``puzzle-engine ARGS`` in this process; fail with its output if it fails."""
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert result.exit_code == 0, result.output
    return result


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def raster_svg(text: str, scale: float) -> Image.Image:
    """An SVG document as a greyscale image, ``scale`` pixels per SVG unit."""
    png = cairosvg.svg2png(bytestring=text.encode(), scale=scale, background_color="#ffffff")
    return Image.open(io.BytesIO(png)).convert("RGB")


def raster_pdf(path: Path, tmp: Path, dpi: int = 96) -> list[Image.Image]:
    """Every page of a PDF at ``dpi`` (96: a pixel per SVG unit of the page)."""
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(path), str(tmp / "page")],
                   check=True, timeout=300)
    return [Image.open(p).convert("RGB") for p in sorted(tmp.glob("page-*.png"))]


@dataclass
class Placed:
    """Where a drawing sits on a rasterised page: ``scale`` page pixels per page unit, the
    nested ``<svg>``'s box, and its ``viewBox`` size."""

    image: Image.Image
    scale: float
    x: float
    y: float
    width: float
    height: float
    box_w: float
    box_h: float

    def px(self, u: float, v: float) -> tuple[int, int]:
        """The page pixel of the drawing's point (u, v), in its own units."""
        k = self.width / self.box_w
        return (int((self.x + u * k) * self.scale), int((self.y + v * k) * self.scale))

    def square(self, r: float, c: float) -> tuple[float, float]:
        """The drawing's point at row r, column c of its board (fractions inside)."""
        return MARGIN + c * CELL, MARGIN + r * CELL

    def lum(self, u: float, v: float) -> float:
        red, green, blue = self.image.getpixel(self.px(u, v))[:3]
        return 0.299 * red + 0.587 * green + 0.114 * blue

    def rgb(self, u: float, v: float) -> tuple[int, int, int]:
        return self.image.getpixel(self.px(u, v))[:3]

    def ink(self, r: int, c: int, inset: float = 0.15) -> int:
        """Dark pixels inside square (r, c), ``inset`` of a square from its lines."""
        (x0, y0), (x1, y1) = (self.px(*self.square(r + inset, c + inset)),
                              self.px(*self.square(r + 1 - inset, c + 1 - inset)))
        grey = self.image.crop((x0, y0, x1, y1)).convert("L")
        return sum(1 for p in grey.tobytes() if p < 128)

    def glyph(self, r: int, c: int) -> Image.Image:
        """The ink of square (r, c), cropped to its bounding box and scaled to 16 x 20."""
        (x0, y0), (x1, y1) = (self.px(*self.square(r + 0.1, c + 0.1)),
                              self.px(*self.square(r + 0.9, c + 0.9)))
        grey = self.image.crop((x0, y0, x1, y1)).convert("L")
        box = grey.point(lambda p: 255 if p < 128 else 0).getbbox()
        assert box, f"no ink in square ({r}, {c})"
        return grey.crop(box).resize((16, 20))


def placements(page_svg: str) -> list[tuple[float, float, float, float, float, float]]:
    """``(x, y, width, height, viewBox width, viewBox height)`` of each puzzle on a page."""
    root = ET.fromstring(page_svg)
    out = []
    for svg in root.findall("svg:svg", NS):
        *_, bw, bh = (float(v) for v in svg.get("viewBox").split())
        out.append((float(svg.get("x")), float(svg.get("y")), float(svg.get("width")),
                    float(svg.get("height")), bw, bh))
    return out


def placed(image: Image.Image, scale: float, page_svg: str, k: int = 0) -> Placed:
    return Placed(image, scale, *placements(page_svg)[k])


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two glyph images, 0 to 255."""
    return sum(abs(p - q) for p, q in zip(a.tobytes(), b.tobytes())) / (a.width * a.height)
