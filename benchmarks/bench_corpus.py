"""Corpora at scale (issue 28): canonical keys, the store's write rate, and distinct 9x9
Sudoku per minute from ``puzzle-engine batch`` on a local pool and on a Dask LocalCluster.

    .venv/bin/python benchmarks/bench_corpus.py canonical [--images 20]
    .venv/bin/python benchmarks/bench_corpus.py store [--puzzles 5000]
    .venv/bin/python benchmarks/bench_corpus.py throughput [--count 60] [--rounds 5] [--variants 5] [--cases unpinned,dask]

canonical  the cost of Sudoku's canonical form (plugins/sudoku/canonical.py) per box shape:
           for each puzzle, --images random images under the type's transformations, each
           timed alone (time.perf_counter); median, 95th percentile and maximum in ms.
           Puzzles: the golden ones of tests/data (minimal unique puzzles of 4x4 to 16x16,
           square and 3x4 boxes); for box shapes with none, random boards (a solution with
           a random half of its squares emptied, not minimal puzzles), said in the table.
store      Store.add of real entries (a 9x9 puzzle and its record) with distinct keys, into a
           fresh file: one transaction per puzzle (what batch does: each seed is committed
           with the batch's next seed) and 100 puzzles per transaction; puzzles per second.
throughput ``puzzle-engine batch sudoku --count N`` into a fresh store, the commands taking
           turns round by round (so the load of other processes falls on all alike):
           the local pool (--workers 2), the same with --variants M, and a Dask LocalCluster
           of 2 single-threaded worker processes on loopback (--executor dask). Distinct
           puzzles per minute of wall time (the command's, Python start-up included), the
           median over rounds, Dask against the local pool as a same-run ratio, and the
           projected time for paper 000's 200,000 puzzles.

Only the standard library, puzzle_engine and (for Dask) distributed are used.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "golden.jsonl"
CLI = [sys.executable, "-c", "from puzzle_engine.cli import main; main()"]


def _boards():
    """(box, label, board) for each case: the golden puzzles, and random boards for other
    box shapes."""
    from puzzle_engine_plugins.sudoku import logic
    cases = []
    for line in GOLDEN.read_text().splitlines():
        record = json.loads(line)
        if record["args"][0] != "sudoku":
            continue
        n = len(record["grid"])
        _, r, c = logic.dims(logic.check_params({"size": n}))
        cases.append(((r, c), "golden puzzles", tuple(v for row in record["grid"] for v in row)))
    rng = random.Random(28)
    for r, c in ((2, 3), (3, 2), (2, 4), (3, 3), (4, 4), (5, 5)):
        n = r * c
        full = [((c * (i % r) + i // r + j) % n) + 1 for i in range(n) for j in range(n)]
        for _ in range(4):
            cases.append(((r, c), "random half-empty boards",
                          tuple(v if rng.random() < 0.5 else 0 for v in full)))
    return cases


def bench_canonical(images: int) -> None:
    from puzzle_engine_plugins.sudoku import logic
    from puzzle_engine_plugins.sudoku.canonical import canonical
    rng = random.Random(1)
    times: dict[tuple, list[float]] = {}
    for (r, c), label, board in _boards():
        n = r * c
        transformations = logic.transformations(n, r, c)
        form = canonical(board, n, r, c)
        for _ in range(images):
            image = board
            for _, draw in transformations:
                image = draw(rng)(image)
            start = time.perf_counter()
            assert canonical(image, n, r, c) == form, "an image got another form"
            times.setdefault((n, r, c, label), []).append(time.perf_counter() - start)
    print(f"{'board':>6} {'box':>4}  {'puzzles':<26} {'keys':>5} {'median ms':>9} {'p95 ms':>7} "
          f"{'max ms':>7}")
    for (n, r, c, label), ts in sorted(times.items()):
        ts = sorted(ts)
        print(f"{n:>4}x{n:<2} {r}x{c}  {label:<26} {len(ts):>5} {1000 * statistics.median(ts):>9.2f} "
              f"{1000 * ts[int(0.95 * (len(ts) - 1))]:>7.2f} {1000 * ts[-1]:>7.2f}")


def bench_store(puzzles: int) -> None:
    from puzzle_engine.plugins import get_host
    from puzzle_engine.store import Store, entries_of
    from puzzle_engine.strategies.base import GenResult, Puzzle
    ptype = get_host().get_type("sudoku")
    line = json.loads(next(l for l in GOLDEN.read_text().splitlines()
                           if json.loads(l)["args"][2] == "9"))
    board = tuple(v for row in line["grid"] for v in row)
    solution = tuple(v for row in line["solution"] for v in row)
    params = ptype.check_params({"size": 9, "box": None, "choose": None})
    puzzle = Puzzle(type="sudoku", params=params, instance=board, solution=solution, seed=1,
                    plugin="sudoku", plugin_version="0.1.0", solver="org.chuffed.chuffed",
                    solver_version="0.13.1", solver_calls=20, seconds=0.3,
                    options={"complexity": "givens"}, level=sum(map(bool, board)))
    (entry,) = entries_of(ptype, GenResult(puzzle, []))
    print(f"{'transaction':>12} {'puzzles':>8} {'seconds':>8} {'puzzles/s':>10}")
    for per in (1, 100):
        with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "w.db") as store:
            entries = []
            for i in range(puzzles):
                e = type(entry)(**{**entry.__dict__, "seed": i,
                                   "key": hashlib.sha256(str(i).encode()).hexdigest()})
                entries.append(e)
            start = time.perf_counter()
            for k in range(0, puzzles, per):
                store.add(entries[k:k + per])
            seconds = time.perf_counter() - start
        print(f"{per:>12} {puzzles:>8} {seconds:>8.2f} {puzzles / seconds:>10.0f}")


def _batch(args: list[str], db: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run([*CLI, "batch", "sudoku", *args, "--db", str(db)], capture_output=True,
                          text=True, env={**os.environ, **env})
    if proc.returncode:
        raise SystemExit(f"batch failed: {proc.stderr.strip().splitlines()[-1]}")
    return time.perf_counter() - start


def _round_trip(address: str, tasks: int = 400) -> None:
    """Dask's own cost per task: no-op tasks through the executor's in-order window."""
    from distributed import Client
    from puzzle_engine.run.executors import AHEAD
    with Client(address) as client:
        slots = sum(client.nthreads().values())
        start = time.perf_counter()
        pending = []
        for k in range(tasks):
            pending.append(client.submit(abs, -k, pure=False))
            if len(pending) >= AHEAD * slots:
                pending.pop(0).result()
        for f in pending:
            f.result()
        per = (time.perf_counter() - start) / tasks
    print(f"Dask round trip: {1000 * per:.2f} ms of wall time per no-op task, {AHEAD * slots} "
          "under way at a time", flush=True)


CASES = ("pinned", "unpinned", "variants", "dask")


def bench_throughput(count: int, rounds: int, variants: int,
                     which: tuple[str, ...] = CASES) -> None:
    if "dask" in which:
        from distributed import LocalCluster
    unpinned = {"PUZZLE_ENGINE_PIN_WORKERS": "off"}
    cases: dict[str, tuple[list[str], dict[str, str]]] = {
        "local pool, 2 workers (pinned)": (["--workers", "2"], {}),
        "local pool, 2 workers, unpinned": (["--workers", "2"], unpinned),
        f"local pool, 2 workers, --variants {variants}": (
            ["--workers", "2", "--variants", str(variants)], {}),
    }
    dask_name = "Dask LocalCluster, 2 workers"
    cases = {name: case for name, case, key in zip(cases.keys(), cases.values(), CASES)
             if key in which}
    rates: dict[str, list[float]] = {name: [] for name in cases}
    if "dask" in which:
        rates[dask_name] = []
    # The cluster only when a case uses it: two Dask worker processes are not free.
    with (LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                       dashboard_address=None) if "dask" in which
          else contextlib.nullcontext()) as cluster:
        if "dask" in which:
            cases[dask_name] = (["--executor", "dask", "--scheduler",
                                 cluster.scheduler_address], {})
            _round_trip(cluster.scheduler_address)
        for k in range(rounds):
            for name, (args, env) in cases.items():
                with tempfile.TemporaryDirectory() as tmp:
                    seconds = _batch(["--count", str(count), "--seed", str(1000 * k + 1), *args],
                                     Path(tmp) / "b.db", env)
                rates[name].append(60 * count / seconds)
                print(f"round {k + 1}: {name}: {count} in {seconds:.1f} s, load "
                      f"{os.getloadavg()[0]:.1f}", file=sys.stderr)
    first = next(iter(rates))
    base = statistics.median(rates[first])
    print(f"{'executor':<42} {'distinct/min (median, range)':>30} {'vs first':>9} "
          f"{'200,000 in':>11}")
    for name, values in rates.items():
        rate = statistics.median(values)
        spread = f"{rate:.0f} ({min(values):.0f}-{max(values):.0f})"
        print(f"{name:<42} {spread:>30} {rate / base:>9.2f} {200_000 / rate / 60:>9.1f} h")
    # Same-round ratios: each round ran every case back to back.
    for name in rates:
        ratios = sorted(b / a for a, b in zip(rates[first], rates[name]))
        print(f"  {name}: per-round ratio to the first, median "
              f"{statistics.median(ratios):.2f} (range {ratios[0]:.2f}-{ratios[-1]:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("canonical")
    p.add_argument("--images", type=int, default=20)
    p = sub.add_parser("store")
    p.add_argument("--puzzles", type=int, default=5000)
    p = sub.add_parser("throughput")
    p.add_argument("--count", type=int, default=60)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--variants", type=int, default=5)
    p.add_argument("--cases", default=",".join(CASES),
                   help=f"which cases, comma-separated, in this order: {', '.join(CASES)}")
    args = parser.parse_args()
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}")
    if args.what == "canonical":
        bench_canonical(args.images)
    elif args.what == "store":
        bench_store(args.puzzles)
    else:
        which = tuple(c.strip() for c in args.cases.split(","))
        unknown = set(which) - set(CASES)
        if unknown:
            parser.error(f"unknown --cases {', '.join(sorted(unknown))}")
        bench_throughput(args.count, args.rounds, args.variants, which)


if __name__ == "__main__":
    main()
