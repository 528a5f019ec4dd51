"""The step rating against Sukaku Explainer (SE): agreement and CPU time per 9x9 Sudoku.

    .venv/bin/python benchmarks/bench_rating.py                      # the dev part, ours only
    .venv/bin/python benchmarks/bench_rating.py --se                 # and SE's time, same run
    .venv/bin/python benchmarks/bench_rating.py --split held --se    # the held-back part
    .venv/bin/python benchmarks/bench_rating.py --split all --json out.json

The puzzles and SE's rating of each are benchmarks/data/se_rated/sample.csv (how they were
drawn, where from and their licences: benchmarks/data/se_rated/README.md); the SE ratings
there were measured with the SE build that benchmarks/setup_peers.sh makes, so the figures
repeat without SE. With --se that build is run too (benchmarks/.peers/sukaku-explainer,
Java), in chunks of --chunk puzzles interleaved with ours, for its time per puzzle: its own
elapsed time (serate's %e), so the JVM's start-up is left out; SE is never a dependency of
the package nor read by its tests.

SE's time per puzzle is CPU: the JVM's CPU (the children's rusage) less its start-up (the
cheaper of two runs on one easy puzzle), shared among the chunk's puzzles in proportion to
SE's own elapsed time for each (serate's %e, which is wall time).

Our time is CPU seconds of this process (time.process_time) for the explainer's set-up of
the puzzle and the rating's path (``ladder.rate``), the model's flattening excluded (made
once per run, as a batch does). Figures: Spearman's rho with SE on the puzzles SE rates 2.5
to 10, the median |ours - SE| over all, the share within 0.1 and 0.2, and per band of SE's
scale the median |ours - SE|, our median and worst CPU, and SE's (with --se). Only the
standard library and puzzle_engine are used.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "se_rated" / "sample.csv"
SE = ROOT / "benchmarks" / ".peers" / "sukaku-explainer"
#: An easy puzzle (SE 1.5), for the JVM's start-up.
EASY = "5...6.7.....43.8..43..8..52..6....87...9...6...7.....9....56......2.4.3...9.7...5"
BANDS = ((0.0, 2.5), (2.5, 4.0), (4.0, 6.0), (6.0, 7.5), (7.5, 8.5), (8.5, 12.0))


def ranks(xs: list[float]) -> list[float]:
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return num / den if den else float("nan")


def se_seconds(text: str) -> float:
    """serate's %e: '12.81s', '340ms', '1m 2.5s' or the like."""
    total = 0.0
    for value, unit in re.findall(r"([\d.]+)\s*(ms|s|m|h)", text):
        total += float(value) * {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}[unit]
    return total


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_se(puzzles: list[str]) -> tuple[list[tuple[float, float]], float]:
    """SE's rating and its own elapsed seconds (serate's %e, wall) for each puzzle, and
    the CPU seconds of the whole JVM (one for the chunk)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "puzzles.txt"
        path.write_text("".join(p + "\n" for p in puzzles))
        cpu = children_cpu()
        out = subprocess.run(["java", "-cp", str(SE), "diuf.sudoku.test.serate",
                              "--format=%r %e", f"--input={path}"],
                             capture_output=True, text=True, check=True).stdout
        cpu = children_cpu() - cpu
    rows = [line.split(None, 1) for line in out.splitlines() if line.strip()]
    return [(float(r[0]), se_seconds(r[1])) for r in rows], cpu


def se_cpu(puzzles: list[str], startup: float) -> list[tuple[float, float]]:
    """SE's rating and CPU seconds for each puzzle: the JVM's CPU less its start-up
    (``startup``: a run on one easy puzzle), shared among the puzzles in proportion to
    SE's own elapsed time for each (on a busy machine its wall time, not its CPU)."""
    rows, cpu = run_se(puzzles)
    work = max(cpu - startup, 0.0)
    wall = sum(t for _, t in rows) or 1.0
    return [(r, work * t / wall) for r, t in rows]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--split", choices=("dev", "held", "all"), default="dev")
    ap.add_argument("--limit", type=int, help="at most this many puzzles")
    ap.add_argument("--se", action="store_true", help="run SE too, for its time (needs Java)")
    ap.add_argument("--chunk", type=int, default=10, help="puzzles per SE run (interleaved)")
    ap.add_argument("--json", type=Path, help="also write every puzzle's figures here")
    args = ap.parse_args()
    from puzzle_engine.engine import Engine
    from puzzle_engine.explain import Explainer
    from puzzle_engine.explain.ladder import rate
    from puzzle_engine.plugins import get_host
    from puzzle_engine.solving.backend import Backend
    rows = [r for r in csv.DictReader(args.data.open()) if args.split in ("all", r["split"])]
    rows = rows[:args.limit]
    host = get_host()
    sudoku = host.get_type("sudoku")
    engine = Engine(host, Backend("cp-sat"))
    raw = {p.name: None for p in sudoku.params}
    first = sudoku.parse(raw, rows[0]["puzzle"])
    Explainer(engine, sudoku, first.params, first.instance)  # the flattening, made once
    results = []
    startup = None
    if args.se:  # the JVM's start-up and one easy puzzle: left out of SE's time
        startup = min(run_se([EASY])[1] for _ in range(2))
    for at in range(0, len(rows), args.chunk):
        chunk = rows[at:at + args.chunk]
        se = se_cpu([r["puzzle"] for r in chunk], startup) if args.se else [(None, None)] * len(chunk)
        for r, (se_rating, se_time) in zip(chunk, se):
            parsed = sudoku.parse(raw, r["puzzle"])
            cpu = time.process_time()
            ladder = rate(Explainer(engine, sudoku, parsed.params, parsed.instance))
            cpu = time.process_time() - cpu
            ours = ladder.features()["effort_max"]
            top = max(ladder.steps, key=lambda s: s.cost).technique if ladder.steps else ""
            results.append({"source": r["source"], "puzzle": r["puzzle"], "se": float(r["se_rating"]),
                            "ours": ours, "technique": top, "solved": ladder.solved,
                            "cpu": round(cpu, 4), "se_now": se_rating,
                            "se_time": None if se_time is None else round(se_time, 4)})
            print(f"{r['se_rating']} {ours:g} {top} {cpu:.2f}s"
                  + (f" (SE {se_time:.2f}s)" if se_time is not None else ""), flush=True)
    se_r = [x["se"] for x in results]
    ours = [x["ours"] for x in results]
    diff = [abs(a - b) for a, b in zip(ours, se_r)]
    mid = [(a, b) for a, b in zip(ours, se_r) if 2.5 <= b <= 10]
    print(f"\n{platform.machine()}, nproc {os.cpu_count()}, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; {args.data.name}, split {args.split}, "
          f"{len(results)} puzzles\n")
    print(f"- Spearman's rho with SE, SE 2.5 to 10 ({len(mid)} puzzles): "
          f"{spearman([a for a, _ in mid], [b for _, b in mid]):.3f}")
    print(f"- Spearman's rho with SE, all: {spearman(ours, se_r):.3f}")
    print(f"- median |ours - SE|: {statistics.median(diff):.2f}; within 0.1: "
          f"{sum(d <= 0.1001 for d in diff) / len(diff):.0%}, within 0.2: "
          f"{sum(d <= 0.2001 for d in diff) / len(diff):.0%}; mean signed (ours - SE): "
          f"{statistics.fmean(a - b for a, b in zip(ours, se_r)):+.2f}")
    cpus = [x["cpu"] for x in results]
    print(f"- our CPU per puzzle: median {statistics.median(cpus):.3f} s, worst {max(cpus):.2f} s"
          + (f"; SE's CPU (start-up {startup:.2f} s left out): median {statistics.median(x['se_time'] for x in results):.3f} s, "
             f"worst {max(x['se_time'] for x in results):.2f} s; all the puzzles: ours "
             f"{sum(cpus):.1f} s, SE {sum(x['se_time'] for x in results):.1f} s" if args.se else "") + "\n")
    print("| SE band | puzzles | median abs diff | ours median CPU s | ours worst | "
          "SE median CPU s | SE worst | median ratio ours/SE |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for lo, hi in BANDS:
        rs = [x for x in results if lo <= x["se"] < hi]
        if not rs:
            continue
        c = [x["cpu"] for x in rs]
        line = (f"| {lo:g}-{hi:g} | {len(rs)} | {statistics.median(abs(x['ours'] - x['se']) for x in rs):.2f} "
                f"| {statistics.median(c):.3f} | {max(c):.3f} |")
        if args.se:
            s = [x["se_time"] for x in rs]
            ratio = statistics.median(c) / statistics.median(s) if statistics.median(s) else float("nan")
            line += f" {statistics.median(s):.3f} | {max(s):.3f} | {ratio:.1f} |"
        else:
            line += " - | - | - |"
        print(line)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
