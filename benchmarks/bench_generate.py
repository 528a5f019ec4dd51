"""Cost of generating minimal unique Sudoku puzzles: seconds, solver calls, givens, memory.

    .venv/bin/python benchmarks/bench_generate.py --sizes 9,16,25 --solvers gecode,chuffed --seeds 5

Each (size, solver, seed) runs in a fresh subprocess, so that its peak memory is its own.
"peak MB" is the largest resident set of any one process of that run: the Python process
or any MiniZinc or solver child (getrusage maxrss of self and of children). Linux counts a
child's high-water mark from the fork, so the children's figure can never be below the
Python process's size at that moment: the column is an upper bound for the solvers, not a
separate measure. The whole pipeline is timed: random full board, compile, every check.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time


def one(size: int, solver: str, seed: int) -> dict:
    from puzzle_engine.backend import Backend
    from puzzle_engine.genpuzzles import Engine
    from puzzle_engine.plugins import get_host

    host = get_host()
    engine = Engine(host, Backend(solver, time_limit=None))
    ptype = host.get_type("sudoku")
    params = engine.check_params(ptype, {"size": size})
    start = time.perf_counter()
    p = engine.generate(ptype, params, seed).puzzle
    wall = time.perf_counter() - start
    return {"size": size, "solver": solver, "seed": seed, "seconds": wall,
            "calls": p.solver_calls, "givens": p.givens, "minimal": p.minimal,
            "unknown": p.unknown,
            "python_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "solver_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}


def versions() -> str:
    from puzzle_engine.backend import find_solver
    out = subprocess.run(["minizinc", "--version"], capture_output=True, text=True).stdout
    mzn = out.splitlines()[0].rsplit(" ", 1)[-1] if out else "?"
    solvers = ", ".join(f"{s.name} {s.version}" for s in (find_solver("gecode"), find_solver("chuffed")))
    return f"MiniZinc {mzn}; {solvers}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="9,16,25")
    ap.add_argument("--solvers", default="gecode,chuffed")
    ap.add_argument("--seeds", type=int, default=5, help="seeds 1..N per size and solver")
    ap.add_argument("--seeds-25", type=int, default=None, help="fewer seeds for 25x25 (default: --seeds)")
    ap.add_argument("--json", help="also write every run as JSON Lines here")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # internal: size,solver,seed
    args = ap.parse_args()
    if args.one:
        size, solver, seed = args.one.split(",")
        print(json.dumps(one(int(size), solver, int(seed))))
        return

    print(f"# {time.strftime('%Y-%m-%d %H:%M')}  {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, {versions()}")
    print("# seconds: whole pipeline per puzzle; calls and givens: medians; "
          "peak MB: largest single process (Python or solver)")
    header = (f"{'size':>5} {'solver':>8} {'seeds':>5} {'median s':>9} {'min s':>7} {'max s':>7} "
              f"{'calls':>6} {'givens':>6} {'peak MB':>8}")
    print(header)
    sink = open(args.json, "w") if args.json else None
    for size in [int(s) for s in args.sizes.split(",")]:
        for solver in args.solvers.split(","):
            n = args.seeds_25 if size == 25 and args.seeds_25 else args.seeds
            runs = []
            for seed in range(1, n + 1):
                proc = subprocess.run([sys.executable, __file__, "--one", f"{size},{solver},{seed}"],
                                      capture_output=True, text=True)
                if proc.returncode != 0:
                    print(f"# {size} {solver} seed {seed} failed: {proc.stderr.strip()[-300:]}")
                    continue
                run = json.loads(proc.stdout)
                runs.append(run)
                if sink:
                    sink.write(json.dumps(run) + "\n")
                    sink.flush()
            if not runs:
                continue
            secs = [r["seconds"] for r in runs]
            print(f"{size:>5} {solver:>8} {len(runs):>5} {statistics.median(secs):>9.2f} "
                  f"{min(secs):>7.2f} {max(secs):>7.2f} "
                  f"{statistics.median(r['calls'] for r in runs):>6.0f} "
                  f"{statistics.median(r['givens'] for r in runs):>6.0f} "
                  f"{max(max(r['python_mb'], r['solver_mb']) for r in runs):>8.1f}",
                  flush=True)
            if any(not r["minimal"] for r in runs):
                print(f"# warning: {sum(not r['minimal'] for r in runs)} run(s) not minimal "
                      f"(time-outs: {sum(r['unknown'] for r in runs)})")


if __name__ == "__main__":
    main()
