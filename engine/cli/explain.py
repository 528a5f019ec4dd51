"""``puzzle-engine explain`` and ``hint``: the steps a person can take through a puzzle,
each with the smallest reason found (``puzzle_engine.explain``)."""
from __future__ import annotations

import json
import time
from typing import Annotated, Optional

import typer

from ..errors import PuzzleInputError
from ..explain import report, words
from ..explain.rating import rated_path, score, step_features
from ..inputs import load_puzzles
from . import app, progress
from .common import (PLUGIN_ARGS, ConfigOpt, InputArg, _engine, _errors, _host,
                     _input_and_params, counted, err_console, out_console)

StepsOpt = Annotated[Optional[int], typer.Option("--steps", help="Stop after N steps "
                     "shown (default: until solved); the plain eliminations a step rests on "
                     "are folded into it.")]
ExplainFormatOpt = Annotated[str, typer.Option("--format", help="text (one line per step) "
                             "or json (one JSON record per puzzle).")]
ExactOpt = Annotated[int, typer.Option("--exact", help="Try every connected set of up to K "
                     "groups, so that reasons of up to K groups are the smallest there are; "
                     "larger ones are subset-minimal.")]
MaxSizeOpt = Annotated[Optional[int], typer.Option("--max-size", help="Stop, as needing "
                       "search, at a step whose reason needs more than K groups.")]


def _run(ctx, puzzle, source, config, fmt, limit, exact, max_size, hint: bool) -> None:
    if fmt not in ("text", "json"):
        raise PuzzleInputError(f"bad --format '{fmt}': expected text or json")
    for name, value, least in (("--steps", limit, 1), ("--exact", exact, 1),
                               ("--max-size", max_size, 0)):
        if value is not None and value < least:
            raise PuzzleInputError(f"bad {name} {value}: expected a whole number from {least}")
    host = _host()
    ptype = host.get_type(puzzle)
    report.check_explainable(ptype)
    source, raw = _input_and_params(ptype, source, ctx)
    engine = _engine(host, ptype, "cp-sat", config, None)
    puzzles = list(load_puzzles(ptype, raw, source))
    with progress.bar() as shown:
        task = shown.add_task("hint" if hint else "explaining", total=len(puzzles))
        stuck = False
        for number, parsed in enumerate(puzzles):
            start = time.perf_counter()
            ex = report.explainer(engine, ptype, parsed.params, parsed.instance,
                                  exact=exact, max_size=max_size)
            said_by = words.Words(ptype, parsed.params)
            whole = not hint and limit is None
            if whole:  # the whole path: rated too (the rating's path first, from the start)
                known = list(ex.known)
                result, feats = rated_path(ex, reasons=True)
                said, classed = words.said_steps(ex, result.steps, said_by, known)
            else:  # (a step shown is one a person takes: plain eliminations fold into it)
                result, said, classed = words.explain(ex, said_by, 1 if hint else limit)
                feats = None
            seconds = time.perf_counter() - start
            stuck |= result.stuck is not None
            if fmt == "json":
                record = {"type": ptype.name, "params": parsed.params,
                          **report.explanation_json(ex, result, said, classed),
                          "seconds": round(seconds, 3)}
                if whole:  # the whole path: its step rating
                    record["rating"] = {**feats, "score": score(feats)}
                if hint:  # the step shown, and the steps it rests on and says with it
                    steps = record.pop("steps")
                    record["step"] = steps[said[0].index] if said else None
                    record["uses"] = [steps[k] for k in said[0].indices()
                                      if k != said[0].index] if said else []
                out_console.print(json.dumps(record), markup=False)
                shown.advance(task)
                continue
            if number:
                out_console.print("")
            width = len(str(len(said)))
            for k, step in enumerate(said, 1):
                out_console.print(step.text if hint else f"{k:>{width}}. {step.text}",
                                  markup=False)
            if result.stuck:
                out_console.print(f"needs search: {result.stuck}", markup=False)
            elif result.solved and not hint:
                feats = feats or step_features(result.steps)
                out_console.print(f"solved in {counted(len(said), 'step')} "
                                  f"({counted(len(result.steps), 'fact')} found); largest "
                                  f"reason {counted(feats['step_max_size'], 'group')}, mean "
                                  f"{feats['step_mean_size']:.2f}; step rating "
                                  f"{score(feats):.2f} "
                                  f"({'hardest technique; ' * ('effort_max' in feats)}"
                                  f"{seconds:.1f} s)", markup=False)
            elif result.solved and result.steps:  # the hint filled the last square
                out_console.print("solved: that was the last square", markup=False)
            elif result.solved:
                out_console.print("already solved", markup=False)
            shown.advance(task)
    if stuck:
        raise typer.Exit(1)


@app.command(context_settings=PLUGIN_ARGS)
def explain(ctx: typer.Context, puzzle: str, source: InputArg, steps: StepsOpt = None,
            fmt: ExplainFormatOpt = "text", exact: ExactOpt = 2, max_size: MaxSizeOpt = None,
            config: ConfigOpt = None):
    """Explain a puzzle step by step: each step a square's value or a value ruled out,
    with the constraint groups and earlier facts that force it. Exit status 1 when a
    puzzle needs search (no step is forced)."""
    with _errors():
        _run(ctx, puzzle, source, config, fmt, steps, exact, max_size, hint=False)


@app.command(context_settings=PLUGIN_ARGS)
def hint(ctx: typer.Context, puzzle: str, source: InputArg, fmt: ExplainFormatOpt = "text",
         exact: ExactOpt = 2, max_size: MaxSizeOpt = None, config: ConfigOpt = None):
    """The next step of a puzzle, with its reason (the first step of 'explain')."""
    with _errors():
        _run(ctx, puzzle, source, config, fmt, None, exact, max_size, hint=True)
