"""A run: a job for seed after seed on an executor, each result to a sink, until the sink
holds the count asked for or the seeds run out; the one loop of ``gen`` and ``batch``.

The results come back in seed order from any executor, so the output is the same on one
process, a local pool or a Dask cluster, and an interrupt keeps every result the sink took
before it. A seed without a puzzle (it missed the level or the rating band asked for, or
its strategy gave up: ``SeedResult.skipped``) is passed to the sink too, which records
it; too many of them in a row (``misses``) end the run with the error ``missed`` makes.
The run's ``Tally`` counts them, for the command's summary. The progress bar, if any,
shows what the sink holds after each seed.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..errors import PuzzleEngineError
from .job import Job
from .progress import Bar
from .sinks import Sink


@dataclass
class Tally:
    """A run's seeds: tried, and of them without a puzzle: off the level, off the band,
    skipped (the strategy found nothing)."""

    tried: int = 0
    off_level: int = 0
    off_band: int = 0
    skipped: int = 0
    first: int | None = None  # the first and last seed tried
    last: int | None = None
    seconds: float = 0.0      # the run's wall time

    @property
    def kept(self) -> int:
        """The seeds that gave a puzzle."""
        return self.tried - self.off_level - self.off_band - self.skipped

    def words(self) -> list[str]:
        return [f"{what} {n}" for what, n in (("skipped", self.skipped),
                                              ("off level", self.off_level),
                                              ("off band", self.off_band)) if n]


def run(job: Job, seeds: Iterable[int], executor, sink: Sink, count: int, *,
        misses: int | None = None,
        missed: Callable[[int, int, str | None], PuzzleEngineError] | None = None,
        warn: Callable[[str], None] = lambda line: None, bar: Bar | None = None) -> Tally:
    """Run ``job`` for ``seeds`` on ``executor`` (its ``results``) into ``sink`` until it
    holds ``count``. ``misses``: give up when that many seeds in a row gave no puzzle,
    with ``missed(first, last, why)``, the error naming those seeds (``why``: the last
    seed's strategy's reason, when it gave up). ``warn`` says each result's warnings."""
    tally = Tally()
    in_a_row = 0
    start = time.perf_counter()

    def show() -> None:
        if bar is not None:
            words = [sink.note()] if sink.note() else []
            bar.update(sink.done, ", ".join(words + tally.words()))
    show()
    if sink.done >= count:
        return tally
    results = executor.results(job, seeds)
    try:
        for result in results:
            sink.take(result)
            for line in result.warnings:
                warn(line)
            tally.tried += 1
            tally.first = result.seed if tally.first is None else tally.first
            tally.last = result.seed
            tally.seconds = time.perf_counter() - start
            tally.off_level += result.off_level
            tally.off_band += result.off_band
            tally.skipped += result.skipped is not None
            show()
            in_a_row = in_a_row + 1 if result.result is None else 0
            if misses is not None and in_a_row >= misses:
                raise missed(result.seed - misses + 1, result.seed,
                             result.skipped)
            if sink.done >= count:
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # stops the workers, or cancels the cluster's tasks
    return tally
