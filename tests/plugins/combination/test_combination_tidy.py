"""Combination's post-processing (plugins/combination/tidy.py): edge lines of walls and
holes go, walls that can never stop a ray become holes, and the placements stay the same,
by brute force (tests/combination_brute.py) and on the solver."""
import random

import pytest

from puzzle_engine.engine import Engine
from puzzle_engine.solving.backend import Backend
from puzzle_engine_plugins.combination import tidy
from puzzle_engine_plugins.combination.squares import EMPTY, HOLE, WALL

from combination_brute import placements, read_pieces

READ = {".": EMPTY, "#": WALL, "o": HOLE}
SHOW = {v: k for k, v in READ.items()}


def board_of(text):
    """``.#./...`` as (width, height, board)."""
    rows = text.split("/")
    return len(rows[0]), len(rows), tuple(READ[ch] for row in rows for ch in row)


def text_of(width, height, board):
    return "/".join("".join(SHOW[v] for v in board[r * width:(r + 1) * width])
                    for r in range(height))


def softened(text):
    width, height, board = board_of(text)
    return text_of(width, height, tidy.soften(width, height, board))


def trimmed(text):
    return text_of(*tidy.trim(*board_of(text)))


def tidied(text):
    return text_of(*tidy.tidy(*board_of(text)))


# -- hand-made boards -----------------------------------------------------------------------
SOFTEN = [
    ("#../.../...", "o../.../..."),  # a corner wall blocks no line
    (".#./.../...", ".#./.../..."),  # between two empty squares of its row
    ("..#/.#./#..", "..o/.#./o.."),  # the middle one: between two of a diagonal
    ("o#o/.../...", "ooo/.../..."),  # holes let rays through but hold no piece
    (".o#o./.....", ".o#o./....."),  # a hole on each side, then an empty square
    ("###/###/###", "ooo/ooo/ooo"),  # walls among walls
    # one at a time, row by row: the first two go, and then the third is the one that
    # stands between the empty squares
    ("..###..", "..oo#.."),
]


@pytest.mark.fast
@pytest.mark.parametrize("before, after", SOFTEN)
def test_soften(before, after):
    assert softened(before) == after


TRIM = [
    ("#o#/.../...", ".../..."),  # a top row of walls and holes
    ("#.#/.../...", "#.#/.../..."),  # an edge line with one empty square stays
    ("###/#o#/.../...", ".../..."),  # again and again
    ("####/#..#/#oo#", ".."),  # on every side
    (".#./.o.", ".#./.o."),  # a column of walls and holes inside stays
    ("#o./##./#o.", "././."),  # columns too
    ("###/###/###", "#"),  # one square at least
]


@pytest.mark.fast
@pytest.mark.parametrize("before, after", TRIM)
def test_trim(before, after):
    assert trimmed(before) == after


@pytest.mark.fast
def test_tidy_trims_and_softens():
    assert tidied("###/#o#/.#./...") == ".#./..."
    assert tidied("###/o#o/#.#/.#.") == "o.o/.#."
    assert tidied("###/###") == "o"


# -- the placements stay the same -----------------------------------------------------------
def random_level(rng):
    """A random level: a board of 3 or 4 rows of 3 to 5 squares, two of them empty at
    least, and two to five pieces of two or three colours."""
    while True:
        height, width = rng.randint(3, 4), rng.randint(3, 5)
        rows = ["".join(rng.choice("..#o") for _ in range(width)) for _ in range(height)]
        empty = sum(row.count(".") for row in rows)
        if empty >= 2:
            break
    colours = "abc"[:rng.choice((2, 3))]
    pieces = {}
    for _ in range(rng.randint(2, min(5, empty))):
        kind = (rng.choice(colours), rng.choice(("rook", "bishop", "queen")))
        pieces[kind] = pieces.get(kind, 0) + 1
    text = ", ".join(f"{n} {attack} {colour}" for (colour, attack), n in pieces.items())
    return "/".join(rows), text


def box(rows):
    """The rows and columns that hold an empty square, first to last (what trimming
    keeps)."""
    used = [r for r, row in enumerate(rows) if "." in row]
    columns = [c for c in range(len(rows[0])) if any(row[c] == "." for row in rows)]
    return range(used[0], used[-1] + 1), range(columns[0], columns[-1] + 1)


SEEDS = range(60)


def tidy_seed(seed):
    """A random level's board, its pieces and the tidied board, each as row strings."""
    board, text = random_level(random.Random(seed))
    return board.split("/"), text, tidied(board).split("/")


@pytest.mark.fast
@pytest.mark.parametrize("seed", SEEDS)
def test_tidy_keeps_the_placements(seed):
    """Every placement before tidying leaves the removed squares free and, on the kept
    ones, is a placement after tidying; and the other way round. Softening only turns
    walls into holes, and trimming keeps the rectangle of the empty squares."""
    before, text, after = tidy_seed(seed)
    rows, columns = box(before)
    assert (len(after), len(after[0])) == (len(rows), len(columns))
    for r, row in zip(rows, after):
        for c, square in zip(columns, row):
            assert before[r][c] == square or (before[r][c], square) == ("#", "o")
    pieces = read_pieces(text)
    width = len(before[0])
    kept = {r * width + c for r in rows for c in columns}
    found = placements(before, pieces)
    assert all(v is None for f in found for i, v in enumerate(f) if i not in kept)
    mapped = {tuple(f[r * width + c] for r in rows for c in columns) for f in found}
    again = placements(after, pieces)
    assert len(mapped) == len(found) == len(again) and mapped == set(again)


@pytest.mark.fast
def test_tidy_keeps_the_placements_is_not_vacuous():
    """The seeds above include levels that lose a line, levels that lose a wall, levels
    with placements and levels without; tidying in the other order gives the same."""
    trims = softens = solvable = unsolvable = 0
    for seed in SEEDS:
        before, text, after = tidy_seed(seed)
        board = "/".join(before)
        trims += (len(after), len(after[0])) != (len(before), len(before[0]))
        softens += board.count("#") > softened(board).count("#")
        n = len(placements(before, read_pieces(text)))
        solvable, unsolvable = solvable + (n > 0), unsolvable + (n == 0)
        other = text_of(*tidy.trim(*board_of(softened(board))))
        assert other == "/".join(after)
    assert min(trims, softens, solvable, unsolvable) >= 5, (trims, softens, solvable,
                                                            unsolvable)


@pytest.fixture(scope="module")
def gecode(host):
    engine = Engine(host, Backend("gecode"))
    try:
        yield host.get_type("combination"), engine
    finally:
        engine.close()


def solver_count(gecode, text):
    ptype, engine = gecode
    parsed = ptype.parse({}, text)
    _, found = engine.solve(ptype, parsed.params, parsed.instance, nr_solutions=0)
    return len(found)


SOLVER_SEEDS = (0, 6, 19, 29, 51)  # one softened only, one with no solution


@pytest.mark.parametrize("seed", SOLVER_SEEDS)
def test_the_solver_counts_the_same_after_tidying(gecode, seed):
    """The model finds as many solutions (one per class of swapped colours) before and
    after tidying, on levels that tidying changes."""
    before, text, after = tidy_seed(seed)
    assert before != after
    assert solver_count(gecode, f"{text}: {'/'.join(before)}") == \
        solver_count(gecode, f"{text}: {'/'.join(after)}")
