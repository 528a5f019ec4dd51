"""A type's drawing of one puzzle (``render_svg``), checked and parsed: an SVG element
with a size, ready to be placed on a sheet."""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

from .. import calls
from .svg import SVG_NS

_NUMBER = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"  #: SVG's number
_LENGTH = re.compile(rf"\s*({_NUMBER})\s*(?:px)?\s*")
_BOX = re.compile(rf"\s*({_NUMBER})(?:\s*,\s*|\s+)({_NUMBER})(?:\s*,\s*|\s+)"
                  rf"({_NUMBER})(?:\s*,\s*|\s+)({_NUMBER})\s*")


def _numbers(pattern: re.Pattern, value: str | None) -> list[float] | None:
    """The numbers of ``value`` when it matches ``pattern`` whole and each is finite."""
    match = pattern.fullmatch(value or "")
    if not match:
        return None
    numbers = [float(v) for v in match.groups()]
    return numbers if all(math.isfinite(v) for v in numbers) else None


def drawing(ptype, params, instance, solution=None) -> ET.Element | None:
    """The type's SVG of ``instance`` (with ``solution`` filled in, when given) as an
    ``<svg>`` element that has a ``viewBox``; ``None`` when the type draws nothing."""
    kwargs = {"params": params, "instance": instance}
    if solution is not None:
        kwargs["solution"] = solution
    text = calls.call(ptype, "render_svg", **kwargs)
    if text is None:
        return None
    if not isinstance(text, str):
        raise calls.bad_result("render_svg", ptype, text, "SVG text or None")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise calls.bad_result("render_svg", ptype, text, f"an SVG document ({exc})") from None
    if root.tag != f"{{{SVG_NS}}}svg":
        raise calls.bad_result("render_svg", ptype, text,
                               f"an <svg> document in the namespace {SVG_NS}")
    box = root.get("viewBox")
    if box is None:
        width, height = (_numbers(_LENGTH, root.get(key)) for key in ("width", "height"))
        if not width or not height or width[0] <= 0 or height[0] <= 0:
            raise calls.bad_result("render_svg", ptype, text, "an SVG with a viewBox, or a "
                                   "width and height in pixels")
        root.set("viewBox", f"0 0 {width[0]:g} {height[0]:g}")
    else:
        numbers = _numbers(_BOX, box)
        if not numbers or numbers[2] <= 0 or numbers[3] <= 0:
            raise calls.bad_result("render_svg", ptype, text, "an SVG with a viewBox of four "
                                   "finite numbers, a positive width and height")
    return root


def size(root: ET.Element) -> tuple[float, float]:
    """The width and height of a drawing's ``viewBox``."""
    *_, width, height = (float(v) for v in root.get("viewBox").replace(",", " ").split())
    return width, height


_FONT_SIZE = re.compile(r"(?:^|;)\s*font-size\s*:\s*([^;]+)")


def _font_size(element: ET.Element, inherited: float) -> float:
    """The font size of ``element`` in its drawing's units: its ``font-size`` (attribute
    or style, in pixels; a percentage or ``em`` of the inherited size), else the one it
    inherits."""
    value = element.get("font-size")
    style = _FONT_SIZE.search(element.get("style") or "")
    if style:
        value = style.group(1)
    if not value:
        return inherited
    value = value.strip()
    try:
        if value.endswith("%"):
            return inherited * float(value[:-1]) / 100
        if value.endswith("em"):
            return inherited * float(value[:-2])
        if value.endswith("pt"):
            return float(value[:-2]) * 96 / 72
        return float(value.removesuffix("px"))
    except ValueError:
        return inherited


def smallest_text(root: ET.Element) -> float | None:
    """The smallest font size of the text a drawing shows, in its own units (SVG's
    default is 16), or None when it shows no text."""
    found: list[float] = []

    def walk(element: ET.Element, inherited: float) -> None:
        own = _font_size(element, inherited)
        tag = element.tag.rsplit("}", 1)[-1]
        if tag in ("text", "tspan", "textPath") and (element.text or "").strip():
            found.append(own)
        if tag in ("title", "desc", "metadata", "style", "script", "defs"):
            return
        for child in element:
            walk(child, own)

    walk(root, 16.0)
    return min(found) if found else None
