"""Instances per second of the ``logic`` type, and of PuzzleClone's own pipeline on the
same spec files when a snapshot of it is given.

    .venv/bin/python benchmarks/bench_logic_speed.py --count 10 --rounds 3 \\
        --puzzleclone /tmp/pc --puzzleclone-python /tmp/pcvenv/bin/python

Each round runs, one after the other (interleaved, so both see the same machine load),
``puzzle-engine gen logic --spec SPEC --count N --seed R`` and, with ``--puzzleclone``,
``python translator.py -d SPEC -n N`` in the snapshot's folder (its "deploy" mode:
continuous retries, one JSON line per puzzle). Both are timed as whole processes,
start-up included, and their output lines counted. PuzzleClone runs its specs with
``exec``: point it only at a snapshot in a throwaway virtual environment (its
``requirements.txt`` from PyPI), never at this project's.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHIPPED = Path(__file__).resolve().parent.parent / "plugins" / "logic" / "specs"
OURS = [sys.executable, "-c", "from puzzle_engine.cli import main; main()"]


def timed(command, cwd=None, timeout=1800) -> tuple[float, int, str]:
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=timeout)
    seconds = time.perf_counter() - start
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    error = "" if proc.returncode == 0 else (proc.stderr.strip().splitlines() or ["?"])[-1]
    return seconds, len(lines), error


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--specs", default="wine-merchant,house-number",
                        help="shipped spec names or YAML files, comma-separated")
    parser.add_argument("--count", type=int, default=10, help="puzzles per run (10)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (3)")
    parser.add_argument("--solver", help="our solver (default: the type's, Chuffed)")
    parser.add_argument("--puzzleclone", type=Path, help="a PuzzleClone snapshot's folder")
    parser.add_argument("--puzzleclone-python", default=sys.executable,
                        help="the Python with PuzzleClone's requirements")
    args = parser.parse_args(argv)
    print(f"{'spec':16} {'tool':12} {'round':>5} {'puzzles':>7} {'seconds':>8} {'per s':>7}")
    summary = {}
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.specs.split(","):
            path = Path(spec) if spec.endswith(".yaml") else SHIPPED / f"{spec}.yaml"
            rates: dict[str, list[float]] = {"ours": [], "puzzleclone": []}
            for r in range(1, args.rounds + 1):
                ours = [*OURS, "gen", "logic", "--spec", str(path), "--count", str(args.count),
                        "--seed", str(r), "--format", "json"]
                if args.solver:
                    ours += ["--solver", args.solver]
                runs = [("ours", ours, None)]
                if args.puzzleclone:
                    out = Path(tmp) / f"pc-{path.stem}-{r}.jsonl"
                    runs.append(("puzzleclone", [args.puzzleclone_python, "translator.py", "-d",
                                                 str(path.resolve()), "-n", str(args.count),
                                                 "-o", str(out)], args.puzzleclone))
                for tool, command, cwd in runs:
                    seconds, n, error = timed(command, cwd)
                    if tool == "puzzleclone":
                        n = len(out.read_text().splitlines()) if out.exists() else 0
                    rate = n / seconds
                    rates[tool].append(rate)
                    print(f"{path.stem:16} {tool:12} {r:5} {n:7} {seconds:8.1f} {rate:7.2f}"
                          f"{'  ' + error if error else ''}", flush=True)
            summary[path.stem] = {k: statistics.median(v) for k, v in rates.items() if v}
    print("\nmedian puzzles per second (whole processes, start-up included)")
    for spec, r in summary.items():
        ratio = f"  ours/puzzleclone {r['ours'] / r['puzzleclone']:.2f}" \
            if r.get("puzzleclone") else ""
        print(f"{spec:16} ours {r['ours']:.2f}" +
              (f"  puzzleclone {r['puzzleclone']:.2f}" if "puzzleclone" in r else "") + ratio)
    return 0


if __name__ == "__main__":
    sys.exit(main())
