"""What a solver answers: a whole solve's ``SolveResult`` and a session's ``Run``, with
MiniZinc's statuses and the FlatZinc output conventions every back end shares."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..types import Board, Status

STATUS = {"SATISFIED": Status.SAT, "ALL_SOLUTIONS": Status.ALL,
          "OPTIMAL_SOLUTION": Status.OPTIMAL, "UNSATISFIABLE": Status.UNSAT,
          "UNKNOWN": Status.UNKNOWN}
GOALS = ("satisfy", "maximize", "minimize")
#: The FlatZinc output lines that say a search finished (all solutions, or none).
MARKERS = ("==========", "=====UNSATISFIABLE=====")


@dataclass(frozen=True)
class SolveResult:
    """A whole solve: its ``Status``, the statistics, and for an optimisation model the
    best objective value found (``objective``)."""

    status: Status
    stats: Mapping[str, Any] = field(default_factory=dict)
    objective: Any = None

    @property
    def complete(self) -> bool:
        """The search finished: every solution, the proven optimum, or none."""
        return self.status in (Status.ALL, Status.OPTIMAL, Status.UNSAT)


@dataclass(frozen=True)
class Run:
    """One run of a compiled model: solutions found (up to the limit), whether that count
    is definite (False on a time-out), the solver's statistics (``nodes``, ``failures``,
    ``propagations``, ``peakDepth``... as numbers) and the first solution's board."""

    found: int
    complete: bool
    stats: Mapping[str, float]
    first: Board | None = None
    stage: int | None = None  # with ``stages``: the least stage with a solution (None: none)
    every: tuple[Board, ...] = ()  # with ``every``: each solution's decision array


def read_stats(stdout: str) -> dict[str, float]:
    stats = {}
    for line in stdout.splitlines():
        if line.startswith("%%%mzn-stat:") and "=" in line:
            key, _, value = line[12:].strip().partition("=")
            try:
                stats[key] = float(value)
            except ValueError:
                pass
    return stats
