"""Explain labelled Sudoku and write each puzzle's steps, for the step rating (docs/grading.md).

    .venv/bin/python scripts/sudoku_step_table.py --per-label 60
    nice .venv/bin/python scripts/sudoku_step_table.py --effort --per-label 60

Reads plugins/sudoku/data/sudoku_rated_train.csv (puzzles ``--skip`` to ``--skip +
--per-label`` of each label in ``--labels``) and appends one row per puzzle: the puzzle,
its label and rating, the seconds it took, whether the path solved it, and

- by default, to plugins/sudoku/data/sudoku_rated_train.steps.csv, the explainer's steps
  as ``SIZE=`` (a square filled) or ``SIZEx`` (a value ruled out), comma-separated. Only
  the groups of each step are found (not the facts of its reason);
- with ``--effort``, to ...effort.csv, the step rating's path (``puzzle_engine.explain.
  ladder``: the cheapest technique first) as ``COST:TECHNIQUE``, semicolon-separated
  (free eliminations left out).

A row is written as soon as its puzzle is done, so an interrupted run keeps what it
finished and the same command resumes.
"""
from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

from puzzle_engine.engine import Engine
from puzzle_engine.explain import Explainer
from puzzle_engine.explain.ladder import rate
from puzzle_engine.plugins import get_host
from puzzle_engine.solving.backend import Backend

DATA = Path("plugins/sudoku/data")


def steps(ex: Explainer) -> tuple[bool, str, str]:
    result = ex.run(reasons=False)
    return result.solved, ",".join(f"{s.size}{'=' if s.fact.equal else 'x'}" for s in result.steps), \
        f"{max([s.size for s in result.steps] or [0])}"


def effort(ex: Explainer) -> tuple[bool, str, str]:
    path = rate(ex)
    return path.solved, ";".join(f"{s.cost:g}:{s.technique}" for s in path.steps), \
        f"{path.features()['effort_max']:g}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA / "sudoku_rated_train.csv")
    ap.add_argument("--effort", action="store_true", help="the step rating's path, not the explainer's")
    ap.add_argument("--out", type=Path, help="default: ...steps.csv, or ...effort.csv with --effort")
    ap.add_argument("--per-label", type=int, default=60)
    ap.add_argument("--skip", type=int, default=0, help="start at this puzzle of each label")
    ap.add_argument("--labels", default="simple,easy,intermediate,expert")
    args = ap.parse_args()
    column, walk = ("effort", effort) if args.effort else ("steps", steps)
    out_path = args.out or DATA / f"sudoku_rated_train.{column}.csv"
    labels = args.labels.split(",")
    done = {r["puzzle"] for r in csv.DictReader(out_path.open())} if out_path.exists() else set()
    taken: dict[str, int] = {}
    todo = []
    for r in csv.DictReader(args.data.open()):
        k = taken.get(r["label"], 0)
        taken[r["label"]] = k + 1
        if r["label"] in labels and args.skip <= k < args.skip + args.per_label \
                and r["puzzle"] not in done:
            todo.append(r)
    host = get_host()
    sudoku = host.get_type("sudoku")
    engine = Engine(host, Backend("cp-sat"))
    new = not out_path.exists()
    with out_path.open("a", newline="") as fh:
        out = csv.DictWriter(fh, ["puzzle", "label", "rating", "seconds", "solved", column])
        if new:
            out.writeheader()
        for i, r in enumerate(todo):
            parsed = sudoku.parse({"size": None, "box": None, "choose": None}, r["puzzle"])
            start = time.perf_counter()
            solved, text, hardest = walk(Explainer(engine, sudoku, parsed.params, parsed.instance))
            seconds = time.perf_counter() - start
            out.writerow({"puzzle": r["puzzle"], "label": r["label"], "rating": r["source_rating"],
                          "seconds": f"{seconds:.2f}", "solved": int(solved), column: text})
            fh.flush()
            print(f"{i + 1}/{len(todo)} {r['label']} {r['source_rating']} {hardest} {seconds:.1f}s",
                  file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
