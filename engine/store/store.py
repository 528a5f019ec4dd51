"""The puzzle store: an SQLite file (the standard library's ``sqlite3``) with one table of
puzzles, their variants linked to them, GenPuzzles' bins, and the batches that filled it.

One process writes a store at a time (the command, never its workers), and every write
is a transaction: a batch of entries, with the batch's progress, is committed whole or
not at all, so a crash or an interrupt never leaves half a puzzle. A puzzle whose
canonical key is already stored for its type is refused and counted as a duplicate.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import PuzzleInputError, one_line
from ..files import check_writable
from . import owners
from .entries import Entry, dumps
from .schema import READ_VERSION, SCHEMA_VERSION, SchemaError, migrate, transaction


def now() -> str:
    """The time as the store writes it: ISO 8601 in UTC, to the microsecond."""
    return owners.stamp()


def read_only(path: Path) -> bool:
    """Whether ``path`` is on a file system mounted read-only."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def cannot_open(path: Path, exc: sqlite3.Error) -> str:
    """Why SQLite cannot open the store at ``path`` ('unable to open database file' says
    little): a store is kept in WAL mode, so opening it, even to read, makes its
    ``-wal`` and ``-shm`` files beside it, which a read-only folder refuses."""
    folder = path.parent
    if not os.access(path, os.R_OK) and path.exists():
        return "the file is not readable"
    if not os.access(folder, os.W_OK | os.X_OK):
        how = "is on a read-only file system" if read_only(folder) else "is not writable"
        return (f"the folder {folder} {how}, and SQLite must create {path.name}-wal and "
                f"{path.name}-shm beside a store to open it, even to read (copy the store to "
                "a writable folder)")
    return f"SQLite cannot open it ({one_line(exc)})"


class BatchHeld(PuzzleInputError):
    """The batch is run by another command (the message names the batch and the run)."""


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

    def __init__(self, path: Path, create: bool = True, option: str = "--db",
                 upgrade: bool = True):
        path = Path(path)
        self.path = path
        self._held = None  # (batch id, owner, heartbeat) while this process runs a batch
        if create:
            check_writable(path, option)
        elif path.is_dir():
            raise PuzzleInputError(f"bad {option} {path}: it is a folder, not a file")
        elif not path.is_file():
            raise PuzzleInputError(f"bad {option} {path}: no such file")
        try:
            self.conn = sqlite3.connect(path, timeout=60, isolation_level=None)
        except sqlite3.Error as exc:
            raise PuzzleInputError(f"bad {option} {path}: {cannot_open(path, exc)}") from None
        try:
            self.conn.execute("PRAGMA foreign_keys = ON")
            if not upgrade:  # only checked, nothing written
                migrate(self.conn, upto=0, create=create)
                return
            migrate(self.conn, upto=SCHEMA_VERSION if create else READ_VERSION, create=create)
            # WAL: readers never block the writer; NORMAL sync: a commit survives a crash
            # of the process (not of the machine's power, where the last commits may go).
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = NORMAL")
        except SchemaError as exc:
            self.conn.close()
            raise PuzzleInputError(f"bad {option} {path}: {exc}") from None
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            what = ("not an SQLite database" if "not a database" in str(exc) else
                    cannot_open(path, exc) if "unable to open" in str(exc) else str(exc))
            raise PuzzleInputError(f"bad {option} {path}: {what}") from None

    @classmethod
    def check(cls, path: Path, option: str = "--db") -> None:
        """Refuse, before any work, a file at ``path`` that is not a store this engine can
        write, leaving it as it is; a missing or empty file will become a new store."""
        path = Path(path)
        check_writable(path, option)
        if path.is_file() and path.stat().st_size:
            cls(path, create=False, option=option, upgrade=False).close()

    def close(self) -> None:
        try:
            self.release()
        except sqlite3.Error:
            pass  # a store failing as the run ends: a dead holder is taken over later
        finally:
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
    def _find(self, type_name: str, params: dict[str, Any], settings: dict[str, Any],
              seed: int | None) -> Batch | None:
        args: list[Any] = [type_name, dumps(params), dumps(settings)]
        where = "type = ? AND params = ? AND settings = ?"
        if seed is not None:
            where += " AND seed = ?"
            args.append(seed)
        row = self.conn.execute(f"SELECT id, seed, count, next_seed, candidates, duplicates, "
                                f"off_level FROM batches WHERE {where} ORDER BY id DESC LIMIT 1",
                                args).fetchone()
        return None if row is None else Batch(*row)

    def _insert_batch(self, type_name, params, settings, seed, count, stamp) -> Batch:
        cursor = self.conn.execute(
            "INSERT INTO batches (type, params, settings, seed, count, next_seed, "
            "started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (type_name, dumps(params), dumps(settings), seed, count, seed, stamp, stamp))
        return Batch(cursor.lastrowid, seed, count, seed, 0, 0, 0)

    def run_batch(self, type_name: str, params: dict[str, Any], settings: dict[str, Any],
                  seed: int | None, count: int,
                  new_seed: Callable[[], int]) -> tuple[Batch, bool]:
        """The batch to run, held by this process until ``release`` (or ``close``): the
        latest of this type, params and settings that started at ``seed`` (any seed when
        None), its count set to ``count``, else a new one from ``seed`` (or
        ``new_seed()``); and whether it is new. Found, held and started in one
        transaction, so that two runs of one batch started at once cannot both run it; a
        batch another live run holds is refused, naming it and that run."""
        me = owners.Owner.this_process()
        with transaction(self.conn):
            batch = self._find(type_name, params, settings, seed)
            created = batch is None
            if created:
                batch = self._insert_batch(type_name, params, settings,
                                           new_seed() if seed is None else seed, count, now())
            held = owners.take(self.conn, batch.id, me)
            if held is not None:
                owner, taken_at = held
                raise BatchHeld(
                    f"store {self.path}: batch {batch.id} ({type_name}, seed {batch.seed}) is "
                    f"being run by another puzzle-engine command ({owner.describe(taken_at)}); "
                    "one run at a time per batch: wait for it to end, or stop it")
            if count != batch.count:
                self.conn.execute("UPDATE batches SET count = ? WHERE id = ?", (count, batch.id))
                batch.count = count
        self._held = (batch.id, me, owners.Heartbeat(self.path, batch.id, me))
        return batch, created

    def release(self) -> None:
        """Let go of the batch this process runs (nothing when it runs none)."""
        held, self._held = self._held, None
        if held is None:
            return
        batch_id, me, heartbeat = held
        heartbeat.stop()
        with transaction(self.conn):
            owners.release(self.conn, batch_id, me)

    def distinct(self, batch: Batch) -> int:
        """The distinct puzzles (not variants) the batch has stored."""
        return self.conn.execute("SELECT count(*) FROM puzzles WHERE batch_id = ? AND "
                                 "variant_of IS NULL", (batch.id,)).fetchone()[0]

    # -- writing -------------------------------------------------------------------------
    def add(self, entries: Iterable[Entry], batch: Batch | None = None, next_seed: int | None = None,
            candidates: int = 0, off_level: int = 0, skipped: int = 0,
            off_band: int = 0) -> Added:
        """Store ``entries`` in one transaction, each refused when its key is stored
        already (its variants and bins with it); with ``batch``, the batch's progress
        (``next_seed``, counts: seeds off the level, skipped, off the rating band) in the
        same transaction."""
        added = Added()
        stamp = now()
        conn = self.conn
        with transaction(conn):
            if batch is not None and self._held is not None and self._held[0] == batch.id \
                    and not owners.holds(conn, batch.id, self._held[1]):
                held = owners.holder(conn, batch.id)
                raise BatchHeld(f"store {self.path}: batch {batch.id} was taken over by another "
                                "puzzle-engine command" + (f" ({held[0].describe(held[1])})"
                                                           if held else "")
                                + "; this run stops")
            for e in entries:
                c = e.columns
                cursor = conn.execute(
                    "INSERT OR IGNORE INTO puzzles (type, params, key, canonical, instance, "
                    "solution, level, grade, complexity, complexity_level, seed, plugin, "
                    "plugin_version, solver, solver_version, engine_version, meta, batch_id, "
                    "created_at, rating) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                    "?, ?, ?, ?)",
                    (e.type, e.params, e.key, e.canonical, e.instance, e.solution, e.level,
                     e.grade, e.complexity, e.complexity_level, e.seed, c["plugin"],
                     c["plugin_version"], c["solver"], c["solver_version"],
                     c["engine_version"], e.meta, batch.id if batch else None, stamp,
                     e.rating))
                if cursor.rowcount == 0:
                    added.duplicates += 1
                    continue
                added.stored += 1
                source = cursor.lastrowid
                conn.executemany(
                    "INSERT INTO puzzles (type, params, key, instance, solution, variant_of, "
                    "variant, level, grade, seed, plugin, plugin_version, solver, "
                    "solver_version, engine_version, meta, batch_id, created_at, rating) "
                    "SELECT type, params, key, ?, ?, id, ?, level, grade, seed, plugin, "
                    "plugin_version, solver, solver_version, engine_version, meta, batch_id, "
                    "created_at, rating FROM puzzles WHERE id = ?",
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
                             "skipped = skipped + ?, off_band = off_band + ?, "
                             "updated_at = ? WHERE id = ?",
                             (next_seed if next_seed is not None else batch.next_seed,
                              candidates, added.duplicates, off_level, skipped, off_band,
                              stamp, batch.id))
        if batch is not None:
            if next_seed is not None:
                batch.next_seed = next_seed
            batch.candidates += candidates
            batch.duplicates += added.duplicates
            batch.off_level += off_level
        return added

    # -- reading -------------------------------------------------------------------------
    @property
    def version(self) -> int:
        """The store's schema version (a reader may see an older one: ``READ_VERSION``)."""
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    def execute(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, args)
