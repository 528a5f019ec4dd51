"""``puzzle-engine solve`` and ``check``: read puzzles from INPUT (``inputs``), and print
a solution of each, or its type's verdict on it."""
from __future__ import annotations

import json
from typing import Any

import typer

from .. import calls
from ..engine import Engine
from ..hookspecs import PuzzleType
from ..inputs import load_puzzles
from ..plugins import Host
from ..solving.results import SolveResult
from ..types import Status
from . import app
from .common import (PLUGIN_ARGS, ConfigOpt, FormatOpt, InputArg, SolverOpt, TimeOpt,
                     _check_format, _engine, _errors, _host, _input_and_params, _render,
                     err_console, out_console)


class _EngineFor:
    """The engines of ``solve`` and ``check``. A puzzle type may prefer a solver by its
    params (another solver above some board size, say), and one input may hold puzzles of
    several sizes, so each puzzle runs on the engine for its own params: one engine per
    preferred solver. The engine without params is made before the input is read, so
    that an unknown solver fails early."""

    def __init__(self, host: Host, ptype: PuzzleType, solver, config, time_limit):
        self._make = lambda params: _engine(host, ptype, solver, config, time_limit, params)
        self.base = self._make(None)
        self._ptype = ptype
        self._engines: dict[str | None, Engine] = {calls.preferred_solver(ptype, None): self.base}

    def __call__(self, params: dict[str, Any]) -> Engine:
        preferred = calls.preferred_solver(self._ptype, params)
        if preferred not in self._engines:
            self._engines[preferred] = self._make(params)
        return self._engines[preferred]

    def close(self) -> None:
        for engine in self._engines.values():
            engine.close()


def _setup_for_input(ctx, puzzle, source, solver, config, time_limit, fmt):
    _check_format(fmt)
    host = _host()
    ptype = host.get_type(puzzle)
    source, raw = _input_and_params(ptype, source, ctx)
    return _EngineFor(host, ptype, solver, config, time_limit), ptype, raw, source


@app.command(context_settings=PLUGIN_ARGS)
def solve(ctx: typer.Context, puzzle: str, source: InputArg, solver: SolverOpt = None,
          config: ConfigOpt = None, fmt: FormatOpt = "text", time_limit: TimeOpt = None):
    """Print the solution of a puzzle."""
    with _errors():
        engines, ptype, raw, source = _setup_for_input(ctx, puzzle, source, solver, config,
                                                       time_limit, fmt)
        failed = False
        for number, parsed in enumerate(load_puzzles(ptype, raw, source)):
            if number and fmt == "text":
                out_console.print("")  # several puzzles: a blank line between solutions
            engine = engines(parsed.params)
            found = {}  # an optimisation type's criterion's findings
            if ptype.objective:
                result, solutions, found = _optimum(engine, ptype, parsed.params, parsed.instance)
            else:
                result, solutions = engine.solve(ptype, parsed.params, parsed.instance)
            if not solutions:
                what = "unknown: the solver timed out" if result.status == "unknown" else "no solution"
                err_console.print(f"puzzle-engine: {what}")
                failed = True
                continue
            proven = result.status == Status.OPTIMAL
            if ptype.objective and not proven:
                err_console.print(f"puzzle-engine: the solver ran out of time: the best "
                                  f"solution found ({ptype.objective} {result.objective}) "
                                  "is not proven optimal", markup=False)
            if fmt == "json":
                extra = {**found, "optimum": result.objective if proven else None,
                         "best": result.objective, "status": str(result.status)} \
                    if ptype.objective else {}
                record = calls.record(ptype, parsed.params, parsed.instance, solutions[0],
                                      {"type", "params", "solver", *extra})
                out_console.print(json.dumps({
                    "type": ptype.name, "params": parsed.params, **record, **extra,
                    "solver": engine.backend.solver_id}), markup=False)
            else:
                if ptype.objective:
                    head = f"optimum {result.objective}" if proven else \
                        f"best found {result.objective}, not proven optimal"
                    out_console.print(", ".join([head, *(
                        f"{k} {v}" for k, v in found.items() if k != "optimum")]), markup=False)
                out_console.print(_render(ptype, parsed.params, solutions[0], fmt,
                                          solution=True), markup=False)
        if failed:
            raise typer.Exit(1)


def _optimum(engine, ptype, params, instance):
    """An optimisation type's optimum and a solution reaching it, by the type's criterion,
    with what the criterion finds besides (it may know more than one solve can tell: how
    many solutions reach the optimum, a class of the puzzle). When the criterion ran out of
    time, its best solution comes back with the status it had (SAT: not proven optimal),
    and the objective that solution reaches; a criterion that gives no solution at all is
    followed by a plain solve."""
    verdict = engine.criterion(ptype).judge(engine, ptype, params, instance)
    if verdict.solution is not None and verdict.value is not None:
        found = {k: v for k, v in verdict.fields.items()
                 if k not in ("type", "params", "solver")}
        return SolveResult(Status.OPTIMAL, objective=verdict.value), [verdict.solution], found
    if verdict.solution is not None:
        return SolveResult(verdict.status, objective=verdict.fields.get("best")), \
            [verdict.solution], {}
    if verdict.status in (Status.UNSAT, Status.UNKNOWN):
        return SolveResult(verdict.status), [], {}
    return (*engine.solve(ptype, params, instance), {})


@app.command(context_settings=PLUGIN_ARGS)
def check(ctx: typer.Context, puzzle: str, source: InputArg, solver: SolverOpt = None,
          config: ConfigOpt = None, fmt: FormatOpt = "text", time_limit: TimeOpt = None):
    """Judge puzzles by their type's acceptance criterion (most types: count solutions, 0,
    1 (unique) or "2 or more"). Exit status 0 only when every puzzle is accepted."""
    with _errors():
        engines, ptype, raw, source = _setup_for_input(ctx, puzzle, source, solver, config,
                                                       time_limit, fmt)
        all_unique = True
        for parsed in load_puzzles(ptype, raw, source):
            engine = engines(parsed.params)
            criterion = engine.criterion(ptype)
            verdict = criterion.judge(engine, ptype, parsed.params, parsed.instance)
            if verdict.accepted is None:
                answer = "unknown"
            elif verdict.solutions >= 2:
                answer = "2 or more"
            else:
                answer = str(verdict.solutions)
            all_unique &= verdict.accepted is True
            if fmt == "json":
                out_console.print(json.dumps({"type": ptype.name, "params": parsed.params,
                                              "solutions": answer, "unique": answer == "1",
                                              "criterion": criterion.name,
                                              "accepted": verdict.accepted, **verdict.fields,
                                              "solver": engine.backend.solver_id}), markup=False)
            else:
                note = {"1": " (unique)", "unknown": " (the solver timed out; not known to be unique)"}
                text = f"{answer} solution{'' if answer == '1' else 's'}{note.get(answer, '')}"
                if criterion.name != "unique":
                    said = {True: "accepted", False: "refused", None: "unknown"}[verdict.accepted]
                    details = "".join(f", {k} {v}" for k, v in verdict.fields.items())
                    text = f"{criterion.name}: {said}{details}"
                out_console.print(text, markup=False)
        if not all_unique:
            raise typer.Exit(1)
