"""A plugin named 'latin', like tests/plugin_pkg's: two installed packages under one
plugin name. It registers a type of its own name, so the test sees which one loaded."""
from puzzle_engine import hookimpl
from puzzle_engine.grid import GridPuzzle

PUZZLE_ENGINE_CONTRACT = 3


class TwinLatin(GridPuzzle):
    name = "twin_latin"
    description = "the twin package's plugin named 'latin'"
    models = ("int: n; array[1..1] of var 1..1: grid;",)

    def shape(self, params):
        return 1, 1

    def to_data(self, params, instance, solver):
        return {"n": 1}


@hookimpl
def register_puzzle_types(register):
    register(TwinLatin())
