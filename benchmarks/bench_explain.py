"""Cost of explaining a 9x9 Sudoku step by step (puzzle_engine.explain): seconds per puzzle.

    .venv/bin/python benchmarks/bench_explain.py                     # 50 puzzles per label
    .venv/bin/python benchmarks/bench_explain.py --per-label 5 --json out.json
    .venv/bin/python benchmarks/bench_explain.py --puzzle fillomino --per-label 3 --sizes 5,7,9
    .venv/bin/python benchmarks/bench_explain.py --rate --per-label 10   # as 'explain' does
    PYTHONPATH=/tmp/base/path .venv/bin/python benchmarks/bench_explain.py ...  # another tree

With --puzzle fillomino the puzzles are generated Fillominoes (seeds 1 to --per-label, the
type's default generator and solver) of each side in --sizes, labelled by their shape.

It explains --per-label puzzles of each label of the project's labelled Sudoku file
(plugins/sudoku/data/sudoku_rated_train.csv, from its end: rows the step rating was not
fitted on) to the end, as 'puzzle-engine explain' does: the flattening of the explanation
model, every step with its reason (groups and subset-minimal facts). With --no-reasons
only the groups of each step are found, as 'grade --steps' does. With --rate the step
rating's path is walked too, first (``rating.rated_path``), as 'puzzle-engine explain'
does for a whole path: "explaining and rating" a puzzle.

Columns: median and worst seconds per puzzle, wall clock and CPU (this process: on a
machine shared with other work, CPU seconds are what the explainer itself costs), and the
median of steps and solver checks, and the largest reason size met. With --rate each
puzzle is also rated (the step rating's own path, as 'puzzle-engine explain' does:
puzzle_engine.explain.rating.rated_path), inside the timed part. Only the standard library and puzzle_engine are used.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "plugins" / "sudoku" / "data" / "sudoku_rated_train.csv"


def puzzles(per_label: int) -> list[tuple[str, str]]:
    with open(DATA, newline="") as handle:
        rows = list(csv.DictReader(handle))
    labels = list(dict.fromkeys(r["label"] for r in rows))
    return [(label, r["puzzle"]) for label in labels
            for r in [x for x in rows if x["label"] == label][-per_label:]]


def generated(engine, ptype, sides: list[int], per_label: int) -> list[tuple[str, str]]:
    """``per_label`` generated puzzles of each side, as (shape, one-line text)."""
    out = []
    for n in sides:
        params = engine.check_params(ptype, {"rows": n, "cols": n})
        for seed in range(1, per_label + 1):
            board = engine.generate(ptype, params, seed).puzzle.instance
            out.append((f"{n}x{n}", "/".join(" ".join(str(v or ".") for v in board[r * n:(r + 1) * n])
                                              for r in range(n))))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-label", type=int, default=50)
    ap.add_argument("--no-reasons", action="store_true", help="find each step's groups only")
    ap.add_argument("--json", type=Path, help="also write every puzzle's figures here")
    ap.add_argument("--puzzle", choices=("sudoku", "fillomino"), default="sudoku")
    ap.add_argument("--sizes", default="5,7,9", help="fillomino: the sides of the boards")
    ap.add_argument("--rate", action="store_true",
                    help="explain and rate each puzzle, as 'puzzle-engine explain' does")
    args = ap.parse_args()
    from puzzle_engine.engine import Engine
    from puzzle_engine.explain import Explainer
    from puzzle_engine.plugins import get_host
    from puzzle_engine.solving.backend import Backend
    host = get_host()
    sudoku = host.get_type(args.puzzle)
    engine = Engine(host, Backend("cp-sat"))
    raw = {p.name: None for p in sudoku.params}
    results = []
    todo = puzzles(args.per_label) if args.puzzle == "sudoku" else generated(
        Engine(host, Backend(sudoku.solver)), sudoku, [int(n) for n in args.sizes.split(",")],
        args.per_label)
    for label, text in todo:
        parsed = sudoku.parse(raw, text)
        start, cpu = time.perf_counter(), time.process_time()
        ex = Explainer(engine, sudoku, parsed.params, parsed.instance)
        if args.rate:
            from puzzle_engine.explain.rating import rated_path
            out, _ = rated_path(ex, reasons=not args.no_reasons)
        else:
            out = ex.run(reasons=not args.no_reasons)
        seconds = time.perf_counter() - start
        results.append({"label": label, "puzzle": text, "seconds": round(seconds, 3),
                        "cpu": round(time.process_time() - cpu, 3),
                        "steps": len(out.steps), "checks": out.checks, "solved": out.solved,
                        "largest": max((s.size for s in out.steps), default=0),
                        "backend": getattr(ex, "backend", "cp-sat")})
        print(f"{label} {seconds:.1f}s ({results[-1]['cpu']:.1f}s CPU) {len(out.steps)} steps",
              flush=True)
    print(f"\n{platform.machine()}, nproc {os.cpu_count()}, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; reasons: {not args.no_reasons}; "
          f"rated: {args.rate}; back end: {results[-1]['backend'] if results else '-'}\n")
    print("| label | puzzles | median s | worst s | median CPU s | worst CPU s | median steps "
          "| median checks | largest reason |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for label in dict.fromkeys(r["label"] for r in results):
        rs = [r for r in results if r["label"] == label]
        secs, cpus = [r["seconds"] for r in rs], [r["cpu"] for r in rs]
        print(f"| {label} | {len(rs)} | {statistics.median(secs):.1f} | {max(secs):.1f} | "
              f"{statistics.median(cpus):.1f} | {max(cpus):.1f} | "
              f"{statistics.median(r['steps'] for r in rs):.0f} | "
              f"{statistics.median(r['checks'] for r in rs):.0f} | {max(r['largest'] for r in rs)} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
