"""``puzzle-engine render`` from the command line: files written and named, captions,
answer-key pages, the PDF's pages, and every mistake (options, input, a missing extra, a
plugin's broken drawing or board) as one line and exit status 2."""
import hashlib
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from PIL import Image
from typer.testing import CliRunner

from puzzle_engine import PlayGrid, hookimpl
from puzzle_engine.cli import app
from puzzle_engine.cli import render as render_cli
from puzzle_engine.plugins import get_host
from puzzle_engine_plugins.sudoku import Sudoku
from puzzle_engine_plugins.sudoku.logic import format_line
from render_support import NS, cli, records
from support import fast, one_line_error

runner = CliRunner()
#: A 4x4 Sudoku record as 'gen --format json' writes it (a given's row, column and box).
RECORD = {"type": "sudoku", "params": {"size": 4, "box": "2x2", "choose": "fill"},
          "grid": [[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]],
          "seed": 7, "variant": None, "plugin": "sudoku", "plugin_version": "0.1.0",
          "solver": "org.chuffed.chuffed", "complexity": {"name": "givens", "level": 4}}


@pytest.fixture
def jsonl(tmp_path):
    """A file of three 4x4 records (seeds 7, 8, 9; the same board, which the id tells)."""
    path = tmp_path / "three.jsonl"
    path.write_text("".join(json.dumps({**RECORD, "seed": 7 + k}) + "\n" for k in range(3)))
    return path


@pytest.mark.parametrize("args, words", [
    fast(["--format", "gif"], ["bad --format 'gif'", "svg, pdf, png, html"]),
    fast(["--per-page", "0"], ["bad --per-page 0"]),
    fast(["--paper", "a3"], ["bad --paper 'a3'", "a4, letter, fit"]),
    fast(["--out", "/no/such/folder/x.svg"], ["the folder /no/such/folder does not exist"]),
    fast(["--out", "-"], ["render writes files, not standard output"]),
    fast(["--dpi", "5"], ["bad --dpi 5: expected 24 to 1200"]),
    fast(["--out", "x.gif"], ["bad --out x.gif: unknown suffix '.gif'", ".svg, .pdf, .png, .html"]),
    fast(["--format", "pdf", "--out", "x.svg"],
         ["bad --out x.svg: its suffix says svg, but --format is pdf (name it x.pdf)"]),
])
def test_bad_options_are_one_line(jsonl, args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a relative --out that were taken lands in no clone
    one_line_error(runner.invoke(app, ["render", str(jsonl), *args]), *words)


@pytest.mark.parametrize("content, words", [
    fast("", ["empty input"]),
    fast("..6...9.8", ["not JSON Lines"]),
    fast('{"type": "sudoku"\n', ["line 1", "not a puzzle record"]),
    fast(json.dumps({"grid": []}) + "\n", ["line 1", "a field 'type'"]),
    fast(json.dumps({**RECORD, "type": "nonesuch"}) + "\n", ["line 1", "unknown puzzle 'nonesuch'"]),
    fast(json.dumps(RECORD) + "\n" + json.dumps({**RECORD, "grid": [[5, 0, 0, 0]] * 4}) + "\n",
         ["line 2"]),
])
def test_bad_input_is_one_line_naming_the_line(tmp_path, content, words):
    path = tmp_path / "in.jsonl"
    path.write_text(content)
    one_line_error(runner.invoke(app, ["render", str(path), "--out", str(tmp_path / "x.svg")]),
                   *words)


@pytest.mark.fast
def test_missing_input_and_missing_extra(tmp_path, jsonl, monkeypatch):
    one_line_error(runner.invoke(app, ["render", str(tmp_path / "nope.jsonl")]), "no such file")
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if the extra were not installed
    for fmt in ("pdf", "png"):
        result = runner.invoke(app, ["render", str(jsonl), "--format", fmt,
                                     "--out", str(tmp_path / f"x.{fmt}")])
        one_line_error(result, "optional extra 'pdf'", "pip install 'puzzle-engine[pdf]'")
        assert not (tmp_path / f"x.{fmt}").exists()
    # PDF by default: the error says that SVG and HTML need nothing.
    result = runner.invoke(app, ["render", str(jsonl), "--out", str(tmp_path / "x")])
    one_line_error(result, "optional extra 'pdf'",
                   "(PDF is the default format: --format svg or html needs no extra)")


@pytest.mark.fast
def test_the_formats_suffix_is_added_and_ignored_options_are_named(tmp_path, jsonl):
    result = cli("render", jsonl, "--format", "svg", "--out", tmp_path / "sheet", "--dpi", 100)
    assert (tmp_path / "sheet.svg").is_file() and not (tmp_path / "sheet").exists()
    assert "puzzle-engine: warning: --dpi does nothing for --format svg" in result.stderr
    result = cli("render", jsonl, "--out", tmp_path / "page.png", "--dpi", 48)
    assert "warning" not in result.stderr


def test_a_bad_solver_is_named_before_the_input_is_read(tmp_path):
    """As in 'solve': --solver is checked first, even when INPUT is missing."""
    result = runner.invoke(app, ["render", str(tmp_path / "nope.jsonl"), "--solver", "nonesuch"])
    one_line_error(result, "solver 'nonesuch' is not installed")


@pytest.mark.fast
def test_sheet_files_captions_and_ids(tmp_path, jsonl, monkeypatch):
    """Without --solutions no solver runs. Two to a page: two pages, named STEM-1, STEM-2;
    the default name is INPUT's, in the working folder; each caption has the number, type,
    level, params and the id TYPE/SEED/HASH."""
    monkeypatch.chdir(tmp_path)
    result = cli("render", jsonl, "--format", "svg", "--per-page", 2, "--title", "Week 1",
                 "--caption", "full")
    assert "wrote three-1.svg" in result.stderr and "wrote three-2.svg" in result.stderr
    first = ET.fromstring((tmp_path / "three-1.svg").read_text())
    assert len(first.findall("svg:svg", NS)) == 2
    texts = [t.text for t in first.iter(f"{{{NS['svg']}}}text")]
    assert texts[0] == "Week 1 \u00b7 page 1 of 2"
    captions = [t for t in texts if t.startswith(("1.", "2.", "id "))]
    assert captions[0] == "1. Sudoku \u00b7 size 4"  # no level (ungraded); box follows size
    ids = [t.split()[1] for t in captions if t.startswith("id ")]
    assert [i.split("/")[:2] for i in ids] == [["sudoku", "7"], ["sudoku", "8"]]
    assert ids[0].split("/")[2] == ids[1].split("/")[2]  # the same puzzle, the same hash
    assert "givens 4 \u00b7 sudoku 0.1.0 \u00b7 chuffed" in captions[1]
    # A record of 'gen --difficulty' is captioned with its grade.
    graded = tmp_path / "graded.jsonl"
    graded.write_text(json.dumps({**RECORD, "difficulty": {"level": "expert"}}) + "\n")
    cli("render", graded, "--format", "svg", "--out", tmp_path / "graded.svg")
    assert "1. Sudoku \u00b7 level expert \u00b7 size 4" in (tmp_path / "graded.svg").read_text()
    second = ET.fromstring((tmp_path / "three-2.svg").read_text())
    assert len(second.findall("svg:svg", NS)) == 1
    assert not list(tmp_path.glob("*key*"))


def test_answer_key_pages_and_pdf(tmp_path, jsonl):
    """--solutions adds key pages after the puzzles: SVG files STEM-key-N, and in a PDF,
    pages of their own (poppler counts them); the format follows --out's suffix."""
    cli("render", jsonl, "--per-page", 2, "--solutions", "--out", tmp_path / "s.svg")
    keys = sorted(p.name for p in tmp_path.glob("s-key-*.svg"))
    assert keys == ["s-key-1.svg", "s-key-2.svg"]
    key = ET.fromstring((tmp_path / "s-key-1.svg").read_text())
    assert next(key.iter(f"{{{NS['svg']}}}text")).text.startswith("Puzzles: answer key")
    answers = [t.text for t in key.iter(f"{{{NS['svg']}}}text") if t.get("class") == "answer"]
    assert len(answers) == 2 * 12  # two 4x4 puzzles of four givens
    cli("render", jsonl, "--per-page", 2, "--solutions", "--out", tmp_path / "s.pdf")
    assert (tmp_path / "s.pdf").read_bytes().startswith(b"%PDF")
    assert pdfinfo(tmp_path / "s.pdf") == ("4", "595.275 x 841.875 pts (A4)")
    cli("render", jsonl, "--per-page", 3, "--paper", "letter", "--out", tmp_path / "l.pdf")
    assert pdfinfo(tmp_path / "l.pdf") == ("1", "612 x 792 pts (letter)")
    cli("render", jsonl, "--per-page", 3, "--paper", "letter", "--dpi", 48, "--out",
        tmp_path / "l.png")
    assert Image.open(tmp_path / "l.png").size == (408, 528)  # 8.5 x 11 inches at 48 dpi


def pdfinfo(path):
    """Poppler's count of pages, and the page size."""
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True,
                          timeout=300).stdout
    fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
    return fields["Pages"].strip(), fields["Page size"].strip()


class Careless(Sudoku):
    """Sudoku whose drawing and board are broken, one way per size."""

    name = "careless-sudoku"

    def render_svg(self, params, instance, solution=None):
        if params["size"] == 4:
            return "<svg><rect/></svg>"  # no namespace
        return "<svg xmlns='http://www.w3.org/2000/svg'"  # not even XML

    def play_grid(self, params, instance, solution):
        grid = super().play_grid(params, instance, solution)
        return PlayGrid(**{**grid.__dict__, "solution": tuple(grid.solution[:-1])})


class Undrawn(Sudoku):
    name = "undrawn-sudoku"

    def render_svg(self, params, instance, solution=None):
        return None

    def play_grid(self, params, instance, solution):
        return None


class CarelessPlugin:
    PUZZLE_ENGINE_CONTRACT = 3

    @hookimpl
    def register_puzzle_types(self, register):
        register(Careless())
        register(Undrawn())


@pytest.fixture
def careless(monkeypatch):
    def host(warn=True):
        h = get_host()
        h.register(CarelessPlugin(), name="careless", version="0.0.test")
        return h
    monkeypatch.setattr(render_cli, "_host", host)


@pytest.mark.parametrize("name, fmt, words", [
    fast("careless-sudoku", "svg", ["render_svg (puzzle 'careless-sudoku', plugin 'careless')",
                                    "an <svg> document in the namespace"]),
    fast("undrawn-sudoku", "svg", ["line 1", "puzzle type 'undrawn-sudoku' (plugin 'careless') "
                                   "draws no pictures"]),
    ("careless-sudoku", "html", ["play_grid (puzzle 'careless-sudoku', plugin 'careless')",
                                 "solution must be 16 whole numbers"]),
    ("undrawn-sudoku", "html", ["draws no pictures"]),
])
def test_a_plugins_broken_drawing_is_one_line(tmp_path, careless, name, fmt, words):
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({**RECORD, "type": name}) + "\n")
    result = runner.invoke(app, ["render", str(path), "--format", fmt,
                                 "--out", str(tmp_path / f"x.{fmt}")])
    one_line_error(result, *words)
    assert not (tmp_path / f"x.{fmt}").exists()


def test_a_puzzle_without_a_solution_is_one_line(tmp_path):
    """The key and the play page need the solver's solution; none is one line."""
    path = tmp_path / "in.jsonl"  # row 1 needs 3 and 4 in its right box, which has a 3
    path.write_text(json.dumps({**RECORD, "grid": [[1, 2, 0, 0], [0, 0, 0, 3], [0] * 4,
                                                   [0] * 4]}) + "\n")
    for fmt, extra in (("html", []), ("svg", ["--solutions"])):
        result = runner.invoke(app, ["render", str(path), "--format", fmt, *extra,
                                     "--out", str(tmp_path / f"x.{fmt}")])
        one_line_error(result, f"{path}, line 1: no answer to draw: the puzzle has no solution")


@pytest.mark.fast
def test_a_failed_write_leaves_nothing_and_is_one_line(tmp_path):
    """A write that fails half-way (a full disk) leaves neither the file nor its
    temporary, and says which file."""
    from puzzle_engine.errors import PuzzleInputError
    from puzzle_engine.render.document import _write

    def half(part):
        part.write_text("half a page")
        raise OSError(28, "No space left on device")

    with pytest.raises(PuzzleInputError, match=r"cannot write .*x\.svg: No space left on device"):
        _write(tmp_path / "x.svg", half)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.fast
def test_too_many_per_page_is_refused_naming_the_most(tmp_path):
    """A --per-page that would shrink the boards below readable squares (or below zero)
    is one line naming the most that fit; that many draws squares of at least 8 points."""
    from puzzle_engine.render.sheet import SMALLEST
    from render_support import placements

    path = tmp_path / "many.jsonl"
    path.write_text("".join(json.dumps({**RECORD, "seed": k}) + "\n" for k in range(80)))
    result = runner.invoke(app, ["render", str(path), "--per-page", "80", "--format", "svg",
                                 "--out", str(tmp_path / "x.svg")])
    one_line_error(result, "--per-page 80 does not fit on a4: at most")
    assert not list(tmp_path.glob("x*.svg"))
    most = int(result.output.split("at most ")[1].split()[0])
    cli("render", path, "--per-page", most, "--format", "svg", "--out", tmp_path / "x.svg")
    page = (tmp_path / "x-1.svg").read_text()
    assert len(placements(page)) == most
    assert all(w / bw >= SMALLEST for _, _, w, _, bw, _ in placements(page))
    one_line_error(runner.invoke(app, ["render", str(path), "--per-page", str(most + 1),
                                       "--format", "svg", "--out", str(tmp_path / "y.svg")]),
                   f"at most {most} ")


def test_control_characters_and_odd_fields_make_sound_pages(tmp_path):
    """Text XML cannot hold (a record's plugin version, the title) is left out of every
    caption and title, a field that is not text is not shown, and PDF and PNG are made."""
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps({**RECORD, "plugin_version": "0.1\u0001", "solver": 5,
                                "plugin": ["x"], "complexity": {"name": {}, "level": 4}}) + "\n")
    title = "Week\u0002 1\ufffe"
    for fmt in ("svg", "png", "pdf", "html"):
        cli("render", path, "--title", title, "--caption", "full", "--out", tmp_path / f"odd.{fmt}")
    page = ET.fromstring((tmp_path / "odd.svg").read_text())
    texts = [t.text for t in page.iter(f"{{{NS['svg']}}}text")
             if t.get("class") not in ("given", "rules")]
    assert texts == ["Week 1", "1. Sudoku \u00b7 size 4",
                     "id sudoku/7/6a4dd2 \u00b7 complexity 4 \u00b7 sudoku 0.1"]
    assert (tmp_path / "odd.pdf").read_bytes().startswith(b"%PDF")
    assert "\u0002" not in (tmp_path / "odd.html").read_text()


@pytest.mark.fast
def test_cairosvgs_failure_is_one_line_and_closes_the_pdf(tmp_path):
    from puzzle_engine.errors import PuzzleEngineError
    from puzzle_engine.render import convert
    good = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
    with pytest.raises(PuzzleEngineError, match=r"^CairoSVG could not draw page 2 as PDF: "
                                                r"ParseError: syntax error"):
        convert.to_pdf([good, "junk"], tmp_path / "x.pdf")
    assert (tmp_path / "x.pdf").read_bytes().rstrip().endswith(b"%%EOF")  # finished
    with pytest.raises(PuzzleEngineError, match="page 3 as PNG: ValueError"):
        convert.to_png('<svg xmlns="http://www.w3.org/2000/svg"/>', tmp_path / "x.png", 1, 3)


@pytest.mark.fast
def test_a_run_with_fewer_pages_removes_only_its_own_old_pages(tmp_path, jsonl):
    """Pages an earlier run wrote under the same name (each marked as written by this
    tool) that this run does not write are removed; a file the tool did not write is
    never removed, even under a name it gives (a user's x-key-1.svg), nor one that name
    does not give. A page file that is there is replaced only with --force."""
    out = tmp_path / "x.svg"
    mine = {name: f"<svg>{name}, the user's</svg>"
            for name in ("x-key-1.svg", "x-5.svg", "x-notes.svg", "x-1.png")}
    for name, text in mine.items():
        (tmp_path / name).write_text(text)
    cli("render", jsonl, "--per-page", 1, "--out", out)
    assert sorted(p.name for p in tmp_path.glob("x*")) == [
        "x-1.png", "x-1.svg", "x-2.svg", "x-3.svg", "x-5.svg", "x-key-1.svg", "x-notes.svg"]
    one_line_error(runner.invoke(app, ["render", str(jsonl), "--per-page", "2", "--out",
                                       str(out)]), "x-1.svg already exists", "--force")
    cli("render", jsonl, "--per-page", 2, "--out", out, "--force")
    assert sorted(p.name for p in tmp_path.glob("x*.svg")) == [
        "x-1.svg", "x-2.svg", "x-5.svg", "x-key-1.svg", "x-notes.svg"]
    cli("render", jsonl, "--per-page", 3, "--out", out, "--force")
    assert sorted(p.name for p in tmp_path.glob("x*.svg")) == [
        "x-5.svg", "x-key-1.svg", "x-notes.svg", "x.svg"]
    cli("render", jsonl, "--per-page", 1, "--out", out, "--force")
    assert sorted(p.name for p in tmp_path.glob("x*.svg")) == [
        "x-1.svg", "x-2.svg", "x-3.svg", "x-5.svg", "x-key-1.svg", "x-notes.svg"]
    assert {name: (tmp_path / name).read_text() for name in mine} == mine


def test_a_page_file_that_is_there_is_refused_before_the_answer_keys_are_solved(
        tmp_path, jsonl, monkeypatch):
    """``--out x.svg`` on several pages writes x-1.svg...: a user's x-1.svg was refused only
    after every answer key had been solved (minutes, for a large batch). The puzzle pages'
    names are known once they are laid out, before any solve."""
    from puzzle_engine.cli import render

    def no_solve(*args, **kwargs):
        raise AssertionError("solved before the refusal")
    monkeypatch.setattr(render._Solutions, "key", no_solve)
    monkeypatch.setattr(render._Solutions, "__call__", no_solve)
    (tmp_path / "x-1.svg").write_text("<svg>the user's</svg>")
    one_line_error(runner.invoke(app, ["render", str(jsonl), "--per-page", "1", "--solutions",
                                       "--out", str(tmp_path / "x.svg")]),
                   "x-1.svg already exists", "--force")
    assert (tmp_path / "x-1.svg").read_text() == "<svg>the user's</svg>"


def test_png_pages_are_marked_and_cleaned_up_as_ours(tmp_path, jsonl):
    """A PNG page carries the mark in a text chunk (it still reads as a PNG), so that a
    later run removes it as one of its own pages, and a PNG without it is kept."""
    from puzzle_engine.render.document import MARK
    out = tmp_path / "y.png"
    (tmp_path / "y-3.png").write_bytes(b"\x89PNG not ours")
    cli("render", jsonl, "--per-page", 2, "--out", out)
    page = Image.open(tmp_path / "y-1.png")
    assert page.text.get("Software") == MARK and page.size[0] > 100
    cli("render", jsonl, "--per-page", 3, "--out", out, "--force")
    assert sorted(p.name for p in tmp_path.glob("y*.png")) == ["y-3.png", "y.png"]


def test_an_answer_key_is_drawn_only_for_an_accepted_puzzle(tmp_path):
    """--solutions: a puzzle with several solutions gets a one-line warning naming it
    and no key; the others' keys are drawn, under their own numbers."""
    path = tmp_path / "two.jsonl"
    empty = {**RECORD, "grid": [[0] * 4 for _ in range(4)], "seed": 8}
    path.write_text(json.dumps(RECORD) + "\n" + json.dumps(empty) + "\n")
    result = cli("render", path, "--solutions", "--per-page", 1, "--out", tmp_path / "k.svg")
    warnings = [ln for ln in result.stderr.splitlines() if "warning" in ln]
    assert warnings == [f"puzzle-engine: warning: {path}, line 2: the puzzle has 2 or more "
                        "solutions: no answer key drawn for it"]
    assert sorted(p.name for p in tmp_path.glob("k*.svg")) == ["k-1.svg", "k-2.svg", "k-key.svg"]
    key = (tmp_path / "k-key.svg").read_text()
    assert "1. Sudoku" in key and "2. Sudoku" not in key


def test_the_play_page_names_the_options_it_ignores(tmp_path, jsonl):
    result = cli("render", jsonl, "--out", tmp_path / "p.html", "--solutions", "--per-page", 2,
                 "--paper", "letter", "--dpi", 100)
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert warnings == [f"puzzle-engine: warning: --{name} does nothing for --format html"
                        for name in ("dpi", "paper", "per-page", "solutions")]
    assert (tmp_path / "p.html").is_file()


def test_a_time_out_is_one_line_naming_the_puzzle(tmp_path):
    """The key and the play page solve each puzzle within --time-limit; running out is one
    line naming the puzzle's line (a 25x25 board of three givens: hopeless in 1 ms)."""
    grid = [[0] * 25 for _ in range(25)]
    grid[0][0], grid[5][7], grid[12][3] = 1, 2, 3
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({**RECORD, "params": {"size": 25}, "grid": grid}) + "\n")
    for fmt, extra in (("html", []), ("svg", ["--solutions"])):
        result = runner.invoke(app, ["render", str(path), "--format", fmt, *extra,
                                     "--time-limit", "0.001", "--out", str(tmp_path / f"x.{fmt}")])
        one_line_error(result, f"{path}, line 1: no answer to draw: the solver timed out "
                       "(raise --time-limit)")
        assert not (tmp_path / f"x.{fmt}").exists()


def test_the_caption_says_how_to_make_the_puzzle_again(tmp_path):
    """gen with what the caption says (the type and seed of the id, the parameters, the gen
    flags after the id) makes the same puzzle, here one of --target-empty 8."""
    path = tmp_path / "made.jsonl"
    path.write_text(cli("gen", "sudoku", "--size", 4, "--seed", 5, "--target-empty", 8,
                        "--format", "json").stdout)
    cli("render", path, "--out", tmp_path / "made.svg")
    page = ET.fromstring((tmp_path / "made.svg").read_text())
    head, made = [t.text for t in page.iter(f"{{{NS['svg']}}}text") if t.get("class") == "caption"]
    assert made.startswith("id sudoku/5/") and made.endswith(" \u00b7 gen --target-empty 8")
    ptype, seed, digest = made.split(" \u00b7 ")[0][3:].split("/")
    params = [word for pair in head.split(" \u00b7 ")[-1].split(", ")
              for word in ("--" + pair.split()[0], pair.split()[1])]
    flags = next(part for part in made.split(" \u00b7 ") if part.startswith("gen "))[4:].split()
    again = json.loads(cli("gen", ptype, "--seed", seed, *params, *flags,
                           "--format", "json").stdout)
    assert again["grid"] == records(path)[0]["grid"] and again["empty"] == 8
    line = format_line([v for row in again["grid"] for v in row])
    assert hashlib.sha256(line.encode()).hexdigest()[:6] == digest
    default = json.loads(cli("gen", ptype, "--seed", seed, *params, "--format", "json").stdout)
    assert default["grid"] != again["grid"]  # the flag matters: without it, another puzzle


@pytest.mark.fast
def test_a_caption_leaves_out_parameters_that_are_unset():
    """A parameter left unset (None, its declared default) is not printed as 'None'."""
    from puzzle_engine.render.caption import caption
    from puzzle_engine.render.sources import Entry
    from puzzle_engine.types import Param

    class Optional(Sudoku):
        params = (*Sudoku.params, Param("style", str, None, "a drawing style"))

    entry = Entry(Optional(), {"size": 4, "box": "2x2", "style": None}, (0,) * 16,
                  {"type": "sudoku", "seed": 1}, "x, line 1")
    head = caption(entry, 1)[0]
    assert "None" not in head and "style" not in head
    entry = Entry(Optional(), {"size": 4, "box": "2x2", "style": "bold"}, (0,) * 16,
                  {"type": "sudoku", "seed": 1}, "x, line 1")
    assert "style bold" in caption(entry, 1)[0]
