"""puzzle-engine: generate puzzles of chosen difficulty from declarative MiniZinc models."""
from importlib.metadata import PackageNotFoundError, version as _version

import pluggy

try:
    __version__ = _version("puzzle-engine")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

hookimpl = pluggy.HookimplMarker("puzzle_engine")

from .types import Board, Complexity, Param, Parsed, PuzzleType, Transformation  # noqa: E402
from .errors import PuzzleEngineError, PuzzleInputError  # noqa: E402

__all__ = [
    "Board",
    "Complexity",
    "Param",
    "Parsed",
    "PuzzleEngineError",
    "PuzzleInputError",
    "PuzzleType",
    "Transformation",
    "__version__",
    "hookimpl",
]
