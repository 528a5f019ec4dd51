"""``gen --workers N``: puzzles generated in N processes, written in seed order.

Each worker process loads the plugins and builds its own engine, with the solver settings
the command resolved, so a worker's puzzle is the one a single process makes for the same
seed. Workers are started with ``spawn``: the parent may hold threads (the progress bar),
and a forked copy of it would be unsafe.
"""
from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .backend import Backend
from .genpuzzles import Engine, GenOptions, GenResult
from .plugins import get_host

_state: dict[str, Any] = {}


def _init(puzzle: str, solver: str, time_limit: float | None, free_search: bool,
          check_flags: tuple[str, ...]) -> None:
    host = get_host()
    _state["engine"] = Engine(host, Backend(solver, time_limit, free_search=free_search,
                                            check_flags=check_flags))
    _state["ptype"] = host.get_type(puzzle)


def _generate(params: dict[str, Any], seed: int, options: GenOptions) -> GenResult:
    return _state["engine"].generate(_state["ptype"], params, seed, options)


def generate_many(engine: Engine, puzzle: str, params: dict[str, Any], options: GenOptions,
                  seeds: range, workers: int) -> Iterator[GenResult]:
    """The results for ``seeds``, in order, made by ``workers`` processes. Stopping the
    iteration (or an interrupt) cancels the puzzles not started yet."""
    backend = engine.backend
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_init,
                               initargs=(puzzle, backend.info.id, backend.time_limit,
                                         backend.free_search, backend.check_flags))
    finished = False
    try:
        futures = [pool.submit(_generate, params, seed, options) for seed in seeds]
        for future in futures:
            yield future.result()
        finished = True
    finally:
        # After the last result the workers are idle: wait for them to exit. Not waiting
        # there let Python 3.11's exit handler write to the pool's closed wake-up pipe and
        # print a traceback ("Bad file descriptor") about one run in ten.
        pool.shutdown(wait=finished, cancel_futures=not finished)
