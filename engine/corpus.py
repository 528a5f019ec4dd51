"""A batch into the store (``puzzle-engine batch``): seeds in order until the batch holds
N distinct puzzles.

The result of a batch of N is the first N distinct puzzles in seed order: seed after seed
from the batch's first, each seed's puzzle is stored unless its canonical key is stored
already (then it counts as a duplicate), or it missed the level asked for. The results
come back in seed order from any executor, and each is committed with the batch's next
seed in one transaction. So an interrupt keeps every puzzle finished before it, and the
same command run again goes on from the next seed to N distinct puzzles: the same puzzles
as a run that was never interrupted, on one process, a local pool or a Dask cluster.
A seed that keeps several puzzles (every level a growing strategy accepts) is stored
whole, so such a batch may end a few puzzles past N.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from .errors import PuzzleInputError
from .jobs import SeedResult
from .store import Added, Batch, Store


@dataclass
class Progress:
    """Where a batch stands, after each seed."""

    distinct: int          # distinct puzzles the batch holds
    added: Added           # what this run stored
    candidates: int = 0    # puzzles this run made
    off_level: int = 0     # seeds this run whose puzzle missed the level
    first_seed: int | None = None
    last_seed: int | None = None


def fill(store: Store, batch: Batch, count: int,
         results_of: Callable[[Iterable[int]], Iterator[SeedResult]],
         on_seed: Callable[[Progress, SeedResult], None] = lambda p, r: None,
         misses: int | None = None) -> Progress:
    """Run ``batch`` until it holds ``count`` distinct puzzles. ``results_of(seeds)``
    yields the results of ``seeds`` in order (an executor). ``misses``: give up after
    that many seeds in a row missed the level."""
    progress = Progress(store.distinct(batch), Added())
    if progress.distinct >= count:
        return progress
    results = results_of(itertools.count(batch.next_seed))
    in_a_row = 0
    try:
        for result in results:
            added = store.add(result.entries, batch, next_seed=result.seed + 1,
                              candidates=len(result.entries), off_level=int(result.off_level))
            progress.added += added
            progress.distinct += added.stored
            progress.candidates += len(result.entries)
            progress.off_level += result.off_level
            if progress.first_seed is None:
                progress.first_seed = result.seed
            progress.last_seed = result.seed
            on_seed(progress, result)
            in_a_row = in_a_row + 1 if result.off_level else 0
            if misses is not None and in_a_row >= misses:
                raise PuzzleInputError(
                    f"no puzzle of the level asked for in {misses} seeds in a row (seeds "
                    f"{result.seed - misses + 1}..{result.seed}): raise --attempts, or "
                    "change the options")
            if progress.distinct >= count:
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # stops the workers, or cancels the cluster's tasks
    return progress
