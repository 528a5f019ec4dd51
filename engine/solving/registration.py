"""An in-process back end as a MiniZinc solver: its solver configuration (``.msc``) and a
wrapper script that runs the back end's module on a FlatZinc file (``python -m MODULE
[flags] MODEL.fzn``), written once per Python environment into a directory put first on
``MZN_SOLVER_PATH``. ``minizinc --solver ID`` (and ``Backend.solve``'s whole solves
through minizinc-python) then find the back end like any other solver, and
``puzzle-engine solvers`` lists it.

The back ends that register so: CP-SAT (``cpsat.register``) and SAT (``sat.register``).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from importlib.metadata import version
from importlib.resources import files
from pathlib import Path
from typing import Any

from ..cache import cache_root, write_if_changed


def solver_config(solver_id: str, name: str, description: str, package: str, mznlib: str,
                  tags: list[str], flags: list[str]) -> dict[str, Any]:
    """The MiniZinc solver configuration of an in-process back end (without ``executable``,
    which ``register`` adds): it reads FlatZinc, its library of redefinitions is
    ``puzzle_engine_models/MZNLIB``, and its version is that of the Python ``package``
    doing the solving."""
    return {
        "id": solver_id,
        "name": name,
        "description": description,
        "version": version(package),
        "mznlib": str(files("puzzle_engine_models") / mznlib),
        "tags": tags,
        "stdFlags": flags,
        "supportsMzn": False,
        "supportsFzn": True,
        "needsSolns2Out": True,
        "needsMznExecutable": False,
        "needsStdlibDir": False,
        "isGUIApplication": False,
    }


def register(config: dict[str, Any], module: str, name: str) -> Path | None:
    """Write ``config`` (a MiniZinc solver configuration without ``executable``) as
    ``NAME.msc`` and the wrapper ``fzn-NAME`` that runs ``python -m module``, in a
    directory of the cache (else of the temporary folder) named by a hash of both, and
    put that directory first on ``MZN_SOLVER_PATH`` (of this process and its children).
    Returns the directory, or None when none can be written."""
    config = dict(config)
    key = hashlib.sha256(json.dumps([sys.executable, module, config], sort_keys=True)
                         .encode()).hexdigest()[:16]
    for root in (cache_root() / "solvers", Path(tempfile.gettempdir()) / "puzzle-engine-solvers"):
        where = root / key
        wrapper = where / f"fzn-{name}"
        config["executable"] = str(wrapper)
        try:
            where.mkdir(parents=True, exist_ok=True)
            write_if_changed(wrapper, f'#!/bin/sh\nexec "{sys.executable}" -m {module} "$@"\n', 0o755)
            write_if_changed(where / f"{name}.msc", json.dumps(config, indent=2) + "\n", 0o644)
        except OSError:
            continue
        paths = [p for p in os.environ.get("MZN_SOLVER_PATH", "").split(os.pathsep) if p]
        if str(where) not in paths:
            os.environ["MZN_SOLVER_PATH"] = os.pathsep.join([str(where), *paths])
        return where
    return None
