"""The compiled model: a type's MiniZinc model flattened to FlatZinc for one solver, and
the cache that keeps that FlatZinc between processes (``PUZZLE_ENGINE_FZN_CACHE``).

A compile is the only MiniZinc process a session needs: every question after it is asked
of the session (``session``) in this process or, for a process back end, of the solver's
FlatZinc executable."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from .. import processes
from ..cache import cache_root, replace_atomically
from ..errors import ModelError
from . import flatzinc
from .discovery import SolverInfo, first_line, minizinc_binary


@dataclass
class FlatModel:
    """A model flattened to FlatZinc: its text, the puzzle type's name and decision array,
    and whether flattening already found it unsatisfiable (``failed``)."""

    text: str
    ptype: str
    decision: str
    failed: bool

    @cached_property
    def items(self) -> list[flatzinc.Item]:
        """Every item, read (a back end that solves in this process needs them all)."""
        return flatzinc.parse(self.text)

    @cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    @cached_property
    def declarations(self) -> list[flatzinc.Item]:
        """The items before the first constraint (MiniZinc declares every variable
        first): all a process back end needs to read."""
        lines = self.lines
        end = next((i for i, ln in enumerate(lines) if ln.startswith(("constraint", "solve"))),
                   len(lines))
        return flatzinc.parse("\n".join(lines[:end]))

    def names(self, array: str | None = None) -> list[str]:
        """The FlatZinc name of each element of an output array (default: the decision
        array): a variable's name, or a literal's text where flattening fixed it."""
        array = array or self.decision
        names = flatzinc.decision_names(self.declarations, array)
        if names is None:
            raise ModelError(f"model error in puzzle '{self.ptype}': "
                             + (f"decision array '{array}'" if array == self.decision
                                else f"array '{array}'") + " is not an output array of the model")
        return names

    @cached_property
    def shape(self) -> tuple[int, ...]:
        return flatzinc.output_shape(self.declarations, self.decision)


def flatten(info: SolverInfo, ptype, data: Mapping[str, Any], extra: Sequence[str] = (),
            flags: Sequence[str] = (), cache: bool = True) -> FlatModel:
    """Flatten ``ptype``'s model (and ``extra``) with ``data`` for the solver ``info``,
    through the cache unless ``cache`` is False. ``flags`` go to the MiniZinc compiler,
    e.g. ``("-O5",)`` for singleton-arc-consistency probing of the root."""
    folder = processes.temp_dir()
    try:
        tmp = Path(folder.name)
        files, labels = model_files(ptype, extra, tmp)
        # MiniZinc reads an empty JSON object as an error: no data, no file.
        data_files = [str(tmp / "data.json")] if data else []
        (tmp / "data.json").write_text(json.dumps(dict(data)))
        fzn = tmp / "model.fzn"
        cached = _fzn_cache_path(info, files, data, flags) if cache else None
        if cached is not None and cached.is_file():
            text, stdout = cached.read_text(), ""
        else:
            proc = processes.run_minizinc([minizinc_binary(), "--solver", info.id,
                                           *flags, "-c", *files, *data_files,
                                           "--fzn", str(fzn), "--ozn", os.devnull])
            if proc.returncode != 0:
                raise ModelError(compile_error(ptype, proc.stderr, labels))
            stdout = proc.stdout
            text = fzn.read_text()
            if cached is not None and "=====UNSATISFIABLE=====" not in stdout:
                _store(fzn, cached)
    finally:
        folder.cleanup()
    failed = "constraint bool_eq(false,true);" in text or "=====UNSATISFIABLE=====" in stdout
    return FlatModel(text, ptype.name, ptype.decision, failed)


def model_files(ptype, extra: Sequence[str], folder: Path) -> tuple[list[str], dict[str, str]]:
    """The model's files, inline parts written into ``folder``, and a label for each file
    an error may name: a plugin's file by its path, an inline part by what it is, never by
    a temporary path the user cannot open."""
    files, labels = [], {}
    for i, part in enumerate(list(ptype.models) + list(extra)):
        if isinstance(part, str):
            path = folder / f"part{i}.mzn"
            path.write_text(part)
            labels[str(path)] = (f"the inline model of puzzle '{ptype.name}' (part {i + 1})"
                                 if i < len(ptype.models) else "the engine's added constraints")
        else:
            path = part
            labels[str(path)] = str(path)
        files.append(str(path))
    labels[str(folder / "data.json")] = f"the data of puzzle '{ptype.name}'"
    return files, labels


def model_error(ptype, exc: Exception, labels: Mapping[str, str]) -> str:
    loc = getattr(exc, "location", None)
    where = ""
    if loc is not None and getattr(loc, "file", None):
        line = loc.lines[0] if getattr(loc, "lines", None) else "?"
        where = f" at {labels.get(str(loc.file), 'a generated file')}, line {line}"
    message = " ".join(str(getattr(exc, "message", exc)).split())
    return f"model error in puzzle '{ptype.name}'{where}: {message}"


def compile_error(ptype, stderr: str, labels: Mapping[str, str]) -> str:
    """MiniZinc's compile error as one line, its place named by ``labels``."""
    where = ""
    for line in stderr.splitlines():
        m = re.match(r"^(/\S+?):(\d+)(?:\.\d+(?:-\d+)?)?\b", line.strip())
        if m:
            where = f" at {labels.get(m.group(1), 'a generated file')}, line {m.group(2)}"
            break
    message = first_line(stderr)
    for path, label in labels.items():
        message = message.replace(path, label)
    return f"model error in puzzle '{ptype.name}'{where}: {message}"




CACHE_ENV = "PUZZLE_ENGINE_FZN_CACHE"


def _fzn_cache_path(info: SolverInfo, files: Sequence[str], data: Mapping[str, Any],
                    flags: Sequence[str]) -> Path | None:
    """Where the FlatZinc of this compile is kept between processes, or None when the
    cache is off (``PUZZLE_ENGINE_FZN_CACHE=off``). The key covers the model files'
    text, the data, the flags, the solver (id, version, executable) and the MiniZinc
    binary (path, size, modification time), so any change compiles afresh."""
    where = os.environ.get(CACHE_ENV, "")
    if where.lower() == "off":
        return None
    root = Path(where) if where else cache_root() / "fzn"
    binary = minizinc_binary()
    st = os.stat(binary)
    key = json.dumps([[Path(f).read_text() for f in files], dict(data), list(flags), info.id,
                      info.version, info.executable, binary, st.st_size, st.st_mtime_ns],
                     sort_keys=True, default=str)
    return root / f"{hashlib.sha256(key.encode()).hexdigest()}.fzn"


def _store(fzn: Path, cached: Path) -> None:
    """Copy ``fzn`` into the cache atomically; a cache that cannot be written is skipped."""
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        replace_atomically(cached, lambda part: shutil.copyfile(fzn, part))
    except OSError:
        pass


