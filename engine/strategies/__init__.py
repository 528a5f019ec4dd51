"""Generation strategies: registered objects, one module each. The engine hands a type's
generation to the strategy the type names (``PuzzleType.strategy``)."""
from .base import GenResult, Puzzle, Strategy
from .emptying import EmptyingStrategy, GenOptions
from .growing import GrowingStrategy
from .own import OwnStrategy

BUILTIN = (EmptyingStrategy(), GrowingStrategy(), OwnStrategy())

__all__ = ["BUILTIN", "EmptyingStrategy", "GenOptions", "GenResult", "GrowingStrategy",
           "OwnStrategy", "Puzzle", "Strategy"]
