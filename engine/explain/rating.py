"""A difficulty rating from a puzzle's steps.

Two kinds of features. From the explainer's path (fewest groups first): the largest and
the mean reason size along the path, the mean size of the steps that fill a square, the
number of steps, and how many steps needed reasons above each size in ``ABOVE``. From the
rating's own path (``ladder``: cheapest technique first, each step classed by the groups
and the facts its reason needs): ``effort_max``, the cost of the hardest technique the
puzzle needs, ``effort_mean`` and ``effort_hard``. ``score`` is the step rating: the
hardest technique's cost (the largest reason size, plus the share of steps above one
group, when only the explainer's path is known). The grader adds the features to its own
(``grade --steps``); ``explain`` prints them."""
from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

from .explainer import Explainer, Explanation, Step
from .ladder import Ladder, classes, rate
from .report import explainer

#: Sizes for the counts "steps whose reason has more than k groups".
ABOVE = (0, 1, 2, 3, 5)


def step_features(steps: Sequence[Step], solved: bool = True, ladder: Ladder | None = None
                  ) -> dict[str, float]:
    """The rating features of a path (``solved``: whether it reached the end; a path that
    needs search is rated as if its next step were one size above its largest), and of
    ``ladder``, the rating's path, when given."""
    sizes = [s.size for s in steps] or [0]
    fills = [s.size for s in steps if s.fact.equal] or [0]
    largest = max(sizes) + (0 if solved else 1)
    feats = {"step_max_size": float(largest), "step_mean_size": statistics.fmean(sizes),
             "step_mean_fill_size": statistics.fmean(fills), "step_count": float(len(steps))}
    for k in ABOVE:
        feats[f"steps_above_{k}"] = float(sum(1 for s in sizes if s > k))
    return {**feats, **(ladder.features() if ladder is not None else {})}


def rated_path(ex: Explainer, reasons: bool = False, ceiling: float | None = None, **run
               ) -> tuple[Explanation, dict[str, float]]:
    """Run ``ex`` (``Explainer.run``) and rate its puzzle: the explanation, and its
    features with the rating's path's (made first, from the same state; none when the
    type's rules are one group, ``ladder.classes``). ``ceiling``: the rating's path stops
    once its next step would cost more (``ladder.rate``)."""
    ladder = rate(ex, ceiling) if classes(ex) else None
    result = ex.run(reasons=reasons, **run)
    return result, step_features(result.steps, result.solved, ladder)


def effort(ex: Explainer, ceiling: float | None = None) -> dict[str, float]:
    """The rating's path's features alone (``effort_*``; ``score`` of them is the step
    rating), without the explainer's own path: what rating a puzzle to a band needs, and
    all that the candidate path of an "each value exactly once" type costs (``ladder``).
    ``ceiling``: stop once the next step would cost more (``effort_max`` is then that
    step's cost, above the ceiling). Empty when the type's rules are one group."""
    return rate(ex, ceiling).features() if classes(ex) else {}


def step_rater(engine, ptype, params) -> Callable[[Any], dict[str, float]]:
    """The step rating's features of an instance of ``ptype`` (what a grader adds for
    ``grade --steps``, given as its ``rate_steps``): the explainer runs in this process on
    CP-SAT, whatever ``engine``'s solver (``engine.on``)."""
    def rate_steps(instance) -> dict[str, float]:
        return rated_path(explainer(engine.on("cp-sat"), ptype, params, instance))[1]
    return rate_steps


def score(features: dict[str, float]) -> float:
    """The step rating: ``effort_max`` when the rating's path is known; else the largest
    reason size, plus the share of steps that needed more than one group (between 0 and
    1), so that the hardest step decides and the path breaks ties."""
    if "effort_max" in features:
        return round(features["effort_max"], 4)
    share = features["steps_above_1"] / max(features["step_count"], 1.0)
    return round(features["step_max_size"] + share, 4)
