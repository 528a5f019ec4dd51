"""Canonical forms (``PuzzleType.canonical_form``): random images of a puzzle under its
type's symmetries get its form, and puzzles that are not images of each other get
different forms; Sudoku's search agrees with brute force over the whole group on small
boxes, square and rectangular."""
import random

import pytest

from puzzle_engine.plugins import get_host
from puzzle_engine_plugins.sudoku.canonical import canonical
from sudoku_brute import brute_canonical
from support import golden, random_image

pytestmark = pytest.mark.fast


def random_board(n: int, rng: random.Random) -> tuple[int, ...]:
    fill = rng.random()
    return tuple(rng.randint(1, n) if rng.random() < fill else 0 for _ in range(n * n))


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 2)])
def test_sudoku_form_is_the_least_image_over_the_whole_group(box):
    """On 4x4 (the group has 3,072 position maps and 24 relabellings) and on 6x6 with
    rectangular boxes (3,456 position maps, no transpose), brute force agrees on random
    boards from empty to full; equal forms therefore mean images of each other."""
    r, c = box
    n = r * c
    rng = random.Random(n * 10 + r)
    forms = {}
    for _ in range(40 if n == 4 else 12):
        board = random_board(n, rng)
        form = canonical(board, n, r, c)
        assert form == brute_canonical(board, n, r, c)
        forms.setdefault(form, set()).add(board)
    assert len(forms) > 1


@pytest.mark.parametrize("kind, prefix", [("sudoku", lambda p: p["box"] + ":"),
                                          ("fillomino", lambda p: f"{p['rows']}x{p['cols']}:")])
def test_images_share_a_form_and_other_puzzles_do_not(kind, prefix):
    """Random images of each golden puzzle under the type's transformations get its form;
    the golden puzzles, all different, get different forms."""
    ptype = get_host().get_type(kind)
    rng = random.Random(4)
    forms = set()
    puzzles = golden(kind)
    for params, board in puzzles:
        form = ptype.canonical_form(params, board)
        assert form.startswith(prefix(params))
        for _ in range(2 if params.get("size", 0) > 12 else 5):
            assert ptype.canonical_form(params, random_image(ptype, params, board, rng)) == form
        forms.add(form)
    assert len(forms) == len({board for _, board in puzzles})  # each its own class


def test_sudoku_transpose_only_for_square_boxes():
    """A 4x4 and its transpose are images of each other; a 6x6 with 2x3 boxes and its
    transpose (whose boxes are 3x2) are not, under the 2x3 group."""
    rng = random.Random(2)
    for n, r, c, same in ((4, 2, 2, True), (6, 2, 3, False)):
        board = random_board(n, rng)
        while board.count(0) > n * n // 2:
            board = random_board(n, rng)
        transposed = tuple(board[j * n + i] for i in range(n) for j in range(n))
        assert (canonical(board, n, r, c) == canonical(transposed, n, r, c)) is same
        assert canonical(transposed, n, r, c) == brute_canonical(transposed, n, r, c)


def test_combination_form_is_blind_to_board_symmetries_and_colour_names():
    combination = get_host().get_type("combination")
    level = combination.parse({}, "2 queen a, 1 rook b, 1 bishop c: .#../o.../..#./....")
    params, instance = level.params, level.instance
    form = combination.canonical_form(params, instance)
    turned = combination.parse({}, "1 rook c, 1 bishop a, 2 queen b: ..../.#../...o/..#.")
    assert combination.canonical_form(turned.params, turned.instance) == form
    moved = combination.parse({}, "2 queen a, 1 rook b, 1 bishop c: .#../.o../..#./....")
    recoloured = combination.parse({}, "2 queen a, 1 rook a, 1 bishop c: .#../o.../..#./....")
    others = {combination.canonical_form(p.params, p.instance) for p in (moved, recoloured)}
    assert form not in others and len(others) == 2


def test_sudoku_boards_with_almost_no_givens_stay_cheap():
    """An empty board or one given has a huge stabiliser: states and column orders that
    show the same image are kept once (this took seconds to minutes before)."""
    for n, r, c in ((9, 3, 3), (16, 4, 4), (35, 5, 7)):
        assert canonical((0,) * (n * n), n, r, c) == f"{r}x{c}:" + "." * (n * n)
        one = [0] * (n * n)
        one[n + 2] = 7
        assert canonical(tuple(one), n, r, c) == f"{r}x{c}:" + "." * (n * n - 1) + "1"
