"""The command line: thin typer commands over the engine. stdout carries only puzzles
and answers; progress, warnings and errors go to stderr. A bad input is one line on
stderr and exit status 2."""
from __future__ import annotations

import contextlib
import json
import os
import random
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from . import __version__, batch_file, calls, files, processes
from .solving import cpsat
from .solving.backend import Backend, default_check_flags, find_solver, installed_solvers
from .config import resolve
from .engine import Engine, strategy_of
from .errors import PuzzleEngineError, PuzzleInputError
from .hookspecs import PuzzleType
from .inputs import load_puzzles, parse
from .difficulty import (DIFFICULTY, check_complexity, checked_model, make_grader, make_judge,
                         search)
from .resume import done_and_next_seed, done_and_seed, existing_batch, same_fields
from .plugins import Host, get_host
from .types import Param

app = typer.Typer(rich_markup_mode="rich", no_args_is_help=True, add_completion=False,
                  pretty_exceptions_enable=False,
                  help="Generate, solve and check puzzles from MiniZinc models, through plugins.")
out_console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)
FORMATS = ("text", "line", "json")
PLUGIN_ARGS = {"allow_extra_args": True, "ignore_unknown_options": True}

SolverOpt = Annotated[Optional[str], typer.Option("--solver", help="MiniZinc solver id or tag "
                      "(gecode, chuffed, ...); overrides PUZZLE_ENGINE_SOLVER and the config file.")]
ConfigOpt = Annotated[Optional[Path], typer.Option("--config", help="TOML config file "
                      "(default: ./puzzle-engine.toml if present).")]
TimeOpt = Annotated[Optional[float], typer.Option("--time-limit", help="Seconds per solver call; "
                    "a call that runs out is reported as unknown.")]
FormatOpt = Annotated[str, typer.Option("--format", help="text (grid), line (one line, '.' for "
                      "empty) or json (JSON Lines).")]

RunsOpt = Annotated[int, typer.Option("--runs", help="R: solves per pass, each branching in "
                    "its own random order.")]
CutoffOpt = Annotated[float, typer.Option("--cutoff", help="Below this mean of the "
                      "strengthened pass, grade on the plain model.")]
GradeSeedOpt = Annotated[int, typer.Option("--grade-seed", help="Seed of the random search "
                         "orders.")]
StrengthenOpt = Annotated[bool, typer.Option("--strengthen/--no-strengthen", help="Run the "
                          "strengthened pass (SAC probing + implied constraints) first.")]
JobsOpt = Annotated[int, typer.Option("--jobs", help="Solver processes at once.")]
ModelOpt = Annotated[Optional[Path], typer.Option("--model", help="Level model from "
                     "'puzzle-engine train' (default: the one the plugin ships, if any).")]
GradeSolverOpt = Annotated[Optional[str], typer.Option("--solver", help="Solver to grade with "
                           "(default gecode: node counts of solvers that learn, like Chuffed, "
                           "measure something else).")]


@contextlib.contextmanager
def _errors():
    """Turn our exceptions into one line on stderr and exit status 2, and an interrupt
    (Ctrl-C, SIGTERM) into one line and 130 or 143."""
    try:
        yield
    except PuzzleEngineError as exc:
        err_console.print(f"puzzle-engine: error: {exc}", markup=False)
        raise typer.Exit(2) from None
    except KeyboardInterrupt as exc:
        err_console.print("puzzle-engine: interrupted", markup=False)
        raise typer.Exit(processes.exit_code(exc)) from None


def _host() -> Host:
    host = get_host()
    for failure in host.failures:
        err_console.print(f"puzzle-engine: warning: plugin '{failure.name}' is broken and was "
                          f"skipped: {failure.error}", markup=False)
    return host


def _plugin_params(ptype: PuzzleType, args: list[str], inputs: int = 0,
                   more: tuple[Param, ...] = ()) -> tuple[dict[str, Any], list[str]]:
    """Options a puzzle type declares (``--size 9``, ``--box=2x3``), and ``more`` options
    (its strategy's), from ``args``; and the ``inputs`` other arguments (puzzles to read),
    wherever they stand among the options."""
    params = {p.name.replace("_", "-"): p for p in (*ptype.params, *more)}
    negatives = {f"no-{k}": p for k, p in params.items() if p.type is bool}
    negatives.update({p.negative: p for p in params.values() if p.type is bool and p.negative})
    known = ", ".join(f"--{k}" for k in params) or "none"
    raw: dict[str, Any] = {}
    others: list[str] = []
    i = 0
    while i < len(args):
        token = args[i]
        if not token.startswith("--"):
            if len(others) >= inputs:
                raise PuzzleInputError(f"unexpected argument '{token}' for puzzle '{ptype.name}'")
            others.append(token)
            i += 1
            continue
        name, eq, value = token[2:].partition("=")
        if name in negatives and not eq:
            raw[negatives[name].name] = False
            i += 1
            continue
        if name not in params:
            raise PuzzleInputError(f"unknown option --{name} for puzzle '{ptype.name}' "
                                   f"(its options: {known})")
        param = params[name]
        if param.type is bool:
            raw[param.name] = True if not eq else value.lower() in ("1", "true", "yes")
            i += 1
            continue
        if not eq:
            if i + 1 >= len(args):
                raise PuzzleInputError(f"option --{name} needs a value")
            value = args[i + 1]
            i += 1
        i += 1
        try:
            raw[param.name] = param.type(value)
        except (ValueError, OverflowError):
            raise PuzzleInputError(f"bad --{name} '{value}': expected "
                                   f"{getattr(param.type, '__name__', 'a value')}") from None
    if len(others) < inputs:
        raise PuzzleInputError("missing the puzzle to read (a string, a file, or - for stdin)")
    return raw, others


def _input_and_params(ptype: PuzzleType, source: str, ctx: typer.Context
                      ) -> tuple[str, dict[str, Any]]:
    """INPUT and the puzzle options of solve, check and grade. The command line parser
    takes INPUT to be the first word that is none of ours, which may be a puzzle option
    (``check TYPE --size 9 PUZZLE``); the words are in order, so read them again."""
    raw, (source,) = _plugin_params(ptype, [source, *ctx.args], inputs=1)
    return source, raw


def _settings(ptype: PuzzleType | None, solver: str | None, config: Path | None,
              time_limit: float | None = None, params: dict[str, Any] | None = None):
    """The solver settings in effect (for ``ptype``, if given); ``params``, when known, let a
    puzzle type prefer a solver by size."""
    return resolve(puzzle=ptype.name if ptype else None, plugin=ptype.plugin if ptype else None,
                   cli_solver=solver, cli_time_limit=time_limit, config_path=config,
                   type_solver=calls.preferred_solver(ptype, params) if ptype else None)


def _engine(host: Host, ptype: PuzzleType | None, solver: str | None, config: Path | None,
            time_limit: float | None, params: dict[str, Any] | None = None) -> Engine:
    """The engine on the solver in effect (``_settings``)."""
    settings = _settings(ptype, solver, config, time_limit, params)
    info = find_solver(settings.solver)
    free = settings.free_search
    if free is None:
        free = ptype is not None and calls.wants_free_search(ptype, info.id, info.tags)
    return Engine(host, Backend(settings.solver, settings.time_limit, free_search=free,
                                check_flags=settings.check_flags))


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise PuzzleInputError(f"bad --format '{fmt}': expected one of {', '.join(FORMATS)}")


def _render(engine: Engine, ptype: PuzzleType, params, instance, fmt: str,
            solution: bool = False) -> str:
    if solution:
        return calls.text(ptype, "format_solution", params=params, solution=instance, fmt=fmt)
    return calls.text(ptype, "format", params=params, instance=instance, fmt=fmt)


# -- gen --------------------------------------------------------------------------------------
@app.command(context_settings=PLUGIN_ARGS, add_help_option=False)
def gen(
    ctx: typer.Context,
    puzzle: Annotated[Optional[str], typer.Argument(help="Puzzle type, e.g. one listed by "
                      "'puzzle-engine plugins'.", show_default=False)] = None,
    count: Annotated[int, typer.Option("--count", help="How many puzzles.")] = 1,
    seed: Annotated[Optional[int], typer.Option("--seed", help="Seed of the first puzzle; puzzle i "
                    "uses seed+i. Random (and recorded) when absent.")] = None,
    solver: SolverOpt = None,
    config: ConfigOpt = None,
    fmt: FormatOpt = "text",
    out: Annotated[Optional[Path], typer.Option("--out", help="Write to this file, one puzzle at a "
                   "time as each is finished.")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Keep the puzzles already in --out and "
                      "generate only the rest (json or line format).")] = False,
    workers: Annotated[int, typer.Option("--workers", help="Generate puzzles in this many "
                       "processes (output stays in seed order).")] = 1,
    difficulty: Annotated[Optional[str], typer.Option("--difficulty", help="Keep only puzzles "
                          "the level model grades at this level (trying seed after seed).")] = None,
    attempts: Annotated[int, typer.Option("--attempts", help="With --difficulty: seeds tried "
                        "per puzzle before giving up.")] = 20,
    grader: Annotated[str, typer.Option("--grader", help="With --difficulty or --complexity "
                      "difficulty: 'svm' or 'thresholds'.")] = "svm",
    model: ModelOpt = None,
    time_limit: TimeOpt = None,
    show_help: Annotated[bool, typer.Option("--help", help="Show this message (after a puzzle "
                         "name: with its options and its strategy's) and exit.")] = False,
):
    """Generate puzzles with the puzzle type's strategy.

    Puzzle options (like [bold]--size 16[/]) and the options of the type's generation
    strategy follow the puzzle's name: 'puzzle-engine gen PUZZLE --help' lists them."""
    with _errors():
        if show_help:
            _gen_help(ctx, puzzle)
            return
        if puzzle is None:
            raise PuzzleInputError("missing the puzzle type (see 'puzzle-engine gen --help')")
        _check_format(fmt)
        cpus = os.cpu_count() or 1
        for name, value, least, most, why in (
                ("--count", count, 1, None, ""),
                ("--workers", workers, 1, 4 * cpus, f" (4 per CPU; this machine has {cpus})"),
                ("--attempts", attempts, 1, None, "")):
            if value is not None and value < least:
                raise PuzzleInputError(f"bad {name} {value}: must be at least {least}")
            if value is not None and most is not None and value > most:
                raise PuzzleInputError(f"bad {name} {value}: must be at most {most}{why}")
        host = _host()
        ptype = host.get_type(puzzle)
        probe = Engine(host, None)
        strategy = probe.strategy(ptype)
        raw, _ = _plugin_params(ptype, ctx.args, more=strategy.options)
        strategy_names = {p.name for p in strategy.options}
        params = calls.canonical_params(ptype, {k: v for k, v in raw.items()
                                                if k not in strategy_names})
        options = strategy.make_options({k: v for k, v in raw.items() if k in strategy_names},
                                        workers=workers)
        engine = _engine(host, ptype, solver, config, time_limit, params)
        complexity = getattr(options, "complexity", None)
        judge = None
        if difficulty is not None or complexity == DIFFICULTY:
            judge = make_judge(ptype, params, model, grader,
                               lambda solver: _engine(host, ptype, solver, config, time_limit))
            if difficulty is not None:
                judge.check_level(difficulty)
            if workers > 1:
                raise PuzzleInputError("--workers cannot be combined with --difficulty or "
                                       "--complexity difficulty yet")
            if complexity == DIFFICULTY:
                host.complexities[DIFFICULTY] = judge.complexity()
        check_complexity(host, complexity)
        variants = getattr(options, "variants", 0)
        same = same_fields(engine, ptype, strategy, options, judge, difficulty)
        if resume and (out is None or fmt == "text"):
            raise PuzzleInputError("--resume needs --out FILE and --format json or line")
        if resume and difficulty is not None and fmt != "json":
            raise PuzzleInputError("--resume with --difficulty needs --out FILE and --format json")
        sink = batch_file.open_output(out) if out else None  # locked until the end
        try:
            existing = existing_batch(ptype, params, out, fmt, resume, same)
            if difficulty is not None:
                done, seed = done_and_next_seed(out, existing, seed)
            else:
                done, seed = done_and_seed(out, fmt, existing, seed, variants)
            if seed is None:
                seed = random.SystemRandom().randrange(2**31)
                err_console.print(f"puzzle-engine: seed {seed} (pass --seed {seed} to reproduce)")
            if existing is not None:
                existing.drop_cut_line(out)
            if difficulty is not None:
                _gen_difficulty(engine, ptype, params, options, seed, count, done, fmt, sink, out,
                                judge, difficulty, attempts)
            else:
                _gen_loop(engine, ptype, params, options, seed, count, done, fmt, sink, out, workers)
        finally:
            if sink:
                with contextlib.suppress(OSError):  # a failed write was reported already
                    sink.close()
            if judge:
                judge.close()


def _gen_help(ctx: typer.Context, puzzle: str | None) -> None:
    """``gen --help``: the command's options, and after a puzzle name, the options of the
    puzzle type and of its strategy."""
    out_console.print(ctx.get_help(), markup=False)
    if puzzle is None:
        return
    host = _host()
    ptype = host.get_type(puzzle)
    strategy = strategy_of(host, ptype)
    for title, params in ((f"Options of puzzle '{ptype.name}' (plugin '{ptype.plugin}')",
                           ptype.params),
                          (f"Options of its strategy '{strategy.name}' "
                           f"({strategy.description})", strategy.options)):
        table = Table(title=title, title_justify="left", show_header=False, box=None)
        table.add_column(no_wrap=True)
        table.add_column()
        for p in params:
            default = "" if p.default is None or p.type is bool else f" [default: {p.default}]"
            flag = p.flag + ("" if p.type is bool else " VALUE")
            if p.type is bool and p.negative:
                flag += f" / --{p.negative}"
            table.add_row(flag, f"{p.help}{default}")
        out_console.print(table)


def _writer(sink):
    """Write one puzzle's lines (with its variants) in one call, so that an interrupt
    leaves whole groups; to ``sink``, or to stdout."""
    if sink is None:
        return lambda lines: out_console.print("\n".join(lines), markup=False)

    def write(lines: list[str]) -> None:
        try:
            sink.write("".join(line + "\n" for line in lines))
            sink.flush()
        except OSError as exc:
            raise PuzzleInputError(f"cannot write {sink.name}: {exc.strerror}") from None
    return write


def _lines_of(engine, ptype, params, result, fmt: str, count: int, extra=None) -> list[str]:
    """The output lines of one generated puzzle and its variants (``extra`` is merged
    into each JSON record)."""
    lines = []
    puzzles = (result.kept or [result.puzzle]) + result.variants
    for p in puzzles:
        if fmt == "json":
            lines.append(json.dumps({**p.to_json(ptype), **(extra or {})}))
        else:
            text = _render(engine, ptype, params, p.instance, fmt)
            lines.append(text + ("\n" if fmt == "text" and (count > 1 or len(puzzles) > 1) else ""))
    return lines


def _warn_timeouts(puzzle) -> None:
    """Say on stderr when checks of a puzzle timed out: its record says ``minimal: false``
    and counts them in ``unknown``."""
    if not puzzle.unknown:
        return
    what = f"{puzzle.unknown} check{'s' * (puzzle.unknown != 1)} of the puzzle with seed {puzzle.seed} timed out"
    if puzzle.instance == puzzle.solution:  # nothing could be removed
        what = f"every check of the puzzle with seed {puzzle.seed} timed out ({puzzle.unknown})"
    err_console.print(f"puzzle-engine: warning: {what}; it keeps those squares and is not "
                      "minimal (raise --time-limit)", markup=False)


def _interrupted(exc: KeyboardInterrupt, out: Path | None) -> typer.Exit:
    kept = f"; the finished puzzles are in {out}, rerun with --resume to go on" if out else ""
    err_console.print(f"puzzle-engine: interrupted{kept}")
    return typer.Exit(processes.exit_code(exc))


def _gen_loop(engine, ptype, params, options, seed, count, done, fmt, sink, out, workers=1) -> None:
    write = _writer(sink)
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=err_console, transient=True,
                        disable=count <= 1)
    try:
        with progress:
            task = progress.add_task(f"{ptype.name}", total=count, completed=done)
            seeds = range(seed + done, seed + count)
            if workers > 1 and len(seeds) > 1:
                from .workers import generate_many
                results = generate_many(engine, ptype.name, params, options, seeds, workers)
            else:
                results = (engine.generate(ptype, params, s, options) for s in seeds)
            for result in results:
                write(_lines_of(engine, ptype, params, result, fmt, count))
                _warn_timeouts(result.puzzle)
                progress.advance(task)
    except KeyboardInterrupt as exc:
        raise _interrupted(exc, out) from None


def _gen_difficulty(engine, ptype, params, options, seed, count, done, fmt, sink, out, judge,
                    level, attempts) -> None:
    write = _writer(sink)
    try:
        for result, note in search(engine, ptype, params, options, judge, level, seed,
                                   count - done, attempts):
            write(_lines_of(engine, ptype, params, result, fmt, count, {"difficulty": note}))
            _warn_timeouts(result.puzzle)
    except KeyboardInterrupt as exc:
        raise _interrupted(exc, out) from None


# -- solve / check ------------------------------------------------------------------------------
class _EngineFor:
    """The engines of ``solve`` and ``check``. A puzzle type may prefer a solver by its
    params (another solver above some board size, say), and one input may hold puzzles of
    several sizes, so each puzzle runs on the engine for its own params: one engine per
    preferred solver. The engine without params reads the input (and fails early on an
    unknown solver)."""

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


def _setup_for_input(ctx, puzzle, source, solver, config, time_limit, fmt):
    _check_format(fmt)
    host = _host()
    ptype = host.get_type(puzzle)
    source, raw = _input_and_params(ptype, source, ctx)
    return _EngineFor(host, ptype, solver, config, time_limit), ptype, raw, source


InputArg = Annotated[str, typer.Argument(metavar="INPUT", help="The puzzle: a string, a file, or - for stdin. "
                     "Several puzzles are read one per line, in the line format or as JSON "
                     "Lines records from 'gen --format json'.")]


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
            result, solutions = engine.solve(ptype, parsed.params, parsed.instance)
            if not solutions:
                what = "unknown: the solver timed out" if result.status == "unknown" else "no solution"
                err_console.print(f"puzzle-engine: {what}")
                failed = True
                continue
            if fmt == "json":
                extra = {"optimum": result.objective, "status": str(result.status)} \
                    if ptype.objective else {}
                record = calls.record(ptype, parsed.params, parsed.instance, solutions[0],
                                      {"type", "params", "solver", *extra})
                out_console.print(json.dumps({
                    "type": ptype.name, "params": parsed.params, **record, **extra,
                    "solver": engine.backend.solver_id}), markup=False)
            else:
                out_console.print(_render(engine, ptype, parsed.params, solutions[0], fmt,
                                          solution=True), markup=False)
        if failed:
            raise typer.Exit(1)


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


# -- grade / train ----------------------------------------------------------------------------
def _grading(ctx, puzzle, solver, config, time_limit, runs, cutoff, grade_seed, strengthen, jobs,
             source=None):
    """The grading engine, puzzle type, puzzle options and grading options (and INPUT,
    with ``source``: see ``_input_and_params``)."""
    from .grading import GradeOptions
    host = _host()
    ptype = host.get_type(puzzle)
    if source is None:
        raw = _plugin_params(ptype, ctx.args)[0]
    else:
        source, raw = _input_and_params(ptype, source, ctx)
    engine = _engine(host, ptype, solver or "gecode", config, time_limit)
    options = GradeOptions(runs=runs, cutoff=cutoff, seed=grade_seed, strengthen=strengthen,
                           jobs=jobs)
    options.check()
    return engine, ptype, raw, options, source


@app.command(context_settings=PLUGIN_ARGS)
def grade(ctx: typer.Context, puzzle: str, source: InputArg, solver: GradeSolverOpt = None,
          config: ConfigOpt = None, time_limit: TimeOpt = None,
          fmt: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
          model: ModelOpt = None, runs: RunsOpt = 50, cutoff: CutoffOpt = 500.0,
          grade_seed: GradeSeedOpt = 0, strengthen: StrengthenOpt = True, jobs: JobsOpt = 2):
    """Grade puzzles: mean search nodes over random orders, and the level from each grader."""
    with _errors():
        if fmt not in ("text", "json"):
            raise PuzzleInputError(f"bad --format '{fmt}': expected text or json")
        engine, ptype, raw, options, source = _grading(ctx, puzzle, solver, config, time_limit,
                                                       runs, cutoff, grade_seed, strengthen, jobs,
                                                       source)
        graders: dict[str, Any] = {}     # per puzzle parameters (JSON input may mix them)
        models: dict[str, Any] = {}         # the level model checked for those parameters
        try:
            for number, parsed in enumerate(load_puzzles(ptype, raw, source)):
                if number and fmt == "text":
                    out_console.print("")  # several puzzles: a blank line between grades
                key = json.dumps(parsed.params, sort_keys=True)
                if key not in graders:
                    graders[key] = make_grader(engine, ptype, parsed.params, options)
                g = graders[key].grade(parsed.instance)
                if key not in models:
                    models[key] = checked_model(engine, ptype, parsed.params, model, options, g)
                    if models[key] is None:
                        err_console.print(f"puzzle-engine: no level model for '{ptype.name}' with "
                                          "these options; showing the measurements only")
                _print_grade(g, models[key].predict(g) if models[key] else None, fmt)
        finally:
            for g in graders.values():
                g.close()


def _print_grade(g, levels, fmt: str) -> None:
    if fmt == "json":
        record = g.to_json()
        record.pop("puzzle")
        record["levels_by"] = levels
        out_console.print(json.dumps(record), markup=False)
        return
    f = g.figure
    lines = [f"mean nodes {f.mean_nodes:.1f} (sd {f.sd_nodes:.1f}, se {f.se_nodes:.2f}, "
             f"R = {f.runs}), mode {g.mode}"]
    if g.strengthened is not None and g.mode != "strengthened":
        lines.append(f"  strengthened pass: {g.strengthened.mean_nodes:.1f} nodes, below the "
                     f"cut-off {g.options.cutoff:g}")
    if g.levels:
        lines.append("solved by propagation alone at: " + ", ".join(
            f"{name} {'yes' if lv.root else 'no'}" for name, lv in g.levels.items()))
    if levels:
        lines.append(f"level (thresholds on ln nodes): {levels['thresholds']}")
        probs = ", ".join(f"{k} {v:.2f}" for k, v in levels["probabilities"].items())
        lines.append(f"level (SVM): {levels['svm']}  ({probs})")
    out_console.print("\n".join(lines), markup=False)


@app.command(context_settings=PLUGIN_ARGS)
def train(ctx: typer.Context, puzzle: str,
          data: Annotated[Path, typer.Option("--data", help="CSV with columns "
                          "puzzle,label[,rating] (source_rating is read as the rating).")],
          out: Annotated[Optional[Path], typer.Option("--out", help="Level model to write "
                         "(default: PUZZLE-levels.skops).")] = None,
          features: Annotated[Optional[Path], typer.Option("--features", help="Feature table, "
                              "written as puzzles are graded; an interrupted run resumes from "
                              "it (default: OUT with .features.csv).")] = None,
          solver: GradeSolverOpt = None, config: ConfigOpt = None, time_limit: TimeOpt = None,
          runs: RunsOpt = 50, cutoff: CutoffOpt = 500.0, grade_seed: GradeSeedOpt = 0,
          strengthen: StrengthenOpt = True, jobs: JobsOpt = 2,
          per_label: Annotated[Optional[int], typer.Option("--per-label", help="Use only the "
                               "first N puzzles of each label.")] = None):
    """Fit difficulty levels from labelled puzzles: thresholds on ln(mean nodes) and an SVM."""
    from .grading import GradeOptions
    from .grading.levels import (FeatureTable, LevelModel, first_per_label, grading_signature, measure,
                         read_labelled)
    with _errors():
        engine, ptype, raw, options, _ = _grading(ctx, puzzle, solver, config, time_limit, runs,
                                                  cutoff, grade_seed, strengthen, jobs)
        if per_label is not None and per_label < 1:
            raise PuzzleInputError(f"bad --per-label {per_label}: must be at least 1")
        out = out or Path(f"{ptype.name}-levels.skops")
        features = features or out.with_suffix(".features.csv")
        files.check_writable(out, "--out")
        files.check_writable(features, "--features")
        examples = read_labelled(data, lambda text: parse(ptype, raw, text).board)
        if per_label is not None:
            examples = first_per_label(examples, per_label)
        params = parse(ptype, raw, examples[0].text).params
        signature = grading_signature(options, engine.backend.solver_id, ptype.name, params)
        table = FeatureTable(features, signature)
        one_job = GradeOptions(**{**options.__dict__, "jobs": 1})
        grader = make_grader(engine, ptype, params, one_job)
        progress = Progress(TextColumn("[bold]grading"), BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), console=err_console, transient=True)
        try:
            with progress:
                task = progress.add_task("grading", total=len(examples),
                                         completed=sum(e.text in table.rows for e in examples))
                measure(examples, table, lambda e: grader.grade(e.board, f"{data}, line {e.line}"),
                        jobs=jobs, progress=lambda: progress.advance(task))
        except KeyboardInterrupt as exc:
            err_console.print(f"puzzle-engine: interrupted; the graded puzzles are in {features}, "
                              "rerun the same command to go on")
            raise typer.Exit(processes.exit_code(exc)) from None
        finally:
            grader.close()
        level_model = LevelModel.fit(table, examples, {"file": data.name, "per_label": per_label})
        level_model.save(out)
        _print_training(level_model, out, features)


def _print_training(m, out: Path, features: Path) -> None:
    out_console.print(f"wrote {out} ({m.trained_on['rows']} puzzles, labels "
                      f"{', '.join(m.labels)}; features in {features})", markup=False)
    med = ", ".join(f"{label} {v:.2f}" for label, v in zip(m.thresholds["labels"], m.thresholds["medians"]))
    out_console.print(f"median ln(mean nodes) per label: {med}", markup=False)
    ev = m.evaluation
    if not ev:
        out_console.print("(too few puzzles per label for 5-fold cross-validation)", markup=False)
        return
    for name in ("svm", "thresholds"):
        out_console.print(f"{name}: {ev['folds']}-fold accuracy {ev[name]['accuracy']:.3f}; "
                          "confusion (rows true, columns predicted, order "
                          f"{', '.join(ev['labels'])}): {ev[name]['confusion']}", markup=False)
    if "spearman" in ev:
        out_console.print("Spearman rho against the rating: " + ", ".join(
            f"{k} {v:.3f}" for k, v in ev["spearman"].items()), markup=False)


# -- plugins / solvers ------------------------------------------------------------------------
@app.command()
def plugins():
    """List the loaded plugins, their puzzle types and options, and any broken plugin."""
    with _errors():
        host = get_host()
        table = Table(title="Plugins")
        for col in ("plugin", "version", "puzzle types", "hooks"):
            table.add_column(col)
        for info in host.plugin_infos():
            table.add_row(info.name, info.version, ", ".join(info.types), ", ".join(info.hooks))
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
            out_console.print(f"broken plugin '{f.name}' (skipped): {f.error}", markup=False)


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
        params = calls.canonical_params(ptype, _plugin_params(ptype, ctx.args)[0]) \
            if ptype and ctx.args else None
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
        where = cpsat.register()
        if where is not None:
            out_console.print(f"CP-SAT's MiniZinc configuration: {where} (add it to MZN_SOLVER_PATH "
                              "to run CP-SAT from minizinc itself)", markup=False)
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


def _version_callback(value: bool):
    if value:
        out_console.print(f"puzzle-engine {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: Annotated[bool, typer.Option("--version", callback=_version_callback,
                                                is_eager=True, help="Show the version.")] = False):
    """Generate, solve and check puzzles from MiniZinc models, through plugins."""


def main(argv: list[str] | None = None) -> None:
    """The ``puzzle-engine`` command. Every error is one line on stderr: ours and the
    command line parser's (exit 2), and one that is a bug of ours (exit 1, with the
    traceback only when ``PUZZLE_ENGINE_DEBUG`` is set). SIGTERM and SIGHUP unwind like
    Ctrl-C; folders left by killed runs are swept."""
    processes.handle_signals()
    try:
        processes.sweep_temp_dirs()
        code = app(args=argv, prog_name="puzzle-engine", standalone_mode=False)
    except KeyboardInterrupt as exc:
        err_console.print("puzzle-engine: interrupted", markup=False)
        sys.exit(processes.exit_code(exc))
    except Exception as exc:  # noqa: BLE001 - the last guard against a traceback
        usage = getattr(exc, "format_message", None)  # the parser's (click) errors
        if usage is not None and isinstance(getattr(exc, "exit_code", None), int):
            if type(exc).__name__ == "Abort":  # click's name for an interrupt while parsing
                err_console.print("puzzle-engine: interrupted", markup=False)
                sys.exit(130)
            command = getattr(getattr(exc, "ctx", None), "command_path", "puzzle-engine")
            message = " ".join(usage().split()).rstrip(".")
            if not message:  # no arguments at all: the parser has shown the help
                sys.exit(exc.exit_code)
            err_console.print(f"puzzle-engine: error: {message[0].lower()}{message[1:]} (see "
                              f"'{command} --help')", markup=False)
            sys.exit(exc.exit_code)
        if os.environ.get("PUZZLE_ENGINE_DEBUG"):
            raise
        err_console.print(f"puzzle-engine: internal error: {type(exc).__name__}: {exc} (a bug; "
                          "PUZZLE_ENGINE_DEBUG=1 shows where)", markup=False)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
