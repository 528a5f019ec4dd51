"""A difficulty rating from a puzzle's steps: how large their reasons are (in groups).

The features: the largest and the mean reason size along the path, the mean size of the
steps that fill a square, the number of steps, and how many steps needed reasons above
each size in ``ABOVE``. ``score`` folds them into one number that orders puzzles by their
hardest step first, then by how much of the path is that hard. The grader adds the
features to its own (``grade --steps``); ``explain`` prints them."""
from __future__ import annotations

import statistics
from collections.abc import Sequence

from .explainer import Step

#: Sizes for the counts "steps whose reason has more than k groups".
ABOVE = (0, 1, 2, 3, 5)


def step_features(steps: Sequence[Step], solved: bool = True) -> dict[str, float]:
    """The rating features of a path (``solved``: whether it reached the end; a path that
    needs search is rated as if its next step were one size above its largest)."""
    sizes = [s.size for s in steps] or [0]
    fills = [s.size for s in steps if s.fact.equal] or [0]
    largest = max(sizes) + (0 if solved else 1)
    feats = {"step_max_size": float(largest), "step_mean_size": statistics.fmean(sizes),
             "step_mean_fill_size": statistics.fmean(fills), "step_count": float(len(steps))}
    for k in ABOVE:
        feats[f"steps_above_{k}"] = float(sum(1 for s in sizes if s > k))
    return feats


def score(features: dict[str, float]) -> float:
    """One number: the largest reason size, plus the share of steps that needed more than
    one group (between 0 and 1), so that the hardest step decides and the path breaks ties."""
    share = features["steps_above_1"] / max(features["step_count"], 1.0)
    return round(features["step_max_size"] + share, 4)
