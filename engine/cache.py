"""Where puzzle-engine keeps files between runs, and how it writes them there."""
from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path


def cache_root() -> Path:
    """``$XDG_CACHE_HOME/puzzle-engine``, or ``~/.cache/puzzle-engine``."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "puzzle-engine"


def replace_atomically(path: Path, fill: Callable[[Path], None]) -> None:
    """Write ``path`` through ``fill(part)`` on a file of this thread's own, then rename
    it into place, so that a reader never sees half a file. The part's name holds the
    thread as well as the process: two threads of one process (the speculative checks of
    a batch) may write the same file at once, and must not rename each other's part."""
    part = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.part")
    fill(part)
    os.replace(part, path)


def write_if_changed(path: Path, text: str, mode: int) -> None:
    """Write ``text`` to ``path`` with permissions ``mode``, atomically, unless the file
    already holds it (a script or configuration that other processes may be reading)."""
    if path.is_file() and path.read_text() == text:
        return

    def fill(part: Path) -> None:
        part.write_text(text)
        part.chmod(mode)
    replace_atomically(path, fill)
