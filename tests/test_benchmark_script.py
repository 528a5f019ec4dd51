"""benchmarks/bench_generate.py runs, and measures the puzzles that gen makes.

No timing is asserted here: the figures belong in docs/performance.md, not in tests."""
import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from puzzle_engine.cli import app

ROOT = Path(__file__).resolve().parent.parent


def test_bench_generate_table_json_and_profile(tmp_path):
    out = tmp_path / "cases.jsonl"
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_generate.py"),
                           "--sizes", "4", "--seeds", "2", "--solvers", "chuffed", "--no-peers",
                           "--timeout", "120", "--profile", "3", "--json", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    rows = [ln.split() for ln in proc.stdout.splitlines() if ln.split()[:2] == ["4", "chuffed"]]
    assert len(rows) == 1 and rows[0][3] == "2", proc.stdout          # 2 seeds finished
    cases = [json.loads(ln) for ln in out.read_text().splitlines()]
    assert [c["seed"] for c in cases] == [1, 2] and all(c["status"] == "ok" for c in cases)
    for c in cases:
        assert len(c["profile"]) == 4 and c["profile"][0].lstrip().startswith("ncalls")
        gen = CliRunner().invoke(app, ["gen", "sudoku", "--size", "4", "--seed", str(c["seed"]),
                                       "--solver", "chuffed", "--format", "json"])
        assert gen.exit_code == 0, gen.output
        grid = [v for row in json.loads(gen.stdout)["grid"] for v in row]
        assert c["grid"] == ",".join(map(str, grid))
    # the profile's lines follow each case's line on stderr
    assert proc.stderr.count("ncalls") == 2
