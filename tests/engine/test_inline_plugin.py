"""A throwaway plugin, defined right here with its model inline and registered on a host
from ``get_host()``: the engine is generic, and everything the plugin leaves out (random
solution, ChooseSquare, isRemoveValid, features, reading the solution) is ``GridPuzzle``'s.

Every property of a generated puzzle is checked independently of the generator: with the
*other* solver, through full MiniZinc runs (``Engine.solve``), not the generator's Checker.

The isolation of plugins under contract 3 is checked here too: a plugin cannot take a
name that is registered already (a built-in's least of all), a plugin written for another
contract is refused with a line that points to the contract, and only instances of
``PuzzleType`` are registered. In each case the host carries on: ``sudoku`` still makes
the puzzle it makes without the faulty plugin.
"""
import ast
import re
import types
from dataclasses import dataclass
import json
from pathlib import Path

import pytest

import puzzle_engine
from puzzle_engine import Codec, Emptying, GridPuzzle, Param, PuzzleType, hookimpl
from puzzle_engine.solving.backend import Backend
from puzzle_engine.engine import Engine
from puzzle_engine.errors import UnknownPuzzleError
from puzzle_engine.plugins import get_host
from puzzle_engine.strategies import GenOptions

from support import (HOST_SOLVERS, MODEL, ROOT, TESTS, TYPE, ToyLatin, ToyLatinType, backend,
                     clean_sudoku, is_latin, plugin, sudoku_puzzle, without)

SOLVERS = ("gecode", "chuffed")
OTHER = {"gecode": "chuffed", "chuffed": "gecode"}


@pytest.fixture(scope="module")
def toy_host():
    """A host from get_host() with the throwaway plugin registered."""
    host = get_host()
    host.register(ToyLatin(), name="toy_latin", version="0.0.test")
    try:
        yield host
    finally:
        host.unregister("toy_latin")


@pytest.fixture(scope="module")
def toy(toy_host):
    """The host with the throwaway plugin, its type, and one engine per solver."""
    engines = {s: Engine(toy_host, Backend(s)) for s in SOLVERS}
    try:
        yield toy_host, toy_host.get_type(TYPE), engines
    finally:
        for engine in engines.values():
            engine.close()


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("size,seed", [(4, 1), (4, 2), (5, 3), (6, 4)])
def test_generated_puzzles_are_unique_and_minimal(toy, solver, size, seed):
    _, ptype, engines = toy
    engine, other = engines[solver], engines[OTHER[solver]]
    params = engine.check_params(ptype, {"size": size})
    p = engine.generate(ptype, params, seed).puzzle

    assert (p.type, p.plugin, p.plugin_version) == (TYPE, "toy_latin", "0.0.test")
    assert p.solver == engine.backend.solver_id
    assert is_latin(p.solution, size), p.solution
    assert len(p.grid) == size * size
    assert all(g == 0 or g == s for g, s in zip(p.grid, p.solution))  # agrees on every given
    assert 0 < ptype.givens(params, p.grid) < size * size

    # unique, by the other solver: exactly one board, the recorded solution
    result, boards = other.solve(ptype, params, p.grid, nr_solutions=2)
    assert result.complete and boards == [p.solution]

    # minimal: emptying any one given leaves 2+ solutions (other solver again)
    assert p.minimal and p.unknown == 0
    for i, v in enumerate(p.grid):
        if v:
            _, boards = other.solve(ptype, params, without(p.grid, i), nr_solutions=2)
            assert len(boards) == 2, f"the given {v} at square {i} is not needed"


@pytest.mark.parametrize("solver", SOLVERS)
def test_max_solutions_allows_up_to_k_solutions(toy, solver):
    _, ptype, engines = toy
    engine, other = engines[solver], engines[OTHER[solver]]
    params = engine.check_params(ptype, {"size": 4})
    k = 3
    for seed in (1, 2, 3):
        p = engine.generate(ptype, params, seed, GenOptions(max_solutions=k)).puzzle
        assert p.options["max_solutions"] == k
        assert all(g == 0 or g == s for g, s in zip(p.grid, p.solution))
        result, boards = other.solve(ptype, params, p.grid, nr_solutions=k + 1)
        assert result.complete, seed
        assert 1 <= len(boards) <= k and p.solution in boards, (seed, len(boards))
        assert all(is_latin(b, 4) for b in boards)
        # and it is as empty as the bound allows: each given left is needed to stay within k
        assert p.minimal
        for i, v in enumerate(p.grid):
            if v:
                _, more = other.solve(ptype, params, without(p.grid, i), nr_solutions=k + 1)
                assert len(more) == k + 1, (seed, i)


def test_grid_puzzle_defaults_fill_the_gaps(toy):
    """No random_solution, choose_square, is_remove_valid, features or from_solution in the
    type: GridPuzzle's are used, and the plugin implements one hook."""
    host, ptype, engines = toy
    for method in ("random_solution", "choose_square", "is_remove_valid", "features",
                   "from_solution", "to_json", "from_json", "search_variables"):
        assert getattr(type(ptype), method) is getattr(GridPuzzle, method), method
    engine = engines["gecode"]
    params = engine.check_params(ptype, {})  # the Param default
    assert params == {"size": 4}
    a = engine.generate(ptype, params, 7).puzzle
    b = engine.generate(ptype, params, 8).puzzle
    assert a.solution != b.solution  # the default randomises the solver's board
    again = engine.generate(ptype, params, 7).puzzle
    assert (again.grid, again.solution) == (a.grid, a.solution)  # and only through the seed
    feats = engine.features(ptype, params, a.grid)
    givens = ptype.givens(params, a.grid)
    assert feats == {"squares": 16.0, "givens": float(givens), "empties": float(16 - givens)}
    info = next(i for i in host.plugin_infos() if i.name == "toy_latin")
    assert info.types == [TYPE] and info.version == "0.0.test"
    assert info.hooks == ["register_puzzle_types"]
    assert (ptype.plugin, ptype.plugin_version) == ("toy_latin", "0.0.test")


class PlainLatin(PuzzleType, Codec, Emptying):
    """Latin squares on the contract's classes alone, not GridPuzzle: what PuzzleType, Codec
    and Emptying say a type must provide, and nothing they give a default for (a flat
    board's solution is its decision array: no from_solution)."""

    name = "plain_latin"
    models = (MODEL,)
    params = (Param("size", int, 4),)

    def board_size(self, params):
        return params["size"] ** 2

    def to_data(self, params, instance, solver):
        n = params["size"]
        return {"n": n, "givens": [list(instance[i * n:(i + 1) * n]) for i in range(n)]}

    def to_json(self, params, instance, solution):
        return {"grid": list(instance), "solution": None if solution is None else list(solution)}

    def random_solution(self, params, rng, solve, transform):
        return solve(tuple([0] * self.board_size(params)))


def test_a_type_needs_only_what_the_contract_asks(toy):
    """The emptying strategy runs on a type that subclasses PuzzleType and Emptying and
    implements only what they leave to it (structure, choose_square, is_remove_valid and
    the default complexity work from the contract's defaults)."""
    host, _, engines = toy
    plain = plugin(lambda register: register(PlainLatin()))
    assert host.register(plain, name="plain_latin")
    try:
        ptype = host.get_type("plain_latin")
        p = engines["gecode"].generate(ptype, {"size": 4}, 1).puzzle
        assert is_latin(p.solution, 4) and p.minimal
        result, boards = engines["chuffed"].solve(ptype, {"size": 4}, p.instance, nr_solutions=2)
        assert result.complete and boards == [p.solution]
    finally:
        host.unregister("plain_latin")


@pytest.mark.fast
def test_unregistering_removes_the_type():
    host = get_host()
    host.register(ToyLatin(), name="toy_latin", version="0.0.test")
    try:
        assert host.get_type(TYPE).plugin == "toy_latin"
    finally:
        host.unregister("toy_latin")
    assert TYPE not in host.types
    with pytest.raises(UnknownPuzzleError, match=f"unknown puzzle '{TYPE}'"):
        host.get_type(TYPE)


class Impostor(ToyLatinType):
    """A type that takes a registered name; none of its methods may ever be called."""

    def to_data(self, params, instance, solver):
        raise AssertionError("the impostor's type was used")

    def shape(self, params):
        raise AssertionError("the impostor's type was used")


@pytest.mark.parametrize("solver", HOST_SOLVERS)
@pytest.mark.parametrize("order", [{}, {"trylast": True}, {"tryfirst": True}])
def test_a_second_plugin_cannot_take_an_existing_type(toy_host, order, solver):
    """The first plugin to register a name keeps it, whatever pluggy's order of the hooks
    (it calls trylast first); the second is refused with a line naming both plugins."""
    host = toy_host

    class ImpostorPlugin:
        PUZZLE_ENGINE_CONTRACT = 3

        @hookimpl(**order)
        def register_puzzle_types(self, register):
            register(Impostor())

    failures_before = list(host.failures)
    host.register(ImpostorPlugin(), name="impostor")
    try:
        assert host.get_type(TYPE).plugin == "toy_latin"
        assert type(host.get_type(TYPE)) is ToyLatinType
        assert [f.error for f in host.failures if f.name == "impostor"] == [
            f"puzzle type '{TYPE}' is already registered by plugin 'toy_latin'; "
            "plugin 'impostor' cannot register it too"]
        engine = Engine(host, backend(solver))
        p = engine.generate(host.get_type(TYPE), {"size": 4}, 1).puzzle
        assert is_latin(p.solution, 4) and p.plugin == "toy_latin"
    finally:
        host.unregister("impostor")
        host.failures[:] = failures_before


class FakeSudoku(GridPuzzle):
    name = "sudoku"
    models = ("",)

    def shape(self, params):
        raise AssertionError("the thief's type was used")

    def to_data(self, params, instance, solver):
        raise AssertionError("the thief's type was used")


@pytest.mark.parametrize("solver", HOST_SOLVERS)
@pytest.mark.parametrize("order", [{}, {"trylast": True}, {"tryfirst": True}])
def test_a_built_in_type_is_never_displaced(order, solver):
    """A third-party plugin that registers 'sudoku' is refused, with one line naming both
    plugins, however pluggy orders its hook (trylast is called first); 'sudoku' stays the
    built-in's and makes the same puzzle as in a host without the thief."""
    host = get_host()
    assert "sudoku" in host.builtin

    class Thief:
        PUZZLE_ENGINE_CONTRACT = 3

        @hookimpl(**order)
        def register_puzzle_types(self, register):
            register(FakeSudoku())

    assert host.register(Thief(), name="thief")
    assert host.get_type("sudoku").plugin == "sudoku"
    assert sudoku_puzzle(host, solver) == clean_sudoku(solver)
    assert [f.error for f in host.failures if f.name == "thief"] == [
        "puzzle type 'sudoku' is already registered by plugin 'sudoku'; "
        "plugin 'thief' cannot register it too"]


@pytest.mark.fast
def test_a_refusal_is_reported_once():
    """A plugin dropped for failing makes the host collect its registries again (as
    get_host() does when a register_complexities hook raises): a refusal made before is
    still one line, not one per collection."""
    class FailsLater:
        PUZZLE_ENGINE_CONTRACT = 3

        @hookimpl
        def register_complexities(self, register):
            raise RuntimeError("no complexity here")

    host = get_host()
    host.register(plugin(lambda register: register(FakeSudoku())), name="thief")
    host.register(FailsLater(), name="fails_later")
    assert host.get_type("sudoku").plugin == "sudoku"  # the thief is refused
    assert "givens" in host.complexities  # fails_later is dropped
    assert host.get_type("sudoku").plugin == "sudoku"
    assert [f.name for f in host.failures] == ["thief", "fails_later"], host.failures


@dataclass
class DataPlugin:
    """A plugin object that is not hashable (a dataclass with eq=True)."""

    PUZZLE_ENGINE_CONTRACT = 3
    label: str = "data"

    @hookimpl
    def register_puzzle_types(self, register):
        register(type("DataLatin", (ToyLatinType,), {"name": "toy_latin_data"})())


@pytest.mark.parametrize("make", [
    lambda: types.SimpleNamespace(
        PUZZLE_ENGINE_CONTRACT=3, register_puzzle_types=hookimpl(
            lambda register: register(type("NsLatin", (ToyLatinType,),
                                           {"name": "toy_latin_ns"})()))),
    lambda: DataPlugin(),
], ids=["namespace", "dataclass"])
def test_an_unhashable_plugin_object_registers(make):
    """pluggy takes any object as a plugin; the host orders plugins by identity, so a
    SimpleNamespace or a dataclass instance registers its types like a module (before,
    collecting the registries raised TypeError: unhashable type)."""
    host = get_host()
    assert host.register(make(), name="unhashable")
    mine = [t for t in host.types.values() if t.plugin == "unhashable"]
    assert [t.name for t in mine] in (["toy_latin_ns"], ["toy_latin_data"])
    assert host.get_type("sudoku").plugin == "sudoku"
    assert not [f for f in host.failures if f.name == "unhashable"]
    assert "unhashable" in {i.name for i in host.plugin_infos()}


class OldStyle:
    """A plugin written for contract 1: puzzle_* hooks that check the type's name."""

    @hookimpl
    def puzzle_register_types(self, register):
        raise AssertionError("a refused plugin's hooks must never be called")

    @hookimpl
    def puzzle_to_data(self, puzzle_type, params, board):
        return None if puzzle_type.name != "old" else {}


class NoDeclaration:
    """Contract-2 hooks, but no PUZZLE_ENGINE_CONTRACT."""

    @hookimpl
    def register_puzzle_types(self, register):
        raise AssertionError("a refused plugin's hooks must never be called")


def declaring(base, value):
    return type(base.__name__, (base,), {"PUZZLE_ENGINE_CONTRACT": value})()


@pytest.mark.parametrize("solver", HOST_SOLVERS)
@pytest.mark.parametrize("make, says", [
    (lambda: OldStyle(), "is written for contract 1"),
    (lambda: declaring(OldStyle, 1), "declares contract 1"),
    (lambda: NoDeclaration(), "declares no PUZZLE_ENGINE_CONTRACT"),
    (lambda: declaring(NoDeclaration, 1), "declares contract 1"),
    (lambda: declaring(NoDeclaration, 4), "declares contract 4"),
    (lambda: declaring(NoDeclaration, "2"), "declares contract '2'"),
], ids=["v1-hooks", "v1-declared", "undeclared", "declares-1", "declares-4", "declares-str"])
def test_a_plugin_for_another_contract_is_refused(make, says, solver):
    """One line that names the contract and points to docs/plugin-authoring.md; the
    plugin is not registered (its hooks are never called) and the host carries on."""
    host = get_host()
    assert host.register(make(), name="stale", version="0.9") is False
    errors = [f.error for f in host.failures if f.name == "stale"]
    assert len(errors) == 1 and "\n" not in errors[0], errors
    assert says in errors[0]
    assert "contract 3" in errors[0] and "PUZZLE_ENGINE_CONTRACT = 3" in errors[0]
    assert "docs/plugin-authoring.md" in errors[0]
    assert host.pm.get_plugin("stale") is None
    assert "stale" not in {i.name for i in host.plugin_infos()}
    assert sudoku_puzzle(host, solver) == clean_sudoku(solver)


@pytest.mark.parametrize("solver", HOST_SOLVERS)
@pytest.mark.parametrize("registered, says", [
    (lambda: ToyLatinType, "registered the class ToyLatinType, not an instance of it"),
    (lambda: object(), "object is not a PuzzleType"),
    (lambda: type("Nameless", (ToyLatinType,), {"name": ""})(), "bad puzzle type name ''"),
    (lambda: type("Spaced", (ToyLatinType,), {"name": "toy latin"})(),
     "bad puzzle type name 'toy latin'"),
], ids=["class", "not-a-type", "no-name", "bad-name"])
def test_only_puzzle_type_instances_are_registered(registered, says, solver):
    """What is not an instance of a PuzzleType subclass is refused, in one line naming the
    plugin; the plugin's other types and the host carry on."""
    class Good(ToyLatinType):
        name = "toy_latin_ok"

    host = get_host()
    assert host.register(plugin(lambda register: (register(registered()), register(Good()))),
                         name="sloppy")
    assert host.get_type("toy_latin_ok").plugin == "sloppy"
    assert TYPE not in host.types
    errors = [f.error for f in host.failures if f.name == "sloppy"]
    assert errors == [f"register_puzzle_types: {says}; ignored"], errors
    assert sudoku_puzzle(host, solver) == clean_sudoku(solver)


#: Puzzle types that the test suite's own plugins register (tests/plugin_pkg and the
#: throwaway plugins of the tests); the built-in ones are asked of the host, and any other
#: type a test defines is found in the tests' source (``defined_type_names``).
TEST_TYPES = ("latin", "toy_latin", "toy_latin_ok", "implied_latin", "pigeons", "floaty",
              "alias", "old_latin")


def defined_type_names():
    """The names of the puzzle types defined in the tests' sources: class attributes
    ``name = "..."`` of classes derived from a puzzle type, and ``PuzzleType(name=...)``."""
    names, puzzle_classes = set(), {"PuzzleType", "GridPuzzle", "Emptying", "Growing",
                                    "OwnGenerator"}
    texts = [p.read_text() for p in TESTS.rglob("*.py") if "build" not in p.parts]
    # only sources that define a class or call PuzzleType (parsing all took seconds)
    trees = [ast.parse(t) for t in texts if re.search(r"^\s*class |PuzzleType\(", t, re.M)]
    classes = [n for t in trees for n in ast.walk(t) if isinstance(n, ast.ClassDef)]
    for _ in range(5):  # subclasses of subclasses, defined in any order
        for c in classes:
            bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in c.bases}
            if bases & puzzle_classes:
                puzzle_classes.add(c.name)
    for c in classes:
        if c.name in puzzle_classes:
            names.update(s.value.value for s in c.body if isinstance(s, ast.Assign)
                         and any(getattr(t, "id", "") == "name" for t in s.targets)
                         and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str))
    for t in trees:
        for n in ast.walk(t):
            if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "PuzzleType":
                names.update(k.value.value for k in n.keywords if k.arg == "name"
                             and isinstance(k.value, ast.Constant))
    # A one- or two-letter throwaway name ("x") cannot be told from a variable.
    return {n for n in names if len(n) >= 3}


@pytest.mark.fast
def test_engine_core_never_names_a_puzzle():
    """No puzzle type, built-in or from a test plugin, is named in the core (every .py and
    .mzn file under engine/), as a whole word, in any case: the core handles puzzles only
    through their types' methods. Both the checkout's engine/ and the imported package are
    read (the same directory when the install is editable)."""
    host = get_host()
    plugins = {info.name for info in host.plugin_infos() if info.types}  # not the host's own
    names = {*host.types, *plugins, *TEST_TYPES, *defined_type_names()}
    assert {"sudoku", "fillomino", "latin", "toy_latin", "peaceful_rooks", "domino_packing",
            "arithmetic_riddle", "framed_latin"} <= names
    assert "" not in names
    word = re.compile(rf"(?<![a-z])({'|'.join(map(re.escape, sorted(names)))})(?![a-z])",
                      re.IGNORECASE)
    dirs = {ROOT / "engine", Path(puzzle_engine.__file__).resolve().parent}
    files = sorted({p for d in dirs for p in d.rglob("*")
                    if p.is_file() and p.suffix in (".py", ".mzn")})
    scanned = {p.relative_to(d).as_posix() for d in dirs for p in files if p.is_relative_to(d)}
    assert {"engine.py", "hookspecs.py", "plugins.py", "calls.py", "grid.py",
            "strategies/emptying.py"} <= scanned, scanned  # the whole core, subpackages too
    lowered = {name.lower() for name in names}
    texts = {p: p.read_bytes().decode("utf-8", "replace") for p in files}
    hits = [f"{p}:{n}: {line.strip()}"
            for p, text in texts.items()
            if any(name in text.lower() for name in lowered)  # the regex only where it may hit
            for n, line in enumerate(text.splitlines(), 1)
            if word.search(line)]
    assert hits == []


def test_a_second_plugin_of_the_same_name_is_one_line():
    """Registering a plugin under a name already loaded (a try script next to an installed
    copy of the same plugin) is a one-line error, not pluggy's ValueError."""
    from puzzle_engine.errors import PluginError
    host = get_host()
    host.register(ToyLatin(), name="twice", version="1")
    try:
        with pytest.raises(PluginError, match="^a plugin named 'twice' is already loaded; "
                                              "unregister it first"):
            host.register(ToyLatin(), name="twice", version="2")
        assert host.versions["twice"] == "1" and host.get_type(TYPE).plugin_version == "1"
    finally:
        host.unregister("twice")


class CountingGrader:
    """A grader that is not the multiple method: the number of empty squares, with no
    solver at all. Registered by a plugin; the core is not touched."""

    name = "empties"
    description = "the number of empty squares"

    def grader(self, engine, ptype, params, options):
        return self

    def grade(self, instance, label=""):
        empties = sum(1 for v in instance if not v)
        return type("Measured", (), {
            "to_json": lambda self: {"empties": empties},
            "summary": lambda self: f"{empties} empty squares"})()

    def close(self):
        pass


class GradedByCount(ToyLatinType):
    name = "counted_latin"
    grader = "empties"

    def parse(self, params, text):
        params = self.check_params(params)
        return puzzle_engine.Parsed(params, tuple(0 if c == "." else int(c) for c in text))

    def format(self, params, instance, fmt):
        return "".join(str(v) if v else "." for v in instance)


class CountingPlugin:
    PUZZLE_ENGINE_CONTRACT = 3

    @hookimpl
    def register_graders(self, register):
        register(CountingGrader())

    @hookimpl
    def register_puzzle_types(self, register):
        register(GradedByCount())


def test_a_plugin_adds_a_grader_without_touching_the_core(monkeypatch):
    """A type names a grader that its plugin registers; ``grade`` uses it, in text (its
    summary) and JSON (its to_json), with no level model."""
    from puzzle_engine.cli import common
    from support import run_main

    def host_with_counting():
        host = get_host()
        host.register(CountingPlugin(), name="counting", version="0.0.test")
        return host
    monkeypatch.setattr(common, "get_host", host_with_counting)
    code, out, err = run_main(["grade", "counted_latin", "1234 3412 2143 4321".replace(" ", ""),
                               "--size", "4"])
    assert (code, out.strip()) == (0, "0 empty squares"), err
    code, out, err = run_main(["grade", "counted_latin", "12.4.1..3.......", "--size", "4",
                               "--format", "json"])
    assert code == 0, err
    assert json.loads(out) == {"empties": 11, "levels_by": None}
