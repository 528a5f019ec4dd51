"""Explained hints for the play page: the explainer's steps (``puzzle_engine.explain``) as
the page's ``{"square", "value", "text"}`` (``document.play_page``'s ``steps``).

Only a placement, "x = v", fills in a square, so only placements become hints, in the
explainer's order. An elimination, "x != v", fills in nothing: its line goes into the text
of the first placement whose reason uses it (directly, or through another elimination),
before the placement's own line, so that a hint shows the eliminations that lead up to
it. An elimination no placement uses is not shown. A puzzle that needs search gives the
placements up to there; past them the page gives its plain hint (the first square filled
in wrong, else the first empty one)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..explain import report
from ..explain.explainer import Explainer, Fact, Step


def page_steps(ex: Explainer, steps: Sequence[Step]) -> list[dict[str, Any]]:
    """The placements of ``steps``, each with the text of its reason and of the
    eliminations not shown yet that it rests on."""
    order = {step.fact: k for k, step in enumerate(steps)}
    eliminated = {step.fact: step for step in steps if not step.fact.equal}
    shown: set[Fact] = set()

    def leading(step: Step) -> list[Fact]:
        """The eliminations not shown yet that ``step`` rests on, through any chain."""
        found: list[Fact] = []
        todo = list(step.facts or ())
        while todo:
            fact = todo.pop()
            if fact in eliminated and fact not in shown:
                shown.add(fact)
                found.append(fact)
                todo += eliminated[fact].facts or ()
        return found

    out = []
    for step in steps:
        if not step.fact.equal:
            continue
        before = sorted(leading(step), key=order.__getitem__)
        lines = [report.step_text(ex, eliminated[fact]) for fact in before]
        out.append({"square": step.fact.square, "value": step.fact.value,
                    "text": "\n".join([*lines, report.step_text(ex, step)])})
    return out


def explained_steps(engine, ptype, params, instance,
                    seconds: float | None = None) -> list[dict[str, Any]]:
    """The page's steps of one puzzle (``[]`` when its type cannot be explained), from the
    explainer on ``engine`` (CP-SAT, as ``puzzle-engine explain`` runs). With ``seconds``,
    the explainer stops between rounds once that much time has gone: the page then has the
    placements found until then, and plain hints past them, as for a puzzle that needs
    search. It stops no sooner than its first placement, whatever the budget."""
    if not report.explainable(ptype):
        return []
    ex = report.explainer(engine, ptype, params, instance)
    result = ex.run(seconds=seconds)
    steps = list(result.steps)
    # Past the budget, one round more at a time until a placement: a page never holds no
    # step where the explainer can give one (a round of eliminations alone fills nothing).
    while seconds is not None and result.steps and not result.solved and \
            not any(step.fact.equal for step in steps):
        result = ex.run(seconds=0)
        steps += result.steps
    return page_steps(ex, steps)
