"""A logic puzzle as a picture and as a canonical form.

``svg``: the problem text, wrapped, and its options, laid out as SVG text (the answer
key is marked when asked). ``canonical``: the spec, the problem text and the answer;
two records are the same puzzle exactly when these agree (the options' order is part of
the puzzle the player sees, so no symmetry is factored out)."""
from __future__ import annotations

import textwrap
from xml.sax.saxutils import escape

LINE = 20     #: line height, px
WIDTH = 72    #: characters per line


def canonical(instance) -> dict:
    return {"spec": instance.config.get("spec"), "problem": instance.problem,
            "answer": instance.key}


def svg(instance, with_answer: bool) -> str:
    lines: list[tuple[str, bool]] = []
    for paragraph in instance.problem.split("\n"):
        wrapped = textwrap.wrap(paragraph, WIDTH) or [""]
        is_key = with_answer and len(instance.key) == 1 and paragraph.startswith(f"{instance.key}. ")
        lines.extend((w, is_key) for w in wrapped)
    if with_answer:
        lines.append(("", False))
        lines.extend((w, True) for w in textwrap.wrap(f"Answer: {instance.key}", WIDTH))
    height = LINE * (len(lines) + 1)
    width = WIDTH * 8 + 40
    body = []
    for i, (text, bold) in enumerate(lines, 1):
        weight = ' font-weight="bold"' if bold else ""
        body.append(f'<text x="20" y="{i * LINE}"{weight}>{escape(text)}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="14">'
            f'<rect width="100%" height="100%" fill="white"/>{"".join(body)}</svg>')
