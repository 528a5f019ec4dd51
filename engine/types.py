"""The data that crosses the plugin contract."""
from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: A board is flat, in the order of ``array1d(<decision array>)`` of the model; 0 is an empty square.
Board = tuple[int, ...]


@dataclass(frozen=True)
class Param:
    """One parameter of a puzzle type, settable on the command line as ``--<name> VALUE``.

    ``type`` turns the command-line string into a value (``int``, ``str``...); use ``bool``
    for a flag that takes no value. ``default`` is used when the option is absent.
    """

    name: str
    type: Callable[[str], Any] = str
    default: Any = None
    help: str = ""


@dataclass(frozen=True)
class PuzzleType:
    """A puzzle type that a plugin declares through ``puzzle_register_types``.

    :param name: the name used on the command line (``puzzle-engine gen NAME``).
    :param models: MiniZinc model files (``pathlib.Path`` or an ``importlib.resources``
        traversable) or inline MiniZinc code (``str``), concatenated in this order.
    :param decision: name of the model's decision array; ``array1d`` of it is the board.
    :param params: the parameters, with defaults.
    :param check_params: takes the raw parameter dict (defaults filled in, ``None`` where
        absent) and returns the canonical dict, or raises ``PuzzleInputError``.
    :param shape: canonical params -> ``(rows, cols)`` of the board, for display and JSON.
    :param solver: the solver (MiniZinc id or tag) the type runs best on, or a function
        of the canonical params that returns one (or None: no preference), for a type
        whose best solver depends on its size. It is used when neither the command line,
        the environment nor the config file names one.
    :param free_search: solvers (ids or tags) that should run this type's model with free
        search (``-f``: the solver may leave the model's search annotation, e.g. Chuffed's
        activity-based search), unless the config file says otherwise.
    """

    name: str
    models: tuple[Any, ...]
    decision: str
    shape: Callable[[Mapping[str, Any]], tuple[int, int]]
    params: tuple[Param, ...] = ()
    check_params: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    description: str = ""
    solver: str | Callable[[Mapping[str, Any]], str | None] | None = None
    free_search: tuple[str, ...] = ()
    # Filled in by the host when the type is registered:
    plugin: str = field(default="", compare=False)
    plugin_version: str = field(default="", compare=False)

    def canonical_params(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """``raw`` with the defaults filled in, through ``check_params``."""
        params = {p.name: raw.get(p.name, p.default) for p in self.params}
        if not self.check_params:
            return params
        from .errors import PluginError, PuzzleEngineError
        try:
            return self.check_params(params)
        except PuzzleEngineError:
            raise
        except Exception as exc:  # noqa: BLE001 - a plugin's bug is one line, not a traceback
            raise PluginError(f"check_params of puzzle '{self.name}' (plugin '{self.plugin}') "
                              f"raised {type(exc).__name__}: {exc}") from exc

    def preferred_solver(self, params: Mapping[str, Any] | None = None) -> str | None:
        """The solver the type asks for with these params (None: no preference; a
        function of the params gives None when the params are not known yet)."""
        if not callable(self.solver):
            return self.solver
        if params is None:
            return None
        try:
            return self.solver(params)
        except Exception as exc:  # noqa: BLE001 - a plugin's bug is one line, not a traceback
            from .errors import PluginError
            raise PluginError(f"the solver preference of puzzle '{self.name}' (plugin "
                              f"'{self.plugin}') raised {type(exc).__name__}: {exc}") from exc

    def wants_free_search(self, solver_id: str, tags: tuple[str, ...] = ()) -> bool:
        """Whether the type asks for free search on this solver (by id, its last dotted
        part, or a tag)."""
        names = {solver_id, solver_id.rsplit(".", 1)[-1], *tags}
        return any(name in names for name in self.free_search)

    def model_sources(self) -> list[tuple[str, str]]:
        """Each model part as ``(label, code)``: a file's name and text, or ``("<inline>", code)``."""
        parts = []
        for part in self.models:
            if isinstance(part, str):
                parts.append(("<inline>", part))
            else:
                parts.append((str(getattr(part, "name", part)), part.read_text()))
        return parts


@dataclass(frozen=True)
class Parsed:
    """What ``puzzle_parse`` returns: canonical params (size inferred if need be) and the board."""

    params: dict[str, Any]
    board: Board


@dataclass(frozen=True)
class Transformation:
    """A symmetry of the puzzle's rules.

    ``draw(rng)`` picks one random instance of the symmetry (a permutation, a relabelling...)
    and returns a function from board to board. The same drawn function is applied to a
    puzzle and to its solution, so it must map empty squares (0) to empty squares.
    """

    name: str
    draw: Callable[[random.Random], Callable[[Board], Board]]


@dataclass(frozen=True)
class Complexity:
    """A complexity function C of GenPuzzles: ``level(puzzle_type, params, board) -> level``."""

    name: str
    level: Callable[[PuzzleType, Mapping[str, Any], Board], Hashable]
    description: str = ""


@dataclass(frozen=True)
class PropagationLevel:
    """One propagation strength of a type's model, for grading
    (``puzzle_propagation_levels``): ``data`` is merged into the model's data."""

    name: str
    data: Mapping[str, Any]
    description: str = ""
