"""Peers of bench_generate.py: other puzzle generators, timed one puzzle per process.

    from peers import PEERS, run_peer
    for peer in PEERS:
        if peer.handles("sudoku", 9) and peer.installed():
            print(run_peer(peer, 9, seed=1, target=None, timeout=300))

Each peer is a program that bench_generate.py runs as a subprocess, once per seed; what is
timed is the wall time of that process, start-up included, since that is what a user of the
peer pays for one puzzle:

  sgt-solo     Simon Tatham's Solo (Debian sgt-puzzles): ``sgt-solo --generate 1 CxR#SEED``.
               Sudoku with square or rectangular boxes, n <= 31. The seed is Solo's own
               random seed (the game ID after '#'), so a seed gives the same puzzle again.
               The parameters are Solo's defaults unless ``options`` adds some: difficulty
               Trivial and 2-fold rotational symmetry; ``adu`` asks for no symmetry and
               difficulty Unreasonable (closer to our minimal puzzles, and much slower).
  qqwing       QQWing (Debian qqwing): ``qqwing --generate 1 --one-line``, 9x9 only,
               difficulty "any", no symmetry. QQWing has no seed option: it seeds itself
               from the clock (in seconds), so seeds in the same second give the same puzzle.
  z3           paper 000's generator re-implemented with z3 (z3_genpuzzles.py beside this
               file), run by the python of benchmarks/.peers-venv: Sudoku with square
               boxes. The seed is that of random.Random.
  sgt-filling  Simon Tatham's Filling (Debian sgt-puzzles): ``sgt-filling --generate 1
               NxN#SEED``, Fillomino. The seed is Filling's own random seed.

All of them are installed by benchmarks/setup_peers.sh; none is a dependency of
puzzle-engine. Only the standard library is used here.
"""
from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEERS_PYTHON = HERE.parent / ".peers-venv" / "bin" / "python"
Z3_SCRIPT = HERE / "z3_genpuzzles.py"
NOT_INSTALLED = "not installed (run bash benchmarks/setup_peers.sh)"


def _run(args: list[str], timeout: float = 60) -> str:
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=timeout).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def _box(n: int) -> tuple[int, int]:
    """The squarest box R x C (R rows, C columns, R <= C), as the Sudoku plugin picks it."""
    r = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
    return r, n // r


def _count_desc(desc: str, separators: str = "") -> tuple[int, int]:
    """Givens and squares of a Tatham game description: a letter a..z is a run of 1..26
    empty squares; otherwise each number (Solo: digits, '_' between two numbers; Filling:
    one digit each) is a given."""
    givens = squares = 0
    number = False
    for ch in desc:
        if "a" <= ch <= "z":
            squares += ord(ch) - ord("a") + 1
            number = False
        elif ch in separators:
            number = False
        elif ch.isdigit():
            if not number or not separators:
                givens += 1
                squares += 1
            number = bool(separators)
    return givens, squares


@dataclass(frozen=True)
class Peer:
    """A generator to compare with: which puzzles it makes, how to run it, how to read it."""
    name: str
    puzzle: str

    def handles(self, puzzle: str, size: int) -> bool:
        return puzzle == self.puzzle

    def installed(self) -> bool:
        raise NotImplementedError

    def version(self) -> str:
        raise NotImplementedError

    def command(self, size: int, seed: int, target: int | None) -> list[str]:
        raise NotImplementedError

    def parse(self, size: int, out: str) -> dict:
        """Figures from the peer's output: at least ``givens`` (None when unreadable)."""
        raise NotImplementedError

    def command_many(self, size: int, seed: int, count: int) -> list[str] | None:
        """The command that makes ``count`` puzzles in one process, or None."""
        return None


def _sgt_version(binary: str) -> str:
    """'sgt-puzzles 20230122.806ae71 (Debian package ...)' from the second line of --version."""
    lines = _run([binary, "--version"]).splitlines()
    version = lines[1].strip().removeprefix("Version").strip() if len(lines) > 1 else "?"
    return f"sgt-puzzles {version}"


@dataclass(frozen=True)
class SgtSolo(Peer):
    name: str = "sgt-solo"
    puzzle: str = "sudoku"
    binary: str = "/usr/games/sgt-solo"
    options: str = ""          # appended to Solo's parameters, e.g. "adu"

    def handles(self, puzzle: str, size: int) -> bool:
        # Solo makes at most 31 symbols, and treats a 1-row box as a jigsaw layout.
        return puzzle == self.puzzle and size <= 31 and _box(size)[0] >= 2

    def installed(self) -> bool:
        return os.access(self.binary, os.X_OK)

    def version(self) -> str:
        params = (f"parameters CxR{self.options}" if self.options
                  else "Solo's default parameters (difficulty Trivial, 2-fold symmetry)")
        return f"{_sgt_version(self.binary)}, {params}"

    def command(self, size: int, seed: int, target: int | None) -> list[str]:
        r, c = _box(size)
        return [self.binary, "--generate", "1", f"{c}x{r}{self.options}#{seed}"]

    def command_many(self, size: int, seed: int, count: int) -> list[str]:
        r, c = _box(size)
        return [self.binary, "--generate", str(count), f"{c}x{r}{self.options}#{seed}"]

    def parse(self, size: int, out: str) -> dict:
        givens, squares = _count_desc(out.strip().split(":", 1)[-1], separators="_")
        return {"givens": givens if squares == size * size else None}


@dataclass(frozen=True)
class SgtFilling(Peer):
    name: str = "sgt-filling"
    puzzle: str = "fillomino"
    binary: str = "/usr/games/sgt-filling"

    def installed(self) -> bool:
        return os.access(self.binary, os.X_OK)

    def version(self) -> str:
        return _sgt_version(self.binary)

    def command(self, size: int, seed: int, target: int | None) -> list[str]:
        return [self.binary, "--generate", "1", f"{size}x{size}#{seed}"]

    def command_many(self, size: int, seed: int, count: int) -> list[str]:
        return [self.binary, "--generate", str(count), f"{size}x{size}#{seed}"]

    def parse(self, size: int, out: str) -> dict:
        givens, squares = _count_desc(out.strip().split(":", 1)[-1])
        return {"givens": givens if squares == size * size else None}


@dataclass(frozen=True)
class QQWing(Peer):
    name: str = "qqwing"
    puzzle: str = "sudoku"

    def handles(self, puzzle: str, size: int) -> bool:
        return puzzle == self.puzzle and size == 9

    def installed(self) -> bool:
        return shutil.which("qqwing") is not None

    def version(self) -> str:
        version = (_run(["qqwing", "--version"]).strip().split()[-1:] or ["?"])[0]
        return f"qqwing {version} (difficulty any; no seed option, seeded by the clock)"

    def command(self, size: int, seed: int, target: int | None) -> list[str]:
        return ["qqwing", "--generate", "1", "--one-line"]   # no seed option: clock-seeded

    def command_many(self, size: int, seed: int, count: int) -> list[str]:
        return ["qqwing", "--generate", str(count), "--one-line"]

    def parse(self, size: int, out: str) -> dict:
        line = out.strip().splitlines()[0] if out.strip() else ""
        return {"givens": sum(ch != "." for ch in line) if len(line) == 81 else None}


@dataclass(frozen=True)
class Z3GenPuzzles(Peer):
    name: str = "z3"
    puzzle: str = "sudoku"

    def handles(self, puzzle: str, size: int) -> bool:
        return puzzle == self.puzzle and size >= 4 and math.isqrt(size) ** 2 == size

    def installed(self) -> bool:
        return PEERS_PYTHON.exists() and subprocess.run(
            [str(PEERS_PYTHON), "-c", "import z3"], capture_output=True).returncode == 0

    def version(self) -> str:
        v = _run([str(PEERS_PYTHON), "-c", "import z3; print(z3.get_version_string())"]).strip()
        return f"z3 {v or '?'} (paper 000 re-implemented, benchmarks/peers/z3_genpuzzles.py)"

    def command(self, size: int, seed: int, target: int | None) -> list[str]:
        return [str(PEERS_PYTHON), str(Z3_SCRIPT), "--size", str(size), "--seed", str(seed),
                "--target-empty", str(target or 0)]

    def parse(self, size: int, out: str) -> dict:
        r = json.loads(out)
        return {"givens": r["givens"], "calls": r["calls"], "unknown": r["unknown"],
                "inner_seconds": r["seconds"]}


def make_peers(sgt_solo_options: str = "") -> tuple[Peer, ...]:
    """All peers, in the order of the peers' table."""
    return (SgtSolo(options=sgt_solo_options), QQWing(), Z3GenPuzzles(), SgtFilling())


PEERS: tuple[Peer, ...] = make_peers()


def run_peer(peer: Peer, size: int, seed: int, target: int | None, timeout: float | None) -> dict:
    """Generate one puzzle with the peer in its own process (group, so that a time-out
    kills all of it); ``seconds`` is the wall time of the process, start-up included."""
    case = {"peer": peer.name, "puzzle": peer.puzzle, "size": size, "seed": seed}
    t0 = time.perf_counter()
    proc = subprocess.Popen(peer.command(size, seed, target), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        return {**case, "status": "timeout", "seconds": time.perf_counter() - t0}
    seconds = time.perf_counter() - t0
    lines = [ln for ln in err.strip().splitlines() if ln.strip()]
    if proc.returncode != 0 or not out.strip():
        return {**case, "status": "failed", "seconds": seconds,
                "error": lines[-1] if lines else f"exit status {proc.returncode}, no output"}
    try:
        figures = peer.parse(size, out)
    except (ValueError, KeyError, IndexError) as e:
        return {**case, "status": "failed", "seconds": seconds, "error": f"unreadable output: {e}"}
    return {**case, "status": "ok", "seconds": seconds, **figures, "output": out.strip()[:2000]}


def kill_group(proc: subprocess.Popen) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.communicate(timeout=10)
            break
        except subprocess.TimeoutExpired:
            continue
