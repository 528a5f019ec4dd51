"""The data that crosses the plugin contract (the contract itself is ``hookspecs.py``)."""
from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

#: A grid puzzle's board is flat, in the order of ``array1d(<decision array>)`` of the
#: model; 0 is an empty square.
Board = tuple[int, ...]


def flatten(value) -> list:
    """Row-major flattening of nested lists (a MiniZinc array of any dimension)."""
    if isinstance(value, (list, tuple)):
        return [x for item in value for x in flatten(item)]
    return [value]


def as_tuples(value):
    """JSON lists read back as (nested) tuples, so that an instance is hashable."""
    if isinstance(value, list):
        return tuple(as_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: as_tuples(v) for k, v in value.items()}
    return value


class Status(str, Enum):
    """What a solver run established. ``SAT``: solutions were found and the search was cut
    short (by the solution limit, or a time-out after one); ``ALL``: every solution was
    found; ``OPTIMAL``: the best solution was found and proven best; ``UNSAT``: there is
    none; ``UNKNOWN``: the solver ran out of time before it knew anything."""

    SAT = "sat"
    ALL = "all"
    OPTIMAL = "optimal"
    UNSAT = "unsat"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Param:
    """One parameter of a puzzle type, settable on the command line as ``--<name> VALUE``.

    ``type`` turns the command-line string into a value (``int``, ``str``...); use ``bool``
    for a flag that takes no value (``--no-<name>``, or ``--<negative>``, turns it off).
    ``default`` is used when the option is absent.
    """

    name: str
    type: Callable[[str], Any] = str
    default: Any = None
    help: str = ""
    negative: str | None = None

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class Parsed:
    """What ``Codec.parse`` returns: canonical params (a size inferred if need be) and
    the instance."""

    params: dict[str, Any]
    instance: Any

    @property
    def board(self):
        """The instance of a grid puzzle."""
        return self.instance


@dataclass(frozen=True)
class Transformation:
    """A symmetry of the puzzle's rules.

    ``draw(rng)`` picks one random element of the symmetry (a permutation, a relabelling...)
    and returns a function from instance to instance. The same drawn function is applied
    to a puzzle and to its solution (for a grid, it must map empty squares to empty squares).
    """

    name: str
    draw: Callable[[random.Random], Callable[[Board], Board]]


@dataclass(frozen=True)
class Complexity:
    """A complexity function C of GenPuzzles: ``level(puzzle_type, params, instance) -> level``."""

    name: str
    level: Callable[[Any, Mapping[str, Any], Any], Hashable]
    description: str = ""


@dataclass(frozen=True)
class PropagationLevel:
    """One propagation strength of a type's model, for grading
    (``Grading.propagation_levels``): ``data`` is merged into the model's data."""

    name: str
    data: Mapping[str, Any]
    description: str = ""


@dataclass(frozen=True)
class ConstraintGroup:
    """One group of a type's rules, as the explainer names it in a reason
    (``Explanation.constraint_groups``): ``name`` is for a person ("row 3", "box 2,1"),
    ``constraint`` a MiniZinc Boolean expression over the model's variables (usually a call
    of a predicate the model defines, e.g. ``unit_rule(3)``). ``weight`` (optional, a
    number from 0) is how much harder a person finds reasoning inside this kind of group
    than inside the easiest kind (a row or column 0.3 more than a box, say), and ``kind``
    (optional) names the group's kind ("row", "column", "box"); the step rating
    (``puzzle_engine.explain.ladder``) adds the weight to a technique's cost and looks for
    the hidden single that makes an intersection *direct* in groups of its source's kind."""

    name: str
    constraint: str
    weight: float = 0.0
    kind: str = ""


@dataclass(frozen=True)
class ConstraintGroups:
    """What ``Explanation.constraint_groups`` returns: the groups, which together are the
    rules, and ``data`` merged into the model's data to turn the model's own copy of those
    rules off (as a ``PropagationLevel`` does), so that each rule holds only while its group
    is switched on."""

    groups: tuple[ConstraintGroup, ...]
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ExplanationBoard:
    """What ``Explanation.explanation_board`` returns: an instance as the explainer sees it,
    for a type whose solution is its decision array (pieces on squares, say).

    ``known`` maps positions of the decision array (0-based, ``array1d`` order) to the
    value the player knows there from the start (a given, a wall); every other position
    is a square to find. ``squares`` names every position, in that order ("r2c3");
    ``values`` names the values a player sees ("rook a", "empty"; a value without a name
    is shown as its number). ``data`` is the MiniZinc data the explanation model is
    flattened from (the explainer runs on CP-SAT); ``None``: ``to_data`` of the
    instance."""

    known: Mapping[int, int]
    squares: tuple[str, ...]
    values: Mapping[int, str] = field(default_factory=dict)
    data: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class StepFact:
    """A fact of an explained step as a person reads it: the square's name ("r1c8"), the
    value's name ("5", "rook a"), and whether the square holds it (``equal``) or not."""

    square: str
    value: str
    equal: bool


@dataclass(frozen=True)
class ExplainedStep:
    """A step of ``explain`` or ``hint`` as ``Explanation.step_words`` is asked to say it.

    ``technique`` is the class of the step (a stable id: "full house", "hidden single",
    "naked single", "intersection", "naked subset", "hidden subset", "fish", "chain", the
    step rating's longer chain ids such as "x-chain", or "deduction" for a step no class
    covers; docs/grading.md lists them). ``fact`` is the deduction, ``also`` the other
    deductions the same pattern makes at once (said in the same sentence). ``groups``
    are the names of the groups of its reason, ``kinds`` their kinds (``""`` when the type
    gives none), ``holding`` those of them that hold the step's square, and ``facts`` the
    known facts the reason uses. The pattern, where the technique has one: ``house`` is
    the group it works in (the group of a single or a subset; for an intersection, the
    group where the value is confined), ``squares`` and ``values`` its squares and values
    (a subset's; for an intersection the squares of ``house`` that can still hold the
    value; for a naked single the values ruled out), and ``via`` the groups whose plain
    eliminations, folded into this step, it rests on (a naked single's)."""

    technique: str
    fact: StepFact
    groups: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    holding: tuple[str, ...] = ()
    facts: tuple[StepFact, ...] = ()
    house: str | None = None
    squares: tuple[str, ...] = ()
    values: tuple[str, ...] = ()
    via: tuple[str, ...] = ()
    also: tuple[StepFact, ...] = ()
