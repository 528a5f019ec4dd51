"""The drawings and play boards of the built-in types, read back from their SVG and
checked without a solver (the pictures' pixels are
tests/engine/render/test_render_pictures.py's): Sudoku of every box shape, symbols as the
line format writes them, thick lines exactly on the box borders; and the checks the engine
makes of a type's play board."""
import random
import xml.etree.ElementTree as ET

import pytest

from puzzle_engine import PlayGrid
from puzzle_engine.errors import PluginError
from puzzle_engine.render import drawing, html, play
from puzzle_engine.render.svg import CELL, MARGIN, SVG_NS
from puzzle_engine_plugins.sudoku import Sudoku, logic
from support import registered

pytestmark = pytest.mark.fast
G, LINE, TEXT = (f"{{{SVG_NS}}}{tag}" for tag in ("g", "line", "text"))


def pattern(r, c):
    """A full r x c-box Sudoku board, the usual shifted pattern."""
    n = r * c
    return tuple((row * c + row // r + col) % n + 1 for row in range(n) for col in range(n))


@pytest.mark.parametrize("box", ["2x2", "2x3", "3x2", "3x3", "2x5", "4x4", "3x5", "5x7"])
def test_sudoku_of_every_box_shape(sudoku, box):
    params = logic.check_params({"box": box})
    n, r, c = logic.dims(params)
    solution = pattern(r, c)
    rng = random.Random(n)
    instance = tuple(v if rng.random() < 0.4 else 0 for v in solution)
    root = ET.fromstring(sudoku.render_svg(params, instance, solution))
    # The key's symbols are the line format's, square by square; givens apart.
    texts = {int(t.get("data-square")): t for t in root.iter(TEXT) if t.get("data-square")}
    assert "".join(texts[i].text for i in range(n * n)) == logic.format_line(solution)
    assert [texts[i].get("class") == "given" for i in range(n * n)] == [bool(v) for v in instance]
    # Thick lines: between stacks (every c columns) and bands (every r rows), and only there.
    thick = next(g for g in root.iter(G) if g.get("class") == "thick")
    xs = {float(line.get("x1")) for line in thick.iter(LINE) if line.get("x1") == line.get("x2")}
    ys = {float(line.get("y1")) for line in thick.iter(LINE) if line.get("y1") == line.get("y2")}
    assert xs == {MARGIN + k * c * CELL for k in range(1, r)}
    assert ys == {MARGIN + k * r * CELL for k in range(1, c)}
    # Without a solution: the givens alone.
    bare = ET.fromstring(sudoku.render_svg(params, instance))
    assert len([t for t in bare.iter(TEXT) if t.get("data-square")]) == sum(map(bool, instance))
    board = play.play_grid(sudoku, params, instance, solution)
    assert board.symbols == tuple(logic.ALPHABET[:n])
    # The page's units are the rows, columns and boxes the solver's checks use, and its
    # regions are those boxes.
    assert [list(u) for u in board.units] == [cells for _, cells in logic.units(n, r, c)]
    assert all(len({board.regions[i] for i in unit}) == 1 for unit in board.units[2 * n:])


def good():
    return dict(rows=1, cols=3, cells=(1, 0, 0), solution=(1, 2, 3), symbols=("1", "2", "3"),
                rule="all-different", units=((0, 1, 2),), rules="Fill in 1, 2 and 3.")


class Board(Sudoku):
    """A type whose play board is whatever the test puts in ``board``."""

    name = "board-sudoku"
    board = None

    def play_grid(self, params, instance, solution):
        return self.board


@pytest.mark.parametrize("change, words", [
    ({"rows": 0}, "rows must be a whole number from 1"),
    ({"cells": (1, 0)}, "cells must be 3 whole numbers from -1"),
    ({"cells": (2, 0, 0)}, "square 0 holds the given 2 but its solution is 1"),
    ({"solution": (1, 0, 3)}, "the open square 1 has no answer"),
    ({"symbols": ("1", "2")}, "symbols must be 3 or more single characters"),
    ({"symbols": ("a", "A", "b")}, "symbols must differ"),
    ({"rule": "sum"}, "unknown rule 'sum'"),
    ({"units": ((0, 5),)}, "units must be lists of squares"),
    ({"regions": (1,)}, "regions must be None or 3 whole numbers"),
    ({"rule": "script"}, "the rule 'script' needs the JavaScript function"),
    ({"rule": "script", "script": "() => '</script>'"}, "the script holds '</' or '<!--'"),
    ({"rule": "script", "script": "() => [] <!--"}, "cannot stand inside the page's HTML"),
    ({"rules": "two\nlines"}, "rules must be one line"),
])
def test_a_bad_play_board_is_one_line_naming_the_plugin(change, words):
    ptype = registered(Board(), "boards")
    ptype.board = PlayGrid(**good())
    assert play.play_grid(ptype, {}, None, None) == ptype.board
    ptype.board = PlayGrid(**{**good(), **change})
    with pytest.raises(PluginError) as caught:
        play.play_grid(ptype, {}, None, None)
    message = str(caught.value)
    assert message.startswith("play_grid (puzzle 'board-sudoku', plugin 'boards') returned")
    assert words in message and "\n" not in message
    ptype.board = "a board"
    with pytest.raises(PluginError, match="not a PlayGrid, ChoiceBoard, PieceBoard or None"):
        play.play_grid(ptype, {}, None, None)


class Drawn(Sudoku):
    """A type whose drawing is whatever the test puts in ``svg``."""

    name = "drawn-sudoku"
    svg = None

    def render_svg(self, params, instance, solution=None):
        return self.svg


@pytest.fixture
def drawn():
    return registered(Drawn(), "drawer")


OPEN = f"<svg xmlns='{SVG_NS}'"


@pytest.mark.parametrize("attributes, size", [
    ("viewBox='0 0 10 20'", (10, 20)),
    ("viewBox='-1.5,0,1e1, .5'", (10, 0.5)),
    ("width='12px' height=' 3.5 '", (12, 3.5)),
])
def test_a_drawings_size(drawn, attributes, size):
    drawn.svg = f"{OPEN} {attributes}/>"
    assert drawing.size(drawing.drawing(drawn, {}, None)) == size


@pytest.mark.parametrize("attributes", [
    "width='1.2.3' height='10'",
    "width='10' height='-4'",
    "width='inf' height='10'",
    "width='1e999' height='10'",
    "width='10em' height='10'",
    "",
    "viewBox='0 0 inf 10'",
    "viewBox='0 0 10 nan'",
    "viewBox='0 0 1e999 10'",
    "viewBox='10 10'",
    "viewBox='0 0 10 10 10'",
    "viewBox='0 0 1.2.3 10'",
    "viewBox='0 0 0 10'",
    "viewBox='0 0 10 -10'",
    "viewBox='a b c d'",
])
def test_a_bad_drawing_size_is_one_line_naming_the_plugin(drawn, attributes):
    drawn.svg = f"{OPEN} {attributes}/>"
    with pytest.raises(PluginError) as caught:
        drawing.drawing(drawn, {}, None)
    message = str(caught.value)
    assert message.startswith("render_svg (puzzle 'drawn-sudoku', plugin 'drawer') returned")
    assert "viewBox" in message and "\n" not in message


def test_a_script_rule_cannot_close_the_pages_script():
    board = PlayGrid(**{**good(), "rule": "script",
                        "script": "(v) => { return '</script><script>alert(1)'; }"})
    with pytest.raises(PluginError, match="cannot stand inside an HTML <script>"):
        html.page([html.Playable(["1."], board)], "t")
    page = html.page([html.Playable(["</script><b>"], PlayGrid(**good()))], "t</title>")
    assert "</script><b>" not in page and "t</title>" not in page
