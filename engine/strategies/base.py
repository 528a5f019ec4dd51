"""What every generation strategy shares: the interface, and the record of a puzzle."""
from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import __version__, calls, hookspecs
from ..contract_v2 import filled_by
from ..errors import PuzzleInputError
from ..types import Param


#: The fields the engine writes into every record of ``gen`` (some only for some
#: strategies or options); the strategy's and criterion's fields (``Puzzle.extra``) too.
ENGINE_FIELDS = ("type", "params", "seed", "variant", "plugin", "plugin_version",
                 "engine_version", "solver", "solver_version", "solver_calls", "seconds",
                 "minimal", "unknown", "complexity", "options")


@dataclass
class Puzzle:
    """One generated puzzle with everything needed to reproduce it."""

    type: str
    params: dict[str, Any]
    instance: Any
    solution: Any
    seed: int
    plugin: str
    plugin_version: str
    solver: str
    solver_version: str
    solver_calls: int
    seconds: float
    minimal: bool | None = None  # emptying: no given can go (None: not the strategy's notion)
    unknown: int = 0        # checks that timed out (counted as refusals)
    level: Hashable = None
    options: dict[str, Any] = field(default_factory=dict)
    variant: int | None = None  # k for the k-th transformed variant of the puzzle with `seed`
    extra: dict[str, Any] = field(default_factory=dict)  # the strategy's and criterion's fields

    @property
    def grid(self):
        """The instance of a grid puzzle."""
        return self.instance

    def to_json(self, ptype) -> dict[str, Any]:
        reserved = {*ENGINE_FIELDS, *self.extra}
        record = {"type": self.type, "params": self.params,
                  **calls.record(ptype, self.params, self.instance, self.solution, reserved),
                  "seed": self.seed, "variant": self.variant,
                  "plugin": self.plugin, "plugin_version": self.plugin_version,
                  "engine_version": __version__, "solver": self.solver,
                  "solver_version": self.solver_version, "solver_calls": self.solver_calls,
                  "seconds": round(self.seconds, 4)}
        if self.minimal is not None:
            record.update({"minimal": self.minimal, "unknown": self.unknown})
        if "complexity" in self.options:
            record["complexity"] = {"name": self.options.get("complexity"), "level": self.level}
        return {**record, **self.extra, "options": self.options}


@dataclass
class GenResult:
    puzzle: Puzzle
    variants: list[Puzzle]
    compl_dict: dict[Hashable, list[Any]] = field(default_factory=dict)  # level -> puzzles (emptying)
    kept: list[Puzzle] = field(default_factory=list)  # every accepted level (growing)


@filled_by(hookspecs.Strategy)  # a contract-2 strategy's missing members are ours
class Strategy:
    """A way to make puzzles (the protocol is ``hookspecs.Strategy``). Subclasses set
    ``name``, ``options`` (their command-line options), ``hooks`` (the class a type must
    subclass to use it) and implement ``generate``; ``make_options`` turns the option
    values into the object ``generate`` takes (a dict by default)."""

    name: str = ""
    description: str = ""
    options: tuple[Param, ...] = ()
    hooks: type = object
    #: Whether a puzzle depends on the seed and options alone, not on which exact solver
    #: answers (``discovery.EXACT``): then a batch may go on on another exact solver.
    alike_on_exact_solvers: bool = False

    def make_options(self, values: Mapping[str, Any], workers: int = 1) -> Any:
        """The options object from option values (defaults for those absent); ``workers``
        is the number of processes that will generate at once."""
        unknown = set(values) - {p.name for p in self.options}
        if unknown:
            raise PuzzleInputError(f"strategy '{self.name}' has no option "
                                   f"{', '.join('--' + u.replace('_', '-') for u in sorted(unknown))}")
        return {p.name: values.get(p.name, p.default) for p in self.options}

    def default_options(self) -> Any:
        """The options of a call from Python that gives none."""
        return self.make_options({})

    def record_options(self, options) -> dict[str, Any]:
        """The options that decide the puzzle, as JSON (kept in every record, and compared
        when a batch is resumed)."""
        return dict(options)

    def generate(self, engine, ptype, params, seed: int, options) -> GenResult:
        raise NotImplementedError


def check_range(name: str, value, least: int, most: int | None = None) -> None:
    if value is not None and value < least:
        raise PuzzleInputError(f"bad --{name.replace('_', '-')} {value}: must be at least {least}")
    if value is not None and most is not None and value > most:
        raise PuzzleInputError(f"bad --{name.replace('_', '-')} {value}: must be at most {most}")
