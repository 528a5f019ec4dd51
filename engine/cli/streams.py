"""The standard streams as the commands write them, with their failures decided in one
place. Standard output closed by its reader (``| head -1``) or before the command
started (``>&-``) ends the command quietly (``ClosedOutput``: exit 141, as a shell
reports a process ended by SIGPIPE); another failure to write it (``> /dev/full``) is a
one-line error. Standard error that cannot be written (``2>/dev/full``) is given up on:
nothing can be said, and the exit status still tells. Each stream is looked up at each
write, so that a caller (a test) may swap ``sys.stdout``."""
from __future__ import annotations

import contextlib
import errno
import os
import sys

from ..errors import PuzzleInputError

#: The exit status of a command whose standard output was closed: 128 + SIGPIPE.
CLOSED_OUTPUT = 141


class ClosedOutput(Exception):
    """Standard output is closed: the reader has what it wanted."""


def _silence(stream) -> None:
    """Point the file descriptor under ``stream`` at /dev/null, so that what is still
    buffered in it, flushed when Python exits, goes nowhere instead of failing again."""
    with contextlib.suppress(Exception):
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)


class _Closed:
    """Standard output that was closed before the command started (``>&-``): every
    write finds it closed."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(errno.EPIPE, "standard output is closed")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return 1


class _Stream:
    """``sys.<name>``, whichever object it is at the time, written through ``write`` and
    ``flush`` that decide what a failure means; anything else is the stream's own."""

    def __init__(self, name: str):
        self._name = name

    def _target(self):
        return getattr(sys, self._name)

    def __getattr__(self, attr):
        return getattr(self._target(), attr)

    def _failed(self, stream, exc: OSError):
        raise NotImplementedError

    def write(self, text: str):
        stream = self._target()
        if stream is None:
            return len(text)
        try:
            return stream.write(text)
        except OSError as exc:
            return self._failed(stream, exc)

    def flush(self) -> None:
        stream = self._target()
        if stream is None:
            return
        try:
            stream.flush()
        except OSError as exc:
            self._failed(stream, exc)


class _Output(_Stream):
    def _failed(self, stream, exc: OSError):
        _silence(stream)
        if isinstance(exc, BrokenPipeError):
            raise ClosedOutput() from None
        raise PuzzleInputError(f"cannot write standard output: {exc.strerror or exc}") from None


class _Errors(_Stream):
    def _failed(self, stream, exc: OSError):
        _silence(stream)  # nothing can be said: the exit status tells
        return 0


stdout = _Output("stdout")
stderr = _Errors("stderr")


class _Guarded(_Output):
    """``stream`` (the standard output), written by a library that writes it itself
    (typer's help, through rich, which ends the command with status 1 on a broken pipe):
    its failures are decided as ``stdout``'s."""

    def __init__(self, stream):
        super().__init__("stdout")
        self._stream = stream

    def _target(self):
        return self._stream


def guard_stdout():
    """Make ``sys.stdout`` decide its failures here for whoever writes it (the help);
    returns what it was, for the caller to put back."""
    saved = sys.stdout
    if saved is not None and not isinstance(saved, _Guarded):
        sys.stdout = _Guarded(saved)
    return saved


def open_closed() -> None:
    """Before anything else: a standard stream closed when the command started gets
    /dev/null in its place, so that no file the command opens takes its number (a store
    opened as descriptor 1 would get what is printed), a closed standard input reads as
    empty, and a closed standard output is closed to every write (``ClosedOutput``)."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
        if name == "stdout":
            sys.stdout = _Closed()
        elif name == "stdin":  # Python made it None: INPUT '-' reads it as empty
            sys.stdin = open(fd, encoding="utf-8", closefd=False)


def end_quietly() -> None:
    """After ``ClosedOutput``: nothing more goes to standard output, and Python's own
    flush at exit finds nothing to fail on."""
    _silence(sys.stdout)
