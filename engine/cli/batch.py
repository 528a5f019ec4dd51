"""``puzzle-engine batch``: fill a store with N distinct puzzles, with a progress bar on
stderr; run again after an interrupt, it goes on where it stopped. A front end of the run
pipeline (``run``): seeds in order from the batch's next one, on this process, a local
pool or a Dask cluster, into the batch (``sinks.BatchSink``).

The result of a batch of N is the first N distinct puzzles in seed order: each seed's
puzzle is stored unless its canonical key is stored already (a duplicate), or it missed
the level asked for. Each is committed with the batch's next seed in one transaction, so
the same command run again after an interrupt goes on to the same puzzles as a run that
was never interrupted. A seed that keeps several puzzles (every level a growing strategy
accepts) is stored whole, so such a batch may end a few puzzles past N."""
from __future__ import annotations

import itertools
import os
import random
from pathlib import Path
from typing import Annotated, Optional

import typer

from .. import calls, processes
from .. import config as config_module
from ..difficulty import DIFFICULTY, check_complexity, make_judge
from ..engine import strategy_of
from ..errors import NothingFound, PuzzleEngineError, PuzzleInputError
from ..explain.band import check_ratable, parse_band
from ..run import executors, pipeline
from ..run.factory import SolverSettings
from ..run.job import Grading, Job
from ..run.progress import Bar
from ..run.resume import same_fields
from ..run.sinks import BatchSink
from .. import store as stores  # its SQLite half loads when a command uses it
from ..store.query import INT_RANGE, check_int
from . import app
from .common import (PLUGIN_ARGS, ConfigOpt, ModelOpt, SolverOpt, TimeOpt, _engine, _errors,
                     _host, _plugin_params, err_console)


@app.command(context_settings=PLUGIN_ARGS)
def batch(
    ctx: typer.Context,
    puzzle: Annotated[str, typer.Argument(help="Puzzle type, e.g. one listed by 'puzzle-engine "
                      "plugins'; its options and its strategy's follow.", show_default=False)],
    count: Annotated[int, typer.Option("--count", help="Distinct puzzles the batch must hold.",
                     show_default=False)],
    db: Annotated[Path, typer.Option("--db", help="The SQLite store (created if need be).",
                  show_default=False)],
    seed: Annotated[Optional[int], typer.Option("--seed", help="Seed of the batch's first "
                    "puzzle; seeds go up by one. Absent: the latest batch of the same options "
                    "goes on, or a new one starts at a random seed (printed).")] = None,
    workers: Annotated[int, typer.Option("--workers", help="Local worker processes.")] = 1,
    executor: Annotated[str, typer.Option("--executor", help="'local' (a process pool) or "
                        "'dask' (a Dask cluster, with --scheduler).")] = "local",
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="With --executor "
                         "dask: the scheduler's address, tcp://HOST:PORT.")] = None,
    dask_timeout: Annotated[Optional[float], typer.Option("--dask-timeout", help="With "
                            "--executor dask: seconds to wait for the scheduler's answer and "
                            "for a worker before giving up (a task may run longer). Default: "
                            "the config file's [dask] timeout, else 30.",
                            show_default=False)] = None,
    difficulty: Annotated[Optional[str], typer.Option("--difficulty", help="Keep only puzzles "
                          "the level model grades at this level.")] = None,
    grade: Annotated[bool, typer.Option("--grade", help="Grade every puzzle with the level "
                     "model and store its level (implied by --difficulty).")] = False,
    rating: Annotated[Optional[str], typer.Option("--rating", help="Keep only puzzles whose "
                      "step rating (explain's, Sukaku Explainer's scale) is in LO-HI, e.g. "
                      "1.5-3.0; stored in the puzzle's rating.")] = None,
    attempts: Annotated[int, typer.Option("--attempts", help="Give up after this many seeds "
                        "in a row give no puzzle (off the level or band, or none found).")
                        ] = 50,
    grader: Annotated[str, typer.Option("--grader", help="With a level: 'svm' or "
                      "'thresholds'.")] = "svm",
    bins: Annotated[bool, typer.Option("--bins", help="Also store GenPuzzles' complDict: every "
                    "board accepted while a puzzle was emptied, binned by the complexity "
                    "function's level (--complexity; 'difficulty' grades each).")] = False,
    model: ModelOpt = None,
    solver: SolverOpt = None,
    config: ConfigOpt = None,
    time_limit: TimeOpt = None,
):
    """Fill a store with COUNT distinct puzzles (by canonical form), in seed order.

    Puzzle options and the options of the type's strategy (like [bold]--variants 5[/])
    follow the puzzle's name, as for 'gen'. Ctrl-C keeps every finished puzzle; the same
    command again goes on to COUNT."""
    with _errors():
        cpus = os.cpu_count() or 1
        for name, value, least, most in (("--count", count, 1, None),
                                         ("--workers", workers, 1, 4 * cpus),
                                         ("--attempts", attempts, 1, None)):
            if value < least:
                raise PuzzleInputError(f"bad {name} {value}: must be at least {least}")
            if most is not None and value > most:
                raise PuzzleInputError(f"bad {name} {value}: must be at most {most} (4 per "
                                       f"CPU; this machine has {cpus})")
        check_int("--seed", seed)
        check_int("--count", count)
        if seed is not None and seed + count > INT_RANGE.stop - 1:
            # Seeds go up by one, and the batch records the next one with each puzzle.
            raise PuzzleInputError(f"bad --seed {seed}: a batch of {count} from it needs seeds "
                                   f"past {INT_RANGE.stop - 1}, the largest whole number the "
                                   "store holds")
        stores.Store.check(db, "--db")
        if executor not in executors.EXECUTORS:
            raise PuzzleInputError(f"bad --executor '{executor}': expected local or dask")
        if (executor == "dask") != (scheduler is not None):
            raise PuzzleInputError("--executor dask needs --scheduler tcp://HOST:PORT, and "
                                   "--scheduler needs --executor dask")
        if dask_timeout is not None and executor != "dask":
            raise PuzzleInputError("--dask-timeout needs --executor dask")
        wait = config_module.dask_timeout(dask_timeout, config, executors.DEFAULT_DASK_TIMEOUT)
        if executor == "dask" and workers > 1:
            raise PuzzleInputError("--workers is the local pool's; a Dask cluster has its own "
                                   "workers (start them with 'dask worker')")
        band = parse_band(rating) if rating is not None else None
        host = _host()
        ptype = host.get_type(puzzle)
        if band is not None:
            check_ratable(ptype)
        strategy = strategy_of(host, ptype)
        raw, _ = _plugin_params(ptype, ctx.args, more=strategy.options)
        names = {p.name for p in strategy.options}
        params = calls.canonical_params(ptype, {k: v for k, v in raw.items() if k not in names})
        # A Dask worker runs one puzzle per thread, as a pool's worker does (one solver
        # call at a time: --probes 1).
        options = strategy.make_options({k: v for k, v in raw.items() if k in names},
                                        workers=workers if executor == "local" else 2)
        if hasattr(strategy, "check_options"):  # optional in the contract
            strategy.check_options(ptype, params, options)
        engine = _engine(host, ptype, solver, config, time_limit, params)
        complexity = getattr(options, "complexity", None)
        grading, judge = None, None
        if difficulty is not None or grade or complexity == DIFFICULTY:
            engines = {}

            def engine_for(name):
                engines[name] = _engine(host, ptype, name, config, time_limit)
                return engines[name]
            judge = make_judge(ptype, params, model, grader, engine_for)
            if difficulty is not None:
                judge.check_level(difficulty)
            (judged,) = engines.values()
            grading = Grading(difficulty, model, grader, SolverSettings.of(judged.backend))
            if complexity == DIFFICULTY:
                host.complexities[DIFFICULTY] = judge.complexity()
            judge.close()
        check_complexity(host, complexity)
        job = Job(ptype.name, params, options, SolverSettings.of(engine.backend), grading, bins,
                  entries=True, rating=band)
        settings = {**same_fields(engine, ptype, strategy, options, judge, difficulty, band),
                    "variants": getattr(options, "variants", 0), "bins": bins,
                    "graded": grading is not None}
        client = executors.dask_client(scheduler, wait) if executor == "dask" else None
        if client is not None:
            runner = executors.Dask(client, wait)
        elif workers > 1:
            runner = executors.LocalPool(workers)
        else:
            runner = executors.InProcess(host)
        try:
            with stores.Store(db) as store:
                found, created = store.run_batch(ptype.name, params, settings, seed, count,
                                                 lambda: random.SystemRandom().randrange(2**31))
                if created and seed is None:
                    err_console.print(f"puzzle-engine: seed {found.seed} (pass --seed "
                                      f"{found.seed} to reproduce)")
                elif not created and found.next_seed != found.seed:
                    err_console.print(f"puzzle-engine: going on with batch {found.id} (seed "
                                      f"{found.seed}) from seed {found.next_seed}", markup=False)
                _run(store, found, job, count, runner, attempts, db)
        finally:
            if client is not None:
                executors.close_client(client, wait)


def _run(store, found, job, count, runner, misses, db) -> None:
    """The run pipeline: seeds from the batch's next one on ``runner`` (an executor), into
    the batch, until it holds ``count`` distinct puzzles."""
    sink = BatchSink(store, found)

    wanted = " ".join(w for w in ("of the level asked for" if job.grading and job.grading.level
                                  else "", f"rated {job.rating.text()}" if job.rating else "")
                      if w)

    def missed(first: int, last: int, why: str | None) -> NothingFound:
        last_why = f"; seed {last}: {why}" if why else ""
        return NothingFound(f"no puzzle{' ' * bool(wanted)}{wanted} in {misses} seeds in a "
                            f"row (seeds {first}..{last}){last_why}: raise --attempts, or "
                            "change the options")
    try:
        with Bar(err_console, job.puzzle, count, terminal_only=False) as bar:
            tally = pipeline.run(job, itertools.count(found.next_seed), runner, sink, count,
                         misses=misses, missed=missed, warn=_warn, bar=bar)
    except KeyboardInterrupt as exc:
        held = store.distinct(found)
        err_console.print(f"puzzle-engine: interrupted; {db} holds {held} of the batch's "
                          f"{count} puzzles, every finished one: run the same command to go on")
        raise typer.Exit(processes.exit_code(exc)) from None
    except PuzzleEngineError as exc:  # a solver, a worker, the cluster: the rest is kept
        held = store.distinct(found)
        raise type(exc)(f"{exc}; {db} holds {held} of the batch's {count} puzzles, every "
                        "finished one: run the same command to go on") from None
    _summary(sink, found, count, db, tally, job.rating)


def _warn(line: str) -> None:
    err_console.print(f"puzzle-engine: warning: {line}", markup=False)


def _summary(p: BatchSink, found, count: int, db: Path, tally=None, band=None) -> None:
    seeds = "" if p.first_seed is None else f" from seeds {p.first_seed}..{p.last_seed}"
    extra = [f"{p.added.duplicates} equivalent to stored puzzles"]
    if p.off_level:
        extra.append(f"{p.off_level} off level")
    if p.off_band:
        extra.append(f"{p.off_band} off the band {band.text()}")
    if p.skipped:
        extra.append(f"{p.skipped} seed{'s' * (p.skipped != 1)} skipped (no puzzle found)")
    if tally is not None and tally.kept and (p.skipped or band is not None):
        rate = f", {60 * tally.kept / tally.seconds:.1f} a minute" if tally.seconds else ""
        extra.append(f"{tally.tried / tally.kept:.2f} seeds tried per puzzle kept{rate}")
    if p.added.variants:
        extra.append(f"{p.added.variants} variants")
    if p.added.bins:
        extra.append(f"{p.added.bins} boards in bins")
    err_console.print(f"puzzle-engine: batch {found.id}: {p.done} of {count} distinct puzzles "
                      f"in {db}; this run stored {p.added.stored}{seeds} "
                      f"({', '.join(extra)})", markup=False)
