"""Explain labelled Sudoku and write each puzzle's steps, for the step rating (docs/grading.md).

    .venv/bin/python scripts/sudoku_step_table.py --per-label 75

Reads plugins/sudoku/data/sudoku_rated_train.csv (the first N puzzles of each label) and
appends one row per puzzle to plugins/sudoku/data/sudoku_rated_train.steps.csv: the
puzzle, its label and rating, the seconds it took, and its steps as ``SIZE=`` (a square
filled) or ``SIZEx`` (a value ruled out), comma-separated. A row is written as soon as its
puzzle is explained, so an interrupted run keeps what it finished and the same command
resumes. Only the groups of each step are found (not the facts of its reason): the rating
needs no more.
"""
from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

from puzzle_engine.engine import Engine
from puzzle_engine.explain import Explainer
from puzzle_engine.plugins import get_host
from puzzle_engine.solving.backend import Backend

FIELDS = ["puzzle", "label", "rating", "seconds", "solved", "steps"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("plugins/sudoku/data/sudoku_rated_train.csv"))
    ap.add_argument("--out", type=Path, default=Path("plugins/sudoku/data/sudoku_rated_train.steps.csv"))
    ap.add_argument("--per-label", type=int, default=75)
    ap.add_argument("--skip", type=int, default=0, help="start at this puzzle of each label")
    args = ap.parse_args()
    rows = list(csv.DictReader(args.data.open()))
    done = set()
    if args.out.exists():
        done = {r["puzzle"] for r in csv.DictReader(args.out.open())}
    taken: dict[str, int] = {}
    todo = []
    for r in rows:
        k = taken.get(r["label"], 0)
        taken[r["label"]] = k + 1
        if args.skip <= k < args.skip + args.per_label and r["puzzle"] not in done:
            todo.append(r)
    host = get_host()
    sudoku = host.get_type("sudoku")
    engine = Engine(host, Backend("cp-sat"))
    new = not args.out.exists()
    with args.out.open("a", newline="") as fh:
        out = csv.DictWriter(fh, FIELDS)
        if new:
            out.writeheader()
        for i, r in enumerate(todo):
            parsed = sudoku.parse({"size": None, "box": None, "choose": None}, r["puzzle"])
            start = time.perf_counter()
            result = Explainer(engine, sudoku, parsed.params, parsed.instance).run(reasons=False)
            seconds = time.perf_counter() - start
            steps = ",".join(f"{s.size}{'=' if s.fact.equal else 'x'}" for s in result.steps)
            out.writerow({"puzzle": r["puzzle"], "label": r["label"], "rating": r["source_rating"],
                          "seconds": f"{seconds:.2f}", "solved": int(result.solved), "steps": steps})
            fh.flush()
            print(f"{i + 1}/{len(todo)} {r['label']} {seconds:.1f}s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
