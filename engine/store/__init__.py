"""The puzzle store (``--db FILE``): an SQLite file of puzzles, deduplicated by canonical
key, with their variants, GenPuzzles' bins and the batches that made them.

``entries`` turns a generated puzzle into what is stored (where it is made), ``schema``
holds the tables and their migrations, ``store`` writes and counts, ``owners`` keeps a
batch to one run at a time, ``query`` reads back with filters."""
from .entries import Entry, entries_of, key_of
from .query import Filters, records, stats
from .schema import SCHEMA_VERSION
from .store import Added, Batch, Store

__all__ = ["Added", "Batch", "Entry", "Filters", "SCHEMA_VERSION", "Store", "entries_of",
           "key_of", "records", "stats"]
