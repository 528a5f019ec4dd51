"""``puzzle-engine grade`` and ``train``: grade puzzles by the type's grader and show
their levels, and fit a level model from labelled puzzles. The level models and graders
are found by ``difficulty``; the grading modules load only when a command needs them."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from .. import files, processes
from ..difficulty import checked_model, make_grader
from ..errors import PuzzleInputError
from ..explain.rating import score
from ..grading.levels import (FeatureTable, LevelModel, first_per_label, grading_signature,
                              measure, read_labelled)
from ..grading.multiple import Grade, GradeOptions
from ..inputs import load_puzzles, parse
from . import app, progress
from .common import (PLUGIN_ARGS, ConfigOpt, InputArg, ModelOpt, TimeOpt, _engine, _errors,
                     _host, counted, _input_and_params, _plugin_params, err_console, out_console)

RunsOpt = Annotated[int, typer.Option("--runs", help="R: solves per pass, each branching in "
                    "its own random order.")]
CutoffOpt = Annotated[float, typer.Option("--cutoff", help="Below this mean of the "
                      "strengthened pass, grade on the plain model.")]
GradeSeedOpt = Annotated[int, typer.Option("--grade-seed", help="Seed of the random search "
                         "orders.")]
StrengthenOpt = Annotated[bool, typer.Option("--strengthen/--no-strengthen", help="Run the "
                          "strengthened pass (SAC probing + implied constraints) first.")]
JobsOpt = Annotated[int, typer.Option("--jobs", help="Solver processes at once.")]
StepsOpt = Annotated[bool, typer.Option("--steps/--no-steps", help="Also explain each puzzle "
                     "and add the step rating (largest and mean reason size...) to the features.")]
GradeSolverOpt = Annotated[Optional[str], typer.Option("--solver", help="Solver to grade with "
                           "(default gecode for the multiple method: node counts of solvers "
                           "that learn, like Chuffed, measure something else; the type's own "
                           "solver for another grader).")]


def _grading(ctx, puzzle, solver, config, time_limit, runs, cutoff, grade_seed, strengthen, jobs,
             source=None, steps=False):
    """The grading engine, puzzle type, puzzle options and grading options (and INPUT,
    with ``source``: see ``_input_and_params``)."""
    host = _host()
    ptype = host.get_type(puzzle)
    if source is None:
        raw = _plugin_params(ptype, ctx.args)[0]
    else:
        source, raw = _input_and_params(ptype, source, ctx)
    # The multiple method counts nodes, which means something on Gecode only; another
    # grader runs on the type's own solver unless one is named.
    default = "gecode" if ptype.grader == "multiple" else None
    engine = _engine(host, ptype, solver or default, config, time_limit)
    options = GradeOptions(runs=runs, cutoff=cutoff, seed=grade_seed, strengthen=strengthen,
                           jobs=jobs, steps=steps)
    options.check()
    return engine, ptype, raw, options, source


@app.command(context_settings=PLUGIN_ARGS)
def grade(ctx: typer.Context, puzzle: str, source: InputArg, solver: GradeSolverOpt = None,
          config: ConfigOpt = None, time_limit: TimeOpt = None,
          fmt: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
          model: ModelOpt = None, runs: RunsOpt = 50, cutoff: CutoffOpt = 500.0,
          grade_seed: GradeSeedOpt = 0, strengthen: StrengthenOpt = True, jobs: JobsOpt = 2,
          steps: StepsOpt = False):
    """Grade puzzles: mean search nodes over random orders, and the level from each grader."""
    with _errors():
        if fmt not in ("text", "json"):
            raise PuzzleInputError(f"bad --format '{fmt}': expected text or json")
        engine, ptype, raw, options, source = _grading(ctx, puzzle, solver, config, time_limit,
                                                       runs, cutoff, grade_seed, strengthen, jobs,
                                                       source, steps)
        graders: dict[str, Any] = {}     # per puzzle parameters (JSON input may mix them)
        models: dict[str, Any] = {}         # the level model checked for those parameters
        puzzles = list(load_puzzles(ptype, raw, source))
        try:
            with progress.bar() as shown:
                task = shown.add_task("grading", total=len(puzzles))
                _grade_all(engine, ptype, puzzles, options, model, fmt, graders, models,
                           lambda: shown.advance(task))
        finally:
            for g in graders.values():
                g.close()


def _grade_all(engine, ptype, puzzles, options, model, fmt, graders, models, done) -> None:
    """Grade each puzzle and print its grade; ``done()`` after each."""
    for number, parsed in enumerate(puzzles):
        if number and fmt == "text":
            out_console.print("")  # several puzzles: a blank line between grades
        key = json.dumps(parsed.params, sort_keys=True)
        if key not in graders:
            graders[key] = make_grader(engine, ptype, parsed.params, options)
        g = graders[key].grade(parsed.instance)
        if key not in models:  # level models learn from the multiple method
            models[key] = checked_model(engine, ptype, parsed.params, model, options, g) \
                if isinstance(g, Grade) else None
            if models[key] is None and isinstance(g, Grade):
                err_console.print(f"puzzle-engine: no level model for '{ptype.name}' with "
                                  "these options; showing the measurements only")
        _print_grade(g, models[key].predict(g) if models[key] else None, fmt)
        done()


def _print_grade(g, levels, fmt: str) -> None:
    """One puzzle's grade: the multiple method's in full; another grader's as its
    ``summary()`` (text), or its ``to_json()``."""
    if fmt == "json":
        record = g.to_json()
        record.pop("puzzle", None)
        record["levels_by"] = levels
        out_console.print(json.dumps(record), markup=False)
        return
    if not isinstance(g, Grade):
        summary = getattr(g, "summary", None)
        out_console.print(summary() if summary else json.dumps(g.to_json()), markup=False)
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
    if g.step_features:
        sf = g.step_features
        lines.append(f"steps: {sf['step_count']:.0f}, largest reason "
                     f"{counted(sf['step_max_size'], 'group')}, mean {sf['step_mean_size']:.2f}; "
                     f"step rating {score(sf):.2f}")
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
                         "(default: PUZZLE-levels.skops; a file that is not empty is "
                         "refused, unless --force).")] = None,
          force: Annotated[bool, typer.Option("--force", help="Replace an --out file that "
                           "is not empty.")] = False,
          features: Annotated[Optional[Path], typer.Option("--features", help="Feature table, "
                              "written as puzzles are graded; an interrupted run resumes from "
                              "it (default: OUT with .features.csv).")] = None,
          solver: GradeSolverOpt = None, config: ConfigOpt = None, time_limit: TimeOpt = None,
          runs: RunsOpt = 50, cutoff: CutoffOpt = 500.0, grade_seed: GradeSeedOpt = 0,
          strengthen: StrengthenOpt = True, jobs: JobsOpt = 2, steps: StepsOpt = False,
          per_label: Annotated[Optional[int], typer.Option("--per-label", help="Use only the "
                               "first N puzzles of each label.")] = None):
    """Fit difficulty levels from labelled puzzles: thresholds on ln(mean nodes) and an SVM."""
    with _errors():
        engine, ptype, raw, options, _ = _grading(ctx, puzzle, solver, config, time_limit, runs,
                                                  cutoff, grade_seed, strengthen, jobs, steps=steps)
        if per_label is not None and per_label < 1:
            raise PuzzleInputError(f"bad --per-label {per_label}: must be at least 1")
        out = out or Path(f"{ptype.name}-levels.skops")
        features = features or out.with_suffix(".features.csv")
        files.check_out(out, force=force, new_file=True, devices=False)
        files.check_writable(features, "--features")
        examples = read_labelled(data, lambda text: parse(ptype, raw, text).board)
        if per_label is not None:
            examples = first_per_label(examples, per_label)
        params = parse(ptype, raw, examples[0].text).params
        signature = grading_signature(options, engine.backend.solver_id, ptype.name, params)
        table = FeatureTable(features, signature)
        one_job = GradeOptions(**{**options.__dict__, "jobs": 1})
        grader = make_grader(engine, ptype, params, one_job)
        try:
            with progress.bar() as shown:
                held = sum(e.text in table.rows for e in examples)
                task = shown.add_task("grading", total=len(examples), completed=held, held=held)
                measure(examples, table, lambda e: grader.grade(e.board, f"{data}, line {e.line}"),
                        jobs=jobs, progress=lambda: shown.advance(task))
        except KeyboardInterrupt as exc:
            err_console.print(f"puzzle-engine: interrupted; the graded puzzles are in {features}, "
                              "rerun the same command to go on")
            raise typer.Exit(processes.exit_code(exc)) from None
        finally:
            grader.close()
        level_model = LevelModel.fit(table, examples, {"file": data.name, "per_label": per_label})
        with files.writing(out):
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
