"""Sheets a printer would sell (issue 43): each type's rules printed on its sheet (the text
the play page shows), captions in words at 8 points or more (``--caption
short|full|none``, a level only for a graded puzzle, only the parameters the user set),
Polyomino Math pieces drawn at the board's scale with the pieces left over in the key,
the content centred on the page, and text that would print under 8 points refused in
one line rather than shrunk. Pages are rasterised and looked at, as in
test_render_pictures."""
import json
import re
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from puzzle_engine.cli import app
from puzzle_engine.plugins import get_host
from puzzle_engine.render import sheet
from puzzle_engine.render.caption import caption
from puzzle_engine.render.rules import rules
from puzzle_engine.render.sources import Entry
from render_support import NS, cli, raster_svg, records
from support import one_line_error

runner = CliRunner()
SVG = f"{{{NS['svg']}}}"
POINT = 96 / 72
#: A 4x4 Sudoku record as 'gen --format json' writes it (no grade: a complexity only).
RECORD = {"type": "sudoku", "params": {"size": 4, "box": "2x2", "choose": "fill"},
          "grid": [[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]],
          "seed": 7, "variant": None, "plugin": "sudoku", "plugin_version": "0.1.0",
          "solver": "org.chuffed.chuffed", "complexity": {"name": "givens", "level": 4}}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Puzzles made by 'gen' on the real solvers, by name: a 9x9 Sudoku, a logic puzzle
    and a Polyomino Math board."""
    folder = tmp_path_factory.mktemp("print")
    found = {}
    for name, args in (("s9", ("sudoku", "--seed", 1)), ("logic", ("logic", "--seed", 1)),
                       ("pm", ("polyomino-math", "--seed", 1))):
        found[name] = folder / f"{name}.jsonl"
        cli("gen", *args, "--format", "json", "--out", found[name])
    return folder, found


def texts(page: str, kind: str) -> list[ET.Element]:
    return [t for t in ET.fromstring(page).iter(f"{SVG}text") if t.get("class") == kind]


def ink_rows(image, x0=0, x1=None) -> list[int]:
    """The rows of ``image`` (between columns x0 and x1) that hold dark pixels."""
    grey = image.convert("L")
    x1 = grey.width if x1 is None else x1
    data = grey.crop((x0, 0, x1, grey.height))
    width = data.width
    pixels = data.tobytes()
    return [y for y in range(data.height)
            if min(pixels[y * width:(y + 1) * width]) < 128]


def text_height(image, element: ET.Element, scale: float) -> int:
    """The height in pixels of the ink of one line of page text (digits and capitals
    reach the cap height, 0.73 em in DejaVu Sans)."""
    size = float(element.get("font-size"))
    y = float(element.get("y"))
    box = (0, int((y - size) * scale), image.width, int((y + 0.3 * size) * scale))
    rows = ink_rows(image.crop(box))
    return rows[-1] - rows[0] + 1 if rows else 0


def test_the_rules_are_printed_on_the_sheet_as_the_play_page_shows_them(made, tmp_path):
    folder, found = made
    both = tmp_path / "both.jsonl"
    both.write_text(found["s9"].read_text() + found["logic"].read_text())
    cli("render", both, "--format", "svg", "--out", tmp_path / "p.svg", "--per-page", 2)
    page = (tmp_path / "p.svg").read_text()
    host = get_host()
    sudoku, logic = host.get_type("sudoku"), host.get_type("logic")
    said = " ".join(t.text for t in texts(page, "rules"))
    for ptype, params in ((sudoku, records(found["s9"])[0]["params"]),
                          (logic, records(found["logic"])[0]["params"])):
        text = rules(ptype, ptype.check_params(dict(params)))
        assert text and f"{text}" in re.sub(r"\s+", " ", said.replace(": ", ": ", 1))
    assert said.startswith("Sudoku: Fill every row, column and 3x3 box with 1-9")
    assert "Logic: " in said
    # At 8 points or more, and drawn: each rules line has ink of about its cap height.
    image = raster_svg(page, 2)
    for line in texts(page, "rules"):
        assert float(line.get("font-size")) >= 8 * POINT
        assert text_height(image, line, 2) >= 0.7 * 8 * POINT * 2
    # The play page shows the same text, above the board: a grid (Sudoku), a question to
    # answer (logic).
    cli("render", both, "--format", "html", "--out", tmp_path / "p.html", "--no-explain")
    html = (tmp_path / "p.html").read_text()
    data = json.loads(re.search(r'id="puzzles">(.*?)</script>', html, re.S).group(1))
    assert data[0]["grid"]["rules"] == data[0]["rules"] == rules(
        sudoku, sudoku.check_params(dict(records(found["s9"])[0]["params"])))
    assert data[1]["grid"]["kind"] == "choice" and data[1]["rules"].startswith("Read the story")


@pytest.mark.fast
def test_every_built_in_type_says_its_rules():
    host = get_host()
    for name in ("sudoku", "fillomino", "polyomino-math", "combination", "logic"):
        ptype = host.get_type(name)
        text = rules(ptype, ptype.check_params({p.name: p.default for p in ptype.params}))
        assert len(text) > 30 and "\n" not in text, name


@pytest.mark.fast
def test_a_type_without_rules_falls_back_to_its_play_boards():
    from puzzle_engine.render.play import PlayGrid

    class Old:
        name, plugin = "old", "old"

    grid = PlayGrid(1, 1, (0,), (1,), rules="Fill the square.")
    assert rules(Old(), {}, grid) == "Fill the square." and rules(Old(), {}) == ""

    class Unoffered(Old):
        def rules(self, params):
            raise NotImplementedError

    assert rules(Unoffered(), {}, grid) == "Fill the square."


@pytest.mark.fast
def test_captions_in_words_short_full_and_none(tmp_path):
    """An ungraded puzzle shows no level (not 'givens 4'), a graded one its level; the
    parameters shown are those the user set (Sudoku's box follows its size; a 9x9 shows
    none); full adds the complexity, plugin and solver; none shows no caption."""
    path = tmp_path / "r.jsonl"
    nine = {**RECORD, "params": {"size": 9, "box": "3x3", "choose": "fill"},
            "grid": [[0] * 9] * 9, "seed": 3}
    path.write_text("".join(json.dumps(r) + "\n" for r in (
        RECORD, {**RECORD, "difficulty": {"level": "expert"}}, nine,
        {**RECORD, "params": {"size": 6, "box": "3x2", "choose": "fill"},
         "grid": [[0] * 6] * 6})))
    for mode in ("short", "full", "none"):
        cli("render", path, "--format", "svg", "--per-page", 4, "--caption", mode,
            "--out", tmp_path / f"{mode}.svg")
    short = [t.text for t in texts((tmp_path / "short.svg").read_text(), "caption")]
    assert short[0:2] == ["1. Sudoku \u00b7 size 4", "id sudoku/7/6a4dd2"]
    assert short[2] == "2. Sudoku \u00b7 level expert \u00b7 size 4"
    assert short[4:6] == ["3. Sudoku", "id sudoku/3/" + short[5].split("/")[-1]]
    assert short[6] == "4. Sudoku \u00b7 size 6, box 3x2"  # not the box size 6 implies
    full = " ".join(t.text for t in texts((tmp_path / "full.svg").read_text(), "caption"))
    assert "id sudoku/7/6a4dd2 \u00b7 givens 4 \u00b7 sudoku 0.1.0 \u00b7 chuffed" in full
    assert "givens" not in " ".join(short)
    assert texts((tmp_path / "none.svg").read_text(), "caption") == []
    one_line_error(runner.invoke(app, ["render", str(path), "--caption", "long", "--out",
                                       str(tmp_path / "x.svg")]),
                   "bad --caption 'long'", "short, full, none")
    assert not (tmp_path / "x.svg").exists()


def test_captions_print_at_8_points_or_more(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(RECORD) + "\n")
    cli("render", path, "--format", "svg", "--out", tmp_path / "c.svg", "--caption", "full")
    page = (tmp_path / "c.svg").read_text()
    image = raster_svg(page, 3)
    lines = texts(page, "caption")
    assert len(lines) == 2
    for line in lines:  # 8 points: a cap height of 0.73 x 8 points, at least
        assert float(line.get("font-size")) >= 8 * POINT
        assert text_height(image, line, 3) >= 0.7 * 8 * POINT * 3


def test_a_page_is_centred_top_and_bottom(made, tmp_path):
    """A 9x9 page had 36 pt above its content and 120 pt below; now the margins match."""
    folder, found = made
    four = tmp_path / "four.jsonl"
    four.write_text(found["s9"].read_text() * 4)
    for per_page in (4, 1):
        out = tmp_path / f"p{per_page}.svg"
        cli("render", four, "--format", "svg", "--per-page", per_page, "--out", out)
        page = (out if per_page == 4 else tmp_path / "p1-1.svg").read_text()
        image = raster_svg(page, 1)
        rows = ink_rows(image)
        top, bottom = rows[0], image.height - 1 - rows[-1]
        assert abs(top - bottom) <= 16, (per_page, top, bottom)
        assert top >= sheet.MARGIN - 4


def test_polyomino_pieces_are_at_the_boards_scale_and_the_key_shows_those_left_over(
        made, tmp_path):
    folder, found = made
    cli("render", found["pm"], "--format", "svg", "--per-page", 1, "--solutions",
        "--out", tmp_path / "pm.svg")
    page, key = ((tmp_path / name).read_text() for name in ("pm.svg", "pm-key.svg"))
    record = records(found["pm"])[0]
    drawing = ET.fromstring(page).find("svg:svg", NS)
    board = [r for r in drawing.iter(f"{SVG}rect") if r.get("stroke") == "#999"
             and r.get("fill") == "#fff"]
    pieces = drawing.findall(".//svg:g[@class='piece']", NS)
    # As many pieces as the record lists, every square of them the size of a board's.
    count = sum(int(m.group(1) or 1) for m in re.finditer(r"(?:(\d+)x)?[A-Z]\d",
                                                          record["pieces"]))
    assert len(pieces) == count and len(board) == 30
    side = float(board[0].get("width"))
    for piece in pieces:
        for square in piece.findall("svg:rect", NS):
            assert float(square.get("width")) == float(square.get("height")) == side
    # On the rasterised page a piece's square spans as many pixels as a board's: the
    # grey of a piece's first square, and of a board square, measured along a row.
    image = raster_svg(page, 2)
    scale = float(drawing.get("width")) / float(drawing.get("viewBox").split()[2])
    ox, oy = float(drawing.get("x")), float(drawing.get("y"))
    first = pieces[0].find("svg:rect", NS)
    x, y = float(first.get("x")), float(first.get("y"))

    def run_of(u, v, colour):
        """Pixels of ``colour`` along the row through the drawing's point (u, v)."""
        px, py = int((ox + u * scale) * 2), int((oy + v * scale) * 2)
        left = right = px
        while image.getpixel((left - 1, py))[:3] == colour:
            left -= 1
        while image.getpixel((right + 1, py))[:3] == colour:
            right += 1
        return right - left + 1

    grey = image.getpixel((int((ox + (x + side / 2) * scale) * 2),
                           int((oy + (y + side / 2) * scale) * 2)))[:3]
    assert grey == (238, 238, 238)
    piece_run = run_of(x + side / 2, y + side / 2, grey)
    assert abs(piece_run - side * scale * 2) <= 6  # the square's grey, inside its lines
    # The key: the pieces the solution leaves over, and the label that says so.
    placed = len(record["placement"])
    drawn = ET.fromstring(key).find("svg:svg", NS)
    left = drawn.findall(".//svg:g[@class='piece']", NS)
    label = [t.text for t in drawn.iter(f"{SVG}text") if t.get("class") == "pieces-label"]
    assert len(left) == count - placed
    assert label == (["Pieces left over"] if count > placed else ["No piece left over"])
    assert count > placed  # seed 1 is of Type II: some piece is left over


def test_text_under_8_points_is_refused_in_one_line_not_shrunk(made, tmp_path):
    """A mixed book, four to a page: the logic text would shrink to about 5.4 pt beside
    the Sudoku. 'render' says so in one line, naming the most that fit; at two to a page,
    every text is 8 pt or more."""
    folder, found = made
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text((found["s9"].read_text() + found["logic"].read_text()) * 2)
    result = runner.invoke(app, ["render", str(mixed), "--format", "svg",
                                 "--out", str(tmp_path / "m.svg")])
    one_line_error(result, "--per-page 4 does not fit on a4: at most 2 of these puzzles",
                   "text of 8 points")
    assert not list(tmp_path.glob("m*.svg"))
    cli("render", mixed, "--format", "svg", "--per-page", 2, "--out", tmp_path / "m.svg")
    from puzzle_engine.render.drawing import smallest_text
    for path in sorted(tmp_path.glob("m-*.svg")):
        for drawing in ET.fromstring(path.read_text()).findall("svg:svg", NS):
            scale = float(drawing.get("width")) / float(drawing.get("viewBox").split()[2])
            assert smallest_text(drawing) * scale >= 8 * POINT - 1e-6


@pytest.mark.fast
def test_text_too_small_even_alone_names_its_puzzle():
    """A drawing whose text cannot reach 8 points even alone on a page is refused."""
    wide = ET.fromstring('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4000 40">'
                         '<text x="0" y="20" font-size="12">a very long line</text></svg>')
    with pytest.raises(Exception, match=r"^x, line 3: its text would print at 1\.\d pt on "
                                        r"a4, under 8 pt, even alone on a page: use --paper fit"):
        sheet.pages([sheet.Placed(wide, ["1. X"], where="x, line 3")], 1, "a4", "T")
    assert sheet.pages([sheet.Placed(wide, ["1. X"], where="x, line 3")], 1, "fit", "T")


@pytest.mark.fast
def test_caption_function_modes():
    sudoku = get_host().get_type("sudoku")
    entry = Entry(sudoku, sudoku.check_params({"size": 4, "box": None, "choose": None}),
                  (0,) * 16, {"type": "sudoku", "seed": 1, "rating": {"score": 2.345}},
                  "x, line 1")
    assert caption(entry, 2, "short")[0] == "2. Sudoku \u00b7 rating 2.35 \u00b7 size 4"
    assert caption(entry, 2, "none") == []
