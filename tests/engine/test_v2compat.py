"""Contract-2 plugins keep working under contract 3 (issue 40): a criterion or strategy
with only the members contract 2's hookspecs required is given the rest from the base
classes, while a contract-3 plugin missing them stays refused; ``puzzle-engine plugins``
says which plugins are adapted."""
import types

import pytest

import contract_v2_plugins as v2
from puzzle_engine import OwnGenerator, hookimpl, hookspecs
from puzzle_engine.criteria import JudgeChecker
from puzzle_engine.engine import Engine
from puzzle_engine.plugins import get_host
from puzzle_engine.solving.backend import Backend
from support import TESTS


def contract_3_twin():
    """The contract-2 plugin's criterion and strategy, declared as contract 3."""
    return types.SimpleNamespace(
        PUZZLE_ENGINE_CONTRACT=hookspecs.CONTRACT_VERSION,
        register_criteria=hookimpl(lambda register: register(v2.V2AtMost())),
        register_strategies=hookimpl(lambda register: register(types.SimpleNamespace(
            name="v3_own", options=(), hooks=OwnGenerator, generate=v2._own_generate))))


@pytest.mark.fast
def test_a_contract_2_criterion_and_strategy_get_the_members_contract_2_let_them_omit():
    host = get_host()
    assert host.register(v2.adapted, name="old_latin")
    assert host.warnings() == []
    criterion = host.get("criteria", "v2_at_most")
    strategy = host.get("strategies", "v2_own")
    # The base classes' answers for what is missing...
    assert criterion.refuted_by(None, None, {}, [(1,), (2,)]) is False
    assert isinstance(criterion.checker(None, None, {}, (1,)), JudgeChecker)
    assert strategy.description == "" and strategy.alike_on_exact_solvers is False
    assert strategy.make_options({}) == {} and strategy.default_options() == {}
    assert strategy.record_options({}) == {}
    with pytest.raises(Exception, match="no option --depth"):
        strategy.make_options({"depth": 3})
    # ... and the plugin's own members for the rest.
    assert criterion.name == "v2_at_most" and criterion.description.startswith("at most")
    assert strategy.hooks is OwnGenerator and strategy.generate is v2._own_generate
    assert host.get_type("v2_largest_judged").criterion == "v2_at_most"


@pytest.mark.fast
def test_a_contract_3_plugin_missing_them_stays_refused():
    host = get_host()
    assert host.register(contract_3_twin(), name="new_twin")
    [line] = host.warnings()
    assert line.startswith("plugin 'new_twin' registers "), line
    assert ("registers criterion 'v2_at_most' without 'refuted_by' "
            "(see docs/plugin-authoring.md#criteria)") in line
    assert ("registers strategy 'v3_own' without 'description' "
            "(see docs/plugin-authoring.md#strategies)") in line
    assert "v2_at_most" not in host.registry("criteria")
    assert "v3_own" not in host.registry("strategies")


@pytest.mark.fast
def test_plugin_infos_say_which_plugin_is_adapted():
    host = get_host()
    host.register(v2.adapted, name="old_latin")
    host.register(contract_3_twin(), name="new_twin")
    infos = {info.name: info for info in host.plugin_infos()}
    assert infos["old_latin"].contract == 2 and infos["old_latin"].adapted
    assert infos["new_twin"].contract == 3 and not infos["new_twin"].adapted
    assert not infos["sudoku"].adapted


def test_the_contract_2_strategy_and_criterion_make_puzzles():
    """Generation through the filled members: the own strategy judges with the contract-2
    criterion; the emptying strategy asks its filled-in checker (``judge`` per board)."""
    host = get_host()
    host.register(v2.adapted, name="old_latin")
    engine = Engine(host, Backend("gecode", time_limit=None))
    try:
        largest = host.get_type("v2_largest_judged")
        result = engine.generate(largest, engine.check_params(largest, {}), 5)
        xs = result.puzzle.instance
        assert result.puzzle.solution == xs.index(max(xs)) + 1
        latin = host.get_type("v2_latin_judged")
        params = engine.check_params(latin, {"size": 3})
        puzzle = engine.generate(latin, params, 2).puzzle
        assert puzzle.minimal and 0 in puzzle.grid
        _, solutions = engine.solve(latin, params, puzzle.grid, nr_solutions=2)
        assert solutions == [puzzle.solution]
    finally:
        engine.close()


def test_puzzle_engine_plugins_marks_the_adapted_plugin(tmp_path, monkeypatch):
    """The CLI as a user runs it, with the contract-2 test plugin installed on the path."""
    import subprocess
    import sys
    dist = tmp_path / "old_latin-2.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: old-latin\nVersion: 2.0\n")
    (dist / "entry_points.txt").write_text(
        "[puzzle_engine]\nold_latin = contract_v2_plugins:adapted\n")
    here = TESTS
    env = {**__import__("os").environ,
           "PYTHONPATH": f"{tmp_path}{':'}{here}"}
    done = subprocess.run([sys.executable, "-m", "puzzle_engine", "plugins"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "2, adapted" in done.stdout
    assert ("plugin 'old_latin' is written for contract 2 and adapted to contract 3 "
            "(see 'Migrating from contract v2' in docs/plugin-authoring.md)") in done.stdout
