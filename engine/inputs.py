"""Reading the puzzles a command is given (INPUT of ``solve``, ``check`` and ``grade``).

INPUT is standard input (``-``), a file, or the puzzle itself; what it holds is sniffed:
one puzzle in the type's text formats, several in the line format (one per line, as
``gen --format line`` writes them), or JSON Lines records (as ``gen --format json``
writes them). A bad input is a one-line ``PuzzleInputError`` that names where it is.
Standard input and files are read a line at a time, each line at most ``MAX_LINE`` bytes,
so an endless line (``/dev/zero`` piped in) is refused instead of filling the memory.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from . import calls, files
from .errors import PuzzleEngineError, PuzzleInputError
from .hookspecs import FlatBoard, PuzzleType
from .types import Parsed

#: Endings of a word the user most likely meant as a file name.
_FILE_SUFFIXES = (".txt", ".json", ".jsonl", ".csv", ".sdk", ".dat")
#: The longest line of INPUT, in bytes without its line break: 4 MB, some hundred times a
#: record of the largest boards the types make.
MAX_LINE = 4_000_000


def parse(ptype: PuzzleType, raw: dict[str, Any], text: str) -> Parsed:
    """One puzzle of ``ptype`` read from ``text`` by the type, with the options ``raw``
    given on the command line (the others unset); a flat board is checked."""
    full_raw = {p.name: raw.get(p.name) for p in ptype.params}
    parsed = calls.parsed(ptype, full_raw, text)
    if isinstance(ptype, FlatBoard):
        return Parsed(parsed.params, calls.board(ptype, "parse", parsed.params, parsed.instance,
                                                 full=False))
    return parsed


def load_puzzles(ptype: PuzzleType, raw: dict[str, Any], source: str) -> Iterator[Parsed]:
    """The puzzles of INPUT ``source`` (stdin, a file, or the puzzle itself), one at a
    time: one puzzle in the type's text formats, several in the line format, or JSON
    Lines records. ``raw`` are the puzzle options given on the command line."""
    text = read_input(source)
    literal = text is None
    if literal:
        text = source
    if not text.strip():
        raise PuzzleInputError(f"{source}: empty input")
    name = "stdin" if source == "-" else source
    if text.lstrip().startswith("{"):
        yield from _from_records(ptype, raw, text, name)
        return
    line_error = None
    try:
        by_line = puzzles_by_line(ptype, raw, text, name)
    except PuzzleInputError as exc:  # a list of puzzles with a bad line, or one grid
        by_line, line_error = None, exc
    if by_line is not None:
        yield from by_line
        return
    try:
        parsed = parse(ptype, raw, text)
    except PuzzleInputError as exc:
        if literal and _path_is(source, Path.is_dir):
            raise PuzzleInputError(f"{source} is a folder, not a puzzle file") from None
        if literal and looks_like_path(source):
            raise PuzzleInputError(f"no such file: {source}") from None
        if line_error is not None:
            raise line_error from None
        if not literal:  # name the file (or stdin) the grid came from
            raise PuzzleInputError(f"{name}: {exc}") from None
        raise
    yield parsed


def read_input(source: str) -> str | None:
    """The text of standard input (``-``) or of the file ``source``; None when there is no
    such file, so that ``source`` is the puzzle itself. Each line is at most ``MAX_LINE``
    bytes (``read_lines``)."""
    if source == "-":
        return read_lines(getattr(sys.stdin, "buffer", sys.stdin), "stdin")
    if not _path_is(source, Path.is_file):
        return None
    try:
        with open(source, "rb") as handle:
            return read_lines(handle, source)
    except OSError as exc:
        raise PuzzleInputError(f"cannot read {source}: {exc.strerror or exc}") from None


def read_lines(stream, name: str) -> str:
    """The text of the binary ``stream`` (``files.decode``), read a line at a time: a line
    longer than ``MAX_LINE`` bytes is an error naming ``name`` and the line, found when
    that much of it is read."""
    lines = []
    while line := stream.readline(MAX_LINE + 1):
        if len(line) > MAX_LINE and not (len(line) == MAX_LINE + 1 and line.endswith(b"\n")):
            raise PuzzleInputError(f"{name}, line {len(lines) + 1}: longer than {MAX_LINE} "
                                   "bytes, the most a line of INPUT may have")
        lines.append(line)
    return files.decode(b"".join(lines), name)


def _path_is(source: str, test: Callable[[Path], bool]) -> bool:
    """``test(Path(source))``, false for what cannot be a path (a long puzzle string) and
    for the empty string (``Path("")`` is the working folder)."""
    try:
        return bool(source.strip()) and test(Path(source))
    except (OSError, ValueError):
        return False


def looks_like_path(source: str) -> bool:
    """A name the user most likely meant as a file: one word that starts with a directory
    or ends with a file suffix (a puzzle literal such as '..6...9.8' has neither)."""
    return not any(ch.isspace() for ch in source) and (
        source.startswith(("/", "./", "../", "~")) or source.endswith(_FILE_SUFFIXES))


def puzzles_by_line(ptype: PuzzleType, raw: dict[str, Any], text: str,
                    where: str) -> list[Parsed] | None:
    """The puzzles of ``text`` read as one puzzle per line, as ``gen --format line`` writes
    them: when it has two lines or more and each line is on its own a puzzle of at least
    2x2. A row of a text grid is normally not (one row high, or a number of cells that is
    not a board), and where it can be, a grid's border lines are not (plugin-authoring.md
    asks this of a plugin's formats). None when the first line is not a puzzle, or a line
    is one smaller than 2x2. A later line that is not a puzzle raises its error, naming the
    line (the caller reports it unless the whole text is one puzzle).

    This is tried before reading the text as one puzzle, because some lists of puzzles also
    read as one: four lines of 16 cells make 64, an 8x8 board when a plugin ignores line
    breaks, and lines of one width stack into a taller board when a plugin reads a line
    break as the end of a row."""
    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) < 2:
        return None
    parsed = []
    for number, line in lines:
        try:
            puzzle = parse(ptype, raw, line)
        except PuzzleInputError as exc:
            if not parsed:
                return None
            raise PuzzleInputError(f"{where}, line {number}: {exc}") from None
        shape = getattr(ptype, "shape", None)  # a grid's rows are no puzzles of one row
        if shape is not None and min(calls.call(ptype, "shape", params=puzzle.params)) < 2:
            return None
        parsed.append(puzzle)
    return parsed


def _from_records(ptype: PuzzleType, raw: dict[str, Any], text: str,
                  name: str) -> Iterator[Parsed]:
    """The puzzles of JSON Lines records (``gen --format json``), one per non-blank line
    (``read_record``)."""
    for record, where in json_lines(text, name):
        yield read_record(ptype, raw, record, where)


def json_lines(text: str, name: str) -> Iterator[tuple[Any, str]]:
    """Each non-blank line of ``text`` read as JSON, with where it is (``NAME, line N``)."""
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{name}, line {number}"
        try:
            yield json.loads(line), where
        except json.JSONDecodeError as exc:
            raise PuzzleInputError(f"{where}: not a puzzle record ({exc})") from None


def read_record(ptype: PuzzleType, raw: dict[str, Any], record: Any, where: str) -> Parsed:
    """The puzzle of one JSON record (``gen --format json``), named ``where`` in errors.
    Options given on the command line (``raw``) override the record's; the puzzle is
    written in the line format and read back, so that it is checked as a typed-in one is."""
    if not isinstance(record, dict):
        raise PuzzleInputError(f"{where}: not a puzzle record (a JSON object)")
    if record.get("type", ptype.name) != ptype.name:
        raise PuzzleInputError(f"{where}: a '{record.get('type')}' puzzle, not '{ptype.name}'")
    params = record.get("params", {})
    if not isinstance(params, dict):
        raise PuzzleInputError(f"{where}: field 'params' must be an object")
    params = {**params, **raw}
    for p in ptype.params:  # JSON's types, as the type declares them
        value = params.get(p.name)
        wanted = (int, float) if p.type is float else p.type  # JSON writes 2.0 as 2
        if p.type in (int, float, str, bool) and value is not None and (
                not isinstance(value, wanted) or (p.type is not bool and isinstance(value, bool))):
            raise PuzzleInputError(f"{where}: field 'params.{p.name}' must be "
                                   f"{'a whole number' if p.type is int else p.type.__name__}, "
                                   f"not {json.dumps(value)}")
    try:
        params = calls.canonical_params(ptype, params)
        instance = calls.call(ptype, "from_json", params=params, record=record)
    except PuzzleInputError as exc:
        raise PuzzleInputError(f"{where}: {exc}") from None
    try:
        line_text = calls.text(ptype, "format", params=params, instance=instance, fmt="line")
    except PuzzleEngineError as exc:
        raise PuzzleInputError(f"{where}: {exc}") from None
    try:
        return parse(ptype, params, line_text)
    except PuzzleInputError as exc:
        raise PuzzleInputError(f"{where}: {exc}") from None
