"""benchmarks/bench_generate.py runs, and measures the puzzles that gen makes;
scripts/research/combination_tables.py runs with tiny settings and prints consistent tables.

No timing is asserted here: the figures belong in docs/performance.md, not in tests."""
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from puzzle_engine.cli import app
from support import ROOT



def test_bench_generate_table_json_and_profile(tmp_path):
    out = tmp_path / "cases.jsonl"
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_generate.py"),
                           "--sizes", "4", "--seeds", "2", "--solvers", "chuffed", "--no-peers",
                           "--timeout", "120", "--profile", "3", "--json", str(out)],
                          capture_output=True, text=True, timeout=1800)
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


def _cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def test_combination_tables_tiny_run(tmp_path):
    """scripts/research/combination_tables.py with tiny settings: both tables have a row per
    level with min <= mean <= max, the ranking rates are shares that add up, and --json
    holds the runs the tables were made from."""
    out = tmp_path / "tables.json"
    script = ROOT / "scripts" / "research" / "combination_tables.py"
    proc = subprocess.run([sys.executable, str(script),
                           "--candidates", "3", "--grade-runs", "10", "--rank", "1", "--z", "0",
                           "--singles", "10", "--means", "5", "--per-mean", "3",
                           "--json", str(out)],
                          capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("# command: ") and "--singles 10" in lines[0]
    assert any(ln.startswith("# solver: Gecode") for ln in lines)
    rows = {}
    for ln in lines:
        cells = _cells(ln)
        if ln.startswith("| easier (Level Four) |") or ln.startswith("| harder (Level Six) |"):
            rows.setdefault(cells[0], []).append([float(c) for c in cells[1:]])
    assert sorted(rows) == ["easier (Level Four)", "harder (Level Six)"]
    data = json.loads(out.read_text())
    for name, side in (("easier (Level Four)", "easier"), ("harder (Level Six)", "harder")):
        assert len(rows[name]) == 2, proc.stdout                       # Table 1 and Table 2
        for lo, hi, mean, sd, *paper in rows[name]:
            assert 1 <= lo <= mean <= hi and sd >= 0 and len(paper) == 4
        level = data["levels"][side]
        assert len(level["singles"]) == 10 and len(level["means"]) == 5
        assert rows[name][0][:2] == [min(level["singles"]), max(level["singles"])]
        assert rows[name][1][2] == pytest.approx(sum(level["means"]) / 5, rel=1e-3, abs=0.05)
        assert f"`{level['level']}`" in proc.stdout                    # in the candidates
    assert data["levels"]["easier"]["graded_mean"] <= data["levels"]["harder"]["graded_mean"]
    ranks = {_cells(ln)[0]: _cells(ln) for ln in lines
             if ln.startswith("| single runs |") or ln.startswith("| means of 3 |")}
    assert sorted(ranks) == ["means of 3", "single runs"]
    for name, cells in ranks.items():
        assert int(cells[1]) == (100 if name == "single runs" else 25)  # pairs compared
        wrong, ties, right, not_fewer = (float(c.rstrip("%")) / 100 for c in cells[2:6])
        assert all(0 <= x <= 1 for x in (wrong, ties, right, not_fewer))
        assert wrong + ties + right == pytest.approx(1, abs=0.002)
        assert not_fewer == pytest.approx(wrong + ties, abs=0.002)
