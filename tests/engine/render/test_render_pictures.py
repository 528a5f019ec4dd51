"""The printed pictures, looked at as a person would (issue 29): puzzles made by the real
solvers are rendered by ``puzzle-engine render``, the pages rasterised (SVG by cairo, PDF
by poppler), and pixels read in each square: the grid lines are there, box borders and
region borders are thick exactly where they should be, a given's glyph is drawn in its
square (and the same symbol looks the same everywhere, another one differently), and
the answer key holds the solution."""
import json
import subprocess
import xml.etree.ElementTree as ET

import pytest

from puzzle_engine.render.svg import CELL, FONT, MARGIN, GridDrawing
from puzzle_engine_plugins.combination.drawing import PALETTE, WALL_FILL
from puzzle_engine_plugins.fillomino.logic import regions
from puzzle_engine_plugins.sudoku.logic import ALPHABET
from render_support import (NS, Placed, cli, difference, placed, raster_pdf, raster_svg,
                            records)
from support import COMBINATION_LEVEL as LEVEL

PX = 3.0  # pixels per unit of a drawing, when rasterised for the tests


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Puzzles made by 'gen' on the real solvers: JSON Lines files by name."""
    folder = tmp_path_factory.mktemp("render")
    files = {}
    for name, args in (("s9", ("sudoku", "--seed", 1)),
                       ("s6", ("sudoku", "--box", "2x3", "--seed", 2)),
                       ("f", ("fillomino", "--rows", 5, "--cols", 6, "--seed", 1))):
        files[name] = folder / f"{name}.jsonl"
        cli("gen", *args, "--format", "json", "--out", files[name])
    files["c"] = folder / "c.jsonl"
    files["c"].write_text(json.dumps(LEVEL) + "\n")
    return folder, files


def rendered(folder, source, name, *extra):
    """The page SVGs of ``render SOURCE --format svg --per-page 1 --solutions``: the
    puzzle page and the key page of its one puzzle."""
    out = folder / f"{name}.svg"
    cli("render", source, "--format", "svg", "--per-page", 1, "--solutions", "--out", out, *extra)
    return out.read_text(), (folder / f"{name}-key.svg").read_text()


def look(page_svg):
    """The page rasterised at PX pixels per unit of its (first) drawing, and where."""
    first = placed(None, 1, page_svg)
    scale = PX * first.box_w / first.width
    return placed(raster_svg(page_svg, scale), scale, page_svg)


def check_lines(p, rows, cols, thick_right, thick_below, shaded=()):
    """Every grid line is drawn; an inner line is thick exactly where ``thick_right(r, c)``
    (the line right of square (r, c)) or ``thick_below(r, c)`` says so (not looked at
    beside a ``shaded`` square, which is dark itself)."""
    for r in range(rows):
        for k in range(cols + 1):
            u, v = MARGIN + k * CELL, MARGIN + (r + 0.5) * CELL
            assert p.lum(u, v) < 110, f"no vertical line at column {k}, row {r}"
            if 0 < k < cols and r * cols + k not in shaded:
                side = p.lum(u + 1.1, v)  # inside a thick line (3 units), beside a thin one
                assert (side < 110) == thick_right(r, k - 1), (r, k, side)
    for c in range(cols):
        for k in range(rows + 1):
            u, v = MARGIN + (c + 0.5) * CELL, MARGIN + k * CELL
            assert p.lum(u, v) < 110, f"no horizontal line at row {k}, column {c}"
            if 0 < k < rows and k * cols + c not in shaded:
                side = p.lum(u, v + 1.1)
                assert (side < 110) == thick_below(k - 1, c), (k, c, side)


def check_glyphs(p, rows, cols, board, symbol):
    """A given's square has ink, an empty one none; its ink looks like its symbol drawn
    alone; the squares of one symbol look alike and those of two symbols do not."""
    glyphs = {}
    for i, v in enumerate(board):
        r, c = divmod(i, cols)
        if not v:
            assert p.ink(r, c) == 0, f"ink in the empty square ({r}, {c})"
            continue
        assert p.ink(r, c) > 20, f"no glyph in the given's square ({r}, {c})"
        glyphs.setdefault(symbol(v), []).append(p.glyph(r, c))
    for text, shapes in glyphs.items():
        alone = GridDrawing(1, 1)
        alone.symbol(0, text)
        reference = Placed(raster_svg(alone.to_string(), PX), PX, 0, 0, 1, 1, 1, 1).glyph(0, 0)
        assert difference(shapes[0], reference) < 20, f"the glyph of {text} is not {text}"
    assert len(glyphs) >= 2
    for shapes in glyphs.values():
        for other in shapes[1:]:
            assert difference(shapes[0], other) < 20
    firsts = [shapes[0] for shapes in glyphs.values()]
    for n, a in enumerate(firsts):
        for b in firsts[n + 1:]:
            assert difference(a, b) > 25


def key_board(key_svg, squares):
    """The answer key's symbols, square by square, and which were givens."""
    board, given = [None] * squares, [False] * squares
    for text in ET.fromstring(key_svg).iter(f"{{{NS['svg']}}}text"):
        square = text.get("data-square")
        if square is not None:
            board[int(square)] = text.text
            given[int(square)] = text.get("class") == "given"
    return board, given


def sudoku_case(made, name):
    folder, files = made
    record = records(files[name])[0]
    n = record["params"]["size"]
    r, c = (int(x) for x in record["params"]["box"].split("x"))
    puzzle, key = rendered(folder, files[name], name)
    return record, n, r, c, puzzle, key


@pytest.mark.parametrize("name", ["s9", "s6"])
def test_sudoku_lines_boxes_and_glyphs(made, name):
    record, n, r, c, puzzle, key = sudoku_case(made, name)
    grid = [v for row in record["grid"] for v in row]
    p = look(puzzle)
    check_lines(p, n, n, lambda row, col: (col + 1) % c == 0, lambda row, col: (row + 1) % r == 0)
    check_glyphs(p, n, n, grid, lambda v: ALPHABET[v - 1])
    # The answer key: every square holds the solution's symbol; givens stay bold black,
    # the rest is in the key's colour.
    solution = [ALPHABET[v - 1] for row in record["solution"] for v in row]
    board, given = key_board(key, n * n)
    assert board == solution
    assert given == [bool(v) for v in grid]
    k = look(key)
    for i, v in enumerate(grid):
        row, col = divmod(i, n)
        assert k.ink(row, col) > 20
        red, green, blue = min((k.rgb(*k.square(row + y / 10, col + x / 10))
                                for x in range(2, 9) for y in range(2, 9)), key=sum)
        assert (blue - red > 60) == (not v), (i, red, green, blue)


@pytest.mark.slow
def test_sudoku_16x16_symbols_past_9_are_letters(tmp_path):
    out = tmp_path / "s16.jsonl"
    cli("gen", "sudoku", "--size", 16, "--seed", 3, "--format", "json", "--out", out)
    record = records(out)[0]
    puzzle, key = rendered(tmp_path, out, "s16")
    p = look(puzzle)
    check_lines(p, 16, 16, lambda row, col: (col + 1) % 4 == 0, lambda row, col: (row + 1) % 4 == 0)
    check_glyphs(p, 16, 16, [v for row in record["grid"] for v in row], lambda v: ALPHABET[v - 1])
    board, _ = key_board(key, 256)
    assert board == [ALPHABET[v - 1] for row in record["solution"] for v in row]
    assert set("ABCDEFG") <= set(board) and not set(board) & {"0", "10", "16"}


def test_fillomino_regions_are_outlined_in_the_key_only(made):
    folder, files = made
    record = records(files["f"])[0]
    rows, cols = 5, 6
    grid = [v for row in record["grid"] for v in row]
    solution = [v for row in record["solution"] for v in row]
    region = regions(solution, rows, cols)
    puzzle, key = rendered(folder, files["f"], "f")
    p = look(puzzle)
    check_lines(p, rows, cols, lambda r, c: False, lambda r, c: False)
    check_glyphs(p, rows, cols, grid, str)
    k = look(key)
    check_lines(k, rows, cols, lambda r, c: region[r * cols + c] != region[r * cols + c + 1],
                lambda r, c: region[r * cols + c] != region[(r + 1) * cols + c])
    board, given = key_board(key, rows * cols)
    assert board == [str(v) for v in solution]
    assert given == [bool(v) for v in grid]


def test_combination_board_and_pieces(made):
    folder, files = made
    puzzle, key = rendered(folder, files["c"], "c")
    p, k = look(puzzle), look(key)
    for page in (p, k):
        check_lines(page, 4, 4, lambda r, c: False, lambda r, c: False, shaded={8})
        wall = page.rgb(*page.square(2.5, 0.5))        # '#' at row 3, column 1
        assert max(abs(a - b) for a, b in zip(wall, bytes.fromhex(WALL_FILL[1:]))) < 12
        assert page.lum(*page.square(1.5, 0.5)) < 40    # 'o' at row 2, column 1
    # No piece on the puzzle's board; on the key, a piece on every square the solver's
    # placement uses, in its colour, and none elsewhere.
    assert all(p.ink(r, c) == 0 for r in range(4) for c in range(4) if LEVEL["board"][r][c] == ".")
    root = ET.fromstring(key)
    pieces = [g for g in root.iter(f"{{{NS['svg']}}}g") if g.get("class") == "piece"]
    assert sum(int(n) for n, *_ in (part.split() for part in LEVEL["pieces"].split(","))) == len(pieces)
    for g in pieces:
        square = int(g.get("data-square"))
        r, c = divmod(square, 4)
        assert LEVEL["board"][r][c] == "."
        fill = g.find("svg:circle", NS).get("fill")
        assert fill in PALETTE[:2]
        seen = k.rgb(*k.square(r + 0.5, c + 0.5 + 0.33))  # the disc, beside the glyph
        assert max(abs(a - b) for a, b in zip(seen, bytes.fromhex(fill[1:]))) < 30, (square, seen)
    legend = [g for g in root.iter(f"{{{NS['svg']}}}g") if g.get("class") == "legend"]
    assert len(legend) == len(LEVEL["pieces"].split(","))


def test_pdf_pages_show_the_puzzles_and_the_key(made, tmp_path):
    """A PDF of two puzzles, one to a page, and its answer key: four pages, and the
    rasterised pages show the same lines and glyphs as the SVG pages."""
    folder, files = made
    both = tmp_path / "both.jsonl"
    both.write_text(files["s9"].read_text() + files["f"].read_text())
    cli("render", both, "--per-page", 1, "--solutions", "--out", tmp_path / "both.pdf")
    cli("render", both, "--per-page", 1, "--solutions", "--out", tmp_path / "both.svg")
    svgs = [(tmp_path / f"both{tag}.svg").read_text() for tag in ("-1", "-2", "-key-1", "-key-2")]
    first = placed(None, 1, svgs[0])
    dpi = round(96 * PX * first.box_w / first.width)
    pages = raster_pdf(tmp_path / "both.pdf", tmp_path, dpi)
    assert len(pages) == 4
    sudoku, fillomino = records(both)
    grid = [v for row in sudoku["grid"] for v in row]
    p = placed(pages[0], dpi / 96, svgs[0])
    check_lines(p, 9, 9, lambda r, c: (c + 1) % 3 == 0, lambda r, c: (r + 1) % 3 == 0)
    check_glyphs(p, 9, 9, grid, str)
    solution = [v for row in fillomino["solution"] for v in row]
    region = regions(solution, 5, 6)
    k = placed(pages[3], dpi / 96, svgs[3])
    check_lines(k, 5, 6, lambda r, c: region[r * 6 + c] != region[r * 6 + c + 1],
                lambda r, c: region[r * 6 + c] != region[(r + 1) * 6 + c])
    assert all(k.ink(*divmod(i, 6)) > 20 for i in range(30))


@pytest.mark.fast
def test_the_pinned_font_is_the_one_drawn_with():
    """The drawings name DejaVu Sans first, and cairo draws with the first family named:
    fontconfig must find the pinned package's files (scripts/test.sh installs
    fonts-dejavu-core), or every glyph above would be some other font's."""
    assert FONT.split(",")[0] == "DejaVu Sans"
    for style, name in (("", "DejaVuSans.ttf"), (":bold", "DejaVuSans-Bold.ttf")):
        found = subprocess.run(["fc-match", "-f", "%{file}", f"DejaVu Sans{style}"],
                               capture_output=True, text=True, check=True, timeout=300).stdout
        assert found.endswith(f"/{name}"), found
