"""Cost of generating minimal unique puzzles: seconds, solver calls, givens, memory.

    .venv/bin/python benchmarks/bench_generate.py --sizes 9,16 --solvers gecode,chuffed --seeds 5
    .venv/bin/python benchmarks/bench_generate.py --sizes 25 --seeds 2 --timeout 900
    .venv/bin/python benchmarks/bench_generate.py --puzzle fillomino --sizes 5,9,12,16 --solvers chuffed
    .venv/bin/python benchmarks/bench_generate.py --puzzle fillomino --sizes 5,7,9,12,16 \
        --solvers chuffed+logic_only=true,chuffed --seeds 5
    .venv/bin/python benchmarks/bench_generate.py --puzzle fillomino --sizes 9 --solvers chuffed \
        --target-empty 10,20,30,40,50,81
    .venv/bin/python benchmarks/bench_generate.py --sizes 9 --seeds 3 --no-peers
    .venv/bin/python benchmarks/bench_generate.py --against d727f1e --sizes 9,16 --solvers chuffed \
        --seeds 10 --rounds 3

For every size (an n x n board), solver and seed (seeds 1..N) it generates one puzzle of
the type --puzzle (default sudoku) through the whole pipeline (Engine.generate: the random
full board, compiling the check model, one uniqueness check per square) down to a minimal
unique puzzle, or until --target-empty squares are empty, with no time limit per solver
call. The solver runs with free search where the puzzle type asks for it, as on the
command line. Each (size, solver, seed) case runs in a fresh Python subprocess (``--one``), so that
its memory figures are its own; the subprocess prints one JSON object. A case that runs
longer than --timeout seconds is killed (with its solver) and reported as a time-out.

Table (one row per size and solver; see benchmarks/README.md):
  target         the --target-empty of the row ("-": none, run to a minimal puzzle)
  seeds          puzzles finished (``2/3`` when some seeds timed out or failed)
  median/min/max s   Puzzle.seconds: wall time of Engine.generate for one puzzle
  calls          solver runs per puzzle (median): with --batch 1, one full solve + one check
                 per square; batching needs fewer
  givens         givens of the finished puzzle (median); empty = cells - givens
  py MB          peak resident set of the Python process: getrusage(RUSAGE_SELF).ru_maxrss
  solver MB      peak resident set of its largest child (minizinc, fzn-gecode, fzn-chuffed):
                 getrusage(RUSAGE_CHILDREN).ru_maxrss. Linux carries the parent's size into
                 a child's figure at fork/exec, so this is never below py MB at the time the
                 solver was started: it is an upper bound, and tells the solver's own memory
                 only when it is larger than py MB.
  Both MB columns are the maximum over the seeds.

Peers (unless --no-peers): for every size, the other generators installed by
benchmarks/setup_peers.sh that make that puzzle type and size (sgt-solo for Sudoku up to
31x31, qqwing for 9x9 Sudoku, paper 000's z3 generator for Sudoku with square boxes,
sgt-filling for Fillomino; see benchmarks/peers/__init__.py) run with the same seeds, one
process per puzzle, and a second table follows the first:
  peer, size, seeds, median/min/max s   wall time of the peer's process per puzzle,
                 start-up included
  givens         givens of the peer's puzzle (median)
  SOLVER/peer    our median seconds (the first table's, Python start-up excluded) divided
                 by the peer's median, one column per solver
  SOLVER wall/peer   the same with our subprocess's wall time (Python start-up included),
                 which is what the peer's figure is
A peer that is not installed gets a row saying so. The peers are benchmark-only: nothing in
puzzle-engine depends on them.

--against REV runs every case on this tree ("new") and on the git revision REV ("old"),
seed by seed in turn, each run in a fresh process, and prints one table with both medians,
the per-seed ratios new/old with a bootstrap interval, the solver calls of each, and whether
the puzzles are the same (a seed whose grids differ is reported loudly and the exit status
is 1). REV's worktree and a copy of the running venv with REV installed in it are made once
in benchmarks/.against/ (see benchmarks/README.md). Peers are not run then.

Only the standard library, puzzle_engine and benchmarks/peers (standard library) are used.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from peers import NOT_INSTALLED, Peer, kill_group, make_peers, run_peer

ROOT = Path(__file__).resolve().parent.parent


# -- one case, in its own process ----------------------------------------------------------
def one(puzzle: str, size: int, solver: str, seed: int, target: int | None, batch: int,
        probes: int, optimise: bool, profile: int = 0) -> dict:
    """Generate one puzzle; return its figures and this process's resource usage, and with
    ``profile`` the top entries of its cProfile by own time."""
    import puzzle_engine
    from puzzle_engine.plugins import get_host
    try:                    # contract v2 (#24) and later
        from puzzle_engine.engine import Engine
        from puzzle_engine import calls
        from puzzle_engine.solving.backend import Backend, find_solver
        from puzzle_engine.strategies import GenOptions
        wants_free_search = calls.wants_free_search
    except ImportError:     # the layout before it (d727f1e and earlier), for --against
        from puzzle_engine.backend import Backend, find_solver
        from puzzle_engine.genpuzzles import Engine, GenOptions

        def wants_free_search(ptype, solver_id, tags):
            return ptype.wants_free_search(solver_id, tags)

    host = get_host()
    ptype = host.get_type(puzzle)
    label = solver
    solver, extra = split_solver(label)
    info = find_solver(solver)
    engine = Engine(host, Backend(solver, time_limit=None,
                                  free_search=wants_free_search(ptype, info.id, info.tags)))
    params = engine.check_params(ptype, {"size": size, **extra})
    options = GenOptions(target_empty=target, batch=batch, probes=probes, optimise=optimise)
    prof = cProfile.Profile() if profile else None
    start = time.perf_counter()
    p = (prof.runcall(engine.generate, ptype, params, seed=seed, options=options) if prof
         else engine.generate(ptype, params, seed=seed, options=options)).puzzle
    wall = time.perf_counter() - start
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"puzzle": puzzle, "size": size, "target": target, "params": params,
            "solver": label, "free_search": engine.backend.free_search, "batch": batch, "probes": probes,
            "optimise": optimise, "seed": seed,
            "grid": ",".join(map(str, p.grid)),
            "status": "ok",
            "seconds": p.seconds,             # Puzzle.seconds, measured inside generate
            "generate_wall": wall,            # the same, measured around the call
            "calls": p.solver_calls, "givens": sum(1 for v in p.grid if v), "minimal": p.minimal,
            "unknown": p.unknown,
            "python_mb": me.ru_maxrss / 1024,     # ru_maxrss is KiB on Linux
            "solver_mb": kids.ru_maxrss / 1024,
            "python_cpu": me.ru_utime + me.ru_stime,
            "solver_cpu": kids.ru_utime + kids.ru_stime,
            "solver_version": p.solver_version,
            "engine_dir": str(Path(puzzle_engine.__file__).resolve().parent),
            "profile": _top(prof, profile) if prof else None}


def split_solver(label: str) -> tuple[str, dict]:
    """``chuffed+logic_only=true`` -> ("chuffed", {"logic_only": True}): a solver with
    puzzle parameters of the case (values read as JSON where they parse, else strings)."""
    solver, *pairs = label.split("+")
    extra = {}
    for pair in pairs:
        name, _, text = pair.partition("=")
        try:
            extra[name] = json.loads(text)
        except ValueError:
            extra[name] = text
    return solver, extra


def _top(prof: cProfile.Profile, n: int) -> list[str]:
    """The ``n`` functions with the most own time (tottime), as pstats prints them."""
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(n)
    lines = out.getvalue().splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("ncalls"))
    return [ln for ln in lines[head:] if ln.strip()]


def run_case(puzzle: str, size: int, solver: str, seed: int, target: int | None, batch: int,
             probes: int, optimise: bool, timeout: float | None, profile: int = 0,
             python: str = sys.executable, env: dict[str, str] | None = None) -> dict:
    """Run one case in a fresh subprocess (its own process group, so that a time-out
    or Ctrl-C kills the solver too). ``python`` is the interpreter of the case: another
    revision's virtual environment runs this same script on that revision's engine
    (``--against``); ``env``, the case's environment (another tree on PYTHONPATH)."""
    case = {"puzzle": puzzle, "size": size, "target": target, "solver": solver, "seed": seed}
    t0 = time.perf_counter()
    proc = subprocess.Popen([python, str(Path(__file__).resolve()), "--one",
                             f"{puzzle},{size},{solver},{seed},{target or 0},{batch},{probes},{int(optimise)},"
                             f"{profile}"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env=env)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        return {**case, "status": "timeout", "process_wall": time.perf_counter() - t0}
    except BaseException:   # Ctrl-C: the case's own session does not get it, so stop it here
        kill_group(proc)
        raise
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        lines = [ln for ln in err.strip().splitlines() if ln.strip()]
        return {**case, "status": "failed", "process_wall": wall,
                "error": lines[-1] if lines else f"exit status {proc.returncode}"}
    return {**json.loads(out), "process_wall": wall}


# -- the environment -----------------------------------------------------------------------
def _cmd(*args: str) -> str:
    try:
        return subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def environment(solvers: list[str]) -> list[str]:
    from puzzle_engine import __version__
    from puzzle_engine.solving.backend import find_solver

    uname = os.uname()
    nproc = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cpu = next((ln.split(":", 1)[1].strip() for ln in _read("/proc/cpuinfo").splitlines()
                if ln.startswith("model name")), "?")
    mem = next((f"{int(ln.split()[1]) / 1024 / 1024:.1f} GiB" for ln in
                _read("/proc/meminfo").splitlines() if ln.startswith("MemTotal:")), "?")
    mzn = _cmd("minizinc", "--version").splitlines()
    mzn_version = mzn[0].rsplit("version", 1)[-1].strip(" ,") if mzn else "not found"
    infos = []
    for name in dict.fromkeys(split_solver(label)[0] for label in solvers):
        s = find_solver(name)
        infos.append(f"{s.name} {s.version} ({s.executable})")
    head = _cmd("git", "rev-parse", "--short", "HEAD").strip() or "?"
    dirty = [ln[3:] for ln in _cmd("git", "status", "--porcelain", "--", "engine", "plugins",
                                   "models_mzn").splitlines()]
    tree = f"git {head}" + (f", uncommitted changes in {', '.join(dirty)}" if dirty else ", clean")
    return [
        f"date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}",
        f"machine: {uname.machine} (uname -m), nproc {nproc}, {cpu}, {mem} RAM, "
        f"{uname.sysname} {uname.release}; load average {_load()} at start",
        f"python: {platform.python_version()}; puzzle-engine {__version__} ({tree})",
        f"minizinc: {mzn_version}; " + "; ".join(infos),
    ]


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:
        return ""


# -- the table -----------------------------------------------------------------------------
COLUMNS = (("size", 5), ("solver", 8), ("target", 6), ("seeds", 5), ("median s", 9), ("min s", 8),
           ("max s", 8), ("calls", 6), ("givens", 6), ("py MB", 6), ("solver MB", 9))


def _num(x: float) -> str:
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def row(size: int, solver: str, target: int | None, runs: list[dict], timeout: float | None) -> str:
    ok = [r for r in runs if r["status"] == "ok"]
    seeds = f"{len(ok)}" if len(ok) == len(runs) else f"{len(ok)}/{len(runs)}"
    if ok:
        secs = [r["seconds"] for r in ok]
        cells = [f"{statistics.median(secs):.2f}", f"{min(secs):.2f}", f"{max(secs):.2f}",
                 _num(statistics.median(r["calls"] for r in ok)),
                 _num(statistics.median(r["givens"] for r in ok)),
                 f"{max(r['python_mb'] for r in ok):.1f}",
                 f"{max(r['solver_mb'] for r in ok):.1f}"]
    else:
        cells = [f">{timeout:g}" if timeout and runs and runs[0]["status"] == "timeout"
                 else "-"] + ["-"] * 6
    values = [str(size), solver, str(target or "-"), seeds, *cells]
    return " ".join(f"{v:>{w}}" for v, (_, w) in zip(values, COLUMNS))


def _failure_note(where: str, r: dict, timeout: float | None) -> str | None:
    """The note for a case or peer run that timed out or failed, else None."""
    if r["status"] == "timeout":
        return f"{where}: timed out after {timeout:g} s (killed, not in the figures)"
    if r["status"] == "failed":
        return f"{where}: failed: {r['error'][:200]}"
    return None


def notes(runs: list[dict], timeout: float | None) -> list[str]:
    out = []
    for r in runs:
        where = f"{r['puzzle']} {r['size']}x{r['size']} {r['solver']} seed {r['seed']}"
        if "revision" in r:     # --against
            where = f"{r['revision']} {where}"
        if (note := _failure_note(where, r, timeout)) is not None:
            out.append(note)
        elif not r["minimal"] and not r["target"]:
            out.append(f"{where}: not minimal ({r['unknown']} checks timed out)")
    return out


# -- the peers' table ---------------------------------------------------------------------
PEER_COLUMNS = (("size", 5), ("peer", 11), ("seeds", 5), ("median s", 9), ("min s", 8),
                ("max s", 8), ("givens", 6))


def _ratio(x: float) -> str:
    return f"{x:.0f}" if x >= 100 else f"{x:.3g}"


def peer_columns(solvers: list[str], cli: bool = False) -> list[tuple[str, int]]:
    extra = []
    for s in solvers:
        extra += [(f"{s}/peer", max(len(s) + 5, 8)), (f"{s} wall/peer", len(s) + 10)]
        if cli:
            extra.append((f"{s} cli/peer", len(s) + 9))
    return list(PEER_COLUMNS) + extra


def peer_row(size: int, peer: Peer, runs: list[dict], ours: dict[str, list[dict]],
             solvers: list[str], timeout: float | None) -> str:
    """One row of the peers' table: the peer's figures, then per solver our median / the peer's."""
    cli = any("cli_wall" in r for s in solvers for r in ours.get(s, []))
    columns = peer_columns(solvers, cli)
    ok = [r for r in runs if r["status"] == "ok"]
    seeds = f"{len(ok)}" if len(ok) == len(runs) else f"{len(ok)}/{len(runs)}"
    if ok:
        secs = [r["seconds"] for r in ok]
        median = statistics.median(secs)
        givens = [r["givens"] for r in ok if r.get("givens") is not None]
        cells = [f"{median:.3f}", f"{min(secs):.3f}", f"{max(secs):.3f}",
                 _num(statistics.median(givens)) if givens else "-"]
        for s in solvers:
            mine = [r for r in ours.get(s, []) if r["status"] == "ok"]
            walls = [r["cli_wall"] for r in mine if r.get("cli_wall") is not None]
            if mine and median > 0:
                cells += [_ratio(statistics.median(r["seconds"] for r in mine) / median),
                          _ratio(statistics.median(r["process_wall"] for r in mine) / median)]
            else:
                cells += ["-", "-"]
            if cli:
                cells.append(_ratio(statistics.median(walls) / median) if walls and median > 0
                             else "-")
    else:
        cells = [f">{timeout:g}" if timeout and runs and runs[0]["status"] == "timeout"
                 else "-"] + ["-"] * (len(columns) - 4)
    values = [str(size), peer.name, seeds, *cells]
    return " ".join(f"{v:>{w}}" for v, (_, w) in zip(values, columns))


def peer_missing_row(size: int, peer: Peer) -> str:
    (_, w1), (_, w2) = PEER_COLUMNS[:2]
    return f"{size:>{w1}} {peer.name:>{w2}} {NOT_INSTALLED}"


def peer_notes(runs: list[dict], timeout: float | None) -> list[str]:
    out = []
    for r in runs:
        where = f"peer {r['peer']} {r['puzzle']} {r['size']}x{r['size']} seed {r['seed']}"
        if (note := _failure_note(where, r, timeout)) is not None:
            out.append(note)
        elif r.get("unknown"):
            out.append(f"{where}: {r['unknown']} checks answered unknown (kept as givens)")
    return out


# -- side by side against another revision (--against) -----------------------------------
AGAINST_DIR = Path(__file__).resolve().parent / ".against"


def _git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          check=True).stdout.strip()


def prepare_revision(rev: str, where: Path) -> tuple[str, Path, Path]:
    """Find, or make, a git worktree of ``rev`` and a virtual environment that imports
    puzzle_engine from it; return the commit, the worktree and that environment's python.

    Both live in ``where`` (by default benchmarks/.against/, which git ignores), named by
    the full commit, so a second run reuses them. The worktree is ``git worktree add
    --detach``. The environment is a copy of the running one (``cp -a``: the same
    dependencies at the same versions) with the worktree installed in it in place of this
    tree (``pip install -e WORKTREE --no-deps``). A marker file is written last, so that a
    copy cut short is made again from scratch."""
    try:
        commit = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except subprocess.CalledProcessError:
        raise SystemExit(f"--against {rev}: not a commit of this repository") from None
    if sys.prefix == sys.base_prefix:
        raise SystemExit("--against copies the running virtual environment: run this script "
                         "with a venv's python (.venv/bin/python)")
    where.mkdir(parents=True, exist_ok=True)
    tree, venv = where / commit, where / f"{commit}.venv"
    if not tree.exists():
        print(f"# --against: git worktree add --detach {tree} {commit}", file=sys.stderr)
        _git("worktree", "add", "--detach", str(tree), commit)
    elif (_git("rev-parse", "HEAD", cwd=tree) != commit
          or _git("status", "--porcelain", "--untracked-files=no", cwd=tree)):
        raise SystemExit(f"--against: {tree} is not a clean checkout of {commit}; remove it "
                         f"(git worktree remove --force {tree}) and run again")
    python = venv / "bin" / "python"
    marker = venv / ".bench-against"
    if not (marker.is_file() and marker.read_text().strip() == commit):
        if venv.exists():
            shutil.rmtree(venv)
        print(f"# --against: cp -a {sys.prefix} {venv}; pip install -e {tree} --no-deps",
              file=sys.stderr, flush=True)
        subprocess.run(["cp", "-a", sys.prefix, str(venv)], check=True)
        pip = subprocess.run([str(python), "-m", "pip", "install", "-q", "-e", str(tree),
                              "--no-deps"], capture_output=True, text=True)
        if pip.returncode != 0:
            raise SystemExit(f"--against: pip install -e {tree} failed:\n{pip.stdout}{pip.stderr}")
        marker.write_text(commit + "\n")
    return commit, tree, python


def _tree_of(path: str) -> Path | None:
    """The nearest folder above ``path`` that holds a pyproject.toml: the source tree."""
    return next((d for d in Path(path).parents if (d / "pyproject.toml").is_file()), None)


def _interval(ratios: list[float], draws: int = 2000) -> tuple[float, float]:
    """A 95% bootstrap interval of the median of ``ratios``: the seeds are drawn again with
    replacement ``draws`` times (a fixed random seed, so the same figures give the same
    interval)."""
    rng = random.Random(0)
    meds = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(draws))
    return meds[int(0.025 * draws)], meds[int(0.975 * draws) - 1]


AGAINST_COLUMNS = (("size", 5), ("solver", 8), ("target", 6), ("seeds", 5), ("new s", 7),
                   ("old s", 7), ("new/old", 7), ("seed ratios", 11), ("95% interval", 12),
                   ("wall n/o", 8), ("calls new", 9), ("calls old", 9), ("givens", 6),
                   ("MB new", 6), ("MB old", 6), ("same", 4))


def _seconds(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def against_row(size: int, solver: str, target: int | None,
                seeds: list[dict[str, list[dict]]]) -> tuple[str, list[float]]:
    """One row of the side-by-side table, and the per-seed ratios new/old. ``seeds`` holds,
    per seed, the runs of each revision; a seed counts when all its runs finished."""
    ok = [s for s in seeds if all(r["status"] == "ok" for rs in s.values() for r in rs)]
    count = f"{len(ok)}" if len(ok) == len(seeds) else f"{len(ok)}/{len(seeds)}"
    same = all(len({r["grid"] for rs in s.values() for r in rs}) == 1 for s in ok)
    ratios = [_seconds(s["new"], "generate_wall") / _seconds(s["old"], "generate_wall") for s in ok]
    if ok:
        walls = [_seconds(s["new"], "process_wall") / _seconds(s["old"], "process_wall") for s in ok]
        lo, hi = _interval(ratios)
        cells = [f"{statistics.median(_seconds(s['new'], 'generate_wall') for s in ok):.3f}",
                 f"{statistics.median(_seconds(s['old'], 'generate_wall') for s in ok):.3f}",
                 f"{statistics.median(ratios):.3f}", f"{min(ratios):.2f}-{max(ratios):.2f}",
                 f"{lo:.3f}-{hi:.3f}", f"{statistics.median(walls):.3f}",
                 _num(statistics.median(r["calls"] for s in ok for r in s["new"])),
                 _num(statistics.median(r["calls"] for s in ok for r in s["old"])),
                 _num(statistics.median(r["givens"] for s in ok for r in s["new"])),
                 f"{max(r['python_mb'] for s in ok for r in s['new']):.1f}",
                 f"{max(r['python_mb'] for s in ok for r in s['old']):.1f}",
                 "yes" if same else "NO"]
    else:
        cells = ["-"] * (len(AGAINST_COLUMNS) - 4)
    values = [str(size), solver, str(target or "-"), count, *cells]
    return " ".join(f"{v:>{w}}" for v, (_, w) in zip(values, AGAINST_COLUMNS)), ratios


def _progress(label: str, r: dict) -> None:
    if r["status"] == "ok":
        msg = (f"{r['seconds']:.2f} s, {r['calls']} calls, {r['givens']} givens, "
               f"py {r['python_mb']:.1f} MB, solver {r['solver_mb']:.1f} MB, "
               f"{r['process_wall']:.2f} s with start-up")
    else:
        msg = r["status"] + (f": {r['error']}" if "error" in r else "")
    print(f"[{label}] {msg}", file=sys.stderr, flush=True)
    for line in r.get("profile") or ():
        print(f"    {line}", file=sys.stderr, flush=True)


def against(args: argparse.Namespace, sizes: list[int], solvers: list[str],
            targets: list[int | None], timeout: float | None) -> int:
    """Every configuration on this tree ("new") and on the revision ``--against`` ("old"),
    seed by seed, each run in a process of its own; print the side-by-side table. Returns
    the exit status: 1 when the two revisions made different puzzles, else 0."""
    commit, tree, old_python = prepare_revision(args.against, Path(args.against_dir).resolve())
    sides = {"new": (sys.executable, ROOT), "old": (str(old_python), tree)}
    subject = _git("log", "-1", "--format=%h %s", commit)
    for line in environment(solvers):
        print(f"# {line}")
    print(f"# new: this tree, {ROOT} (the git line above), python {sys.executable}")
    print(f"# old: --against {args.against} = {subject[:100]}")
    print(f"#      worktree {tree}, python {old_python}")
    print(f"# puzzle: {args.puzzle}; --batch {args.batch}; --probes {args.probes}; "
          f"{'--optimise' if args.optimise else '--no-optimise (bisect)'}; FlatZinc cache "
          + ("shared, warmed by one untimed run of seed 1 on each revision first"
             if args.fzn_cache else "off (every case compiles)")
          + f"; time-out {timeout or 'none'}" + (" s" if timeout else ""))
    print(f"# each seed: {args.rounds} run(s) per revision, each in a fresh process, the two "
          "revisions taking turns (new first on odd seeds, old first on even ones)")
    print("# new s, old s: median over seeds of the wall time of Engine.generate (measured by "
          "this script on both); new/old: median of the per-seed ratios;")
    print("#   seed ratios: their smallest and largest; 95% interval: bootstrap of that median "
          "over the seeds; wall n/o: the same ratio for the whole process (start-up included);")
    print("#   calls: solver runs per puzzle (median); MB: peak RSS of the Python process (max); "
          "same: every run of every seed made the same grid on both")
    print(" ".join(f"{name:>{w}}" for name, w in AGAINST_COLUMNS), flush=True)
    sink = open(args.json, "w") if args.json else None
    differ, all_notes, seed_lines = [], [], []
    try:
        for size in sizes:
            n = args.seeds_25 if size >= 25 and args.seeds_25 else args.seeds
            for solver, target in ((s, t) for s in solvers for t in targets):
                def case(side: str, seed: int) -> dict:
                    r = run_case(args.puzzle, size, solver, seed, target, args.batch, args.probes,
                                 args.optimise, timeout, args.profile, python=sides[side][0])
                    if r["status"] == "ok" and _tree_of(r["engine_dir"]) != sides[side][1]:
                        raise SystemExit(f"--against: the {side} run imported puzzle_engine from "
                                         f"{r['engine_dir']}, not from {sides[side][1]}")
                    return {**r, "revision": side}
                where = f"{args.puzzle} {size} {solver} target {target or '-'}"
                if args.fzn_cache:
                    for side in sides:
                        _progress(f"{side} {where} seed 1, warm-up, not counted", case(side, 1))
                seeds = []
                for seed in range(1, n + 1):
                    runs: dict[str, list[dict]] = {"new": [], "old": []}
                    for k in range(args.rounds):
                        for side in (("new", "old") if (seed + k) % 2 else ("old", "new")):
                            r = {**case(side, seed), "round": k + 1}
                            runs[side].append(r)
                            _progress(f"{side} {where} seed {seed}", r)
                            if sink:
                                sink.write(json.dumps(r) + "\n")
                                sink.flush()
                    grids = {(r["revision"], r["grid"]) for rs in runs.values() for r in rs
                             if r["status"] == "ok"}
                    if len({g for _, g in grids}) > 1:
                        line = (f"!!! DIFFERENT PUZZLES: {args.puzzle} {size}x{size} {solver} "
                                f"target {target or '-'} seed {seed}: "
                                + "; ".join(f"{side} {g}" for side, g in sorted(grids)))
                        differ.append(line)
                        print(line, file=sys.stderr, flush=True)
                    seeds.append(runs)
                    all_notes += notes(runs["new"] + runs["old"], timeout)
                text, ratios = against_row(size, solver, target, seeds)
                print(text, flush=True)
                seed_lines.append(f"{size:>5} {solver:>8} per-seed new/old: "
                                  + " ".join(f"{x:.3f}" for x in ratios))
    finally:
        if sink:
            sink.close()
    for line in seed_lines:
        print(f"# {line}")
    for line in all_notes:
        print(f"# {line}")
    for line in differ:
        print(f"# {line}")
    if differ:
        print(f"# !!! {len(differ)} seed(s) made different puzzles on the two revisions")
    print(f"# load average {_load()} at end (1, 5, 15 min; "
          "the benchmark itself accounts for about 1)")
    return 1 if differ else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--puzzle", default="sudoku", help="puzzle type (default sudoku)")
    ap.add_argument("--sizes", default="9,16", help="board sides, comma-separated (default 9,16)")
    ap.add_argument("--target-empty", default="", metavar="N,N...",
                    help="stop each puzzle once N squares are empty; one row per N "
                         "(default: run to a minimal puzzle)")
    ap.add_argument("--solvers", default="gecode,chuffed",
                    help="MiniZinc solvers, comma-separated (default gecode,chuffed); "
                         "SOLVER+NAME=VALUE also sets a puzzle parameter, e.g. "
                         "chuffed+logic_only=true (a row and a ratio of its own)")
    ap.add_argument("--seeds", type=int, default=5, help="seeds 1..N per size and solver (default 5)")
    ap.add_argument("--seeds-25", type=int, default=None, metavar="N",
                    help="seeds for sizes of 25 and above (default: --seeds)")
    ap.add_argument("--timeout", type=float, default=900,
                    help="kill a case after this many seconds; 0 = never (default 900)")
    ap.add_argument("--json", metavar="FILE", help="also write every case as JSON Lines to FILE")
    ap.add_argument("--batch", type=int, default=16,
                    help="squares per solver call, as gen --batch (default 16; 1 = one by one)")
    ap.add_argument("--probes", type=int, default=2,
                    help="solver calls at once while bisecting, as gen --probes (default 2)")
    ap.add_argument("--peers", action=argparse.BooleanOptionalAction, default=True,
                    help="also time the peers installed by benchmarks/setup_peers.sh and print "
                         "the ratios (default on; --no-peers to skip)")
    ap.add_argument("--sgt-solo-options", default="", metavar="OPTS",
                    help="appended to sgt-solo's parameters CxR, e.g. 'adu' (no symmetry, "
                         "difficulty Unreasonable); default: Solo's defaults")
    ap.add_argument("--fzn-cache", action=argparse.BooleanOptionalAction, default=True,
                    help="let cases share the FlatZinc cache, as gen does (default on); "
                         "--no-fzn-cache makes every case compile its model")
    ap.add_argument("--throughput", type=int, default=0, metavar="K",
                    help="also time 'puzzle-engine gen --count K' per size and solver with one "
                         "worker and with --workers (default 0: skip)")
    ap.add_argument("--cli", action=argparse.BooleanOptionalAction, default=True,
                    help="also time every case as the user runs it, 'puzzle-engine gen ... "
                         "--seed S' in a fresh process, and give its ratio to the peers "
                         "(default on; --no-cli to skip)")
    ap.add_argument("--count-per-process", type=int, default=0, metavar="N",
                    help="also time N puzzles made in one process, ours ('gen --count N') "
                         "against each peer's ('--generate N'), per size and solver (default "
                         "0: skip)")
    ap.add_argument("--workers", type=int, default=2,
                    help="workers for --throughput (default 2)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of each --throughput command, the median is shown (default 3)")
    ap.add_argument("--optimise", action=argparse.BooleanOptionalAction, default=True,
                    help="find a run's first failing square in one optimising call, as gen "
                         "--optimise (default); --no-optimise bisects, as gen --bisect")
    ap.add_argument("--profile", type=int, default=0, metavar="N",
                    help="profile every case (cProfile, main thread) and print its N functions "
                         "with the most own time after its line (default 0: off)")
    ap.add_argument("--against", metavar="REV",
                    help="side by side with the git revision REV: every case runs on this tree "
                         "and on REV (a worktree and a venv copy made once in --against-dir), "
                         "seed by seed, and one table gives both and their ratio")
    ap.add_argument("--against-dir", default=str(AGAINST_DIR), metavar="DIR",
                    help="where --against keeps its worktrees and venvs (default "
                         "benchmarks/.against, ignored by git)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="with --against: runs of each seed on each revision (default 1)")
    ap.add_argument("--one", metavar="PUZZLE,SIZE,SOLVER,SEED,TARGET,BATCH,PROBES,OPTIMISE,PROFILE",
                    help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.one:
        puzzle, size, solver, seed, target, batch, probes, optimise, profile = args.one.split(",")
        print(json.dumps(one(puzzle, int(size), solver, int(seed), int(target) or None, int(batch),
                             int(probes), optimise == "1", int(profile))))
        return

    if not args.fzn_cache:
        os.environ["PUZZLE_ENGINE_FZN_CACHE"] = "off"   # inherited by every case
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    solvers = [s.strip() for s in args.solvers.split(",") if s.strip()]
    timeout = args.timeout or None
    targets = [int(t) for t in args.target_empty.split(",") if t.strip()] or [None]
    if args.against:
        if args.throughput:
            ap.error("--throughput is not measured with --against")
        if args.rounds < 1:
            ap.error("--rounds must be 1 or more")
        sys.exit(against(args, sizes, solvers, targets, timeout))   # no peers: they do not change
    for line in environment(solvers):
        print(f"# {line}")
    print(f"# puzzle: {args.puzzle}; --batch {args.batch}; --probes {args.probes}; "
          f"{'--optimise' if args.optimise else '--no-optimise (bisect)'}; FlatZinc cache "
          f"{'shared (only a first run compiles)' if args.fzn_cache else 'off (every case compiles)'}")
    print("# seconds: Puzzle.seconds, the whole of Engine.generate per puzzle (no solver time "
          "limit); calls, givens: medians over seeds")
    print("# py MB: peak RSS of the Python process (RUSAGE_SELF ru_maxrss); solver MB: peak RSS "
          "of its largest child process (RUSAGE_CHILDREN ru_maxrss,")
    print("#   an upper bound: never below py MB at spawn); both the max over seeds; "
          f"each case in a fresh subprocess, time-out {timeout or 'none'}"
          + (" s" if timeout else ""))
    print(" ".join(f"{name:>{w}}" for name, w in COLUMNS), flush=True)

    peers = [p for p in make_peers(args.sgt_solo_options) if args.peers
             and any(p.handles(args.puzzle, size) for size in sizes)]
    installed = {p.name: p.installed() for p in peers}
    sink = open(args.json, "w") if args.json else None
    all_notes = []
    peer_lines, all_peer_notes, many_lines = [], [], []
    try:
        for size in sizes:
            n = args.seeds_25 if size >= 25 and args.seeds_25 else args.seeds
            cases = [(s, t) for s in solvers for t in targets]
            ours_runs: dict[tuple, list[dict]] = {case: [] for case in cases}
            size_peers = [p for p in peers if p.handles(args.puzzle, size)]
            peer_runs: dict[str, list[dict]] = {p.name: [] for p in size_peers}
            # Seed by seed, ours then the peers: a change of the machine's load falls on both.
            for seed in range(1, n + 1):
                for solver, target in cases:
                    r = run_case(args.puzzle, size, solver, seed, target, args.batch, args.probes,
                                 args.optimise, timeout, args.profile)
                    if args.cli and r["status"] == "ok":
                        r["cli_wall"] = cli_wall(args.puzzle, size, solver, seed, target, timeout)
                    ours_runs[(solver, target)].append(r)
                    _progress(f"{args.puzzle} {size} {solver} target {target or '-'} seed {seed}", r)
                    if sink:
                        sink.write(json.dumps(r) + "\n")
                        sink.flush()
                for peer in (p for p in size_peers if installed[p.name]):
                    r = run_peer(peer, size, seed, targets[0], timeout)
                    peer_runs[peer.name].append(r)
                    msg = (f"{r['seconds']:.3f} s, {r.get('givens')} givens" if r["status"] == "ok"
                           else r["status"] + (f": {r['error']}" if "error" in r else ""))
                    print(f"[peer {peer.name} {args.puzzle} {size} seed {seed}] {msg}",
                          file=sys.stderr, flush=True)
                    if sink:
                        sink.write(json.dumps(r) + "\n")
                        sink.flush()
            ours: dict[str, list[dict]] = {}    # our runs at the first target, per solver
            for (solver, target), runs in ours_runs.items():
                print(row(size, solver, target, runs, timeout), flush=True)
                all_notes += notes(runs, timeout)
                if target == targets[0]:
                    ours[solver] = runs
            for peer in size_peers:
                if not installed[peer.name]:
                    peer_lines.append(peer_missing_row(size, peer))
                    continue
                runs = peer_runs[peer.name]
                peer_lines.append(peer_row(size, peer, runs, ours, solvers, timeout))
                all_peer_notes += peer_notes(runs, timeout)
            if args.count_per_process:
                for solver in solvers:
                    many_lines.append(per_process(args.puzzle, size, solver, args.count_per_process,
                                                  [p for p in size_peers if installed[p.name]],
                                                  args.repeat, timeout))
    finally:
        if sink:
            sink.close()
    for line in all_notes:
        print(f"# {line}")
    if peers:
        print_peers(peers, installed, peer_lines, all_peer_notes, solvers, targets[0], args.cli)
    if many_lines:
        print("#")
        print(f"# several puzzles in one process: 'puzzle-engine gen {args.puzzle} --size N "
              f"--count {args.count_per_process} --seed 1' against each peer's own "
              f"--generate {args.count_per_process}; wall seconds of the whole process / "
              f"{args.count_per_process} (start-up included, spread over the puzzles), median "
              f"of {args.repeat} runs each, taken in turn")
        for line in many_lines:
            print(line)
    if args.throughput:
        print("#")
        print(f"# batch throughput: wall seconds of 'puzzle-engine gen {args.puzzle} --size N "
              f"--count {args.throughput} --seed 100', start-up included;")
        print(f"#   1 worker with --probes 1 (one core), 1 worker (--probes 2, the default), "
              f"--workers {args.workers} (--probes 1 each), median of {args.repeat} runs each, "
              "taken in turn; speed-up of the last")
        print(f"{'size':>5} {'solver':>8} {'puzzles':>7} {'1w 1p s':>9} {'1w s':>9} "
              f"{f'{args.workers}w s':>9} {'vs 1w 1p':>10} {'vs 1w':>10} {'same':>5}", flush=True)
        for size in sizes:
            for solver in solvers:
                print(throughput(args.puzzle, size, solver, args.throughput, args.workers,
                                 args.repeat, timeout), flush=True)
    print(f"# load average {_load()} at end (1, 5, 15 min; "
          "the benchmark itself accounts for about 1)")


# -- the command as a user runs it ---------------------------------------------------------
def gen_command(puzzle: str, size: int, solver: str, seed: int, target: int | None,
                count: int = 1) -> list[str]:
    """``puzzle-engine gen`` for one case: the solver, its puzzle parameters as options."""
    name, extra = split_solver(solver)
    args = [str(Path(sys.executable).with_name("puzzle-engine")), "gen", puzzle, "--size",
            str(size), "--solver", name, "--seed", str(seed), "--count", str(count),
            "--format", "line"]
    for key, value in extra.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            args.append(flag)
        elif value is not False:
            args += [flag, str(value)]
    if target:
        args += ["--target-empty", str(target)]
    return args


def cli_wall(puzzle: str, size: int, solver: str, seed: int, target: int | None,
             timeout: float | None) -> float | None:
    """Wall seconds of ``gen_command`` (None when it fails or times out)."""
    start = time.perf_counter()
    try:
        proc = subprocess.run(gen_command(puzzle, size, solver, seed, target),
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    return time.perf_counter() - start if proc.returncode == 0 else None


def per_process(puzzle: str, size: int, solver: str, count: int, peers: list[Peer],
                repeat: int, timeout: float | None) -> str:
    """One line: seconds per puzzle of ``gen --count`` and of each peer's ``--generate``
    of ``count`` puzzles (whole process / count, median of ``repeat`` runs in turn)."""
    commands = [("ours", gen_command(puzzle, size, solver, 1, None, count))]
    commands += [(p.name, p.command_many(size, 1, count)) for p in peers
                 if p.command_many(size, 1, count)]
    times: dict[str, list[float]] = {name: [] for name, _ in commands}
    for _ in range(repeat):
        for name, command in commands:
            start = time.perf_counter()
            try:
                proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                return f"{size:>5} {solver}: {name} timed out after {timeout} s"
            if proc.returncode != 0:
                return f"{size:>5} {solver}: {name} failed: {proc.stderr.strip()[:200]}"
            times[name].append(time.perf_counter() - start)
    each = {name: statistics.median(t) / count for name, t in times.items()}
    text = f"{size:>5} {solver}: ours {each['ours']:.4f} s a puzzle"
    for name in each:
        if name != "ours":
            text += (f"; {name} {each[name]:.4f} s a puzzle, "
                     f"ours/{name} {_ratio(each['ours'] / each[name])}")
    return text


# -- batch throughput with --workers ------------------------------------------------------
THROUGHPUT_RUNS = (("1 worker, --probes 1", ("--workers", "1", "--probes", "1")),
                   ("1 worker", ("--workers", "1")),
                   ("WORKERS workers", ("--workers", "WORKERS")))


def throughput(puzzle: str, size: int, solver: str, count: int, workers: int, repeat: int,
               timeout: float | None) -> str:
    """One row: wall seconds of ``puzzle-engine gen`` making ``count`` puzzles (seeds from
    100) with one worker and one probe, one worker (default probes) and ``workers`` workers,
    each the median of ``repeat`` runs (taken in turn), and the last one's throughput
    against each of the first two. Every output must be the same puzzles."""
    exe = Path(sys.executable).with_name("puzzle-engine")
    base = [str(exe), "gen", puzzle, "--size", str(size), "--solver", solver, "--count", str(count),
            "--seed", "100", "--format", "line"]
    runs: list[list[float]] = [[] for _ in THROUGHPUT_RUNS]
    outputs = []
    for _ in range(repeat):
        for k, (_, extra) in enumerate(THROUGHPUT_RUNS):
            args = [a.replace("WORKERS", str(workers)) for a in extra]
            start = time.perf_counter()
            try:
                proc = subprocess.run(base + args, capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                return f"{size:>5} {solver:>8} {count:>7}  time-out after {timeout} s"
            runs[k].append(time.perf_counter() - start)
            if proc.returncode != 0:
                return f"{size:>5} {solver:>8} {count:>7}  failed: {proc.stderr.strip()[:200]}"
            outputs.append(proc.stdout)
    times = [statistics.median(r) for r in runs]
    same = "yes" if all(o == outputs[0] for o in outputs) else "NO"
    return (f"{size:>5} {solver:>8} {count:>7} {times[0]:>9.2f} {times[1]:>9.2f} {times[2]:>9.2f} "
            f"{times[0] / times[2]:>9.2f}x {times[1] / times[2]:>9.2f}x {same:>5}")


def print_peers(peers: list[Peer], installed: dict[str, bool], lines: list[str],
                notes_: list[str], solvers: list[str], target: int | None,
                cli: bool = False) -> None:
    print("#")
    print("# peers (benchmark-only, installed by benchmarks/setup_peers.sh), the same seeds, "
          "one process per puzzle:")
    for p in peers:
        print(f"#   {p.name}: {p.version() if installed[p.name] else NOT_INSTALLED}")
    print("# peer seconds: wall time of the peer's process, start-up included; SOLVER/peer: our "
          "median seconds (Python start-up excluded) / the peer's median;")
    print("#   SOLVER wall/peer: our median wall time of the whole subprocess (Python start-up "
          "included) / the peer's median")
    if cli:
        print("#   SOLVER cli/peer: our median wall time of 'puzzle-engine gen PUZZLE --size N "
              "--seed S ...' (the command a user runs, start-up included) / the peer's median")
    if target:
        print(f"# ours at --target-empty {target}; z3 stops there too, the other peers make "
              "their own finished puzzles")
    print(" ".join(f"{name:>{w}}" for name, w in peer_columns(solvers, cli)))
    for line in lines:
        print(line)
    for line in notes_:
        print(f"# {line}")


if __name__ == "__main__":
    main()
