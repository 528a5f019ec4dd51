"""Fillomino checks its random full board itself (``verify_solution``): it agrees with the
model on valid and broken full boards, and a --logic-only puzzle then needs no solver
call, with the very puzzle the solver's verification gave."""
import random

import pytest

from puzzle_engine.engine import Engine
from puzzle_engine.hookspecs import Emptying
from puzzle_engine.solving.backend import Backend
from puzzle_engine_plugins.fillomino import logic

from support import params_for


@pytest.fixture(scope="module")
def fillomino(host):
    return host.get_type("fillomino")


@pytest.fixture(scope="module")
def gecode(host):
    return Engine(host, Backend("gecode", time_limit=None))


def test_verify_solution_agrees_with_the_model(fillomino, gecode):
    """Random partitions are valid; the same boards with one or two cells changed are
    mostly not. On each, verify_solution's verdict is Gecode's: the model, with the board
    as givens, has a solution exactly when verify_solution says True."""
    rng = random.Random(31)
    verdicts = []
    for _ in range(6):
        rows, cols = rng.randint(2, 5), rng.randint(2, 5)
        params = params_for(gecode, fillomino, rows, cols)
        full = logic.random_partition(rows, cols, logic.region_sizes(params), rng)
        boards = [full]
        for changes in (1, 2):
            board = list(full)
            for c in rng.sample(range(rows * cols), changes):
                board[c] = rng.randint(1, max(rows, cols))
            boards.append(tuple(board))
        for board in boards:
            said = fillomino.verify_solution(params, board)
            result, found = gecode.solve(fillomino, params, board, nr_solutions=2)
            assert result.complete
            assert said is (len(found) == 1), (rows, cols, board)
            verdicts.append(said)
    assert True in verdicts and False in verdicts  # both kinds were met


def test_a_logic_only_puzzle_needs_no_solver_call_and_is_unchanged(fillomino, host, monkeypatch):
    """The same seeds give the same puzzles whether the random board is verified by the
    type or by a solve; only the solver calls differ (0 against 1)."""
    engine = Engine(host, Backend("chuffed", free_search=True, time_limit=None))
    params = params_for(engine, fillomino, 7, 7, logic_only=True)
    ours = [engine.generate(fillomino, params, seed).puzzle for seed in (1, 2, 3)]
    monkeypatch.setattr(type(fillomino), "verify_solution", Emptying.verify_solution)
    solved = [engine.generate(fillomino, params, seed).puzzle for seed in (1, 2, 3)]
    for a, b in zip(ours, solved):
        assert (a.grid, a.solution) == (b.grid, b.solution)
        assert (a.solver_calls, b.solver_calls) == (0, 1)
        assert a.minimal and not a.unknown
