"""Polyomino Math: the time to prove the optimum and the type of a board, and to
enumerate the tileable piece sets.

    .venv/bin/python benchmarks/bench_polyomino.py                 # 5x6 x 50, 10x10 x 10 (+fused)
    .venv/bin/python benchmarks/bench_polyomino.py --n5x6 10 --n10x10 0 --enumerate 0

A pairing (piece set and shuffled board) is drawn by the type's own generator from seed
1, 2, ... (on 10x10: four 5x5 sets composed, with and without a fused 8-omino). Its
optimum is proven by one MiniZinc solve (``Engine.solve``, as ``puzzle-engine solve``)
and its type by a second that forces every piece at the optimum's score, unless the
optimal placement found already uses every piece. Both wall time (what a user waits,
process starts included) and the solver's own reported time are shown.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from puzzle_engine.engine import Engine
from puzzle_engine.plugins import get_host
from puzzle_engine.solving.backend import Backend
from puzzle_engine.types import Status

from puzzle_engine_plugins.polyomino_math.tiling import tileable_sets


def seconds(stats):
    """The solver's reported solving time (a number or a timedelta)."""
    value = stats.get("solveTime", 0.0)
    return value.total_seconds() if hasattr(value, "total_seconds") else float(value)


def prove(engine, ptype, params, board):
    """(wall seconds, solver seconds, optimum, type) or None on a time-out."""
    start = time.perf_counter()
    result, best = engine.solve(ptype, params, board)
    solver = seconds(result.stats)
    if result.status != Status.OPTIMAL:
        return None
    kind = "I"
    if 0 in best[0]:
        forced, _ = engine.solve(ptype, params, board, goal="satisfy",
                                 extra=[f"constraint all_used /\\ score = {result.objective};"])
        if forced.status == Status.UNKNOWN:
            return None
        solver += seconds(forced.stats)
        kind = "II" if forced.status == Status.UNSAT else "I"
    return time.perf_counter() - start, solver, result.objective, kind


def case(host, solver, label, raw, n, time_limit):
    engine = Engine(host, Backend(solver, time_limit=time_limit))
    ptype = host.get_type("polyomino-math")
    params = engine.check_params(ptype, raw)
    walls, solves, kinds, out = [], [], [], 0
    for seed in range(1, n + 1):
        board = None
        rng = random.Random(seed)
        while board is None:
            board = ptype.generate(params, rng, engine)
        found = prove(engine, ptype, params, board)
        if found is None:
            out += 1
            continue
        walls.append(found[0])
        solves.append(found[1])
        kinds.append(found[3])
    engine.close()
    if walls:
        print(f"{label:28} {solver:7} n={n:3}  wall median {statistics.median(walls):6.2f} s "
              f"max {max(walls):6.2f} s   solver median {statistics.median(solves):6.3f} s "
              f"max {max(solves):6.3f} s   Type I {kinds.count('I')}/{len(kinds)}"
              f"   timed out {out}", flush=True)
    else:
        print(f"{label:28} {solver:7} n={n:3}  all {out} timed out", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n5x6", type=int, default=50)
    ap.add_argument("--n10x10", type=int, default=10)
    ap.add_argument("--solvers", default="cp-sat")
    ap.add_argument("--time-limit", type=float, default=120.0)
    ap.add_argument("--enumerate", type=int, default=1, help="0: skip the enumeration")
    args = ap.parse_args()
    host = get_host()
    if args.enumerate:
        for rows, cols in ((5, 5), (5, 6)):
            start = time.perf_counter()
            count = sum(1 for _ in tileable_sets((3, 4), rows, cols))
            print(f"enumerate 3- and 4-ominoes on {rows}x{cols}: {count} sets in "
                  f"{time.perf_counter() - start:.2f} s", flush=True)
    for solver in args.solvers.split(","):
        if args.n5x6:
            case(host, solver, "5x6", {}, args.n5x6, args.time_limit)
        if args.n10x10:
            base = {"rows": 10, "cols": 10, "compose": True}
            case(host, solver, "10x10 (four 5x5 sets)", base, args.n10x10, args.time_limit)
            case(host, solver, "10x10 with a fused 8-omino", {**base, "fuse": True},
                 args.n10x10, args.time_limit)


if __name__ == "__main__":
    main()
