"""The store's schema, its version and its migrations.

A store is an SQLite file marked as ours by its ``application_id``, with its schema
version in ``user_version``. Opening a store brings an older one up to date, one step at
a time, each step in the transaction that also sets the new version (so a crash leaves
the store at a version it had). A store of a newer version than this engine knows is
refused, and so is an SQLite file that is not a store.
"""
from __future__ import annotations

import contextlib
import re
import sqlite3

#: 'PZEN': marks an SQLite file as a puzzle-engine store.
APPLICATION_ID = 0x505A454E

#: Step k brings a store from version k-1 to version k.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: batches and puzzles. A puzzle's key is unique among the puzzles of its type that
    # are not variants; a variant keeps its source's key and points at it.
    ("""CREATE TABLE batches (
            id INTEGER PRIMARY KEY,
            type TEXT NOT NULL,
            params TEXT NOT NULL,
            settings TEXT NOT NULL,
            seed INTEGER NOT NULL,
            count INTEGER NOT NULL,
            next_seed INTEGER NOT NULL,
            candidates INTEGER NOT NULL DEFAULT 0,
            duplicates INTEGER NOT NULL DEFAULT 0,
            off_level INTEGER NOT NULL DEFAULT 0,
            started_at TEXT NOT NULL,
            updated_at TEXT NOT NULL)""",
     """CREATE TABLE puzzles (
            id INTEGER PRIMARY KEY,
            type TEXT NOT NULL,
            params TEXT NOT NULL,
            key TEXT NOT NULL,
            canonical TEXT,
            instance TEXT NOT NULL,
            solution TEXT,
            variant_of INTEGER REFERENCES puzzles(id),
            variant INTEGER,
            level TEXT,
            grade TEXT,
            complexity TEXT,
            complexity_level TEXT,
            seed INTEGER NOT NULL,
            plugin TEXT,
            plugin_version TEXT,
            solver TEXT,
            solver_version TEXT,
            engine_version TEXT,
            meta TEXT NOT NULL DEFAULT '{}',
            batch_id INTEGER REFERENCES batches(id),
            created_at TEXT NOT NULL)""",
     "CREATE UNIQUE INDEX puzzles_key ON puzzles(type, key) WHERE variant_of IS NULL",
     "CREATE INDEX puzzles_type_level ON puzzles(type, level)",
     "CREATE INDEX puzzles_type_params ON puzzles(type, params)",
     "CREATE INDEX puzzles_created ON puzzles(created_at)",
     "CREATE INDEX puzzles_variant_of ON puzzles(variant_of)",
     "CREATE INDEX puzzles_batch ON puzzles(batch_id, variant_of)"),
    # 2: GenPuzzles' complDict: every board accepted while a stored puzzle was emptied,
    # binned by the level of the complexity function in use (with ``difficulty``, the
    # graded level), unique by key within a type and complexity function.
    ("""CREATE TABLE bins (
            id INTEGER PRIMARY KEY,
            puzzle_id INTEGER NOT NULL REFERENCES puzzles(id),
            type TEXT NOT NULL,
            complexity TEXT NOT NULL,
            level TEXT NOT NULL,
            key TEXT NOT NULL,
            instance TEXT NOT NULL,
            created_at TEXT NOT NULL)""",
     "CREATE UNIQUE INDEX bins_key ON bins(type, complexity, key)",
     "CREATE INDEX bins_level ON bins(type, level)"),
    # 3: who runs a batch: one row per batch being run, the command process that writes
    # the store (its host and boot, pid and start time) and its heartbeat. A run takes the
    # row in the transaction that finds or starts its batch, and drops it when it ends; a
    # row whose process is gone (or, from another host, whose heartbeat stopped) is stale.
    ("""CREATE TABLE owners (
            batch_id INTEGER PRIMARY KEY REFERENCES batches(id),
            host TEXT NOT NULL,
            boot TEXT NOT NULL,
            pid INTEGER NOT NULL,
            started TEXT NOT NULL,
            taken_at TEXT NOT NULL,
            beat_at TEXT NOT NULL)""",),
    # 4: puzzles made to a band of the step rating (gen and batch --rating): the rating in
    # a column of its own (``db query --rating LO-HI``; a record written before keeps it
    # in meta, copied here); a batch's seeds skipped (the strategy found no puzzle) and
    # off the band.
    ("ALTER TABLE puzzles ADD COLUMN rating REAL",
     """UPDATE puzzles SET rating = json_extract(meta, '$.rating.score')
        WHERE json_valid(meta) AND json_type(meta, '$.rating.score') IN ('real', 'integer')""",
     "CREATE INDEX puzzles_type_rating ON puzzles(type, rating)",
     "ALTER TABLE batches ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0",
     "ALTER TABLE batches ADD COLUMN off_band INTEGER NOT NULL DEFAULT 0"),
)
SCHEMA_VERSION = len(MIGRATIONS)
#: The version reading a store needs (``db``, ``render``): the later steps add only what
#: writers use (3: owners; 4: the rating column and the batches' counts of skipped and
#: off-band seeds, which a reader of an older store takes as none), so a store that is
#: read is not written for them (and an older store in a read-only file stays readable).
READ_VERSION = 2

#: The tables each version has (a store that lacks one is damaged, or not ours).
TABLES: tuple[frozenset[str], ...] = tuple(
    frozenset(re.findall(r"CREATE TABLE (\w+)", " ".join(s for step in MIGRATIONS[:k]
                                                           for s in step)))
    for k in range(SCHEMA_VERSION + 1))


class SchemaError(Exception):
    """Not a store, or one this engine cannot read (the message says which)."""


def migrate(conn: sqlite3.Connection, upto: int = SCHEMA_VERSION, create: bool = True) -> int:
    """Bring the store on ``conn`` to version ``upto``; with ``create``, a new (empty)
    file becomes a store (else it is refused: reading never makes one). Returns the
    version it had."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = {name for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    if app_id != APPLICATION_ID:
        if app_id != 0 or tables or version != 0:
            raise SchemaError("an SQLite database, but not a puzzle-engine store")
        if not create:
            raise SchemaError("an empty file, not a puzzle-engine store")
    if version > SCHEMA_VERSION:
        raise SchemaError(f"a store of schema version {version}, made by a newer "
                          f"puzzle-engine (this one reads up to version {SCHEMA_VERSION})")
    if app_id == APPLICATION_ID and (version == 0 or not TABLES[version] <= tables):
        # We set the mark and the version in the transaction that makes the tables: a
        # marked file without them was not made by us (or lost them); it is left alone.
        missing = sorted(TABLES[version] - tables)
        what = (f"table{'s' if len(missing) > 1 else ''} {', '.join(missing)}" if missing
                else "tables and schema version")
        raise SchemaError(f"marked as a puzzle-engine store but without its {what}: "
                          "damaged, or not made by puzzle-engine; left as it is")
    start = version
    while version < upto:
        with transaction(conn):
            # Read again under the write lock: another process may have opened the same
            # new or old store at the same moment and brought it up already.
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version >= upto:
                break
            for statement in MIGRATIONS[version]:
                conn.execute(statement)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {version + 1}")
        version += 1
    return start


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection):
    """One write transaction on ``conn`` (opened in autocommit mode): all of it is
    committed, or, on any exception or interrupt, none of it."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:  # SQLite rolls back by itself on some errors (a full disk)
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
