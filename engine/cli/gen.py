"""``puzzle-engine gen``: generate puzzles with the puzzle type's strategy, and write
them one at a time (to stdout or ``--out``, and ``--db``), with a progress bar on stderr:
a front end of the run pipeline (``run``), which also resumes a batch and searches for a
level, in one process or in ``--workers``."""
from __future__ import annotations

import contextlib
import itertools
import os
import random
from pathlib import Path
from typing import Annotated, Optional

import typer

from .. import calls, processes
from ..difficulty import DIFFICULTY, check_complexity, make_judge
from ..engine import strategy_of
from ..errors import NothingFound, PuzzleInputError
from ..explain.band import check_ratable, parse_band
from ..files import check_out, check_writable
from ..run import outfile, pipeline
from ..run.executors import InProcess, LocalPool
from ..run.factory import SolverSettings
from ..run.job import Grading, Job
from ..run.progress import Bar
from ..run.resume import done_and_next_seed, done_and_seed, existing_batch, same_fields
from ..run.sinks import Both, FileWriter, Lines, StoreSink
from .. import store as stores  # its SQLite half loads when a command uses it
from . import app
from .common import (PLUGIN_ARGS, ConfigOpt, FormatOpt, ModelOpt, SolverOpt, TimeOpt,
                     _check_format, _engine, _errors, _host, _plugin_params, err_console,
                     out_console)


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
    rating: Annotated[Optional[str], typer.Option("--rating", help="Keep only puzzles whose "
                      "step rating (explain's, Sukaku Explainer's scale) is in LO-HI, e.g. "
                      "1.5-3.0 (trying seed after seed).")] = None,
    attempts: Annotated[int, typer.Option("--attempts", help="Seeds tried in a row without a "
                        "puzzle (off the level or band, or none found) before giving up.")
                        ] = 20,
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
        band = parse_band(rating) if rating is not None else None
        if resume and band is not None and fmt != "json":
            raise PuzzleInputError("--resume with --rating needs --out FILE and --format json")
        host = _host()
        ptype = host.get_type(puzzle)
        if band is not None:
            check_ratable(ptype)
        strategy = strategy_of(host, ptype)
        raw, _ = _plugin_params(ptype, ctx.args, more=strategy.options)
        strategy_names = {p.name for p in strategy.options}
        params = calls.canonical_params(ptype, {k: v for k, v in raw.items()
                                                if k not in strategy_names})
        options = strategy.make_options({k: v for k, v in raw.items() if k in strategy_names},
                                        workers=workers)
        if hasattr(strategy, "check_options"):  # optional in the contract
            strategy.check_options(ptype, params, options)
        complexity = getattr(options, "complexity", None)
        engine = _engine(host, ptype, solver, config, time_limit, params)
        grading = judge = None
        if difficulty is not None or complexity == DIFFICULTY:
            judged = []

            def engine_for(name):
                judged.append(_engine(host, ptype, name, config, time_limit))
                return judged[-1]
            judge = make_judge(ptype, params, model, grader, engine_for)
            if difficulty is not None:
                judge.check_level(difficulty)
            grading = Grading(difficulty, model, grader, SolverSettings.of(judged[0].backend),
                              every=difficulty is not None)
            if complexity == DIFFICULTY:
                host.complexities[DIFFICULTY] = judge.complexity()
        check_complexity(host, complexity)
        variants = getattr(options, "variants", 0)
        same = same_fields(engine, ptype, strategy, options, judge, difficulty, band)
        if judge is not None:
            judge.close()  # each executor grades with its own
        if resume and (out is None or fmt == "text"):
            raise PuzzleInputError("--resume needs --out FILE and --format json or line")
        search = difficulty is not None or band is not None  # seed after seed, for a kind
        if resume and search and fmt != "json":
            raise PuzzleInputError(f"--resume with {'--difficulty' if difficulty else '--rating'}"
                                   " needs --out FILE and --format json")
        job = Job(ptype.name, params, options, SolverSettings.of(engine.backend), grading,
                  entries=db is not None, rating=band)
        keep = handle = stored = None
        try:
            keep = stores.Store(db) if db else None  # a bad store: before --out is made
            handle = outfile.open_output(out) if out else None  # locked until the end
            if out is not None:  # again, locked: filled since by another command?
                check_out(out, force=force or resume, others="--resume to go on with the "
                          "batch it holds, ")
            existing = existing_batch(ptype, params, out, fmt, resume, same)
            if search:
                done, start = done_and_next_seed(out, existing, seed)
            else:
                done, start = done_and_seed(out, fmt, existing, seed, variants)
            if start is None:
                start = random.SystemRandom().randrange(2**31)
                err_console.print(f"puzzle-engine: seed {start} (pass --seed {start} to "
                                  "reproduce)")
            if existing is not None:
                existing.drop_cut_line(out)
            # --force replaces the file at the first puzzle written, not before
            write = (FileWriter(handle, replace=force and out.is_file()) if handle else
                     lambda lines: out_console.print("\n".join(lines), markup=False))
            sink = lines = Lines(ptype, params, fmt, count, write, done,
                                 noted=difficulty is not None)
            if keep is not None:
                stored = StoreSink(keep)
                sink = Both(lines, stored)
            tally = _run(job, host, start, count, done, sink, workers, difficulty, band,
                         attempts, out)
            _summary(tally, band, done, count)
        finally:
            if keep:
                keep.close()
                if stored is not None and (stored.stored or stored.duplicates):
                    err_console.print(f"puzzle-engine: stored {stored.stored} puzzle"
                                      f"{'s' * (stored.stored != 1)} in {db} "
                                      f"({stored.duplicates} equivalent to stored ones)",
                                      markup=False)
            if handle:
                with contextlib.suppress(OSError):  # a failed write was reported already
                    handle.close()


def _run(job, host, start, count, done, sink, workers, level, band, attempts, out):
    """The run pipeline: seeds from ``start`` (the next one after the ``done`` puzzles),
    on until ``count`` puzzles (a seed may give none: off the ``level`` or ``band``, or
    skipped when its strategy found nothing), in this process or in ``workers``
    processes; the run's ``Tally``. A single puzzle asked for without a level or band is
    the puzzle of its seed: when its strategy finds nothing, the command fails with the
    strategy's own words (exit status 3, ``NothingFound``)."""
    search = level is not None or band is not None
    single = count - done == 1 and not search
    executor = LocalPool(workers) if workers > 1 and not single else InProcess(host)
    wanted = " ".join(w for w in (f"'{level}'" if level else "",
                                  f"rated {band.text()}" if band else "") if w)

    def missed(first: int, last: int, why: str | None) -> NothingFound:
        if single and why is not None:
            return NothingFound(why)
        what = f"no {wanted} puzzle" if wanted else "no puzzle"
        last_why = f"; seed {last}: {why}" if why else ""
        return NothingFound(f"{what} in {attempts} attempts (seeds {first}..{last})"
                            f"{last_why}; raise --attempts, or change the options")
    try:
        with Bar(err_console, job.puzzle, count) if count > 1 else contextlib.nullcontext() as bar:
            return pipeline.run(job, itertools.count(start), executor, sink, count, bar=bar,
                                warn=_warn, misses=1 if single else attempts, missed=missed)
    except KeyboardInterrupt as exc:
        raise _interrupted(exc, out) from None


def _summary(tally, band, done: int, count: int) -> None:
    """One line on stderr when the run tried seeds that gave no puzzle, or searched a
    rating band: the puzzles made, the seeds tried for them, and the rate achieved."""
    if not tally.tried or not (tally.skipped or band is not None):
        return
    kept = tally.kept
    per = f"{tally.tried / kept:.2f} seeds tried per puzzle kept" if kept else "none kept"
    rate = f", {60 * kept / tally.seconds:.1f} a minute" if kept and tally.seconds else ""
    wanted = f" rated {band.text()}" if band is not None else ""
    extra = ", ".join(tally.words())
    err_console.print(f"puzzle-engine: {kept} puzzle{'s' * (kept != 1)}{wanted} from seeds "
                      f"{tally.first}..{tally.last} ({tally.tried} tried: {extra or 'all kept'};"
                      f" {per}{rate}); {done + kept} of {count}", markup=False)


def _warn(line: str) -> None:
    err_console.print(f"puzzle-engine: warning: {line}", markup=False)


def _gen_help(ctx: typer.Context, puzzle: str | None) -> None:
    """``gen --help``: the command's options, and after a puzzle name, the options of the
    puzzle type and of its strategy."""
    out_console.print(ctx.get_help(), markup=False)
    if puzzle is None:
        return
    # lazy: only a type's help draws a table (test_startup)
    from rich.table import Table
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


def _interrupted(exc: KeyboardInterrupt, out: Path | None) -> typer.Exit:
    kept = f"; the finished puzzles are in {out}, rerun with --resume to go on" if out else ""
    err_console.print(f"puzzle-engine: interrupted{kept}")
    return typer.Exit(processes.exit_code(exc))
