"""What it costs that no solver outlives the engine (engine/processes.py). Three ways to
start a solver run, measured in one run, interleaved round by round so that the machine's
drift falls on all alike, and given as a ratio to the unguarded start:

* ``plain``: ``subprocess.run``, no guard (what the engine did before);
* ``group``: ``processes.run_solver``, the run joins the process group of a keeper that
  kills the group when the engine dies (what the engine does);
* ``setpriv``: each run started through ``setpriv --pdeathsig KILL`` (measured, not used).

Two measurements per way: one start of a solver on a trivial FlatZinc model, and
generating Sudoku puzzles in this process (``Engine.generate``, the path of ``gen``).

    .venv/bin/python benchmarks/bench_guard.py --rounds 5 --runs 200 --size 9 --puzzles 10
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from puzzle_engine import processes
from puzzle_engine import calls
from puzzle_engine.solving.backend import Backend, find_solver
from puzzle_engine.engine import Engine
from puzzle_engine.strategies import GenOptions
from puzzle_engine.plugins import get_host

SETPRIV = shutil.which("setpriv")


def _plain(argv, timeout=None):
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout)


def _setpriv(argv, timeout=None):
    return subprocess.run([SETPRIV, "--pdeathsig", "KILL", "--", *argv], capture_output=True,
                          text=True, timeout=timeout)


WAYS = {"plain": _plain, "group": processes.run_solver, "setpriv": _setpriv}


def spawn_seconds(run, solver: str, runs: int) -> float:
    exe = find_solver(solver).executable
    with tempfile.TemporaryDirectory() as tmp:
        fzn = Path(tmp) / "t.fzn"
        fzn.write_text("var 1..3: x:: output_var;\nsolve satisfy;\n")
        begin = time.perf_counter()
        for _ in range(runs):
            run([exe, str(fzn)])
        return (time.perf_counter() - begin) / runs


def generate_seconds(engine: Engine, size: int, puzzles: int) -> float:
    sudoku = engine.host.get_type("sudoku")
    params = calls.canonical_params(sudoku, {"size": size})
    options = GenOptions(batch=16, probes=2, optimise=True)  # gen's defaults
    begin = time.perf_counter()
    for seed in range(1, puzzles + 1):
        engine.generate(sudoku, params, seed, options)
    return (time.perf_counter() - begin) / puzzles


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=200, help="solver starts per round and way")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--puzzles", type=int, default=10, help="puzzles per round and way")
    ap.add_argument("--solver", default="chuffed")
    args = ap.parse_args()
    ways = [w for w in WAYS if w != "setpriv" or SETPRIV]
    engine = Engine(get_host(), Backend(args.solver))
    generate_seconds(engine, args.size, 1)  # compile the check model once, outside the timing
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):
        for way in ways:
            processes.run_solver = WAYS[way]  # the backend looks it up at each run
            times.setdefault(("start", way), []).append(spawn_seconds(WAYS[way], args.solver,
                                                                      args.runs))
            times.setdefault(("generate", way), []).append(
                generate_seconds(engine, args.size, args.puzzles))
    processes.run_solver = WAYS["group"]
    engine.close()
    print(f"{'':>26}" + "".join(f"{w:>10}" for w in ways) + "".join(f"{w + '/plain':>15}"
                                                                       for w in ways[1:]))
    for what, unit, scale in (("start", "ms", 1e3), ("generate", "s/puzzle", 1)):
        label = (f"{args.solver} start ({unit})" if what == "start"
                 else f"{args.size}x{args.size} {args.solver} ({unit})")
        med = {w: statistics.median(times[(what, w)]) * scale for w in ways}
        print(f"{label:>26}" + "".join(f"{med[w]:10.3f}" for w in ways)
              + "".join(f"{med[w] / med['plain']:15.3f}" for w in ways[1:]))
    print(f"# medians of {args.rounds} interleaved rounds; {args.runs} starts and "
          f"{args.puzzles} puzzles per round and way")


if __name__ == "__main__":
    main()
