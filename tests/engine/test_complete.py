"""The engine's completion of a board (``Engine.complete``, which ``random_solution``'s
``solve`` is) is the least solution in a fixed order, found by complete search: one fact
about the model, so every exact solver gives the same board."""
import random

import pytest

from support import EXACT_SOLVERS
from fake_solver import sudoku_boards
from puzzle_engine.engine import Engine
from puzzle_engine.solving.backend import Backend
from puzzle_engine_plugins.sudoku import logic

EXACT = pytest.mark.parametrize("exact_solver", EXACT_SOLVERS, indirect=True)


def engine_for(host, solver, **options):
    return Engine(host, Backend(solver, time_limit=None, **options))


def partial_boards(n, r, c, count):
    """Seeded diagonal boxes (as ``random_solution`` draws them), and a few random givens
    of a random full board (fewer givens: more completions to choose the least from)."""
    boards = [logic.seed_board(n, r, c, random.Random(seed)) for seed in range(count)]
    every = sudoku_boards(r, c) if n <= 4 else None
    for seed in range(count):
        rng = random.Random(f"givens/{seed}")
        if every is None:
            break
        full = rng.choice(every)
        keep = set(rng.sample(range(n * n), rng.randint(0, 4)))
        boards.append(tuple(v if i in keep else 0 for i, v in enumerate(full)))
    return boards


@EXACT
def test_the_completion_is_the_least_by_brute_force(host, sudoku, exact_solver):
    """4x4: every Sudoku board is known; the completion of a partial board is the least
    that agrees with it, row by row, and in another order the least in that order."""
    engine = engine_for(host, exact_solver)
    params = engine.check_params(sudoku, {"size": 4})
    every = sudoku_boards(2, 2)
    orders = [None, list(range(15, -1, -1)), random.Random(7).sample(range(16), 16)]
    for board in partial_boards(4, 2, 2, 6):
        fits = [b for b in every if all(v == 0 or b[i] == v for i, v in enumerate(board))]
        if not fits:  # seeded diagonal boxes of a 4x4 can leave no completion
            assert engine.complete(sudoku, params, board) is None, board
            continue
        for order in orders:
            key = list(range(16)) if order is None else order
            least = min(fits, key=lambda b: [b[i] for i in key])
            # The solver's first solution is not always the least: this could fail.
            assert engine.complete(sudoku, params, board, order=order) == least, (board, order)


@EXACT
def test_a_board_without_completion_has_none(host, sudoku, exact_solver):
    engine = engine_for(host, exact_solver)
    params = engine.check_params(sudoku, {"size": 4})
    assert engine.complete(sudoku, params, (1, 0, 0, 0, 0, 1) + (0,) * 10) is None


@pytest.mark.parametrize("size,seeds", [(9, range(4)), (16, range(2))])
def test_every_exact_solver_completes_alike(host, sudoku, size, seeds):
    """9x9 and 16x16 seed boards: the same completion on gecode, chuffed, cp-sat (and the
    SAT back end once installed), each also with free search and Chuffed-style check flags
    configured: neither applies to a completion."""
    from support import installed
    solvers = [s for s in EXACT_SOLVERS if installed(s)]
    assert {"gecode", "chuffed", "cp-sat"} <= set(solvers)
    engines = {s: engine_for(host, s) for s in solvers}
    free = {s: engine_for(host, s, free_search=True, check_flags=["-f"]) for s in solvers}
    params = engines["gecode"].check_params(sudoku, {"size": size})
    n, r, c = logic.dims(params)
    for seed in seeds:
        board = logic.seed_board(n, r, c, random.Random(seed))
        done = {s: e.complete(sudoku, params, board) for s, e in engines.items()}
        done.update({f"{s} -f": e.complete(sudoku, params, board) for s, e in free.items()})
        first = done["gecode"]
        assert first is not None and logic.find_conflict(first, n, r, c) is None
        assert all(v == 0 or first[i] == v for i, v in enumerate(board))
        assert all(b == first for b in done.values()), {s: b == first for s, b in done.items()}
        # The least, on the first row: no smaller value at a square, after the same values
        # before it, has a completion.
        engine = engines["gecode"]
        model = engine.compiled(sudoku, engine.checker_data(sudoku, params, board))
        for i in range(n):
            for v in range(1, first[i]) if not board[i] else ():
                smaller = first[:i] + (v,) + board[i + 1:]
                assert model.count(smaller, 1) == (0, True), (i, v)
