"""Child processes and temporary folders that never outlive the command.

Every process the engine starts dies with the process that started it, link by link:

* A solver or ``minizinc`` run is started through util-linux's ``setpriv --pdeathsig``
  (``guarded``), so the kernel signals it when its parent dies, however the parent dies
  (SIGKILL included). Solvers get SIGKILL; ``minizinc`` gets SIGTERM, on which it ends
  its own solver's process group. ``setpriv`` execs the program, so this costs one small
  exec (about 0.3 ms), not a ``preexec_fn`` fork of the whole Python process (about 4 ms
  measured, against runs of about 4 ms each for a 9x9 check).
* A worker process (``gen --workers``) asks for SIGKILL on its parent's death itself
  (``die_with_parent``), through ``prctl``, and checks that its parent is still the one
  that started it (the parent may have died before the request).
* The command turns SIGTERM and SIGHUP into ``Terminated`` (a ``KeyboardInterrupt``), so
  that an interrupt of any kind unwinds the same way: workers killed, files closed,
  temporary folders removed.

A temporary folder is named ``puzzle-engine-<pid>-...`` after the process that made it.
One left by a process that was killed outright is swept at the next start
(``sweep_temp_dirs``), once no process of that number is alive.

Where ``setpriv`` or ``prctl`` is missing (not Linux), programs run unguarded and a
SIGKILL of the parent can orphan them until their own time limit.
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


def _raise_terminated(signum, frame):  # noqa: ARG001 - a signal handler's signature
    raise Terminated(signum)


def handle_termination() -> None:
    """Make SIGTERM and SIGHUP raise ``Terminated`` in the main thread."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _raise_terminated)


@functools.lru_cache(maxsize=1)
def _setpriv() -> str | None:
    path = shutil.which("setpriv")
    if path is None:
        return None
    probe = subprocess.run([path, "--pdeathsig", "KILL", "--", "true"], capture_output=True)
    return path if probe.returncode == 0 else None


def guarded(argv: Sequence[str], on_parent_death: str = "KILL") -> list[str]:
    """``argv`` started so that it receives ``on_parent_death`` (a signal name) when the
    thread that starts it exits (``subprocess.run`` waits in that thread)."""
    setpriv = _setpriv()
    if setpriv is None:
        return list(argv)
    return [setpriv, "--pdeathsig", on_parent_death, "--", *argv]


def run(argv: Sequence[str], *, on_parent_death: str = "KILL", timeout: float | None = None,
        ) -> subprocess.CompletedProcess:
    """``subprocess.run`` of a guarded program, text output captured. On a time-out or an
    interrupt the program is killed before this returns (``subprocess.TimeoutExpired``
    or the interrupt propagates)."""
    return subprocess.run(guarded(argv, on_parent_death), capture_output=True, text=True,
                          timeout=timeout)


def guarded_executable(program: str) -> Path:
    """An executable script that runs ``program`` guarded with SIGTERM on parent death,
    for a library that takes the path of a program to start (minizinc-python's driver).
    It lives in this process's temporary folder."""
    setpriv = _setpriv()
    if setpriv is None:
        return Path(program)
    script = temp_root() / f"guarded-{Path(program).name}"
    if not script.exists():
        script.write_text(f'#!/bin/sh\nexec "{setpriv}" --pdeathsig TERM -- "{program}" "$@"\n')
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


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
