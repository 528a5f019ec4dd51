"""Issue 39's targets (solver sessions), each against its peer in the same interleaved run.

    .venv/bin/python benchmarks/bench_sessions.py --list
    .venv/bin/python benchmarks/bench_sessions.py sudoku9 [--count 100] [--rounds 1] [--solver chuffed]
    .venv/bin/python benchmarks/bench_sessions.py all --json benchmarks/results/sessions.jsonl
    .venv/bin/python benchmarks/bench_sessions.py regress --base /tmp/base      # needs --base

One subcommand per row of the issue's "Targets" (``--list`` names them with their
targets), and ``all`` for every row in turn. Each row prints the commands it runs, then one
line per figure: ours, the peer's (when the row has one), their ratio and the target, and
at the end a Markdown table of every figure (for docs/performance.md).

Every measured command is a whole process, start-up included, run in a session of its
own: wall seconds, CPU seconds (user + system of the process and of its children, from
``os.wait4``) and peak resident memory (the largest ``ru_maxrss`` of the process and its
children). Where the figure is per puzzle inside a process (explaining), the script is
``bench_explain.py`` and the CPU is what it measured around each puzzle. A time-out or
Ctrl-C stops the whole process group; nothing outlives the script.

``--base PATH`` runs the same rows on another checkout as well, interleaved with this one
(the two take turns, round by round, so the load of a shared machine falls on both):
PATH is a checkout of the repository (its ``engine``, ``plugins`` and ``models_mzn`` are
put on ``PYTHONPATH`` through a temporary folder of links, with this tree's virtual
environment) or, when ``PATH/.venv/bin/python`` exists, that checkout's own virtual
environment. The rows then give head/base as well; ``regress`` needs it.

Peers (benchmark-only, ``bash benchmarks/setup_peers.sh``): qqwing and sgt-solo
(Debian), Sukaku Explainer (built from the project's shared peers folder when a JDK is
there), PuzzleClone (``PUZZLECLONE=SNAPSHOT bash benchmarks/setup_peers.sh``). A peer that
is missing is said so, and its row gives our figure alone.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from peers import NOT_INSTALLED, QQWing, SgtSolo  # noqa: E402

CLI_CODE = "from puzzle_engine.cli import main; main()"
PEERS_PYTHON = HERE / ".peers-venv" / "bin" / "python"
SE_CLASSES = HERE / ".peers" / "sukaku-explainer"
PUZZLECLONE = HERE / ".puzzleclone"
LOGIC_SPECS = ROOT / "plugins" / "logic" / "specs"
LINKS = {"puzzle_engine": "engine", "puzzle_engine_plugins": "plugins",
         "puzzle_engine_models": "models_mzn"}


# -- the trees: this checkout, and another one with --base ---------------------------------------
@dataclass
class Tree:
    """A checkout to run: its Python and the environment that makes it import that tree."""
    name: str
    root: Path
    python: str
    env: dict[str, str]

    def cli(self, *args: str) -> list[str]:
        return [self.python, "-c", CLI_CODE, *args]

    def script(self, name: str, *args: str) -> list[str]:
        return [self.python, str(HERE / name), *args]


def head_tree() -> Tree:
    return Tree("head", ROOT, sys.executable, dict(os.environ))


def base_tree(path: Path, stack: contextlib.ExitStack) -> Tree:
    """``path`` as a tree: its own venv if it has one, else its packages on PYTHONPATH."""
    path = path.resolve()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    venv = path / ".venv" / "bin" / "python"
    if venv.exists():
        tree = Tree("base", path, str(venv), env)
    elif all((path / folder).is_dir() for folder in LINKS.values()):
        links = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-base-")))
        for name, folder in LINKS.items():
            (links / name).symlink_to(path / folder)
        tree = Tree("base", path, sys.executable, {**env, "PYTHONPATH": str(links)})
    elif (path / "puzzle_engine").is_dir():      # a folder of links already (bench_hint_combination)
        tree = Tree("base", (path / "puzzle_engine").resolve().parent, sys.executable,
                    {**env, "PYTHONPATH": str(path)})
    else:
        raise SystemExit(f"bench_sessions: error: --base {path}: not a checkout (no engine/, "
                         "plugins/, models_mzn/) nor a folder holding puzzle_engine/")
    where = subprocess.run([tree.python, "-c", "import os, puzzle_engine; "
                            "print(os.path.realpath(puzzle_engine.__file__))"],
                           capture_output=True, text=True, env=tree.env)
    found = where.stdout.strip()
    if where.returncode != 0 or not found.startswith(str(tree.root) + os.sep):
        raise SystemExit(f"bench_sessions: error: --base {path}: imports puzzle_engine from "
                         f"{found or where.stderr.strip()[-200:]}, not from that tree")
    return tree


# -- one measured process -----------------------------------------------------------------------
@dataclass
class Run:
    wall: float
    cpu: float
    mb: float
    code: int | None
    out: str
    err: str
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        return self.code == 0 and not self.timed_out

    def why(self) -> str:
        if self.timed_out:
            return f"timed out after {self.wall:.0f} s, {self.cpu:.0f} s of CPU (stopped)"
        lines = [ln for ln in self.err.strip().splitlines() if ln.strip()]
        return f"exit {self.code}: {lines[-1][:200] if lines else 'no message'}"


def _stop(pid: int) -> tuple[int, object]:
    """SIGTERM the process group, SIGKILL it after 5 s; reap the leader."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGTERM)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.05)
    else:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
        _, status, usage = os.wait4(pid, 0)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)     # whatever of the group is left
    return status, usage


def measure(cmd: list[str], env: dict[str, str] | None = None, cwd: str | Path | None = None,
            timeout: float | None = None) -> Run:
    """Run ``cmd`` in a session of its own; its wall and CPU seconds (itself and its
    children) and peak memory. A time-out or Ctrl-C stops the whole group."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env,
                                cwd=cwd, start_new_session=True)
        timed_out = False
        try:
            while True:
                done, status, usage = os.wait4(proc.pid, os.WNOHANG)
                if done:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(proc.pid, signal.SIGKILL)   # nothing of it outlives it
                    break
                if timeout and time.perf_counter() - start > timeout:
                    timed_out = True
                    status, usage = _stop(proc.pid)
                    break
                time.sleep(0.005)
        except BaseException:
            _stop(proc.pid)
            proc.returncode = -1
            raise
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                   proc.returncode, out.read().decode(errors="replace"),
                   err.read().decode(errors="replace"), timed_out)


def interleaved(rounds: int, cases: list[tuple[str, Callable[[int], Run]]],
                label: str = "") -> dict[str, list[Run]]:
    """Each case once a round, the order turned by one each round; ``fn(round)``."""
    runs: dict[str, list[Run]] = {name: [] for name, _ in cases}
    for r in range(rounds):
        k = r % len(cases)
        for name, fn in cases[k:] + cases[:k]:
            run = fn(r)
            runs[name].append(run)
            state = "" if run.ok else f"  {run.why()}"
            print(f"  {label}round {r + 1} {name:12} {run.wall:8.2f} s wall {run.cpu:8.2f} s CPU "
                  f"{run.mb:7.0f} MB{state}", file=sys.stderr, flush=True)
    return runs


# -- figures ------------------------------------------------------------------------------------
@dataclass
class Figure:
    """One line of a row: our figure (per tree), the peer's, and the target."""
    row: str
    what: str
    command: str
    unit: str
    ours: dict[str, float | None]
    peer_name: str = ""
    peer: float | None = None
    higher: bool = False               # a rate: more is better
    target: str = ""                   # "ratio<=4", "ratio>=1", "value<=20", or ""
    note: str = ""
    extra: dict = field(default_factory=dict)

    def ratio(self) -> float | None:
        head = self.ours.get("head")
        if head is None or not self.peer:
            return None
        return head / self.peer

    def met(self) -> bool | None:
        if not self.target:
            return None
        kind, _, limit = re.match(r"(ratio|value)(<=|>=)([\d.]+)", self.target).groups()
        value = self.ratio() if kind == "ratio" else self.ours.get("head")
        if value is None:
            return None
        return value <= float(limit) if _ == "<=" else value >= float(limit)

    def cells(self) -> dict[str, str]:
        ratio = self.ratio()
        base = self.ours.get("base")
        head = self.ours.get("head")
        met = self.met()
        return {
            "row": self.row, "what": self.what, "command": f"`{self.command}`",
            "ours": _num(head, self.unit), "peer": (f"{self.peer_name} {_num(self.peer, self.unit)}"
                                                     if self.peer_name else "—"),
            "ratio": f"{ratio:.2f}x" if ratio is not None else "—",
            "target": (_target_text(self.target, self.unit) +
                       ("" if met is None else (" (met)" if met else " (not met)"))) or "—",
            "base": _num(base, self.unit) if "base" in self.ours else "",
            "head/base": (f"{head / base:.2f}" if head is not None and base else
                          ("—" if "base" in self.ours else "")),
        }


def _num(value: float | None, unit: str) -> str:
    if value is None:
        return "n/a"
    digits = 3 if abs(value) < 1 else (2 if abs(value) < 10 else 1)
    return f"{value:.{digits}f} {unit}"


def _target_text(target: str, unit: str) -> str:
    if not target:
        return ""
    kind, op, limit = re.match(r"(ratio|value)(<=|>=)([\d.]+)", target).groups()
    word = "at most" if op == "<=" else "at least"
    return f"{word} {limit}x the peer" if kind == "ratio" else f"{word} {limit} {unit}"


def show(figure: Figure) -> Figure:
    c = figure.cells()
    text = f"{figure.row}: {figure.what}: ours {c['ours']}"
    if figure.peer_name:
        text += f"; {c['peer']}; ratio {c['ratio']}"
    if "base" in figure.ours:
        text += f"; base {c['base']}; head/base {c['head/base']}"
    if figure.target:
        text += f"; target {c['target']}"
    if figure.note:
        text += f"  [{figure.note}]"
    print(text, flush=True)
    return figure


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _shown(cmd: list[str]) -> str:
    """A command as a user types it: ``puzzle-engine ...`` for our CLI."""
    if len(cmd) > 2 and cmd[1:3] == ["-c", CLI_CODE]:
        cmd = ["puzzle-engine", *cmd[3:]]
    elif len(cmd) > 1 and cmd[1].startswith(str(HERE)):
        cmd = [".venv/bin/python", os.path.relpath(cmd[1], ROOT), *cmd[2:]]
    return " ".join(cmd)


def _tell(cmd: list[str]) -> str:
    text = _shown(cmd)
    print(f"$ {text}", flush=True)
    return text


# -- the rows -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    name: str
    what: str
    target: str
    options: tuple[tuple[tuple[str, ...], dict], ...]
    run: Callable[[argparse.Namespace, list[Tree]], list[Figure]]
    needs_base: bool = False


ROWS: dict[str, Row] = {}


def row(name: str, what: str, target: str, *options: tuple[tuple[str, ...], dict],
        needs_base: bool = False):
    def register(fn):
        ROWS[name] = Row(name, what, target, options, fn, needs_base)
        return fn
    return register


def opt(*flags: str, **kwargs) -> tuple[tuple[str, ...], dict]:
    return flags, kwargs


def _solver(args) -> list[str]:
    return ["--solver", args.solver] if args.solver else []


def _lines(run: Run) -> int:
    return sum(1 for ln in run.out.splitlines() if ln.strip())


def _many(args, trees: list[Tree], name: str, size: int, count: int, peer) -> list[Figure]:
    """``gen sudoku --count`` in one process per tree, against the peer's --generate."""
    gen = ["gen", "sudoku", "--size", str(size), "--count", str(count), "--seed", "1",
           "--format", "line", *_solver(args)]
    command = _tell(trees[0].cli(*gen))
    cases = [(t.name, lambda r, t=t: measure(t.cli(*gen), t.env, timeout=args.timeout))
             for t in trees]
    if peer.installed():
        _tell(peer.command_many(size, 1, count))
        cases.append((peer.name, lambda r: measure(peer.command_many(size, 1, count),
                                                   timeout=args.timeout)))
    runs = interleaved(args.rounds, cases)
    ok = {n: [r for r in rs if r.ok and (n == peer.name or _lines(r) == count)]
          for n, rs in runs.items()}
    note = "" if peer.installed() else f"{peer.name} {NOT_INSTALLED}"
    bad = [f"{n}: {r.why() if not r.ok else f'{_lines(r)} lines, not {count}'}"
           for n, rs in runs.items() for r in rs if r not in ok[n]]
    note = "; ".join([note, *bad]).strip("; ")
    out = []
    for what, key, target in (("wall s", "wall", args.target), ("CPU s", "cpu", "")):
        out.append(show(Figure(
            name, f"{count} Sudoku {size}x{size}, one process, {what}", command, "s",
            {t.name: _median([getattr(r, key) for r in ok[t.name]]) for t in trees},
            peer.name if peer.installed() else "",
            _median([getattr(r, key) for r in ok.get(peer.name, [])]),
            target=target, note=note, extra={"rounds": args.rounds})))
    return out


@row("sudoku9", "Sudoku 9x9 (100 in the issue) in one process, start-up included, against qqwing",
     "at most 4x qqwing --generate 100 --one-line (wall)",
     opt("--count", type=int, default=50, help="puzzles (50; the issue's: 100)"),
     opt("--rounds", type=int, default=1, help="interleaved rounds (1)"),
     opt("--target", default="ratio<=4", help=argparse.SUPPRESS))
def sudoku9(args, trees):
    return _many(args, trees, "sudoku9", 9, args.count, QQWing())


@row("sudoku16", "Sudoku 16x16 (10 in the issue) in one process, against Tatham's Solo (not minimal)",
     "at most 10x sgt-solo --generate 10 4x4 (wall)",
     opt("--count", type=int, default=5, help="puzzles (5; the issue's: 10)"),
     opt("--rounds", type=int, default=1, help="interleaved rounds (1)"),
     opt("--target", default="ratio<=10", help=argparse.SUPPRESS))
def sudoku16(args, trees):
    return _many(args, trees, "sudoku16", 16, args.count, SgtSolo())


def _seeded(args, trees: list[Tree], name: str, gen: list[str], peer=None,
            peer_size: int = 0) -> dict[str, list[Run]]:
    """One process per seed and tree (and the peer's of that seed), seed by seed, the
    order turned each seed."""
    _tell(trees[0].cli(*gen, "--seed", "S"))
    cases = [(t.name, lambda s, t=t: measure(t.cli(*gen, "--seed", str(s + 1)), t.env,
                                             timeout=args.timeout)) for t in trees]
    if peer is not None and peer.installed():
        _tell(peer.command(peer_size, 1, None))     # #1: the seed, S for seed S
        cases.append((peer.name, lambda s: measure(peer.command(peer_size, s + 1, None),
                                                   timeout=args.timeout)))
    return interleaved(args.seeds, cases, "seed-")


def _seed_median(runs: list[Run], key: str) -> float | None:
    """The median over seeds, a seed stopped by the time-out counting as slower than
    every finished one (not left out: that would favour the slow); None when the median
    is a stopped seed, or a seed failed."""
    if any(not r.ok and not r.timed_out for r in runs) or not runs:
        return None
    values = sorted(getattr(r, key) if r.ok else float("inf") for r in runs)
    middle = statistics.median(values)
    return None if middle == float("inf") else middle


def _failures(runs: dict[str, list[Run]]) -> str:
    return "; ".join(f"{n} seed {k + 1}: {r.why()}" for n, rs in runs.items()
                     for k, r in enumerate(rs) if not r.ok)


@row("sudoku25", "Sudoku 25x25, CPU seconds (median over seeds) and one worker's peak "
     "memory, with sgt-solo 5x5 in the same run",
     "at most 20 s of CPU (median of 5 seeds); at most 500 MB",
     opt("--seeds", type=int, default=1, help="seeds 1..N (1; the issue asks for 5)"))
def sudoku25(args, trees):
    gen = ["gen", "sudoku", "--size", "25", "--count", "1", "--format", "line", *_solver(args)]
    peer = SgtSolo()
    runs = _seeded(args, trees, "sudoku25", gen, peer, 25)
    command = _shown(trees[0].cli(*gen, "--seed", "S"))
    ok = {n: [r for r in rs if r.ok] for n, rs in runs.items()}
    note = "; ".join(x for x in [_failures(runs), "" if peer.installed() else
                                 f"{peer.name} {NOT_INSTALLED}",
                                 f"{args.seeds} seed(s)"] if x)
    has_peer = peer.installed()
    return [show(Figure("sudoku25", f"25x25 CPU s, median of {args.seeds} seed(s)", command, "s",
                        {t.name: _seed_median(runs[t.name], "cpu") for t in trees},
                        peer.name if has_peer else "",
                        _seed_median(runs.get(peer.name, []), "cpu"), target="value<=20",
                        note=note)),
            show(Figure("sudoku25", f"25x25 wall s, median of {args.seeds} seed(s)", command, "s",
                        {t.name: _seed_median(runs[t.name], "wall") for t in trees},
                        peer.name if has_peer else "",
                        _seed_median(runs.get(peer.name, []), "wall"))),
            show(Figure("sudoku25", "25x25 peak memory of one worker (max over seeds)", command,
                        "MB", {t.name: max((r.mb for r in ok[t.name]), default=None)
                               for t in trees}, target="value<=500"))]


@row("fillomino12", "Fillomino 12x12 exact, CPU seconds (median over seeds)",
     "at most 5 s of CPU (median of 5 seeds)",
     opt("--seeds", type=int, default=3, help="seeds 1..N (3; the issue asks for 5)"))
def fillomino12(args, trees):
    gen = ["gen", "fillomino", "--size", "12", "--count", "1", "--format", "line",
           *_solver(args)]
    runs = _seeded(args, trees, "fillomino12", gen)
    note = "; ".join(x for x in [_failures(runs), f"{args.seeds} seed(s)"] if x)
    command = _shown(trees[0].cli(*gen, "--seed", "S"))
    return [show(Figure("fillomino12", f"12x12 CPU s, median of {args.seeds} seed(s)", command,
                        "s", {t.name: _seed_median(runs[t.name], "cpu") for t in trees},
                        target="value<=5", note=note)),
            show(Figure("fillomino12", f"12x12 wall s, median of {args.seeds} seed(s)", command,
                        "s", {t.name: _seed_median(runs[t.name], "wall") for t in trees}))]


def _puzzleclone(args, stack: contextlib.ExitStack) -> Path | None:
    """PuzzleClone's folder: as given, or a bare git directory extracted into a temporary
    folder (bench_puzzleclone_specs.py's way), or benchmarks/.puzzleclone."""
    where = args.puzzleclone or (PUZZLECLONE if (PUZZLECLONE / "translator.py").exists() else None)
    if where is None:
        return None
    if (where / "HEAD").is_file() and (where / "objects").is_dir():
        from bench_puzzleclone_specs import extract
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-pc-")))
        where = extract(where, tmp)
    if not (where / "translator.py").exists():
        raise SystemExit(f"bench_sessions: error: --puzzleclone {where}: no translator.py")
    return where


@row("logic", "puzzles per second on the wine merchant and house number specs, against "
     "PuzzleClone (z3 in its process) on the same spec files",
     "at least PuzzleClone's puzzles per second (ratio >= 1)",
     opt("--specs", default="wine-merchant,house-number", help="shipped spec names"),
     opt("--count", type=int, default=3, help="puzzles per run (3)"),
     opt("--rounds", type=int, default=1, help="interleaved rounds (1)"),
     opt("--puzzleclone", type=Path, help="PuzzleClone: a folder or a bare git directory "
         "(default: benchmarks/.puzzleclone, made by setup_peers.sh with PUZZLECLONE=...)"),
     opt("--puzzleclone-python", default=str(PEERS_PYTHON),
         help="the Python with PuzzleClone's requirements (benchmarks/.peers-venv)"))
def logic(args, trees):
    out = []
    with contextlib.ExitStack() as stack:
        pc = _puzzleclone(args, stack)
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-logic-")))
        for spec in args.specs.split(","):
            path = LOGIC_SPECS / f"{spec}.yaml"
            gen = ["gen", "logic", "--spec", str(path), "--count", str(args.count),
                   "--format", "json", *_solver(args)]
            command = _tell(trees[0].cli(*gen, "--seed", "R"))
            cases = [(t.name, lambda r, t=t: measure(t.cli(*gen, "--seed", str(r + 1)), t.env,
                                                     timeout=args.timeout)) for t in trees]
            made: dict[int, int] = {}

            def theirs(r, path=path):
                target = tmp / f"{path.stem}-{r}.jsonl"
                run = measure([args.puzzleclone_python, "translator.py", "-d", str(path),
                               "-n", str(args.count), "-o", str(target)], cwd=pc,
                              timeout=args.timeout)
                made[id(run)] = (len(target.read_text().splitlines())
                                 if target.exists() else 0)
                return run

            if pc is not None:
                _tell([args.puzzleclone_python, "translator.py", "-d", str(path), "-n",
                       str(args.count), "-o", "OUT"])
                cases.append(("puzzleclone", theirs))
            runs = interleaved(args.rounds, cases, f"{spec} ")

            def rate(name: str, r: Run) -> float:
                n = made.get(id(r), 0) if name == "puzzleclone" else \
                    sum(1 for ln in r.out.splitlines() if ln.startswith("{"))
                return n / r.wall

            rates = {n: [rate(n, r) for r in rs if r.ok or (n == "puzzleclone" and made.get(id(r)))]
                     for n, rs in runs.items()}
            note = "; ".join(x for x in [_failures(runs), "" if pc else
                                         "PuzzleClone not found (PUZZLECLONE=SNAPSHOT bash "
                                         "benchmarks/setup_peers.sh)"] if x)
            out.append(show(Figure(
                "logic", f"{spec} puzzles/s ({args.count} a process, start-up included)",
                command, "/s", {t.name: _median(rates[t.name]) for t in trees},
                "puzzleclone" if pc else "", _median(rates.get("puzzleclone", [])),
                higher=True, target="ratio>=1", note=note)))
    return out


@row("polyomino", "Polyomino Math 5x6, the whole command, warm FlatZinc cache, CPU seconds",
     "at most 1 s of CPU",
     opt("--rounds", type=int, default=2, help="timed runs per tree (2)"),
     opt("--seed", type=int, default=1, help="the board's seed (1)"))
def polyomino(args, trees):
    gen = ["gen", "polyomino-math", "--count", "1", "--format", "line", "--seed",
           str(args.seed), *_solver(args)]
    command = _tell(trees[0].cli(*gen))
    for t in trees:   # the FlatZinc cache warm: one untimed run of the same command first
        measure(t.cli(*gen), t.env, timeout=args.timeout)
    cases = [(t.name, lambda r, t=t: measure(t.cli(*gen), t.env, timeout=args.timeout))
             for t in trees]
    runs = interleaved(args.rounds, cases)
    ok = {n: [r for r in rs if r.ok] for n, rs in runs.items()}
    note = _failures(runs)
    return [show(Figure("polyomino", "5x6 whole command, CPU s (median)", command, "s",
                        {t.name: _median([r.cpu for r in ok[t.name]]) for t in trees},
                        target="value<=1", note=note)),
            show(Figure("polyomino", "5x6 whole command, wall s (median)", command, "s",
                        {t.name: _median([r.wall for r in ok[t.name]]) for t in trees}))]


def _explained(args, trees: list[Tree], tmp: Path, extra: list[str], timeout: float,
               label: str, rate: bool = True) -> tuple[dict[str, list[dict]], dict[str, str], str]:
    """bench_explain.py with ``extra`` (and ``--rate``) on each tree in turn: its records."""
    records, failed = {}, {}
    command = ""
    for t in trees:
        target = tmp / f"{label}-{t.name}.json"
        cmd = t.script("bench_explain.py", *extra, *(["--rate"] if rate else []),
                       "--json", str(target))
        if not command:
            command = _tell(cmd[:-2])
        run = measure(cmd, t.env, timeout=timeout)
        print(f"  {label} {t.name:12} {run.wall:8.2f} s wall {run.cpu:8.2f} s CPU"
              f"{'' if run.ok else '  ' + run.why()}", file=sys.stderr, flush=True)
        records[t.name] = json.loads(target.read_text()) if run.ok and target.exists() else []
        if not run.ok:
            failed[t.name] = run.why()
    return records, failed, command


def _se(puzzles: list[str], tmp: Path, timeout: float | None) -> Run | None:
    if not (SE_CLASSES / "diuf" / "sudoku" / "test" / "serate.class").exists():
        return None
    listing = tmp / "se-puzzles.txt"
    listing.write_text("".join(p + "\n" for p in puzzles))
    cmd = ["java", "-cp", str(SE_CLASSES), "diuf.sudoku.test.serate", "--format=%r",
           f"--input={listing}"]
    _tell(cmd)
    return measure(cmd, timeout=timeout)


@row("explain", "explaining and rating a 9x9 (CPU median, Sukaku Explainer beside it); a "
     "Fillomino 9x9 fully explained; a play page of Sudoku with explained hints",
     "9x9: at most 0.5 s of CPU; Fillomino 9x9: at most 10 s of CPU; page of 100: at most 60 s",
     opt("--per-label", type=int, default=1,
         help="Sudoku puzzles of each of the 4 labels (1: 4 puzzles)"),
     opt("--se-per-label", type=int, default=10,
         help="puzzles of each label Sukaku Explainer rates (10; the JVM's start-up is shared)"),
     opt("--fillomino-timeout", type=float, default=90,
         help="wall seconds for the Fillomino 9x9 (90; stopped past it)"),
     opt("--page-count", type=int, default=3,
         help="Sudoku on the play page (3; the target is for 100: the figure is scaled)"))
def explain(args, trees):
    from bench_explain import puzzles
    out = []
    with tempfile.TemporaryDirectory(prefix="bench-explain-") as name:
        tmp = Path(name)
        records, failed, command = _explained(args, trees, tmp,
                                              ["--per-label", str(args.per_label)],
                                              args.timeout, "sudoku9")
        se = _se([p for _, p in puzzles(args.se_per_label)], tmp, args.timeout)
        count = 4 * args.se_per_label
        se_cpu = se.cpu / count if se is not None and se.ok else None
        if se is None:
            said = f"Sukaku Explainer {NOT_INSTALLED}"
        elif not se.ok:
            said = f"Sukaku Explainer: {se.why()}"
        else:
            said = (f"Sukaku Explainer: the CPU of one process rating {count} puzzles (JVM "
                    f"start-up included) / {count}")
        note = "; ".join([*(f"{n}: {w}" for n, w in failed.items()), said,
                          f"ours: {4 * args.per_label} puzzles"])
        out.append(show(Figure(
            "explain", "9x9 explained and rated, CPU s per puzzle (median)", command, "s",
            {t: _median([r["cpu"] for r in rs]) for t, rs in records.items()},
            "Sukaku Explainer" if se_cpu is not None else "", se_cpu, target="value<=0.5",
            note=note)))

        records, failed, command = _explained(
            args, trees, tmp, ["--puzzle", "fillomino", "--sizes", "9", "--per-label", "1"],
            args.fillomino_timeout, "fillomino9")
        out.append(show(Figure(
            "explain", "Fillomino 9x9 (seed 1) fully explained and rated, CPU s", command, "s",
            {t: _median([r["cpu"] for r in rs]) for t, rs in records.items()},
            target="value<=10", note="; ".join(f"{n}: {w}" for n, w in failed.items()))))

        batch = tmp / "batch.jsonl"
        made = measure(trees[0].cli("gen", "sudoku", "--count", str(args.page_count), "--seed",
                                    "1", "--format", "json", "--out", str(batch)),
                       trees[0].env, timeout=args.timeout)
        if not made.ok:
            raise SystemExit(f"bench_sessions: the page's puzzles: {made.why()}")
        page = ["render", str(batch), "--force", "--out", str(tmp / "page.html")]
        plain = ["render", str(batch), "--no-explain", "--force", "--out", str(tmp / "plain.html")]
        command = _tell(trees[0].cli(*page))
        _tell(trees[0].cli(*plain))
        cases = [(t.name, lambda r, t=t: measure(t.cli(*page), t.env, timeout=args.timeout))
                 for t in trees]
        cases += [(f"{t.name} plain", lambda r, t=t: measure(t.cli(*plain), t.env,
                                                               timeout=args.timeout))
                  for t in trees]
        runs = interleaved(1, cases)
        n = args.page_count
        for what, key in (("wall", "wall"), ("CPU", "cpu")):
            def value(name: str) -> float | None:
                run = runs[name][0]
                return getattr(run, key) if run.ok else None
            plain_head = value(f"{trees[0].name} plain")
            out.append(show(Figure(
                "explain", f"play page of {n} Sudoku with explained hints, {what} s", command,
                "s", {t.name: value(t.name) for t in trees}, "--no-explain", plain_head,
                note=_failures(runs))))

            def per_100(tree: Tree) -> float | None:
                page, plain = value(tree.name), value(f"{tree.name} plain")
                if page is None or plain is None:
                    return None
                return plain + (page - plain) * 100 / n

            out.append(show(Figure(
                "explain", f"play page of 100 with explained hints, {what} s, estimated from "
                f"{n}: plain page + (explained - plain) x 100/{n}", command, "s",
                {t.name: per_100(t) for t in trees},
                target="value<=60" if key == "wall" else "")))
    return out


# -- no regression: head against --base --------------------------------------------------------
@row("regress", "no regression against --base: bench_generate.py --sizes 9,16, the "
     "Combination rate at 5x5, bench_corpus.py throughput, the explain benchmark",
     "head/base at most about 1 (slower only within noise)",
     opt("--seeds", type=int, default=3, help="bench_generate seeds per size (3)"),
     opt("--combination-seconds", type=float, default=150,
         help="seconds of each Combination run (150: a 5x5 growth takes 15 s on an idle "
         "machine, minutes on a loaded one)"),
     opt("--parts", default="gen,combination,corpus,explain",
         help="which parts, comma-separated (gen,combination,corpus,explain)"),
     opt("--corpus-count", type=int, default=20, help="bench_corpus throughput --count (20)"),
     opt("--rounds", type=int, default=1, help="rounds of Combination and corpus (1)"),
     needs_base=True)
def regress(args, trees):
    from bench_combination import run_case as combination_case
    from bench_generate import run_case as generate_case
    out = []
    solver = args.solver or "chuffed"
    parts = set(args.parts.split(","))
    for size in (9, 16) if "gen" in parts else ():
        command = _tell(["bench_generate.py", "--sizes", str(size), "--solvers", solver,
                         "--seeds", str(args.seeds)])
        figures: dict[str, list[dict]] = {t.name: [] for t in trees}
        for seed in range(1, args.seeds + 1):
            order = trees if seed % 2 else trees[::-1]
            for t in order:
                r = generate_case("sudoku", size, solver, seed, None, 16, 2, True, args.timeout,
                                  python=t.python, env=t.env)
                figures[t.name].append(r)
                print(f"  {size}x{size} seed {seed} {t.name:5} "
                      f"{r.get('generate_wall', float('nan')):7.2f} s {r['status']}",
                      file=sys.stderr, flush=True)
        same = all(a.get("grid") == b.get("grid")
                   for a, b in zip(*(figures[t.name] for t in trees)))
        wrong = [f"{t.name} imports {r['engine_dir']}" for t in trees for r in figures[t.name]
                 if r.get("engine_dir") and not r["engine_dir"].startswith(str(t.root))]
        out.append(show(Figure(
            "regress", f"bench_generate {size}x{size} {solver}, s a puzzle (median of "
            f"{args.seeds})", command, "s",
            {t.name: _median([r["generate_wall"] for r in figures[t.name] if r["status"] == "ok"])
             for t in trees},
            note="; ".join(x for x in ["same puzzles" if same else "DIFFERENT PUZZLES", *wrong]
                           if x))))

    if "combination" in parts:
        out += _combination(args, trees, solver, combination_case)
    if "corpus" in parts:
        out.append(_corpus(args, trees))
    if "explain" in parts:
        with tempfile.TemporaryDirectory(prefix="bench-regress-") as name:
            records, failed, command = _explained(args, trees, Path(name), ["--per-label", "1"],
                                                  args.timeout, "explain", rate=False)
        out.append(show(Figure("regress", "explain benchmark, 9x9 CPU s per puzzle (median of 4)",
                               command, "s",
                               {t: _median([r["cpu"] for r in rs]) for t, rs in records.items()},
                               note="; ".join(f"{n}: {w}" for n, w in failed.items()))))
    return out


def _combination(args, trees: list[Tree], solver: str, combination_case) -> list[Figure]:
    """bench_combination.py's 5x5 2-colour case on each tree in turn: levels a minute."""
    command = _tell(["bench_combination.py", "--boards", "5x5", "--colours", "2", "--seconds",
                     str(args.combination_seconds), "--solvers", solver])
    cases: dict[str, list[dict]] = {t.name: [] for t in trees}
    for r in range(args.rounds):
        for t in (trees if r % 2 == 0 else trees[::-1]):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            case = combination_case(t.python, 5, 5, 2, solver, args.combination_seconds, 2, [],
                                    False, env=t.env)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)   # gen, its workers, solvers
            case["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            cases[t.name].append(case)
            print(f"  combination 5x5 round {r + 1} {t.name:5} {case['per_minute']:7.1f}/min, "
                  f"{case['distinct']} levels in {case['cpu']:.0f} s of CPU, {case['growths']} "
                  f"growths ({case['stopped']})", file=sys.stderr, flush=True)
    growths = {n: sum(c["growths"] for c in cs) for n, cs in cases.items()}
    note = "growths finished: " + ", ".join(f"{n} {g}" for n, g in growths.items())
    out = [show(Figure("regress", "Combination 5x5, 2 colours, levels/min (wall)", command,
                       "/min", {t.name: _median([c["per_minute"] for c in cases[t.name]])
                                for t in trees}, higher=True, note=note))]
    levels = {n: sum(c["distinct"] for c in cs) for n, cs in cases.items()}
    cpu = {n: sum(c["cpu"] for c in cs) for n, cs in cases.items()}
    out.append(show(Figure("regress", "Combination 5x5, 2 colours, levels per CPU minute",
                           command, "/CPU min",
                           {t.name: 60 * levels[t.name] / cpu[t.name] if cpu[t.name] else None
                            for t in trees}, higher=True)))
    return out


def _corpus(args, trees: list[Tree]) -> Figure:
    """bench_corpus.py throughput on the pinned local pool, each tree in turn."""
    corpus = ["throughput", "--cases", "pinned", "--count", str(args.corpus_count),
              "--rounds", "1"]
    command = _tell(trees[0].script("bench_corpus.py", *corpus))
    cases = [(t.name, lambda r, t=t: measure(t.script("bench_corpus.py", *corpus), t.env,
                                             timeout=args.timeout)) for t in trees]
    runs = interleaved(args.rounds, cases, "corpus ")

    def per_minute(run: Run) -> float | None:
        found = re.search(r"^local pool, 2 workers \(pinned\)\s+(\d+)", run.out, re.M)
        return float(found.group(1)) if run.ok and found else None

    return show(Figure(
        "regress", "bench_corpus throughput, pinned pool, distinct/min", command, "/min",
        {t.name: _median([x for x in map(per_minute, runs[t.name]) if x is not None])
         for t in trees}, higher=True, note=_failures(runs)))


# -- the command line ---------------------------------------------------------------------------
def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true", help="list the rows and their targets")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--base", type=Path, help="another checkout to run beside, interleaved")
    common.add_argument("--solver", help="our solver, passed to gen where it makes sense")
    common.add_argument("--timeout", type=float, default=900,
                        help="seconds per process, stopped past it (900)")
    common.add_argument("--json", type=Path, help="append one JSON line per figure here")
    sub = ap.add_subparsers(dest="row", metavar="ROW")
    for r in ROWS.values():
        p = sub.add_parser(r.name, parents=[common], help=r.what, description=f"{r.what}. "
                           f"Target: {r.target}.")
        for flags, kwargs in r.options:
            p.add_argument(*flags, **kwargs)
    sub.add_parser("all", parents=[common], help="every row in turn, with its defaults "
                   "(regress only with --base)")
    return ap


def table(figures: list[Figure], base: bool) -> list[str]:
    cols = ["row", "what", "command", "ours", "peer", "ratio", "target"]
    if base:
        cols += ["base", "head/base"]
    lines = ["| " + " | ".join(cols) + " |", "| " + " | ".join("---" for _ in cols) + " |"]
    for f in figures:
        c = f.cells()
        lines.append("| " + " | ".join(c[k] for k in cols) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    if args.list:
        for r in ROWS.values():
            print(f"{r.name:12} {r.what}\n{'':12} target: {r.target}"
                  f"{' (needs --base)' if r.needs_base else ''}")
        return 0
    if args.row is None:
        ap.error("name a row (--list shows them), or 'all'")
    if args.row != "all" and ROWS[args.row].needs_base and args.base is None:
        ap.error(f"{args.row} needs --base PATH (the checkout to compare with)")
    from bench_generate import environment
    start = time.perf_counter()
    figures: list[Figure] = []
    with contextlib.ExitStack() as stack:
        trees = [head_tree()]
        if args.base is not None:
            trees.append(base_tree(args.base, stack))
        for line in environment([args.solver or "chuffed"]):
            print(f"# {line}")
        if args.base is not None:
            print(f"# base: {trees[1].root} ({trees[1].python}"
                  f"{', PYTHONPATH ' + trees[1].env['PYTHONPATH'] if 'PYTHONPATH' in trees[1].env else ''})")
        names = list(ROWS) if args.row == "all" else [args.row]
        try:
            for name in names:
                r = ROWS[name]
                if r.needs_base and args.base is None:
                    print(f"\n== {name}: skipped (needs --base)")
                    continue
                defaults = ap.parse_args([name])   # the row's own defaults under 'all'
                row_args = argparse.Namespace(**{**vars(defaults), **{
                    k: v for k, v in vars(args).items() if k in ("base", "solver", "timeout",
                                                                 "json")}})
                if args.row != "all":
                    row_args = args
                print(f"\n== {name}: {r.what}\n   target: {r.target}", flush=True)
                began = time.perf_counter()
                got = r.run(row_args, trees)
                figures += got
                print(f"   ({time.perf_counter() - began:.0f} s)", flush=True)
                if args.json:
                    with args.json.open("a") as handle:
                        for f in got:
                            handle.write(json.dumps({**asdict(f), "ratio": f.ratio(),
                                                     "met": f.met()}) + "\n")
        except KeyboardInterrupt:
            print("\ninterrupted: the figures so far", file=sys.stderr)
            for line in table(figures, args.base is not None):
                print(line)
            return 130
    print(f"\n# {time.strftime('%Y-%m-%d %H:%M:%S %Z')}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at end; "
          f"{time.perf_counter() - start:.0f} s in all\n")
    for line in table(figures, args.base is not None):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
