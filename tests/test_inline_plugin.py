"""A throwaway plugin registered on the plugin manager directly: the engine is generic."""
import importlib.util
import re
from pathlib import Path

import pytest

import puzzle_engine
from puzzle_engine import PuzzleType
from conftest import SOLVERS, check_unique_and_minimal
from puzzle_engine.backend import Backend
from puzzle_engine.genpuzzles import Engine, GenOptions

# Loaded by file path, not through sys.path, so no package metadata (entry point) is seen.
_spec = importlib.util.spec_from_file_location(
    "pe_latin_inline", Path(__file__).resolve().parent / "plugin_pkg" / "pe_latin_test" / "__init__.py")
pe_latin_test = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pe_latin_test)  # its model is inline, as MiniZinc text


@pytest.fixture
def latin(host):
    host.register(pe_latin_test, name="toy_latin", version="test")
    try:
        yield host.get_type("latin")
    finally:
        host.unregister("toy_latin")


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("size,seed", [(4, 1), (5, 2), (6, 3)])
def test_latin_squares_generate_unique_minimal_puzzles(host, latin, solver, size, seed):
    engines = {s: Engine(host, Backend(s)) for s in SOLVERS}
    params = engines[solver].check_params(latin, {"size": size})
    p = engines[solver].generate(latin, params, seed).puzzle
    assert p.plugin == "toy_latin" and p.plugin_version == "test"
    assert p.grid.count(0) > 0
    check_unique_and_minimal(engines, latin, params, p, solver)


def test_host_defaults_fill_the_gaps(host, latin):
    """The plugin has no ChooseSquare, random solution or features: the host's run."""
    engine = Engine(host, Backend("gecode"))
    params = engine.check_params(latin, {"size": 5})
    a = engine.generate(latin, params, 7).puzzle
    b = engine.generate(latin, params, 8).puzzle
    assert a.solution != b.solution  # the default randomises the solver's board
    feats = engine.call("puzzle_features", puzzle_type=latin, params=params, board=a.grid)
    assert feats == {"squares": 25.0, "givens": float(a.givens), "empties": float(25 - a.givens)}


def test_max_solutions_k(host, latin):
    engines = {s: Engine(host, Backend(s)) for s in SOLVERS}
    params = engines["gecode"].check_params(latin, {"size": 4})
    for seed in (1, 2, 3):
        p = engines["gecode"].generate(latin, params, seed, GenOptions(max_solutions=3)).puzzle
        _, boards = engines["chuffed"].solve(latin, params, p.grid, nr_solutions=4)
        assert p.solution in boards and len(boards) <= 3


def test_engine_core_never_mentions_a_puzzle():
    engine_dir = Path(puzzle_engine.__file__).resolve().parent
    for path in engine_dir.rglob("*.py"):
        assert not re.search("sudoku", path.read_text(), re.I), path


def test_a_second_plugin_cannot_take_an_existing_type(host, latin):
    class Impostor:
        @puzzle_engine.hookimpl
        def puzzle_register_types(self, register):
            register(PuzzleType(name="latin", models=("",), decision="x", shape=lambda p: (1, 1)))

    failures_before = list(host.failures)
    host.register(Impostor(), name="impostor")
    try:
        assert host.get_type("latin").plugin == "toy_latin"
        assert [f.error for f in host.failures if f.name == "impostor"] == [
            "'latin' is already registered by plugin 'toy_latin'; ignored"]
    finally:
        host.unregister("impostor")
        host.failures[:] = failures_before
