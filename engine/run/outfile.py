"""The output file of a batch (``gen --out FILE``): checked before any work starts, and
read back by ``--resume``.

``--resume`` appends only to a file whose every line is a record this tool wrote for the
same batch: a JSON Lines record with that ``type`` and ``params`` and the same values in
the fields the caller names (solver, versions, generation options: what decides the
puzzles besides the seed), or in the line format a line that reads as a puzzle of that
type and options and is written back the same. At most one cut-short last line (no
newline, the start of one of our records) is dropped. Anything else is a one-line error,
and the file is left as it was. The file is locked while a command writes it.
"""
from __future__ import annotations

import fcntl
import json
import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import PuzzleInputError
from ..files import check_writable, read_text
from ..record import REQUIRED


def open_output(path: Path):
    """``path`` opened for appending (created if need be, nothing in it changed) and
    locked against another command writing it at once, or a one-line error. Hold it while
    the file is read back for ``--resume``, so that two runs never interleave."""
    check_writable(path)
    try:
        handle = open(path, "a", encoding="utf-8")
    except OSError as exc:
        raise PuzzleInputError(f"cannot write {path}: {exc.strerror}") from None
    if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
        return handle  # /dev/null, a pipe: nothing to keep apart
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise PuzzleInputError(f"{path} is being written by another puzzle-engine command; "
                               "wait for it to end") from None
    except OSError:  # a file that cannot be locked (some network file systems): go on
        pass
    return handle


@dataclass
class Existing:
    """What a batch file holds: its whole lines and, for JSON, their records."""

    lines: list[str] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    cut_at: int | None = None  # byte offset of a cut-short last line, to drop

    def drop_cut_line(self, path: Path) -> None:
        if self.cut_at is not None:
            os.truncate(path, self.cut_at)
            self.cut_at = None


class OneOf(tuple):
    """A value of ``same`` that any of these values matches (as JSON: the list of them)."""


def read_existing(path: Path, fmt: str, type_name: str, params: dict[str, Any],
                  check_line: Callable[[str], None], same: Mapping[str, Any] | None = None
                  ) -> Existing:
    """The records in ``path`` (none if it does not exist), each checked to be a record
    of a ``type_name`` batch with ``params``, whose fields named in ``same`` (dotted:
    ``options.max_solutions``) hold the values given there (one of them, for a
    ``OneOf``). ``check_line`` raises ``PuzzleInputError`` for a line-format line that is
    not such a puzzle. Changes nothing."""
    if not path.exists():
        return Existing()
    text = read_text(path, ", so not a batch of puzzle-engine's; --resume leaves it untouched")
    lines = text.split("\n")  # only a newline ends a record (not a form feed, say)
    last = lines.pop()
    wanted = json.loads(json.dumps(params))  # as a record holds them
    found = Existing()
    for number, line in enumerate(lines, 1):
        where = f"{path}, line {number}"
        if fmt == "json":
            found.records.append(_record(line, where, type_name, wanted, same or {}))
        else:
            try:
                check_line(line)
            except PuzzleInputError as exc:
                raise PuzzleInputError(f"{where}: not a puzzle of this batch ({exc}); --resume "
                                       "leaves the file untouched") from None
        found.lines.append(line)
    if last:
        if not _cut_record(last, fmt, type_name, found.lines):
            raise PuzzleInputError(f"{path}, line {len(lines) + 1}: ends without a newline and is "
                                   "not the start of one of this batch's records; --resume "
                                   "leaves the file untouched")
        found.cut_at = len(text.encode("utf-8")) - len(last.encode("utf-8"))
    return found


def _record(line: str, where: str, type_name: str, params: dict[str, Any],
            same: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON record on ``line``, checked to belong to the batch being resumed."""
    untouched = "; --resume leaves the file untouched"
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise PuzzleInputError(f"{where}: not a JSON record ({exc.msg}){untouched}") from None
    if not isinstance(record, dict) or any(k not in record for k in REQUIRED):
        raise PuzzleInputError(f"{where}: not a puzzle record of 'puzzle-engine gen'{untouched}")
    if record["type"] != type_name:
        raise PuzzleInputError(f"{where}: a '{record['type']}' puzzle, not '{type_name}'"
                               f"{untouched}")
    if record["params"] != params:
        raise PuzzleInputError(f"{where}: made with options {_options(record['params'])}, not "
                               f"{_options(params)}{untouched}")
    if not isinstance(record["seed"], int) or isinstance(record["seed"], bool):
        raise PuzzleInputError(f"{where}: field 'seed' is not a whole number{untouched}")
    for key, expected in same.items():
        value: Any = record
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value in expected if isinstance(expected, OneOf) else value == expected:
            continue
        wanted = (f"takes one of {json.dumps(expected)}" if isinstance(expected, OneOf)
                  else f"is {json.dumps(expected)}")
        raise PuzzleInputError(f"{where}: made with {key} {json.dumps(value)}, this run's "
                               f"{wanted}{untouched}")
    return record


def _options(params: Any) -> str:
    if not isinstance(params, dict):
        return repr(params)
    return " ".join(f"--{k.replace('_', '-')} {v}" for k, v in params.items() if v is not None)


def _cut_record(last: str, fmt: str, type_name: str, whole: list[str]) -> bool:
    """Whether a last line without a newline looks like one of our records cut short: in
    JSON, the start of a record of this type (``gen`` writes ``type`` first), or after our
    records a start of that start; in the line format, shorter than the whole lines before
    it and made of the characters they use."""
    if fmt == "json":
        start = '{"type": ' + json.dumps(type_name)
        return last.startswith(start) or (bool(whole) and start.startswith(last))
    if not whole:
        return False
    return len(last) < max(map(len, whole)) and set(last) <= set("".join(whole))
