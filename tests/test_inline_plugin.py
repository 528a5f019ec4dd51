"""A throwaway plugin, defined right here with its model inline and registered on a host
from ``get_host()``: the engine is generic, and everything the plugin leaves out (random
solution, ChooseSquare, isRemoveValid, features, reading the solution) is the host's.

Every property of a generated puzzle is checked independently of the generator: with the
*other* solver, through full MiniZinc runs (``Engine.solve``), not the generator's Checker.
"""
from pathlib import Path

import pytest

import puzzle_engine
from puzzle_engine import PuzzleInputError, PuzzleType, Transformation, hookimpl
from puzzle_engine.backend import Backend
from puzzle_engine.errors import UnknownPuzzleError
from puzzle_engine.genpuzzles import Engine, GenOptions
from puzzle_engine.plugins import get_host

SOLVERS = ("gecode", "chuffed")
OTHER = {"gecode": "chuffed", "chuffed": "gecode"}
TYPE = "toy_latin"


class ToyLatin:
    """Latin squares of order n. Three hooks; the host does the rest."""

    MODEL = """
    include "all_different_int.mzn";
    int: n;
    array[1..n, 1..n] of 0..n: givens;
    array[1..n, 1..n] of var 1..n: grid;
    constraint forall(i, j in 1..n where givens[i, j] > 0)(grid[i, j] = givens[i, j]);
    constraint forall(i in 1..n)(all_different_int([grid[i, j] | j in 1..n]));
    constraint forall(j in 1..n)(all_different_int([grid[i, j] | i in 1..n]));
    """

    @staticmethod
    def check_params(raw):
        n = raw["size"]
        if not isinstance(n, int) or not 3 <= n <= 9:
            raise PuzzleInputError(f"bad size {n!r}")
        return {"size": n}

    @hookimpl
    def puzzle_register_types(self, register):
        register(PuzzleType(name=TYPE, models=(self.MODEL,), decision="grid",
                            shape=lambda params: (params["size"], params["size"]),
                            params=(puzzle_engine.Param("size", int, 4),),
                            check_params=self.check_params))

    @hookimpl
    def puzzle_to_data(self, puzzle_type, params, board):
        if puzzle_type.name != TYPE:
            return None
        n = params["size"]
        return {"n": n, "givens": [list(board[i * n:(i + 1) * n]) for i in range(n)]}

    @hookimpl
    def puzzle_transformations(self, puzzle_type, params):
        if puzzle_type.name != TYPE:
            return None
        n = params["size"]

        def relabel(rng):
            perm = [0] + rng.sample(range(1, n + 1), n)
            return lambda b: tuple(perm[v] for v in b)

        def rows(rng):
            p = rng.sample(range(n), n)
            return lambda b: tuple(b[p[i] * n + j] for i in range(n) for j in range(n))

        def columns(rng):
            p = rng.sample(range(n), n)
            return lambda b: tuple(b[i * n + p[j]] for i in range(n) for j in range(n))

        return [Transformation("relabel", relabel), Transformation("rows", rows),
                Transformation("columns", columns)]


@pytest.fixture(scope="module")
def toy():
    """A host from get_host() with the throwaway plugin registered, and one engine per solver."""
    host = get_host()
    host.register(ToyLatin(), name="toy_latin", version="0.0.test")
    try:
        ptype = host.get_type(TYPE)
        engines = {s: Engine(host, Backend(s)) for s in SOLVERS}
        yield host, ptype, engines
    finally:
        host.unregister("toy_latin")


def is_latin(board, n):
    rows = [board[i * n:(i + 1) * n] for i in range(n)]
    want = list(range(1, n + 1))
    return (len(board) == n * n and all(sorted(r) == want for r in rows)
            and all(sorted(c) == want for c in zip(*rows)))


def without(board, i):
    return board[:i] + (0,) + board[i + 1:]


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
    assert 0 < p.givens < size * size

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


def test_host_defaults_fill_the_gaps(toy):
    """No puzzle_random_solution, ChooseSquare, isRemoveValid or features in the plugin."""
    host, ptype, engines = toy
    engine = engines["gecode"]
    params = engine.check_params(ptype, {})  # the Param default
    assert params == {"size": 4}
    a = engine.generate(ptype, params, 7).puzzle
    b = engine.generate(ptype, params, 8).puzzle
    assert a.solution != b.solution  # the default randomises the solver's board
    again = engine.generate(ptype, params, 7).puzzle
    assert (again.grid, again.solution) == (a.grid, a.solution)  # and only through the seed
    feats = engine.features(ptype, params, a.grid)
    assert feats == {"squares": 16.0, "givens": float(a.givens), "empties": float(16 - a.givens)}
    info = next(i for i in host.plugin_infos() if i.name == "toy_latin")
    assert info.types == [TYPE] and info.version == "0.0.test"
    assert info.hooks == ["puzzle_register_types", "puzzle_to_data", "puzzle_transformations"]


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


def test_a_second_plugin_cannot_take_an_existing_type(toy):
    host, _, _ = toy

    class Impostor:
        @hookimpl
        def puzzle_register_types(self, register):
            register(PuzzleType(name=TYPE, models=("",), decision="x", shape=lambda p: (1, 1)))

    failures_before = list(host.failures)
    host.register(Impostor(), name="impostor")
    try:
        assert host.get_type(TYPE).plugin == "toy_latin"
        assert [f.error for f in host.failures if f.name == "impostor"] == [
            f"'{TYPE}' is already registered by plugin 'toy_latin'; ignored"]
    finally:
        host.unregister("impostor")
        host.failures[:] = failures_before


@pytest.mark.parametrize("order", [{}, {"trylast": True}, {"tryfirst": True}])
def test_a_built_in_type_is_never_displaced(order):
    """A third-party plugin that registers 'sudoku' is refused, with a line naming both
    plugins, however pluggy orders its hook (trylast is called first), and 'sudoku' stays
    the built-in's."""
    host = get_host()
    assert "sudoku" in host.builtin

    class Thief:
        @hookimpl(**order)
        def puzzle_register_types(self, register):
            register(PuzzleType(name="sudoku", models=("",), decision="x", shape=lambda p: (1, 1)))
    host.register(Thief(), name="thief")
    assert host.get_type("sudoku").plugin == "sudoku"
    assert [f.error for f in host.failures if f.name == "thief"] == [
        "'sudoku' is already registered by plugin 'sudoku'; ignored"]


#: Puzzle types that the test suite's own plugins register (tests/plugin_pkg and the
#: throwaway plugins of the tests); the built-in ones are asked of the host.
TEST_TYPES = ("latin", "pigeons", "floaty", "alias")


def test_engine_core_never_names_a_puzzle():
    """No puzzle type, built-in or from a test plugin, is named in the core (engine/), as
    a whole word, in any case: the core handles puzzles only through their plugins. Both
    the checkout's engine/ and the imported package are read (the same directory when
    the install is editable). Compiled caches are skipped: they derive from the sources."""
    import re

    from puzzle_engine.plugins import get_host
    host = get_host()
    plugins = {info.name for info in host.plugin_infos() if info.types}  # not the host's own
    names = {*host.types, *plugins, *TEST_TYPES}
    assert {"sudoku", "fillomino"} <= names
    word = re.compile(rf"(?<![a-z])({'|'.join(map(re.escape, sorted(names)))})(?![a-z])",
                      re.IGNORECASE)
    dirs = {Path(__file__).resolve().parents[1] / "engine",
            Path(puzzle_engine.__file__).resolve().parent}
    files = [p for d in dirs for p in d.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert any(p.name == "genpuzzles.py" for p in files)
    hits = [f"{p}:{n}: {line.strip()}"
            for p in files
            for n, line in enumerate(p.read_bytes().decode("utf-8", "replace").splitlines(), 1)
            if word.search(line)]
    assert hits == []
