"""Layers that cannot loop (issue 40, item 3): the engine's own registrations load through
an entry point like every plugin, and the import-linter contracts in pyproject.toml hold."""
import ast
import os
import shutil
import subprocess
import sys
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import pytest

from puzzle_engine import plugins
from puzzle_engine.errors import PuzzleInputError
from puzzle_engine.grading import GradeOptions, Grader
from puzzle_engine.plugins import ENGINE_PLUGIN, GROUP, get_host
from support import ROOT


def _only(monkeypatch, *extra: EntryPoint, keep=("sudoku",)):
    """Make the loader see the installed entry points named in ``keep`` plus ``extra``."""
    installed = [ep for ep in entry_points(group=GROUP) if ep.name in keep]
    monkeypatch.setattr(plugins, "entry_points", lambda group: [*extra, *installed])


@pytest.mark.fast
def test_the_engines_registrations_are_an_entry_point_of_its_distribution():
    (ep,) = [ep for ep in entry_points(group=GROUP) if ep.name == ENGINE_PLUGIN]
    assert ep.value == "puzzle_engine.defaults"
    assert ep.dist is not None and ep.dist.metadata["Name"] == plugins.DISTRIBUTION
    host = get_host()
    assert host.failures == []
    assert host.pm.get_plugin(ENGINE_PLUGIN).__name__ == "puzzle_engine.defaults"
    assert ENGINE_PLUGIN in host.builtin
    assert host.pm.list_name_plugin()[0][0] == ENGINE_PLUGIN  # loaded first
    assert set(host.registry("strategies")) == {"emptying", "growing", "own"}


@pytest.mark.fast
def test_narrowing_the_plugins_keeps_the_engines_own(monkeypatch):
    monkeypatch.setenv(plugins.ENV_PLUGINS, "")
    host = get_host()
    assert host.failures == [] and host.types == {}
    assert "emptying" in host.registry("strategies")
    assert "multiple" in host.registry("graders")


@pytest.mark.fast
def test_a_broken_engine_entry_point_is_skipped_and_the_host_carries_on(monkeypatch):
    _only(monkeypatch, EntryPoint(ENGINE_PLUGIN, "puzzle_engine.no_such_module", GROUP))
    host = get_host()
    assert host.warnings() == [
        f"plugin '{ENGINE_PLUGIN}' (from 'puzzle_engine.no_such_module') is broken and was "
        "skipped: failed to load puzzle_engine.no_such_module: ModuleNotFoundError: No "
        "module named 'puzzle_engine.no_such_module'"]
    assert list(host.types) == ["sudoku"]  # the other plugins load
    assert host.registry("strategies") == {}
    with pytest.raises(PuzzleInputError, match="unknown strategy 'emptying' .*known: none"):
        host.get("strategies", "emptying")


@pytest.mark.fast
def test_a_missing_engine_entry_point_is_named_in_one_line(monkeypatch):
    _only(monkeypatch)
    host = get_host()
    (line,) = host.warnings()
    assert line.startswith(f"plugin '{ENGINE_PLUGIN}' is broken and was skipped: no entry "
                           f"point '{ENGINE_PLUGIN}'"), line
    assert "reinstall puzzle-engine" in line
    assert list(host.types) == ["sudoku"]


# -- the import-linter contracts ([tool.importlinter] in pyproject.toml) -------------------

LINT = Path(sys.executable).with_name("lint-imports")


def lint_imports(path=None):
    """``lint-imports`` on pyproject.toml's contracts, on the packages found first on
    ``path`` (default: the installed ones), without a cache left behind."""
    env = {**os.environ, "PYTHONPATH": str(path)} if path else None
    return subprocess.run([str(LINT), "--no-cache", str(ROOT / "pyproject.toml")],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)


@pytest.mark.fast
def test_the_import_contracts_hold():
    proc = lint_imports()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Contracts: 4 kept, 0 broken." in proc.stdout


@pytest.mark.fast
def test_the_contracts_catch_a_loop_a_lazy_import_an_own_engine_and_an_unplaced_module(
        tmp_path):
    """A copy of the packages with what the contracts exist to refuse: the loader importing
    the registrations (inside a function, as the cycle used to be held), a strategy
    importing a grader's options, a grader building an engine, two modules of one package
    importing each other, a plugin importing the engine, and a module in no layer."""
    engine, plugins_dir = tmp_path / "puzzle_engine", tmp_path / "puzzle_engine_plugins"
    shutil.copytree(ROOT / "engine", engine, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "plugins", plugins_dir, ignore=shutil.ignore_patterns("__pycache__"))
    for path, line in (
            (engine / "plugins.py", "    from . import defaults"),
            (engine / "strategies" / "growing.py", "    from ..grading import GradeOptions"),
            (engine / "grading" / "multiple.py", "    from ..engine import Engine"),
            (engine / "explain" / "board.py", "    from . import report"),
            (plugins_dir / "sudoku" / "__init__.py", "    from puzzle_engine.engine import Engine")):
        path.write_text(path.read_text() + f"\n\ndef _lazy():\n{line}\n")
    (engine / "unplaced.py").write_text('"""In no layer."""\n')
    proc = lint_imports(tmp_path)
    out = " ".join(proc.stdout.split())
    assert proc.returncode == 1, out
    assert "Contracts: 0 kept, 4 broken." in out
    for said in ("puzzle_engine.plugins is not allowed to import puzzle_engine.defaults",
                 "puzzle_engine.strategies is not allowed to import puzzle_engine.grading",
                 "puzzle_engine.grading.multiple -> puzzle_engine.engine",
                 "puzzle_engine_plugins.sudoku -> puzzle_engine.engine",
                 "- puzzle_engine.unplaced",
                 "No cycles are allowed in puzzle_engine.explain"):
        assert said in out, out


# -- function-level imports --------------------------------------------------------------

def _function_level_imports(path: Path):
    """The line numbers of the imports of ``path`` inside a function or class, but not
    under ``if TYPE_CHECKING:``."""
    def walk(node, inside):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)) and inside:
                yield child.lineno
            yield from walk(child, inside or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
    return walk(ast.parse(path.read_text()), False)


@pytest.mark.fast
def test_every_function_level_import_in_the_engine_says_why():
    """No import inside a function holds a cycle together any more: the ones left are
    deliberate (a heavy or optional package, or what a command loads only when asked),
    and each says so in a comment on its line, on an import line just above it, or on
    the line above those."""
    unexplained = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        lines = path.read_text().splitlines()
        for lineno in _function_level_imports(path):
            k = lineno - 1
            while "#" not in lines[k] and k > 0 and \
                    lines[k - 1].lstrip().startswith(("import ", "from ")):
                k -= 1
            if "#" not in lines[k] and not lines[k - 1].lstrip().startswith("#"):
                unexplained.append(f"{path.relative_to(ROOT)}:{lineno}: {lines[lineno - 1].strip()}")
    assert unexplained == []


@pytest.mark.fast
def test_a_grader_asked_for_steps_is_given_the_step_rating():
    """The grader builds no engine of its own: ``GradeOptions.steps`` needs the step
    rating passed in (``difficulty.make_grader`` passes the explainer's)."""
    with pytest.raises(ValueError, match="GradeOptions.steps needs rate_steps"):
        Grader(None, None, {}, GradeOptions(steps=True))
