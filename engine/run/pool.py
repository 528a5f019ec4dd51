"""The local pool of worker processes (``gen --workers N``, ``batch --workers N``): a
function computed for item after item in N processes, the results yielded in order.

Each worker process runs a job (``run.job``), which loads the plugins and makes its own
engine from the solver settings the command resolved (``run.factory``), so a worker's
puzzle is the one a single process makes for the same seed. Workers are started with ``spawn``: the parent may hold threads (the progress bar),
and a forked copy of it would be unsafe.

When there are as many workers as CPUs the process may run on, each worker is pinned to
one of them (Linux), with the solver processes it starts. A worker alternates with
short-lived solver processes; unpinned, two workers left the CPUs idle a sixth of the time
on a 2-core machine and ran a quarter slower (docs/performance.md), probably because the
scheduler put both workers' solvers on one CPU at times. With fewer workers than
CPUs nothing is pinned, so that the scheduler can keep them off each other's SMT
siblings. ``PUZZLE_ENGINE_PIN_WORKERS=off`` turns pinning off.

Workers never outlive the command (``processes``): each is killed by the kernel when the
parent dies, and ignores Ctrl-C, which the parent answers by killing them (with the
solvers they run, which die with them) before it reports the interrupt. At most two
puzzles per worker are queued at a time, so a huge ``--count`` costs no memory.
"""
from __future__ import annotations

import collections
import multiprocessing
import os
import queue
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .. import processes
from ..errors import SolverError

_END = object()


class WorkerError(SolverError):
    """A worker process of the pool died."""

PIN_ENV = "PUZZLE_ENGINE_PIN_WORKERS"


def cpus_to_pin(workers: int) -> list[int] | None:
    """One CPU per worker when ``workers`` equals the number of CPUs this process may run
    on, else None (no pinning; also where the platform cannot pin, or when the
    environment turns it off)."""
    if os.environ.get(PIN_ENV, "").lower() in ("off", "0", "no", "false"):
        return None
    if not hasattr(os, "sched_getaffinity"):
        return None
    cpus = sorted(os.sched_getaffinity(0))
    return cpus if len(cpus) == workers > 1 else None


def _join(cpus: Any = None, parent: int | None = None) -> None:
    """What a worker does first: die with its parent, leave Ctrl-C to it, and take the
    CPU it is given (if any)."""
    if parent is not None:
        processes.die_with_parent(parent)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent answers Ctrl-C
    if cpus is not None:
        try:
            os.sched_setaffinity(0, {cpus.get(timeout=10)})
        except (OSError, ValueError, queue.Empty):  # only a speed-up: else unpinned
            pass


def in_order(fn: Callable[[Any], Any], items: Iterable[Any], workers: int,
             initializer: Callable[..., None] = _join, initargs: tuple = ()) -> Iterator[Any]:
    """``fn(item)`` for each of ``items``, in order, computed by ``workers`` processes,
    each started by ``initializer(*initargs, cpus, parent)`` (which must call ``_join``).
    ``fn`` must pickle (a module's function, or a ``functools.partial`` of one). Stopping
    the iteration (or an interrupt) kills the workers and drops the items not started.
    The workers die with the thread that started them (``prctl``'s parent-death signal is
    a thread's), so call this from a thread that outlives the batch, as the main one does."""
    _quiet_resource_tracker()
    context = multiprocessing.get_context("spawn")
    pin = cpus_to_pin(workers)
    cpus = None
    if pin is not None:
        cpus = context.Queue()
        for cpu in pin:
            cpus.put(cpu)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=initializer,
                               initargs=(*initargs, cpus, os.getpid()))
    finished = False
    try:
        pending: collections.deque = collections.deque()
        todo = iter(items)
        while True:
            try:
                while len(pending) < 2 * workers and (item := next(todo, _END)) is not _END:
                    pending.append(pool.submit(fn, item))
                if not pending:
                    break
                result = pending.popleft().result()
            except BrokenProcessPool:
                raise WorkerError("a worker process died, or could not start (killed from "
                                  "outside?); the puzzles finished before it are kept") from None
            yield result
        finished = True
    finally:
        if not finished:
            _kill_workers(pool)
        # After the last result the workers are idle: wait for them to exit. Not waiting
        # there let Python 3.11's exit handler write to the pool's closed wake-up pipe and
        # print a traceback ("Bad file descriptor") about one run in ten.
        pool.shutdown(wait=True, cancel_futures=not finished)
        if not finished:
            processes.sweep_temp_dirs()  # the killed workers' folders


#: The warning filter handed to multiprocessing's resource tracker (``-W``).
_TRACKER_QUIET = "ignore::UserWarning:multiprocessing.resource_tracker"


def _quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with its leak warning off. The pool's
    queues hold named semaphores (``spawn``), which the tracker unlinks when the command
    dies without doing so itself (``kill -9``): that is its job done, not a fault, yet it
    said "There appear to be 8 leaked semaphore objects" in two lines on the command's
    stderr, after the command had gone. The tracker is started with the interpreter's
    ``-W`` options (``sys.warnoptions``), so the filter is added there before the first
    semaphore starts it."""
    if _TRACKER_QUIET not in sys.warnoptions:
        sys.warnoptions.append(_TRACKER_QUIET)


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's workers now (their solvers die with them)."""
    if hasattr(pool, "kill_workers"):  # Python 3.14
        pool.kill_workers()
        return
    for process in list((pool._processes or {}).values()):  # noqa: SLF001 - no API before 3.14
        if process.exitcode is None:
            process.kill()
