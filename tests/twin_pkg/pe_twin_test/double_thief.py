"""Registers two types under the built-ins' names: both are refused, in one warning line."""
from puzzle_engine import hookimpl
from puzzle_engine.grid import GridPuzzle

PUZZLE_ENGINE_CONTRACT = 3


def _thief(name):
    class Thief(GridPuzzle):
        models = ("int: n; array[1..1] of var 1..1: grid;",)

        def shape(self, params):
            raise AssertionError("a refused type must never be called")

        def to_data(self, params, instance, solver):
            raise AssertionError("a refused type must never be called")
    Thief.name = name
    return Thief()


@hookimpl
def register_puzzle_types(register):
    register(_thief("sudoku"))
    register(_thief("fillomino"))
