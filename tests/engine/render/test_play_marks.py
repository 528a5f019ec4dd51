"""A ``PlayGrid``'s two optional marks of the puzzle (issue 43): ``labels``, a small text in
a square's corner (a killer cage's sum), and ``shaded`` squares (Sudoku X's diagonals),
checked as the engine checks what a plugin's ``play_grid`` returns (a bad value is one
line naming the plugin) and passed to the page as plain JSON. The page in a browser:
test_play_marks_page.py."""
import pytest

from puzzle_engine import PlayGrid
from puzzle_engine.errors import PluginError
from puzzle_engine.render import play
from support import any_board

pytestmark = pytest.mark.fast


def grid(**marks) -> PlayGrid:
    """A 2x2 board, its squares all open."""
    return PlayGrid(rows=2, cols=2, cells=(0, 0, 0, 0), solution=(1, 2, 2, 1),
                    rules="Fill it.", **marks)


@pytest.mark.parametrize("marks, labels, shaded", [
    ({}, [], []),
    ({"labels": {0: "10", 3: " 5 "}, "shaded": (0, 3)}, [[0, "10"], [3, "5"]], [0, 3]),
    ({"labels": ((1, "12+"),), "shaded": [2]}, [[1, "12+"]], [2]),
])
def test_sound_marks_pass_and_reach_the_page_as_json(marks, labels, shaded):
    ptype = any_board("marked-sudoku", "marks")
    ptype.board = grid(**marks)
    checked = play.play_grid(ptype, {}, None, None)
    assert checked == ptype.board
    data = play.to_json(checked)
    assert data["labels"] == labels and data["shaded"] == shaded


@pytest.mark.parametrize("marks, words", [
    ({"labels": {4: "1"}}, "labels must be {square: text}"),
    ({"labels": {-1: "1"}}, "squares 0 to 3"),
    ({"labels": {0: ""}}, "texts of 1 to 6 characters"),
    ({"labels": {0: "1234567"}}, "texts of 1 to 6 characters"),
    ({"labels": {0: "1\n2"}}, "on one line"),
    ({"labels": {0: 10}}, "labels must be"),
    ({"labels": ((0, "1"), (0, "2"))}, "each once"),
    ({"labels": ((0, "1", "x"),)}, "(square, text) pairs"),
    ({"labels": "10"}, "labels must be"),
    ({"labels": {True: "1"}}, "labels must be"),
    ({"shaded": (0, 4)}, "shaded must be a list of squares, 0 to 3"),
    ({"shaded": (-1,)}, "shaded must be a list of squares"),
    ({"shaded": 3}, "shaded must be a list of squares"),
    ({"shaded": ("0",)}, "shaded must be a list of squares"),
])
def test_bad_marks_are_one_line_naming_the_plugin(marks, words):
    ptype = any_board("marked-sudoku", "marks")
    ptype.board = grid(**marks)
    with pytest.raises(PluginError) as caught:
        play.play_grid(ptype, {}, None, None)
    message = str(caught.value)
    assert message.startswith("play_grid (puzzle 'marked-sudoku', plugin 'marks') returned")
    assert "a sound PlayGrid (" in message and words in message and "\n" not in message
