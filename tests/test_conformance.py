"""The conformance kit (``puzzle_engine.testing``) in CI: every built-in plugin passes it,
on small sizes; and so does a plugin made by ``plugins new`` for each strategy, installed
into a throwaway venv and tested there by its own test file, as its author would."""
import pytest

from puzzle_engine import testing
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


def test_the_kit_fails_a_record_that_changes_with_the_run(tmp_path):
    generated = testing.generate("sudoku", ("--size", "4"), 1, folder=tmp_path)
    generated.record["givens"] += 1
    with pytest.raises(AssertionError, match=r"fields that differ: \['givens'\]"):
        testing.check_reproducible(generated)
