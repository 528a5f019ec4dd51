"""Puzzles made to a rating (#41.4): how many puzzles a minute ``gen sudoku --rating BAND``
makes per band of the step rating, and what the rating's ceiling (the path cut short
once a step above the band's top is needed) saves.

    .venv/bin/python benchmarks/bench_gen_rating.py --bands 1.0-2.0,2.0-3.0,3.0-4.0 --count 6
    .venv/bin/python benchmarks/bench_gen_rating.py --ceiling 12 --bands 2.0-2.5

Part 1, per band: one command ``gen sudoku --rating BAND --count N --seed S --workers W
--format json`` (a fresh process, start-up included), its wall time and CPU time (user +
sys of the command and all its children: getrusage(RUSAGE_CHILDREN) around it), the
puzzles kept, the seeds tried (from the records' next_seed and the first seed) and the
puzzles a minute of wall time. A band no seed reaches within --attempts ends the command
with exit status 3 ("nothing found"), reported as such.

Part 2 (--ceiling K): K puzzles of ``gen sudoku`` (seeds 1..K) are rated in this process
with ``explain.band.rating_of``, without a ceiling and with each band's top as the
ceiling, interleaved puzzle by puzzle; CPU seconds (time.process_time, this process's
threads: CP-SAT's included) of each, and the ratio.

The machine is shared: the load average is printed beside the figures; compare ratios
within a run, not absolute seconds across runs.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "puzzle_engine"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_band(band: str, count: int, seed: int, workers: int, attempts: int) -> dict:
    cpu0, wall0 = _children_cpu(), time.perf_counter()
    proc = subprocess.run([*CLI, "gen", "sudoku", "--rating", band, "--count", str(count),
                           "--seed", str(seed), "--workers", str(workers), "--attempts",
                           str(attempts), "--format", "json"],
                          capture_output=True, text=True, cwd=ROOT)
    wall, cpu = time.perf_counter() - wall0, _children_cpu() - cpu0
    records = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    kept = len(records)
    tried = (records[-1]["rating"]["next_seed"] - seed) if records else None
    scores = [r["rating"]["score"] for r in records]
    return {"band": band, "status": proc.returncode, "kept": kept, "tried": tried,
            "wall": wall, "cpu": cpu, "per_minute": 60 * kept / wall if wall else 0.0,
            "scores": scores, "said": proc.stderr.strip().splitlines()[-1:]}


def ceiling_effect(puzzles: int, bands: list[str]) -> list[dict]:
    # lazy: only part 2 imports the engine into this process
    from puzzle_engine.engine import Engine
    from puzzle_engine.explain.band import parse_band, rating_of
    from puzzle_engine.plugins import get_host
    from puzzle_engine.solving.backend import Backend

    host = get_host()
    engine = Engine(host, Backend("cp-sat"))
    ptype = host.get_type("sudoku")
    params = {"size": 9, "box": "3x3", "choose": "fill"}
    lines = subprocess.run([*CLI, "gen", "sudoku", "--count", str(puzzles), "--seed", "1",
                            "--format", "line"], capture_output=True, text=True, cwd=ROOT,
                           check=True).stdout.split()
    grids = [tuple(0 if c == "." else int(c) for c in line) for line in lines]
    rows = []
    for text in bands:
        band = parse_band(text)
        plain = capped = 0.0
        off = 0
        for grid in grids:  # interleaved: each puzzle without, then with the ceiling
            t = time.process_time()
            exact = rating_of(engine, ptype, params, grid)
            plain += time.process_time() - t
            t = time.process_time()
            cut = rating_of(engine, ptype, params, grid, ceiling=band.high)
            capped += time.process_time() - t
            assert (exact in band) == (cut in band), (grid, exact, cut)
            off += exact > band.high
        rows.append({"band": text, "puzzles": len(grids), "above": off, "plain_cpu": plain,
                     "ceiling_cpu": capped, "ratio": capped / plain if plain else None})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bands", default="1.0-2.0,2.0-3.0,3.0-4.0")
    parser.add_argument("--count", type=int, default=6, help="puzzles per band")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--attempts", type=int, default=40)
    parser.add_argument("--ceiling", type=int, default=0, metavar="K",
                        help="also rate K puzzles with and without the ceiling")
    args = parser.parse_args()
    bands = args.bands.split(",")
    print(f"# {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}; nproc {os.cpu_count()}; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at start")
    print(f"# gen sudoku (9x9) --rating BAND --count {args.count} --seed {args.seed} "
          f"--workers {args.workers} --attempts {args.attempts}; one process per band, "
          "start-up included")
    print(f"{'band':>9} {'status':>6} {'kept':>4} {'tried':>5} {'wall s':>7} {'CPU s':>7} "
          f"{'/min':>6}  ratings")
    for band in bands:
        r = one_band(band, args.count, args.seed, args.workers, args.attempts)
        print(f"{r['band']:>9} {r['status']:>6} {r['kept']:>4} {str(r['tried']):>5} "
              f"{r['wall']:>7.1f} {r['cpu']:>7.1f} {r['per_minute']:>6.1f}  "
              f"{' '.join(f'{s:g}' for s in r['scores'])}")
        if r["status"]:
            print(f"#   {r['said'][0] if r['said'] else ''}")
    if args.ceiling:
        print(f"# the ceiling: {args.ceiling} puzzles (gen sudoku seeds 1..{args.ceiling}) "
              "rated without and with the band's top as ceiling, interleaved; CPU s")
        print(f"{'band':>9} {'above':>5} {'plain':>7} {'ceiling':>7} {'ratio':>6}")
        for r in ceiling_effect(args.ceiling, bands):
            print(f"{r['band']:>9} {r['above']:>5} {r['plain_cpu']:>7.2f} "
                  f"{r['ceiling_cpu']:>7.2f} {r['ratio']:>6.2f}")
    print(f"# load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at end")


if __name__ == "__main__":
    main()
