"""Where the puzzles to draw come from. A source yields ``Entry`` objects: a puzzle of
any type, with its record (seed, plugin version, solver, level...) for the caption.

Today there is one kind of source, JSON Lines as ``gen --format json`` writes them (a
file, or ``-`` for standard input); records of several types may be mixed. Another kind
(the puzzle store) is added by giving ``open_source`` a branch that returns an object
with the same ``entries()``."""
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
from ..types import Param


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


class JsonLines:
    """Records of ``gen --format json``, one per non-blank line."""

    def __init__(self, host: Host, name: str, text: str):
        self.host, self.name, self.text = host, name, text

    def entries(self) -> Iterator[Entry]:
        for record, where in json_lines(self.text, self.name):
            if not isinstance(record, dict) or not isinstance(record.get("type"), str):
                raise PuzzleInputError(f"{where}: not a puzzle record (a JSON object with "
                                       "a field 'type', as 'gen --format json' writes)")
            try:
                ptype = self.host.get_type(record["type"])
            except PuzzleEngineError as exc:
                raise PuzzleInputError(f"{where}: {exc}") from None
            parsed = read_record(ptype, {}, record, where)
            yield Entry(ptype, parsed.params, parsed.instance, record, where,
                        strategy_of(self.host, ptype).options)


def open_source(host: Host, source: str) -> Source:
    """The source named on the command line: a JSON Lines file, or ``-`` for stdin."""
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
