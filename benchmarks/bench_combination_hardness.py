"""How hard Combination's 6x6 and 8x8 levels are against the 5x5 levels growing makes
(issue 42's hardness target), on the multiple method's measure.

    .venv/bin/python benchmarks/bench_combination_hardness.py --out /tmp/hardness
    .venv/bin/python benchmarks/bench_combination_hardness.py --out /tmp/hardness --sets 6x6,6x6-harder

Each set is made by the command a user runs (``puzzle-engine gen combination ... --keep all
--format json``) and graded by ``puzzle-engine grade combination LEVEL --format json`` (Gecode,
R = 50 random orders; the strengthened pass, or the plain one when the strengthened mean is
under the cut-off of 500): a level's hardness is that grade's ``mean_nodes``. The sets:

  5x5          the reference: growing (the paper's method, the default), 2 colours, seeds 1
               to 20 (``--count 20 --seed 1``: a seed that grows nothing is skipped, so only
               the levels of seeds 1 to 20 are kept)
  6x6          ``--start full``, 2 colours, 10 walls, 2 holes, on the SAT back end
  6x6-harder   the same with ``--bias harder``
  8x8          ``--start full``, 3 colours, 20 walls, 10 holes, on the SAT back end

Files are kept in --out (FILE.jsonl, FILE.grades.jsonl) and not made again, so an
interrupted run goes on where it stopped. The report: per set, the levels, the median,
the 90th percentile (the hardest tenth starts there) and the largest mean; whether the
hardest tenth of each large set is over the reference's largest; and a histogram of
6x6 against 6x6-harder.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

FULL6 = ["--width", "6", "--height", "6", "--colours", "2", "--walls", "10", "--holes", "2",
         "--start", "full", "--solver", "sat", "--keep", "all"]
SETS = {
    "5x5": ["--width", "5", "--height", "5", "--colours", "2", "--count", "20", "--seed", "1",
            "--keep", "all"],
    "6x6": [*FULL6, "--count", "4", "--seed", "1", "--fills", "10"],
    "6x6-harder": [*FULL6, "--count", "4", "--seed", "1", "--fills", "10", "--bias", "harder"],
    "8x8": ["--width", "8", "--height", "8", "--colours", "3", "--walls", "20", "--holes", "10",
            "--start", "full", "--solver", "sat", "--keep", "all", "--count", "4", "--seed", "1",
            "--fills", "5"],
}
REFERENCE_SEEDS = range(1, 21)
BINS = (1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000)


def cli() -> list[str]:
    return [sys.executable, "-c", "from puzzle_engine.cli import main; main()"]


def made(out: Path, name: str) -> list[dict]:
    """The set's levels, generated once."""
    path = out / f"{name}.jsonl"
    if not path.exists():
        part = path.with_suffix(".part")
        subprocess.run([*cli(), "gen", "combination", *SETS[name], "--format", "json",
                        "--out", str(part), "--force", "--workers", "2"], check=True)
        part.rename(path)
    levels = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if name == "5x5":
        levels = [r for r in levels if r["seed"] in REFERENCE_SEEDS]
    return levels


def graded(out: Path, name: str, levels: list[dict], time_limit: float) -> list[float]:
    """Each level's mean nodes (the multiple method), graded once, a level at a time (a
    level whose grading fails, a run over ``time_limit`` seconds, is infinitely hard:
    harder than every level measured, and said so)."""
    path = out / f"{name}.grades.jsonl"
    done = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    for record in levels[len(done):]:
        result = subprocess.run([*cli(), "grade", "combination", json.dumps(record), "--format",
                                 "json", "--time-limit", str(time_limit)],
                                capture_output=True, text=True)
        lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
        grade = json.loads(lines[0]) if result.returncode == 0 and lines else {
            "mean_nodes": None, "error": (result.stderr.strip().splitlines() or ["?"])[-1]}
        done.append({"pieces": record["pieces"], "board": record["board"], **grade})
        with path.open("a") as f:
            f.write(json.dumps(done[-1]) + "\n")
    for g in done:
        if g["mean_nodes"] is None:
            print(f"{name}: {g['pieces']}: not graded ({g['error']}): counted as the hardest")
    return [math.inf if g["mean_nodes"] is None else g["mean_nodes"] for g in done]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def histogram(named: dict[str, list[float]]) -> list[str]:
    names = list(named)
    lines = [f"| mean nodes | {' | '.join(names)} |", f"| --- |{' ---: |' * len(names)}"]
    edges = [0, *BINS, math.inf]
    for lo, hi in zip(edges, edges[1:]):
        label = (f"< {BINS[0] // 1000}k" if lo == 0 else f">= {lo // 1000}k" if hi == math.inf
                 else f"{lo // 1000}k-{hi // 1000}k")
        cells = []
        for name in names:
            n = sum(lo <= v < hi for v in named[name])
            cells.append(f"{'#' * n} {n}")
        lines.append(f"| {label} | {' | '.join(cells)} |")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for levels and grades")
    parser.add_argument("--sets", default=",".join(SETS), help="sets to make and grade")
    parser.add_argument("--time-limit", type=float, default=600.0,
                        help="seconds a solver run of the grading may take (default 600)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    names = [n for n in args.sets.split(",") if n]
    for name in names:
        if name not in SETS:
            parser.error(f"unknown set {name!r}: expected {', '.join(SETS)}")
    print(f"# {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores: "
          f"benchmarks/bench_combination_hardness.py --sets {','.join(names)}")
    nodes = {name: graded(args.out, name, made(args.out, name), args.time_limit)
             for name in names}
    print("| set | levels | median | 90th percentile | largest |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, values in nodes.items():
        print(f"| {name} | {len(values)} | {percentile(values, 0.5):,.0f} | "
              f"{percentile(values, 0.9):,.0f} | {max(values):,.0f} |")
    if "5x5" in nodes:
        reference = max(nodes["5x5"])
        for name, values in nodes.items():
            if name != "5x5":
                tenth = sorted(values)[-max(1, len(values) // 10):]
                print(f"{name}: hardest tenth {min(tenth):,.0f} to {max(tenth):,.0f} nodes; "
                      f"over the 5x5 reference's largest ({reference:,.0f}): "
                      f"{'yes' if min(tenth) > reference else 'no'}")
    shown = {n: nodes[n] for n in ("6x6", "6x6-harder") if n in nodes}
    if shown:
        print("\n".join(histogram(shown)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
