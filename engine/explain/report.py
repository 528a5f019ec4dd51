"""Explanations for people and programs: a step as a line of text or a JSON object, and
``next_step``, the one call a hint button needs."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..types import ExplainedStep
from . import words
from .board import explainable, refusal
from .explainer import Explainer, Explanation, Fact, Step

__all__ = ["check_explainable", "explainable", "explainer", "explanation_json", "fact_json",
           "fact_text", "next_step", "step_json", "step_text"]


def check_explainable(ptype) -> None:
    """Refuse, with one line, a type the explainer cannot take (``explainable``)."""
    if not explainable(ptype):
        raise refusal(ptype)


def explainer(engine, ptype, params, instance, **options) -> Explainer:
    """An ``Explainer`` of one puzzle (of a type ``check_explainable`` accepts)."""
    check_explainable(ptype)
    return Explainer(engine, ptype, params, instance, **options)


def next_step(engine, ptype, params, instance, **options) -> tuple[Step | None, Explainer]:
    """The next step of ``instance`` (with its reason), or ``None`` when it is solved or
    needs search (``Explainer``'s last ``Explanation.stuck`` says which)."""
    ex = explainer(engine, ptype, params, instance, **options)
    result = ex.run(limit=1)
    return (result.steps[0] if result.steps else None), ex


def fact_text(ex: Explainer, fact: Fact) -> str:
    relation = "=" if fact.equal else "!="
    return f"{ex.square_name(fact.square)} {relation} {ex.value_name(fact.value)}"


def step_text(ex: Explainer, step: Step) -> str:
    """``r1c2 != 3  (size 1: row 1; r1c1 = 3)``."""
    parts = []
    if step.names:
        parts.append(", ".join(step.names))
    if step.facts:
        parts.append(", ".join(fact_text(ex, f) for f in step.facts))
    why = "; ".join(parts) or "nothing else"
    if not step.names:
        why = f"no other value is left: {why}"
    return f"{fact_text(ex, step.fact)}  (size {step.size}: {why})"


def fact_json(ex: Explainer, fact: Fact) -> dict[str, Any]:
    return {"square": fact.square, "name": ex.square_name(fact.square),
            "relation": "=" if fact.equal else "!=", "value": fact.value,
            "value_name": ex.value_name(fact.value)}


def step_json(ex: Explainer, step: Step) -> dict[str, Any]:
    """A step as plain JSON: the deduction, its size, the groups and facts of its reason."""
    return {**fact_json(ex, step.fact), "size": step.size, "groups": list(step.names),
            "facts": None if step.facts is None else [fact_json(ex, f) for f in step.facts]}


def explanation_json(ex: Explainer, result: Explanation,
                     said: Sequence[words.Said] | None = None,
                     classed: Sequence[ExplainedStep] | None = None) -> dict[str, Any]:
    """The explanation as JSON; with the shown steps (``words.said_steps``), each step also
    has its ``technique``, the ``text`` of the sentence that says it (or of the step it is
    folded into; ``null`` for an elimination no step uses) and ``said``, that sentence's
    number from 1."""
    steps = [step_json(ex, s) for s in result.steps]
    if said is not None and classed is not None:
        for k, record in enumerate(steps):
            record.update(technique=classed[k].technique, text=None, said=None)
        for number, s in enumerate(said, 1):
            for k in s.indices():
                steps[k].update(text=s.text, said=number)
    return {"steps": steps, "solved": result.solved, "needs_search": result.stuck,
            "checks": result.checks}
