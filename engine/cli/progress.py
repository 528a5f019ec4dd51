"""Progress bars on standard error for the long commands (``render``, ``grade``,
``explain``, ``train``): shown on a terminal only (a bar's frames in a log or a pipe are
noise), with the time left from the rate observed over the run (``batch``'s
``EtaColumn``), and gone when the work is done."""
from __future__ import annotations

import contextlib
from collections.abc import Callable

from .common import err_console


class NoProgress(contextlib.nullcontext):
    """No bar: stderr is not a terminal."""

    def __enter__(self):
        return self

    def add_task(self, *args, **kwargs) -> None:
        return None

    def advance(self, task, advance: float = 1) -> None:
        pass

    def update(self, task, **kwargs) -> None:
        pass


def bar():
    """A progress bar on stderr when it is a terminal, else ``NoProgress``: use it as a
    context manager, ``add_task(description, total=N)`` then ``advance(task)``."""
    if not err_console.is_terminal:
        return NoProgress()
    # lazy: only a bar on a terminal loads rich.progress (test_startup)
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn)
    from ..run.progress import EtaColumn  # the run's bar's time left, from the rate so far
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    EtaColumn(), TimeElapsedColumn(), console=err_console, transient=True)


class Stages:
    """The stages of one command on one bar: ``stages(description, total)`` starts a
    stage (a task of the bar) and returns the function that marks one item of it done.
    This is the ``progress`` that ``puzzle_engine.render`` takes, which knows no bar."""

    def __init__(self, progress):
        self._progress = progress
        self._last = None

    def __call__(self, description: str, total: int) -> Callable[[], None]:
        if self._last is not None:  # one stage shown at a time
            self._progress.update(self._last, visible=False)
        task = self._progress.add_task(description, total=total)
        self._last = task
        return lambda: self._progress.advance(task)
