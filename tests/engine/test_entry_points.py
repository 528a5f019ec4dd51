"""Third-party plugins install as packages and load through the entry-point group
``puzzle_engine``, exactly like the built-in ones; broken ones are reported and never
break the host.

Nothing here calls ``pm.register``: the two test distributions under tests/ are built
into wheels, installed into a temporary directory, and the real ``puzzle-engine`` console
script is run with that directory on ``PYTHONPATH``. Both are written for contract 3
(``PUZZLE_ENGINE_CONTRACT = 3`` and ``register_*`` hooks), but for one broken plugin that
is a contract-1 plugin, refused with a line that points to docs/plugin-authoring.md.
"""
import json
import os

import pytest
from support import CLI, install_site, _project, site_cli as cli, table_row, TESTS, type_rows

HERE = TESTS


LATIN = _project("plugin_pkg")
BROKEN_PROJECT = _project("broken_pkg")
#: How a warning names the package of a broken plugin (issue 38).
FROM_BROKEN = f"(from {BROKEN_PROJECT['name']} {BROKEN_PROJECT['version']})"

#: entry-point name in tests/broken_pkg -> what its error must say; the plugin is skipped
BROKEN = {
    "broken_import": "failed to load pe_broken_test.bad_import: ImportError: "
                     "this plugin needs a library that is not installed",
    "broken_register": "register_puzzle_types raised RuntimeError: cannot declare types today",
    "broken_hookname": "unknown hook 'register_puzle_types'",
    "broken_complexity": "register_complexities raised RuntimeError: no complexity here",
    "broken_target": "failed to load pe_broken_test.no_such_module: ModuleNotFoundError",
    "broken_contract1": "is written for contract 1; this engine speaks contract 3 "
                        "(set PUZZLE_ENGINE_CONTRACT = 3; see docs/plugin-authoring.md)",
}
#: entry-point name -> what its error must say; the plugin loads, but its type is refused
REFUSED = {
    "broken_thief": "puzzle type 'sudoku' is already registered by plugin 'sudoku'; "
                    "plugin 'broken_thief' cannot register it too",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The plugin 'latin' and the broken plugins, installed once."""
    site, wheels = install_site(tmp_path_factory.mktemp("plugins"), ("plugin_pkg", "broken_pkg"))
    assert [w.split("-")[0] for w in wheels] == [
        "puzzle_engine_broken_test", "puzzle_engine_latin_test"]
    return site


def broken_lines(stdout):
    return [ln for ln in stdout.splitlines()
            if ln.startswith(("broken plugin '", "refused from plugin '"))]


def is_latin(rows, n):
    want = list(range(1, n + 1))
    return (len(rows) == n and all(sorted(r) == want for r in rows)
            and all(sorted(c) == want for c in zip(*rows)))


@pytest.fixture(scope="module")
def clean_sudoku(site):
    """``gen sudoku --size 4 --seed 1`` with only the built-in plugin loaded."""
    proc = cli(site, "gen", "sudoku", "--size", "4", "--seed", "1", plugins="sudoku")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout


@pytest.mark.fast
def test_the_console_script_is_the_venvs():
    assert CLI.is_file() and os.access(CLI, os.X_OK), CLI


@pytest.mark.fast
def test_broken_entry_points_are_all_covered():
    assert set(BROKEN_PROJECT["entry-points"]["puzzle_engine"]) == set(BROKEN) | set(REFUSED)
    assert LATIN["entry-points"]["puzzle_engine"] == {"latin": "pe_latin_test"}


def test_plugins_lists_the_installed_plugin_and_its_version(site):
    result = cli(site, "plugins", plugins="sudoku,latin")
    assert result.returncode == 0, result.stderr
    plugin = table_row(result.stdout, "latin")
    assert plugin is not None, result.stdout
    assert plugin[1] == LATIN["version"]  # the distribution's version, from its metadata
    assert plugin[2] == "latin"
    assert plugin[3] == ""  # a puzzle type, and nothing else (no strategy, criterion...)
    engine_row = table_row(result.stdout, "puzzle_engine.defaults")
    assert engine_row[3].startswith("strategies: emptying, growing, own; criteria: ")
    latin = type_rows(result.stdout)["latin"]
    assert latin[:4] == ["latin", "latin", "emptying", "--size (default 4)"], latin
    assert type_rows(result.stdout)["sudoku"][1] == "sudoku"
    assert table_row(result.stdout, "sudoku") is not None
    assert broken_lines(result.stdout) == []


def test_gen_solve_and_check_through_the_installed_plugin(site):
    gen = cli(site, "gen", "latin", "--size", "5", "--seed", "3", "--format", "json",
              plugins="sudoku,latin")
    assert gen.returncode == 0, gen.stderr
    assert gen.stderr == ""
    lines = gen.stdout.splitlines()
    assert len(lines) == 1, gen.stdout
    record = json.loads(lines[0])
    assert record["type"] == "latin" and record["params"] == {"size": 5}
    assert record["plugin"] == "latin" and record["plugin_version"] == LATIN["version"]
    grid, solution = record["grid"], record["solution"]
    assert is_latin(solution, 5), solution
    assert len(grid) == 5 and all(len(row) == 5 for row in grid)
    assert all(g in (0, s) for gr, sr in zip(grid, solution) for g, s in zip(gr, sr))
    empties = sum(v == 0 for row in grid for v in row)
    assert empties >= 1 and empties == record["empty"] == 25 - record["givens"]
    assert record["minimal"] is True

    line = "".join(str(v) if v else "." for row in grid for v in row)
    for solver in ("gecode", "chuffed"):
        check = cli(site, "check", "latin", line, "--solver", solver, plugins="latin")
        assert check.returncode == 0, check.stderr
        assert check.stdout.strip() == "1 solution (unique)"
    solved = cli(site, "solve", "latin", line, "--format", "line", plugins="latin")
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout.strip() == "".join(str(v) for row in solution for v in row)


def test_the_plugin_reports_bad_input_in_one_line(site):
    for text, says in (("123.", "wrong length"), ("12x." * 4, "bad symbol 'x' at row 1, column 3"),
                       ("11.." + "." * 12, "conflicting givens: 1 appears twice in row 1")):
        result = cli(site, "check", "latin", text, plugins="latin")
        assert result.returncode == 2, result.stdout
        err = result.stderr.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("puzzle-engine: error: ") and says in err[0], err


def test_env_var_leaves_the_plugin_out(site):
    listed = cli(site, "plugins", plugins="sudoku")
    assert listed.returncode == 0, listed.stderr
    assert table_row(listed.stdout, "latin") is None
    assert table_row(listed.stdout, "sudoku") is not None

    result = cli(site, "gen", "latin", "--size", "5", "--seed", "3", plugins="sudoku")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "puzzle-engine: error: unknown puzzle 'latin' (loaded puzzle types: sudoku; "
        "see 'puzzle-engine plugins')"]

    none = cli(site, "plugins", plugins="")
    assert none.returncode == 0
    assert table_row(none.stdout, "sudoku") is None and table_row(none.stdout, "latin") is None


@pytest.mark.parametrize("name", sorted({**BROKEN, **REFUSED}))
def test_one_broken_plugin_never_breaks_the_host(site, clean_sudoku, name):
    """A broken plugin is one line and is left out; a plugin whose type takes the
    built-in's name keeps loading, but its type is refused and 'sudoku' stays the
    built-in's: ``gen sudoku`` makes the very puzzle it makes without it."""
    says = {**BROKEN, **REFUSED}[name]
    listed = cli(site, "plugins", plugins=f"sudoku,{name}")
    assert listed.returncode == 0, listed.stderr
    lines = broken_lines(listed.stdout)
    prefix = (f"refused from plugin '{name}' {FROM_BROKEN}: " if name in REFUSED
              else f"broken plugin '{name}' {FROM_BROKEN} (skipped): ")
    assert len(lines) == 1 and lines[0].startswith(prefix), lines
    assert says in lines[0]
    if name in REFUSED:
        row = table_row(listed.stdout, name)  # loaded, with no puzzle type of its own
        assert row is not None and row[2] == "", listed.stdout
    else:
        assert table_row(listed.stdout, name) is None  # dropped, not half-loaded
    assert table_row(listed.stdout, "sudoku") is not None
    assert type_rows(listed.stdout)["sudoku"][1] == "sudoku"  # the built-in's type

    gen = cli(site, "gen", "sudoku", "--size", "4", "--seed", "1", plugins=f"sudoku,{name}")
    assert gen.returncode == 0, gen.stderr
    assert gen.stdout == clean_sudoku  # the same puzzle as without the broken plugin
    warnings = gen.stderr.strip().splitlines()
    assert len(warnings) == 1, warnings
    if name in REFUSED:  # the plugin loads; only its type is refused
        assert warnings[0] == (f"puzzle-engine: warning: plugin '{name}' {FROM_BROKEN}: {says} "
                               "(the rest of the plugin is loaded)")
    else:
        assert warnings[0].startswith(f"puzzle-engine: warning: plugin '{name}' {FROM_BROKEN} "
                                      "is broken and was skipped: ")
    assert says in warnings[0]


def test_a_contract_1_plugin_points_to_the_contract(site):
    """The refusal of a plugin written for contract 1 says what to do, in one line."""
    gen = cli(site, "gen", "sudoku", "--size", "4", "--seed", "1", plugins="sudoku,broken_contract1")
    assert gen.returncode == 0, gen.stderr
    (warning,) = gen.stderr.strip().splitlines()
    assert "contract" in warning and "PUZZLE_ENGINE_CONTRACT = 3" in warning
    assert "docs/plugin-authoring.md" in warning
    assert (HERE.parent / "docs" / "plugin-authoring.md").is_file()


def test_all_broken_plugins_at_once_never_break_the_host(site, clean_sudoku):
    """Every failure is reported once, however many plugins fail and wherever."""
    every = {**BROKEN, **REFUSED}
    listed = cli(site, "plugins")  # no PUZZLE_ENGINE_PLUGINS: every installed entry point
    assert listed.returncode == 0, listed.stderr
    lines = broken_lines(listed.stdout)
    for name, says in every.items():
        prefix = (f"refused from plugin '{name}' {FROM_BROKEN}: " if name in REFUSED
                  else f"broken plugin '{name}' {FROM_BROKEN} (skipped): ")
        assert any(ln.startswith(prefix) and says in ln for ln in lines), name
    assert len(lines) == len(every), "\n".join(lines)  # each one once
    assert table_row(listed.stdout, "latin")[1] == LATIN["version"]  # the good ones still load
    assert table_row(listed.stdout, "sudoku") is not None
    assert type_rows(listed.stdout)["sudoku"][1] == "sudoku"

    gen = cli(site, "gen", "sudoku", "--size", "4", "--seed", "1")
    assert gen.returncode == 0, gen.stderr
    assert gen.stdout == clean_sudoku
    warnings = gen.stderr.strip().splitlines()
    assert len(warnings) == len(every), warnings  # one line per plugin, once
    assert all(w.startswith("puzzle-engine: warning: plugin 'broken_") and FROM_BROKEN in w
               for w in warnings)

    latin = cli(site, "gen", "latin", "--seed", "2", "--format", "line")
    assert latin.returncode == 0, latin.stderr
    assert len(latin.stdout.strip()) == 16  # --size defaults to 4
