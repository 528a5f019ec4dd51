"""Child processes and temporary folders that never outlive the command.

Every process the engine starts dies with the process that started it:

* **Solver runs** (``run_solver``) join one process group per engine process, led by a
  *keeper*: a ``/bin/sh`` that blocks reading a pipe from this process. When this process
  ends, however it ends (SIGKILL included), the pipe closes, and the keeper kills the
  whole group, itself with it. Joining a group is a ``setpgid`` in the child, done by
  ``subprocess`` in C, so a solver run costs nothing more (measured, benchmarks/
  bench_guard.py; ``setpriv --pdeathsig`` per run cost 1.1 ms of a 2 ms start, a quarter
  of a 9x9 puzzle). The group is not the terminal's, so Ctrl-C does not reach the
  solvers: the command's signal handlers (``handle_signals``) kill the group, mark the
  command as stopping, which in-process solves poll (``stopping``), and unwind; no solver
  starts after that.
* **MiniZinc runs** (``run_minizinc``, ``guarded_executable``) start through util-linux's
  ``setpriv --pdeathsig TERM``: the kernel sends SIGTERM when this process dies, and
  MiniZinc then ends its own solver's process group. They are few (a compile per model,
  a whole solve in ``solve`` and ``check``), so setpriv's exec costs nothing that shows.
* **Worker processes** (``gen --workers``) ask for SIGKILL on their parent's death
  themselves (``die_with_parent``, through ``prctl``), and check that their parent is
  still the one that started them. A worker's own solvers then die with its keeper.

So the chain unwinds link by link: the command, its workers, their keepers and solvers,
MiniZinc and its solver. SIGTERM and SIGHUP unwind like Ctrl-C (``Terminated``), except
where the command was started with them ignored (``nohup``).

A temporary folder (``temp_root``, ``puzzle-engine-<pid>-...``) holds a lock file that
its process keeps locked while it runs. One left by a process that was killed outright
is swept at the next start (``sweep_temp_dirs``): a folder of this user's whose lock can
be taken has no live owner, whatever the process ids of another PID namespace sharing
the folder.

Where ``setpriv`` or ``prctl`` is missing (not Linux), MiniZinc runs unguarded and a
worker orphaned by SIGKILL runs on until its puzzle is done.
"""
from __future__ import annotations

import contextlib
import ctypes
import atexit
import fcntl
import functools
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

from .cache import write_if_changed

PREFIX = "puzzle-engine-"
_OWNED = re.compile(rf"^{re.escape(PREFIX)}\d+-")
_LOCK = ".owner.lock"
_PR_SET_PDEATHSIG = 1


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP: unwinds like Ctrl-C; ``exit_code`` is 128 + the signal."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.exit_code = 128 + signum


class Stopped(KeyboardInterrupt):
    """A solver run asked for after the command was interrupted: unwinds as the interrupt
    does (never taken for a plugin's or a solver's error)."""


def exit_code(interrupt: BaseException) -> int:
    """The conventional exit status for an interrupt: 130 for Ctrl-C, 143 for SIGTERM."""
    return getattr(interrupt, "exit_code", 128 + signal.SIGINT)


# -- signals ------------------------------------------------------------------------------
_stopping = False
_group = 0        # the solver group's id (its keeper's pid), read by the signal handler


def _on_signal(signum, frame):  # noqa: ARG001 - a signal handler's signature
    """Takes no lock (it may run while this thread holds one): mark the command as
    stopping (in-process solves poll it, and no solver starts after it), kill the solver
    group, and unwind."""
    global _stopping
    _stopping = True
    if _group:
        with contextlib.suppress(OSError):
            os.killpg(_group, signal.SIGKILL)
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Terminated(signum)


def handle_signals() -> None:
    """In the main thread of a command: Ctrl-C, SIGTERM and SIGHUP kill this process's
    solvers at once, then raise ``KeyboardInterrupt`` (``Terminated`` for the other two).
    A signal the command was started with ignored (``nohup``, a background job) stays
    ignored."""
    global _stopping
    _stopping = False
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, _on_signal)


def stopping() -> bool:
    """Whether the command has been interrupted (an in-process solve should stop)."""
    return _stopping


def check_stopping() -> None:
    """Raise ``Stopped`` once the command has been interrupted."""
    if _stopping:
        raise Stopped("interrupted")


# -- solver runs: one process group, ended by a keeper ---------------------------------
#: Blocks until its stdin (a pipe from this process) closes, then kills its own group.
_KEEPER = "read _; kill -s KILL 0"
_keeper: subprocess.Popen | None = None
_keeper_lock = threading.Lock()


def _solver_group() -> int | None:
    """The process group of this process's solver runs (its keeper's pid), started at the
    first run and again if it died; None where there are no process groups."""
    global _keeper, _group
    if os.name != "posix":
        return None
    with _keeper_lock:
        if _keeper is None or _keeper.poll() is not None:
            # The keeper's own group, outside the terminal's: only kill_solvers or this
            # process's end stops it. Our end of the pipe is not inherited by children.
            _keeper = subprocess.Popen(["/bin/sh", "-c", _KEEPER], stdin=subprocess.PIPE,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       process_group=0)
            _group = _keeper.pid
            if _stopping:  # the handler ran while this was starting: end it, start nothing
                os.killpg(_group, signal.SIGKILL)
                raise Stopped("interrupted")
        return _keeper.pid


def kill_solvers() -> None:
    """Kill every solver this process runs now (not from a signal handler: it takes a
    lock; the handler kills the group itself)."""
    global _keeper, _group
    with _keeper_lock:
        if _keeper is not None and _keeper.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(_keeper.pid, signal.SIGKILL)
            _keeper.wait()
        _keeper, _group = None, 0


def run_solver(argv: Sequence[str], timeout: float | None = None) -> subprocess.CompletedProcess:
    """Run a solver, text output captured, stdin empty. It dies with this process; on a
    time-out or an interrupt it is killed before this returns (``TimeoutExpired`` or the
    interrupt propagates). After an interrupt no solver starts (``Stopped``)."""
    check_stopping()
    group = _solver_group()
    try:
        proc = subprocess.Popen(list(argv), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, process_group=group)
    except PermissionError:  # the group died between the two calls (an interrupt)
        check_stopping()
        raise
    with proc:  # as subprocess.run, and killed if the command was interrupted meanwhile
        try:
            if _stopping:
                proc.kill()
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise
        except BaseException:
            proc.kill()
            raise
    check_stopping()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _after_fork_in_child() -> None:
    """A forked child has no keeper of its own, and must not hold the parent's keeper's
    pipe open (the keeper would then outlive the parent)."""
    global _keeper, _keeper_lock, _group, _stopping
    if _keeper is not None and _keeper.stdin is not None:
        with contextlib.suppress(OSError):
            _keeper.stdin.close()
    _keeper, _keeper_lock, _group, _stopping = None, threading.Lock(), 0, False
    for fd in _held:  # the parent's folder is the parent's: let a sweep see it as it is
        with contextlib.suppress(OSError):
            os.close(fd)
    _held.clear()
    temp_root.cache_clear()


# -- MiniZinc runs: setpriv --pdeathsig TERM --------------------------------------------
@functools.lru_cache(maxsize=1)
def _setpriv() -> str | None:
    path = shutil.which("setpriv")
    if path is None:
        return None
    probe = subprocess.run([path, "--pdeathsig", "TERM", "--", "true"], capture_output=True)
    return path if probe.returncode == 0 else None


def run_minizinc(argv: Sequence[str]) -> subprocess.CompletedProcess:
    """Run ``minizinc`` (text output captured, stdin empty) so that it is sent SIGTERM
    when the thread that started it exits (``subprocess.run`` waits in that thread);
    MiniZinc then ends the solver it runs."""
    setpriv = _setpriv()
    guard = [setpriv, "--pdeathsig", "TERM", "--"] if setpriv else []
    return subprocess.run([*guard, *argv], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)


def guarded_executable(program: str) -> Path:
    """An executable script that runs ``program`` as ``run_minizinc`` does, for a library
    that takes the path of a program to start (minizinc-python's driver). It lives in
    this process's temporary folder."""
    setpriv = _setpriv()
    if setpriv is None:
        return Path(program)
    script = temp_root() / f"guarded-{Path(program).name}"
    write_if_changed(script, f"#!/bin/sh\nexec {shlex.quote(setpriv)} --pdeathsig TERM -- "
                             f'{shlex.quote(program)} "$@"\n', 0o700)
    return script


# -- worker processes -------------------------------------------------------------------
def die_with_parent(parent: int) -> None:
    """In a worker process: be killed when ``parent`` dies (strictly: when the thread of
    ``parent`` that started this process ends); exit now if it already has."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


# -- temporary folders --------------------------------------------------------------------
_held: list[int] = []  # the descriptors that hold this process's folder locks


@functools.lru_cache(maxsize=1)
def temp_root() -> Path:
    """This process's own temporary folder (``puzzle-engine-<pid>-...``), locked while the
    process runs, removed when it exits normally or is interrupted, and swept by a later
    start otherwise."""
    # Made under a name the sweep passes over, locked, then renamed: a sweep running at
    # the same moment never sees it unlocked.
    hidden = Path(tempfile.mkdtemp(prefix=f".{PREFIX}{os.getpid()}-"))
    fd = os.open(hidden / _LOCK, os.O_CREAT | os.O_RDWR, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    _held.append(fd)
    path = hidden.with_name(hidden.name[1:])
    os.rename(hidden, path)
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def temp_dir() -> tempfile.TemporaryDirectory:
    """A temporary folder inside this process's ``temp_root``."""
    return tempfile.TemporaryDirectory(dir=temp_root())


def _abandoned(folder: Path) -> bool:
    """Whether ``folder`` is one of this user's whose owner no longer runs: its lock
    file exists and can be locked (a live owner holds it)."""
    try:
        if folder.is_symlink() or not folder.is_dir() or folder.stat().st_uid != os.getuid():
            return False
        fd = os.open(folder / _LOCK, os.O_RDWR | os.O_NOFOLLOW)
    except OSError:  # no lock file: not ours, or its owner is just creating it
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def sweep_temp_dirs(where: Path | None = None) -> int:
    """Remove the temporary folders left by processes that no longer run; how many."""
    where = Path(where or tempfile.gettempdir())
    removed = 0
    with contextlib.suppress(OSError):
        for entry in where.iterdir():
            if _OWNED.match(entry.name) and _abandoned(entry):
                shutil.rmtree(entry, ignore_errors=True)
                removed += 1
    return removed


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
