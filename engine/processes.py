"""Child processes and temporary folders that never outlive the command.

Every process the engine starts dies with the process that started it:

* **Solver runs** (``run_solver``) join one process group per engine process, led by a
  *keeper*: a ``/bin/sh`` that blocks reading a pipe from this process. When this process
  ends, however it ends (SIGKILL included), the pipe closes, and the keeper kills the
  whole group, itself with it. Joining a group is a ``setpgid`` in the child, done by
  ``subprocess`` in C, so a solver run costs nothing more (measured, benchmarks/
  bench_guard.py; ``setpriv --pdeathsig`` per run cost 1.2 ms of a 2 ms start, 22% of a
  9x9 puzzle). The group is not the terminal's, so Ctrl-C does not reach the solvers: the
  command's signal handlers (``handle_signals``) kill the group first, then unwind.
* **MiniZinc runs** (``run_minizinc``, ``guarded_executable``) start through util-linux's
  ``setpriv --pdeathsig TERM``: the kernel sends SIGTERM when this process dies, and
  MiniZinc then ends its own solver's process group. They are few (a compile per model,
  a whole solve in ``solve`` and ``check``), so setpriv's exec costs nothing that shows.
* **Worker processes** (``gen --workers``) ask for SIGKILL on their parent's death
  themselves (``die_with_parent``, through ``prctl``), and check that their parent is
  still the one that started them. A worker's own solvers then die with its keeper.

So the chain unwinds link by link: the command, its workers, their keepers and solvers,
MiniZinc and its solver. SIGTERM and SIGHUP unwind like Ctrl-C (``Terminated``).

A temporary folder is named ``puzzle-engine-<pid>-...`` after the process that made it.
One left by a process that was killed outright is swept at the next start
(``sweep_temp_dirs``), once no process of that number runs.

Where ``setpriv`` or ``prctl`` is missing (not Linux), MiniZinc runs unguarded and a
worker orphaned by SIGKILL runs on until its puzzle is done.
"""
from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

PREFIX = "puzzle-engine-"
_OWNED = re.compile(rf"^{re.escape(PREFIX)}(\d+)-")
_PR_SET_PDEATHSIG = 1


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP: unwinds like Ctrl-C; ``exit_code`` is 128 + the signal."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.exit_code = 128 + signum


def exit_code(interrupt: KeyboardInterrupt) -> int:
    """The conventional exit status for an interrupt: 130 for Ctrl-C, 143 for SIGTERM."""
    return getattr(interrupt, "exit_code", 128 + signal.SIGINT)


def _on_signal(signum, frame):  # noqa: ARG001 - a signal handler's signature
    kill_solvers()
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Terminated(signum)


def handle_signals() -> None:
    """In the main thread of a command: Ctrl-C, SIGTERM and SIGHUP kill this process's
    solvers at once (they run in a group of their own, which the terminal's Ctrl-C does
    not reach), then raise ``KeyboardInterrupt`` (``Terminated`` for the other two)."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _on_signal)


# -- solver runs: one process group, ended by a keeper ---------------------------------
#: Blocks until its stdin (a pipe from this process) closes, then kills its own group.
_KEEPER = "read _; kill -s KILL 0"
_keeper: subprocess.Popen | None = None
_keeper_lock = threading.Lock()


def _solver_group() -> int | None:
    """The process group of this process's solver runs (its keeper's pid), started at the
    first run and again if it died; None where there are no process groups."""
    global _keeper
    if os.name != "posix":
        return None
    with _keeper_lock:
        if _keeper is None or _keeper.poll() is not None:
            # The keeper's own group, outside the terminal's: only kill_solvers or this
            # process's end stops it. Our end of the pipe is not inherited by children.
            _keeper = subprocess.Popen(["/bin/sh", "-c", _KEEPER], stdin=subprocess.PIPE,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       process_group=0)
        return _keeper.pid


def kill_solvers() -> None:
    """Kill every solver this process runs now (the next run starts a new group)."""
    global _keeper
    with _keeper_lock:
        if _keeper is not None and _keeper.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(_keeper.pid, signal.SIGKILL)
            _keeper.wait()
        _keeper = None


def run_solver(argv: Sequence[str], timeout: float | None = None) -> subprocess.CompletedProcess:
    """Run a solver, text output captured. It dies with this process; on a time-out or an
    interrupt it is killed before this returns (``subprocess.TimeoutExpired`` or the
    interrupt propagates)."""
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout,
                          process_group=_solver_group())


# -- MiniZinc runs: setpriv --pdeathsig TERM --------------------------------------------
@functools.lru_cache(maxsize=1)
def _setpriv() -> str | None:
    path = shutil.which("setpriv")
    if path is None:
        return None
    probe = subprocess.run([path, "--pdeathsig", "TERM", "--", "true"], capture_output=True)
    return path if probe.returncode == 0 else None


def run_minizinc(argv: Sequence[str]) -> subprocess.CompletedProcess:
    """Run ``minizinc`` (text output captured) so that it is sent SIGTERM when the thread
    that started it exits (``subprocess.run`` waits in that thread); MiniZinc then ends
    the solver it runs."""
    setpriv = _setpriv()
    guard = [setpriv, "--pdeathsig", "TERM", "--"] if setpriv else []
    return subprocess.run([*guard, *argv], capture_output=True, text=True)


def guarded_executable(program: str) -> Path:
    """An executable script that runs ``program`` as ``run_minizinc`` does, for a library
    that takes the path of a program to start (minizinc-python's driver). It lives in
    this process's temporary folder."""
    setpriv = _setpriv()
    if setpriv is None:
        return Path(program)
    script = temp_root() / f"guarded-{Path(program).name}"
    if not script.exists():
        script.write_text(f'#!/bin/sh\nexec "{setpriv}" --pdeathsig TERM -- "{program}" "$@"\n')
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


# -- worker processes and temporary folders ----------------------------------------------
def die_with_parent(parent: int) -> None:
    """In a worker process: be killed when ``parent`` dies; exit now if it already has."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


@functools.lru_cache(maxsize=1)
def temp_root() -> Path:
    """This process's own temporary folder (``puzzle-engine-<pid>-...``), removed when the
    process exits normally or is interrupted, and swept by a later start otherwise."""
    import atexit
    path = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def temp_dir() -> tempfile.TemporaryDirectory:
    """A temporary folder inside this process's ``temp_root``."""
    return tempfile.TemporaryDirectory(dir=temp_root())


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    with contextlib.suppress(OSError, IndexError):
        stat_line = Path(f"/proc/{pid}/stat").read_text()
        return stat_line[stat_line.rindex(")") + 2] != "Z"
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def sweep_temp_dirs(where: Path | None = None) -> int:
    """Remove the temporary folders left by processes that no longer run; how many."""
    where = Path(where or tempfile.gettempdir())
    removed = 0
    with contextlib.suppress(OSError):
        for entry in where.iterdir():
            m = _OWNED.match(entry.name)
            if m and not _alive(int(m.group(1))) and entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
                removed += 1
    return removed
