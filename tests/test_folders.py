"""One puzzle, one folder (issue 40): each built-in plugin's package holds its own MiniZinc
model, shipped as package data, and ``puzzle_engine_models`` holds only the solver libraries
every puzzle shares (the SAT, CP-SAT and explaining back ends' redefinitions of globals).
The tests mirror the packages, and no test module imports another or the conftest."""
import ast
import shutil
import subprocess
import sys
import zipfile
from importlib.resources import files
from pathlib import Path

import pytest

import puzzle_engine_plugins

ROOT = Path(__file__).resolve().parent.parent
PLUGINS = Path(puzzle_engine_plugins.__file__).resolve().parent


def builtin_models(host):
    """(type name, plugin package, model path relative to the plugins' folder) for every
    model of every built-in type."""
    out = []
    for name, ptype in sorted(host.types.items()):
        module = type(ptype).__module__
        if not module.startswith("puzzle_engine_plugins."):
            continue
        package = module.split(".")[1]
        for model in ptype.models:
            out.append((name, package, Path(str(model)).resolve().relative_to(PLUGINS)))
    return out


@pytest.mark.fast
def test_each_builtin_model_lies_in_its_plugins_folder(host):
    models = builtin_models(host)
    assert {name for name, _, _ in models} >= {"sudoku", "fillomino", "combination",
                                               "polyomino-math"}
    for name, package, rel in models:
        # The Sudoku variants' models start with the core they share, Sudoku's units.mzn.
        assert rel.parts[0] == package or rel.as_posix() == "sudoku/units.mzn", \
            f"{name}'s model {rel} is outside plugins/{package}"
        assert (PLUGINS / rel).is_file(), rel
    for name in {name for name, _, _ in models}:
        *_, (_, package, own) = [m for m in models if m[0] == name]
        assert own.parts[0] == package, f"{name}'s own model {own} is outside plugins/{package}"


@pytest.mark.fast
def test_the_shared_models_package_holds_no_puzzles_model(host):
    shared = Path(str(files("puzzle_engine_models")))
    assert not sorted(p.name for p in shared.glob("*.mzn"))
    assert {p.parent.name for p in shared.rglob("*.mzn")} == {"sat", "cpsat", "explain"}


def test_a_built_wheel_ships_each_plugins_model_in_its_package(host, tmp_path):
    """A non-editable wheel of the checkout holds every built-in type's model under its
    plugin's package, and the solver libraries under ``puzzle_engine_models``."""
    src = tmp_path / "src"
    src.mkdir()
    for part in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / part, src / part)
    for part in ("engine", "plugins", "models_mzn"):
        shutil.copytree(ROOT / part, src / part,
                        ignore=shutil.ignore_patterns("__pycache__", "data"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--no-build-isolation", "-w", str(tmp_path / "wheels"), str(src)],
                   check=True, capture_output=True)
    [wheel] = (tmp_path / "wheels").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name, _, rel in builtin_models(host):
        assert f"puzzle_engine_plugins/{rel.as_posix()}" in names, name
    shared = sorted(n for n in names if n.startswith("puzzle_engine_models/"))
    assert {n.split("/")[1] for n in shared if n.endswith(".mzn")} == {"sat", "cpsat", "explain"}


@pytest.mark.fast
def test_no_test_module_imports_another_nor_the_conftest():
    """What test modules share lives in tests/support.py (and the fixtures in
    tests/conftest.py): a test module is never imported as a library."""
    tests = ROOT / "tests"
    found = []
    for path in sorted(tests.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.relative_to(tests)}:{node.lineno}: {name}" for name in names
                      if name.split(".")[0].startswith("test_") or name == "conftest"]
    assert found == []
    assert (tests / "engine" / "solving").is_dir() and (tests / "plugins" / "sudoku").is_dir()
