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
import functools
import logging
import socket
from collections.abc import Iterable, Iterator
from urllib.parse import urlsplit

from .errors import PuzzleEngineError, PuzzleInputError, SolverError
from .jobs import Job, SeedResult, run
from .workers import in_order

#: Tasks under way per worker (thread) at most.
AHEAD = 2
EXECUTORS = ("local", "dask")


def local_results(job: Job, seeds: Iterable[int], workers: int) -> Iterator[SeedResult]:
    """The results for ``seeds`` in order, made in this process (``workers`` 1) or in a
    pool of ``workers`` processes (``workers.in_order``; call it from the main thread)."""
    if workers <= 1:
        for seed in seeds:
            yield run(job, seed)
        return
    yield from in_order(functools.partial(run, job), seeds, workers)


def dask_client(scheduler: str, timeout: float = 20):
    """A client of the Dask scheduler at ``scheduler`` (``tcp://HOST:PORT``), or a
    one-line error: Dask missing (an optional extra), or no scheduler there."""
    try:
        from distributed import Client
    except ImportError:
        raise PuzzleInputError("--executor dask needs Dask's distributed scheduler: pip install "
                               "'puzzle-engine[dask]'") from None
    _quiet_dask()
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


def _quiet_dask() -> None:
    """Dask's own log lines off (only CRITICAL ones pass): a failure of the cluster (a
    scheduler gone) is logged by the client with its tracebacks, on stderr, before the
    command's one line says what went wrong."""
    for name in [n for n in logging.root.manager.loggerDict
                 if n == "distributed" or n.startswith("distributed.")]:
        logging.getLogger(name).setLevel(logging.CRITICAL)


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
            except PuzzleEngineError:
                raise  # ours, raised on the worker: already one line
            except ImportError as exc:
                raise SolverError(f"a Dask worker cannot import what the batch needs ({exc}): "
                                  "install puzzle-engine, its plugins and the solvers on every "
                                  "worker") from None
            except Exception as exc:  # noqa: BLE001 - the cluster's failures, in one line
                if not type(exc).__module__.startswith(("distributed", "dask")) and \
                        not isinstance(exc, OSError):
                    raise
                raise SolverError(f"the Dask cluster failed: {type(exc).__name__}: "
                                  f"{' '.join(str(exc).split())}") from None
            yield result
    finally:
        if pending:
            client.cancel(list(pending), force=True)
