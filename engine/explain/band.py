"""Puzzles made to a rating (``gen --rating LO-HI``, ``batch --rating``): a band of the
step rating's scale (``rating.score``, Sukaku Explainer's scale), read from the command
line, and a puzzle rated against it, the rating cut short once a step above the band's
top is needed (``ladder.rate``'s ceiling: the puzzle is off the band, whatever follows).

The rating is the one ``explain`` prints for the whole path; it is separate from the
levels of a level model (``--difficulty``), which keep their own meaning.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..errors import PuzzleInputError
from .board import explainable
from .ladder import classes, rate
from .rating import score, step_features
from .report import explainer

#: The step rating's scale: 0 (nothing to deduce) to Sukaku Explainer's top, about 11.9.
SCALE = (0.0, 12.0)


@dataclass(frozen=True)
class Band:
    """The ratings from ``low`` to ``high``, both included."""

    low: float
    high: float

    def __contains__(self, rating: float) -> bool:
        return self.low - 1e-9 <= rating <= self.high + 1e-9

    def text(self) -> str:
        return f"{self.low:g}-{self.high:g}"


def parse_band(text: str, option: str = "--rating") -> Band:
    """``LO-HI`` (``6.0-7.5``) as a band of the scale, or a one-line error naming
    ``option``."""
    low, dash, high = str(text).strip().partition("-")
    why = f"expected LO-HI, two ratings from {SCALE[0]:g} to {SCALE[1]:g}, e.g. 6.0-7.5"
    try:
        if not dash:
            raise ValueError
        band = Band(float(low), float(high))
    except ValueError:
        raise PuzzleInputError(f"bad {option} '{text}': {why}") from None
    for v in (band.low, band.high):
        if not (math.isfinite(v) and SCALE[0] <= v <= SCALE[1]):
            raise PuzzleInputError(f"bad {option} '{text}': {v:g} is outside the step "
                                   f"rating's scale, {SCALE[0]:g} to {SCALE[1]:g}")
    if band.low > band.high:
        raise PuzzleInputError(f"bad {option} '{text}': the low end {band.low:g} is above "
                               f"the high end {band.high:g}")
    return band


def check_ratable(ptype) -> None:
    """Refuse, in one line naming the type, a type whose puzzles the step rating cannot
    rate (the explainer cannot take them: ``board.explainable``)."""
    if not explainable(ptype):
        raise PuzzleInputError(f"--rating: puzzle '{ptype.name}' has no step rating (its "
                               "plugin offers no explanation board the explainer can rate)")


def rating_of(engine, ptype, params, instance, ceiling: float | None = None) -> float:
    """The step rating of ``instance`` (``explain``'s for the whole path), on CP-SAT
    whatever ``engine``'s solver; with ``ceiling``, a rating above it may be cut short
    (it is then above the ceiling, not exact)."""
    ex = explainer(engine.on("cp-sat"), ptype, params, instance)
    if classes(ex):
        return score(rate(ex, ceiling).features())
    result = ex.run()
    return score(step_features(result.steps, result.solved))


def rating_note(rating: float, band: Band, next_seed: int | None = None) -> dict[str, Any]:
    """A puzzle's rating as its record carries it (``rating``): the score, the band asked
    for and, in a run, the next seed to try (where ``--resume`` goes on)."""
    note: dict[str, Any] = {"score": rating, "band": [band.low, band.high]}
    if next_seed is not None:
        note["next_seed"] = next_seed
    return note
