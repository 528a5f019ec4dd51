"""Combination levels from ``--start full`` with its repairs (issue 42), confirmed by a
second, independent check: the CP-SAT model of tests/combination_cpsat.py, written with no
code of the plugin. That model is first checked against the brute-force enumerator
(tests/combination_brute.py) on small random levels and on hand-made cases; then every
level generated here must be unique by it, with its record's solution a valid placement
of its record's pieces."""
import collections
import json
import os
import random
import subprocess
import sys

import pytest


from combination_brute import classes, placements, read_pieces, read_solution
from combination_cpsat import Model, Undecided, count_classes, valid, verdict
from support import open_engines

NAME = "combination"
STEPS = ((0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1))
ATTACKS = {"R": STEPS[0:2] + STEPS[4:6], "B": STEPS[2:4] + STEPS[6:8], "Q": STEPS}
WORDS = {"R": "rook", "B": "bishop", "Q": "queen"}


def brute_classes(board, text):
    pieces = read_pieces(text)
    return len(classes(placements(board, pieces), pieces))


def random_level(rng):
    """A random 4x4 or 5x4 board, and pieces of one or two kinds a colour placed on it at
    random while they are safe (half the time as many as fit): (board, pieces text,
    solution rows)."""
    w, h = rng.choice(((4, 4), (5, 4)))
    board = ["".join(rng.choice("...##o") for _ in range(w)) for _ in range(h)]
    colours = "abc"[:rng.choice((2, 2, 3))]
    kinds = [(c, a) for c in colours for a in rng.sample("RBQ", rng.choice((1, 1, 2)))]
    grid = {}

    def first(r, c, dr, dc):  # the first piece from (r, c) along (dr, dc), if any
        r, c = r + dr, c + dc
        while 0 <= r < h and 0 <= c < w and board[r][c] != "#":
            if (r, c) in grid:
                return grid[r, c]
            r, c = r + dr, c + dc
        return None

    target = rng.choice((rng.randint(3, 8), w * h))
    squares = [(r, c) for r in range(h) for c in range(w) if board[r][c] == "."]
    for r, c in rng.sample(squares, len(squares)):
        if len(grid) == target:
            break
        for kind in rng.sample(kinds, len(kinds)):
            if all(o is None or o[0] == kind[0] or (d not in ATTACKS[kind[1]]
                                                    and d not in ATTACKS[o[1]])
                   for d in STEPS for o in [first(r, c, *d)]):
                grid[r, c] = kind
                break
    counts = collections.Counter(grid.values())
    text = ", ".join(f"{n} {WORDS[a]} {c}" for (c, a), n in sorted(counts.items()))
    solution = [" ".join("".join(grid[r, c]) if (r, c) in grid else board[r][c] * 2
                         for c in range(w)) for r in range(h)]
    return board, text, solution


#: (board, pieces, solution, a valid placement by the rules)
HAND = [
    ([".o.."], "1 rook a, 1 rook b", ["aR oo bR .."], False),  # a ray passes over a hole
    ([".#.."], "1 rook a, 1 rook b", ["aR ## bR .."], True),  # a wall stops it
    (["..."], "1 rook a, 1 bishop b", ["aR .. bB"], False),  # either one attacking is enough
    (["..."], "1 bishop a, 1 bishop b", ["aB .. bB"], True),
    (["..."], "1 rook a, 1 bishop a, 1 bishop b", ["aR aB bB"], True),  # a piece stops it
    (["..", ".."], "1 bishop a, 1 rook b", ["aB ..", ".. bR"], False),
    (["..", ".."], "1 rook a, 1 rook b", ["aR ..", ".. bR"], True),
    (["..", ".."], "1 queen a, 1 rook b", ["aQ ..", ".. bR"], False),
    (["..", ".."], "1 queen a, 1 bishop b", ["aQ ..", "bB .."], False),
    (["..", ".."], "2 queen a", ["aQ aQ", ".. .."], True),  # one colour never attacks itself
    (["...", ".o.", "..."], "1 bishop a, 1 rook b", ["aB .. ..", ".. oo ..", ".. .. bR"], False),
    (["...", ".#.", "..."], "1 bishop a, 1 rook b", ["aB .. ..", ".. ## ..", ".. .. bR"], True),
    (["o."], "1 rook a", ["aR .."], False),  # pieces stand on empty squares only
    (["#."], "1 rook a", ["aR .."], False),
    (["..."], "2 rook a", ["aR .. .."], False),  # each count exact
    (["..."], "1 rook a", ["aR aR .."], False),
    (["..."], "1 rook a", ["aB .. .."], False),  # a piece of no listed kind
]


@pytest.mark.parametrize("board, text, solution, expected", HAND,
                         ids=lambda x: " ".join(x) if isinstance(x, list) else str(x))
def test_the_rules_by_hand_agree_with_brute_force(board, text, solution, expected):
    """valid() on hand-made placements, each the brute-force enumerator's verdict too."""
    assert valid(board, text, solution) is expected
    assert (read_solution(solution) in placements(board, read_pieces(text))) is expected


def test_a_solution_showing_other_squares_than_the_board_is_not_valid():
    """The rows of a solution show the board's walls and holes where no piece stands."""
    assert valid([".#."], "1 rook a", ["aR ## .."])
    assert not valid([".#."], "1 rook a", ["aR .. .."])
    assert not valid(["..o"], "1 rook a", ["aR .. .."])


@pytest.mark.parametrize("board, text, found, expected", [
    ([".#."], "1 rook a, 1 rook b", 2, 1),  # a and b swapped: one class
    ([".#."], "1 rook a, 1 bishop b", 2, 2),  # not interchangeable
    ([".#.#."], "1 rook a, 1 rook b, 1 rook c", 6, 1),
    ([".#.#."], "1 rook a, 1 rook b, 1 queen c", 6, 3),  # where c stands
    ([".#.#."], "1 rook a, 1 queen b, 1 rook c", 6, 3),
    ([".#.#."], "2 rook a, 1 rook b", 3, 3),  # different counts: not interchangeable
])
def test_placements_count_modulo_renaming_interchangeable_colours(board, text, found,
                                                                  expected):
    """count_classes counts a placement and its images under renamings of colours with
    identical piece sets once, as the brute-force enumerator's classes do."""
    pieces = read_pieces(text)
    everything = placements(board, pieces)
    assert len(everything) == found
    assert len(classes(everything, pieces)) == expected
    assert count_classes(board, text, limit=10) == expected
    model = Model(board, pieces)
    rows = model.rows(model.solve(30))
    assert verdict(board, text, rows) == ("unique" if expected == 1 else "several")


def test_cpsat_agrees_with_brute_force_on_random_small_levels():
    """On 30 seeded random 4x4 and 5x4 levels: the same number of placements modulo the
    colour renamings (0, 1 or more) by CP-SAT and by brute force, for the level, for the
    level with one more piece, and for one with colours of identical piece sets; the same
    verdict on the level's own solution. Unique and not unique levels both occur."""
    seen = collections.Counter()
    for seed in range(30):
        rng = random.Random(seed)
        board, text, solution = random_level(rng)
        n = brute_classes(board, text)
        assert n >= 1 and valid(board, text, solution), (seed, board, text, solution)
        assert count_classes(board, text, limit=3) == min(n, 3), (seed, board, text)
        said = verdict(board, text, solution)
        assert said == ("unique" if n == 1 else "several"), (seed, board, text)
        seen[said] += 1
        parts = text.split(", ")
        count, word, colour = parts[0].split()
        more = ", ".join([f"{int(count) + 1} {word} {colour}", *parts[1:]])
        n = brute_classes(board, more)
        assert count_classes(board, more, limit=3) == min(n, 3), (seed, board, more)
        seen["more", min(n, 3)] += 1
        words = rng.sample(list(WORDS.values()), rng.choice((1, 2)))
        counts = [rng.randint(1, 3) for _ in words]
        twins = ", ".join(f"{n} {word} {c}" for c in "ab" for n, word in zip(counts, words))
        n = brute_classes(board, twins)
        assert count_classes(board, twins, limit=3) == min(n, 3), (seed, board, twins)
        seen["twins", min(n, 3)] += 1
    assert seen["unique"] >= 3 and seen["several"] >= 3, seen
    assert seen["more", 0] >= 3 and seen["twins", 0] >= 3 and seen["twins", 3] >= 3, seen


def test_a_time_out_is_never_unique():
    """CP-SAT out of time: count_classes raises Undecided, verdict says 'unknown', where
    with time it finds a second placement."""
    board, text = ["........"] * 8, "8 queen a, 8 queen b"
    with pytest.raises(Undecided):
        count_classes(board, text, seconds=1e-9)
    model = Model(board, read_pieces(text))
    rows = model.rows(model.solve(30))
    assert verdict(board, text, rows, seconds=1e-9) == "unknown"
    assert verdict(board, text, rows, seconds=30) == "several"


def check(record, colours):
    """The record's solution a valid placement of its pieces, the level unique, by CP-SAT
    (a time-out fails)."""
    board, text, solution = record["board"], record["pieces"], record["solution"]
    assert {colour for _, colour, _ in read_pieces(text)} == set("abcdefgh"[:colours]), text
    assert valid(board, text, solution), record
    assert verdict(board, text, solution, seconds=120) == "unique", record


@pytest.fixture(scope="module")
def made(host):
    with open_engines(host, ("sat", "chuffed")) as engines:
        yield host.get_type(NAME), engines


def generated(made, solver, seed, **params):
    """The levels of ``gen --start full --keep all --fills 2`` (repairs by default)."""
    ptype, engines = made
    engine = engines[solver]
    params = engine.check_params(ptype, params)
    result = engine.generate(ptype, params, seed, {"start": "full", "keep": "all", "fills": 2})
    return [puzzle.to_json(ptype) for puzzle in result.kept]


@pytest.mark.slow
def test_6x6_levels_of_two_colours_are_unique_by_cpsat_and_alike_on_chuffed(made):
    """6x6, 2 colours: every level of two seeds unique by CP-SAT, some made so by repairs;
    the same levels of a seed on Chuffed as on the SAT back end."""
    params = {"width": 6, "height": 6, "colours": 2, "walls": 6, "holes": 2}
    records = {seed: generated(made, "sat", seed, **params) for seed in (1, 2)}
    for record in records[1] + records[2]:
        assert record["options"]["repairs"] == 60
        check(record, 2)
    # a full level's record says how many repairs it took (a smaller one's says none)
    assert any(record.get("repairs") for record in records[1] + records[2])
    fields = ("board", "pieces", "solution", "step", "fill", "repairs")
    assert [{k: r.get(k) for k in fields} for r in generated(made, "chuffed", 1, **params)] \
        == [{k: r.get(k) for k in fields} for r in records[1]]


@pytest.mark.slow
def test_gen_8x8_of_three_colours_writes_levels_unique_by_cpsat(tmp_path):
    """The command line, 8x8 with 3 colours, 16 walls and 2 holes: every level written
    unique by CP-SAT, with a valid solution, repaired by default."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PUZZLE_ENGINE_PLUGINS", "PUZZLE_ENGINE_SOLVER", "PUZZLE_ENGINE_DEBUG")}
    proc = subprocess.run(
        [sys.executable, "-c", "from puzzle_engine.cli import main; main()", "gen", NAME,
         "--width", "8", "--height", "8", "--colours", "3", "--walls", "16", "--holes", "2",
         "--start", "full", "--keep", "all", "--count", "1", "--seed", "3", "--solver", "sat",
         "--fills", "2", "--format", "json"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert 1 <= len(records) <= 3
    for record in records:
        assert record["options"]["start"] == "full" and record["options"]["repairs"] == 60
        check(record, 3)
    assert any(record.get("repairs") for record in records)
