"""puzzle-engine: generate puzzles of chosen difficulty from declarative MiniZinc models."""
from importlib.metadata import PackageNotFoundError, version as _version

import pluggy

try:
    __version__ = _version("puzzle-engine")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

hookimpl = pluggy.HookimplMarker("puzzle_engine")

from .types import (Board, Complexity, Param, Parsed, PropagationLevel, PuzzleType,  # noqa: E402
                    Transformation)
from .errors import PuzzleEngineError, PuzzleInputError  # noqa: E402

__all__ = [
    "Board",
    "Complexity",
    "Param",
    "Parsed",
    "PropagationLevel",
    "PuzzleEngineError",
    "PuzzleInputError",
    "PuzzleType",
    "Transformation",
    "__version__",
    "hookimpl",
]
