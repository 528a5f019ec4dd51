"""A type's drawing of one puzzle (``render_svg``), checked and parsed: an SVG element
with a size, ready to be placed on a sheet."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from .. import calls
from .svg import SVG_NS

_LENGTH = re.compile(r"^\s*([0-9.]+)\s*(px)?\s*$")


def _length(value: str | None) -> float | None:
    match = _LENGTH.match(value or "")
    return float(match.group(1)) if match else None


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
        width, height = _length(root.get("width")), _length(root.get("height"))
        if not width or not height:
            raise calls.bad_result("render_svg", ptype, text, "an SVG with a viewBox, or a "
                                   "width and height in pixels")
        root.set("viewBox", f"0 0 {width:g} {height:g}")
    else:
        try:
            *_, width, height = (float(v) for v in box.replace(",", " ").split())
        except ValueError:
            width = height = 0
        if width <= 0 or height <= 0:
            raise calls.bad_result("render_svg", ptype, text, "an SVG with a sound viewBox")
    return root


def size(root: ET.Element) -> tuple[float, float]:
    """The width and height of a drawing's ``viewBox``."""
    *_, width, height = (float(v) for v in root.get("viewBox").replace(",", " ").split())
    return width, height
