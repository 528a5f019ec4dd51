"""Where a run's results go, in seed order: lines of puzzles (``Lines``: standard output,
or a file that ``--resume`` goes on with, written by ``FileWriter``), the store
(``StoreSink``: ``gen --db``; ``BatchSink``: a batch of ``puzzle-engine batch``), or two
of them at once (``Both``).

A sink counts what it holds (``done``): the pipeline stops when it holds the count asked
for. Each seed's puzzles are written in one call (a puzzle with its variants, or every
level a growing strategy kept), so an interrupt leaves whole groups.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import calls
from ..errors import PuzzleInputError
from ..hookspecs import PuzzleType
from .. import store as stores  # its SQLite half loads when a sink uses it
from .job import SeedResult


class Sink:
    """What takes a run's results. ``done``: what it holds so far, toward the count."""

    done: int = 0

    def take(self, result: SeedResult) -> None:
        raise NotImplementedError

    def note(self) -> str:
        """A few words for the progress bar (duplicates, say), or nothing."""
        return ""


class FileWriter:
    """Lines to ``handle`` (a file opened by ``outfile.open_output``), each group in one
    write, flushed at once. With ``replace`` (``--force``), what the file held is dropped
    at the first write (the file is locked meanwhile), not before: a run that fails or is
    interrupted before it leaves the file as it was."""

    def __init__(self, handle, replace: bool = False):
        self.handle, self.replace = handle, replace

    def __call__(self, lines: list[str]) -> None:
        try:
            if self.replace:
                self.handle.truncate(0)
                self.replace = False
            self.handle.write("".join(line + "\n" for line in lines))
            self.handle.flush()
        except OSError as exc:
            raise PuzzleInputError(f"cannot write {self.handle.name}: {exc.strerror}") from None


class Lines(Sink):
    """Each seed's puzzles in the format ``fmt`` (``text``, ``line`` or ``json``), handed
    to ``write``. ``done`` counts seeds written (from ``done`` already in the output).
    With ``noted``, a JSON record carries the level search's note (``difficulty``: the
    grade and the next seed to try, where a resumed batch goes on); a puzzle made to a
    rating band carries its ``rating`` with the next seed too. The seeds skipped since the
    last record written (their strategy found no puzzle) are listed in the next one's
    ``skipped``, so ``--resume`` knows where the seeds went (``resume.done_and_seed``)."""

    def __init__(self, ptype: PuzzleType, params: dict[str, Any], fmt: str, count: int,
                 write: Callable[[list[str]], None], done: int = 0, noted: bool = False):
        self.ptype, self.params, self.fmt, self.count = ptype, params, fmt, count
        self.write, self.done, self.noted = write, done, noted
        self.skipped: list[int] = []  # seeds skipped since the last record

    def take(self, result: SeedResult) -> None:
        if result.result is None:
            if result.skipped is not None:
                self.skipped.append(result.seed)
            return
        extra: dict[str, Any] = {}
        if self.noted and result.grade is not None:
            extra["difficulty"] = {**result.grade, "next_seed": result.seed + 1}
        if self.skipped:
            extra["skipped"] = self.skipped
        self.write(self.lines(result.result, extra or None, next_seed=result.seed + 1))
        self.skipped = []
        self.done += 1

    def lines(self, result, extra: dict[str, Any] | None = None,
              next_seed: int | None = None) -> list[str]:
        """The output lines of one generated puzzle and its variants (``extra`` is merged
        into each JSON record; a record's ``rating`` gets ``next_seed``)."""
        ptype, params, fmt = self.ptype, self.params, self.fmt
        out = []
        puzzles = (result.kept or [result.puzzle]) + result.variants
        for p in puzzles:
            if fmt == "json":
                record = {**p.to_json(ptype), **(extra or {})}
                if isinstance(record.get("rating"), dict) and next_seed is not None:
                    record["rating"] = {**record["rating"], "next_seed": next_seed}
                out.append(json.dumps(record))
                continue
            text = calls.text(ptype, "format", params=params, instance=p.instance, fmt=fmt)
            if fmt == "text" and result.variants:  # which is the original, which a variant
                text = (f"variant {p.variant} of {len(result.variants)}" if p.variant
                        else f"original (seed {p.seed})") + "\n" + text
            end = "\n" if fmt == "text" and (self.count > 1 or len(puzzles) > 1) else ""
            out.append(text + end)
        return out


class StoreSink(Sink):
    """``gen --db``: each seed's puzzles (with their variants) committed to ``store`` as
    they come; ``stored`` and ``duplicates`` say what it did. The results must carry
    their entries (``Job.entries``)."""

    def __init__(self, store: stores.Store):
        self.store = store
        self.stored = self.duplicates = 0

    def take(self, result: SeedResult) -> None:
        if result.result is None:  # off level or band, or skipped: nothing to store
            return
        with self.store.failures():
            added = self.store.add(result.entries)
        self.stored += added.stored
        self.duplicates += added.duplicates
        self.done += 1


class Both(Sink):
    """``first`` and then ``second`` take each result; ``first`` counts."""

    def __init__(self, first: Sink, second: Sink):
        self.first, self.second = first, second

    @property
    def done(self) -> int:
        return self.first.done

    def take(self, result: SeedResult) -> None:
        self.first.take(result)
        self.second.take(result)


@dataclass
class BatchSink(Sink):
    """A batch of the store (``puzzle-engine batch``): each seed's entries committed with
    the batch's next seed in one transaction, so that an interrupt keeps every puzzle
    finished before it and the same command goes on from the next seed. A puzzle whose
    canonical key is stored already counts as a duplicate; ``done`` counts the distinct
    puzzles the batch holds."""

    store: Any  # a stores.Store
    batch: Any  # a stores.Batch
    added: Any = field(default_factory=lambda: stores.Added())  # what this run stored
    candidates: int = 0    # puzzles this run made
    off_level: int = 0     # seeds this run whose puzzle missed the level
    off_band: int = 0      # seeds this run whose puzzle missed the rating band
    skipped: int = 0       # seeds this run whose strategy found no puzzle
    first_seed: int | None = None
    last_seed: int | None = None
    done: int = 0

    def __post_init__(self):
        self.done = self.store.distinct(self.batch)

    def take(self, result: SeedResult) -> None:
        skipped = int(result.skipped is not None)
        added = self.store.add(result.entries, self.batch, next_seed=result.seed + 1,
                               candidates=len(result.entries),
                               off_level=int(result.off_level), skipped=skipped,
                               off_band=int(result.off_band))
        self.added += added
        self.done += added.stored
        self.candidates += len(result.entries)
        self.off_level += result.off_level
        self.off_band += result.off_band
        self.skipped += skipped
        if self.first_seed is None:
            self.first_seed = result.seed
        self.last_seed = result.seed

    def note(self) -> str:
        return f"dup {self.added.duplicates}"
