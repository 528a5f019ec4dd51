"""The host's own hook implementations: defaults that any plugin may pre-empt."""
from __future__ import annotations

from . import hookimpl
from .types import Complexity


def flatten(value) -> list:
    """Row-major flattening of nested lists (a MiniZinc array of any dimension)."""
    if isinstance(value, (list, tuple)):
        return [x for item in value for x in flatten(item)]
    return [value]


@hookimpl(trylast=True)
def puzzle_random_solution(puzzle_type, params, solve, transform):
    board = solve(tuple([0] * _size(puzzle_type, params)))
    return None if board is None else transform(board)


@hookimpl(trylast=True)
def puzzle_choose_square(candidates, rng):
    return rng.choice(sorted(candidates))


@hookimpl(trylast=True)
def puzzle_is_remove_valid(board, checker, max_solutions):
    return checker.at_most(board, max_solutions)


@hookimpl(trylast=True)
def puzzle_features(board):
    givens = sum(1 for v in board if v)
    return {"squares": float(len(board)), "givens": float(givens),
            "empties": float(len(board) - givens)}


@hookimpl(trylast=True)
def puzzle_from_solution(puzzle_type, solution):
    return tuple(int(v) for v in flatten(solution[puzzle_type.decision]))


@hookimpl
def puzzle_register_complexities(register):
    register(Complexity("givens", lambda puzzle_type, params, board: sum(1 for v in board if v),
                        "the number of givens (fewer givens, higher level)"))


def _size(puzzle_type, params) -> int:
    rows, cols = puzzle_type.shape(params)
    return rows * cols
