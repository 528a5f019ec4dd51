"""One seed's work, wherever it runs: generate the puzzle, grade it when a level is wanted,
and with ``entries`` turn it into store entries (canonical keys included), so that the
process that writes the store only inserts.

A ``Job`` is plain data (picklable, for worker processes and Dask workers alike): the
puzzle type's name, its params and strategy options, the solver settings the command
resolved, and the level model to grade with. ``prepare`` makes what the job runs on (the
engine, from the factory, the type and the judge); ``run(job, seed)``, the function a
worker is sent, prepares once per process and thread and reuses it for every later seed,
so a worker's puzzle for a seed is the one the command itself would make.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..difficulty import DIFFICULTY, make_judge
from ..errors import NothingFound
from ..explain.band import Band, rating_note, rating_of
from ..plugins import get_host
from ..record import grade_note, stored_grade
from ..store.entries import Entry, entries_of
from ..strategies import GenResult
from .factory import SolverSettings

_local = threading.local()


@dataclass(frozen=True)
class Grading:
    """Grade every puzzle with a level model: ``level`` keeps only puzzles of that level
    (None: keep all, with their level); ``model`` None is the plugin's own. Without
    ``every``, no puzzle is graded: the model serves as the complexity function
    ``difficulty`` only."""

    level: str | None
    model: Path | None
    which: str
    solver: SolverSettings  # the engine the model grades on
    every: bool = True


@dataclass(frozen=True)
class Job:
    puzzle: str
    params: dict[str, Any] = field(hash=False)
    options: Any = field(hash=False)
    solver: SolverSettings
    grading: Grading | None = None
    bins: bool = False
    entries: bool = False  # make store entries (a store takes the results)
    rating: Band | None = None  # keep only puzzles whose step rating is in this band


@dataclass
class SeedResult:
    """What one seed gave: the puzzle (None when it missed the level or the rating band,
    or when the strategy gave up: ``skipped`` says why), its grade note, its store entries
    (with ``Job.entries``), and warnings for the command to print."""

    seed: int
    result: GenResult | None
    grade: dict[str, Any] | None = None
    entries: list[Entry] = field(default_factory=list)
    off_level: bool = False
    warnings: list[str] = field(default_factory=list)
    off_band: bool = False
    skipped: str | None = None  # the strategy's NothingFound: this seed made no puzzle


class Prepared:
    """What a job runs on: the engine, the puzzle type and the judge (or None)."""

    def __init__(self, job: Job, host=None):
        host = get_host() if host is None else host
        self.ptype = host.get_type(job.puzzle)
        self.engine = job.solver.engine(host)
        self.judge = None
        if job.grading is not None:
            g = job.grading
            self.judge = make_judge(self.ptype, job.params, g.model, g.which,
                                    lambda name: g.solver.engine(host))
            if getattr(job.options, "complexity", None) == DIFFICULTY:
                host.complexities[DIFFICULTY] = self.judge.complexity()

    def close(self) -> None:
        if self.judge is not None:
            self.judge.close()
            self.judge = None


def _prepared(job: Job) -> Prepared:
    """This thread's ``Prepared`` for ``job``, made on first use."""
    cached = getattr(_local, "job", None)
    if cached is not None and cached[0] == job:
        return cached[1]
    if cached is not None:
        cached[1].close()
    prepared = Prepared(job)
    _local.job = (job, prepared)
    return prepared


def run(job: Job, seed: int) -> SeedResult:
    """The work of ``seed`` in this thread's engine for ``job`` (``work``)."""
    return work(_prepared(job), job, seed)


def timeout_warning(puzzle) -> str | None:
    """What to say when checks of ``puzzle`` timed out: its record says ``minimal:
    false`` and counts them in ``unknown``."""
    if not puzzle.unknown:
        return None
    what = (f"{puzzle.unknown} check{'s' * (puzzle.unknown != 1)} of the puzzle with seed "
            f"{puzzle.seed} timed out")
    if puzzle.instance == puzzle.solution:  # nothing could be removed
        what = f"every check of the puzzle with seed {puzzle.seed} timed out ({puzzle.unknown})"
    return f"{what}; it keeps those squares and is not minimal (raise --time-limit)"


def work(prepared: Prepared, job: Job, seed: int) -> SeedResult:
    """The puzzle of ``seed``, graded (and dropped when it misses the level), rated (and
    dropped when it misses the band), and with ``job.entries`` made into store entries. A
    seed whose strategy gives up (``NothingFound``) is a result without a puzzle."""
    try:
        result = prepared.engine.generate(prepared.ptype, job.params, seed, job.options)
    except NothingFound as exc:
        return SeedResult(seed, None, skipped=str(exc))
    warning = timeout_warning(result.puzzle)
    warnings = [warning] if warning else []
    note = None
    if prepared.judge is not None and job.grading.every:
        g, level, levels = prepared.judge.grade(result.puzzle.instance)
        note = grade_note(prepared.judge, g, level, levels)
        if job.grading.level is not None and level != job.grading.level:
            return SeedResult(seed, None, note, off_level=True, warnings=warnings)
    if job.rating is not None:
        result = rated(prepared, job, result)
        if result is None:
            return SeedResult(seed, None, note, off_band=True, warnings=warnings)
    entries = entries_of(prepared.ptype, result, note and stored_grade(note), job.bins) \
        if job.entries else []
    return SeedResult(seed, result, note, entries, warnings=warnings)


def rated(prepared: Prepared, job: Job, result: GenResult) -> GenResult | None:
    """``result`` with the puzzles whose step rating is in ``job.rating``, each (and its
    variants, which are the same puzzle transformed) noting its ``rating``; None when
    none is. A growing strategy's kept levels are rated one by one, the puzzle being the
    last in the band; the rating stops early above the band (``rating_of``'s ceiling)."""
    band = job.rating

    def note(puzzle) -> dict[str, Any] | None:
        score = rating_of(prepared.engine, prepared.ptype, job.params, puzzle.instance,
                          ceiling=band.high)
        return rating_note(score, band) if score in band else None

    if result.kept:
        kept = []
        for puzzle in result.kept:
            found = note(puzzle)
            if found is not None:
                puzzle.extra = {**puzzle.extra, "rating": found}
                kept.append(puzzle)
        if not kept:
            return None
        return GenResult(kept[-1], [], result.compl_dict, kept=kept)
    found = note(result.puzzle)
    if found is None:
        return None
    for puzzle in (result.puzzle, *result.variants):
        puzzle.extra = {**puzzle.extra, "rating": found}
    return result
