"""Every example of README.md and docs/user-guide.md runs as written (issue 43).

The ``puzzle-engine ...`` lines of each document's fenced shell blocks (``sh``, and the
``$ `` lines of ``console`` blocks) are run in order, each document in a fresh folder
holding the fixtures they name (tests/data/examples: ``puzzle.txt``, ``labelled.csv``,
``level.jsonl``, ``my-spec.yaml``, ``puzzle.jsonl``...), on the real solvers. Each must
exit as the document says (2 where it shows ``puzzle-engine: error: ...``, else 0) with
no traceback; where the command gives a ``--seed`` (or shows an error), what it prints
must be what the document shows below it (``...`` in the document stands for any text).

A line of plain ``puzzle-engine`` commands, joined by ``|`` and ending in ``> FILE`` at
most, runs in this process (CliRunner: a process per command would take minutes); any
other shell (``$(...)``, ``python3 -c``) runs in bash with the venv's ``puzzle-engine``.

``SMALLER`` lists the commands run with smaller counts, where the document's would take
minutes, and ``SKIPPED`` the few not run at all, with the reason."""
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzle_engine.cli import app, main
from support import ROOT, TESTS

FIXTURES = TESTS / "data" / "examples"
DOCS = ("README.md", "docs/user-guide.md")
BIN = Path(sys.executable).parent

#: The document's command -> the command run instead (the same option, a smaller count
#: or board), where the document's takes minutes on a busy machine.
SMALLER = {
    "puzzle-engine gen sudoku --count 100 --format json --out batch.jsonl --resume":
        "puzzle-engine gen sudoku --count 3 --format json --out batch.jsonl --resume",
    "puzzle-engine gen sudoku --count 100 --workers 2 --format line":
        "puzzle-engine gen sudoku --count 2 --workers 2 --format line",
    "puzzle-engine gen sudoku --size 25":
        "puzzle-engine gen sudoku --size 16 --seed 1",
    "puzzle-engine train sudoku --data labelled.csv":
        "puzzle-engine train sudoku --data labelled.csv --runs 5",
    "puzzle-engine train sudoku --data labelled.csv --out my-levels.skops":
        "puzzle-engine train sudoku --data labelled.csv --out my-levels.skops --runs 5",
    "puzzle-engine gen combination --width 6 --height 6 --walls 10 --holes 2 --start full "
    "--solver sat --keep all --count 20":
        "puzzle-engine gen combination --width 6 --height 6 --walls 10 --holes 2 --start full "
        "--solver sat --keep all --count 2 --seed 1",
    "puzzle-engine gen combination --width 8 --height 8 --colours 3 --walls 20 --holes 10 "
    "--start full --fills 5 --solver sat --keep all --count 2":
        "puzzle-engine gen combination --width 8 --height 8 --colours 3 --walls 20 --holes 10 "
        "--start full --fills 1 --solver sat --keep all --count 1 --seed 1",
    "puzzle-engine gen combination --count 20 --keep all --workers 2":
        "puzzle-engine gen combination --count 2 --keep all --workers 2 --seed 1",
    "puzzle-engine gen sudoku --difficulty expert":
        "puzzle-engine gen sudoku --difficulty expert --seed 1",
    "puzzle-engine batch sudoku --count 1000 --db corpus.db --workers 2":
        "puzzle-engine batch sudoku --count 4 --db corpus.db --workers 2",
    "puzzle-engine batch sudoku --count 200 --db corpus.db --difficulty expert":
        "puzzle-engine batch sudoku --count 1 --db corpus.db --difficulty expert --seed 1",
    "puzzle-engine batch sudoku --box 2x3 --count 50 --db corpus.db --variants 5":
        "puzzle-engine batch sudoku --box 2x3 --count 3 --db corpus.db --variants 5",
    "puzzle-engine gen sudoku --count 10 --db corpus.db":
        "puzzle-engine gen sudoku --count 2 --db corpus.db",
    "puzzle-engine gen logic --spec house-number --count 5":
        "puzzle-engine gen logic --spec house-number --count 2",
    # The guide's interrupted run (Ctrl-C after five puzzles): the five puzzles.
    "puzzle-engine gen sudoku --count 20 --seed 1 --format json --out big.jsonl":
        "puzzle-engine gen sudoku --count 5 --seed 1 --format json --out big.jsonl",
    "puzzle-engine gen sudoku --count 20 --format json --out big.jsonl --resume":
        "puzzle-engine gen sudoku --count 7 --format json --out big.jsonl --resume",
    "puzzle-engine gen sudoku --size 25 --seed 1 --time-limit 1 --batch 1 --format json > to25.json":
        "puzzle-engine gen sudoku --size 16 --seed 1 --batch 1 --format json > to25.json",
    "puzzle-engine gen sudoku --difficulty expert --count 5 --format json --out expert.jsonl":
        "puzzle-engine gen sudoku --difficulty expert --count 1 --seed 1 --format json "
        "--out expert.jsonl",
    "puzzle-engine gen sudoku --count 8 --seed 1 --format json --out week.jsonl":
        "puzzle-engine gen sudoku --count 3 --seed 1 --format json --out week.jsonl",
    "puzzle-engine render batch.jsonl --out play.html":
        "puzzle-engine render batch.jsonl --out play.html --explain-seconds 2",
    "puzzle-engine render week.jsonl --out week.html":
        "puzzle-engine render week.jsonl --out week.html --explain-seconds 2",
    "puzzle-engine gen polyomino-math --rows 10 --cols 10 --compose --fuse":
        "puzzle-engine gen polyomino-math --rows 10 --cols 10 --compose --fuse --seed 1",
    "puzzle-engine grade polyomino-math puzzle.jsonl --runs 30":
        "puzzle-engine grade polyomino-math puzzle.jsonl --runs 3",
}
#: Commands that take a minute or more on a busy machine even so (grading for a level,
#: growing Combination levels, the play page's explainer, training): marked ``slow``.
#: (The full suite runs them; the commands after them that read what they wrote are
#: marked too.)
SLOW = {
    "puzzle-engine gen combination --count 20 --keep all --workers 2",
    "puzzle-engine gen sudoku --difficulty expert",
    "puzzle-engine train sudoku --data labelled.csv",
    "puzzle-engine render batch.jsonl --out play.html",
    "puzzle-engine batch sudoku --count 200 --db corpus.db --difficulty expert",
    "puzzle-engine db query corpus.db --level expert --limit 10 --draw 1",
    "puzzle-engine train sudoku --data labelled.csv --out my-levels.skops",
    "puzzle-engine gen sudoku --difficulty expert --count 5 --format json --out expert.jsonl",
    "puzzle-engine render week.jsonl --out week.html",
    "puzzle-engine render corpus.db --level expert --limit 8 --draw 1 --solutions",
    "puzzle-engine grade polyomino-math puzzle.jsonl --runs 30",
    "puzzle-engine gen polyomino-math --rows 10 --cols 10 --compose --fuse",
}
#: Commands not run, and why.
SKIPPED = {
    "puzzle-engine batch sudoku --count 6 --seed 1 --db corpus.db":
        "shows the refusal while another command runs the same batch",
}
#: Commands that add or remove packages in the environment that runs puzzle-engine, and
#: those that use what they add: run here they would install into the tests' own
#: environment, which every other test (and, under pytest-xdist, tests running meanwhile)
#: loads. tests/cli/test_ecosystem.py installs and uninstalls plugins in a throwaway
#: environment instead, and tests/engine/test_conformance.py runs a new plugin there.
INSTALLING = ("puzzle-engine plugins install ", "puzzle-engine plugins uninstall ")
#: Puzzle types that only an installing example adds.
INSTALLED_TYPES = ("star-battle",)


def _installs(plain: str) -> bool:
    """Whether ``plain`` (a command without its comment) installs, uninstalls or uses
    what an installing example would add."""
    words = plain.split()
    return plain.startswith(INSTALLING) or (
        len(words) > 2 and words[1] in ("gen", "check", "solve", "render")
        and words[2] in INSTALLED_TYPES)


#: Commands whose output is not compared though they give a seed, and why.
#: (A command run smaller is never compared: its output is not the document's.)
UNCOMPARED = {
    "puzzle-engine gen sudoku --count 20 --seed 1 --format json --out big.jsonl":
        "the guide's interrupted run, stood for by five puzzles; it shows the interruption",
}


def examples(doc: str) -> list[tuple[str, str | None]]:
    """``(command, shown output or None)`` for each ``puzzle-engine`` line of the
    document's shell blocks, in order (None: an ``sh`` block shows no output)."""
    text = (ROOT / doc).read_text()
    found = []
    for lang, block in re.findall(r"^```(\w*)\n(.*?)^```", text, re.M | re.S):
        if lang == "sh":
            found += [(line.strip(), None) for line in block.splitlines()
                      if line.startswith("puzzle-engine ")]
        elif lang == "console":
            for part in re.split(r"^\$ ", block, flags=re.M)[1:]:
                command, _, output = part.partition("\n")
                if command.startswith("puzzle-engine "):
                    found.append((command.strip(), output))
    return found


def _without_comment(command: str) -> str:
    return " ".join(shlex.split(command, comments=True))


def _in_process(command: str) -> list[list[str]] | None:
    """The argument lists of a line of ``puzzle-engine`` commands joined by ``|`` (the
    last one perhaps ``> FILE``, as its last two words), or None for other shell."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    words = list(lexer)
    stages, current = [], []
    for word in words:
        if word == "|":
            stages.append(current)
            current = []
        else:
            current.append(word)
    stages.append(current)
    for n, stage in enumerate(stages):
        if not stage or stage[0] != "puzzle-engine":
            return None
        if any(w in (">", "<", ";", "&&", "||", "&", "2>") or "$(" in w for w in stage[:-2]):
            return None
        if len(stage) >= 2 and stage[-2] == ">" and n != len(stages) - 1:
            return None
    return stages


def run(command: str, folder: Path) -> tuple[int, str]:
    """Run the command line in ``folder``: exit status, and what the terminal shows
    (standard output, then standard error)."""
    stages = _in_process(command)
    if stages is None:
        env = {"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(folder), "COLUMNS": "200",
               "TERM": "dumb"}
        done = subprocess.run(["bash", "-c", command], cwd=folder, capture_output=True,
                              text=True, env=env, timeout=600)
        return done.returncode, done.stdout + done.stderr
    runner = CliRunner()
    stdin, shown, status = None, "", 0
    for stage in stages:
        target = None
        if len(stage) >= 2 and stage[-2] == ">":
            stage, target = stage[:-2], stage[-1]
        with runner.isolation(input=stdin) as (out, err, _):
            try:  # the console script's own entry: its one-line errors
                main(stage[1:])
                status = 0
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
            stdout, stderr = out.getvalue().decode(), err.getvalue().decode()
        assert "Traceback" not in stdout + stderr, (command, stderr)
        stdin = stdout
        if target is not None:
            (folder / target).write_text(stdout)
            stdin = ""
        shown += stderr
    return status, stdin + shown


#: What differs from run to run: times, rates, a bar's length.
_VARYING = re.compile(r"\d+\.\d+|━+|\d+:\d\d:\d\d")


def _matches(shown: str, wanted: str) -> bool:
    got = [_VARYING.sub("~", line.rstrip()) for line in shown.rstrip("\n").splitlines()]
    want = [_VARYING.sub("~", line.rstrip()) for line in wanted.rstrip("\n").splitlines()]
    if len(got) != len(want):
        return False
    return all(re.fullmatch(".*".join(map(re.escape, w.split("..."))), g)
               for g, w in zip(got, want))


CASES = [pytest.param(doc, n, id=f"{Path(doc).stem}-{n}",
                      marks=[pytest.mark.slow] if _without_comment(command) in SLOW else [])
         for doc in DOCS for n, (command, _) in enumerate(examples(doc))]


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """A fresh folder of the fixtures for each document."""
    out = {}
    for doc in DOCS:
        folder = tmp_path_factory.mktemp(Path(doc).stem)
        for item in FIXTURES.iterdir():
            if item.is_dir():
                shutil.copytree(item, folder / item.name)
            else:
                shutil.copy(item, folder / item.name)
        out[doc] = folder
    return out


@pytest.fixture(autouse=True)
def _isolated(monkeypatch, folders, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.delenv("PUZZLE_ENGINE_CONFIG", raising=False)


@pytest.mark.parametrize("doc, n", CASES)
def test_every_example_runs_as_written(doc, n, folders, monkeypatch):
    command, output = examples(doc)[n]
    plain = _without_comment(command)
    if plain in SKIPPED:
        pytest.skip(SKIPPED[plain])
    if _installs(plain):
        pytest.skip("installs into the environment the tests run in (see INSTALLING)")
    ran = SMALLER.get(plain, command)
    folder = folders[doc]
    monkeypatch.chdir(folder)
    status, shown = run(ran, folder)
    assert "Traceback" not in shown, (command, shown)
    error = output is not None and "puzzle-engine: error:" in output
    # 'check' exits 1 for a puzzle that is not unique (or whose count is unknown), as
    # documented; every other command 0, or 2 where the document shows the error.
    verdict = plain.split("|")[-1].split()[1] == "check" and not error and status == 1 \
        and shown.strip()
    assert status == (2 if error else 1 if verdict else 0), (command, status, shown)
    compared = bool(output and output.strip()) and plain not in UNCOMPARED and \
        ran == command and (error or "--seed" in command)
    if compared:
        assert _matches(shown, output), f"{command}\n--- shown ---\n{shown}--- document ---\n{output}"


@pytest.mark.fast
def test_the_tables_name_commands_the_documents_hold():
    """A substitution or a skip names a command of a document (not a stale one)."""
    every = {_without_comment(c) for doc in DOCS for c, _ in examples(doc)}
    for command in (*SMALLER, *SKIPPED, *UNCOMPARED, *SLOW):
        assert command in every, command


def test_db_export_takes_a_limit_as_the_guide_shows(tmp_path, monkeypatch):
    """The guide's 'db export corpus.db --limit 1 | check sudoku -' failed: export had no
    --limit. It has now, and --draw, as 'db query' has."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    made = runner.invoke(app, ["batch", "sudoku", "--size", "4", "--count", "3", "--seed", "1",
                               "--db", "corpus.db"])
    assert made.exit_code == 0, made.output
    status, shown = run("puzzle-engine db export corpus.db --limit 1 | "
                        "puzzle-engine check sudoku -", tmp_path)
    assert status == 0 and shown.strip().splitlines()[0] == "1 solution (unique)", shown
    one = runner.invoke(app, ["db", "export", "corpus.db", "--limit", "1"])
    assert one.exit_code == 0 and len(one.stdout.splitlines()) == 1
    drawn = [runner.invoke(app, ["db", "export", "corpus.db", "--limit", "2", "--draw", "5"])
             for _ in range(2)]
    assert drawn[0].stdout == drawn[1].stdout and len(drawn[0].stdout.splitlines()) == 2
    every = runner.invoke(app, ["db", "export", "corpus.db"]).stdout.splitlines()
    assert set(drawn[0].stdout.splitlines()) <= set(every) and len(every) == 3
    bad = runner.invoke(app, ["db", "export", "corpus.db", "--draw", "5"])
    assert bad.exit_code == 2 and "--draw needs --limit" in bad.stderr


@pytest.mark.fast
def test_specs_show_prints_a_shipped_spec():
    from puzzle_engine_plugins.logic.puzzle import shipped_specs
    runner = CliRunner()
    shown = runner.invoke(app, ["specs", "--show", "knights-knaves"])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout == shipped_specs()["knights-knaves"].read_text(encoding="utf-8")
    missing = runner.invoke(app, ["specs", "--show", "nonesuch"])
    assert missing.exit_code == 2 and "Traceback" not in missing.output
    lines = [ln for ln in missing.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "bad --show 'nonesuch': no shipped spec of that name" in lines[0]
    assert "knights-knaves" in lines[0]
