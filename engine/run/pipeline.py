"""A run: a job for seed after seed on an executor, each result to a sink, until the sink
holds the count asked for or the seeds run out; the one loop of ``gen`` and ``batch``.

The results come back in seed order from any executor, so the output is the same on one
process, a local pool or a Dask cluster, and an interrupt keeps every result the sink took
before it. With a level to find (``misses``), a seed whose puzzle misses it is skipped,
and too many misses in a row end the run with the error ``missed`` makes. The progress
bar, if any, shows what the sink holds after each seed.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from ..errors import PuzzleEngineError
from .job import Job
from .progress import Bar
from .sinks import Sink


def run(job: Job, seeds: Iterable[int], executor, sink: Sink, count: int, *,
        misses: int | None = None,
        missed: Callable[[int, int], PuzzleEngineError] | None = None,
        warn: Callable[[str], None] = lambda line: None, bar: Bar | None = None) -> None:
    """Run ``job`` for ``seeds`` on ``executor`` (its ``results``) into ``sink`` until it
    holds ``count``. ``misses``: give up when that many seeds in a row missed the level,
    with ``missed(first, last)``, the error naming those seeds. ``warn`` says each
    result's warnings."""
    off_level = in_a_row = 0

    def show() -> None:
        if bar is not None:
            words = [sink.note()] if sink.note() else []
            if misses is not None:
                words.append(f"off level {off_level}")
            bar.update(sink.done, ", ".join(words))
    show()
    if sink.done >= count:
        return
    results = executor.results(job, seeds)
    try:
        for result in results:
            sink.take(result)
            for line in result.warnings:
                warn(line)
            off_level += result.off_level
            show()
            in_a_row = in_a_row + 1 if result.off_level else 0
            if misses is not None and in_a_row >= misses:
                raise missed(result.seed - misses + 1, result.seed)
            if sink.done >= count:
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # stops the workers, or cancels the cluster's tasks
