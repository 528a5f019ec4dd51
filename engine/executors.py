"""Where a batch's seeds are worked on (``jobs.run``): in this process, in a local pool of
worker processes (the default, ``--workers K``), or on a Dask cluster (``--executor dask
--scheduler tcp://HOST:PORT``). Every executor yields the results in seed order, whatever
order they finish in, and keeps only a few seeds per worker under way, so an endless run
of seeds costs no memory and stopping wastes little work.

The local pool's workers are the ones of ``gen --workers`` (``workers``): started with
``spawn``, pinned one per CPU when there are as many as CPUs, killed with their solvers
on an interrupt, and dying with the command. Dask's workers are the cluster's: the command
only submits tasks and reads their results, and cancels the tasks under way when it stops.
"""
from __future__ import annotations

import collections
import multiprocessing
import os
import queue
import signal
import socket
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from urllib.parse import urlsplit

from . import processes
from .errors import PuzzleInputError, SolverError
from .jobs import Job, SeedResult, run
from .workers import WorkerError, _kill_workers, cpus_to_pin

#: Tasks under way per worker (thread) at most.
AHEAD = 2
EXECUTORS = ("local", "dask")


def _init(cpus, parent: int) -> None:
    processes.die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent answers Ctrl-C
    if cpus is not None:
        try:
            os.sched_setaffinity(0, {cpus.get(timeout=10)})
        except (OSError, ValueError, queue.Empty):  # only a speed-up: else unpinned
            pass


def local_results(job: Job, seeds: Iterable[int], workers: int) -> Iterator[SeedResult]:
    """The results for ``seeds`` in order, made in this process (``workers`` 1) or in a
    pool of ``workers`` processes. Call it from the main thread (see ``workers``)."""
    if workers <= 1:
        for seed in seeds:
            yield run(job, seed)
        return
    context = multiprocessing.get_context("spawn")
    pin = cpus_to_pin(workers)
    cpus = None
    if pin is not None:
        cpus = context.Queue()
        for cpu in pin:
            cpus.put(cpu)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init,
                               initargs=(cpus, os.getpid()))
    finished = False
    try:
        pending: collections.deque = collections.deque()
        todo = iter(seeds)
        while True:
            try:
                while len(pending) < AHEAD * workers and (seed := next(todo, None)) is not None:
                    pending.append(pool.submit(run, job, seed))
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
        pool.shutdown(wait=True, cancel_futures=not finished)
        if not finished:
            processes.sweep_temp_dirs()


def dask_client(scheduler: str, timeout: float = 20):
    """A client of the Dask scheduler at ``scheduler`` (``tcp://HOST:PORT``), or a
    one-line error: Dask missing (an optional extra), or no scheduler there."""
    try:
        from distributed import Client
    except ImportError:
        raise PuzzleInputError("--executor dask needs Dask's distributed scheduler: pip install "
                               "'puzzle-engine[dask]'") from None
    address = urlsplit(scheduler if "://" in scheduler else f"tcp://{scheduler}")
    try:
        host, port = address.hostname, address.port
    except ValueError:
        host = port = None
    if address.scheme != "tcp" or not host or not port:
        raise PuzzleInputError(f"bad --scheduler '{scheduler}': expected tcp://HOST:PORT")
    try:  # a refused connection is known at once, where Dask would retry until its time-out
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        raise PuzzleInputError(f"cannot reach the Dask scheduler at {scheduler}: "
                               f"{exc.strerror or exc}") from None
    try:
        return Client(scheduler, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise PuzzleInputError(f"cannot reach the Dask scheduler at {scheduler}: "
                               f"{' '.join(str(exc).split()) or type(exc).__name__}") from None


def dask_results(job: Job, seeds: Iterable[int], client) -> Iterator[SeedResult]:
    """The results for ``seeds`` in order, made by the workers of ``client``'s cluster.
    A task's error comes back as it was raised on the worker (a one-line error of ours)."""
    slots = max(1, sum(client.nthreads().values()))
    pending: collections.deque = collections.deque()
    todo = iter(seeds)
    try:
        while True:
            while len(pending) < AHEAD * slots and (seed := next(todo, None)) is not None:
                pending.append(client.submit(run, job, seed, pure=False))
            if not pending:
                break
            future = pending.popleft()
            try:
                result = future.result()
            except SolverError:
                raise
            except OSError as exc:
                raise SolverError(f"the Dask cluster failed: {' '.join(str(exc).split())}") from None
            yield result
    finally:
        if pending:
            client.cancel(list(pending), force=True)
