"""Cost of a Combination hint (the first explained step), this tree against another, interleaved.

    .venv/bin/python benchmarks/bench_hint_combination.py                 # six 4x4 levels
    .venv/bin/python benchmarks/bench_hint_combination.py --base /tmp/base/path --seeds 1-6

It generates the default levels of seeds --seeds (``gen combination --seed S``, one each)
and runs ``puzzle-engine hint combination --format json`` on each, one child process per
hint, in this tree and, with --base (a folder holding ``puzzle_engine``,
``puzzle_engine_plugins`` and ``puzzle_engine_models`` of another commit, e.g. symlinks
into ``git archive`` of it), in that tree too: each level's two runs back to back, their
order alternating, so the load of a shared machine falls on both alike. Columns: each
run's wall and CPU seconds (the child's user + system), the step and its reason's size;
then median and worst of each. Only the standard library and puzzle_engine are used.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _seeds(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def _hint(level: Path, path: str | None, extra: list[str]) -> tuple[float, float, str]:
    env = dict(os.environ)
    if path:
        env["PYTHONPATH"] = path
    code = "from puzzle_engine.cli import main; main()"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code, "hint", "combination", str(level),
                          "--format", "json", *extra], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if out.returncode not in (0, 1):
        raise SystemExit(f"hint failed: {out.stderr.strip()}")
    step = json.loads(out.stdout)["step"]
    what = "none" if step is None else f"{step['name']} {step['relation']} {step['value_name']} " \
        f"({step['size']} groups)"
    return wall, cpu, what


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1-6")
    ap.add_argument("--base", help="folder of the other tree's packages (PYTHONPATH)")
    ap.add_argument("gen", nargs="*", help="extra options of 'gen combination' (after --)")
    args = ap.parse_args()
    runs: dict[str, list[tuple[float, float]]] = {"this": [], "base": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i, seed in enumerate(_seeds(args.seeds)):
            level = Path(tmp) / f"level{seed}.jsonl"
            gen = subprocess.run([sys.executable, "-c", "from puzzle_engine.cli import main; main()",
                                  "gen", "combination", "--seed", str(seed), "--format", "json",
                                  *args.gen], capture_output=True, text=True, check=True)
            level.write_text(gen.stdout)
            order = [("this", None), ("base", args.base)] if args.base else [("this", None)]
            if i % 2:
                order.reverse()
            for name, path in order:
                wall, cpu, what = _hint(level, path, [])
                runs[name].append((wall, cpu))
                print(f"seed {seed} {name:4}  wall {wall:6.1f} s  cpu {cpu:6.1f} s  {what}",
                      flush=True)
    for name, rows in runs.items():
        if rows:
            walls, cpus = [r[0] for r in rows], [r[1] for r in rows]
            print(f"{name:4}  wall median {statistics.median(walls):.1f} worst {max(walls):.1f}"
                  f"  cpu median {statistics.median(cpus):.1f} worst {max(cpus):.1f}")


if __name__ == "__main__":
    main()
