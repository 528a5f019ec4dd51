"""Start-up: ``puzzle-engine COMMAND`` imports only that command's module and what it uses
(docs/performance.md, "Start-up"), every command still has its help, the whole help
lists every command in order, and plugins still load through their entry points."""
import json
import subprocess
import sys

import pytest

from puzzle_engine import cli
from support import ROOT

CLI = [sys.executable, "-c", "from puzzle_engine.cli import main; main()"]
#: Imported by a lone 'gen' before the lazy imports: none of it is needed to make a puzzle.
NOT_FOR_GEN = ("pydantic", "yaml", "sqlite3", "rich.progress", "rich.table", "tomllib",
               *(f"puzzle_engine.cli.{m}" for m in set(cli.COMMANDS.values()) - {"gen"}))


#: The commands that are groups of commands (``db stats``, ``plugins install``).
GROUPS = ("db", "plugins")


def command(*args):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=600)


@pytest.mark.fast
def test_every_command_module_registers_the_commands_it_is_named_for():
    app = cli.app
    found = {info.name or info.callback.__name__: info.callback.__module__.rsplit(".", 1)[-1]
             for info in app.registered_commands}
    found.update({info.name: info.typer_instance.registered_commands[0].callback.__module__
                  .rsplit(".", 1)[-1] for info in app.registered_groups})
    assert found == cli.COMMANDS
    assert [info.name or info.callback.__name__ for info in app.registered_commands] == \
        [name for name in cli.COMMANDS if name not in GROUPS]  # the help's order


@pytest.mark.fast
@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_every_command_has_its_help_when_it_alone_is_loaded(name):
    proc = command(name, "--help")
    assert proc.returncode == 0, proc.stderr
    assert f"Usage: puzzle-engine {name}" in " ".join(proc.stdout.split())


@pytest.mark.fast
def test_the_whole_help_and_an_unknown_command_see_every_command():
    listed = command("--help").stdout
    assert all(f" {name} " in listed for name in cli.COMMANDS)
    proc = command("bogus")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        "puzzle-engine: error: no such command 'bogus' (see 'puzzle-engine --help')"]


def test_gen_imports_only_what_it_uses():
    """A --logic-only Fillomino loads its plugin through the entry point and makes its
    puzzle without the other commands, pydantic, PyYAML, the store or rich's progress."""
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print(' '.join(sorted(sys.modules)), file=sys.stderr))\n"
            "from puzzle_engine.cli import main\n"
            "main()\n")
    proc = subprocess.run([sys.executable, "-c", code, "gen", "fillomino", "--size", "5",
                           "--seed", "1", "--logic-only", "--format", "json"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    assert record["plugin"] == "fillomino" and record["solver_calls"] == 0
    modules = set(proc.stderr.split())
    assert "puzzle_engine_plugins.fillomino" in modules
    assert "puzzle_engine_plugins.sudoku" in modules  # every plugin is still loaded
    assert not [m for m in NOT_FOR_GEN if m in modules]


@pytest.mark.fast
def test_the_output_keeps_emoji_codes_as_text():
    """stdout is the puzzle's text as it is: ':cat:' is not turned into an emoji."""
    from puzzle_engine.cli.common import out_console
    with out_console.capture() as captured:
        out_console.print("a :cat: b", markup=False)
    assert captured.get() == "a :cat: b\n"


@pytest.mark.fast
def test_commands_run_one_after_another_in_one_process():
    """main() runs in one fresh process again and again (as tests do): each command is
    found though the first run loaded only its own module, and the app read afterwards
    (a CliRunner's) has every command."""
    code = ("import sys\n"
            "from puzzle_engine import cli\n"
            "for words in (['specs'], ['plugins'], ['db', '--help'], ['solvers', '--help']):\n"
            "    try:\n"
            "        cli.main(words)\n"
            "    except SystemExit as done:\n"
            "        print('exit', done.code, file=sys.stderr)\n"
            "print('only', cli.app.only, file=sys.stderr)\n"
            "print('commands', len(cli.app.registered_commands), file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600)
    lines = [ln for ln in proc.stderr.splitlines() if ln.split()[0] in ("exit", "only", "commands")]
    assert lines == ["exit 0"] * 4 + ["only None", f"commands {len(cli.COMMANDS) - len(GROUPS)}"], \
        proc.stderr


@pytest.mark.fast
def test_python_m_puzzle_engine_is_the_command():
    """``python -m puzzle_engine`` runs the command, lazily too, with the same name in its
    messages (it was "No module named puzzle_engine.__main__")."""
    run = lambda *args: subprocess.run([sys.executable, "-m", "puzzle_engine", *args],
                                       capture_output=True, text=True, timeout=600)
    proc = run("check", "--help")
    assert proc.returncode == 0, proc.stderr
    assert "Usage: puzzle-engine check" in " ".join(proc.stdout.split())
    proc = run("bogus")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        "puzzle-engine: error: no such command 'bogus' (see 'puzzle-engine --help')"]


@pytest.mark.fast
def test_the_parsers_message_is_the_one_the_user_guide_shows():
    """A bad option value is the command line parser's message, which depends on typer's
    version (pinned below 0.29): the user guide showed 0.29's pydantic wording."""
    guide = (ROOT / "docs" / "user-guide.md").read_text(encoding="utf-8")
    lines = guide.splitlines()
    shown = lines[lines.index("$ puzzle-engine gen sudoku --seed abc") + 1]
    proc = command("gen", "sudoku", "--seed", "abc")
    assert proc.returncode == 2 and proc.stderr.strip() == shown
