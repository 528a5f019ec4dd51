"""Solver discovery: the solvers MiniZinc knows (``minizinc --solvers-json``, with the
engine's own in-process back ends registered on its path), found by id, id part or tag."""
from __future__ import annotations

import functools
import json
import shutil
from dataclasses import dataclass

from .. import processes
from . import cpsat, sat
from ..errors import SolverError

INSTALL_HINT = ("run 'bash scripts/setup.sh' from the puzzle-engine checkout, "
                "or 'apt-get install minizinc flatzinc' for MiniZinc and Gecode")


@dataclass(frozen=True)
class SolverInfo:
    id: str
    name: str
    version: str
    tags: tuple[str, ...]
    executable: str | None
    std_flags: tuple[str, ...]


def minizinc_binary() -> str:
    path = shutil.which("minizinc")
    if path is None:
        raise SolverError(f"MiniZinc is not installed (no 'minizinc' on PATH): {INSTALL_HINT}")
    return path


@functools.lru_cache(maxsize=1)
def installed_solvers() -> tuple[SolverInfo, ...]:
    """The solvers MiniZinc reports (``minizinc --solvers-json``), with the engine's
    in-process back ends among them when their libraries are installed: CP-SAT (OR-Tools)
    and SAT (python-sat); ``cpsat.register`` and ``sat.register`` put their
    configurations on MiniZinc's path."""
    cpsat.register()
    sat.register()
    proc = processes.run_minizinc([minizinc_binary(), "--solvers-json"])
    if proc.returncode != 0:
        raise SolverError(f"'minizinc --solvers-json' failed: {first_line(proc.stderr)}")
    infos = []
    for s in json.loads(proc.stdout):
        extra = s.get("extraInfo") or {}
        infos.append(SolverInfo(id=s["id"], name=s.get("name", s["id"]), version=s.get("version", "?"),
                                tags=tuple(s.get("tags", ())),
                                executable=extra.get("executable") or s.get("executable"),
                                std_flags=tuple(s.get("stdFlags", ()))))
    return tuple(infos)


def find_solver(name: str) -> SolverInfo:
    """A solver by full id (``org.gecode.gecode``), last id part (``gecode``) or tag."""
    solvers = installed_solvers()
    key = name.lower()
    for match in (lambda s: s.id.lower() == key,
                  lambda s: s.id.lower().rsplit(".", 1)[-1] == key,
                  lambda s: key in s.tags):
        found = [s for s in solvers if match(s)]
        if found:
            return found[0]
    hint = INSTALL_HINT if key == "gecode" else (
        "run 'bash scripts/setup.sh', which builds Chuffed" if key == "chuffed"
        else "install it as a MiniZinc solver configuration")
    raise SolverError(f"solver '{name}' is not installed ('puzzle-engine solvers' lists the "
                      f"installed ones; {hint})")


def first_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("Warning")]
    errors = [ln for ln in lines if "rror" in ln]
    return (errors or lines or ["no message"])[0]


#: The exact solvers: complete search behind the ``Session`` contract, so that a puzzle's
#: every answer (counts, statuses, the least completion) is a fact about the model, and a
#: batch made on one may go on on another (``resume.same_fields``). ``sat`` is the
#: in-process SAT back end.
EXACT = frozenset({"org.gecode.gecode", "org.chuffed.chuffed", "org.puzzle-engine.cp-sat",
                   "org.puzzle-engine.sat"})


def default_check_flags(info: SolverInfo) -> tuple[str, ...]:
    """The flags a solver's uniqueness checks run with unless configured: free search
    (``-f``) on a solver that learns (tag ``lcg``: Chuffed, which alternates the model's
    search with activity-based search, and CP-SAT, which uses its own search); else none
    (Gecode's checks keep the model's search: its ``-f`` and restarts did not help).
    Chuffed's other searches measured worse: ``--vsids`` took 150 s, against 0.16 s, to
    find a second solution of an empty 6x6 board of one built-in type, and
    ``--switch-to-vsids-after`` answered "unique" for a 16x16 board that is not
    (docs/solvers.md)."""
    return ("-f",) if "lcg" in info.tags and "-f" in info.std_flags else ()
