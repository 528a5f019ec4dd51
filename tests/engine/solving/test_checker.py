"""The checker narrows "differs from the full board" to the squares emptied since the
last board it proved unique, and the counts stay those of the full constraint. It
answers a board with fewer givens than one it found other solutions for without a call."""
import random

import pytest

from puzzle_engine import PuzzleType
from puzzle_engine.solving.backend import Backend
from puzzle_engine.solving.compiled import CACHE_ENV
from puzzle_engine.solving.process import ProcessSession
from puzzle_engine.engine import Engine
from puzzle_engine.strategies import GenOptions


def test_checker_narrows_differs_to_squares_emptied_since_a_proven_unique_board(
        host, sudoku, monkeypatch):
    engine = Engine(host, Backend("gecode"))
    params = engine.check_params(sudoku, {"size": 9})
    puzzle = engine.generate(sudoku, params, 3, GenOptions()).puzzle
    full, grid = puzzle.solution, puzzle.grid
    empties = [i for i, v in enumerate(grid) if not v]
    givens = [i for i, v in enumerate(grid) if v]
    model = engine.compiled(sudoku, engine.checker_data(sudoku, params, grid))

    narrowed_to = []
    count = ProcessSession.count

    def spy(self, board, limit, differs=None, differs_at=None):
        narrowed_to.append(None if differs_at is None else list(differs_at))
        return count(self, board, limit, differs, differs_at)
    monkeypatch.setattr(ProcessSession, "count", spy)

    checker = engine.checker(sudoku, params, full)
    half = tuple(0 if i in empties[:20] else v for i, v in enumerate(full))
    assert checker.count_other(half, 1) == (0, True)
    assert narrowed_to[-1] == sorted(empties[:20])       # nothing proven yet but the full board
    assert checker.count_other(grid, 1) == (0, True)
    assert narrowed_to[-1] == sorted(empties[20:])       # only what was emptied since `half`
    calls = engine.backend.calls
    assert checker.count_other(half, 1) == (0, True)     # more givens than a proven board
    assert engine.backend.calls == calls
    for g in givens[:6]:
        trial = grid[:g] + (0,) + grid[g + 1:]
        narrowed = checker.count_other(trial, 3)
        assert narrowed_to[-1] == [g]
        assert narrowed == count(model, trial, 3, differs=full)  # the whole disjunction
        assert narrowed[0] >= 1 and narrowed[1]                   # the puzzle is minimal
    # A board with fewer givens than one with other solutions has them too: no solver call.
    calls = engine.backend.calls
    g = givens[0]
    fewer = tuple(0 if i in (g, givens[-1]) else v for i, v in enumerate(grid))
    assert checker.count_other(fewer, 1) == (1, True)
    assert engine.backend.calls == calls
    assert checker.count_other(fewer, 99)[1] and engine.backend.calls == calls + 1  # not known to be enough


def test_flattened_models_are_cached_between_engines(host, sudoku, monkeypatch, tmp_path):
    import subprocess
    compiles = []
    real = subprocess.run

    def run(cmd, *args, **kwargs):
        if "-c" in cmd:
            compiles.append(cmd)
        return real(cmd, *args, **kwargs)
    monkeypatch.setattr(subprocess, "run", run)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    data = lambda e, size: e.checker_data(sudoku, e.check_params(sudoku, {"size": size}), (0,) * size ** 2)

    texts = []
    for _ in range(2):  # a fresh engine, as in a new process
        engine = Engine(host, Backend("gecode"))
        model = engine.compiled(sudoku, data(engine, 4))
        texts.append((model._decls, model._head, model._solve, model._names))
        assert model.count((0,) * 16, 2) == (2, True)
    assert len(compiles) == 1 and texts[0] == texts[1] and len(list(tmp_path.iterdir())) == 1
    Engine(host, Backend("chuffed")).compiled(sudoku, data(engine, 4))   # another solver
    Engine(host, Backend("gecode")).compiled(sudoku, data(engine, 9))    # other data
    assert len(compiles) == 3 and len(list(tmp_path.iterdir())) == 3

    monkeypatch.setenv(CACHE_ENV, "off")
    Engine(host, Backend("gecode")).compiled(sudoku, data(engine, 4))
    assert len(compiles) == 4 and len(list(tmp_path.iterdir())) == 3


@pytest.mark.parametrize("solver", ["gecode", "chuffed"])
def test_givens_fix_declarations_and_conflicts_still_fail(solver):
    """Givens narrow the decision variables' declarations; a given outside a domain, two
    givens for one variable, or a given against a square flattening fixed all fail."""
    class Alias(PuzzleType):
        name, decision = "alias", "grid"
        models = (r"""
        int: top;
        array[1..4] of var 1..top: grid;   % flattens to [A, A, B, 2], A in 1..3, B in 1..5
        constraint grid[1] = grid[2] /\ grid[1] <= 3 /\ grid[4] = 2;
        solve satisfy;
        """,)
    ptype = Alias()
    model = Backend(solver).compile(ptype, {"top": 5})
    try:
        assert model.count((0, 0, 0, 0), 20) == (15, True)
        assert model.count((1, 1, 0, 2), 20) == (5, True)
        assert model.count((0, 3, 4, 0), 20) == (1, True)
        assert model.count((1, 2, 0, 0), 20) == (0, True)   # A = 1 and A = 2
        assert model.count((0, 0, 0, 3), 20) == (0, True)   # the last square is 2
        assert model.count((0, 0, 6, 0), 20) == (0, True)   # B is at most 5
        assert model.count((0, 0, 2, 0), 20, differs=(1, 1, 2, 2), differs_at=[0]) == (2, True)
    finally:
        model.close()


@pytest.mark.parametrize("solver", ["gecode", "chuffed"])
def test_first_board_with_another_solution_in_one_call(host, sudoku, solver):
    """One optimising call finds the first of a run of nested boards with a second
    solution: the board one-by-one checks would find, starting from any proven board."""
    engine = Engine(host, Backend(solver))
    params = engine.check_params(sudoku, {"size": 9})
    full = engine.complete(sudoku, params, (0,) * 81)
    for seed in range(4):
        order = random.Random(seed).sample(range(81), 81)
        boards, board = [], full
        for i in order:
            board = board[:i] + (0,) + board[i + 1:]
            boards.append(board)
        one = engine.checker(sudoku, params, full)
        first = next(j for j, b in enumerate(boards) if one.count_other(b, 1)[0])
        for start in (0, first // 2, first):   # a run beginning before or at the answer
            checker = engine.checker(sudoku, params, full)
            if start:
                assert checker.count_other(boards[start - 1], 1) == (0, True)
            calls = engine.backend.calls
            assert checker.first_with_other(boards[start:first + 5]) == (first - start, True)
            assert engine.backend.calls == calls + 1
            assert checker.first_with_other(boards[start:first]) == (None, True)  # known: no call
            assert checker.count_other(boards[first + 3], 1) == (1, True)         # known too
            assert engine.backend.calls == calls + 1
