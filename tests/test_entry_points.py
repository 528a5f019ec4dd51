"""Third-party plugins install as packages and load through the entry-point group,
exactly like the built-in ones; broken ones are reported and never break the host."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CLI = str(Path(sys.executable).with_name("puzzle-engine"))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Wheels of the two test packages, installed into a temporary site directory."""
    tmp = tmp_path_factory.mktemp("plugins")
    for pkg in ("plugin_pkg", "broken_pkg"):
        src = tmp / "src" / pkg  # build from a copy: building leaves egg-info in the source
        shutil.copytree(HERE / pkg, src, ignore=shutil.ignore_patterns("build", "*.egg-info"))
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                        "--no-build-isolation", "-w", str(tmp / "wheels"), str(src)],
                       check=True, capture_output=True)
    wheels = sorted(str(p) for p in (tmp / "wheels").glob("*.whl"))
    assert len(wheels) == 2
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(tmp / "site"), *wheels], check=True, capture_output=True)
    return tmp / "site"


def cli(site, *args, plugins=None):
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("PUZZLE_ENGINE_PLUGINS", None)
    if plugins is not None:
        env["PUZZLE_ENGINE_PLUGINS"] = plugins
    return subprocess.run([CLI, *args], capture_output=True, text=True, env=env, timeout=300)


def is_latin(rows):
    n = len(rows)
    return all(sorted(r) == list(range(1, n + 1)) for r in rows) and \
        all(sorted(c) == list(range(1, n + 1)) for c in zip(*rows))


def test_installed_plugin_is_listed_and_used(site):
    listed = cli(site, "plugins", plugins="sudoku,latin")
    assert listed.returncode == 0, listed.stderr
    assert "latin" in listed.stdout and "0.3.1" in listed.stdout
    gen = cli(site, "gen", "latin", "--size", "5", "--seed", "3", "--format", "json",
              plugins="sudoku,latin")
    assert gen.returncode == 0, gen.stderr
    record = json.loads(gen.stdout)
    assert record["type"] == "latin" and record["plugin"] == "latin"
    assert record["plugin_version"] == "0.3.1"
    assert is_latin(record["solution"])
    assert any(v == 0 for row in record["grid"] for v in row)
    assert all(g in (0, s) for gr, sr in zip(record["grid"], record["solution"])
               for g, s in zip(gr, sr))
    line = "".join(str(v) if v else "." for row in record["grid"] for v in row)
    check = cli(site, "check", "latin", line, "--solver", "chuffed", plugins="latin")
    assert check.returncode == 0 and check.stdout.strip() == "1 solution (unique)"


def test_env_var_narrows_the_plugins(site):
    result = cli(site, "gen", "latin", "--seed", "1", plugins="sudoku")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "puzzle-engine: error: unknown puzzle 'latin' (loaded puzzle types: sudoku; "
        "see 'puzzle-engine plugins')"]
    none = cli(site, "plugins", plugins="")
    assert none.returncode == 0 and "sudoku" not in none.stdout


def test_broken_plugins_are_reported_and_skipped(site):
    result = cli(site, "plugins")
    assert result.returncode == 0, result.stderr
    out = " ".join(result.stdout.split())
    for name in ("broken_import", "broken_register", "broken_hookname", "broken_target",
                 "broken_complexity"):
        assert name in out
    assert "needs a library that is not installed" in out
    assert "cannot declare types today" in out
    assert "puzzle_registr_types" in out
    assert "puzzle_register_complexities raised RuntimeError: no complexity here" in out
    assert "latin" in out and "sudoku" in out  # the good ones still load
    gen = cli(site, "gen", "sudoku", "--size", "4", "--seed", "1", "--format", "line")
    assert gen.returncode == 0 and len(gen.stdout.strip()) == 16
    warnings = gen.stderr.strip().splitlines()
    assert len(warnings) == 5 and all("warning: plugin 'broken_" in w for w in warnings)
