"""``puzzle-engine render STORE``: a real store made by ``batch`` and ``gen --db`` drawn
to SVG, chosen with ``db query``'s filters; each drawing shows the stored puzzle's givens
and a caption whose id makes it again; a bad store is one line."""
import hashlib
import json
import re
import sqlite3
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from puzzle_engine.cli import app
from puzzle_engine_plugins.sudoku.logic import format_line
from render_support import NS, cli
from support import one_line_error

runner = CliRunner()
SVG = f"{{{NS['svg']}}}"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Four 4x4 Sudoku of --target-empty 8 from a batch (seeds 3 on), then a Fillomino
    from 'gen --db'."""
    path = tmp_path_factory.mktemp("store") / "corpus.db"
    cli("batch", "sudoku", "--size", 4, "--count", 4, "--seed", 3, "--target-empty", 8,
        "--db", path)
    cli("gen", "fillomino", "--size", 4, "--seed", 1, "--db", path)
    return path


def stored(path, *args) -> list[dict]:
    """The records ``db query`` gives for ``args`` (the store's own reading)."""
    out = cli("db", "query", path, "--from", "puzzles", "--format", "jsonl", *args).stdout
    return [json.loads(line) for line in out.splitlines()]


def drawn(page: ET.Element) -> list[tuple[dict[int, int], list[str]]]:
    """Each drawing on a page: its givens (square: value) and its caption's two lines
    (put together again where the sheet wrapped them)."""
    captions = " ".join(t.text for t in page.iter(f"{SVG}text") if t.get("class") == "caption")
    heads = re.split(r" (?=\d+\. )", captions)
    out = []
    for pic, caption in zip(page.findall("svg:svg", NS), heads, strict=True):
        givens = {int(t.get("data-square")): int(t.text) for t in pic.iter(f"{SVG}text")
                  if t.get("class") == "given"}
        head, made = caption.split(" id ", 1)
        out.append((givens, [head, "id " + made]))
    return out


def test_a_store_is_drawn_with_its_puzzles_and_captions_that_make_them_again(store, tmp_path):
    result = cli("render", store, "--format", "svg", "--per-page", 8, "--type", "sudoku",
                 "--param", "size=4", "--limit", 3, "--out", tmp_path / "page.svg",
                 "--caption", "full")
    assert "wrote" in result.stderr
    want = stored(store, "--type", "sudoku", "--param", "size=4", "--limit", "3")
    assert len(want) == 3 and want[0]["seed"] == 3
    pictures = drawn(ET.fromstring((tmp_path / "page.svg").read_text()))
    assert len(pictures) == 3
    for n, (record, (givens, (head, made))) in enumerate(zip(want, pictures), 1):
        cells = [v for row in record["grid"] for v in row]
        assert givens == {k: v for k, v in enumerate(cells) if v}  # the stored puzzle's givens
        assert len(givens) == 8  # --target-empty 8 on 16 squares
        assert head == f"{n}. Sudoku \u00b7 size 4"
        digest = hashlib.sha256(format_line(cells).encode()).hexdigest()[:6]
        assert made == (f"id sudoku/{record['seed']}/{digest} \u00b7 gen --target-empty 8 "
                        "\u00b7 givens 8 \u00b7 sudoku 0.1.0 \u00b7 sat")  # Sudoku's solver up to 16x16
    # What the caption says makes the last one again.
    again = json.loads(cli("gen", "sudoku", "--size", 4, "--seed", want[-1]["seed"],
                           "--target-empty", 8, "--format", "json").stdout)
    assert again["grid"] == want[-1]["grid"]


def test_type_level_and_a_draw_choose_from_the_store(store, tmp_path):
    cli("render", store, "--format", "svg", "--type", "fillomino", "--out", tmp_path / "f.svg")
    (pic,) = drawn(ET.fromstring((tmp_path / "f.svg").read_text()))
    assert pic[1][0].startswith("1. Fillomino") and pic[1][1].startswith("id fillomino/1/")
    # Everything by default, in the order stored; the default name is the store's.
    cli("render", store, "--format", "svg", "--per-page", 8, "--out", tmp_path / "corpus")
    every = drawn(ET.fromstring((tmp_path / "corpus.svg").read_text()))
    assert [p[1][1].split()[1].split("/")[:2] for p in every] == [
        ["sudoku", str(r["seed"])] for r in stored(store, "--type", "sudoku")] + [["fillomino", "1"]]
    # A draw: the same seed, the same puzzles; two from the store's five.
    for name in ("d1.svg", "d2.svg"):
        cli("render", store, "--format", "svg", "--limit", 2, "--draw", 7, "--out", tmp_path / name)
    first, second = ((tmp_path / n).read_text() for n in ("d1.svg", "d2.svg"))
    ids = [p[1][1].split()[1] for p in drawn(ET.fromstring(first))]
    assert first == second and len(ids) == 2 and set(ids) <= {p[1][1].split()[1] for p in every}
    # No puzzle is graded: --level finds none, which is said in one line.
    one_line_error(runner.invoke(app, ["render", str(store), "--format", "svg", "--level",
                                       "expert", "--out", str(tmp_path / "none.svg")]),
                   "no puzzles to render")
    assert not (tmp_path / "none.svg").exists()


@pytest.mark.fast
def test_a_bad_store_is_one_line_and_an_empty_file_stays_empty(tmp_path):
    sqlite3.connect(tmp_path / "other.sqlite").execute("CREATE TABLE t (x)").connection.close()
    (tmp_path / "other.bin").write_bytes((tmp_path / "other.sqlite").read_bytes())
    (tmp_path / "junk.db").write_text("hello\n")
    (tmp_path / "empty.db").write_bytes(b"")
    (tmp_path / "in.jsonl").write_text("{}\n")
    for name, words in (("nope.db", ["bad INPUT", "nope.db: no such file"]),
                        ("other.sqlite", ["other.sqlite: an SQLite database, but not a "
                                          "puzzle-engine store"]),
                        ("other.bin", ["other.bin: an SQLite database, but not a puzzle-engine"]),
                        ("junk.db", ["junk.db: not an SQLite database"]),
                        ("empty.db", ["empty.db: an empty file, not a puzzle-engine store"])):
        one_line_error(runner.invoke(app, ["render", str(tmp_path / name), "--format", "svg",
                                           "--out", str(tmp_path / "x.svg")]), *words)
    assert (tmp_path / "empty.db").stat().st_size == 0  # reading makes no store of it
    one_line_error(runner.invoke(app, ["db", "stats", str(tmp_path / "empty.db")]),
                   "bad DB", "an empty file")
    assert (tmp_path / "empty.db").stat().st_size == 0
    for args, words in ((["--limit", "2"], ["in.jsonl: --type, --param, --level, --limit and "
                                            "--draw select from a store"]),
                        (["--draw", "1"], ["--draw needs --limit"]),
                        (["--limit", "0"], ["bad --limit 0"])):
        one_line_error(runner.invoke(app, ["render", str(tmp_path / "in.jsonl"), "--format",
                                           "svg", "--out", str(tmp_path / "x.svg"), *args]),
                       *words)
    assert not (tmp_path / "x.svg").exists()
