"""Explained hints for the play page: the explainer's steps (``puzzle_engine.explain``) as
the page's ``{"square", "value", "text"}`` (``document.play_page``'s ``steps``).

Only a placement, "x = v", fills in a square, so only placements become hints, in the
explainer's order, each with its sentence as ``explain`` says it
(``puzzle_engine.explain.words``). An elimination, "x != v", fills in nothing: a plain
one is folded into the sentence of the step that uses it; another (a pair, a pointing
value) has a sentence of its own, which goes into the text of the first placement whose
reason uses it (directly, or through another elimination), before the placement's own
sentence. An elimination no placement uses is not shown. A puzzle that needs search gives
the placements up to there; past them the page gives its plain hint (the first square
filled in wrong, else the first empty one)."""
from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from typing import Any

from ..explain import report, words
from ..explain.explainer import Explainer, Fact, Step


def page_steps(ex: Explainer, steps: Sequence[Step],
               unexplained: Collection[Step] = ()) -> list[dict[str, Any]]:
    """The placements of ``steps``, each with its sentence (``explain``'s words), after
    the sentences not shown yet of the steps it rests on; those of ``unexplained`` (placed
    from the solution, past the budget) with no text: the page gives its plain hint for
    them."""
    said, _ = words.said_steps(ex, steps, words.Words(ex.ptype, ex.params))
    sentence = {k: s for s in said for k in s.indices()}
    eliminated = {step.fact: step for step in steps if not step.fact.equal}
    order = {step.fact: k for k, step in enumerate(steps)}
    shown: set[int] = set()

    def leading(step: Step) -> list[words.Said]:
        """The sentences not shown yet of the eliminations ``step`` rests on, through any
        chain (a plain elimination is folded into the sentence that uses it)."""
        found: list[words.Said] = []
        todo, seen = list(step.facts or ()), set()
        while todo:
            fact = todo.pop()
            if fact in eliminated and fact not in seen:
                seen.add(fact)
                s = sentence.get(order[fact])
                if s is not None and not steps[s.index].fact.equal and s.index not in shown:
                    shown.add(s.index)
                    found.append(s)
                todo += eliminated[fact].facts or ()
        return found

    out = []
    for s in said:
        step = steps[s.index]
        if not step.fact.equal:
            continue
        if step in unexplained:
            out.append({"square": step.fact.square, "value": step.fact.value, "text": ""})
            continue
        before = sorted(leading(step), key=lambda t: t.index)
        out.append({"square": step.fact.square, "value": step.fact.value,
                    "text": "\n".join([*(t.text for t in before), s.text])})
    return out


def explained_steps(engine, ptype, params, instance,
                    seconds: float | None = None) -> list[dict[str, Any]]:
    """The page's steps of one puzzle (``[]`` when its type cannot be explained), from the
    explainer on ``engine`` (CP-SAT, as ``puzzle-engine explain`` runs).

    With ``seconds``, a budget of CPU time (the same page on any machine load), the
    explainer stops between rounds once that much has gone, though not before its first
    round. Past the budget, it goes on cheaply, as a player goes on past a plain hint:
    rounds of reasons of one group only, and where they find nothing, the solution's
    value of a square with the fewest values left, placed without a reason (the page
    gives its plain hint for it), until the board is full. So a hard puzzle's costly
    rounds are skipped, not the many easy steps after them, and a page never holds no
    step where the explainer can give one."""
    if not report.explainable(ptype):
        return []
    ex = report.explainer(engine, ptype, params, instance)
    clock = time.process_time
    result = ex.run(seconds=seconds, clock=clock)  # at least its first round
    steps = list(result.steps)
    placed: list[Step] = []
    if seconds is not None and not result.solved and (result.stuck or "").startswith("stopped"):
        ex.max_size = 1
        while True:
            result = ex.run()
            steps += result.steps
            left = [x for x, values in enumerate(ex.domains) if len(values) > 1]
            if result.solved or not left:
                break
            x = min(left, key=lambda x: (len(ex.domains[x]), x))
            step = Step(Fact(x, ex.solution[x], True), (), (), None)
            ex.apply(step)
            placed.append(step)
            steps.append(step)
    return page_steps(ex, steps, placed)
