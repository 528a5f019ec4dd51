"""Where the puzzles to draw come from. A source yields ``Entry`` objects: a puzzle of
any type, with its record (seed, plugin version, solver, level...) for the caption.

There are two kinds of source: JSON Lines as ``gen --format json`` writes them (a file,
or ``-`` for standard input; records of several types may be mixed), and the puzzle
store (``batch --db``, ``gen --db``), whose puzzles a ``Selection`` picks with the
store's own filters and queries (``db query``'s). Either gives the same ``entries()``."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..engine import strategy_of
from ..errors import PuzzleEngineError, PuzzleInputError
from ..hookspecs import PuzzleType
from ..inputs import json_lines, read_input, read_record
from ..plugins import Host
from ..store import Filters, Store, records
from ..types import Param

#: The first bytes of every SQLite file.
SQLITE_HEADER = b"SQLite format 3\x00"
#: Names that mean a store even when the file is not one (its error then says why).
STORE_SUFFIXES = (".db", ".sqlite", ".sqlite3")


@dataclass(frozen=True)
class Entry:
    """One puzzle to draw: its type, canonical params and instance, the record it came
    from, and where (``file, line N``) for error messages. ``gen_options`` are the
    options of the type's strategy (``gen``'s flags beyond the params): the caption shows
    those of the record's ``options`` that are not at their defaults."""

    ptype: PuzzleType
    params: dict[str, Any]
    instance: Any
    record: dict[str, Any]
    where: str
    gen_options: tuple[Param, ...] = ()


class Source(Protocol):
    def entries(self) -> Iterator[Entry]:
        """The puzzles, in order; a bad one raises a one-line ``PuzzleInputError``."""


def entry_of(host: Host, record: Any, where: str) -> Entry:
    """The entry of one record as ``gen --format json`` writes it (a store's records
    are the same, with its own fields under ``store``)."""
    if not isinstance(record, dict) or not isinstance(record.get("type"), str):
        raise PuzzleInputError(f"{where}: not a puzzle record (a JSON object with "
                               "a field 'type', as 'gen --format json' writes)")
    try:
        ptype = host.get_type(record["type"])
    except PuzzleEngineError as exc:
        raise PuzzleInputError(f"{where}: {exc}") from None
    parsed = read_record(ptype, {}, record, where)
    return Entry(ptype, parsed.params, parsed.instance, record, where,
                 strategy_of(host, ptype).options)


class JsonLines:
    """Records of ``gen --format json``, one per non-blank line."""

    def __init__(self, host: Host, name: str, text: str):
        self.host, self.name, self.text = host, name, text

    def entries(self) -> Iterator[Entry]:
        for record, where in json_lines(self.text, self.name):
            yield entry_of(self.host, record, where)


@dataclass(frozen=True)
class Selection:
    """Which of a store's puzzles to draw: ``db query``'s filters, at most ``limit`` of
    them (the first stored, or with ``draw`` a reproducible random draw)."""

    filters: Filters
    limit: int | None = None
    draw: int | None = None


class StorePuzzles:
    """The stored puzzles a selection picks, in the order they were stored. Only the
    puzzles (not GenPuzzles' bins, which no ``gen --seed`` makes again, nor the variants),
    each with its record (seed, plugin version, solver, level, options) as ``gen`` wrote it,
    so that its caption's id reproduces it."""

    def __init__(self, host: Host, path: str, selection: Selection):
        self.host, self.path, self.selection = host, path, selection
        self.store = Store(Path(path), create=False, option="INPUT")

    def entries(self) -> Iterator[Entry]:
        chosen = self.selection
        with self.store:
            for record in records(self.store, chosen.filters, "puzzles", False, chosen.limit,
                                  chosen.draw):
                yield entry_of(self.host, record, f"{self.path}, puzzle {record['store']['id']}")


def is_store(source: str) -> bool:
    """Whether ``source`` names a store: an SQLite file, or a name such as ``corpus.db``."""
    if source == "-":
        return False
    path = Path(source)
    if path.suffix.lower() in STORE_SUFFIXES:
        return True
    try:
        with path.open("rb") as file:
            return file.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def open_source(host: Host, source: str, selection: Selection | None = None) -> Source:
    """The source named on the command line: a store (its puzzles that ``selection``
    picks, all of them by default), a JSON Lines file, or ``-`` for stdin. A selection is
    refused for JSON Lines, which are drawn as they are."""
    if is_store(source):
        return StorePuzzles(host, source, selection or Selection(Filters()))
    if selection is not None:
        raise PuzzleInputError(f"{'stdin' if source == '-' else source}: --type, --param, "
                               "--level, --limit and --draw select from a store (batch --db), "
                               "and this is JSON Lines, drawn as they are")
    text = read_input(source)
    if text is None:
        if Path(source).is_dir():
            raise PuzzleInputError(f"{source} is a folder, not a file of puzzles")
        raise PuzzleInputError(f"no such file: {source}")
    name = "stdin" if source == "-" else source
    if not text.strip():
        raise PuzzleInputError(f"{name}: empty input (expected JSON Lines from "
                               "'gen --format json')")
    if not text.lstrip().startswith("{"):
        raise PuzzleInputError(f"{name}: not JSON Lines (render reads the records of "
                               "'gen --format json')")
    return JsonLines(host, name, text)
