"""``puzzle-engine solvers``: the solvers installed, and the solver settings in effect
(``plugins`` has its own module, ``cli/plugins.py``)."""
from __future__ import annotations

import contextlib
from typing import Annotated, Optional

import typer
from rich.table import Table

from .. import calls
from ..errors import PuzzleEngineError, PuzzleInputError
from ..solving import cpsat, sat
from ..solving.discovery import default_check_flags, find_solver, installed_solvers
from . import app
from .common import (PLUGIN_ARGS, ConfigOpt, SolverOpt, _errors, _host, _plugin_params,
                     _settings, out_console)


@app.command(context_settings=PLUGIN_ARGS)
def solvers(ctx: typer.Context, solver: SolverOpt = None, config: ConfigOpt = None,
            puzzle: Annotated[Optional[str], typer.Option("--puzzle", help="Show the solver in "
                              "effect for this puzzle type (per-plugin config); its options "
                              "(like --size 25) may follow.")] = None):
    """List the solvers MiniZinc reports; * marks the one in effect."""
    with _errors():
        ptype = _host().get_type(puzzle) if puzzle else None
        if ctx.args and ptype is None:
            raise PuzzleInputError(f"unexpected {ctx.args[0]!r}: puzzle options need --puzzle")
        # The type's parameters as 'gen' would take them (defaults where none are given):
        # a type may prefer a solver by size.
        params = calls.canonical_params(ptype, _plugin_params(ptype, ctx.args)[0]) \
            if ptype else None
        settings = _settings(ptype, solver, config, params=params)
        info = None
        with contextlib.suppress(PuzzleEngineError):
            info = find_solver(settings.solver)
        current = info.id if info else None
        table = Table(title="MiniZinc solvers")
        for col in ("", "id", "name", "version", "tags"):
            table.add_column(col, no_wrap=col != "tags")
        for s in installed_solvers():
            table.add_row("*" if s.id == current else "", s.id, s.name, s.version, ", ".join(s.tags))
        out_console.print(table)
        for label, module in (("CP-SAT", cpsat), ("SAT", sat)):
            where = module.register()
            if where is not None:
                out_console.print(f"{label}'s MiniZinc configuration: {where} (add it to "
                                  f"MZN_SOLVER_PATH to run {label} from minizinc itself)",
                                  markup=False)
        if current:
            flags = settings.check_flags
            if flags is None:
                flags = default_check_flags(info)
            out_console.print(f"uniqueness checks run with: {' '.join(flags) or '(no extra flags)'} "
                              f"(from {settings.check_flags_from})", markup=False)
        state = "" if current else " - NOT INSTALLED"
        out_console.print(f"in effect: {settings.solver} (from {settings.solver_from}){state}; "
                          f"time limit {settings.time_limit:g} s per call "
                          f"(from {settings.time_limit_from})", markup=False)
