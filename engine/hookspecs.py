"""The plugin contract, version 3. Everything a plugin may provide is declared here.

A plugin is a Python module (or object) found through the entry-point group
``puzzle_engine``. It says which contract it was written for, and implements one or
more of the ``register_*`` hooks below:

    PUZZLE_ENGINE_CONTRACT = 3

    @hookimpl
    def register_puzzle_types(register):
        register(MyPuzzle())

This module, top to bottom: the five hooks; the protocols of what they register and what
those objects make or are handed (``Strategy``, ``Criterion``, its ``Checker`` and the
``RemovalChecker`` a type sees, ``Grader``, its ``GradingSession`` and the
``GradeResult`` that grades, the solver ``Session``, and ``EngineServices``, the engine
as they see it, with its ``Registries`` and ``SolverService``); then a puzzle type: its
core, its ``Codec``, the facets it opts into, and what each strategy asks of it.

A *puzzle type* is an object, an instance of a subclass of ``PuzzleType`` (its core) and
``Codec`` below, that carries its own behaviour: the engine calls the methods of the type
it is working on, and of no other. A plugin therefore never checks which type it is asked
about, and one plugin's mistake stays with its own types. Everything beyond the core is a
*facet* the type opts into by subclassing it (``Symmetry``, ``Rules`` and the
``Drawing`` and ``Play`` that include it, ``Explanation``, ``Grading``,
``MultipleChoice``, ``SplitModel``, ``Templates``, ``FlatBoard``): the engine asks
``isinstance(ptype, Facet)`` and never calls a facet's methods on a type without it (the
table above ``PuzzleType`` lists them all). ``Grading`` is what the grader ``multiple``
asks of a type; a grader's own product is a ``GradingSession``.

What a type must provide depends on how its puzzles are made, its *strategy*:

* ``emptying`` (GenPuzzles, paper 000): a random full solution is emptied square by
  square while the puzzle stays acceptable. The type implements ``Emptying``.
* ``growing`` (paper 002): a random base grows one element at a time while the puzzle
  can still be accepted; every accepted level is kept. The type implements ``Growing``.
* ``own``: the type builds its puzzles itself (``OwnGenerator``).

A puzzle is *accepted* by a criterion the type names (``criterion``): at most k
solutions, unique modulo a symmetry, a unique optimum, or a unique answer among
options. Difficulty is measured by a *grader* the type names (``grader``). Strategies,
criteria, graders and GenPuzzles' complexity functions are objects too, registered
through hooks, so a plugin can add one without touching the engine; each must have every
member of its protocol below, checked when it registers.

Puzzle types hold their puzzles as they like (the engine never looks inside, but for a
``FlatBoard``): an *instance* is the puzzle as given to the player, a *solution* its
answer. Grid puzzles should subclass ``puzzle_engine.grid.GridPuzzle``, which implements
most of this for a flat tuple of integers with 0 for an empty square.

Every method's result is checked before it is used; a wrong one, or an exception, is
reported as one line naming the plugin, the type and the method. A plugin that cannot be
loaded, or a thing it registers that is refused (a name already taken, a type option the
command line keeps for itself), is one warning line per command naming the plugin and its
installed package; the rest of the host works. A plugin whose loading takes over 2 s, and
two installed packages that declare one plugin name, are named in a warning too.

The contract grows by facets: a new ability is a new small class a type may subclass,
whose absence means "not offered", so a type that does not opt in keeps working.

Contract 2 (one ``PuzzleType`` with every method, and criteria and strategies with fewer
required members) is adapted: a plugin that declares ``PUZZLE_ENGINE_CONTRACT = 2``
loads, each of its types given the facets whose methods it has, and each of its criteria
and strategies the members contract 2 let it leave out, answered as the base classes
``puzzle_engine.criteria.Criterion`` and ``puzzle_engine.strategies.Strategy`` answer
(``puzzle_engine.contract_v2``). A type that cannot be adapted so is refused in one line
pointing to "Migrating from contract v2" in ``docs/plugin-authoring.md``;
``puzzle-engine plugins`` marks an adapted plugin.

``docs/plugin-authoring.md`` walks through a complete plugin for each strategy.
"""
from __future__ import annotations

import random
from abc import ABC
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

import pluggy

from .errors import PuzzleInputError
from .types import (Board, Complexity, ConstraintGroups, ExplainedStep, ExplanationBoard, Param,
                    Parsed, PropagationLevel, Transformation, as_tuples, flatten)

if TYPE_CHECKING:  # what the protocols return, defined above the contract's layer
    from importlib.resources.abc import Traversable
    from .criteria import Verdict
    from .render.play import PlayBoard
    from .solving.results import Run
    from .strategies.base import GenResult

#: The contract this engine speaks. A plugin declares the one it was written for as
#: ``PUZZLE_ENGINE_CONTRACT`` (a module or object attribute); any other is refused.
CONTRACT_VERSION = 3
#: The older contract whose plugins the host adapts (``puzzle_engine.contract_v2``).
ADAPTED_CONTRACT = 2

hookspec = pluggy.HookspecMarker("puzzle_engine")
#: The mark of a plugin's hook implementations (also ``puzzle_engine.hookimpl``).
hookimpl = pluggy.HookimplMarker("puzzle_engine")

Instance = Any   #: a puzzle as its type holds it
Solution = Any   #: a solution as its type holds it
Register = Callable[[Any], None]


# -- the hooks: each plugin registers objects -------------------------------------------------
@hookspec
def register_puzzle_types(register: Register) -> None:
    """Call ``register(t)`` once for each puzzle type the plugin provides, ``t`` an
    instance of a ``PuzzleType`` subclass. A name that is already taken is refused (and a
    built-in's name is never given to another plugin)."""


@hookspec
def register_strategies(register: Register) -> None:
    """Call ``register(s)`` for each generation strategy: an object with every member of
    ``Strategy`` below (``name``, ``description``, ``options``, ``hooks``,
    ``make_options``, ``default_options``, ``record_options`` and
    ``generate(engine, ptype, params, seed, options)``). Subclass
    ``puzzle_engine.strategies.Strategy``, which handles options given as a dict."""


@hookspec
def register_criteria(register: Register) -> None:
    """Call ``register(c)`` for each acceptance criterion: an object with every member of
    ``Criterion`` below: ``name``, ``description``,
    ``judge(engine, ptype, params, instance, limit=1)`` (a ``Verdict``),
    ``refuted_by(engine, ptype, params, solutions, limit=1)`` (whether some true solutions
    alone show the instance refused) and ``checker(engine, ptype, params, full)`` (the
    emptying strategy's ``Checker``). Subclass ``puzzle_engine.criteria.Criterion``, whose
    ``refuted_by`` says ``False`` and whose ``checker`` asks ``judge`` per board."""


@hookspec
def register_graders(register: Register) -> None:
    """Call ``register(g)`` for each difficulty grader: an object with every member of
    ``Grader`` below (``name``, ``description``, and
    ``grader(engine, ptype, params, options)``, which makes a ``GradingSession``: ``grade``,
    optionally ``nodes``, and ``close``)."""


@hookspec
def register_complexities(register: Register) -> None:
    """Call ``register(Complexity(name, level))`` for each complexity function C of
    GenPuzzles' binning: ``level(puzzle_type, params, instance)`` gives a hashable level."""


# -- the registered objects: what a strategy, a criterion and a grader must have --------------
# Each kind of object the hooks above register follows a protocol below, and so do the
# objects they make (a criterion's ``Checker``, a grader's ``GradingSession``). The object need not
# subclass the protocol, but it must have every member: subclassing
# ``puzzle_engine.strategies.Strategy`` or ``puzzle_engine.criteria.Criterion`` provides
# the members those classes say they provide. At registration the host checks each
# member: present, callable for a method, and callable with the arguments the engine
# passes (by position, and those with a default by name too). An object that falls short
# is refused in one line naming the plugin, the object and the member, e.g.
#
#     plugin 'x' registers criterion 'y' without 'refuted_by' (see docs/plugin-authoring.md#criteria)
#
# and the rest of the plugin loads; a command on a type that names it stops with that
# line. A method marked ``@optional`` may be left out (the engine checks for it and does
# without); so may a data member given a value here, which is its default. What the engine
# hands these objects (``engine``) is an ``EngineServices``.


def optional(member: Callable) -> Callable:
    """Marks a protocol method that an object may leave out (see above)."""
    member.__optional__ = True  # type: ignore[attr-defined]
    return member


class Strategy(Protocol):
    """A way to make puzzles (``register_strategies``), named by ``PuzzleType.strategy``.
    Subclass ``puzzle_engine.strategies.Strategy``: it provides ``make_options``,
    ``default_options`` and ``record_options`` for options that are a dict of values."""

    #: The name a type gives as ``strategy``: letters, digits, ``-`` and ``_``.
    name: str
    #: One line for ``puzzle-engine gen NAME --help``.
    description: str
    #: Its command-line options, set as ``--name VALUE`` after the type's name.
    options: tuple[Param, ...]
    #: The class a type must be an instance of to use the strategy (``Emptying``...).
    hooks: type
    #: Whether a puzzle depends on the seed and options alone, not on which exact solver
    #: answers: then a resumed batch may go on on another exact solver.
    alike_on_exact_solvers: bool = False

    def make_options(self, values: Mapping[str, Any], workers: int = 1) -> Any:
        """The options object ``generate`` takes, from option values by name (the absent
        ones at their defaults); ``workers`` is the number of processes that will generate
        at once. Raise ``PuzzleInputError`` with a one-line message for a bad value."""

    def default_options(self) -> Any:
        """The options object of a call from Python that gives none."""

    def record_options(self, options: Any) -> dict[str, Any]:
        """The options that decide the puzzle, as JSON: kept in every record and compared
        when a batch is resumed."""

    @optional
    def check_options(self, ptype: PuzzleType, params: Mapping[str, Any], options: Any) -> None:
        """Raise ``PuzzleInputError`` (one line) when ``options`` cannot be used with this
        type and these params (the emptying strategy: a ``--symmetry`` the board does not
        allow). Called by ``gen`` and ``batch`` before any file is made and any solver
        asked; ``generate`` still refuses them on its own. Default: nothing to check."""

    def generate(self, engine: EngineServices, ptype: PuzzleType, params: Mapping[str, Any],
                 seed: int, options: Any) -> GenResult:
        """One puzzle from ``seed`` (``random.Random(seed)``: the only randomness), with its
        variants: a ``puzzle_engine.strategies.GenResult`` whose ``puzzle`` is a
        ``puzzle_engine.strategies.Puzzle``. The type's methods are called through
        ``puzzle_engine.calls`` (checked, and naming the plugin when one fails)."""


class Criterion(Protocol):
    """When a puzzle is good enough to give a player (``register_criteria``), named by
    ``PuzzleType.criterion``. Subclass ``puzzle_engine.criteria.Criterion``: it provides
    ``refuted_by`` (never) and ``checker`` (``judge`` per board)."""

    #: The name a type gives as ``criterion``.
    name: str
    #: One line for ``puzzle-engine plugins``.
    description: str

    def judge(self, engine: EngineServices, ptype: PuzzleType, params: Mapping[str, Any],
              instance: Instance, limit: int = 1) -> Verdict:
        """Whether ``instance`` is accepted, as a ``puzzle_engine.criteria.Verdict``:
        ``accepted`` (``True``, ``False``, or ``None`` when the solver ran out of time:
        unknown, never accepted), ``solutions`` (the distinct solutions seen, at most
        ``limit + 1``; 0: none exists), ``status``, and optionally ``solution``, ``value``
        (an optimum, the correct answer's index) and ``fields`` (for the record). ``limit``
        is the most solutions an accepted instance may have (``--max-solutions``)."""

    def refuted_by(self, engine: EngineServices, ptype: PuzzleType, params: Mapping[str, Any],
                   solutions: Sequence[Solution], limit: int = 1) -> bool:
        """Whether ``solutions``, true solutions of an instance that the type built without
        a solver (``Growing.extensions``), alone show the instance refused (two different
        ones under ``unique``). ``False`` when they cannot tell: the instance is judged."""

    def checker(self, engine: EngineServices, ptype: PuzzleType, params: Mapping[str, Any],
                full: Any) -> Checker:
        """The ``emptying`` strategy's ``Checker`` for boards emptied from the full board
        ``full``. ``unique`` gives ``engine.compiled_checker`` (the model flattened once);
        a criterion may give a checker that judges each board with ``judge``
        (``puzzle_engine.criteria.JudgeChecker``)."""


class Checker(Protocol):
    """What ``Criterion.checker`` gives the ``emptying`` strategy: how many solutions a board
    emptied from one full board has, by the criterion. A type's ``is_remove_valid`` sees a
    ``RemovalChecker`` in front of it."""

    #: Questions that timed out (unknown, counted as refusals): the record's ``unknown``.
    unknown: int

    def at_most(self, board: Any, k: int = 1) -> bool:
        """``True`` when ``board`` has at most ``k`` solutions; ``False`` when it has more
        *or the solver timed out* (``unknown`` is then one more)."""

    def count_other(self, board: Any, limit: int) -> tuple[int, bool]:
        """The solutions of ``board`` other than the full board's (up to ``limit``), and
        whether that count is definite (``False``: timed out)."""

    def first_with_other(self, boards: Sequence[Any]) -> tuple[int | None, bool]:
        """For boards each emptied further than the one before: the index of the first
        with a solution other than the full board's (``None``: none), and whether that is
        definite. ``(None, False)`` when the checker cannot tell in one question: the
        strategy then asks ``count_other`` board by board."""

    @optional
    def accepted(self, board: Any, k: int) -> None:
        """Learn that ``board`` has at most ``k`` solutions: the type decided it exactly
        (``RemovalChecker.note``), so later questions may take it as proven."""

    def close(self) -> None:
        """Release what the checker holds (its sessions are the engine's)."""


class RemovalChecker(Protocol):
    """The checker a type's ``Emptying.is_remove_valid`` is given."""

    def at_most(self, board: Any, k: int = 1) -> bool:
        """As ``Checker.at_most``."""

    def count_other(self, board: Any, limit: int) -> tuple[int, bool]:
        """As ``Checker.count_other``."""

    def note(self, label: str) -> None:
        """Name the path that decided this removal (a non-empty ``str``): the record counts
        removals by path under ``removals``. A note promises an exact decision."""

    def session(self, data: Mapping[str, Any], solver: str | None = None) -> Session:
        """``engine.session(ptype, data, solver)``: the type's model flattened once with
        ``data``, kept and closed by the engine."""


class Grader(Protocol):
    """A way to measure difficulty (``register_graders``), named by ``PuzzleType.grader``.
    It makes a ``GradingSession`` for one type and its parameters."""

    #: The name a type gives as ``grader``.
    name: str
    #: One line that says what it measures.
    description: str = ""

    def grader(self, engine: EngineServices, ptype: PuzzleType, params: Mapping[str, Any],
               options: Any) -> GradingSession:
        """A ``GradingSession`` of ``ptype``'s puzzles with ``params``. ``options`` are
        ``puzzle-engine grade``'s (a ``puzzle_engine.grading.GradeOptions``: ``runs``,
        ``cutoff``, ``seed``, ``strengthen``, ``jobs``, ``steps``), or ``None`` for the
        grader's own defaults (the growing strategy's ``--bias`` makes one to call
        ``nodes`` alone)."""


class GradingSession(Protocol):
    """What ``Grader.grader`` makes: it grades puzzles of one type and its parameters."""

    def grade(self, instance: Instance, label: str = "") -> GradeResult:
        """Measure one puzzle (``label`` names it in error messages). The built-in
        ``multiple`` returns a ``puzzle_engine.grading.Grade``, which level models learn
        from."""

    @optional
    def nodes(self, instance: Instance, runs: int) -> float:
        """A search figure for a solvable ``instance`` that need not be accepted, over
        ``runs`` random orders: the growing strategy's ``--bias`` compares candidates by
        it. Without it, ``--bias`` is refused for the type."""

    def close(self) -> None:
        """Release what the grading holds."""


class GradeResult(Protocol):
    """What ``GradingSession.grade`` returns."""

    def to_json(self) -> dict[str, Any]:
        """The grade as plain JSON values (``grade --format json``)."""

    @optional
    def summary(self) -> str:
        """One or more lines of text (``grade``); default: ``to_json`` as JSON."""


@runtime_checkable
class Session(Protocol):
    """One compiled model kept open, asked many questions: what ``engine.session`` and
    ``RemovalChecker.session`` give, and what every solver back end answers
    (``puzzle_engine.solving.session``). Every question goes through ``run``: the givens
    are assumptions of that question only, and so is everything else a question adds. A
    question that runs out of its limit answers ``complete=False``: unknown, never a
    proof. Answers do not depend on the back end (search effort, ``stats``, aside)."""

    #: Flattening already proved the model unsatisfiable.
    failed: bool

    @property
    def squares(self) -> int:
        """The decision array's length."""

    def unfixed(self) -> list[int]:
        """The squares that flattening left as variables (the rest it fixed)."""

    def run(self, board: Board, limit: int = 1, order: Sequence[int] | None = None,
            stats: bool = False, solution: bool = False, differs: Board | None = None,
            differs_at: Sequence[int] | None = None, stages: Mapping[int, int] | None = None,
            arrays: Mapping[str, Sequence[int]] | None = None, every: bool = False) -> Run:
        """Ask for solutions with ``board``'s givens (0: empty) fixed, up to ``limit``: a
        ``puzzle_engine.solving.results.Run`` with ``found``, ``complete`` (``False``: the
        solver ran out of its limit), ``stats``, ``first``, ``stage`` and ``every``.

        :param order: the first solution is the least in the lexicographic order of these
            squares (smallest value first); a process back end also branches in it.
        :param stats: report search effort (``nodes``, ...): only process back ends.
        :param solution: give the first solution's board (``Run.first``).
        :param differs: count only solutions that differ from this full board on an empty
            square (of ``differs_at``, default all).
        :param stages: with ``differs``: a stage per empty square; ``Run.stage`` is the
            least stage s such that a solution differs from ``differs`` on squares of
            stages up to s only, or None when none differs.
        :param arrays: values for other integer output arrays of the model, by name.
        :param every: give each solution's board (``Run.every``).
        """

    def count(self, board: Board, limit: int, differs: Board | None = None,
              differs_at: Sequence[int] | None = None) -> tuple[int, bool]:
        """``run``'s count and whether it is definite."""

    def shaped(self, board: Board) -> Any:
        """The decision array as MiniZinc writes it: nested lists for 2-D and more."""

    def close(self) -> None:
        """Release the solver and its files; the session answers nothing after this."""


class Registries(Protocol):
    """``engine.host``: the plugins and what they registered."""

    def get(self, registry: str, name: str, flag: str = "") -> Any:
        """A registered object by name: ``registry`` is ``"strategies"``, ``"criteria"``,
        ``"graders"`` or ``"complexities"`` (a new criterion may build on ``unique``).
        An unknown name is a one-line ``PuzzleInputError``."""

    def get_type(self, name: str) -> PuzzleType:
        """A registered puzzle type by name."""

    def get_complexity(self, name: str) -> Complexity:
        """A registered complexity function by name."""


class SolverService(Protocol):
    """``engine.backend``: the solver the engine is bound to, for a strategy's record."""

    #: The solver's ``SolverInfo``: ``id``, ``name``, ``version``, ``tags``.
    info: Any
    #: Solver runs so far (a strategy records how many one puzzle took).
    calls: int

    @property
    def solver_id(self) -> str:
        """The solver's id (``org.gecode.gecode``...)."""


class EngineServices(Protocol):
    """The engine, as the registered objects above and a type's ``OwnGenerator.generate``
    see it (``engine``): the type's own methods called and checked, its model solved, and
    the other registered objects. ``puzzle_engine.engine.Engine`` is one."""

    #: The plugins and their registries.
    host: Registries
    #: The solver.
    backend: SolverService

    def check_params(self, ptype: PuzzleType, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The canonical parameters from raw ones (``PuzzleType.check_params``, checked)."""

    def solve(self, ptype: PuzzleType, params: Mapping[str, Any], instance: Instance,
              nr_solutions: int = 1, extra: Sequence[str] = (), goal: str | None = None,
              option: tuple[int, bool] | None = None) -> tuple[Any, list]:
        """Solutions of ``instance`` (up to ``nr_solutions``; 0: all), as the type's
        (``from_solution``), with the result: a ``SolveResult`` whose ``status`` is a
        ``Status`` and ``objective`` an optimum's value. ``extra``: MiniZinc code added to
        the model; ``goal="satisfy"``: drop the objective; ``option=(i, holds)``: only
        solutions where answer option i holds (or fails)."""

    def key(self, ptype: PuzzleType, params: Mapping[str, Any], solution: Solution) -> Hashable:
        """The type's ``solution_key``, checked to be hashable."""

    def complete(self, ptype: PuzzleType, params: Mapping[str, Any], board: Any,
                 order: Sequence[int] | None = None) -> Any:
        """The least solution of a grid ``board`` in the order of the squares ``order``
        (default: row by row), or ``None``: the same on every exact solver."""

    def unique_solution(self, ptype: PuzzleType, params: Mapping[str, Any], instance: Instance,
                        what: str = "the puzzle") -> Solution:
        """The one solution of ``instance``; an error when it has none, more, or the solver
        timed out."""

    def features(self, ptype: PuzzleType, params: Mapping[str, Any], instance: Instance,
                 solution: Solution | None = None) -> dict[str, float]:
        """The type's features of a puzzle with a unique solution."""

    def session(self, ptype: PuzzleType, data: Mapping[str, Any],
                solver: str | None = None) -> Session:
        """A ``Session`` on the type's model flattened with ``data`` (no givens), opened
        once per engine, data and solver and closed by the engine, never by the caller."""

    def data(self, ptype: PuzzleType, params: Mapping[str, Any], instance: Instance
             ) -> dict[str, Any]:
        """The MiniZinc data of ``instance`` (``to_data``, checked)."""

    def checker_data(self, ptype: PuzzleType, params: Mapping[str, Any], board: Any
                     ) -> dict[str, Any]:
        """The data to flatten a grid board's checks from (``checker_data``, or the empty
        board's ``to_data``)."""

    def board_size(self, ptype: PuzzleType, params: Mapping[str, Any]) -> int:
        """A grid type's number of squares, checked."""

    def transformations(self, ptype: PuzzleType, params: Mapping[str, Any]
                        ) -> list[Transformation]:
        """The type's symmetries, checked."""

    def random_variant(self, ptype: PuzzleType, params: Mapping[str, Any],
                       rng: random.Random) -> Callable[[Any], Any]:
        """One random composition of the type's transformations, drawn from ``rng``."""

    def criterion(self, ptype: PuzzleType) -> Criterion:
        """The criterion the type names."""

    def strategy(self, ptype: PuzzleType) -> Strategy:
        """The strategy the type names, checked to be one it can use."""

    def checker(self, ptype: PuzzleType, params: Mapping[str, Any], full: Any) -> Checker:
        """The type's criterion's ``Checker`` for boards emptied from ``full``."""

    def compiled_checker(self, ptype: PuzzleType, params: Mapping[str, Any], full: Any
                         ) -> Checker:
        """The checker of ``unique``: the model flattened once, each board a question."""

    def generate(self, ptype: PuzzleType, params: Mapping[str, Any], seed: int,
                 options: Any = None) -> GenResult:
        """One puzzle from ``seed`` by the type's strategy (``options``: its options
        object, a mapping of option values, or ``None`` for the defaults)."""


# -- a puzzle type: the core, and the facets it opts into -------------------------------------
#
# A type is one object whose class subclasses ``PuzzleType`` (the core, below) and
# ``Codec``, plus the *facets* it offers, each a small class of methods:
#
#   facet            methods                                         needed by
#   ---------------  ----------------------------------------------  ----------------------
#   PuzzleType       check_params, preferred_solver, to_data,        every type (the core)
#                    instance_model, from_solution, accept_puzzle
#   Codec            to_json, from_json, format, format_solution,    every type
#                    parse, solution_key
#   Symmetry         transformations, canonical_form                 gen --variants, binning,
#                                                                    the store's deduplication
#   Rules            rules                                           (base of Drawing, Play)
#   Drawing          render_svg (+ rules)                            render (sheets)
#   Play             play_grid (+ rules)                             render --format html
#   Explanation      constraint_groups, explanation_board            explain, hint
#   Grading          search_variables, features, propagation_levels, grade, train, --difficulty
#                    implied_constraints, grading_model
#   MultipleChoice   answer_options                                  criterion unique-answer
#   SplitModel       split_data, split_values                        (speed only)
#   Templates        shipped_specs                                   puzzle-engine specs
#   FlatBoard        board_size, structure, givens, checker_data     a flat board instance
#   Emptying         (FlatBoard +) random_solution, verify_solution, strategy emptying
#                    choose_square, is_remove_valid
#   Growing          random_base, grow, complete, extensions,        strategy growing
#                    random_full, shrink (--start full)
#   OwnGenerator     generate                                        strategy own
#
# **How the engine asks "does this type have facet F": ``isinstance(ptype, F)``, and
# nothing else.** Each facet is an ``abc.ABC`` (a nominal type: having the methods is not
# having the facet), and a type opts in by subclassing the facet: ``class Kakuro(PuzzleType,
# Codec, Emptying, Drawing)``. A type without a facet is never asked its methods: where
# the engine would ask one, it uses the facet's ``NOT_OFFERED`` answer instead (no
# drawing, no symmetry, the default features...), and where a facet is needed and has no
# such answer (``search_variables`` for the grader ``multiple``), the command stops with
# one line naming the type and the facet. A type that writes a facet's method without
# subclassing the facet is refused at registration (one line naming the method and the
# facet), and so is a type that is not a ``Codec``. ``FACETS`` lists the opt-in facets;
# ``facet_of(method)`` names the facet that declares a method. Within a facet, a method
# with a body here has that default; one that raises ``NotImplementedError`` must be
# written by a type that opts in. ``puzzle_engine.grid.GridPuzzle`` is ``PuzzleType``,
# ``Codec``, ``Emptying`` and ``Grading`` with most methods written for a flat board.
#
# Every method takes ``params``, the canonical parameters from ``check_params``.


class PuzzleType:
    """The core of a puzzle type: what it is called, its parameters, its model and the
    model's data. Every type subclasses it (and ``Codec``); everything else is a facet."""

    # -- declarations ------------------------------------------------------------------------
    #: The name on the command line (``puzzle-engine gen NAME``).
    name: ClassVar[str] = ""
    #: One line for ``puzzle-engine plugins``.
    description: ClassVar[str] = ""
    #: The parameters, settable as ``--name VALUE`` after the type's name. A name the
    #: command line keeps for itself (``seed``, ``out``, ``count``, ``format``, ``solver``,
    #: ``time-limit``...: ``puzzle_engine.plugins.RESERVED_OPTIONS``) or one of the
    #: strategy's options refuses the type at registration, in one line naming the plugin
    #: and the option; the plugin's other types still load.
    params: ClassVar[tuple[Param, ...]] = ()
    #: MiniZinc model files (``pathlib.Path`` or ``importlib.resources`` files) or inline
    #: MiniZinc code (``str``), concatenated in this order.
    models: ClassVar[tuple[Any, ...]] = ()
    #: The model's output array that holds a solution (read in ``array1d`` order).
    decision: ClassVar[str] = "grid"
    #: For an optimisation puzzle: the model's variable to optimise, and ``"maximize"`` or
    #: ``"minimize"``. The engine adds the solve item, so the model has none.
    objective: ClassVar[str | None] = None
    sense: ClassVar[str] = "satisfy"
    #: How puzzles are made, judged and graded: names of registered objects. The strategy
    #: names the facet the type must have (``emptying``: ``Emptying``).
    strategy: ClassVar[str] = "emptying"
    criterion: ClassVar[str] = "unique"
    grader: ClassVar[str] = "multiple"
    #: The solver the type runs best on (id or tag), used when neither the command line,
    #: the environment nor the config file names one; ``preferred_solver`` may refine it.
    solver: ClassVar[str | None] = None
    #: Solvers (ids or tags) that should run the model with free search (``-f``).
    free_search: ClassVar[tuple[str, ...]] = ()

    #: Set by the host when the type is registered: the plugin that owns it, and its version.
    plugin: str = ""
    plugin_version: str = ""

    def check_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """Take the raw parameters (defaults filled in, ``None`` where absent) and return
        the canonical ones, or raise ``PuzzleInputError`` with a one-line message."""
        return params

    def preferred_solver(self, params: Mapping[str, Any] | None) -> str | None:
        """The solver for these params (``None``: no preference; ``params`` is ``None``
        before they are known)."""
        return self.solver

    def to_data(self, params: Mapping[str, Any], instance: Instance, solver) -> Mapping[str, Any]:
        """The MiniZinc data (parameter name to value) of ``instance``. ``solver`` is the
        ``SolverInfo`` (``id``, ``tags``...) the data is for, so a model may switch
        formulations by solver; most types ignore it."""
        raise NotImplementedError

    def instance_model(self, params: Mapping[str, Any], instance: Instance) -> str | None:
        """MiniZinc code of this instance alone, added after ``models`` on every solve of
        it: for types whose constraints differ from one puzzle to the next (a type that
        builds each puzzle's model from a template). Default ``None``: the model is
        ``models`` with ``to_data``'s data."""
        return None

    def from_solution(self, params: Mapping[str, Any], values: Mapping[str, Any]) -> Solution:
        """A solution, from a MiniZinc solution (output variable name to value). Default:
        the decision array, flattened row by row into a tuple. A ``FlatBoard`` type keeps
        this default (its solution *is* the decision array) and is refused at
        registration if it writes its own."""
        return tuple(flatten(values[self.decision]))

    def accept_puzzle(self, params: Mapping[str, Any], instance: Instance,
                      solution: Solution) -> bool:
        """``False`` refuses a finished puzzle: the strategy starts again with the next
        draw of the same seeded random generator (so the result stays reproducible)."""
        return True


class Codec(ABC):
    """Reading and writing puzzles: JSON records, text, and what counts as "the same
    solution". Every type has it (a type that is not a ``Codec`` is refused at
    registration); ``format`` and ``parse`` have no default."""

    def to_json(self, params: Mapping[str, Any], instance: Instance,
                solution: Solution | None) -> dict[str, Any]:
        """The type's fields of a JSON record: the instance, its solution when given, and
        anything a reader may want (counts...). Plain JSON values only. Default:
        ``{"instance": ..., "solution": ...}``."""
        record = {"instance": instance}
        if solution is not None:
            record["solution"] = solution
        return record

    def from_json(self, params: Mapping[str, Any], record: Mapping[str, Any]) -> Instance:
        """The instance of a record written by ``to_json``. Raise ``PuzzleInputError``
        naming the field for a bad one. Default: the field ``instance`` (lists read back
        as tuples)."""
        if "instance" not in record:
            raise PuzzleInputError("the record has no field 'instance'")
        return as_tuples(record["instance"])

    def format(self, params: Mapping[str, Any], instance: Instance, fmt: str) -> str:
        """``instance`` as text: ``fmt`` is ``"text"`` (for a person) or ``"line"`` (one
        line, for files of many puzzles). ``parse`` must read both back."""
        raise NotImplementedError

    def format_solution(self, params: Mapping[str, Any], solution: Solution, fmt: str) -> str:
        """A solution as text, in the formats of ``format``."""
        return self.format(params, solution, fmt)

    def parse(self, params: Mapping[str, Any], text: str) -> Parsed:
        """Read a puzzle written in one of the type's formats into ``Parsed(params,
        instance)``. ``params`` come from the command line, ``None`` where absent: infer
        them from the text where you can (a size from a length). Raise
        ``PuzzleInputError`` naming the row, column or symbol for a bad puzzle."""
        raise NotImplementedError

    def solution_key(self, params: Mapping[str, Any], solution: Solution) -> Hashable:
        """A key for "the same solution": two solutions with equal keys count as one.
        Override it to count solutions modulo a symmetry (criterion
        ``unique-modulo-symmetry``), e.g. the least of a solution's images under swapping
        identical pieces."""
        return solution


class Facet(ABC):
    """The base of the opt-in facets (an ``abc.ABC``: a facet is a nominal type, which a
    type has by subclassing it). ``NOT_OFFERED`` maps a method to the answer the
    engine uses for a type *without* the facet; a method missing from it is needed
    wherever the engine asks it (one line naming the type and the facet)."""

    NOT_OFFERED: ClassVar[Mapping[str, Any]] = MappingProxyType({})


class Symmetry(Facet):
    """The symmetries of the rules: variants of a puzzle, and one form per class of
    puzzles that are images of each other."""

    NOT_OFFERED = MappingProxyType({"transformations": (), "canonical_form": None})

    def transformations(self, params: Mapping[str, Any]) -> Sequence[Transformation]:
        """Symmetries of the rules: ``Transformation(name, draw)``, where ``draw(rng)``
        gives one random function from instance to instance (applied to a puzzle and its
        solution alike). ``gen --variants`` and GenPuzzles' binning use them."""
        return ()

    def canonical_form(self, params: Mapping[str, Any], instance: Instance) -> Any | None:
        """The representative of ``instance``'s class under the type's symmetry group (its
        ``transformations`` and any others that keep the rules): two instances get equal
        forms exactly when one is an image of the other. A plain JSON value that holds
        what tells puzzles apart across parameters, too (a board's shape): the store
        compares forms of one type whatever the parameters. The puzzle store refuses a
        second puzzle with the same form, and keeps variants linked to the puzzle they
        came from. It is computed once per stored puzzle, so it should take milliseconds.
        ``None`` (and the answer for a type without ``Symmetry``): not offered; the store
        tells puzzles apart by the parameters and the instance's JSON (``to_json``)."""
        return None


class Rules(Facet):
    """The rules of the puzzle in a person's words, shared by the printed sheet and the
    play page. ``Drawing`` and ``Play`` include it: a type that draws says its rules."""

    NOT_OFFERED = MappingProxyType({"rules": None})

    def rules(self, params: Mapping[str, Any]) -> str:
        """The rules for these params, one line of plain text ("Fill every row, column
        and 3x3 box with 1 to 9."). The play page shows it above the board unless the
        play board gives its own ``rules``."""
        raise NotImplementedError


class Drawing(Rules):
    """Pictures of puzzles for printed sheets (``puzzle-engine render``)."""

    NOT_OFFERED = MappingProxyType({"render_svg": None})

    def render_svg(self, params: Mapping[str, Any], instance: Instance,
                   solution: Solution | None = None) -> str | None:
        """The puzzle drawn as a standalone SVG document (``<svg ...>...</svg>``), with
        ``solution`` filled in when it is given (an answer key). The host lays drawings
        out on sheets and turns them into PDF and PNG. ``None`` (and the answer for a type
        without ``Drawing``): no drawing.

        The drawing is the board alone: the host writes the caption (type, parameters,
        level, id) under it and scales it to its place on the sheet, keeping its
        proportions (give ``width``, ``height`` and a ``viewBox``). Givens should stand
        apart from what the answer key adds (bold ink against a colour, say).
        ``puzzle_engine.render.svg.GridDrawing(rows, cols)`` draws boards of squares,
        numbered row by row from 0: ``symbol(square, text, given=True)``,
        ``lines(regions=None)`` (thin inside a region, thick between), ``shade(square)``,
        ``text(x, y, text, size, anchor="middle")``, ``disc(x, y, radius, fill)``, the
        geometry ``x(col)``, ``y(row)``, ``centre(square)``, ``bottom``, layers
        ``group(name)``, and ``to_string()`` (docs/plugin-authoring.md lists them all)."""
        raise NotImplementedError


class Play(Rules):
    """A board a person plays on the HTML play page (``render --format html``)."""

    NOT_OFFERED = MappingProxyType({"play_grid": None})

    def play_grid(self, params: Mapping[str, Any], instance: Instance,
                  solution: Solution) -> PlayBoard | None:
        """The puzzle as a board a person fills in on the HTML play page (``render
        --format html``): a ``puzzle_engine.render.play.PlayGrid`` giving the squares (open,
        given or blocked), the solution square by square, the symbols, and the conflict
        rule the page highlights by (every symbol once per unit, region sizes, against the
        solution, or the type's own JavaScript). ``solution`` is the puzzle's solution.
        A ``script`` rule is a function ``(values, grid) => squares in conflict``:
        ``values`` the board as filled in (0 empty, -1 blocked), ``grid`` the PlayGrid as
        JSON, with the fields ``rows``, ``cols``, ``cells``, ``solution``, ``symbols``,
        ``rule``, ``units``, ``regions``, ``rules``, ``script`` (the rule's number in
        the page), ``labels`` (``[square, text]`` pairs), ``shaded`` and ``kind``
        ("grid"). Two optional marks of the puzzle: ``labels``, a small text in the top
        left corner of some squares (``{square: text}`` or ``(square, text)`` pairs, up
        to 6 characters each: a cage's sum), and ``shaded``, squares drawn on a light
        background (a diagonal); bad ones are refused with one line naming the plugin.
        A board's ``rules`` left empty shows the type's ``rules``. ``None``
        (and the answer for a type without ``Play``): no play page.

        A puzzle that is no board of symbols gives another kind of board (``render.play``):
        a ``ChoiceBoard`` (``question``; ``options`` with ``answer`` the right one's index,
        or no options and ``answer`` the text the player types, ``unordered`` for a list
        in any order), which the player answers, checks and reveals; or a ``PieceBoard``
        (``rows``, ``cols``, ``cells`` 0 open, -1 blocked, -2 a hole; ``kinds``, each a
        ``PieceKind`` with its ``squares`` (shape), ``count``, ``name``, ``colour``,
        ``symbol``, ``turns``, and for attacks ``group`` and ``rays``, for explained hints
        ``value``; ``solution`` as ``(kind, squares)`` pieces), on which the player places
        and takes off pieces, sees what is left to place, and by ``rule`` the pieces
        attacked by another group (``attacks``) or the score of ``numbers`` against
        ``goal`` (``score``). Every kind is checked; a bad one is one line naming the
        plugin."""
        raise NotImplementedError


class Explanation(Facet):
    """What the explainer (``puzzle-engine explain``, ``hint``) needs beyond the model:
    the rules cut into named groups, and how it sees an instance that is not a flat
    board. A type that is neither a ``FlatBoard`` nor gives ``explanation_board`` cannot
    be explained."""

    NOT_OFFERED = MappingProxyType({"constraint_groups": None, "explanation_board": None,
                                    "technique_name": None, "step_words": None})

    def constraint_groups(self, params: Mapping[str, Any], instance: Instance
                          ) -> ConstraintGroups | None:
        """The rules cut into groups a person can name, for the explainer (``puzzle-engine
        explain``, ``hint``): ``ConstraintGroups(groups, data)``, each group a
        ``ConstraintGroup(name, constraint)`` with a human name ("row 3", "box 2,1", "the
        region of r2c5") and a MiniZinc Boolean expression over the model's variables.
        ``data`` is merged into the model's data and must turn the model's own copy of
        the grouped rules off; the groups together must then have exactly the model's
        solutions. The switch is a model parameter without a value (``bool: grouped;``):
        ``to_data`` and ``checker_data`` must give it too, rules on (``"grouped": False``),
        or MiniZinc stops on an undefined parameter. A reason is a smallest set of groups
        (with givens and earlier steps) that forces a step, and its size is its number of
        groups. A group's optional ``weight`` and ``kind`` feed the step rating
        (``explain.ladder``). ``None``: the model's constraints are one group, "the
        rules"."""
        return None

    def explanation_board(self, params: Mapping[str, Any], instance: Instance
                          ) -> ExplanationBoard | None:
        """How the explainer (``puzzle-engine explain``, ``hint``) sees ``instance``, for a
        type whose solution is its decision array but whose instance is not a flat board
        of givens: an ``ExplanationBoard(known, squares, values, data)``. Its facts are
        "square = value" and "square != value" on the decision array: ``known`` gives the
        values known from the start (givens, walls; every other position is a square to
        find), ``squares`` a name for each position ("r2c3"), ``values`` a name for each
        value a player sees ("rook a", "empty"), ``data`` the MiniZinc data to flatten the
        model from (``None``: ``to_data``). A step then is the next forced value or a
        value ruled out. ``None``: a ``FlatBoard`` type is explained as its flat board (0
        for empty, the givens known, squares named by row and column), any other type is
        refused."""
        return None

    def technique_name(self, params: Mapping[str, Any], technique: str) -> str | None:
        """A player's name for the step class ``technique`` (a stable id of the explainer's
        and the step rating's classes: "full house", "hidden single", "naked single",
        "intersection", "naked subset", "hidden subset", "fish", "chain", the rating's
        chain ids such as "x-chain" or "nishio", "deduction"; ``ExplainedStep``): short, one
        line, capitalized as it starts a sentence ("Hidden single", "Region complete").
        ``None``: the engine's generic name (the id, capitalized). An id the type does not
        know must get ``None``, never an error: the classes grow."""
        return None

    def step_words(self, params: Mapping[str, Any], step: ExplainedStep) -> str | None:
        """``step`` (an ``ExplainedStep``: its technique, deduction, reason and pattern)
        said as a person would, one line: "Hidden single: in box 1,3, only r1c8 can hold
        5". ``hint``, ``explain`` and the play page's hints show it. ``None``: the engine's
        generic sentence, which names the technique (``technique_name``) and says the
        step's groups and deduction; give it for a technique the type does not know."""
        return None


class Grading(Facet):
    """What the grader ``multiple`` (``grade``, ``train``, ``--difficulty``) asks of a
    type. ``search_variables`` is needed to grade; the rest has defaults."""

    NOT_OFFERED = MappingProxyType({"features": MappingProxyType({}),
                                    "propagation_levels": (), "implied_constraints": None,
                                    "grading_model": None})

    def search_variables(self, params: Mapping[str, Any], instance: Instance) -> Sequence[int]:
        """Positions in the decision array (0-based, ``array1d`` order) that the multiple
        method branches on in random orders: the player's unknowns. ``GridPuzzle`` gives
        the empty squares."""
        raise NotImplementedError

    def features(self, params: Mapping[str, Any], instance: Instance, solution: Solution,
                 checker: Checker | None) -> dict[str, float]:
        """A feature vector for grading, an ordered ``dict[str, float]``. ``checker``
        counts other solutions (see ``Emptying.is_remove_valid``; given to a
        ``FlatBoard`` type), or is ``None``."""
        return {}

    def propagation_levels(self, params: Mapping[str, Any]) -> Sequence[PropagationLevel]:
        """Propagation strengths for grading, weakest first: ``PropagationLevel(name,
        data)``, ``data`` merged into the model's data. Every level keeps the same
        solutions. Empty: one level, the model as it is."""
        return ()

    def implied_constraints(self, params: Mapping[str, Any]) -> str | None:
        """MiniZinc code added for the grader's strengthened pass only (paper 002 adds a
        global cardinality constraint). It must not change the solutions."""
        return None

    def grading_model(self, params: Mapping[str, Any]) -> Traversable | str | None:
        """The path of a trained level model (``puzzle-engine train``) shipped for these
        params, or ``None``."""
        return None


class MultipleChoice(Facet):
    """The options of a multiple-choice puzzle, for the criterion ``unique-answer``."""

    NOT_OFFERED = MappingProxyType({"answer_options": ()})

    def answer_options(self, params: Mapping[str, Any], instance: Instance) -> Sequence[str]:
        """The multiple-choice options of ``instance``, each a MiniZinc Boolean expression
        over the model's variables. The puzzle is accepted when exactly one option holds
        in every solution and every other holds in none."""
        raise NotImplementedError


class SplitModel(Facet):
    """For speed only: a type whose instances share most of their data (or the structure
    of their own model) says which part, so the engine flattens it once. A type without
    it is solved by flattening ``to_data`` (and ``instance_model``) every time, with the
    same answers."""

    NOT_OFFERED = MappingProxyType({"split_data": None})

    def split_data(self, params: Mapping[str, Any], instance: Instance, solver
                   ) -> tuple[Mapping[str, Any], Mapping[str, Sequence[int]]] | None:
        """``instance``'s data in two parts, ``(shared, fixed)``.
        ``shared`` is MiniZinc data that many instances have in common (the board of a
        level that grows a piece at a time); the engine flattens it once. ``fixed`` maps
        integer variable arrays of the model (e.g. ``n``, the count of each piece type)
        to this instance's values, fixed per solver run. The model declares them as
        variables, equal to the data where ``to_data`` gives it whole, so both ways have
        the same solutions. The criteria's satisfaction questions then cost one solver
        run each and no MiniZinc compile. ``None``: this instance is solved by flattening
        ``to_data``.

        A type whose instances carry their own model (``instance_model``) may return
        ``(shared, fixed, model)``: ``model`` is MiniZinc text that stands for the
        instance's own model on this path, written so that its structure (a *shape*) is
        common to many instances and their drawn values are the ``fixed`` arrays. The
        engine flattens each shape once per run and keeps its FlatZinc in the cache
        between runs. Its decision array holds the solution (``split_values`` reads it
        back). When ``fixed`` holds ``pe_answer`` (one 0 per answer option) and the model
        makes option i hold where ``pe_answer[i]`` is 1 and fail where it is 2,
        ``unique-answer``'s questions are asked through it too."""
        raise NotImplementedError

    def split_values(self, params: Mapping[str, Any], instance: Instance,
                     values: Mapping[str, Any]) -> Mapping[str, Any]:
        """The output values ``from_solution`` reads, from a solution of ``split_data``'s
        model (``values`` holds its decision array only). Default: ``values`` unchanged."""
        return values


class Templates(Facet):
    """A type that generates from templates it ships (``puzzle-engine specs``)."""

    NOT_OFFERED = MappingProxyType({"shipped_specs": MappingProxyType({}), "spec_text": None})

    def shipped_specs(self) -> dict[str, str]:
        """The templates it ships, name to one line about it."""
        raise NotImplementedError

    def spec_text(self, name: str) -> str | None:
        """The text of the shipped template ``name`` (``puzzle-engine specs --show NAME``),
        or ``None``: not offered. Default ``None``."""
        return None


class FlatBoard(Facet):
    """The instance is a flat board: a tuple of whole numbers, one per position of the
    decision array (``array1d`` order), 0 for an empty square; a solution is the full
    decision array (``from_solution``'s default, which a flat board keeps). The engine
    then checks boards itself, reads givens, explains the board square by square
    (``Explanation`` optional), and gives ``features`` a checker. ``Emptying`` is a
    ``FlatBoard``; a type of another strategy may be one too."""

    def board_size(self, params: Mapping[str, Any]) -> int:
        """The number of squares."""
        raise NotImplementedError

    def structure(self, params: Mapping[str, Any], board: Any) -> frozenset[int]:
        """Squares of ``board`` that are fixed structure (a wall, a clue square): never
        emptied (never a ``choose_square`` candidate), counted neither as givens nor as
        empty squares, not branched on by the grader, and known to the explainer from the
        start. A structure square may hold 0, "nothing here" (a missing clue), in any
        board, a full one included; 0 nowhere else in a full board. The engine's compiled
        checks fix only non-zero squares, so the model reads the structure from the data,
        0 included: ``to_data`` and ``checker_data`` give it (tests/skyscrapers.py).
        Default: none."""
        return frozenset()

    def givens(self, params: Mapping[str, Any], board: Any) -> int:
        """The givens of ``board``: filled squares that are not structure."""
        fixed = self.structure(params, board)
        return sum(1 for i, v in enumerate(board) if v and i not in fixed)

    def checker_data(self, params: Mapping[str, Any], board: Any, solver) -> Mapping[str, Any] | None:
        """The MiniZinc data to flatten ``board``'s checks from, holding *no* givens (they
        are fixed in the flattened model), or ``None`` for ``to_data`` of an empty board.
        Boards with equal checker data share one flattened model. It holds what every data
        of the type must hold: the structure when it is data (its 0s included), and the
        explanation switch of ``constraint_groups``, rules on. The explainer flattens from
        it too."""
        return None


#: The facets a type opts into (``Codec`` is every type's; the strategies' facets are
#: ``Emptying``, ``Growing`` and ``OwnGenerator`` below).
FACETS: tuple[type, ...] = (Symmetry, Drawing, Play, Explanation, Grading, MultipleChoice,
                            SplitModel, Templates, FlatBoard)


def facet_of(method: str) -> type | None:
    """The opt-in facet that declares ``method`` (``"render_svg"``: ``Drawing``), or
    ``None`` for a core or ``Codec`` method and a strategy's own."""
    return _DECLARED.get(method)


def unwritten(cls: type) -> list[tuple[type, str]]:
    """The methods a type's class ``cls`` must write and does not: of each opt-in facet
    it subclasses, those whose body here raises ``NotImplementedError``, as (facet,
    method name). (``Codec``'s are asked only where used: a type may leave out a format.)"""
    missing = []
    for facet in cls.__mro__:
        if facet is object or not issubclass(facet, Facet):
            continue
        for name, value in vars(facet).items():
            if callable(value) and not name.startswith("_") \
                    and "NotImplementedError" in getattr(getattr(value, "__code__", None),
                                                         "co_names", ()) \
                    and getattr(cls, name, None) is value:
                missing.append((facet, name))
    return missing


# -- what a strategy asks of a type ----------------------------------------------------------
class Emptying(FlatBoard):
    """The methods of the ``emptying`` strategy (GenPuzzles). An instance is a flat board
    of integers, 0 for an empty square (``FlatBoard``; ``GridPuzzle`` provides all of
    these)."""

    def random_solution(self, params: Mapping[str, Any], rng: random.Random,
                        solve: Callable[[Any], Any], transform: Callable[[Any], Any]) -> Any:
        """GetRandomPuzzle: a random full board. ``rng`` is the only randomness allowed.
        ``solve(board)`` completes a partial board with the solver (``None``: no
        completion); ``transform(board)`` applies random transformations drawn from
        ``rng``. Return ``None`` to refuse this draw and be asked again."""
        raise NotImplementedError

    def verify_solution(self, params: Mapping[str, Any], board: Any) -> bool | None:
        """Whether the full ``board`` from ``random_solution`` keeps the rules, decided by
        the type itself: ``True``, ``False`` (the engine reports the plugin's bug), or
        ``None`` to let the engine check it with one solve of the model (the default). A
        type whose rules are cheap to check in Python saves that solver call in a puzzle that
        needs no other: once the solver has run for the puzzle, the engine confirms a ``True``
        with one solve (a wrong ``True`` is the plugin's bug, never an unsolvable puzzle)."""
        return None

    def choose_square(self, params: Mapping[str, Any], board: Any, candidates: frozenset[int],
                      rng: random.Random, solution: Any) -> int:
        """ChooseSquare: one of ``candidates`` (given squares not yet tried, never a
        structure square) to empty next. With ``--symmetry``, the square chosen stands for
        its orbit: the squares of the orbits tried are no longer candidates."""
        return rng.choice(sorted(candidates))

    def orbits(self, params: Mapping[str, Any], symmetry: str) -> Sequence[Iterable[int]] | None:
        """The board's squares under ``symmetry`` (``--symmetry``: ``rot180``, a half turn;
        ``rot90``, a quarter turn; ``mirror``, left to right; ``diagonal``, about the main
        diagonal), as orbits: a partition of the squares 0..n-1 in which each square's
        orbit holds it and its images (one square where it is its own image). With a
        symmetry, a *removal* is an orbit: the emptying strategy empties the square that
        ``choose_square`` chose and the rest of its orbit at once (structure squares
        stay), asks ``is_remove_valid`` once for the lot, and keeps or restores them
        together, so that the givens are symmetric; the puzzle is *minimal* when no further
        orbit can be removed. Raise ``PuzzleInputError`` for a symmetry these params do not
        allow (a quarter turn of a board that is not square), in one line. Default ``None``:
        the type does not say, and ``--symmetry`` other than ``none`` is refused.
        ``GridPuzzle`` gives the orbits of its rows x cols board, row by row."""
        return None

    def is_remove_valid(self, params: Mapping[str, Any], board: Any, index: int, solution: Any,
                        checker: RemovalChecker, max_solutions: int) -> bool:
        """isRemoveValid: ``True`` if ``board`` (square ``index`` just emptied) is still
        acceptable. ``checker.at_most(board, k)`` is ``True`` when the board has at most
        ``k`` solutions by the type's criterion, ``False`` when it has more *or the solver
        timed out*. Return a plain ``bool``.

        A type may decide a removal itself (exactly) and ask the checker only where it
        cannot. ``board`` with ``index`` given again is a board the strategy accepted (or
        ``solution``): with ``max_solutions`` 1, another solution of ``board`` differs from
        ``solution`` at ``index``. With ``--symmetry`` (``orbits``), the removal is
        ``index``'s whole orbit: ``board`` has every square of it emptied, ``board`` with
        the orbit given again is the board the strategy accepted, and another solution
        differs from ``solution`` somewhere in the orbit. ``checker.note(label)`` names the path that decided; the
        record counts the removals of each path under ``removals``. A note promises an
        exact decision: the engine's checker then takes an accepted ``board`` as proven
        (with ``max_solutions`` 1, unique); a silent acceptance teaches it nothing.

        A type that asks many questions of its own about one board (an exact check of
        its own, after its deductions) asks them of a *session*: ``checker.session(data,
        solver=None)`` is the type's model flattened once with ``data`` (MiniZinc data
        that holds no givens, e.g. ``checker_data``'s) on the engine's solver, or on
        ``solver`` (an id or tag: one that suits these questions; the answers do not
        depend on it), with the engine's time limit. The engine opens it at the first
        call with that data and solver, gives the same session to every later call with
        equal ones, and closes it when it closes itself: the type never closes it. Its
        questions (``puzzle_engine.solving.session.Session``):

        * ``session.run(board, limit=1, differs=None, differs_at=None, solution=False)``
          returns a ``Run``: ``found`` (solutions, up to ``limit``), ``complete`` (False
          when the solver ran out of its limit: *unknown*, never "no other solution") and
          ``first`` (the first solution's board, with ``solution=True``). ``board``'s
          non-zero squares are assumptions of this question alone (givens, or values the
          type deduced); with ``differs``, a full board that agrees with them, only
          solutions that differ from it on an empty square of ``differs_at`` (default:
          any empty square) count.
        * ``session.squares``: the decision array's length; ``session.failed``: the
          flattened model is already unsatisfiable.

        A back end that solves in the engine's process keeps what it learnt from one
        question to the next, so asking a session is cheaper than a solve per question,
        and the answers are the same on every solver."""
        return checker.at_most(board, max_solutions)


class Growing:
    """The methods of the ``growing`` strategy (paper 002): a level grows one element at a
    time while the criterion can still accept it."""

    def random_base(self, params: Mapping[str, Any], rng: random.Random) -> Instance:
        """A random starting instance (a board with its walls and holes, no pieces)."""
        raise NotImplementedError

    def grow(self, params: Mapping[str, Any], instance: Instance,
             rng: random.Random) -> Sequence[Instance]:
        """The instances one element larger than ``instance`` (a piece more), in the order
        to try them; empty when it cannot grow."""
        raise NotImplementedError

    def complete(self, params: Mapping[str, Any], instance: Instance) -> bool:
        """Whether ``instance`` is a level worth keeping once accepted (enough pieces...)."""
        return True

    def extensions(self, params: Mapping[str, Any], parent: Instance, solution: Solution,
                   candidate: Instance) -> Sequence[Solution]:
        """Optional, for speed: solutions of ``candidate`` (one of ``grow(parent)``) that
        the type builds from ``solution``, a solution of ``parent``, without a solver
        (for pieces on a board: the parent's placement with the new piece on each square
        where it is safe). When they alone show that the criterion refuses the candidate (two
        different solutions, under ``unique``), the strategy takes it as solvable and
        refused with no solver call. They must be true solutions. Default: none."""
        return ()

    def random_full(self, params: Mapping[str, Any], base: Instance, rng: random.Random
                    ) -> tuple[Instance, Solution] | None:
        """Optional, for ``--start full``: a random full instance on ``base`` (one of
        ``random_base``; for pieces on a board: the board filled with pieces until no
        square takes one more) and a solution of it that the type built itself, or
        ``None`` to draw again. The strategy draws ``--fills`` of them on one base (one
        flattened model serves them all) and takes elements away from each accepted one
        (``shrink``) while the criterion still accepts it."""
        raise NotImplementedError

    def shrink(self, params: Mapping[str, Any], instance: Instance, solution: Solution,
               rng: random.Random) -> Sequence[tuple[Instance, Solution]]:
        """Optional, for ``--start full``: the instances one element smaller than
        ``instance``, each with a true solution of its own built from ``solution`` (a
        solution of ``instance``), in the order to try them; empty when none is left."""
        raise NotImplementedError

    def repairable(self, params: Mapping[str, Any], instance: Instance, solution: Solution
                   ) -> Sequence[int]:
        """Optional, for ``--start full`` with ``--repairs``: the squares of ``solution``
        (indices into its flat decision array, which a solution must then be) where
        ``repair`` can rule out every other solution that differs there (for pieces on a
        board: the empty squares, each of which a hole would close), in the order to ask
        about them: those where another solution most likely differs first (each square
        before the one repaired must be proved clean, which costs the solver most).
        Default: none."""
        return ()

    def repair(self, params: Mapping[str, Any], instance: Instance, solution: Solution,
               square: int | None, other: Solution | None
               ) -> tuple[Instance, Solution] | None:
        """Optional, for ``--start full`` with ``--repairs``: an instance that keeps
        ``solution`` (as the new instance writes it) among its solutions and has fewer
        others, or ``None`` when the type knows no such change. The strategy asks while the
        criterion would refuse ``instance``, with exactly one of:

        * ``square``: the first of the ``repairable`` squares, in their order, on which
          some other solution differs from ``solution`` (rule out every such one: a hole
          on that square);
        * ``other``: when no repairable square tells them apart, the least other solution
          in a seeded order of all squares (rule out at least this one).

        Both are facts of the model, not of the solver that found them, so a seed repairs
        a level the same way on every exact solver. A repair must never add a solution.
        Default: ``None``."""
        return None


class OwnGenerator:
    """The method of the ``own`` strategy: the type builds its puzzles itself."""

    def generate(self, params: Mapping[str, Any], rng: random.Random,
                 engine: EngineServices) -> Instance | None:
        """A candidate instance drawn from ``rng``, or ``None`` to draw again. The strategy
        judges it with the type's criterion and draws again until one is accepted.
        For solve-then-constrain, ``engine.solve(self, params, instance, nr_solutions=1,
        extra=(), goal=None)`` returns ``(result, solutions)``: ``result.status`` is a
        ``Status``, ``solutions`` are this type's (``from_solution``)."""
        raise NotImplementedError


#: method name -> the opt-in facet that declares it (``facet_of``).
_DECLARED: dict[str, type] = {name: cls for facet in FACETS for cls in facet.__mro__
                              if issubclass(cls, Facet) and cls is not Facet
                              for name, value in vars(cls).items()
                              if not name.startswith("_") and callable(value)}

__all__ = ["CONTRACT_VERSION", "FACETS", "Codec", "Complexity", "Drawing", "Emptying",
           "Explanation", "Facet", "FlatBoard", "Grading", "Growing", "MultipleChoice",
           "OwnGenerator", "Play", "PuzzleType", "Rules", "SplitModel", "Symmetry",
           "Templates", "facet_of", "hookspec", "unwritten", "register_complexities",
           "register_criteria", "register_graders", "register_puzzle_types",
           "register_strategies"]
__all__ += ["Checker", "Criterion", "EngineServices", "GradeResult", "Grader", "GradingSession",
            "Registries", "RemovalChecker", "Session", "SolverService", "Strategy", "optional"]
