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


def test_against_row_pairs_seeds_and_flags_other_puzzles(monkeypatch):
    """The side-by-side row (--against) takes per-seed ratios new/old, and says NO when a
    seed's grids differ between the revisions. Made-up figures: nothing is timed here."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bench_generate

    def run(side, seed, wall, grid="1,0"):
        return {"status": "ok", "revision": side, "seed": seed, "grid": grid, "generate_wall": wall,
                "process_wall": wall + 0.2, "calls": 10 if side == "new" else 9, "givens": 1,
                "python_mb": 30.0}

    seeds = [{"new": [run("new", s, 1.1 * s)], "old": [run("old", s, 1.0 * s)]} for s in (1, 2, 3)]
    text, ratios = bench_generate.against_row(9, "chuffed", None, seeds)
    assert [round(r, 6) for r in ratios] == [1.1, 1.1, 1.1]
    cells = text.split()
    assert cells[:7] == ["9", "chuffed", "-", "3", "2.200", "2.000", "1.100"]
    assert cells[-6:-4] == ["10", "9"] and cells[-1] == "yes"
    seeds[1]["old"][0]["grid"] = "0,1"
    assert bench_generate.against_row(9, "chuffed", None, seeds)[0].split()[-1] == "NO"
    seeds[2]["old"][0]["status"] = "timeout"
    assert bench_generate.against_row(9, "chuffed", None, seeds)[0].split()[3] == "2/3"
