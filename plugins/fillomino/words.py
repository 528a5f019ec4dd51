"""Fillomino's steps in a player's words (``Explanation.technique_name`` and
``step_words``): its own names for the classes of step the explainer and the step rating
know (docs/grading.md, "Techniques"), and a sentence for each, in regions. A group is a
cell's rules (its region, its size, its links to its neighbours), named after the region
("the region of 4 at r2c5", "the region at r3c1")."""
from __future__ import annotations

from puzzle_engine import ExplainedStep

NAMES = {
    "elimination": "Elimination",
    "full house": "Region must grow",
    "hidden single": "Only one way to grow",
    "naked single": "Only one number left",
    "intersection": "Region complete", "direct intersection": "Region complete",
    "naked subset": "Numbers left",
    "hidden subset": "Only room", "direct hidden subset": "Only room",
    "fish": "Not enough room",
    "chain": "Regions in a chain",
    "deduction": "Deduction",
}


def technique_name(technique: str) -> str | None:
    return NAMES.get(technique)


def _and(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _regions(groups, x: str) -> str:
    return _and(groups) if len(groups) <= 4 else f"the {len(groups)} regions around {x}"


def step_words(step: ExplainedStep) -> str | None:
    t, f = step.technique, step.fact
    name = NAMES.get(t)
    if name is None:
        return None
    x, v = f.square, f.value
    done = f"{x} is {v}" if f.equal else f"{x} can't be {v}"
    own = step.house is not None and step.house.endswith(f" at {x}")
    if t in ("full house", "hidden single") and step.house:
        if own:
            return f"{name}: the regions next to {x} leave it only {v}"
        return f"{name}: {step.house} can only grow into {x}, so {done}"
    if t == "naked single" and f.equal:
        why = f" ({_regions(step.via, x)} rule out the rest)" if step.via else ""
        return f"{name}: {x} can only be {v}{why}"
    if t in ("intersection", "direct intersection") and step.house and not f.equal:
        # (the region it would join: not the square's own, when the engine picked that)
        other = [g for g in step.groups if not g.endswith(f" at {x}")]
        joined = step.house if not own or not other else other[0]
        return (f"{name}: if {x} were {v} it would join {joined}, which has no room "
                f"for it, so {done}")
    if t == "elimination" and step.house:
        return f"{name}: {step.house} rules out {v} for {x}"
    if step.groups:
        return f"{name}: looking at {_regions(step.groups, x)}, {done}"
    return None
