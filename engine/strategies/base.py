"""What every generation strategy shares: the interface, and the result of one seed (its
puzzles are ``record.Puzzle``)."""
from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import hookspecs
from ..contract_v2 import filled_by
from ..errors import PuzzleInputError
from ..record import Puzzle
from ..types import Param


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

    def check_options(self, ptype, params, options) -> None:
        """Options that do not suit this type and params: a one-line ``PuzzleInputError``
        (none here)."""

    def generate(self, engine, ptype, params, seed: int, options) -> GenResult:
        raise NotImplementedError


def check_range(name: str, value, least: int, most: int | None = None) -> None:
    if value is not None and value < least:
        raise PuzzleInputError(f"bad --{name.replace('_', '-')} {value}: must be at least {least}")
    if value is not None and most is not None and value > most:
        raise PuzzleInputError(f"bad --{name.replace('_', '-')} {value}: must be at most {most}")
