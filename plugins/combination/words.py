"""Combination's steps in a player's words (``Explanation.technique_name`` and
``step_words``): its own names for the classes of step the explainer and the step rating
know (docs/grading.md, "Techniques"), and a sentence for each. A fact is a piece on a
square ("rook a") or nothing ("empty"); a group is a line between walls, a piece type's
count, or the order of two colours with the same pieces."""
from __future__ import annotations

from puzzle_engine import ExplainedStep, StepFact

NAMES = {
    "elimination": "Elimination",
    "full house": "All placed",
    "hidden single": "Only square left",
    "naked single": "Only choice left",
    "intersection": "Crossing rules", "direct intersection": "Crossing rules",
    "naked subset": "Squares taken",
    "hidden subset": "Pieces cornered", "direct hidden subset": "Pieces cornered",
    "fish": "Counting pieces",
    "chain": "Looking ahead",
    "deduction": "Deduction",
}


def technique_name(technique: str) -> str | None:
    return NAMES.get(technique)


def _and(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def fact_words(f: StepFact) -> str:
    if f.value == "empty":
        return f"{f.square} stays empty" if f.equal else f"{f.square} holds a piece"
    return f"{f.square} holds {f.value}" if f.equal else f"{f.square} cannot hold {f.value}"


def step_words(step: ExplainedStep) -> str | None:
    t, f = step.technique, step.fact
    name = NAMES.get(t)
    if name is None:
        return None
    done = _and([fact_words(g) for g in (f, *step.also)])
    if t == "hidden single" and step.house and f.equal:
        return f"{name}: by {step.house}, {f.square} is the only square left for {f.value}"
    if t == "naked single" and f.equal:
        why = f" ({_and(step.via)} rule out the rest)" if step.via else ""
        return f"{name}: nothing else fits on {f.square}, so {done}{why}"
    if step.groups:
        return f"{name}: by {_and(step.groups)}, {done}"
    return None
