"""The plugin ecosystem's commands (#40, item 5): ``plugins --json``; ``plugins install``
and ``uninstall``, pip into the environment that runs the engine, tried for real in a
throwaway venv that sees the test venv's packages (tests/plugin_venv.py), so nothing is
installed into the test venv."""
import ast
import fnmatch
import json
import shutil
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plugin_venv import make_venv
from puzzle_engine import scaffold
from puzzle_engine.cli import app
from support import ROOT, TESTS

HERE = TESTS
runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def one_line_error(result, *words, status=2):
    assert result.exit_code == status, (result.exit_code, result.stdout, result.stderr)
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("puzzle-engine: error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert "Traceback" not in result.stderr + result.stdout
    return lines[0]


# -- plugins --json ------------------------------------------------------------------------
@pytest.mark.fast
def test_plugins_json_names_each_plugin_its_package_hooks_and_registrations():
    result = run("plugins", "--json")
    assert result.exit_code == 0, result.stderr
    plugins = {p["name"]: p for p in json.loads(result.stdout)}
    sudoku = plugins["sudoku"]
    assert sudoku["package"] == "puzzle-engine" and sudoku["builtin"] and sudoku["loaded"]
    assert sudoku["module"] == "puzzle_engine_plugins.sudoku"
    assert sudoku["hooks"] == ["register_puzzle_types"] and sudoku["errors"] == []
    (ptype,) = sudoku["types"]
    assert (ptype["name"], ptype["strategy"], ptype["criterion"], ptype["grader"]) == \
        ("sudoku", "emptying", "unique", "multiple")
    size = next(o for o in ptype["options"] if o["name"] == "size")
    assert size["type"] == "int" and size["default"] is None  # inferred: 9 unless --box says
    own = plugins["puzzle_engine.defaults"]
    assert {"emptying", "growing", "own"} == set(own["strategies"])
    assert "unique" in own["criteria"] and own["graders"] == ["multiple"]
    assert own["complexities"] == ["givens"] and own["types"] == []
    math = plugins["polyomino-math"]
    assert math["criteria"] == ["polyomino-optimum"] and math["graders"] == ["evolutionary"]
    for plugin in plugins.values():
        assert set(plugin) == {"name", "version", "package", "module", "builtin", "loaded",
                               "hooks", "contract", "adapted", "types", "strategies",
                               "criteria", "graders", "complexities", "errors", "warnings"}
        assert (plugin["contract"], plugin["adapted"]) == (3, False)


@pytest.mark.fast
def test_plugins_without_json_is_the_table_still():
    result = run("plugins")
    assert result.exit_code == 0
    assert "Plugins" in result.stdout and "Puzzle types" in result.stdout
    assert "--size" in result.stdout and not result.stdout.lstrip().startswith("[")


@pytest.mark.fast
def test_json_goes_with_plugins_alone():
    one_line_error(run("plugins", "--json", "uninstall", "x"), "--json goes with 'plugins' alone")


# -- refusals before pip runs: nothing changes ---------------------------------------------
@pytest.mark.fast
@pytest.mark.parametrize("args, words", [
    (("install", "sudoku"), ["plugin 'sudoku' is built in"]),
    (("install", "puzzle-engine"), ["is puzzle-engine itself"]),
    (("install", "./no-such-plugin"), ["no such file or folder: ./no-such-plugin"]),
    (("install", "-e", "no-such-folder"), ["-e no-such-folder: not a folder"]),
    (("install",), ["nothing to install"]),
    (("uninstall", "sudoku", "-y"), ["plugin 'sudoku' is built in"]),
    (("uninstall", "Puzzle_Engine", "-y"), ["is puzzle-engine itself"]),
    (("uninstall", "no-such-plugin-anywhere", "-y"),
     ["no installed plugin or package 'no-such-plugin-anywhere'"]),
    (("uninstall", "pluggy", "-y"), ["package 'pluggy' declares no puzzle-engine plugin"]),
])
def test_a_name_pip_must_not_see_is_refused_in_one_line(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_line_error(run("plugins", *args), *words)
    assert list(tmp_path.iterdir()) == []


def test_an_editable_folder_without_a_project_is_refused(tmp_path):
    one_line_error(run("plugins", "install", "-e", str(tmp_path)), "no pyproject.toml or setup.py")


# -- install and uninstall for real, in a throwaway venv ------------------------------------
@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    return make_venv(tmp_path_factory.mktemp("venv") / "v")


def _copy(pkg: str, tmp: Path) -> Path:
    """A copy of tests/``pkg``: pip builds in the folder, leaving build/ behind."""
    return Path(shutil.copytree(HERE / pkg, tmp / pkg, ignore=shutil.ignore_patterns(
        "build", "*.egg-info", "__pycache__")))


def test_install_then_uninstall_changes_the_listing_of_that_venv_only(venv, tmp_path):
    latin = _copy("plugin_pkg", tmp_path)
    assert "latin" not in venv.plugins()
    proc = venv.pe("plugins", "install", "--no-build-isolation", str(latin))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["installed plugin 'latin' (puzzle-engine-latin-test 0.3.1)"]
    listed = venv.plugins()["latin"]
    assert (listed["package"], listed["version"], listed["loaded"], listed["builtin"]) == \
        ("puzzle-engine-latin-test", "0.3.1", True, False)
    assert [t["name"] for t in listed["types"]] == ["latin"]
    assert list(venv.site.glob("puzzle_engine_latin_test-0.3.1.dist-info"))
    gen = venv.pe("gen", "latin", "--size", "4", "--seed", "1", "--format", "line")
    assert gen.returncode == 0 and len(gen.stdout.strip()) == 16, gen.stderr
    # The test venv itself never had it.
    assert "latin" not in {p["name"] for p in json.loads(run("plugins", "--json").stdout)}

    again = venv.pe("plugins", "install", "--no-build-isolation", str(latin))
    assert again.returncode == 0 and again.stdout == ""
    assert "no plugin was added or changed" in again.stderr

    proc = venv.pe("plugins", "uninstall", "latin", "-y")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["uninstalled plugin 'latin' (puzzle-engine-latin-test 0.3.1)"]
    assert "latin" not in venv.plugins()
    assert not list(venv.site.glob("puzzle_engine_latin_test-*"))


def test_uninstall_asks_first_and_a_no_keeps_the_package(venv, tmp_path):
    latin = _copy("plugin_pkg", tmp_path)
    assert venv.pe("plugins", "install", "--no-build-isolation", "-e", str(latin)).returncode == 0
    assert venv.plugins()["latin"]["package"] == "puzzle-engine-latin-test"
    for answer in ("n\n", ""):  # no, and no answer at all
        proc = venv.pe("plugins", "uninstall", "puzzle-engine-latin-test", input=answer)
        assert proc.returncode == 2 and proc.stdout == ""
        assert "Uninstall puzzle-engine-latin-test (plugin 'latin')? [y/N]:" in proc.stderr
        assert proc.stderr.strip().splitlines()[-1] == \
            "puzzle-engine: error: nothing uninstalled (answer y, or pass --yes)"
        assert "latin" in venv.plugins()
    proc = venv.pe("plugins", "uninstall", "puzzle-engine-latin-test", input="y\n")
    assert proc.returncode == 0 and "uninstalled plugin 'latin'" in proc.stdout
    assert "latin" not in venv.plugins()


def test_a_plugin_of_an_inherited_environment_is_not_removed_and_says_where(venv, tmp_path):
    """pip passes over a package outside its environment with a warning and exit status
    0; uninstall says it in one line instead of 'uninstalled'."""
    latin = _copy("plugin_pkg", tmp_path)
    assert venv.pe("plugins", "install", "--no-build-isolation", str(latin)).returncode == 0
    try:
        inner = make_venv(tmp_path / "inner", also=(venv.site,))
        assert inner.plugins()["latin"]["package"] == "puzzle-engine-latin-test"
        proc = inner.pe("plugins", "uninstall", "latin", "-y")
        assert proc.returncode == 2 and proc.stdout == "", (proc.stdout, proc.stderr)
        assert proc.stderr.strip().splitlines() == [
            f"puzzle-engine: error: pip did not remove puzzle-engine-latin-test: installed in "
            f"{venv.site}, outside this environment ({inner.root})"], proc.stderr
        assert "latin" in venv.plugins()
    finally:
        assert venv.pe("plugins", "uninstall", "latin", "-y").returncode == 0


def test_broken_plugins_are_listed_with_their_package_and_errors(venv, tmp_path):
    broken = _copy("broken_pkg", tmp_path)
    proc = venv.pe("plugins", "install", "--no-build-isolation", str(broken))
    assert proc.returncode == 0, proc.stderr
    assert "installed plugin 'broken_import' (puzzle-engine-broken-test 0.0.1)" in proc.stdout
    try:
        listed = venv.plugins()
        importer = listed["broken_import"]
        assert not importer["loaded"] and importer["package"] == "puzzle-engine-broken-test"
        assert importer["version"] == "0.0.1" and importer["hooks"] == []
        assert importer["errors"] and "ImportError" in importer["errors"][0]
        thief = listed["broken_thief"]  # loaded, its one type refused
        assert thief["loaded"] and thief["types"] == []
        assert any("'sudoku' is already registered" in e for e in thief["errors"])
        assert listed["sudoku"]["errors"] == []
    finally:
        proc = venv.pe("plugins", "uninstall", "-y", "broken_thief")
        assert proc.returncode == 0, proc.stderr
    assert not [name for name in venv.plugins() if name.startswith("broken_")]


def test_a_failing_pip_is_one_line_with_pips_exit_status(venv, tmp_path):
    bad = tmp_path / "bad-plugin"
    bad.mkdir()
    (bad / "pyproject.toml").write_text("[project]\nname = 'bad plugin'\nversion = 'x.y'\n")
    proc = venv.pe("plugins", "install", "--no-build-isolation", str(bad))
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"puzzle-engine: error: pip install --quiet --disable-pip-version-check "
        f"--no-build-isolation {bad} failed (exit status 1): "), proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert sorted(p["name"] for p in venv.plugins().values() if not p["builtin"]) == []


# -- plugins new ---------------------------------------------------------------------------
@pytest.mark.fast
@pytest.mark.parametrize("strategy", list(scaffold.STRATEGIES))
def test_new_writes_a_package_whose_entry_point_module_and_test_fit(strategy, tmp_path):
    folder = tmp_path / "pkg"
    result = run("plugins", "new", "star-battle", "--strategy", strategy, "--dir", str(folder))
    assert result.exit_code == 0, result.stderr
    written = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert written == ["README.md", "puzzle_engine_star_battle/__init__.py",
                       "puzzle_engine_star_battle/model.mzn", "pyproject.toml",
                       "tests/test_star_battle.py"]
    project = tomllib.loads((folder / "pyproject.toml").read_text())
    assert project["project"]["name"] == "puzzle-engine-star-battle"
    assert project["project"]["entry-points"]["puzzle_engine"] == \
        {"star-battle": "puzzle_engine_star_battle"}
    assert project["tool"]["setuptools"]["package-data"] == {"puzzle_engine_star_battle": ["*.mzn"]}
    module = (folder / "puzzle_engine_star_battle" / "__init__.py").read_text()
    tree = ast.parse(module)
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    assert [c.name for c in classes] == ["StarBattle"]
    methods = {f.name for f in classes[0].body if isinstance(f, ast.FunctionDef)}
    assert {"render_svg", "rules", "parse", "format", "check_params", "to_data"} <= methods
    assert 'name = "star-battle"' in module and "PUZZLE_ENGINE_CONTRACT = 3" in module
    assert f'strategy = "{strategy}"' in module or strategy == "emptying"
    test = (folder / "tests" / "test_star_battle.py").read_text()
    assert "class TestStarBattle(PluginConformance):" in test and 'puzzle = "star-battle"' in test
    ast.parse(test)
    readme = (folder / "README.md").read_text()
    assert "puzzle-engine plugins install -e ." in readme and "$" not in readme.replace("$ ", "")


@pytest.mark.fast
def test_the_templates_ship_with_the_package():
    """Every template file is package data (a wheel of puzzle-engine holds them)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = project["tool"]["setuptools"]["package-data"]["puzzle_engine"]
    folder = ROOT / "engine" / "plugin_template"
    for path in folder.iterdir():
        assert any(fnmatch.fnmatch(f"plugin_template/{path.name}", g) for g in globs), path


@pytest.mark.fast
@pytest.mark.parametrize("args, words", [
    (("Star",), ["bad plugin name 'Star'"]),
    (("star--battle",), ["bad plugin name"]),
    (("9lives",), ["bad plugin name"]),
    (("x" * 41,), ["at most 40 characters"]),
    (("star", "--strategy", "random"), ["bad --strategy 'random': expected emptying, growing, own"]),
    (("sudoku",), ["plugin 'sudoku' (puzzle-engine", "is installed already"]),
])
def test_new_refuses_a_bad_name_or_strategy_and_writes_nothing(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_line_error(run("plugins", "new", *args), *words)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.fast
def test_new_never_writes_into_a_folder_that_holds_something(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    one_line_error(run("plugins", "new", "star", "--dir", str(folder)),
                   f"--dir {folder}: exists and is not an empty folder")
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    one_line_error(run("plugins", "new", "star", "--dir", str(folder / "notes.txt")),
                   "exists and is not an empty folder")
    one_line_error(run("plugins", "new", "star", "--dir", str(tmp_path / "no" / "such")),
                   "no folder")
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run("plugins", "new", "star", "--dir", str(empty))
    assert result.exit_code == 0 and (empty / "pyproject.toml").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty", "mine"]  # no staging left


SLOW_BACKEND = '''"""A build back end that says it has started (its pid in $SLOW_MARKER), then never ends."""
import os
import pathlib
import time


def _hang(*args, **kwargs):
    pathlib.Path(os.environ["SLOW_MARKER"]).write_text(str(os.getpid()))
    while True:
        time.sleep(1)


get_requires_for_build_wheel = prepare_metadata_for_build_wheel = build_wheel = _hang
'''


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie left for a parent to reap has)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def test_an_interrupted_install_leaves_no_process_behind(venv, tmp_path):
    """SIGTERM while pip's build back end runs: the command says so in one line, exit
    status 143, and pip and the back end it started are ended with it."""
    import signal
    import subprocess
    import time
    pkg = tmp_path / "slow-plugin"
    pkg.mkdir()
    (pkg / "pyproject.toml").write_text(
        '[build-system]\nrequires = []\nbuild-backend = "slow_backend"\nbackend-path = ["."]\n'
        '[project]\nname = "slow-plugin"\nversion = "0.1"\n')
    (pkg / "slow_backend.py").write_text(SLOW_BACKEND)
    marker = tmp_path / "backend.pid"
    proc = subprocess.Popen([str(venv.python), "-m", "puzzle_engine", "plugins", "install",
                             "--no-build-isolation", str(pkg)], cwd=tmp_path,
                            env=venv.env(SLOW_MARKER=str(marker)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        while not marker.exists() or not marker.read_text():  # the event: the back end runs
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        backend = int(marker.read_text())
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM and out == ""
    assert err.strip().splitlines() == ["puzzle-engine: interrupted"], err
    stop = time.monotonic() + 300  # a bound to fail on, not a wait for time
    while not _gone(backend):  # killed with its group; wait for the kernel to tell
        assert time.monotonic() < stop, f"pip's build back end {backend} outlived the command"
        time.sleep(0.05)
    assert "slow-plugin" not in venv.pe("plugins", "uninstall", "slow-plugin", "-y").stdout
    assert not list(venv.site.glob("slow_plugin*"))
