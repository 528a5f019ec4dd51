"""The repairs of the growing strategy's ``--start full`` on the fake solver (the toy type
fake_growing_latin of tests/fake_types.py: a repair gives the solution's value on a
square): each repair is the one the definition names, found by a binary search over the
type's order of squares, whatever the solver returns first; a level kept has one
solution, its own; ``--keep last`` ends a seed at its first accepted fill, and a seed
with no accepted level is NothingFound."""
import pytest

from puzzle_engine.engine import Engine
from puzzle_engine.errors import NothingFound

from fake_solver import FakeBackend, latin_squares
from fake_types import ORACLES, GrowingLatin, fake_host

pytestmark = pytest.mark.fast

LATIN = latin_squares(4)
NAME = "fake_growing_latin"


def solutions_of(board):
    return [b for b in LATIN if all(g == 0 or g == v for g, v in zip(board, b))]


def repaired(board, solution, limit=60):
    """The definition, by brute force: while another solution exists, a given on the first
    empty square (row by row) where one differs from ``solution``."""
    for made in range(limit):
        others = [b for b in solutions_of(board) if b != solution]
        if not others:
            return board, made
        square = next(i for i, v in enumerate(board)
                      if not v and any(b[i] != solution[i] for b in others))
        board = board[:square] + (solution[square],) + board[square + 1:]
    return board, limit


def recording(**changes):
    """A host whose fake_growing_latin records each full level it draws."""
    drawn = []

    def random_full(self, params, base, rng):
        got = GrowingLatin.random_full(self, params, base, rng)
        drawn.append(got)
        return got
    return fake_host(fake_growing_latin={"random_full": random_full, **changes}), drawn


def generate(host, seed, **options):
    engine = Engine(host, FakeBackend(ORACLES))
    return engine.generate(host.get_type(NAME), {"size": 4}, seed,
                           {"start": "full", "keep": "all", "fills": 4, **options}), engine


@pytest.mark.parametrize("seed", range(1, 7))
def test_each_full_level_is_repaired_as_the_definition_says(seed):
    host, drawn = recording()
    result, engine = generate(host, seed)
    assert result.kept
    for level in result.kept:
        board, solution = drawn[level.extra["fill"]]
        assert (level.instance, level.extra["repairs"]) == repaired(board, solution)
        assert solutions_of(level.instance) == [level.solution] == [solution]
    # the binary search asks fewer questions than one per square and repair
    asked = sum(q.kind == "run" for q in engine.backend.queries)
    assert asked < sum(16 * (1 + p.extra["repairs"]) for p in result.kept)


def test_without_repairable_squares_each_repair_is_told_the_least_other_solution():
    host, drawn = recording(repairable_none=True)
    result, _ = generate(host, 3)
    assert result.kept and any(p.extra["repairs"] for p in result.kept)
    for level in result.kept:
        board, solution = drawn[level.extra["fill"]]
        assert solutions_of(level.instance) == [solution]
        assert all(b == 0 or b == v for b, v in zip(board, level.instance))


def test_no_repairs_keeps_only_what_was_unique_already():
    host, drawn = recording(full_givens=9)
    result, _ = generate(host, 2, repairs=0, fills=8)
    for level in result.kept:
        assert level.extra["repairs"] == 0
        assert level.instance == drawn[level.extra["fill"]][0]


def test_keep_last_ends_the_seed_at_its_first_accepted_fill():
    host, drawn = recording()
    result, _ = generate(host, 5, keep="last")
    assert result.kept == [] and len(drawn) == result.puzzle.extra["fill"] + 1 == 1


def test_a_seed_with_no_accepted_full_level_is_nothing_found():
    host, _ = recording(full_givens=1)
    with pytest.raises(NothingFound) as caught:
        generate(host, 1, repairs=0, fills=2, restarts=2)
    assert str(caught.value) == (
        "growing puzzle 'fake_growing_latin', plugin 'fake_types' --start full found no "
        "accepted level in 2 bases of 2 full levels each (seed 1); raise --restarts or "
        "--fills")
