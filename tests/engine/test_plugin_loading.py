"""How the host tells about the plugins it loads (issue 38): a plugin whose loading takes
over 2 s is named, two installed packages under one plugin name are both named, and a
refused plugin is one line per command naming its package, however many of its things
were refused.

The packages tests/plugin_pkg (the plugin 'latin') and tests/twin_pkg (another 'latin', a
slow plugin, a plugin with two refused types) are built into wheels and installed into a
temporary folder, and the real console script runs with it on PYTHONPATH, as in
test_entry_points. The slow plugin's import sleeps 2.5 s: the tests assert the warning,
never a time (a busy machine only makes it slower).
"""
import re

import pytest

from support import _project, install_site, site_cli as cli, table_row, type_rows

LATIN, TWIN = _project("plugin_pkg"), _project("twin_pkg")
LATIN_DIST = f"{LATIN['name']} {LATIN['version']}"
TWIN_DIST = f"{TWIN['name']} {TWIN['version']}"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return install_site(tmp_path_factory.mktemp("twins"), ("plugin_pkg", "twin_pkg"))[0]


def warnings(proc):
    return [ln for ln in proc.stderr.splitlines() if ln.strip()]


def test_a_slow_plugin_is_named_in_one_line(site):
    gen = cli(site, "gen", "sudoku", "--size", "4", "--seed", "1", plugins="sudoku,slow_plugin")
    assert gen.returncode == 0, gen.stderr
    (line,) = warnings(gen)
    assert re.fullmatch(rf"puzzle-engine: warning: plugin 'slow_plugin' \(from {TWIN_DIST}\) "
                        r"took \d+\.\d s to load; every command waits for it", line), line
    listed = cli(site, "plugins", plugins="sudoku,slow_plugin")
    assert listed.returncode == 0 and listed.stderr == "", listed.stderr
    assert any(ln.startswith("plugin 'slow_plugin' (from ") and "to load" in ln
               for ln in listed.stdout.splitlines()), listed.stdout
    assert table_row(listed.stdout, "slow_plugin") is not None  # slow, but loaded


def test_two_packages_under_one_plugin_name_are_both_named(site):
    gen = cli(site, "gen", "sudoku", "--size", "4", "--seed", "1", plugins="sudoku,latin")
    assert gen.returncode == 0, gen.stderr
    (line,) = warnings(gen)
    assert line.startswith("puzzle-engine: warning: plugin 'latin' is declared by 2 installed "
                           "packages: "), line
    assert LATIN_DIST in line and TWIN_DIST in line and "only the first is loaded" in line
    listed = cli(site, "plugins", plugins="latin")
    types = type_rows(listed.stdout)
    assert ("latin" in types) != ("twin_latin" in types), listed.stdout  # exactly one loaded
    row = table_row(listed.stdout, "latin")
    assert row[1] in (LATIN["version"], TWIN["version"])


def test_a_refused_plugin_is_one_line_per_command_naming_its_package(site):
    for args in (("gen", "sudoku", "--size", "4", "--seed", "1"),
                 ("check", "sudoku", "1234341221434321"),
                 ("gen", "sudoku", "--size", "4", "--seed", "1", "--count", "2", "--workers", "2")):
        proc = cli(site, *args, plugins="sudoku,fillomino,double_thief")
        assert proc.returncode == 0, proc.stderr
        assert warnings(proc) == [
            f"puzzle-engine: warning: plugin 'double_thief' (from {TWIN_DIST}): puzzle type "
            "'sudoku' is already registered by plugin 'sudoku'; plugin 'double_thief' cannot "
            "register it too; puzzle type 'fillomino' is already registered by plugin "
            "'fillomino'; plugin 'double_thief' cannot register it too (the rest of the plugin "
            "is loaded)"], args
