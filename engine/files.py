"""The user's files: text read as UTF-8 with the line of a bad byte named, small files
(a config file, a spec) read only when they are regular files of bounded size, and output
paths checked before any work is done."""
from __future__ import annotations

import os
import stat
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


#: The size of a small file read whole (a config file, a plugin's own data file): 1 MB.
MAX_SMALL_FILE = 1_000_000


def read_small(path: Path, what: str, limit: int = MAX_SMALL_FILE,
               error: type[PuzzleEngineError] = PuzzleInputError) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes, or ``error``
    naming ``what`` it is ("config file", "spec"). The kind and size are checked on the
    opened file before anything is read: the open does not wait on a FIFO (``O_NONBLOCK``),
    and a device (``/dev/zero``, which never ends) or a FIFO is refused unread. At most
    ``limit + 1`` bytes are read, so a file that grows meanwhile is refused too."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise error(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    with open(fd, "rb", closefd=True) as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"cannot read {what} {path}: not a regular file")
        if info.st_size > limit:
            raise error(f"{path}: the {what} is larger than {limit} bytes")
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise error(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise error(f"{path}: the {what} is larger than {limit} bytes")
    return data


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
        raise PuzzleInputError(f"bad {option} {path}: the {what} is not writable")
