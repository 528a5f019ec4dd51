"""How many specs of a folder (PuzzleClone's ``specs/``, say) run unchanged through
``puzzle-engine gen logic --spec FILE``, giving a puzzle whose answer the solver proves,
and why the others do not, grouped.

    .venv/bin/python benchmarks/bench_logic_specs.py /path/to/PuzzleClone/specs

Each spec runs as its own ``gen`` command (seed 1, on the type's solver), bounded by
``--timeout`` seconds of wall time; its record is then ``check``ed (replayed and
re-proved). Nothing is copied from the folder. Prints one line per spec and a table of
reasons; ``--json FILE`` keeps the lines.
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import time
from pathlib import Path

COMMAND = [sys.executable, "-c", "from puzzle_engine.cli import main; main()"]

#: (group, pattern of the one-line error), first match wins.
REASONS = (
    ("customs/*.py operator (code, refused)", r"is a Python file"),
    ("__import__ in an expression (refused)", r"name '__import__'"),
    ("a helper function we lack", r"unknown name '(\w+)'"),
    ("a method outside the whitelist", r"attribute '\.(\w+)'"),
    ("float/real unknowns", r"float unknowns"),
    ("unknown spec field", r"unknown field '(\w+)'"),
    ("no accepted puzzle in the draws", r"none of \d+ drawn puzzles"),
    ("an unknown where Python needs a value", r"(an unknown cannot|use If|use And|use Or|of unknowns|into an unknown|an unknown)"),
    ("MiniZinc model error", r"model error"),
    ("time-out", r"^timeout$"),
    ("expression error", r"(TypeError|ValueError|IndexError|KeyError|not a Python expression|expected)"),
)


def classify(error: str) -> str:
    for group, pattern in REASONS:
        m = re.search(pattern, error)
        if m:
            return f"{group} ({m.group(1)})" if m.groups() and group.startswith(("a helper", "a method", "unknown spec")) else group
    return "other"


def run(spec: Path, timeout: float, draws: int, tmp: Path) -> dict:
    start = time.perf_counter()
    try:
        gen = subprocess.run([*COMMAND, "gen", "logic", "--spec", str(spec), "--seed", "1",
                              "--draws", str(draws), "--format", "json"],
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"spec": spec.name, "ok": False, "error": "timeout",
                "seconds": round(time.perf_counter() - start, 1)}
    seconds = round(time.perf_counter() - start, 1)
    errors = [ln for ln in gen.stderr.splitlines() if "error" in ln]
    if gen.returncode != 0:
        return {"spec": spec.name, "ok": False, "seconds": seconds,
                "error": errors[-1] if errors else gen.stderr.strip()[-300:]}
    record = tmp / (spec.stem + ".jsonl")
    record.write_text(gen.stdout)
    check = subprocess.run([*COMMAND, "check", "logic", str(record), "--spec", str(spec)],
                           capture_output=True, text=True, timeout=timeout)
    if check.returncode != 0:
        return {"spec": spec.name, "ok": False, "seconds": seconds,
                "error": "check: " + (check.stderr.strip() or check.stdout.strip())[-300:]}
    return {"spec": spec.name, "ok": True, "seconds": seconds}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a folder of *.yaml specs")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per spec (60)")
    parser.add_argument("--draws", type=int, default=20, help="gen --draws (20)")
    parser.add_argument("--only", help="a regular expression the spec file names must match")
    parser.add_argument("--json", type=Path, help="write one JSON line per spec here")
    args = parser.parse_args(argv)
    specs = sorted(p for p in args.folder.glob("*.yaml")
                   if args.only is None or re.search(args.only, p.name))
    if not specs:
        parser.error(f"no *.yaml in {args.folder}")
    import tempfile
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec in specs:
            row = run(spec, args.timeout, args.draws, Path(tmp))
            row["reason"] = None if row["ok"] else classify(row["error"])
            rows.append(row)
            print(f"{spec.name:28} {'ok ' if row['ok'] else 'no '} {row['seconds']:6.1f}s  "
                  f"{row.get('error', '')[:150]}", flush=True)
    ok = sum(r["ok"] for r in rows)
    print(f"\n{ok} of {len(rows)} specs run unchanged (a puzzle with a proven answer)\n")
    for reason, n in collections.Counter(r["reason"] for r in rows if not r["ok"]).most_common():
        print(f"{n:4}  {reason}")
    if args.json:
        args.json.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
