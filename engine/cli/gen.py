"""``puzzle-engine gen``: generate puzzles with the puzzle type's strategy, and write
them one at a time (to stdout or ``--out``), with a progress bar on stderr. Resuming a
batch (``resume``) and the search for a level (``difficulty``) are the engine's."""
from __future__ import annotations

import contextlib
import json
import os
import random
from pathlib import Path
from typing import Annotated, Optional

import typer

from .. import batch_file, calls, processes
from ..difficulty import DIFFICULTY, check_complexity, make_judge, search
from ..engine import strategy_of
from ..errors import PuzzleInputError
from ..files import check_out, check_writable
from ..resume import done_and_next_seed, done_and_seed, existing_batch, same_fields
from . import app
from .common import (PLUGIN_ARGS, ConfigOpt, FormatOpt, ModelOpt, SolverOpt, TimeOpt,
                     _check_format, _engine, _errors, _host, _plugin_params, _render,
                     err_console, out_console)


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
    db: Annotated[Optional[Path], typer.Option("--db", help="Also keep the puzzles in this "
                  "SQLite store (see 'batch'); one equivalent to a stored puzzle is counted, "
                  "not stored.")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Keep the puzzles already in --out and "
                      "generate only the rest (json or line format).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace an --out file that is not "
                     "empty (without --force or --resume, it is refused).")] = False,
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
        if db is not None:
            check_writable(db, "--db")
        if resume and force:
            raise PuzzleInputError("--resume goes on with the batch in --out, --force replaces "
                                   "it: give one of them")
        if out is not None:
            check_out(out, force=force or resume, others="--resume to go on with the batch it "
                      "holds, ")
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
        strategy = strategy_of(host, ptype)
        raw, _ = _plugin_params(ptype, ctx.args, more=strategy.options)
        strategy_names = {p.name for p in strategy.options}
        params = calls.canonical_params(ptype, {k: v for k, v in raw.items()
                                                if k not in strategy_names})
        options = strategy.make_options({k: v for k, v in raw.items() if k in strategy_names},
                                        workers=workers)
        complexity = getattr(options, "complexity", None)
        if workers > 1 and (difficulty is not None or complexity == DIFFICULTY):
            # before the solver and the level model are loaded: this needs no work
            raise PuzzleInputError("--workers cannot be combined with --difficulty or "
                                   "--complexity difficulty yet")
        engine = _engine(host, ptype, solver, config, time_limit, params)
        judge = None
        if difficulty is not None or complexity == DIFFICULTY:
            judge = make_judge(ptype, params, model, grader,
                               lambda name: _engine(host, ptype, name, config, time_limit))
            if difficulty is not None:
                judge.check_level(difficulty)
            if complexity == DIFFICULTY:
                host.complexities[DIFFICULTY] = judge.complexity()
        check_complexity(host, complexity)
        variants = getattr(options, "variants", 0)
        same = same_fields(engine, ptype, strategy, options, judge, difficulty)
        if resume and (out is None or fmt == "text"):
            raise PuzzleInputError("--resume needs --out FILE and --format json or line")
        if resume and difficulty is not None and fmt != "json":
            raise PuzzleInputError("--resume with --difficulty needs --out FILE and --format json")
        keep = sink = None
        try:
            keep = StoreWriter(db, ptype) if db else None  # a bad store: before --out is made
            sink = batch_file.open_output(out) if out else None  # locked until the end
            if out is not None:  # again, locked: filled since by another command?
                check_out(out, force=force or resume, others="--resume to go on with the "
                          "batch it holds, ")
            existing = existing_batch(ptype, params, out, fmt, resume, same)
            # --force replaces the file at the first puzzle written, not before: a run that
            # fails or is interrupted before it (a time-out, Ctrl-C) leaves the file as it was
            replace = force and sink is not None and out.is_file()
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
                                judge, difficulty, attempts, keep, replace)
            else:
                _gen_loop(engine, ptype, params, options, seed, count, done, fmt, sink, out, workers,
                          keep, replace)
        finally:
            if keep:
                keep.close()
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
    from rich.table import Table  # lazy: only a type's help draws a table (test_startup)
    from rich.text import Text

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
            table.add_row(Text(flag), Text(f"{p.help}{default}"))  # no markup: "[default: 1]"
        out_console.print(table)
    out_console.print(f"Puzzles of '{ptype.name}' are judged by the criterion '{ptype.criterion}' "
                      f"and graded by '{ptype.grader}'.", markup=False)


def _writer(sink, replace: bool = False):
    """Write one puzzle's lines (with its variants) in one call, so that an interrupt
    leaves whole groups; to ``sink``, or to stdout. With ``replace`` (``--force``), what
    ``sink`` held is dropped at the first write (the file is locked meanwhile)."""
    if sink is None:
        return lambda lines: out_console.print("\n".join(lines), markup=False)

    def write(lines: list[str]) -> None:
        nonlocal replace
        try:
            if replace:
                sink.truncate(0)
                replace = False
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
            text = _render(ptype, params, p.instance, fmt)
            if fmt == "text" and result.variants:  # which is the original, which a variant
                text = (f"variant {p.variant} of {len(result.variants)}" if p.variant
                        else f"original (seed {p.seed})") + "\n" + text
            lines.append(text + ("\n" if fmt == "text" and (count > 1 or len(puzzles) > 1) else ""))
    return lines


class StoreWriter:
    """``gen --db``: each puzzle (with its variants) committed to the store as it is
    written out; at the end, one line says what was stored."""

    def __init__(self, path: Path, ptype):
        from ..store import Store  # lazy: only gen --db loads the store (sqlite3)
        self.store, self.ptype, self.path = Store(path), ptype, path
        self.stored = self.duplicates = 0

    def add(self, result, grade=None) -> None:
        from ..store import entries_of  # lazy: as above
        with self.store.failures():
            added = self.store.add(entries_of(self.ptype, result, grade))
        self.stored += added.stored
        self.duplicates += added.duplicates

    def close(self) -> None:
        self.store.close()
        if self.stored or self.duplicates:
                err_console.print(f"puzzle-engine: stored {self.stored} puzzle"
                              f"{'s' * (self.stored != 1)} in {self.path} ({self.duplicates} "
                              "equivalent to stored ones)", markup=False)


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


class _NoProgress(contextlib.nullcontext):
    """No progress bar: for a single puzzle, or when stderr is not a terminal (a bar's
    last frame there is an empty line in a log)."""

    def add_task(self, *args, **kwargs) -> None:
        return None

    def advance(self, task) -> None:
        pass


def _progress(count: int):
    """A progress bar on stderr, shown on a terminal while more than one puzzle is made."""
    if count <= 1 or not err_console.is_terminal:
        return _NoProgress()
    # lazy: only a bar on a terminal loads rich.progress (test_startup)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=err_console, transient=True)


def _gen_loop(engine, ptype, params, options, seed, count, done, fmt, sink, out, workers=1,
              keep=None, replace=False) -> None:
    write = _writer(sink, replace)
    progress = _progress(count)
    try:
        with progress:
            task = progress.add_task(f"{ptype.name}", total=count, completed=done)
            seeds = range(seed + done, seed + count)
            if workers > 1 and len(seeds) > 1:
                from ..workers import generate_many  # lazy: only --workers loads multiprocessing
                results = generate_many(engine, ptype.name, params, options, seeds, workers)
            else:
                results = (engine.generate(ptype, params, s, options) for s in seeds)
            for result in results:
                write(_lines_of(engine, ptype, params, result, fmt, count))
                if keep:
                    keep.add(result)
                _warn_timeouts(result.puzzle)
                progress.advance(task)
    except KeyboardInterrupt as exc:
        raise _interrupted(exc, out) from None


def _gen_difficulty(engine, ptype, params, options, seed, count, done, fmt, sink, out, judge,
                    level, attempts, keep=None, replace=False) -> None:
    write = _writer(sink, replace)
    try:
        for result, note in search(engine, ptype, params, options, judge, level, seed,
                                   count - done, attempts):
            write(_lines_of(engine, ptype, params, result, fmt, count, {"difficulty": note}))
            if keep:
                keep.add(result, {k: note[k] for k in ("level", "grader", "model_sha256",
                                                       "mean_nodes", "mode", "probabilities")})
            _warn_timeouts(result.puzzle)
    except KeyboardInterrupt as exc:
        raise _interrupted(exc, out) from None
