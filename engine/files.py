"""The user's files: text read as UTF-8 with the line of a bad byte named, and output
paths checked before any work is done."""
from __future__ import annotations

import os
from pathlib import Path

from .errors import PuzzleEngineError, PuzzleInputError


def decode(data: bytes, name: str, why: str = "", error: type[PuzzleEngineError] = PuzzleInputError,
           encoding: str = "utf-8") -> str:
    """``data`` as text, or ``error`` naming ``name`` and the line of the first byte that
    is not UTF-8 (``why`` is added to the message)."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise error(f"{name}, line {line}: not UTF-8 text{why}") from None


def read_text(path: Path, why: str = "", error: type[PuzzleEngineError] = PuzzleInputError,
              encoding: str = "utf-8") -> str:
    """The text of ``path`` (``decode``), or ``error`` saying why it cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror}") from None
    return decode(data, str(path), why, error, encoding)


def check_writable(path: Path, option: str = "--out") -> None:
    """Refuse, with the reason, an output path that cannot be written: a folder, a file
    in a folder that does not exist, or a file without write permission."""
    if path.is_dir():
        raise PuzzleInputError(f"bad {option} {path}: it is a folder, not a file")
    parent = path.parent
    if not parent.is_dir():
        raise PuzzleInputError(f"bad {option} {path}: the folder {parent} does not exist")
    target = path if path.exists() else parent
    if not os.access(target, os.W_OK):
        what = "file" if target == path else "folder"
        try:
            read_only = bool(os.statvfs(target).f_flag & os.ST_RDONLY)
        except OSError:
            read_only = False
        how = "is on a read-only file system" if read_only else "is not writable"
        raise PuzzleInputError(f"bad {option} {path}: the {what} {how}")
