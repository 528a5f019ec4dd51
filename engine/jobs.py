"""One seed's work in a batch (``puzzle-engine batch``), wherever it runs: generate the
puzzle, grade it when a level is wanted, and turn it into store entries (canonical keys
included), so that the process that writes the store only inserts.

A ``Job`` is plain data (picklable, for worker processes and Dask workers alike): the
puzzle type's name, its params and strategy options, the solver settings the command
resolved, and the level model to grade with. ``run(job, seed)`` builds the engine (and
the judge) once per process and thread, and reuses them for every later seed of the job,
so a worker's puzzle for a seed is the one the command itself would make.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .difficulty import DIFFICULTY, make_judge
from .engine import Engine
from .plugins import get_host
from .solving.backend import Backend
from .store.entries import Entry, entries_of

_local = threading.local()


@dataclass(frozen=True)
class SolverSettings:
    """A backend as the command resolved it."""

    solver: str
    time_limit: float | None
    free_search: bool
    check_flags: tuple[str, ...]

    @classmethod
    def of(cls, backend) -> "SolverSettings":
        return cls(backend.info.id, backend.time_limit, backend.free_search,
                   tuple(backend.check_flags))

    def backend(self):
        return Backend(self.solver, self.time_limit, free_search=self.free_search,
                       check_flags=self.check_flags)


@dataclass(frozen=True)
class Grading:
    """Grade every puzzle with a level model: ``level`` keeps only puzzles of that level
    (None: keep all, with their level); ``model`` None is the plugin's own."""

    level: str | None
    model: Path | None
    which: str
    solver: SolverSettings  # the engine the model grades on


@dataclass(frozen=True)
class Job:
    puzzle: str
    params: dict[str, Any] = field(hash=False)
    options: Any = field(hash=False)
    solver: SolverSettings
    grading: Grading | None = None
    bins: bool = False


@dataclass
class SeedResult:
    """What one seed gave: store entries (none when its puzzle missed the level), and
    warnings for the command to print."""

    seed: int
    entries: list[Entry]
    off_level: bool = False
    warnings: list[str] = field(default_factory=list)


def _state(job: Job):
    """This thread's engine, puzzle type and judge for ``job``, built on first use."""
    cached = getattr(_local, "job", None)
    if cached is not None and cached[0] == job:
        return cached[1]
    if cached is not None and cached[1][2] is not None:
        cached[1][2].close()
    host = get_host()
    ptype = host.get_type(job.puzzle)
    engine = Engine(host, job.solver.backend())
    judge = None
    if job.grading is not None:
        g = job.grading
        judge = make_judge(ptype, job.params, g.model, g.which,
                           lambda name: Engine(host, g.solver.backend()))
        if getattr(job.options, "complexity", None) == DIFFICULTY:
            host.complexities[DIFFICULTY] = judge.complexity()
    state = (engine, ptype, judge)
    _local.job = (job, state)
    return state


def grade_note(judge, instance) -> dict[str, Any]:
    """A puzzle's grade as the store keeps it."""
    g, level, levels = judge.grade(instance)
    return {"level": level, "grader": judge.which, "model_sha256": judge.digest,
            "mean_nodes": round(g.mean_nodes, 4), "mode": g.mode,
            "probabilities": levels["probabilities"]}


def run(job: Job, seed: int) -> SeedResult:
    """The puzzle of ``seed``, graded and made into store entries."""
    engine, ptype, judge = _state(job)
    result = engine.generate(ptype, job.params, seed, job.options)
    warnings = []
    if result.puzzle.unknown:
        warnings.append(f"{result.puzzle.unknown} check(s) of the puzzle with seed {seed} "
                        "timed out; it keeps those squares and is not minimal (raise "
                        "--time-limit)")
    grade = None
    if judge is not None:
        grade = grade_note(judge, result.puzzle.instance)
        if job.grading.level is not None and grade["level"] != job.grading.level:
            return SeedResult(seed, [], off_level=True, warnings=warnings)
    return SeedResult(seed, entries_of(ptype, result, grade, job.bins), warnings=warnings)
