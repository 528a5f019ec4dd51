"""Polyomino Math, the whole command's CPU: ``puzzle-engine gen polyomino-math`` on a 5x6
board with a warm FlatZinc cache, CPU seconds (user + sys) of the command and every
process it started, against a base revision, interleaved.

    .venv/bin/python benchmarks/bench_polyomino_cpu.py                    # against main
    .venv/bin/python benchmarks/bench_polyomino_cpu.py --against 1b59d4d --seeds 5 --rounds 3

The base runs from a worktree of ``--against`` and a copy of this venv with it installed
(made once in benchmarks/.against/, as bench_generate.py does). Each side has its own
FlatZinc cache and bytecode cache (``PYTHONPYCACHEPREFIX``; ``PYTHONDONTWRITEBYTECODE``
is dropped, as an installed package has its .pyc files), both warmed by one run per
seed first. Then, round after round, every seed runs on both sides, in alternating order;
a run's CPU is the growth of ``RUSAGE_CHILDREN`` across it (the command and the
``minizinc`` and solver processes it waited for). The table gives each side's median,
the median of the per-seed ratios and whether both printed the same puzzle.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def cpu_of(argv: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(CPU seconds of the command and its children, wall seconds, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}):\n{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, proc.stdout


def side_env(root: Path, name: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(root / name / "pyc")
    env["PUZZLE_ENGINE_FZN_CACHE"] = str(root / name / "fzn")
    return env


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", default="main", help="the base revision (default main)")
    ap.add_argument("--seeds", type=int, default=5, help="seeds 1..N (default 5)")
    ap.add_argument("--rounds", type=int, default=3, help="runs of every seed on each side")
    ap.add_argument("--rows", type=int, default=5)
    ap.add_argument("--cols", type=int, default=6)
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from bench_generate import AGAINST_DIR, prepare_revision
    commit, _, old_python = prepare_revision(args.against, AGAINST_DIR)
    sides = {"new": Path(sys.executable).parent / "puzzle-engine",
             "old": Path(old_python).parent / "puzzle-engine"}
    seeds = range(1, args.seeds + 1)
    with tempfile.TemporaryDirectory(prefix="bench-poly-cpu-") as tmp:
        root = Path(tmp)
        envs = {name: side_env(root, name) for name in sides}

        def argv(name: str, seed: int) -> list[str]:
            return [str(sides[name]), "gen", "polyomino-math", "--rows", str(args.rows),
                    "--cols", str(args.cols), "--seed", str(seed)]
        outputs: dict[tuple[str, int], str] = {}
        for seed in seeds:  # warm: the FlatZinc of every solve, the bytecode
            for name in sides:
                outputs[name, seed] = cpu_of(argv(name, seed), envs[name])[2]
        cpu: dict[tuple[str, int], list[float]] = {key: [] for key in outputs}
        wall: dict[str, list[float]] = {name: [] for name in sides}
        for r in range(args.rounds):
            for seed in seeds:
                order = list(sides) if (r + seed) % 2 == 0 else list(sides)[::-1]
                for name in order:
                    c, w, out = cpu_of(argv(name, seed), envs[name])
                    cpu[name, seed].append(c)
                    wall[name].append(w)
                    if out != outputs[name, seed]:
                        raise SystemExit(f"{name} seed {seed}: a second run printed another puzzle")
    print(f"# {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}: {' '.join(sys.argv)}")
    print(f"# old = {args.against} ({commit[:10]}); {args.rows}x{args.cols}, warm FlatZinc "
          f"cache, {args.rounds} rounds, median CPU s (user+sys, command and children)")
    print("| seed | new CPU s | old CPU s | new/old | same puzzle |")
    print("|---|---|---|---|---|")
    ratios = []
    for seed in seeds:
        new, old = statistics.median(cpu["new", seed]), statistics.median(cpu["old", seed])
        ratios.append(new / old)
        same = outputs["new", seed] == outputs["old", seed]
        print(f"| {seed} | {new:.2f} | {old:.2f} | {new / old:.2f} | {'yes' if same else 'NO'} |")
    every_new = [c for (name, _), cs in cpu.items() if name == "new" for c in cs]
    every_old = [c for (name, _), cs in cpu.items() if name == "old" for c in cs]
    print(f"| all | {statistics.median(every_new):.2f} | {statistics.median(every_old):.2f} | "
          f"{statistics.median(ratios):.2f} | |")
    print(f"# wall median: new {statistics.median(wall['new']):.2f} s, "
          f"old {statistics.median(wall['old']):.2f} s (a busy machine: the CPU is the figure)")


if __name__ == "__main__":
    main()
