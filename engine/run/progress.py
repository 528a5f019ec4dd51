"""The progress bar of a run, on standard error: puzzles held of the count asked for, the
rate over this run so far and the time left at that rate (rich's own estimate uses the
last 30 s only, so the two disagreed), the time spent, and a note (duplicates, seeds off
level). ``terminal_only``: shown only on a terminal (a bar's last frame in a log is an
empty line); else its last frame is left in the log too."""
from __future__ import annotations

import functools


def _rate(task) -> float | None:
    """Puzzles per second over this run so far (the puzzles held before it left out), or
    None before the first one."""
    elapsed = task.finished_time if task.finished else task.elapsed
    done = task.completed - task.fields.get("held", 0)
    return done / elapsed if elapsed and done > 0 else None


@functools.cache
def _columns():
    """The bar's rate and time-left columns (rich's classes, made when a bar is first
    shown: a command that shows none does not load rich.progress, test_startup)."""
    # lazy: only a bar shown loads rich.progress
    from rich.progress import ProgressColumn
    from rich.text import Text

    class RateColumn(ProgressColumn):
        """Puzzles per minute, over the run so far."""

        def render(self, task) -> Text:
            rate = _rate(task)
            return Text("-/min" if rate is None else f"{60 * rate:.1f}/min",
                        style="progress.data.speed")

    class EtaColumn(ProgressColumn):
        """The time left at the rate ``RateColumn`` shows."""

        def render(self, task) -> Text:
            rate = _rate(task)
            if rate is None or task.total is None:
                return Text("ETA -:--:--", style="progress.remaining")
            left = round(max(0.0, task.total - task.completed) / rate)
            return Text(f"ETA {left // 3600}:{left % 3600 // 60:02d}:{left % 60:02d}",
                        style="progress.remaining")
    return RateColumn, EtaColumn


def __getattr__(name: str):
    """``RateColumn`` and ``EtaColumn``, made on first use (``_columns``)."""
    if name in ("RateColumn", "EtaColumn"):
        return _columns()[name == "EtaColumn"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Bar:
    """A run's progress toward ``total``, under ``title``, on ``console`` (or nothing,
    where it is not shown). Use it as a context manager around the run."""

    def __init__(self, console, title: str, total: int, terminal_only: bool = True):
        self.title, self.total = title, total
        self._progress = None
        if not terminal_only or console.is_terminal:
            # lazy: only a bar shown loads rich.progress
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn)
            RateColumn, EtaColumn = _columns()
            self._progress = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                RateColumn(), EtaColumn(), TimeElapsedColumn(), TextColumn("{task.fields[note]}"),
                console=console, transient=terminal_only)
        self._task = None

    def __enter__(self) -> "Bar":
        if self._progress is not None:
            self._progress.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)

    def update(self, done: int, note: str = "") -> None:
        """``done`` held now; the first call also says how many were held before the run."""
        if self._progress is None:
            return
        if self._task is None:
            self._task = self._progress.add_task(self.title, total=self.total,
                                                 completed=min(done, self.total), held=done,
                                                 note=note)
            return
        self._progress.update(self._task, completed=min(done, self.total), note=note)
