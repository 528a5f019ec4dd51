"""What ``puzzle-engine render`` costs, against its baseline in the same run: a batch of
puzzles made once by ``gen``, then, round after round and interleaved, ``render`` as a
sheet without a key (no solver), with the answer key, the play page (plain hints, and
explained hints: the explainer's cost), and ``solve`` of the
same puzzles (the solver's part of a key, as a user would run it). Every figure is the
wall time of the whole command, start-up included, and its CPU time (the process and its
children: MiniZinc, the solvers); the ratios divide medians taken in the same rounds, so
a machine that others load slows both sides alike.

    .venv/bin/python benchmarks/bench_render.py --count 20 --rounds 3
    .venv/bin/python benchmarks/bench_render.py --puzzle fillomino --count 10 --no-explained
    .venv/bin/python benchmarks/bench_render.py --count 100 --rounds 1 --cases play,explained
"""
from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(args: list[str]) -> tuple[float, float]:
    """The wall and CPU seconds of ``puzzle-engine ARGS`` (CPU: it and its children)."""
    start, cpu = time.perf_counter(), _children_cpu()
    subprocess.run([str(ROOT / ".venv" / "bin" / "puzzle-engine"), *args], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=3600)
    return time.perf_counter() - start, _children_cpu() - cpu


CASES = {"sheet": "sheet pdf", "key": "sheet+key pdf", "play": "play html",
         "explained": "play html explained", "solve": "solve (baseline)"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzle", default="sudoku")
    parser.add_argument("--count", type=int, default=20, help="puzzles in the batch")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-explained", action="store_true", help="leave out the play "
                        "page with explained hints (minutes a 9x9 Fillomino)")
    parser.add_argument("--cases", default="solve,sheet,key,play,explained", help="which commands, of "
                        f"{', '.join(CASES)} (the ratio column divides by the first)")
    parser.add_argument("--explain-seconds", type=float, default=None,
                        help="the explained page's --explain-seconds (else its default)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-render-") as folder:
        batch = Path(folder) / "batch.jsonl"
        timed(["gen", options.puzzle, "--count", str(options.count), "--seed", str(options.seed),
               "--format", "json", "--out", str(batch)])
        cases = {
            "sheet pdf": ["render", str(batch), "--force", "--out", f"{folder}/a.pdf"],
            "sheet+key pdf": ["render", str(batch), "--solutions", "--force", "--out", f"{folder}/b.pdf"],
            "play html": ["render", str(batch), "--no-explain", "--force", "--out",
                          f"{folder}/c.html"],
            "play html explained": ["render", str(batch), "--force", "--out",
                                    f"{folder}/d.html"],
            "solve (baseline)": ["solve", options.puzzle, str(batch), "--format", "line"],
        }
        chosen = [CASES[c.strip()] for c in options.cases.split(",")]
        if options.no_explained and "play html explained" in chosen:
            chosen.remove("play html explained")
        cases = {name: cases[name] for name in chosen}
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        for _ in range(options.rounds):
            for name, args in cases.items():
                times[name].append(timed(args))
    first = chosen[0]
    base = statistics.median(w for w, _ in times[first])
    base_cpu = statistics.median(c for _, c in times[first])
    print(f"# {options.count} {options.puzzle} puzzles (seed {options.seed}), "
          f"{options.rounds} rounds, interleaved; wall and CPU time of each command; "
          f"ratios to {first}")
    print(f"{'case':20} {'median s':>9} {'s/puzzle':>9} {'CPU s':>8} {'/wall':>7} {'/CPU':>7}")
    for name, values in times.items():
        median = statistics.median(w for w, _ in values)
        cpu = statistics.median(c for _, c in values)
        print(f"{name:20} {median:9.2f} {median / options.count:9.3f} {cpu:8.2f} "
              f"{median / base:7.2f} {cpu / base_cpu:7.2f}")


if __name__ == "__main__":
    main()
