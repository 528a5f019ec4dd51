"""Pure functions of the Sudoku plugin, for every box shape of the issue."""
import random

import pytest

from puzzle_engine import PuzzleInputError
from puzzle_engine_plugins.sudoku import logic

pytestmark = pytest.mark.fast  # no solver here

SHAPES = {4: "2x2", 6: "2x3", 8: "2x4", 9: "3x3", 12: "3x4", 15: "3x5", 16: "4x4", 20: "4x5",
          25: "5x5"}


@pytest.mark.parametrize("size,box", SHAPES.items())
def test_size_picks_the_squarest_box(size, box):
    assert logic.check_params({"size": size}) == {"size": size, "box": box, "choose": "fill"}


def pattern_board(n, r, c):
    """A valid full board by the classic shift pattern, for pure tests."""
    return tuple((c * (i % r) + i // r + j) % n + 1 for i in range(n) for j in range(n))


@pytest.mark.parametrize("size", SHAPES)
def test_formats_read_back(size):
    params = logic.check_params({"size": size})
    n, r, c = logic.dims(params)
    full = pattern_board(n, r, c)
    assert logic.find_conflict(full, n, r, c) is None
    rng = random.Random(size)
    board = tuple(v if rng.random() < 0.5 else 0 for v in full)
    for text in (logic.format_line(board), logic.format_text(board, n, r, c)):
        assert logic.parse(text, {"size": None, "box": None}) == (params, board)
    line = logic.format_line(full)
    assert set(line) == set(logic.ALPHABET[:n])


def test_text_grid_has_box_borders():
    params = logic.check_params({"box": "2x3"})
    text = logic.format_text(pattern_board(6, 2, 3), *logic.dims(params))
    lines = text.splitlines()
    assert lines[0] == "1 2 3 | 4 5 6"
    assert lines[2] == "------+------"
    assert len(lines) == 6 + 2


def test_lower_case_and_zero_are_read():
    params = logic.check_params({"size": 16})
    board = pattern_board(16, 4, 4)
    text = logic.format_line(board).lower().replace("1", "0", 1)
    _, parsed = logic.parse(text, {"size": None, "box": None})
    assert parsed[0] == 0 and parsed[1:] == board[1:]


def test_size_ten_uses_two_by_five():
    assert logic.check_params({"size": 10})["box"] == "2x5"


def test_prime_sizes_need_an_explicit_box():
    with pytest.raises(PuzzleInputError, match="prime"):
        logic.check_params({"size": 11})
    assert logic.check_params({"box": "1x5"})["size"] == 5


def test_fill_fraction_chooser_prefers_full_rows():
    """Paper 000, 3.1.3: a row is kept with probability equal to its fill fraction."""
    n = 9
    full = pattern_board(9, 3, 3)
    board = list(full)
    for i in range(9 * 4, 9 * 5):  # row 5 keeps only one given
        board[i] = 0
    board[9 * 4] = full[9 * 4]
    candidates = [i for i in range(81) if board[i]]
    rng = random.Random(0)
    picks = [logic.choose_fill(tuple(board), n, candidates, rng) // n for _ in range(3000)]
    share_row5 = picks.count(4) / len(picks)
    # row 5 is 1/9 full, the others full: expected share (1/9) / (8 + 1/9), about 1.4%
    assert share_row5 < 0.04
    assert all(picks.count(row) > 200 for row in range(9) if row != 4)


def test_chooser_only_returns_candidates():
    full = pattern_board(4, 2, 2)
    rng = random.Random(1)
    for _ in range(200):
        candidates = rng.sample(range(16), rng.randrange(1, 16))
        assert logic.choose_fill(full, 4, candidates, rng) in candidates


def test_features_of_paper_000():
    params = logic.check_params({"size": 9})
    full = pattern_board(9, 3, 3)
    board = tuple(0 if i < 18 else v for i, v in enumerate(full))  # two blank rows
    feats = logic.features(board, *logic.dims(params))
    assert feats["empties"] == 18
    assert feats["rows_mostly_blank"] == 2
    assert feats["columns_mostly_blank"] == 0
    assert feats["boxes_mostly_blank"] == 0
    assert [feats[f"count_{d}"] for d in "123456789"] == [7.0] * 9
    assert feats["count_std"] == 0.0
