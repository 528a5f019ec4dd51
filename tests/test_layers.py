"""Layers that cannot loop (issue 40, item 3): the engine's own registrations load through
an entry point like every plugin."""
from importlib.metadata import EntryPoint, entry_points

import pytest

from puzzle_engine import plugins
from puzzle_engine.errors import PuzzleInputError
from puzzle_engine.plugins import ENGINE_PLUGIN, GROUP, get_host


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

