"""Issue 43's message list, checked where the earlier tests did not reach: the help of
'gen TYPE' (the type's and its strategy's options, from their Param help) and of the
'plugins' subcommands has no raw reStructuredText, no braces in the usage line, and each
option's help on one line of a wide terminal (not broken mid-sentence)."""
import os
import subprocess
import sys

import pytest

from support import run

TYPES = ("sudoku", "fillomino", "combination", "polyomino-math", "logic")


def shown(*command):
    done = run(*command, "--help", env={"COLUMNS": "400", "TERM": "dumb"})
    assert done.exit_code == 0, done.output
    assert "``" not in done.output and ":func:" not in done.output
    usage = done.output.split("Usage:", 1)[1].splitlines()[0]
    assert "{" not in usage and "}" not in usage, usage
    return done.output


@pytest.mark.fast
@pytest.mark.parametrize("kind", TYPES)
def test_gen_type_help_has_each_option_on_one_line(kind):
    # in a process of its own, as a user runs it: the tables' console takes its width
    # from the environment when it is made, which another test in this process may have done
    done = subprocess.run([sys.executable, "-m", "puzzle_engine", "gen", kind, "--help"],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "400", "TERM": "dumb"})
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "``" not in text and "{" not in text.split("Usage:", 1)[1].splitlines()[0]
    tail = text.split(f"Options of puzzle '{kind}'", 1)[1].split("\n", 1)[1]
    lines = [ln for ln in tail.splitlines() if ln.strip()]
    options = [ln for ln in lines if ln.startswith(" --")]
    assert options, tail
    # a line that is neither a heading nor an option is a help text broken in two
    broken = [ln for ln in lines if not ln.startswith((" --", "Options of", "Puzzles of"))]
    assert not broken, broken


@pytest.mark.fast
@pytest.mark.parametrize("command", [["plugins", "install"], ["plugins", "uninstall"],
                                     ["plugins", "new"], ["db"], ["plugins"]])
def test_subcommand_help_is_plain_paragraphs(command):
    text = shown(*command).split("Usage:", 1)[1].split("╭", 1)[0]
    text = "\n".join(line.strip() for line in text.splitlines())
    paragraphs = [p for p in text.split("\n\n")[1:] if p.strip()]
    assert paragraphs and all(len(p.strip().splitlines()) == 1 for p in paragraphs), paragraphs
