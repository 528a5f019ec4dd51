"""Cost of grading one puzzle with the multiple method (Grader.grade): seconds per puzzle.

    .venv/bin/python benchmarks/bench_grade.py                      # 9x9, R = 50, jobs 1 and 2
    .venv/bin/python benchmarks/bench_grade.py --per-label 5 --runs 50,100 --jobs 2

It grades --per-label puzzles of each label of the project's labelled Sudoku file
(plugins/sudoku/data/sudoku_rated_train.csv, from its end: rows the shipped model was not
trained on) on Gecode, with each R in --runs and each --jobs. A grade is everything
'puzzle-engine grade' measures: the uniqueness check and the solution, the SAC-probed
strengthened pass (a flattening per puzzle), the plain pass when below the cut-off (R
runs), one run per propagation level, and the plugin's features.

Columns: "first s" is the first puzzle of a configuration, which also flattens the plain
model and the four level models (shared by every later puzzle); median/min/max are over the
other puzzles; "runs/s" is the solver runs per second of those puzzles.
Only the standard library and puzzle_engine are used.
"""
from __future__ import annotations

import argparse
import csv
import os
import platform
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "plugins" / "sudoku" / "data" / "sudoku_rated_train.csv"


def puzzles(per_label: int) -> list[tuple[str, tuple[int, ...]]]:
    with open(DATA, newline="") as handle:
        rows = list(csv.DictReader(handle))
    labels = list(dict.fromkeys(r["label"] for r in rows))
    return [(label, tuple(0 if ch == "." else int(ch) for ch in r["puzzle"]))
            for label in labels for r in [x for x in rows if x["label"] == label][-per_label:]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-label", type=int, default=3)
    ap.add_argument("--runs", default="50", help="comma-separated R values")
    ap.add_argument("--jobs", default="1,2", help="comma-separated solver processes at once")
    ap.add_argument("--solver", default="gecode")
    args = ap.parse_args()

    from puzzle_engine.solving.backend import Backend
    from puzzle_engine.engine import Engine
    from puzzle_engine.grading import GradeOptions, Grader
    from puzzle_engine.plugins import get_host

    host = get_host()
    ptype = host.get_type("sudoku")
    engine = Engine(host, Backend(args.solver))
    params = engine.check_params(ptype, {"size": 9})
    cases = puzzles(args.per_label)
    print(f"# {platform.node()} {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}, solver {engine.backend.info.id} "
          f"{engine.backend.info.version}, {len(cases)} 9x9 puzzles")
    print(f"{'R':>4} {'jobs':>4} {'first s':>8} {'median s':>9} {'min s':>7} {'max s':>7} "
          f"{'runs/s':>7} {'mean nodes':>11}")
    for runs in (int(r) for r in args.runs.split(",")):
        for jobs in (int(j) for j in args.jobs.split(",")):
            times, nodes = [], []
            calls = 0
            with Grader(engine, ptype, params, GradeOptions(runs=runs, jobs=jobs)) as grader:
                for i, (_, board) in enumerate(cases):
                    c0 = engine.backend.calls
                    t0 = time.perf_counter()
                    g = grader.grade(board)
                    times.append(time.perf_counter() - t0)
                    if i:
                        calls += engine.backend.calls - c0
                    nodes.append(g.mean_nodes)
            rest = times[1:] or times
            print(f"{runs:>4} {jobs:>4} {times[0]:>8.2f} {statistics.median(rest):>9.3f} "
                  f"{min(rest):>7.3f} {max(rest):>7.3f} {calls / sum(rest):>7.0f} "
                  f"{statistics.median(nodes):>11.1f}")


if __name__ == "__main__":
    main()
