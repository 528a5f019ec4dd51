"""Built-in plugin: templated logic puzzles (puzzle type ``logic``) from PuzzleClone-style
YAML specs, read as data and interpreted, never executed (``docs/logic-specs.md``)."""
from puzzle_engine import hookimpl

from .criterion import LogicAnswer
from .puzzle import LogicPuzzle

PUZZLE_ENGINE_CONTRACT = 3


@hookimpl
def register_puzzle_types(register):
    register(LogicPuzzle())


@hookimpl
def register_criteria(register):
    register(LogicAnswer())
