"""A batch made on one exact solver goes on on another (``gen --resume``, a store's batch):
its puzzles are the same whichever exact solver decides, so the file or the store holds
what a single-solver run makes."""
import json

import pytest

from support import batch_cli as cli, installed, stored

PAIRS = [("chuffed", "gecode"), ("gecode", "cp-sat"), ("cp-sat", "sat")]


def solvers_installed(*names):
    missing = [n for n in names if not installed(n)]
    if missing:
        pytest.skip(f"solver '{missing[0]}' is not installed ('puzzle-engine solvers' does "
                    "not list it)")


@pytest.mark.parametrize("first,then", PAIRS, ids="-then-".join)
def test_gen_resume_on_another_exact_solver_continues_the_file(tmp_path, first, then):
    solvers_installed(first, then)
    args = ["gen", "sudoku", "--size", "9", "--seed", "10", "--format", "json"]
    whole = cli(*args, "--count", "4", "--solver", then).stdout.splitlines(keepends=True)
    out = tmp_path / "batch.jsonl"
    begun = cli(*args, "--count", "2", "--solver", first).stdout.splitlines(keepends=True)
    out.write_text(begun[0] + begun[1][:40])  # interrupted in its second record
    cli(*args, "--count", "4", "--solver", then, "--out", out, "--resume")
    lines = out.read_text().splitlines(keepends=True)
    assert lines[0] == begun[0]  # --resume never touches a line it did not write
    records = [json.loads(line) for line in lines]
    expected = [json.loads(line) for line in whole]
    assert [(r["seed"], r["grid"], r["solution"]) for r in records] == \
        [(r["seed"], r["grid"], r["solution"]) for r in expected]
    assert records[0]["solver"] != records[-1]["solver"]


def test_a_store_batch_goes_on_on_another_exact_solver(tmp_path):
    solvers_installed("chuffed", "gecode")
    db, fresh = tmp_path / "a.db", tmp_path / "b.db"
    cli("batch", "sudoku", "--size", "6", "--count", "3", "--seed", "1", "--db", db,
        "--solver", "chuffed")
    proc = cli("batch", "sudoku", "--size", "6", "--count", "5", "--db", db,
               "--solver", "gecode")
    assert "going on with batch 1 (seed 1)" in proc.stderr
    cli("batch", "sudoku", "--size", "6", "--count", "5", "--seed", "1", "--db", fresh,
        "--solver", "gecode")
    assert stored(db) == stored(fresh) and len(stored(db)) == 5
