"""Unique Combination levels per minute (issue 25's figure), on the command line users run.

    .venv/bin/python benchmarks/bench_combination.py --boards 6x6,8x8 --colours 2,3 --seconds 120
    .venv/bin/python benchmarks/bench_combination.py --boards 4x4,5x5 --colours 2 --bias harder
    .venv/bin/python benchmarks/bench_combination.py --boards 4x4 --colours 2 --against b2b55a7
    .venv/bin/python benchmarks/bench_combination.py --boards 4x4 --colours 2 --where 20
    .venv/bin/python benchmarks/bench_combination.py --boards 6x6 --colours 2 --solvers sat \
        --gen-args "--start full --walls 10 --holes 2"

Each case runs ``puzzle-engine gen combination --width W --height H --colours C --keep all
--count 1000000 --seed 1 --workers K --format json --out FILE`` for --seconds of wall time,
then stops it as Ctrl-C would (SIGINT: the finished levels stay in FILE) and counts the
levels it wrote. A level counts once: distinct modulo the symmetry (its board and the piece
sets of its colours, whatever their letters), unique (the criterion accepted it),
post-processed (the plugin draws post-processed bases; checked here on this tree), and
stored (in FILE). Not every growth step: only the accepted levels ``--keep all`` writes.

Table (one row per board, colours and solver):
  levels/min   distinct levels written per minute of wall time (start-up included)
  growths      growths finished (seeds), and levels per growth
  s/growth     mean seconds of one growth (Puzzle.seconds, a growth's levels share it)
  calls        solver runs per growth (mean), and ms per run (seconds / calls)
  paper        levels/min over the paper's rate: "tens of thousands of levels a day" on a
               2008 dual-core laptop, taken as 20,000 a day, about 14 a minute
  stopped      how the run ended: finished, or SIGINT after --seconds and how long gen took
               to exit (killed if it had not after 60 s; the wall time counts until then)

With --against REV every case also runs on the git revision REV (a worktree and a copy of
the venv made once in benchmarks/.against/, as bench_generate.py does), and the table
gives new/old.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

PAPER_PER_MINUTE = 20_000 / (24 * 60)


def level_key(record: dict) -> tuple:
    """A level modulo the symmetry: its board and its colours' piece sets, unnamed."""
    sets: dict[str, list[tuple[str, int]]] = {}
    for part in record["pieces"].split(","):
        count, attack, colour = part.split()
        sets.setdefault(colour, []).append((attack, int(count)))
    return tuple(record["board"]), tuple(sorted(tuple(sorted(s)) for s in sets.values()))


def tidy_fixed(record: dict) -> bool:
    """Whether post-processing would change nothing (this tree's plugin)."""
    from puzzle_engine_plugins.combination import tidy
    rows = record["board"]
    flat = tuple(".#o".index(ch) for row in rows for ch in row)
    size = (len(rows[0]), len(rows))
    return tidy.tidy(*size, flat) == (*size, flat)


def run_case(python: str, width: int, height: int, colours: int, solver: str, seconds: float,
             workers: int, extra: list[str], check_tidy: bool,
             env: dict[str, str] | None = None) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "levels.jsonl"
        cmd = [python, "-c", "from puzzle_engine.cli import main; main()", "gen",
               "combination", "--width", str(width), "--height", str(height), "--colours",
               str(colours), "--keep", "all", "--count", "1000000", "--seed", "1",
               "--workers", str(workers), "--solver", solver, "--format", "json",
               "--out", str(out), *extra]
        start = time.perf_counter()
        stopped = "finished"
        # SIGINT as the default in the child: a script started in the background by a
        # shell has it ignored, and gen keeps an ignored signal ignored (as under nohup).
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, cwd=folder, start_new_session=True, env=env,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        try:
            proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGINT)
            stop = time.perf_counter()
            try:
                proc.wait(timeout=60)
                stopped = f"SIGINT, exited in {time.perf_counter() - stop:.1f} s"
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                stopped = "SIGINT, still running after 60 s: SIGKILL"
        except BaseException:  # Ctrl-C here: the case's processes go too
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise
        wall = time.perf_counter() - start
        err = proc.stderr.read() if proc.stderr else ""
        records = [json.loads(line) for line in out.read_text().splitlines()
                   if line.strip()] if out.exists() else []
    if proc.returncode not in (0, 130, -signal.SIGINT, -signal.SIGKILL) and not records:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {err.strip()[-300:]}")
    growths: dict[int, dict] = {}
    for r in records:
        growths.setdefault(r["seed"], r)
    distinct = {level_key(r) for r in records}
    calls = sum(g["solver_calls"] for g in growths.values())
    busy = sum(g["seconds"] for g in growths.values())
    return {"board": f"{width}x{height}", "colours": colours, "solver": solver,
            "seconds": round(wall, 1), "levels": len(records), "distinct": len(distinct),
            "per_minute": round(len(distinct) * 60 / wall, 2), "growths": len(growths),
            "growth_seconds": round(busy / len(growths), 3) if growths else None,
            "calls_per_growth": round(calls / len(growths), 1) if growths else None,
            "ms_per_call": round(1000 * busy / calls, 1) if calls else None,
            "carried": sum(1 for r in records if r.get("carried")), "stopped": stopped,
            "post_processed": all(map(tidy_fixed, records)) if check_tidy else None}


def where_time_goes(width: int, height: int, colours: int, solver: str, growths: int,
                    extra: dict) -> str:
    """One process, seeds 1..growths: the criterion's checks by verdict, with their
    count and time, and the candidates the plugin's extensions settled with no check."""
    from collections import defaultdict

    from puzzle_engine.cli.common import _host
    from puzzle_engine.engine import Engine
    from puzzle_engine.solving.backend import Backend

    host = _host()
    ptype = host.get_type("combination")
    engine = Engine(host, Backend(solver))
    params = engine.check_params(ptype, {"width": width, "height": height, "colours": colours})
    criterion = engine.criterion(ptype)
    spent: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    judge = criterion.judge

    def timed(*args, **kwargs):
        start = time.perf_counter()
        verdict = judge(*args, **kwargs)
        kind = ("unique" if verdict.accepted else "solvable" if verdict.solvable else
                "unsolvable" if verdict.solvable is False else "unknown")
        spent[kind][0] += 1
        spent[kind][1] += time.perf_counter() - start
        return verdict
    criterion.judge = timed
    engine.criterion = lambda _: criterion
    from puzzle_engine.errors import PluginError

    start, levels, extended, failed = time.perf_counter(), 0, 0, []
    for seed in range(1, growths + 1):
        try:
            result = engine.generate(ptype, params, seed, {"keep": "all", **extra})
        except PluginError:  # no accepted level in --restarts bases
            failed.append(seed)
            continue
        levels += len(result.kept)
        extended += result.kept[-1].extra.get("extended", 0)
    total = time.perf_counter() - start
    engine.close()
    lines = [f"# where the time goes, {width}x{height}, {colours} colours, {solver}, one "
             f"process, seeds 1..{growths}: {levels} levels in {total:.1f} s "
             f"({levels * 60 / total:.1f} a minute on one core)",
             f"#   seeds that grew no level in --restarts bases: {failed or 'none'}",
             f"#   settled by extensions, no solver call: {extended} candidates"]
    for kind, (n, secs) in sorted(spent.items()):
        lines.append(f"#   {kind}: {n} checks, {secs:.1f} s ({100 * secs / total:.0f}%), "
                     f"{1000 * secs / n:.0f} ms each")
    return "\n".join(lines)


def row(r: dict, old: dict | None = None) -> str:
    per_growth = f"{r['distinct'] / r['growths']:.2f}" if r["growths"] else "-"
    cells = [r["board"], str(r["colours"]), r["solver"], f"{r['per_minute']:.1f}",
             f"{r['growths']} ({per_growth})", str(r["growth_seconds"]),
             f"{r['calls_per_growth']} ({r['ms_per_call']} ms)",
             f"{r['per_minute'] / PAPER_PER_MINUTE:.2f}", r["stopped"]]
    if old is not None:
        ratio = r["per_minute"] / old["per_minute"] if old["per_minute"] else float("inf")
        cells += [f"{old['per_minute']:.1f}", f"{ratio:.1f}"]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--boards", default="6x6,8x8", help="WxH,... (default 6x6,8x8)")
    ap.add_argument("--colours", default="2,3", help="colour counts (default 2,3)")
    ap.add_argument("--solvers", default="chuffed", help="solvers (default chuffed)")
    ap.add_argument("--seconds", type=float, default=60.0, help="wall time per case (default 60)")
    ap.add_argument("--workers", type=int, default=2, help="gen --workers (default 2)")
    ap.add_argument("--bias", choices=("none", "harder", "easier"), default="none")
    ap.add_argument("--carry", type=int, default=None, help="gen --carry (default: gen's)")
    ap.add_argument("--gen-args", default="", metavar="ARGS",
                    help="more options for gen, e.g. '--start full --walls 10 --holes 2'")
    ap.add_argument("--against", metavar="REV", help="also run every case on revision REV")
    ap.add_argument("--json", metavar="FILE", help="append every case's figures to FILE")
    ap.add_argument("--where", type=int, metavar="N", help="instead of the rate: where the "
                    "time of N growths goes (checks by verdict), in one process")
    args = ap.parse_args()
    if args.where:
        options = {} if args.bias == "none" else {"bias": args.bias}
        if args.carry is not None:
            options["carry"] = args.carry
        for board in args.boards.split(","):
            width, height = (int(v) for v in board.lower().split("x"))
            for colours in (int(c) for c in args.colours.split(",")):
                for solver in args.solvers.split(","):
                    print(where_time_goes(width, height, colours, solver, args.where, options),
                          flush=True)
        return

    extra = [] if args.bias == "none" else ["--bias", args.bias]
    extra += args.gen_args.split()
    if args.carry is not None:
        extra += ["--carry", str(args.carry)]
    old_python = None
    if args.against:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench_generate import AGAINST_DIR, prepare_revision
        _, _, old_python = prepare_revision(args.against, AGAINST_DIR)
    print(f"# {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores: "
          f"{' '.join(sys.argv)}")
    head = ["board", "colours", "solver", "levels/min", "growths (levels each)", "s/growth",
            "calls/growth (ms each)", "/ paper", "stopped"]
    if old_python:
        head += [f"old levels/min ({args.against})", "new/old"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for board in args.boards.split(","):
        width, height = (int(v) for v in board.lower().split("x"))
        for colours in (int(c) for c in args.colours.split(",")):
            for solver in args.solvers.split(","):
                new = run_case(sys.executable, width, height, colours, solver, args.seconds,
                               args.workers, extra, check_tidy=True)
                old = None
                if old_python:
                    old = run_case(str(old_python), width, height, colours, solver,
                                   args.seconds, args.workers, [], check_tidy=False)
                print(row(new, old), flush=True)
                if args.json:
                    with open(args.json, "a") as f:
                        f.write(json.dumps({"new": new, "old": old, "bias": args.bias,
                                            "argv": sys.argv}) + "\n")


if __name__ == "__main__":
    main()
