"""Instances per second of the ``logic`` type, and of PuzzleClone's own pipeline on the
same spec files when a snapshot of it is given.

    .venv/bin/python benchmarks/bench_logic_speed.py --count 10 --rounds 3 \\
        --puzzleclone /tmp/pc --puzzleclone-python /tmp/pcvenv/bin/python \\
        --base-python /tmp/base/.venv/bin/python

Each round runs, one after the other (interleaved, so all see the same machine load),
``puzzle-engine gen logic --spec SPEC --count N --seed R`` as

- ``ours``: this checkout, its FlatZinc cache empty (a folder of its own per run), so
  every shape the run meets is compiled in it;
- ``ours-warm``: the same with one cache folder for the whole benchmark, filled by a
  first run (seed 0) that is not timed: a second batch of the same spec;
- ``whole``: this checkout with ``PUZZLE_ENGINE_LOGIC_WHOLE=1``, a compile per solve;
- ``base`` (with ``--base-python``): another checkout's Python, e.g. the commit before
  shapes, its cache empty;
- ``puzzleclone`` (with ``--puzzleclone``): ``python translator.py -d SPEC -n N`` in the
  snapshot's folder (its "deploy" mode: continuous retries, one JSON line per puzzle).

All are timed as whole processes, start-up included (wall seconds and the CPU seconds of
the process and its children), and their output lines counted. PuzzleClone runs its specs
with ``exec``: point it only at a snapshot in a throwaway virtual environment (its
``requirements.txt`` from PyPI), never at this project's.
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

SHIPPED = Path(__file__).resolve().parent.parent / "plugins" / "logic" / "specs"
CLI = ["-c", "from puzzle_engine.cli import main; main()"]


def cpu_of_children() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def timed(command, cwd=None, env=None, timeout=1800) -> tuple[float, float, int, str]:
    cpu = cpu_of_children()
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=timeout,
                          env=None if env is None else {**os.environ, **env})
    seconds = time.perf_counter() - start
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    error = "" if proc.returncode == 0 else (proc.stderr.strip().splitlines() or ["?"])[-1]
    return seconds, cpu_of_children() - cpu, len(lines), error


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--specs", default="wine-merchant,house-number",
                        help="shipped spec names or YAML files, comma-separated")
    parser.add_argument("--count", type=int, default=10, help="puzzles per run (10)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (3)")
    parser.add_argument("--solver", help="our solver (default: the type's, Chuffed)")
    parser.add_argument("--tools", default="ours,ours-warm,whole,base,puzzleclone",
                        help="which to run, of ours, ours-warm, whole, base, puzzleclone "
                             "(base and puzzleclone only with their options)")
    parser.add_argument("--base-python", help="another checkout's Python (its .venv)")
    parser.add_argument("--puzzleclone", type=Path, help="a PuzzleClone snapshot's folder")
    parser.add_argument("--puzzleclone-python", default=sys.executable,
                        help="the Python with PuzzleClone's requirements")
    args = parser.parse_args(argv)
    tools = [t for t in args.tools.split(",")
             if (t != "base" or args.base_python) and (t != "puzzleclone" or args.puzzleclone)]
    print(f"{'spec':16} {'tool':12} {'round':>5} {'puzzles':>7} {'seconds':>8} {'cpu s':>7} "
          f"{'per s':>7}")
    summary = {}
    with tempfile.TemporaryDirectory() as tmp:
        warm_cache = Path(tmp) / "warm-fzn"

        def ours(python, path, seed, cache, whole=False):
            command = [python, *CLI, "gen", "logic", "--spec", str(path), "--count",
                       str(args.count), "--seed", str(seed), "--format", "json"]
            if args.solver:
                command += ["--solver", args.solver]
            env = {"PUZZLE_ENGINE_FZN_CACHE": str(cache)}
            if whole:
                env["PUZZLE_ENGINE_LOGIC_WHOLE"] = "1"
            return command, None, env

        for spec in args.specs.split(","):
            path = Path(spec) if spec.endswith(".yaml") else SHIPPED / f"{spec}.yaml"
            rates: dict[str, list[tuple[float, float]]] = {t: [] for t in tools}
            if "ours-warm" in tools:  # the batch before: its shapes' FlatZinc cached
                timed(ours(sys.executable, path, 0, warm_cache)[0],
                      env={"PUZZLE_ENGINE_FZN_CACHE": str(warm_cache)})
            for r in range(1, args.rounds + 1):
                for tool in tools:
                    cold = Path(tmp) / f"fzn-{tool}-{path.stem}-{r}"
                    if tool == "puzzleclone":
                        out = Path(tmp) / f"pc-{path.stem}-{r}.jsonl"
                        command, cwd, env = [args.puzzleclone_python, "translator.py", "-d",
                                             str(path.resolve()), "-n", str(args.count),
                                             "-o", str(out)], args.puzzleclone, None
                    elif tool == "base":
                        command, cwd, env = ours(args.base_python, path, r, cold)
                    else:
                        command, cwd, env = ours(sys.executable, path, r,
                                                 warm_cache if tool == "ours-warm" else cold,
                                                 whole=tool == "whole")
                    seconds, cpu, n, error = timed(command, cwd, env)
                    if tool == "puzzleclone":
                        n = len(out.read_text().splitlines()) if out.exists() else 0
                    rates[tool].append((n / seconds, n / cpu if cpu else 0.0))
                    print(f"{path.stem:16} {tool:12} {r:5} {n:7} {seconds:8.1f} {cpu:7.1f} "
                          f"{n / seconds:7.2f}{'  ' + error if error else ''}", flush=True)
            summary[path.stem] = {t: (statistics.median(w for w, _ in v),
                                      statistics.median(c for _, c in v))
                                  for t, v in rates.items() if v}
    print("\nmedian puzzles per second, wall (per CPU second), whole processes, start-up included")
    for spec, r in summary.items():
        line = "  ".join(f"{t} {w:.2f} ({c:.2f})" for t, (w, c) in r.items())
        if "puzzleclone" in r and "ours" in r:
            line += f"  ours/puzzleclone {r['ours'][0] / r['puzzleclone'][0]:.2f}"
            if "ours-warm" in r:
                line += f", warm {r['ours-warm'][0] / r['puzzleclone'][0]:.2f}"
        print(f"{spec:16} {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
