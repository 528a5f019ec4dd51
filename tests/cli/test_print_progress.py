"""Progress on the long commands (issue 43): 'render', 'grade', 'explain' and 'train' show
a bar with the time left (ETA, from the rate observed over the run) on standard error
when it is a terminal, and nothing when it is a pipe. Each command runs in a process of
its own whose standard error is a pseudo-terminal (or a pipe), on the real solvers."""
import csv
import json
import os
import pty
import re
import subprocess
import sys
import threading

import pytest

from support import ROOT

DATA = ROOT / "plugins" / "sudoku" / "data" / "sudoku_rated_train.csv"
#: Two 4x4 Sudoku, one a line.
PUZZLES = "...4.32.....2.4.\n..1.2....4.....3\n"  # gen sudoku --size 4 --seed 1, 2


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")}
    env.update(TERM="xterm", COLUMNS="120", LINES="40")
    return env


def on_a_terminal(args, cwd) -> tuple[int, str, str]:
    """``puzzle-engine ARGS`` with standard error on a pseudo-terminal: exit status,
    standard output, and all that was written to the terminal."""
    master, slave = pty.openpty()
    chunks: list[bytes] = []

    def read():
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the last writer closed the terminal
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        done = subprocess.run([sys.executable, "-m", "puzzle_engine", *map(str, args)],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave,
                              cwd=cwd, env=_env(), timeout=600)
    finally:
        os.close(slave)
    reader.join(timeout=60)
    os.close(master)
    return done.returncode, done.stdout.decode(), b"".join(chunks).decode(errors="replace")


def on_a_pipe(args, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzle_engine", *map(str, args)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=cwd,
                          env=_env(), timeout=600)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("progress")
    (root / "p.txt").write_text(PUZZLES)
    records = [{"type": "sudoku", "params": {"size": 4, "box": "2x2", "choose": "fill"},
                "grid": [[int(c) if c != "." else 0 for c in line[k:k + 4]]
                         for k in range(0, 16, 4)], "seed": n}
               for n, line in enumerate(PUZZLES.split())]
    (root / "p.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    with open(DATA, newline="") as handle:
        rows = list(csv.DictReader(handle))
    with open(root / "labelled.csv", "w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["puzzle", "label"])
        for label in ("simple", "expert"):
            for row in [r for r in rows if r["label"] == label][:2]:
                out.writerow([row["puzzle"], label])
    return root


CASES = {
    "render": (["render", "p.jsonl", "--format", "svg", "--solutions", "--out", "r.svg",
                "--force"], "solving the answer key"),
    "render-html": (["render", "p.jsonl", "--format", "html", "--out", "r.html", "--force"],
                    "explaining hints"),
    "grade": (["grade", "sudoku", "p.txt", "--runs", "3"], "grading"),
    "explain": (["explain", "sudoku", "p.txt"], "explaining"),
    "train": (["train", "sudoku", "--data", "labelled.csv", "--out", "m.skops", "--force",
               "--runs", "3"], "grading"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_progress_on_a_terminal_and_not_on_a_pipe(folder, name):
    args, stage = CASES[name]
    if name == "train":
        for leftover in folder.glob("m.*"):
            leftover.unlink()
    status, out, shown = on_a_terminal(args, folder)
    assert status == 0, shown
    assert stage in shown and "ETA 0:00:" in shown, shown  # an ETA from the rate
    assert ("0/2" in shown or "0/4" in shown), shown
    assert "Traceback" not in shown
    if name == "train":
        for leftover in folder.glob("m.*"):
            leftover.unlink()
    piped = on_a_pipe(args, folder)
    assert piped.returncode == 0, piped.stderr
    assert "ETA" not in piped.stderr and stage not in piped.stderr
    assert "\x1b[" not in piped.stderr  # no terminal control at all
    timeless = lambda text: re.sub(r"\d+\.\d s\)", "s)", text)  # noqa: E731
    assert timeless(piped.stdout) == timeless(out)  # the output itself is the same
