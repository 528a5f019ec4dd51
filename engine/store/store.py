"""The puzzle store: an SQLite file (the standard library's ``sqlite3``) with one table of
puzzles, their variants linked to them, GenPuzzles' bins, and the batches that filled it.

One process writes a store at a time (the command, never its workers), and every write
is a transaction: a batch of entries, with the batch's progress, is committed whole or
not at all, so a crash or an interrupt never leaves half a puzzle. A puzzle whose
canonical key is already stored for its type is refused and counted as a duplicate.
"""
from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..errors import PuzzleInputError, one_line
from ..files import check_writable
from .entries import Entry, dumps
from .schema import SchemaError, migrate, transaction


def now() -> str:
    """The time as the store writes it: ISO 8601 in UTC, to the microsecond."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass
class Batch:
    """A batch's row: what it is (type, params, settings: everything that decides its
    puzzles besides the seed), where it stands, and what it has counted."""

    id: int
    seed: int
    count: int
    next_seed: int
    candidates: int
    duplicates: int
    off_level: int


@dataclass
class Added:
    """What one write did: puzzles stored, candidates equivalent to stored ones, variants
    and bins stored."""

    stored: int = 0
    duplicates: int = 0
    variants: int = 0
    bins: int = 0

    def __iadd__(self, other: "Added") -> "Added":
        self.stored += other.stored
        self.duplicates += other.duplicates
        self.variants += other.variants
        self.bins += other.bins
        return self


class Store:
    """An open store. ``create``: make the file if it does not exist (``gen`` and
    ``batch``); else it must exist (``db``). ``option`` names the path in errors."""

    def __init__(self, path: Path, create: bool = True, option: str = "--db"):
        path = Path(path)
        self.path = path
        if create:
            check_writable(path, option)
        elif path.is_dir():
            raise PuzzleInputError(f"bad {option} {path}: it is a folder, not a file")
        elif not path.is_file():
            raise PuzzleInputError(f"bad {option} {path}: no such file")
        try:
            self.conn = sqlite3.connect(path, timeout=60, isolation_level=None)
        except sqlite3.Error as exc:
            raise PuzzleInputError(f"bad {option} {path}: cannot open it ({exc})") from None
        try:
            self.conn.execute("PRAGMA foreign_keys = ON")
            migrate(self.conn, create=create)
            # WAL: readers never block the writer; NORMAL sync: a commit survives a crash
            # of the process (not of the machine's power, where the last commits may go).
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = NORMAL")
        except SchemaError as exc:
            self.conn.close()
            raise PuzzleInputError(f"bad {option} {path}: {exc}") from None
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            what = "not an SQLite database" if "not a database" in str(exc) else str(exc)
            raise PuzzleInputError(f"bad {option} {path}: {what}") from None

    def close(self) -> None:
        self.conn.close()

    @contextlib.contextmanager
    def failures(self):
        """SQLite's errors while the store is in use (a damaged file, a disk full, a lock
        held too long) as one line naming the store."""
        try:
            yield self
        except sqlite3.Error as exc:
            raise PuzzleInputError(f"store {self.path}: {one_line(exc)}") from None
        except OverflowError:  # a seed past SQLite's 64-bit whole numbers, say
            raise PuzzleInputError(f"store {self.path}: a number too large for it (SQLite "
                                   "holds whole numbers up to 2**63 - 1)") from None

    def __enter__(self) -> "Store":
        self._failures = self.failures()
        self._failures.__enter__()
        return self

    def __exit__(self, *exc) -> bool | None:
        try:
            return self._failures.__exit__(*exc)
        finally:
            self.close()

    # -- batches -------------------------------------------------------------------------
    def batch(self, type_name: str, params: dict[str, Any], settings: dict[str, Any],
              seed: int | None, count: int) -> Batch | None:
        """The batch of this type, params and settings that started at ``seed`` (the
        latest one when ``seed`` is None), with its ``count`` raised to ``count``; None
        when there is none."""
        args: list[Any] = [type_name, dumps(params), dumps(settings)]
        where = "type = ? AND params = ? AND settings = ?"
        if seed is not None:
            where += " AND seed = ?"
            args.append(seed)
        row = self.conn.execute(f"SELECT id, seed, count, next_seed, candidates, duplicates, "
                                f"off_level FROM batches WHERE {where} ORDER BY id DESC LIMIT 1",
                                args).fetchone()
        if row is None:
            return None
        batch = Batch(*row)
        if count != batch.count:
            with transaction(self.conn):
                self.conn.execute("UPDATE batches SET count = ? WHERE id = ?", (count, batch.id))
            batch.count = count
        return batch

    def new_batch(self, type_name: str, params: dict[str, Any], settings: dict[str, Any],
                  seed: int, count: int) -> Batch:
        stamp = now()
        with transaction(self.conn):
            cursor = self.conn.execute(
                "INSERT INTO batches (type, params, settings, seed, count, next_seed, "
                "started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (type_name, dumps(params), dumps(settings), seed, count, seed, stamp, stamp))
        return Batch(cursor.lastrowid, seed, count, seed, 0, 0, 0)

    def distinct(self, batch: Batch) -> int:
        """The distinct puzzles (not variants) the batch has stored."""
        return self.conn.execute("SELECT count(*) FROM puzzles WHERE batch_id = ? AND "
                                 "variant_of IS NULL", (batch.id,)).fetchone()[0]

    # -- writing -------------------------------------------------------------------------
    def add(self, entries: Iterable[Entry], batch: Batch | None = None, next_seed: int | None = None,
            candidates: int = 0, off_level: int = 0) -> Added:
        """Store ``entries`` in one transaction, each refused when its key is stored
        already (its variants and bins with it); with ``batch``, the batch's progress
        (``next_seed``, counts) in the same transaction."""
        added = Added()
        stamp = now()
        conn = self.conn
        with transaction(conn):
            for e in entries:
                c = e.columns
                cursor = conn.execute(
                    "INSERT OR IGNORE INTO puzzles (type, params, key, canonical, instance, "
                    "solution, level, grade, complexity, complexity_level, seed, plugin, "
                    "plugin_version, solver, solver_version, engine_version, meta, batch_id, "
                    "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (e.type, e.params, e.key, e.canonical, e.instance, e.solution, e.level,
                     e.grade, e.complexity, e.complexity_level, e.seed, c["plugin"],
                     c["plugin_version"], c["solver"], c["solver_version"],
                     c["engine_version"], e.meta, batch.id if batch else None, stamp))
                if cursor.rowcount == 0:
                    added.duplicates += 1
                    continue
                added.stored += 1
                source = cursor.lastrowid
                conn.executemany(
                    "INSERT INTO puzzles (type, params, key, instance, solution, variant_of, "
                    "variant, level, grade, seed, plugin, plugin_version, solver, "
                    "solver_version, engine_version, meta, batch_id, created_at) "
                    "SELECT type, params, key, ?, ?, id, ?, level, grade, seed, plugin, "
                    "plugin_version, solver, solver_version, engine_version, meta, batch_id, "
                    "created_at FROM puzzles WHERE id = ?",
                    [(instance, solution, k, source) for k, instance, solution in e.variants])
                added.variants += len(e.variants)
                for name, level, key, instance in e.bins:
                    cursor = conn.execute(
                        "INSERT OR IGNORE INTO bins (puzzle_id, type, complexity, level, key, "
                        "instance, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (source, e.type, name, level, key, instance, stamp))
                    added.bins += cursor.rowcount
            if batch is not None:
                conn.execute("UPDATE batches SET next_seed = ?, candidates = candidates + ?, "
                             "duplicates = duplicates + ?, off_level = off_level + ?, "
                             "updated_at = ? WHERE id = ?",
                             (next_seed if next_seed is not None else batch.next_seed,
                              candidates, added.duplicates, off_level, stamp, batch.id))
        if batch is not None:
            if next_seed is not None:
                batch.next_seed = next_seed
            batch.candidates += candidates
            batch.duplicates += added.duplicates
            batch.off_level += off_level
        return added

    # -- reading -------------------------------------------------------------------------
    def execute(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, args)
