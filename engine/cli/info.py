"""``puzzle-engine plugins`` and ``solvers``: what is loaded and installed, and the
solver settings in effect."""
from __future__ import annotations

import contextlib
from typing import Annotated, Optional

import typer
from rich.table import Table

from .. import calls
from ..contract_v2 import MIGRATING
from ..hookspecs import CONTRACT_VERSION
from ..errors import PuzzleEngineError, PuzzleInputError
from ..solving import cpsat, sat
from ..solving.discovery import default_check_flags, find_solver, installed_solvers
from . import app
from .common import (PLUGIN_ARGS, ConfigOpt, SolverOpt, _errors, _host, _plugin_params,
                     _settings, out_console)


@app.command()
def plugins():
    """List the loaded plugins, their puzzle types and options, and any broken plugin."""
    with _errors():
        host = _host(warn=False)  # the broken plugins are listed below
        table = Table(title="Plugins")
        for col in ("plugin", "version", "puzzle types", "also registers", "contract"):
            table.add_column(col)
        infos = host.plugin_infos()
        for info in infos:
            also = "; ".join(f"{registry}: {', '.join(names)}"
                             for registry, names in info.registers.items())
            contract = f"{info.contract}, adapted" if info.adapted else str(info.contract)
            table.add_row(info.name, info.version, ", ".join(info.types), also, contract)
        out_console.print(table)
        types = Table(title="Puzzle types")
        for col in ("type", "plugin", "strategy", "options", "description"):
            types.add_column(col)
        for t in sorted(host.types.values(), key=lambda t: t.name):
            opts = ", ".join(f"--{p.name.replace('_', '-')}"
                             + (f" (default {p.default})"
                                if p.default is not None and p.type is not bool else "")
                             for p in t.params)
            types.add_row(t.name, t.plugin, t.strategy, opts, t.description)
        out_console.print(types)
        for f in host.failures:
            who = f"'{f.name}'" + (f" (from {f.distribution})" if f.distribution else "")
            line = (f"broken plugin {who} (skipped): {f.error}" if f.skipped
                    else f"refused from plugin {who}: {f.error}")
            out_console.print(line, markup=False)
        for info in infos:
            if info.adapted:
                out_console.print(f"plugin '{info.name}' is written for contract "
                                  f"{info.contract} and adapted to contract {CONTRACT_VERSION} "
                                  f"({MIGRATING})", markup=False)
        for line in dict.fromkeys(host.notices):
            out_console.print(line, markup=False)


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
