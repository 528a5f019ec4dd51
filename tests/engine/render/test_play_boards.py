"""The play page's boards beyond the grid, checked as the engine checks what a plugin's
``play_grid`` returns (a careless board is one line naming the plugin, never a broken
page), and the built-in types' boards: logic's question, Polyomino Math's and
Combination's pieces. The page itself in a browser: test_render_boards.py."""
import json
from types import SimpleNamespace

import pytest

from puzzle_engine import ChoiceBoard, PieceBoard, PieceKind
from puzzle_engine.errors import PluginError
from puzzle_engine.plugins import get_host
from puzzle_engine.render import html, play
from puzzle_engine_plugins.logic.play import play_grid as logic_board
from support import COMBINATION_LEVEL, any_board

pytestmark = pytest.mark.fast


def choice():
    return dict(question="Who?\nSay.", options=("Ann", "Bob"), answer=1, rules="Choose one.")


ROOK = PieceKind(count=1, name="rook a", colour="#d62728", symbol="Ra", group=1,
                 rays=((0, 1), (0, -1), (1, 0), (-1, 0)), value=5)
L3 = PieceKind(squares=((0, 0), (1, 0), (1, 1)), count=1, name="L3", turns=True)


def pieces():
    return dict(rows=2, cols=3, cells=(0, 0, 0, -1, 0, -2), kinds=(ROOK, L3),
                solution=((1, (0, 1, 4)), (0, (2,))), rule="attacks",
                rules="Place them.")


def scored():
    return dict(rows=2, cols=2, cells=(0,) * 4, kinds=(L3,), solution=((0, (0, 2, 3)),),
                rule="score", numbers=(1, 2, 3, 4), goal=24, rules="Score.")


@pytest.mark.parametrize("kind, good, change, words", [
    (ChoiceBoard, choice, {"question": " "}, "question must be text"),
    (ChoiceBoard, choice, {"options": ("Ann", "B\nob")}, "options must be lines of text"),
    (ChoiceBoard, choice, {"answer": 2}, "answer must be an option's index, 0 to 1"),
    (ChoiceBoard, choice, {"answer": True}, "answer must be an option's index"),
    (ChoiceBoard, choice, {"options": (), "answer": 0}, "answer must be the answer's text"),
    (ChoiceBoard, choice, {"unordered": "yes"}, "unordered must be True or False"),
    (ChoiceBoard, choice, {"rules": "a\nb"}, "rules must be one line"),
    (PieceBoard, pieces, {"cols": 0}, "cols must be a whole number from 1"),
    (PieceBoard, pieces, {"cells": (0, 0, 0, -1, 0, 3)}, "cells must be 6 values, each 0, -1"),
    (PieceBoard, pieces, {"kinds": ()}, "kinds must be a list of one or more PieceKind"),
    (PieceBoard, pieces, {"kinds": (ROOK, "L3")}, "kinds[1] must be a PieceKind"),
    (PieceBoard, pieces, {"kinds": (ROOK, PieceKind(squares=((0, 0), (0, 0))))},
     "kinds[1].squares must be distinct"),
    (PieceBoard, pieces, {"kinds": (ROOK, PieceKind(squares=((0, -1),)))},
     "kinds[1].squares must be distinct (row, col) pairs from 0"),
    (PieceBoard, pieces, {"kinds": (PieceKind(count=0), L3)}, "kinds[0].count must be"),
    (PieceBoard, pieces, {"kinds": (PieceKind(colour="red;x"), L3)},
     "kinds[0].colour must be a CSS colour"),
    (PieceBoard, pieces, {"kinds": (PieceKind(symbol="rook"), L3)}, "symbol up to 3"),
    (PieceBoard, pieces, {"kinds": (PieceKind(rays=((0, 0),)), L3)},
     "kinds[0].rays must be (drow, dcol) steps"),
    (PieceBoard, pieces, {"kinds": (PieceKind(value="5"), L3)}, "kinds[0].value must be"),
    (PieceBoard, pieces, {"rule": "checkers"}, "unknown rule 'checkers'"),
    (PieceBoard, pieces, {"solution": ((2, (2,)),)}, "solution[0] must be (kind index, squares)"),
    (PieceBoard, pieces, {"solution": ((0, (3,)),)}, "solution[0] covers a square off the "
                                                     "board, not open, or taken"),
    (PieceBoard, pieces, {"solution": ((0, (2,)), (0, (0,)))},
     "more than kinds[0].count pieces"),
    (PieceBoard, pieces, {"solution": ((1, (0, 1, 2)),)}, "not the shape of kinds[1]"),
    (PieceBoard, pieces, {"solution": ((0, (2,)), (1, (2, 1, 4)))}, "solution[1] covers"),
    (PieceBoard, scored, {"numbers": None}, "the rule 'score' needs numbers"),
    (PieceBoard, scored, {"goal": None}, "needs goal, the best total"),
    (PieceBoard, scored, {"scoring": "mean"}, "unknown scoring 'mean'"),
    (PieceBoard, scored, {"numbers": (1, 2)}, "numbers must be None or 4 whole numbers"),
])
def test_a_bad_board_is_one_line_naming_the_plugin(kind, good, change, words):
    ptype = any_board("any-board-sudoku", "boards")
    ptype.board = kind(**good())
    assert play.play_grid(ptype, {}, None, None) == ptype.board
    ptype.board = kind(**{**good(), **change})
    with pytest.raises(PluginError) as caught:
        play.play_grid(ptype, {}, None, None)
    message = str(caught.value)
    assert message.startswith("play_grid (puzzle 'any-board-sudoku', plugin 'boards') returned")
    assert f"a sound {kind.__name__} (" in message
    assert words in message and "\n" not in message


def test_a_turned_piece_fits_its_kind_and_a_board_without_rules_gets_the_types():
    ptype = any_board("any-board-sudoku", "boards")
    # L3 turned a quarter: squares 0, 1 and 3 of a 2x2 board.
    ptype.board = PieceBoard(**{**scored(), "solution": ((0, (0, 1, 3)),), "rules": ""})
    params = ptype.check_params({"size": 4, "box": None})
    assert play.play_grid(ptype, params, None, None).rules == ptype.rules(params)
    ptype.board = PieceBoard(**{**scored(), "solution": ((0, (0, 1, 3)),),
                                "kinds": (PieceKind(squares=L3.squares),)})
    with pytest.raises(PluginError, match="not the shape of kinds"):
        play.play_grid(ptype, {}, None, None)


def test_the_page_holds_each_kind_as_json():
    page = html.page([html.Playable(["1. q"], ChoiceBoard(**choice())),
                      html.Playable(["2. p"], PieceBoard(**pieces()))], "Boards")
    data = json.loads(page.split('id="puzzles">')[1].split("</script>")[0])
    assert data[0]["grid"] == {"kind": "choice", "question": "Who?\nSay.",
                               "options": ["Ann", "Bob"], "answer": 1, "unordered": False,
                               "rules": "Choose one."}
    grid = data[1]["grid"]
    assert grid["kind"] == "pieces" and grid["cells"] == [0, 0, 0, -1, 0, -2]
    assert grid["kinds"][0] == {"squares": [[0, 0]], "count": 1, "name": "rook a",
                                "colour": "#d62728", "symbol": "Ra", "turns": False,
                                "group": 1, "rays": [[0, 1], [0, -1], [1, 0], [-1, 0]],
                                "value": 5}
    assert grid["solution"] == [[1, [0, 1, 4]], [0, [2]]]
    assert [d["board"] for d in data] == ["choice", "pieces"]  # the kind the page plays
    # Each kind's script is in the page.
    assert "kinds.pieces = function" in page and "kinds.choice = function" in page


def logic(problem, key, check="options", options=("o1", "o2", "o3"), answer_index=0):
    return SimpleNamespace(problem=problem, key=key, check=check, options=options,
                           answer_index=answer_index)


def test_a_logic_puzzle_is_a_question_with_options_or_a_typed_answer():
    board = logic_board(logic("Who?\nSay so.\nA. Ann\nB. Bob (or A. Ann)\nC. Cy", "B",
                              answer_index=1))
    assert board == ChoiceBoard(question="Who?\nSay so.", options=("Ann", "Bob (or A. Ann)",
                                                                   "Cy"), answer=1)
    typed = logic("Which items?", "camera, book", check="solution-set", options=("x",))
    assert logic_board(typed) == ChoiceBoard(question="Which items?", answer="camera, book",
                                             unordered=True)
    # Options in the text that are not the criterion's: typed, the key as it is.
    odd = logic("Pick:\nA. one\nB. two", "B", options=("o1", "o2", "o3"))
    assert logic_board(odd).options == () and logic_board(odd).answer == "B"


def test_combination_and_polyomino_boards_pass_the_check():
    host = get_host()
    comb = host.get_type("combination")
    parsed = comb.from_json(COMBINATION_LEVEL["params"], COMBINATION_LEVEL)
    # The level's solution (test_render_boards.py plays it), as the model's values.
    rows = ["aQ aQ aB ..", "oo aB .. aR", "## bB .. oo", "bQ bR bB aB"]
    code = {"R": 1, "B": 2, "Q": 3}
    solution = tuple(4 * (ord(c[0]) - 96) + code[c[1]] if c[1] in code else
                     {"..": 0, "##": -1, "oo": -2}[c] for row in rows for c in row.split())
    board = play.play_grid(comb, COMBINATION_LEVEL["params"], parsed, solution)
    assert isinstance(board, PieceBoard) and board.rule == "attacks"
    assert [(k.name, k.count, k.group, k.value) for k in board.kinds] == [
        ("bishop b", 2, 2, 10), ("queen b", 1, 2, 11), ("queen a", 2, 1, 7),
        ("rook b", 1, 2, 9), ("rook a", 1, 1, 5), ("bishop a", 3, 1, 6)]
    assert board.cells[4] == play.HOLE and board.cells[8] == play.BLOCKED
    assert sorted(i for _, squares in board.solution for i in squares) == \
        [i for i, v in enumerate(solution) if v > 0]
    poly = host.get_type("polyomino-math")
    parsed = poly.parse({}, "2xI3 2xL3\n4 1 3 3\n2 2 1 4\n3 2 1 4")
    # The optimum: an I3 down the first and the last column, two L3 between them.
    labels = (1, 2, 2, 3, 1, 2, 4, 3, 1, 4, 4, 3)
    board = play.play_grid(poly, parsed.params, parsed.instance, labels)
    assert board.rule == "score" and board.numbers == (4, 1, 3, 3, 2, 2, 1, 4, 3, 2, 1, 4)
    assert [(k.name, k.count, k.turns) for k in board.kinds] == [("I3", 2, True), ("L3", 2, True)]
    assert board.goal == 24 + 6 + 48 + 4
