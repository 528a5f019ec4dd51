"""The user's files: text read as UTF-8 with the line of a bad byte named, small files
(a config file, a spec) read only when they are regular files of bounded size, and output
paths checked before any work is done (the one overwrite rule of every ``--out``), and
written with a failure named in one line."""
from __future__ import annotations

import contextlib
import os
import stat
import tempfile
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
        try:
            read_only = bool(os.statvfs(target).f_flag & os.ST_RDONLY)
        except OSError:
            read_only = False
        how = "is on a read-only file system" if read_only else "is not writable"
        raise PuzzleInputError(f"bad {option} {path}: the {what} {how}")


def check_out(path: Path, option: str = "--out", force: bool = False, *, others: str = "",
              new_file: bool = False, devices: bool = True) -> None:
    """The overwrite rule of every output file (``--out``), checked before any work: on
    top of ``check_writable``, an existing regular file that is not empty is refused
    unless ``force`` (``--force``) is given; ``others`` names other ways on, for the
    message (``gen``'s ``--resume``). A device or a pipe (``/dev/null``) is no file to
    keep: it is written directly, or with ``devices`` False (an output that is only ever
    renamed into place, which would replace the device) refused. With ``new_file`` the
    output is written as a new file in its folder and renamed into place, so the folder
    must take a new file: that is tried here (and the trial removed), not found out
    after the work."""
    check_writable(path, option)
    if path.exists() and not path.is_file():
        if not devices:
            raise PuzzleInputError(f"bad {option} {path}: not a regular file (the output is "
                                   "written as a new file and renamed into place)")
        return
    if not force and path.is_file() and path.stat().st_size > 0:
        raise PuzzleInputError(f"{path} already exists and is not empty: pass {others}--force "
                               "to replace it, or choose another file")
    if new_file:
        try:
            handle, trial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".trial",
                                             dir=path.parent)
        except OSError as exc:
            raise PuzzleInputError(f"bad {option} {path}: cannot create a file in the folder "
                                   f"{path.parent} ({exc.strerror or exc})") from None
        os.close(handle)
        with contextlib.suppress(OSError):
            os.unlink(trial)


@contextlib.contextmanager
def writing(path: Path):
    """A failure to write ``path`` (a full disk, a file system that takes no file) as one
    line naming it, however late it comes."""
    try:
        yield
    except OSError as exc:
        raise PuzzleInputError(f"cannot write {path}: {exc.strerror or exc}") from None


@contextlib.contextmanager
def output(path: Path, newline: str | None = None):
    """``path`` opened for writing text, written whole or not at all: a new file in its
    folder, renamed into place at the end, and removed on any failure (a device or a pipe,
    such as ``/dev/stdout``, is written directly). A failure to write is ``writing``'s one
    line."""
    direct = path.exists() and not path.is_file()
    part = path if direct else path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with writing(path):
            with open(part, "w", encoding="utf-8", newline=newline) as handle:
                yield handle
            if not direct:
                os.replace(part, path)
    finally:
        if not direct:
            with contextlib.suppress(OSError):
                os.unlink(part)
