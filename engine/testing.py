"""The conformance kit: the checks every puzzle plugin should pass, for its author to run
with pytest. Every built-in plugin passes them in puzzle-engine's own CI, and so does a
plugin fresh from ``puzzle-engine plugins new``.

In the plugin's tests, once the plugin is installed (``puzzle-engine plugins install -e
.``)::

    from puzzle_engine.testing import PluginConformance

    class TestStarBattle(PluginConformance):
        puzzle = "star-battle"     # the puzzle type to check
        options = ("--size", "4")  # its options, as on the command line: keep it small
        seed = 1                   # the seed of the puzzle the checks make
        broken = ("1x..",)         # inputs that must be refused in one line (optional)
        formats = ("json", "line", "text")  # the formats solve must read back (all: default)

pytest then runs, on that type, each ``test_*`` method below; each names what failed.
The checks run the command line, in this process, as a user would (``gen``, ``check``,
``solve``, ``render``, ``plugins --json``), on the real solvers: what they hold the
plugin to is what a user sees, whichever version of the plugin contract it is written
for. The same checks are functions (``check_plugin`` runs them all) for a test written
another way.

What a conforming type does:

- it **loads through its entry point**: ``plugins --json`` lists it, from an installed
  package, with no load error;
- it **generates reproducibly**: the same seed gives the same record twice (the time
  taken aside);
- its puzzle is **accepted on the real solver**: ``check`` says its criterion accepts it
  (for ``unique``: one solution);
- **check and solve read what gen wrote**, in every format: the JSON record
  (``from_json``), the line and the text (``parse``) solve to the same record, and for a
  puzzle with one solution, to the one ``gen`` wrote (``to_json``, ``format``);
- it **draws**: ``render`` makes an SVG sheet with the puzzle drawn, and its answer key;
- **broken input is one line**: each of ``broken``, a character no format uses, and a
  JSON record without the type's fields, is refused by ``check`` with exit status 2 and
  one line ``puzzle-engine: error: ...`` on stderr, no traceback.
"""
from __future__ import annotations

import json
import traceback
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from .cli import app

#: Fields of a record that may differ between two runs of the same seed: the time, and
#: the solver calls (effort, which the caches a first run fills change), never the puzzle.
VOLATILE = frozenset({"seconds", "solver_calls"})
#: Fields of ``solve``'s record that are not the puzzle's (``to_json``'s) own.
NOT_THE_PUZZLE = frozenset({"type", "params", "solver", "solver_version"})
SVG = "{http://www.w3.org/2000/svg}"
#: The formats ``gen`` writes, which ``check`` and ``solve`` read back.
FORMATS = ("json", "line", "text")
#: A character that no puzzle format reads: the first of the broken inputs.
ODD = "\u00a7"


@dataclass
class Ran:
    """One command as it ended: exit status, standard output and error."""

    args: tuple[str, ...]
    status: int
    stdout: str
    stderr: str
    exception: BaseException | None = None

    def __str__(self) -> str:
        shown = f"puzzle-engine {' '.join(self.args)}: exit status {self.status}"
        if self.stderr.strip():
            shown += f"\nstderr:\n{self.stderr.rstrip()}"
        if self.exception is not None:
            shown += "\n" + "".join(traceback.format_exception(self.exception)).rstrip()
        return shown

    def ok(self) -> Ran:
        assert self.status == 0 and self.exception is None, str(self)
        return self

    def record(self) -> dict[str, Any]:
        lines = [ln for ln in self.stdout.splitlines() if ln.strip()]
        assert len(lines) == 1, f"expected one JSON record on stdout, got:\n{self.stdout}\n{self}"
        try:
            return json.loads(lines[0])
        except json.JSONDecodeError as exc:
            raise AssertionError(f"not a JSON record ({exc}): {lines[0]!r}\n{self}") from None


def run(*args: str, input: str | None = None) -> Ran:
    """``puzzle-engine ARGS`` in this process (typer's test runner): what it printed and
    its exit status. A plugin's bug that escapes as an exception is kept in ``exception``
    with its traceback, for the failure's message."""
    result = CliRunner().invoke(app, list(args), input=input)
    exception = result.exception
    if isinstance(exception, SystemExit):
        exception = None
    return Ran(tuple(args), result.exit_code, result.stdout, result.stderr, exception)


@dataclass
class Generated:
    """A puzzle the kit made, in every format, and where its files go."""

    puzzle: str
    options: tuple[str, ...]
    seed: int
    solver: tuple[str, ...]  # ("--solver", NAME) or ()
    record: dict[str, Any]
    line: str
    text: str
    record_file: Path
    folder: Path


def _solver(solver: str | None) -> tuple[str, ...]:
    return ("--solver", solver) if solver else ()


def generate(puzzle: str, options: Sequence[str] = (), seed: int = 1, *, folder: Path,
             solver: str | None = None) -> Generated:
    """``gen`` the puzzle of ``seed`` as a JSON record, a line and a text."""
    options, chosen = tuple(options), _solver(solver)
    base = ("gen", puzzle, *options, "--seed", str(seed), *chosen)
    record = run(*base, "--format", "json").ok().record()
    line = run(*base, "--format", "line").ok().stdout.strip("\n")
    text = run(*base, "--format", "text").ok().stdout
    assert line and "\n" not in line, f"the line format is not one line: {line!r}"
    folder.mkdir(parents=True, exist_ok=True)
    record_file = folder / f"{puzzle}.jsonl"
    record_file.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return Generated(puzzle, options, seed, chosen, record, line, text, record_file, folder)


def _type_entry(puzzle: str) -> tuple[dict[str, Any], dict[str, Any]]:
    listed = json.loads(run("plugins", "--json").ok().stdout)
    for plugin in listed:
        for ptype in plugin["types"]:
            if ptype["name"] == puzzle:
                return plugin, ptype
    broken = [f"{p['name']}: {'; '.join(p['errors'])}" for p in listed if p["errors"]]
    raise AssertionError(f"no loaded plugin registers the puzzle type '{puzzle}' (is its "
                         f"package installed? broken plugins: {broken or 'none'})")


def check_loads(puzzle: str) -> dict[str, Any]:
    """The type's plugin is loaded from an installed package's entry point, without an
    error. Returns its entry of ``plugins --json``."""
    plugin, _ = _type_entry(puzzle)
    assert plugin["loaded"], plugin
    assert plugin["package"], (f"plugin '{plugin['name']}' was not loaded from an installed "
                               "package's entry point (group 'puzzle_engine')")
    assert plugin["version"], f"plugin '{plugin['name']}' has no version"
    assert not plugin["errors"], f"plugin '{plugin['name']}' has errors: {plugin['errors']}"
    assert "register_puzzle_types" in plugin["hooks"], plugin["hooks"]
    return plugin


def _steady(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in VOLATILE}


def check_reproducible(generated: Generated) -> None:
    """The same seed makes the same puzzle, record for record (the time taken aside)."""
    again = run("gen", generated.puzzle, *generated.options, "--seed", str(generated.seed),
                *generated.solver, "--format", "json").ok().record()
    first = _steady(generated.record)
    second = _steady(again)
    differ = sorted(k for k in first.keys() | second.keys() if first.get(k) != second.get(k))
    assert not differ, (f"seed {generated.seed} made two different records; fields that "
                        f"differ: {differ}")
    assert first["type"] == generated.puzzle and first["seed"] == generated.seed, first


def judge(generated: Generated, source: str) -> dict[str, Any]:
    """``check``'s JSON verdict on ``source`` (a line, a text or a file's path)."""
    ran = run("check", generated.puzzle, source, *generated.solver, "--format", "json")
    assert ran.exception is None, str(ran)
    verdict = ran.record()
    assert ran.status == (0 if verdict.get("accepted") else 1), str(ran)
    return verdict


def check_accepted(generated: Generated) -> dict[str, Any]:
    """``check`` on the real solver: the type's criterion accepts the generated puzzle,
    read from its line and from its JSON record alike. Returns the verdict."""
    verdict = judge(generated, generated.line)
    assert verdict["accepted"] is True, (f"check does not accept the puzzle gen made "
                                         f"(seed {generated.seed}): {verdict}")
    if verdict.get("criterion") == "unique":
        assert verdict.get("unique") is True, verdict
    assert "fake" not in str(verdict.get("solver", "")), verdict
    from_record = judge(generated, str(generated.record_file))
    assert from_record["accepted"] is True, from_record
    return verdict


def _puzzle_fields(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in NOT_THE_PUZZLE}


def solved(generated: Generated, source: str, input: str | None = None) -> dict[str, Any]:
    """``solve``'s JSON record of ``source``."""
    return run("solve", generated.puzzle, source, *generated.solver, "--format", "json",
               input=input).ok().record()


def check_round_trips(generated: Generated, formats: Sequence[str] = FORMATS) -> None:
    """``solve`` reads the puzzle back from each format ``gen`` writes (the JSON record,
    the line, the text; ``formats`` leaves out one the type does not read back) to the
    same puzzle; for a puzzle with one solution (by ``check``), the record ``solve``
    writes holds the instance and solution ``gen`` wrote, field for field."""
    unknown = set(formats) - set(FORMATS)
    assert not unknown and formats and formats[0] == "json", \
        f"formats are some of {FORMATS}, json first"
    text_file = generated.folder / f"{generated.puzzle}.txt"
    text_file.write_text(generated.text, encoding="utf-8")
    sources = {"json": str(generated.record_file), "line": generated.line,
               "text": str(text_file)}
    by_format = {name: solved(generated, sources[name]) for name in formats}
    fields = {name: _puzzle_fields(record) for name, record in by_format.items()}
    assert fields["json"], f"solve wrote no field of the puzzle: {by_format['json']}"
    for name in formats[1:]:
        assert fields[name] == fields["json"], (
            f"the {name} format reads back to another puzzle than the JSON record:\n"
            f"{name}: {fields[name]}\njson: {fields['json']}")
    verdict = judge(generated, generated.line)
    if verdict.get("unique") is True:
        shared = sorted(fields["json"].keys() & generated.record.keys())
        assert shared, f"solve's record shares no field with gen's: {fields['json']}"
        solve = {k: fields["json"][k] for k in shared}
        wrote = {k: generated.record[k] for k in shared}
        assert solve == wrote, ("solve's record of the puzzle differs from gen's:\n"
                                f"solve: {solve}\ngen:   {wrote}")


def _drawings(page: Path) -> list[ET.Element]:
    root = ET.fromstring(page.read_text(encoding="utf-8"))
    assert root.tag == f"{SVG}svg", f"{page.name} is not an SVG document"
    return [e for e in root.iter(f"{SVG}svg") if "puzzle" in e.get("class", "").split()]


def check_renders(generated: Generated) -> None:
    """``render`` draws the puzzle on an SVG sheet, and its answer key on another."""
    out = generated.folder / f"{generated.puzzle}-sheet.svg"
    run("render", str(generated.record_file), "--format", "svg", "--paper", "fit",
        "--solutions", "--force", "--out", str(out), *generated.solver).ok()
    key = out.with_name(f"{out.stem}-key.svg")
    for page in (out, key):
        assert page.is_file(), f"render wrote no {page.name}"
        drawings = _drawings(page)
        assert len(drawings) == 1, f"{page.name} holds {len(drawings)} drawings, not 1"
        assert len(list(drawings[0].iter())) > 3, f"the drawing on {page.name} is empty"


def one_line_error(ran: Ran) -> str:
    """The one error line of a command that refused its input; fails otherwise."""
    assert ran.exception is None, str(ran)
    assert ran.status == 2, str(ran)
    lines = [ln for ln in ran.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("puzzle-engine: error: "), str(ran)
    assert "Traceback" not in ran.stderr + ran.stdout, str(ran)
    return lines[0]


def check_broken_input(generated: Generated, broken: Sequence[str] = ()) -> list[str]:
    """``check`` refuses broken puzzles in one line, exit status 2: each of ``broken``, a
    line with a character no format uses, and a JSON record stripped of the type's
    fields. Returns the lines."""
    record = generated.record
    stripped = generated.folder / f"{generated.puzzle}-stripped.jsonl"
    stripped.write_text(json.dumps({"type": record["type"], "params": record["params"]})
                        + "\n", encoding="utf-8")
    inputs = [*broken, ODD + generated.line[1:], str(stripped)]
    return [one_line_error(run("check", generated.puzzle, source, *generated.solver))
            for source in inputs]


def check_plugin(puzzle: str, options: Sequence[str] = (), seed: int = 1, *, folder: Path,
                 solver: str | None = None, broken: Sequence[str] = (),
                 formats: Sequence[str] = FORMATS) -> Generated:
    """Every check of the kit on ``puzzle``, in order; ``folder`` holds the files."""
    check_loads(puzzle)
    generated = generate(puzzle, options, seed, folder=folder, solver=solver)
    check_reproducible(generated)
    check_accepted(generated)
    check_round_trips(generated, formats)
    check_renders(generated)
    check_broken_input(generated, broken)
    return generated


class PluginConformance:
    """The kit as a pytest class: subclass it as ``TestSomething``, set ``puzzle`` (and
    ``options``, ``seed``, ``solver``, ``broken`` as needed), and pytest runs each check
    as a test of its own, on one puzzle made once for the class."""

    puzzle: str = ""
    options: Sequence[str] = ()
    seed: int = 1
    solver: str | None = None
    broken: Sequence[str] = ()
    formats: Sequence[str] = FORMATS

    @pytest.fixture(scope="class")
    @classmethod
    def generated(cls, tmp_path_factory) -> Generated:
        assert cls.puzzle, f"{cls.__name__} names no puzzle (set puzzle = 'NAME')"
        check_loads(cls.puzzle)
        return generate(cls.puzzle, cls.options, cls.seed,
                        folder=tmp_path_factory.mktemp(f"conformance-{cls.puzzle}"),
                        solver=cls.solver)

    def test_loads_through_its_entry_point(self):
        check_loads(self.puzzle)

    def test_generates_reproducibly(self, generated):
        check_reproducible(generated)

    def test_is_accepted_on_the_real_solver(self, generated):
        check_accepted(generated)

    def test_check_and_solve_read_every_format(self, generated):
        check_round_trips(generated, self.formats)

    def test_renders_a_drawing_and_its_key(self, generated):
        check_renders(generated)

    def test_broken_input_is_one_line(self, generated):
        check_broken_input(generated, self.broken)


__all__ = ["Generated", "PluginConformance", "Ran", "check_accepted", "check_broken_input",
           "check_loads", "check_plugin", "check_renders", "check_reproducible",
           "check_round_trips", "generate", "one_line_error", "run"]
