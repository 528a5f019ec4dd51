"""puzzle-engine: generate puzzles of chosen difficulty from declarative MiniZinc models.

The plugin contract is ``puzzle_engine.hookspecs``; what a plugin imports is here."""
from .version import __version__
from .types import (Board, Complexity, ConstraintGroup, ConstraintGroups,  # noqa: E402
                    ExplainedStep, ExplanationBoard, Param, Parsed, PropagationLevel, Status,
                    StepFact, Transformation)
from .errors import PuzzleEngineError, PuzzleInputError  # noqa: E402
from .hookspecs import (CONTRACT_VERSION, Codec, Drawing, Emptying,  # noqa: E402
                        Explanation, FlatBoard, Grading, Growing, MultipleChoice,
                        OwnGenerator, Play, PuzzleType, Rules, SplitModel, Symmetry,
                        Templates, hookimpl)
from .grid import GridPuzzle  # noqa: E402
from .render.play import ChoiceBoard, PieceBoard, PieceKind, PlayGrid  # noqa: E402

__all__ = [
    "Board",
    "CONTRACT_VERSION",
    "ChoiceBoard",
    "Codec",
    "Drawing",
    "Explanation",
    "FlatBoard",
    "Grading",
    "MultipleChoice",
    "Play",
    "Rules",
    "SplitModel",
    "Symmetry",
    "Templates",
    "Complexity",
    "ConstraintGroup",
    "ConstraintGroups",
    "Emptying",
    "ExplainedStep",
    "ExplanationBoard",
    "GridPuzzle",
    "Growing",
    "OwnGenerator",
    "Param",
    "PieceBoard",
    "PieceKind",
    "PlayGrid",
    "Parsed",
    "PropagationLevel",
    "PuzzleEngineError",
    "PuzzleInputError",
    "PuzzleType",
    "Status",
    "StepFact",
    "Transformation",
    "__version__",
    "hookimpl",
]
