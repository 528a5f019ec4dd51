"""Rate labelled Sudoku by the step rating's path (cheapest technique first) and write each
puzzle's steps, for docs/grading.md ("The step rating").

    nice .venv/bin/python scripts/sudoku_effort_table.py --per-label 20

Reads plugins/sudoku/data/sudoku_rated_train.csv (puzzles ``--skip`` to ``--skip +
--per-label`` of each label) and appends one row per puzzle to
plugins/sudoku/data/sudoku_rated_train.effort.csv: the puzzle, its label and rating, the
seconds it took, whether the path solved it, and its steps as ``COST:TECHNIQUE``,
semicolon-separated (``puzzle_engine.explain.ladder``; free eliminations left out). A row
is written as soon as its puzzle is rated, so an interrupted run keeps what it finished and
the same command resumes.
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

FIELDS = ["puzzle", "label", "rating", "seconds", "solved", "effort"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("plugins/sudoku/data/sudoku_rated_train.csv"))
    ap.add_argument("--out", type=Path, default=Path("plugins/sudoku/data/sudoku_rated_train.effort.csv"))
    ap.add_argument("--per-label", type=int, default=20)
    ap.add_argument("--skip", type=int, default=0, help="start at this puzzle of each label")
    ap.add_argument("--labels", default="simple,easy,intermediate,expert")
    args = ap.parse_args()
    labels = args.labels.split(",")
    done = {r["puzzle"] for r in csv.DictReader(args.out.open())} if args.out.exists() else set()
    taken: dict[str, int] = {}
    todo = []
    for r in csv.DictReader(args.data.open()):
        k = taken.get(r["label"], 0)
        taken[r["label"]] = k + 1
        if r["label"] in labels and args.skip <= k < args.skip + args.per_label and r["puzzle"] not in done:
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
            path = rate(Explainer(engine, sudoku, parsed.params, parsed.instance))
            seconds = time.perf_counter() - start
            effort = ";".join(f"{s.cost:g}:{s.technique}" for s in path.steps)
            out.writerow({"puzzle": r["puzzle"], "label": r["label"], "rating": r["source_rating"],
                          "seconds": f"{seconds:.2f}", "solved": int(path.solved), "effort": effort})
            fh.flush()
            print(f"{i + 1}/{len(todo)} {r['label']} {r['source_rating']} "
                  f"{max([s.cost for s in path.steps] or [0]):g} {seconds:.1f}s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
