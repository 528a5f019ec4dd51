"""Contract 3's facets (issue 40): a puzzle type is a small core plus the facets it opts
into, the engine tells them by ``isinstance`` alone, a flat board is a facet of its own
(not "a type of the emptying strategy"), and contract-2 plugins are adapted where the
mapping is mechanical and refused in one line otherwise."""
import re
from pathlib import Path

import pytest

import contract_v2_plugins as v2
from puzzle_engine import (Codec, Drawing, Explanation, FlatBoard, Growing, Parsed, Play,
                           PuzzleType, Symmetry, calls, hookimpl, hookspecs)
from puzzle_engine.engine import Engine
from puzzle_engine.errors import PluginError
from puzzle_engine.inputs import parse
from puzzle_engine.plugins import get_host
from puzzle_engine.render import play
from puzzle_engine.solving.backend import Backend
from support import ROOT

GUIDE = ROOT / "docs" / "plugin-authoring.md"


def plugin(*ptypes, contract=hookspecs.CONTRACT_VERSION):
    class Plugin:
        PUZZLE_ENGINE_CONTRACT = contract

        @hookimpl
        def register_puzzle_types(self, register):
            for ptype in ptypes:
                register(ptype)
    return Plugin()


class Core(PuzzleType, Codec):
    """A type with the core and the codec only."""

    name = "core_only"

    def format(self, params, instance, fmt):
        return str(instance)

    def parse(self, params, text):
        return Parsed({}, text)


def never(*args, **kwargs):
    raise AssertionError("asked a method of a facet the type does not have")


@pytest.mark.fast
def test_each_facet_is_small_declared_and_documented_in_hookspecs():
    """Every facet has a docstring, at most six methods each with a docstring, and its
    NOT_OFFERED answers are for its own methods; ``facet_of`` names the declaring facet."""
    for facet in (*hookspecs.FACETS, hookspecs.Rules, hookspecs.Codec):
        assert (facet.__doc__ or "").strip(), facet
        own = {n: v for n, v in vars(facet).items() if callable(v) and not n.startswith("_")}
        assert 1 <= len(own) <= 6, facet
        assert all((v.__doc__ or "").strip() for v in own.values()), facet
        if facet is not hookspecs.Codec:
            assert set(facet.NOT_OFFERED) <= set(own), facet
            assert all(hookspecs.facet_of(n) is facet for n in own), facet
    assert hookspecs.facet_of("render_svg") is Drawing and hookspecs.facet_of("rules") is \
        hookspecs.Rules and hookspecs.facet_of("to_data") is None
    source = Path(hookspecs.__file__).read_text()
    for facet in hookspecs.FACETS:  # the table at the top of the type's part lists each
        assert re.search(rf"^#   {facet.__name__} ", source, re.M), facet


@pytest.mark.fast
def test_a_type_without_a_facet_is_never_asked_its_methods():
    ptype = type("Stray", (Core,), {"transformations": never, "render_svg": never})()
    ptype.plugin = "mine"
    assert not isinstance(ptype, Symmetry) and not isinstance(ptype, Drawing)
    assert calls.call(ptype, "transformations", params={}) == ()
    assert calls.call(ptype, "canonical_form", params={}, instance=1) is None
    assert calls.call(ptype, "render_svg", params={}, instance=1) is None
    assert calls.rules(ptype, {}) is None
    assert calls.split_data(ptype, {}, 1, None) is None
    with pytest.raises(PluginError) as caught:
        calls.call(ptype, "search_variables", params={}, instance=1)
    assert str(caught.value) == ("search_variables is needed here, and puzzle 'core_only', "
                                 "plugin 'mine' does not offer the Grading facet (see "
                                 "docs/plugin-authoring.md)")


class FlatGrowing(PuzzleType, Codec, FlatBoard, Growing):
    """A flat board that grows: the engine checks its boards as flat boards although it is
    no ``Emptying`` type (before contract 3, only an emptying type was)."""

    name = "flat_growing"

    def board_size(self, params):
        return 4

    def parse(self, params, text):
        return Parsed({}, tuple(int(c) for c in text))


@pytest.mark.fast
def test_a_flat_board_is_a_facet_not_a_strategy():
    ptype = FlatGrowing()
    ptype.plugin = "mine"
    assert parse(ptype, {}, "1020").instance == (1, 0, 2, 0)
    with pytest.raises(PluginError, match=r"parse \(puzzle 'flat_growing', plugin 'mine'\) "
                                          r"returned \(1, 0, 2\), not a board of 4 whole"):
        parse(ptype, {}, "102")
    # An own-strategy type whose instance is not a flat board is not checked as one.
    assert parse(v2.V2Largest(), {}, "1 2").instance == (1, 2)


@pytest.mark.fast
@pytest.mark.parametrize("ptype, says", [
    (type("NoCodec", (PuzzleType,), {"name": "no_codec"})(),
     "puzzle type 'no_codec' was refused: it is not a Codec"),
    (type("Undeclared", (Core,), {"name": "undeclared_drawing", "render_svg": lambda *a: None})(),
     "puzzle type 'undeclared_drawing' was refused: it writes render_svg, a method of the Drawing "
     "facet, but is not a Drawing (add Drawing to its base classes"),
    (type("OwnReading", (v2.V2PlainLatin, Codec), {"name": "own_reading"})(),
     "puzzle type 'own_reading' was refused: it is a FlatBoard and writes from_solution, "
     "but a flat board's solution is its decision array"),
], ids=["no-codec", "facet-method-without-facet", "flat-board-from-solution"])
def test_a_contract_3_type_that_breaks_its_facets_is_refused_in_one_line(ptype, says):
    host = get_host()
    assert host.register(plugin(ptype, Core()), name="mine")
    [line] = host.warnings()
    assert line.startswith(f"plugin 'mine': {says}") and "\n" not in line, line
    assert line.endswith("(the rest of the plugin is loaded)")
    assert ptype.name not in host.types and host.get_type("core_only").plugin == "mine"


@pytest.mark.fast
def test_a_contract_2_plugin_is_adapted_to_the_facets():
    host = get_host()
    assert host.register(v2.adapted, name="old_latin", version="2.0")
    assert host.warnings() == [] and host.adapted == {"old_latin"}
    latin, largest = host.get_type("v2_latin"), host.get_type("v2_largest")
    # The facets whose methods each wrote, and Codec, whose defaults contract 2's base had.
    assert isinstance(latin, Symmetry) and isinstance(latin, Drawing) and \
        isinstance(latin, Play)
    assert not isinstance(latin, Explanation) and not isinstance(largest, Symmetry)
    assert isinstance(largest, Codec) and type(latin).__name__ == "V2Latin"
    assert calls.record(largest, {}, (3, 9, 4), 2) == {"instance": (3, 9, 4), "solution": 2}
    assert largest.from_json({}, {"instance": [3, 9, 4]}) == (3, 9, 4)
    assert calls.canonical_form(latin, {"size": 4}, (1,) + (0,) * 15) == {"size": 4, "givens": 1}
    assert calls.rules(latin, {"size": 4}) is None  # contract 2 had no rules text
    grid = play.play_grid(latin, {"size": 4}, (0,) * 16, tuple(range(1, 5)) * 4)
    assert grid.rules == "" and grid.rows == 4
    # A plugin of contract 3 registered next to it is not adapted.
    assert "sudoku" not in host.adapted


@pytest.mark.fast
def test_a_contract_2_type_that_cannot_be_adapted_is_refused_in_one_line():
    """One line naming the plugin and the type, pointing to the guide's migration section
    (which exists); the plugin's host carries on."""
    host = get_host()
    assert host.register(v2.refused, name="old_plain")
    [line] = host.warnings()
    assert line == (
        "plugin 'old_plain': puzzle type 'v2_plain_latin' is written for contract 2 and "
        "cannot be adapted: it empties a board (Emptying) and reads its solution itself "
        "(from_solution); a flat board's solution is now its decision array; see "
        "'Migrating from contract v2' in docs/plugin-authoring.md (the rest of the plugin is "
        "loaded)")
    assert "v2_plain_latin" not in host.types and "sudoku" in host.types
    assert re.search(r"^## Migrating from contract v2$", GUIDE.read_text(), re.M)


def test_an_adapted_contract_2_type_generates_draws_and_varies():
    host = get_host()
    host.register(v2.adapted, name="old_latin")
    ptype = host.get_type("v2_latin")
    engine = Engine(host, Backend("gecode", time_limit=None))
    try:
        params = engine.check_params(ptype, {"size": 4})
        from puzzle_engine.strategies import GenOptions
        result = engine.generate(ptype, params, 3, GenOptions(variants=1))
        puzzle = result.puzzle
        assert puzzle.minimal and len(set(puzzle.solution)) == 4
        assert len(result.variants) == 1  # its transformations, through Symmetry
        result_, boards = engine.solve(ptype, params, puzzle.grid, nr_solutions=2)
        assert boards == [puzzle.solution]
        assert calls.call(ptype, "render_svg", params=params, instance=puzzle.grid).startswith(
            "<svg")
    finally:
        engine.close()


@pytest.mark.fast
def test_every_built_in_type_that_draws_says_its_rules_and_the_play_page_shows_them():
    host = get_host()
    drawn = [t for t in host.types.values() if isinstance(t, (Drawing, Play))]
    assert {t.name for t in drawn} == {"sudoku", "fillomino", "combination", "logic",
                                       "polyomino-math", "sudoku-x", "jigsaw", "killer"}
    for ptype in drawn:
        params = calls.canonical_params(ptype, {})
        text = calls.rules(ptype, params)
        assert text and len(text) > 30 and "\n" not in text, ptype.name
    sudoku = host.get_type("sudoku")
    params = calls.canonical_params(sudoku, {"size": 4})
    assert calls.rules(sudoku, params) == "Fill every row, column and 2x2 box with 1-4, each once."

    class Terse(type(sudoku)):  # a play board that gives no rules shows the type's
        name = "terse-sudoku"

        def play_grid(self, params, instance, solution):
            grid = super().play_grid(params, instance, solution)
            return type(grid)(**{**grid.__dict__, "rules": ""})
    terse = Terse()
    grid = play.play_grid(terse, params, (0,) * 16, tuple([1, 2, 3, 4, 3, 4, 1, 2] * 2))
    assert grid.rules == calls.rules(sudoku, params)


@pytest.mark.fast
def test_the_guide_covers_every_facet_and_the_migration():
    text = GUIDE.read_text()
    for facet in (*hookspecs.FACETS, hookspecs.Rules, hookspecs.Codec, hookspecs.Emptying):
        assert f"`{facet.__name__}`" in text, facet
    section = text[text.index("## Migrating from contract v2"):]
    for word in ("PUZZLE_ENGINE_CONTRACT = 3", "from_solution", "Codec", "isinstance"):
        assert word in section, word


@pytest.mark.fast
def test_bad_rules_text_is_one_line_naming_the_plugin():
    class Chatty(Core, Drawing):
        name = "chatty"

        def rules(self, params):
            return "two\nlines"
    ptype = Chatty()
    ptype.plugin = "mine"
    with pytest.raises(PluginError, match=r"rules \(puzzle 'chatty', plugin 'mine'\) returned "
                                          r"'two\\nlines', not one line of text or None"):
        calls.rules(ptype, {})


@pytest.mark.fast
def test_a_contract_2_type_is_a_flat_board_only_when_it_empties():
    """In contract 2 a flat board was an Emptying type: a growing type with a method named
    like a FlatBoard's (a helper ``structure``) is not made one by the adapter, while the
    same class under contract 3 is refused for writing a facet's method without it."""
    class Walls(PuzzleType, Growing):
        name = "walled_growth"

        def structure(self, params, board):
            return frozenset()

        def format(self, params, instance, fmt):
            return ""

        def parse(self, params, text):
            return Parsed({}, text)
    host = get_host()
    assert host.register(plugin(Walls(), contract=2), name="old_walls")
    assert host.warnings() == []
    walls = host.get_type("walled_growth")
    assert isinstance(walls, Codec) and not isinstance(walls, FlatBoard)
    assert isinstance(walls, Growing)
    fresh = get_host()
    assert fresh.register(plugin(type("Walls3", (Walls, Codec), {})()), name="new_walls")
    assert fresh.warnings() == [
        "plugin 'new_walls': puzzle type 'walled_growth' was refused: it writes structure, a method "
        "of the FlatBoard facet, but is not a FlatBoard (rename it, or add FlatBoard to its "
        "base classes if its instances are flat boards; see docs/plugin-authoring.md) (the "
        "rest of the plugin is loaded)"]


@pytest.mark.fast
def test_a_facet_opted_into_without_its_method_is_refused_and_named_when_used():
    """A type that opts into Drawing but writes no render_svg would fail only when drawn:
    it is refused at load, and a command naming it is told why rather than "unknown"."""
    class Undrawn(Core, Drawing):
        name = "undrawn"
    host = get_host()
    assert host.register(plugin(Undrawn()), name="undrawn_plugin")
    said = ("puzzle type 'undrawn' was refused: it is a Drawing but does not write "
            "render_svg, which that facet needs (see docs/plugin-authoring.md)")
    assert any(said in w for w in host.warnings()), host.warnings()
    with pytest.raises(PluginError, match="does not write render_svg"):
        host.get_type("undrawn")
    assert host.get_type("sudoku")


@pytest.mark.fast
def test_a_contract_2_class_that_cannot_be_subclassed_stays_with_its_plugin():
    """The adapter subclasses a contract-2 type's class; a metaclass that refuses (here
    by __init_subclass__) is this plugin's refusal, never an internal error of the host."""
    class Sealed(PuzzleType):
        name = "sealed_v2"

        def __init_subclass__(cls, **kwargs):
            raise TypeError("sealed")

        def format(self, params, instance, fmt):
            return ""

        def parse(self, params, text):
            return Parsed({}, text)

        def transformations(self, params):  # a Symmetry method: the adapter adds Symmetry
            return ()
    host = get_host()
    assert host.register(plugin(Sealed(), contract=2), name="sealed_plugin")
    warnings = host.warnings()
    assert len(warnings) == 1 and "cannot be adapted" in warnings[0] \
        and "TypeError: sealed" in warnings[0], warnings
    assert host.get_type("sudoku")
