"""--symmetry on the emptying strategy (issue 43), on the fake solver: a removal is an
orbit, so the givens are symmetric; the puzzle is minimal when no further orbit can be
removed; 'none' is the square-by-square loop, the same puzzles as before; a symmetry the
board does not allow, or a type that gives no orbits, is one line before any solver call."""
import pytest

from puzzle_engine import PuzzleInputError
from puzzle_engine.engine import Engine
from puzzle_engine.errors import PluginError
from puzzle_engine.plugins import get_host
from puzzle_engine.strategies import GenOptions

from fake_solver import LATIN, SUDOKU, FakeBackend, latin_squares, sudoku_boards
from support import TYPE, ToyLatin

pytestmark = pytest.mark.fast

ORACLES = {"sudoku": SUDOKU, TYPE: LATIN}
BOARDS = {"sudoku": sudoku_boards(2, 2), TYPE: latin_squares(4)}
#: Each symmetry as a map of (row, column) on a 4x4 board.
IMAGES = {"rot180": lambda r, c: (3 - r, 3 - c), "rot90": lambda r, c: (c, 3 - r),
          "mirror": lambda r, c: (r, 3 - c), "diagonal": lambda r, c: (c, r)}


@pytest.fixture(scope="module")
def host():
    host = get_host()
    host.register(ToyLatin(), name="toy_latin_symmetry", version="0.0.test")
    return host


def solutions(name, grid):
    return [b for b in BOARDS[name] if all(g == 0 or g == v for g, v in zip(grid, b))]


def symmetric(grid, symmetry):
    image = IMAGES[symmetry]
    return all(bool(grid[r * 4 + c]) == bool(grid[image(r, c)[0] * 4 + image(r, c)[1]])
               for r in range(4) for c in range(4))


def orbit_minimal(name, grid, symmetry):
    """No orbit of givens can be emptied with the puzzle still unique."""
    image = IMAGES[symmetry]
    for i, v in enumerate(grid):
        if not v:
            continue
        orbit, (r, c) = {i}, divmod(i, 4)
        for _ in range(4):
            r, c = image(r, c)
            orbit.add(r * 4 + c)
        weaker = tuple(0 if j in orbit else g for j, g in enumerate(grid))
        if len(solutions(name, weaker)) == 1:
            return False
    return True


@pytest.mark.fast
@pytest.mark.parametrize("symmetry", sorted(IMAGES))
@pytest.mark.parametrize("name", ["sudoku", TYPE])
def test_orbits_are_removed_whole_and_the_puzzle_is_orbit_minimal(host, name, symmetry):
    ptype = host.get_type(name)
    for seed in range(1, 7):
        engine = Engine(host, FakeBackend(ORACLES))
        params = engine.check_params(ptype, {"size": 4})
        made = engine.generate(ptype, params, seed, GenOptions(symmetry=symmetry))
        puzzle = made.puzzle
        assert symmetric(puzzle.grid, symmetry), (seed, puzzle.grid)
        assert solutions(name, puzzle.grid) == [puzzle.solution]
        assert puzzle.minimal and orbit_minimal(name, puzzle.grid, symmetry), seed
        assert puzzle.options["symmetry"] == symmetry
        # reproducible from the record: the same seed and symmetry give the same puzzle
        again = Engine(host, FakeBackend(ORACLES)).generate(ptype, params, seed,
                                                            GenOptions(symmetry=symmetry))
        assert again.puzzle.grid == puzzle.grid


@pytest.mark.fast
def test_none_is_the_square_by_square_loop_and_is_not_recorded(host):
    """'none' is the default, draws from the random stream as before (the golden
    records), and leaves the record's options as they were."""
    ptype = host.get_type("sudoku")
    assert GenOptions().symmetry == "none"
    for seed in (1, 2, 3):
        runs = []
        for options in (GenOptions(batch=1), GenOptions(batch=1, symmetry="none")):
            engine = Engine(host, FakeBackend(ORACLES))
            params = engine.check_params(ptype, {"size": 4})
            runs.append(engine.generate(ptype, params, seed, options).puzzle)
        assert runs[0].grid == runs[1].grid
        assert "symmetry" not in runs[1].options


@pytest.mark.fast
def test_grid_orbits_partition_the_board():
    from puzzle_engine_plugins.fillomino import Fillomino
    f = Fillomino()
    params = {"rows": 2, "cols": 3}
    assert sorted(map(sorted, f.orbits(params, "rot180"))) == [[0, 5], [1, 4], [2, 3]]
    assert sorted(map(sorted, f.orbits(params, "mirror"))) == [[0, 2], [1], [3, 5], [4]]
    square = {"rows": 3, "cols": 3}
    assert sorted(map(sorted, f.orbits(square, "rot90"))) == [[0, 2, 6, 8], [1, 3, 5, 7], [4]]
    assert sorted(map(sorted, f.orbits(square, "diagonal"))) == \
        [[0], [1, 3], [2, 6], [4], [5, 7], [8]]
    for symmetry in ("rot90", "diagonal"):
        with pytest.raises(PuzzleInputError, match=f"--symmetry {symmetry} needs a square board; "
                                                   "this one is 2x3"):
            f.orbits(params, symmetry)


@pytest.mark.fast
def test_a_bad_symmetry_or_bad_orbits_are_one_line_before_any_solver_call(host):
    ptype = host.get_type("sudoku")
    with pytest.raises(PuzzleInputError, match="bad --symmetry 'spin': expected one of none, "
                                               "rot180, rot90, mirror, diagonal"):
        GenOptions(symmetry="spin").check()

    class Broken(type(ptype)):
        def orbits(self, params, symmetry):
            return [[0, 1], [1, 2]]  # square 1 twice, most squares in none

    class Silent(type(ptype)):
        def orbits(self, params, symmetry):
            return None  # the contract's default: the type does not say

    for cls, error, said in ((Broken, PluginError, "a partition of the squares 0..15"),
                             (Silent, PuzzleInputError, "does not say how its squares map")):
        engine = Engine(host, FakeBackend(ORACLES))
        with pytest.raises(error, match=said):
            engine.generate(cls(), {"size": 4, "box": "2x2", "choose": "fill"}, 1,
                            GenOptions(symmetry="rot180"))
        assert engine.backend.calls == 0
