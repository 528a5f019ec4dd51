"""Where a job's seeds are worked on (``job.run``): in this process (``InProcess``), in a
local pool of worker processes (``LocalPool``, ``--workers K``), or on a Dask cluster
(``Dask``, ``batch --executor dask --scheduler tcp://HOST:PORT``; Dask is an optional
extra). Every executor yields the results in seed order, whatever order they finish in,
and keeps only a few seeds per worker under way, so an endless run of seeds costs no
memory and stopping wastes little work; stopping the iteration stops the work.

The local pool's workers (``pool``) are started with
``spawn``, pinned one per CPU when there are as many as CPUs, killed with their solvers
on an interrupt, and dying with the command. Dask's workers are the cluster's: the command
only submits tasks and reads their results, and cancels the tasks under way when it stops.
"""
from __future__ import annotations

import collections
import contextlib
import functools
import logging
import math
import socket
from collections.abc import Iterable, Iterator
from urllib.parse import urlsplit

from ..errors import PuzzleEngineError, PuzzleInputError, SolverError
from .job import Job, Prepared, SeedResult, run, work
from .pool import in_order

#: Tasks under way per worker (thread) at most.
AHEAD = 2
EXECUTORS = ("local", "dask")


class InProcess:
    """In this process, on the command's own plugins (``host``)."""

    def __init__(self, host=None):
        self.host = host

    def results(self, job: Job, seeds: Iterable[int]) -> Iterator[SeedResult]:
        prepared = Prepared(job, self.host)
        try:
            for seed in seeds:
                yield work(prepared, job, seed)
        finally:
            prepared.close()


class LocalPool:
    """In a pool of ``workers`` processes (``pool.in_order``; iterate it from the main
    thread)."""

    def __init__(self, workers: int):
        self.workers = workers

    def results(self, job: Job, seeds: Iterable[int]) -> Iterator[SeedResult]:
        yield from in_order(functools.partial(run, job), seeds, self.workers)


class Dask:
    """On the workers of ``client``'s cluster (``dask_results``)."""

    def __init__(self, client, timeout: float):
        self.client, self.timeout = client, timeout

    def results(self, job: Job, seeds: Iterable[int]) -> Iterator[SeedResult]:
        yield from dask_results(job, seeds, self.client, self.timeout)


#: Seconds the command waits on the Dask cluster before it gives up (``--dask-timeout``,
#: the config file's ``[dask] timeout``): to connect to the scheduler and hear its
#: handshake, for a worker to join, and for the scheduler to answer while tasks run.
DEFAULT_DASK_TIMEOUT = 30.0


def dask_client(scheduler: str, timeout: float = DEFAULT_DASK_TIMEOUT):
    """A client of the Dask scheduler at ``scheduler`` (``tcp://HOST:PORT``) with at least
    one worker, or a one-line error: Dask missing (an optional extra), nothing listening,
    no Dask scheduler's answer within ``timeout`` seconds (a listener that never answers,
    or answers something else), or no worker within ``timeout``.

    Dask's own settings bound the waits: ``distributed.comm.timeouts.connect`` (the
    connection) and ``.tcp`` (a connection that stops acknowledging, as when the
    scheduler's machine is gone) are set to ``timeout``. Dask leaves the handshake out of
    its connect time-out (distributed PR #7698), so the client's start as a whole is run
    with Dask's own deadline for a call on its loop (``sync``'s ``callback_timeout``)."""
    try:
        import dask  # lazy: the optional [dask] extra, only for --executor dask
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
    # Dask's keep-alive needs at least 11 s (10 probes) for a connection to be found dead.
    dask.config.set({"distributed.comm.timeouts.connect": f"{timeout}s",
                     "distributed.comm.timeouts.tcp": f"{max(11, math.ceil(timeout))}s"})
    try:  # a refused connection is known at once, where Dask would retry until its time-out
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        raise PuzzleInputError(f"cannot reach the Dask scheduler at {scheduler}: "
                               f"{exc.strerror or exc}") from None
    try:
        client = _deadline_client(Client)(scheduler, timeout=timeout, set_as_default=False)
    except TimeoutError:
        raise PuzzleInputError(f"cannot reach the Dask scheduler at {scheduler}: no answer "
                               f"within {timeout:g} s (--dask-timeout)") from None
    except Exception as exc:  # noqa: BLE001 - whatever the listener sent: not Dask's protocol
        raise PuzzleInputError(f"cannot reach the Dask scheduler at {scheduler}: its answer "
                               f"is not a Dask scheduler's ({type(exc).__name__})") from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        client.close(timeout=timeout)
        raise PuzzleInputError(f"the Dask scheduler at {scheduler} has no worker, and none "
                               f"joined within {timeout:g} s (--dask-timeout); start them "
                               "with 'dask worker'") from None
    return client


def close_client(client, timeout: float) -> None:
    """Close ``client`` within ``timeout`` seconds; a scheduler gone meanwhile is no error
    (the command's own error, if any, has been said)."""
    with contextlib.suppress(Exception):
        client.close(timeout=timeout)
    client.status = "closed"  # nothing left for Client.__del__ to try at exit


def _deadline_client(client_class):
    """Dask's ``Client`` whose start (connection, handshake, first reply) ends within its
    ``timeout``, and which, when it does not, is left closed: no ``Client.__del__``
    traceback at exit."""
    class DeadlineClient(client_class):
        def start(self, **kwargs):
            try:
                super().start(callback_timeout=self._timeout, **kwargs)
            except BaseException:
                self.status = "closed"  # never connected: nothing for __del__ to close
                with contextlib.suppress(Exception):
                    self._loop_runner.stop()
                raise
    return DeadlineClient


def _quiet_dask() -> None:
    """Dask's own log lines off (only CRITICAL ones pass): a failure of the cluster (a
    scheduler gone) is logged by the client with its tracebacks, on stderr, before the
    command's one line says what went wrong."""
    for name in [n for n in logging.root.manager.loggerDict
                 if n == "distributed" or n.startswith("distributed.")]:
        logging.getLogger(name).setLevel(logging.CRITICAL)


def dask_results(job: Job, seeds: Iterable[int], client,
                 timeout: float = DEFAULT_DASK_TIMEOUT) -> Iterator[SeedResult]:
    """The results for ``seeds`` in order, made by the workers of ``client``'s cluster.
    A task's error comes back as it was raised on the worker (a one-line error of ours).
    A task may run as long as it needs; while it runs, the scheduler must answer within
    ``timeout`` seconds and have a worker (``_check_alive``)."""
    try:  # the first question to the cluster once joined: with the deadline too
        threads = client.nthreads(callback_timeout=timeout)
    except Exception:  # noqa: BLE001 - a time-out, or the connection lost
        raise SolverError(f"the Dask scheduler at {client.scheduler.address} has not "
                          f"answered for {timeout:g} s (--dask-timeout)") from None
    slots = max(1, sum(threads.values()))
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
                result = _result(client, future, timeout)
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
            with contextlib.suppress(Exception):  # a scheduler gone: nothing to cancel
                client.cancel(list(pending), force=True)


def _result(client, future, timeout: float):
    """``future``'s result, however long its task runs, checking every ``timeout`` seconds
    that the cluster is alive (``_check_alive``)."""
    idle = 0
    while True:
        try:
            return future.result(timeout=timeout)
        except TimeoutError:
            pass
        idle = _check_alive(client, timeout, idle)


def _check_alive(client, timeout: float, idle: int) -> int:
    """A one-line error unless the scheduler answers within ``timeout`` (Dask's deadline
    for a call: ``sync``'s ``callback_timeout``) and has had a worker within the last
    ``timeout`` seconds; ``idle`` counts the checks in a row that found none. A worker
    that stops answering is the scheduler's to drop (its ``worker-ttl``), which sends its
    tasks to the others."""
    address = client.scheduler.address
    try:
        info = client.sync(client.scheduler.identity, callback_timeout=timeout)
    except Exception:  # noqa: BLE001 - a time-out, or the connection lost
        raise SolverError(f"the Dask scheduler at {address} has not answered for "
                          f"{timeout:g} s (--dask-timeout)") from None
    if info.get("workers"):
        return 0
    if idle >= 1:
        raise SolverError(f"the Dask scheduler at {address} has had no worker for "
                          f"{timeout:g} s (--dask-timeout)")
    return idle + 1
