"""The puzzle store (``--db FILE``): an SQLite file of puzzles, deduplicated by canonical
key, with their variants, GenPuzzles' bins and the batches that made them.

``entries`` turns a generated puzzle into what is stored (where it is made), ``schema``
holds the tables and their migrations, ``store`` writes and counts, ``owners`` keeps a
batch to one run at a time, ``query`` reads back with filters."""
import importlib

from .entries import Entry, entries_of, key_of

#: Names of the modules that open SQLite, imported when first asked for (PEP 562): a
#: command that stores nothing does not load sqlite3 (tests/cli/test_startup.py).
_LAZY = {"Filters": "query", "records": "query", "stats": "query",
         "SCHEMA_VERSION": "schema", "Added": "store", "Batch": "store", "Store": "store"}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Added", "Batch", "Entry", "Filters", "SCHEMA_VERSION", "Store", "entries_of",
           "key_of", "records", "stats"]
