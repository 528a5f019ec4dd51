"""The conformance kit (``puzzle_engine.testing``) in CI: every built-in plugin passes it,
on small sizes; and so does a plugin made by ``plugins new`` for each strategy, installed
into a throwaway venv and tested there by its own test file, as its author would."""
import re

import pytest

from plugin_venv import make_venv
from puzzle_engine import testing
from puzzle_engine.scaffold import STRATEGIES
from puzzle_engine.testing import PluginConformance


class TestSudoku(PluginConformance):
    puzzle = "sudoku"
    options = ("--size", "4")
    broken = ("1234", "12.4" * 3 + "5...")


class TestFillomino(PluginConformance):
    puzzle = "fillomino"
    options = ("--size", "4")
    broken = (". 3/. .x",)


class TestCombination(PluginConformance):
    puzzle = "combination"
    options = ("--width", "3", "--height", "4")
    broken = ("1 rook a: .#./#x#",)


class TestPolyominoMath(PluginConformance):
    puzzle = "polyomino-math"
    options = ("--rows", "3", "--cols", "4", "--unique-optimum")


class TestLogic(PluginConformance):
    puzzle = "logic"
    formats = ("json", "line")  # its text is for people: it reads its JSON record only


# -- the kit itself fails where it should --------------------------------------------------
def test_the_kit_names_a_type_that_is_not_loaded():
    with pytest.raises(AssertionError, match="no loaded plugin registers the puzzle type 'nope'"):
        testing.check_loads("nope")


def test_the_kit_fails_an_input_that_is_accepted_or_not_one_line(tmp_path):
    generated = testing.generate("sudoku", ("--size", "4"), 1, folder=tmp_path)
    with pytest.raises(AssertionError, match="exit status 0"):
        testing.check_broken_input(generated, broken=(generated.line,))  # a good puzzle
    two = testing.Ran(("check",), 2, "", "puzzle-engine: error: bad\nand more\n")
    with pytest.raises(AssertionError, match="and more"):
        testing.one_line_error(two)
    traced = testing.Ran(("check",), 1, "", "", exception=ValueError("a plugin's bug"))
    with pytest.raises(AssertionError, match="ValueError: a plugin's bug"):
        testing.one_line_error(traced)


def test_check_plugin_runs_every_check_in_order(tmp_path):
    generated = testing.check_plugin("sudoku", ("--size", "4"), 2, folder=tmp_path)
    assert generated.seed == 2 and generated.record["params"]["size"] == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "sudoku-sheet-key.svg", "sudoku-sheet.svg", "sudoku-stripped.jsonl", "sudoku.jsonl",
        "sudoku.txt"]


def test_the_kit_fails_a_record_that_changes_with_the_run(tmp_path):
    generated = testing.generate("sudoku", ("--size", "4"), 1, folder=tmp_path)
    generated.record["givens"] += 1
    with pytest.raises(AssertionError, match=r"fields that differ: \['givens'\]"):
        testing.check_reproducible(generated)


# -- a plugin made by 'plugins new', installed, passes the kit --------------------------------
@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    return make_venv(tmp_path_factory.mktemp("venv") / "v")


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_a_new_plugin_installs_and_passes_the_kit(venv, strategy, tmp_path):
    """'plugins new', 'plugins install' (editable for one, a built copy for the others),
    then the package's own test, run by pytest in the venv as its author would; finally
    'plugins uninstall'."""
    name, folder = f"new-{strategy}", tmp_path / f"puzzle-engine-new-{strategy}"
    made = venv.pe("plugins", "new", name, "--strategy", strategy, "--dir", str(folder))
    assert made.returncode == 0, made.stderr
    assert made.stdout.splitlines()[0] == f"wrote {folder}: plugin '{name}' ({strategy})"
    editable = ("-e",) if strategy == "emptying" else ()
    installed = venv.pe("plugins", "install", "--no-build-isolation", *editable, str(folder))
    assert installed.returncode == 0, installed.stderr
    assert installed.stdout.splitlines() == \
        [f"installed plugin '{name}' (puzzle-engine-{name} 0.1.0)"]
    assert installed.stderr == ""  # setuptools' chatter through pip is left out
    try:
        listed = venv.plugins()[name]
        assert [t["name"] for t in listed["types"]] == [name] and not listed["errors"]
        assert listed["types"][0]["strategy"] == strategy
        # Its own temporary folder: no other pytest run's clean-up of /tmp/pytest-of-USER
        # reaches it.
        kit = venv.run("-m", "pytest", "-q", "-p", "no:cacheprovider",
                       f"--basetemp={tmp_path / 'kit-tmp'}", str(folder), cwd=folder)
        assert kit.returncode == 0, kit.stdout[-8000:] + kit.stderr[-2000:]
        passed = re.search(r"(\d+) passed", kit.stdout)
        assert passed and int(passed.group(1)) == len(
            [m for m in dir(PluginConformance) if m.startswith("test_")]), kit.stdout
        assert "failed" not in kit.stdout and "error" not in kit.stdout.lower()
    finally:
        removed = venv.pe("plugins", "uninstall", name, "-y")
    assert removed.returncode == 0, removed.stderr
    assert name not in venv.plugins()


def test_the_kit_fails_a_plugin_that_cannot_draw(venv, tmp_path):
    """A new plugin whose drawing is taken away fails the kit's render check, and only
    it, with render's one line in the failure."""
    folder = tmp_path / "undrawn"
    assert venv.pe("plugins", "new", "undrawn", "--dir", str(folder)).returncode == 0
    module = folder / "puzzle_engine_undrawn" / "__init__.py"
    text = module.read_text()
    # The drawing and the facet that declares it (a Drawing without render_svg is refused
    # at load; a type without the facet loads and draws nothing).
    module.write_text(text.replace("    def render_svg(", "    def _no_render_svg(")
                      .replace(", Drawing, Play):", ", Play):"))
    assert venv.pe("plugins", "install", "--no-build-isolation", "-e", str(folder)).returncode == 0
    try:
        kit = venv.run("-m", "pytest", "-q", "-p", "no:cacheprovider",
                       f"--basetemp={tmp_path / 'kit-tmp'}", str(folder), cwd=folder)
    finally:
        venv.pe("plugins", "uninstall", "undrawn", "-y")
    assert kit.returncode == 1, kit.stdout
    assert re.search(r"1 failed, 5 passed", kit.stdout), kit.stdout[-3000:]
    assert "test_renders_a_drawing_and_its_key" in kit.stdout
    assert "draws no pictures" in kit.stdout
