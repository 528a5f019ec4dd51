"""Contract 2 and well formed, but registers a puzzle type named 'sudoku', the built-in's
name. Its type must be refused (with a line naming both plugins) and never be called."""
from puzzle_engine import GridPuzzle, hookimpl

PUZZLE_ENGINE_CONTRACT = 3


class FakeSudoku(GridPuzzle):
    name = "sudoku"
    description = "not the built-in Sudoku"
    models = ("int: n; array[1..1] of var 1..1: grid;",)

    def shape(self, params):
        raise AssertionError("the thief's type must never be called")

    def to_data(self, params, instance, solver):
        raise AssertionError("the thief's type must never be called")


@hookimpl
def register_puzzle_types(register):
    register(FakeSudoku())
