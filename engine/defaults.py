"""The host's own plugin: the strategies, criteria, graders and complexity functions that
ship with the engine, registered through the same hooks as any plugin's."""
from __future__ import annotations

from . import calls, criteria, grading, strategies
from .hookspecs import hookimpl
from .types import Complexity

NAME = "puzzle_engine.defaults"
PUZZLE_ENGINE_CONTRACT = 3


@hookimpl
def register_strategies(register):
    for strategy in strategies.BUILTIN:
        register(strategy)


@hookimpl
def register_criteria(register):
    for criterion in criteria.BUILTIN:
        register(criterion)


@hookimpl
def register_graders(register):
    register(grading.MULTIPLE)


def _givens(puzzle_type, params, board):
    found = calls.call(puzzle_type, "givens", params=params, board=board)
    if isinstance(found, bool) or not isinstance(found, int):
        raise calls.bad_result("givens", puzzle_type, found, "a whole number")
    return found


@hookimpl
def register_complexities(register):
    register(Complexity("givens", _givens, "the number of givens (fewer givens, higher level)"))
