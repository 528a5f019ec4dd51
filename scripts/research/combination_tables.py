"""Paper 002's Tables 1 and 2 on our own Combination levels: one run against the mean of 50.

    .venv/bin/python scripts/research/combination_tables.py                    # 24 minutes on 2 cores
    .venv/bin/python scripts/research/combination_tables.py --json benchmarks/results/tables.json
    .venv/bin/python scripts/research/combination_tables.py --pick 4,6         # 4th and 6th hardest
    .venv/bin/python scripts/research/combination_tables.py --candidates 3 --singles 10 --means 5 \
        --per-mean 3                                                     # a smoke test

Paper 002 (section 5) solved two levels of neighbouring difficulty, "Level Four" (the
easier) and "Level Six", 300 times each with random variable orders. Table 1 gives min,
max, mean and sd of the search nodes of those single runs, and a single run of each ranks
the two levels wrongly 14% of the time. Table 2 does the same with 300 means of 50 runs
each, and the ranking is then never wrong. This script does that here:

1. Candidates. --candidates levels of Combination (--width x --height, --colours), one per
   seed from --gen-seed on, each the last accepted level of a growth with the strategy's
   default options (Engine.generate, the same level as 'puzzle-engine gen combination
   --seed S'). A seed whose growth finds no accepted level is skipped (and listed).
2. Grades. Each candidate is graded by the multiple method (Grader, R = --grade-runs,
   GradeOptions' default seed 0) and the candidates are sorted by the graded mean nodes,
   hardest first.
3. The pair. By default (--pick auto) the harder level is the --rank-th hardest (4) and the
   easier level the first one below it in that list, graded in the same mode, whose graded
   mean is lower by at least --z (3) standard errors of the difference of the two grades,
   sqrt(se1^2 + se2^2): the nearest easier level the grader tells apart clearly.
   --pick A,B takes the A-th and B-th hardest instead (--pick 4,6: the brief's reading of
   the paper's "fourth and sixth hardest").
4. Table 1. Each level is solved --singles (300) times on the pass that made its grade
   (strengthened: SAC probing -O5 and the implied global cardinality constraint; plain:
   the model as it is), each run in a random order of the level's search variables drawn
   from random.Random(--seed): min, max, mean, sd of the nodes, and over all
   singles x singles pairs how often the easier level took more nodes (wrong), as many
   (tie) or fewer.
5. Table 2. --means (300) means of --per-mean (50) further runs each, per level (15,000
   runs): the same figures over the means.

The runs are the grader's own: a subclass of Grader keeps the runs its passes make
(Grader._strengthened, or Grader._runs on Grader._model) and the figures are computed from
them; the mean of each pass is checked against the grader's own PassStats. Solver runs go
to --jobs processes at once, as 'grade --jobs'. The random orders of the tables are not the
ones of the grades (the grades chose the pair; fresh orders keep that choice from
flattering the tables).

Output (stdout): '#' lines (command, date, machine, solver and versions), the candidates,
the two levels in the text format, then the tables in Markdown with the paper's figures
beside ours. Progress goes to stderr. --json FILE writes every figure, the nodes of each
single run and each mean included. Only the standard library and puzzle_engine are used.
"""
from __future__ import annotations

import argparse
import bisect
import json
import math
import os
import platform
import random
import shlex
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Paper 002, Tables 1 and 2: (min, max, mean, sd) of the search nodes.
PAPER_TABLE1 = {"easier": (3, 29, 13.8, 6.4), "harder": (4, 123, 36.1, 23.3)}
PAPER_TABLE2 = {"easier": (11, 15, 13.3, 0.88), "harder": (28, 43, 36.3, 3.39)}
#: How often the paper's single runs / means of 50 did not rank the levels right
#: (section 5: "Level Four takes fewer search nodes than Level Six 86% of the time";
#: with means of 50 "Level Four always takes fewer nodes").
PAPER_NOT_FEWER = {"single": 0.14, "means": 0.0}
PAPER_NAMES = {"easier": "Level Four", "harder": "Level Six"}
#: Runs handed to the grader's pool at a time, between progress lines.
CHUNK = 500


# -- the environment --------------------------------------------------------------------------
def _cmd(*args: str) -> str:
    try:
        return subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:
        return ""


def command_line() -> str:
    exe = Path(sys.executable)
    script = Path(sys.argv[0]).resolve()
    try:
        exe = exe.relative_to(ROOT) if exe.is_absolute() else exe
        script = script.relative_to(ROOT)
    except ValueError:
        pass
    return shlex.join([str(exe), str(script), *sys.argv[1:]])


def environment(engine) -> dict[str, str]:
    from puzzle_engine import __version__

    info = engine.backend.info
    nproc = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cpu = next((ln.split(":", 1)[1].strip() for ln in _read("/proc/cpuinfo").splitlines()
                if ln.startswith("model name")), platform.processor() or "?")
    mzn = _cmd("minizinc", "--version").splitlines()
    head = _cmd("git", "rev-parse", "--short", "HEAD").strip() or "?"
    dirty = [ln[3:] for ln in _cmd("git", "status", "--porcelain", "--", "engine", "plugins",
                                   "models_mzn", "scripts/research/combination_tables.py").splitlines()]
    tree = f"git {head}" + (f", uncommitted changes in {', '.join(dirty)}" if dirty else ", clean")
    return {
        "command": command_line(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "machine": f"{platform.machine()}, nproc {nproc}, {cpu}, {platform.system()} "
                   f"{platform.release()}",
        "python": platform.python_version(),
        "puzzle_engine": f"{__version__} ({tree})",
        "minizinc": mzn[0].rsplit("version", 1)[-1].strip(" ,") if mzn else "not found",
        "solver": f"{info.name} {info.version} ({info.id})",
    }


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# -- candidates -------------------------------------------------------------------------------
def generate(host, ptype, params: dict, solver: str, seeds: list[int], jobs: int):
    """One level per seed (the last accepted level of a growth, gen's default), ``jobs``
    seeds at once, each thread with its own engine. Returns ``(levels, skipped)``:
    ``levels`` as ``(seed, Puzzle)`` in seed order, ``skipped`` as ``(seed, message)``."""
    from puzzle_engine import PuzzleEngineError
    from puzzle_engine.engine import Engine
    from puzzle_engine.solving.backend import Backend

    local = threading.local()
    engines = []
    lock = threading.Lock()

    def one(seed: int):
        if not hasattr(local, "engine"):
            local.engine = Engine(host, Backend(solver))
            with lock:
                engines.append(local.engine)
        t0 = time.perf_counter()
        try:
            puzzle = local.engine.generate(ptype, params, seed).puzzle
        except PuzzleEngineError as exc:
            progress(f"  seed {seed}: skipped ({exc})")
            return seed, None, str(exc)
        progress(f"  seed {seed}: {time.perf_counter() - t0:.1f} s")
        return seed, puzzle, None

    try:
        with ThreadPoolExecutor(jobs) as pool:
            done = list(pool.map(one, seeds))
    finally:
        for engine in engines:
            engine.close()
    return ([(s, p) for s, p, _ in done if p is not None],
            [(s, e) for s, _, e in done if e is not None])


def pick_pair(graded: list[dict], pick: str, rank: int, z: float) -> tuple[dict, dict, str]:
    """The harder and the easier level from ``graded`` (sorted hardest first), and the rule
    that chose them, in words."""
    if pick != "auto":
        a, b = sorted(int(x) for x in pick.split(","))
        if not 1 <= a < b <= len(graded):
            raise SystemExit(f"--pick {pick}: ranks must be 1 to {len(graded)} (the candidates "
                             "graded), the first smaller")
        return graded[a - 1], graded[b - 1], (f"the {_ordinal(a)} and {_ordinal(b)} hardest of "
                                              f"{len(graded)} candidates (--pick {pick})")
    if not 1 <= rank < len(graded):
        raise SystemExit(f"--rank {rank}: must be 1 to {len(graded) - 1} with {len(graded)} "
                         "candidates graded")
    harder = graded[rank - 1]
    for below in graded[rank:]:
        gap = harder["mean_nodes"] - below["mean_nodes"]
        se = math.hypot(harder["se_nodes"], below["se_nodes"])
        if below["mode"] == harder["mode"] and gap >= z * se:
            return harder, below, (
                f"the {_ordinal(rank)} hardest of {len(graded)} candidates, and the first level "
                f"below it graded in the same mode whose graded mean is lower by at least "
                f"{z:g} standard errors of the difference (here the {_ordinal(below['rank'])} "
                f"hardest: {gap:.1f} nodes apart, {gap / se:.1f} se)")
    raise SystemExit(f"no candidate below the {_ordinal(rank)} hardest is {z:g} standard errors "
                     "easier in the same mode: use more --candidates, a lower --z or --pick A,B")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# -- the grader's runs -------------------------------------------------------------------------
def recording_grader(engine, ptype, params, options):
    """A Grader that keeps the solver runs of its last pass (``last_runs``) and reports
    progress: the runs of ``Grader._runs`` all go through ``Grader._map``."""
    from puzzle_engine.grading.multiple import Grader

    class RecordingGrader(Grader):
        label = ""
        last_runs: list = []

        def _map(self, fn, items):
            items = list(items)
            out: list = []
            t0 = time.perf_counter()
            for start in range(0, len(items), CHUNK):
                out.extend(super()._map(fn, items[start:start + CHUNK]))
                if len(items) > CHUNK:
                    progress(f"  {self.label}: {len(out)}/{len(items)} runs, "
                             f"{time.perf_counter() - t0:.0f} s")
            self.last_runs = out
            return out

    return RecordingGrader(engine, ptype, params, options)


def pass_nodes(grader, instance, mode: str, orders: list[list[int]], label: str) -> list[float]:
    """The nodes of one run per order on the pass ``mode`` of the grader (the pass that
    made the level's grade), checked against the grader's own mean."""
    from puzzle_engine.grading.multiple import STRENGTHENED

    grader.label = label
    grader.last_runs = []
    if mode == STRENGTHENED:
        stats = grader._strengthened(instance, orders, label)
    else:
        model = grader._model(instance, None)
        stats = grader._runs(model, grader._fixed(instance, model), orders, label)
    if stats.solved_by_flattening:  # SAC fixed every square: one empty search for all
        return [stats.mean_nodes] * len(orders)
    nodes = [run.stats.get("nodes", 0.0) for run in grader.last_runs]
    if len(nodes) != len(orders) or not math.isclose(statistics.fmean(nodes), stats.mean_nodes,
                                                     rel_tol=1e-9):
        raise SystemExit(f"{label}: the runs kept ({len(nodes)}) are not those of the grader's "
                         "pass; has Grader changed?")
    return nodes


# -- figures ------------------------------------------------------------------------------------
def summary(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "min": min(values), "max": max(values),
            "mean": statistics.fmean(values),
            "sd": statistics.stdev(values) if len(values) > 1 else 0.0}


def ranking(easier: list[float], harder: list[float]) -> dict[str, float]:
    """Over every pair (one value of each level): the share where the easier level took
    more nodes than the harder (wrong), as many (tie), fewer (right)."""
    hs = sorted(harder)
    more = ties = 0
    for x in easier:
        lo, hi = bisect.bisect_left(hs, x), bisect.bisect_right(hs, x)
        more += lo          # harder values below x
        ties += hi - lo
    pairs = len(easier) * len(harder)
    return {"pairs": pairs, "wrong": more / pairs, "ties": ties / pairs,
            "right": (pairs - more - ties) / pairs, "not_fewer": (more + ties) / pairs}


def _n(x: float) -> str:
    if float(x).is_integer():
        return f"{x:.0f}"
    return f"{x:.2f}" if abs(x) < 10 else f"{x:.1f}"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%" if x == 0 or x >= 0.001 else f"{100 * x:.3f}%"


def table(title: str, ours: dict[str, dict], paper: dict[str, tuple]) -> list[str]:
    lines = [title, "",
             "| level | min | max | mean | sd | paper min | paper max | paper mean | paper sd |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for side in ("easier", "harder"):
        s = ours[side]
        lines.append(f"| {side} ({PAPER_NAMES[side]}) | {_n(s['min'])} | {_n(s['max'])} | "
                     f"{_n(s['mean'])} | {_n(s['sd'])} | "
                     + " | ".join(f"{v:g}" for v in paper[side]) + " |")
    return lines


def rank_table(rows: list[tuple[str, dict, float]]) -> list[str]:
    lines = ["| compared | pairs | easier took more (wrong) | ties | easier took fewer | "
             "not fewer | paper: not fewer |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, r, paper in rows:
        lines.append(f"| {name} | {r['pairs']} | {_pct(r['wrong'])} | {_pct(r['ties'])} | "
                     f"{_pct(r['right'])} | {_pct(r['not_fewer'])} | {_pct(paper)} |")
    return lines


# -- main ---------------------------------------------------------------------------------------
def parse_args(argv=None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        description="Paper 002's Tables 1 and 2 (one run against the mean of 50) on our own "
                    "Combination levels: generate candidates, grade them, pick two levels of "
                    "neighbouring difficulty, solve each many times in random orders.",
        epilog="Rule of --pick auto: the harder level is the --rank-th hardest candidate by "
               "graded mean nodes; the easier one is the first below it, graded in the same "
               "mode, whose graded mean is lower by at least --z standard errors of the "
               "difference. See the module's docstring and benchmarks/README.md.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    g = ap.add_argument_group("candidates")
    g.add_argument("--width", type=int, default=4, help="board columns")
    g.add_argument("--height", type=int, default=4, help="board rows")
    g.add_argument("--colours", type=int, default=2, help="colours of pieces")
    g.add_argument("--candidates", type=int, default=30,
                   help="levels generated, one per seed from --gen-seed on")
    g.add_argument("--gen-seed", type=int, default=1, help="seed of the first candidate")
    g.add_argument("--grade-runs", type=int, default=50,
                   help="R of the grades that sort the candidates")
    p = ap.add_argument_group("the pair")
    p.add_argument("--pick", default="auto",
                   help="'auto' (the rule below) or A,B: the A-th and B-th hardest candidates")
    p.add_argument("--rank", type=int, default=4, help="--pick auto: rank of the harder level "
                   "(1 = the hardest candidate)")
    p.add_argument("--z", type=float, default=3.0, help="--pick auto: standard errors between "
                   "the graded means of the two levels, at least")
    t = ap.add_argument_group("the tables")
    t.add_argument("--singles", type=int, default=300, help="Table 1: single runs per level")
    t.add_argument("--means", type=int, default=300, help="Table 2: means per level")
    t.add_argument("--per-mean", type=int, default=50, help="Table 2: runs per mean")
    t.add_argument("--seed", type=int, default=1,
                   help="seed of random.Random that draws the tables' variable orders")
    ap.add_argument("--solver", default="gecode", help="MiniZinc solver; the default is "
                    "what 'puzzle-engine grade' uses when no --solver is given, whatever the "
                    "type prefers for generation")
    ap.add_argument("--jobs", type=int, default=2, help="solver processes at once")
    ap.add_argument("--json", type=Path, default=None, help="write every figure to this file")
    args = ap.parse_args(argv)
    for name in ("width", "height", "candidates", "grade_runs", "singles", "means", "per_mean",
                 "jobs"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.pick != "auto":
        parts = args.pick.split(",")
        if len(parts) != 2 or not all(x.strip().isdigit() for x in parts):
            ap.error(f"--pick {args.pick!r}: expected 'auto' or two ranks A,B (e.g. 4,6)")
    return args


def main(argv=None) -> None:
    args = parse_args(argv)
    started = time.perf_counter()

    from puzzle_engine import calls
    from puzzle_engine.engine import Engine
    from puzzle_engine.grading import GradeOptions
    from puzzle_engine.plugins import get_host
    from puzzle_engine.solving.backend import Backend

    host = get_host()
    ptype = host.get_type("combination")
    if ptype.grader != "multiple":
        raise SystemExit(f"combination is graded by '{ptype.grader}', not the multiple method")
    solver = args.solver
    engine = Engine(host, Backend(solver))
    params = engine.check_params(ptype, {"width": args.width, "height": args.height,
                                         "colours": args.colours})
    env = environment(engine)
    preferred = calls.preferred_solver(ptype, params)
    header = [f"# {k}: {v}" for k, v in env.items()]
    header.append(f"# combination params: {json.dumps(params)}; the type's preferred solver: "
                  f"{preferred or 'none'}; grading solver: {engine.backend.solver_id}")
    print("\n".join(header), flush=True)

    # 1. candidates
    seeds = list(range(args.gen_seed, args.gen_seed + args.candidates))
    progress(f"generating {len(seeds)} candidates ({args.width}x{args.height}, "
             f"{args.colours} colours)...")
    t0 = time.perf_counter()
    levels, skipped = generate(host, ptype, params, solver, seeds, args.jobs)
    gen_seconds = time.perf_counter() - t0
    if len(levels) < 2:
        raise SystemExit(f"only {len(levels)} candidate(s) grew; use more --candidates")

    # 2. grades
    progress(f"grading {len(levels)} candidates (R = {args.grade_runs})...")
    t0 = time.perf_counter()
    options = GradeOptions(runs=args.grade_runs, jobs=args.jobs)
    grader = recording_grader(engine, ptype, params, options)
    graded = []
    try:
        for seed, puzzle in levels:
            grade = grader.grade(puzzle.instance, label=f"seed {seed}")
            line = calls.text(ptype, "format", params=params, instance=puzzle.instance, fmt="line")
            graded.append({"seed": seed, "level": line, "mode": grade.mode,
                           "mean_nodes": grade.mean_nodes, "sd_nodes": grade.figure.sd_nodes,
                           "se_nodes": grade.figure.se_nodes, "instance": puzzle.instance,
                           "record": puzzle.to_json(ptype)})
        grade_seconds = time.perf_counter() - t0
        graded.sort(key=lambda g: (-g["mean_nodes"], g["seed"]))
        for rank, g in enumerate(graded, 1):
            g["rank"] = rank

        # 3. the pair
        harder, easier, rule = pick_pair(graded, args.pick, args.rank, args.z)
        pair = {"easier": easier, "harder": harder}

        out = ["", f"## Candidates: {len(graded)} levels, seeds {seeds[0]}..{seeds[-1]}, "
               f"graded with R = {args.grade_runs}, hardest first", "",
               "| rank | seed | mode | mean nodes | se | level |",
               "| ---: | ---: | --- | ---: | ---: | --- |"]
        for g in graded:
            mark = " (harder)" if g is harder else " (easier)" if g is easier else ""
            out.append(f"| {g['rank']}{mark} | {g['seed']} | {g['mode']} | {g['mean_nodes']:.1f} "
                       f"| {g['se_nodes']:.1f} | `{g['level']}` |")
        if skipped:
            out += ["", "Skipped (no accepted level): " + ", ".join(
                f"seed {s}" for s, _ in skipped)]
        out += ["", f"Pair: {rule}.", ""]
        for side in ("easier", "harder"):
            g = pair[side]
            text = calls.text(ptype, "format", params=params, instance=g["instance"], fmt="text")
            out += [f"{side} ({PAPER_NAMES[side]} of the paper): seed {g['seed']}, rank "
                    f"{g['rank']}, graded {g['mean_nodes']:.1f} nodes (se {g['se_nodes']:.1f}, "
                    f"mode {g['mode']})", "", "```", text, "```", ""]
        print("\n".join(out), flush=True)

        # 4, 5. the runs: Table 1's orders, then Table 2's, for each level in turn
        rng = random.Random(args.seed)
        figures: dict[str, dict] = {}
        t0 = time.perf_counter()
        for side in ("easier", "harder"):
            g = pair[side]
            plain = grader._model(g["instance"], None)
            empty = grader._variables(g["instance"], plain.squares)
            n1, n2 = args.singles, args.means * args.per_mean
            orders = [rng.sample(empty, len(empty)) for _ in range(n1 + n2)]
            progress(f"{side}: {n1} + {n2} runs on the {g['mode']} pass...")
            nodes = pass_nodes(grader, g["instance"], g["mode"], orders, side)
            singles = nodes[:n1]
            means = [statistics.fmean(nodes[n1 + k * args.per_mean:n1 + (k + 1) * args.per_mean])
                     for k in range(args.means)]
            figures[side] = {"seed": g["seed"], "level": g["level"], "rank": g["rank"],
                             "mode": g["mode"], "graded_mean": g["mean_nodes"],
                             "graded_se": g["se_nodes"], "search_variables": len(empty),
                             "table1": summary(singles), "table2": summary(means),
                             "singles": singles, "means": means}
        run_seconds = time.perf_counter() - t0
    finally:
        grader.close()
        engine.close()

    r1 = ranking(figures["easier"]["singles"], figures["harder"]["singles"])
    r2 = ranking(figures["easier"]["means"], figures["harder"]["means"])
    modes = {figures[s]["mode"] for s in ("easier", "harder")}
    pass_text = " and ".join(sorted(modes))
    out = table(f"### Table 1: {args.singles} single runs per level ({pass_text} pass)",
                {s: figures[s]["table1"] for s in figures}, PAPER_TABLE1)
    out += [""] + table(f"### Table 2: {args.means} means of {args.per_mean} runs per level "
                        f"({pass_text} pass)", {s: figures[s]["table2"] for s in figures},
                        PAPER_TABLE2)
    out += ["", "### How often the easier level does not take fewer nodes", ""]
    out += rank_table([("single runs", r1, PAPER_NOT_FEWER["single"]),
                       (f"means of {args.per_mean}", r2, PAPER_NOT_FEWER["means"])])
    ratio = [figures[s]["table1"]["sd"] / math.sqrt(args.per_mean) for s in ("easier", "harder")]
    total = time.perf_counter() - started
    out += ["", f"sd of Table 1 / sqrt({args.per_mean}): easier {_n(ratio[0])}, harder "
            f"{_n(ratio[1])} (what Table 2's sd should be for independent runs)",
            f"# seconds: generating {gen_seconds:.0f}, grading {grade_seconds:.0f}, "
            f"runs {run_seconds:.0f} ({2 * (args.singles + args.means * args.per_mean)} solver "
            f"runs), total {total:.0f}; load average at the end "
            + " ".join(f"{x:.2f}" for x in os.getloadavg())]
    print("\n".join(out), flush=True)

    if args.json:
        for g in graded:
            g.pop("instance", None)
        record = {"environment": env, "args": {k: str(v) if isinstance(v, Path) else v
                                               for k, v in vars(args).items()},
                  "params": params, "solver": engine.backend.solver_id,
                  "solver_version": engine.backend.info.version, "rule": rule,
                  "candidates": graded, "skipped": [{"seed": s, "error": e} for s, e in skipped],
                  "levels": figures, "ranking": {"single": r1, "means": r2},
                  "paper": {"table1": PAPER_TABLE1, "table2": PAPER_TABLE2,
                            "not_fewer": PAPER_NOT_FEWER},
                  "seconds": {"generating": gen_seconds, "grading": grade_seconds,
                              "runs": run_seconds, "total": total}}
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
