"""The plugin contract, version 2. Everything a plugin may provide is declared here.

A plugin is a Python module (or object) found through the entry-point group
``puzzle_engine``. It says which contract it was written for, and implements one or
more of the ``register_*`` hooks below:

    PUZZLE_ENGINE_CONTRACT = 2

    @hookimpl
    def register_puzzle_types(register):
        register(MyPuzzle())

A *puzzle type* is an object, an instance of a subclass of ``PuzzleType`` below, that
carries its own behaviour: the engine calls the methods of the type it is working on, and
of no other. A plugin therefore never checks which type it is asked about, and one
plugin's mistake stays with its own types.

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
through hooks, so a plugin can add one without touching the engine.

Puzzle types hold their puzzles as they like (the engine never looks inside): an
*instance* is the puzzle as given to the player, a *solution* its answer. Grid puzzles
should subclass ``puzzle_engine.grid.GridPuzzle``, which implements most of this for a
flat tuple of integers with 0 for an empty square.

Every method's result is checked before it is used; a wrong one, or an exception, is
reported as one line naming the plugin, the type and the method. A plugin that cannot be
loaded, or a thing it registers that is refused (a name already taken, a type option the
command line keeps for itself), is one warning line per command naming the plugin and its
installed package; the rest of the host works. A plugin whose loading takes over 2 s, and
two installed packages that declare one plugin name, are named in a warning too.

The contract grows by methods with defaults: a canonical form for deduplication, a
drawing for printed sheets, a board for the play page, the constraint groups that
explain a deduction and the board the explainer sees came this way, as new
``PuzzleType`` methods whose default means "not offered". No strategy, criterion or
other method changes, and a type that does not implement them keeps working.

``docs/plugin-authoring.md`` walks through a complete plugin for each strategy.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar

import pluggy

from .errors import PuzzleInputError
from .types import (Complexity, ConstraintGroups, ExplanationBoard, Param, Parsed,
                    PropagationLevel, Transformation, as_tuples, flatten)

#: The contract this engine speaks. A plugin declares the one it was written for as
#: ``PUZZLE_ENGINE_CONTRACT`` (a module or object attribute); any other is refused.
CONTRACT_VERSION = 2

hookspec = pluggy.HookspecMarker("puzzle_engine")

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
    """Call ``register(s)`` for each generation strategy, an object with the attributes of
    ``puzzle_engine.strategies.Strategy``: ``name``, ``options`` (its command-line options
    as ``Param``), ``hooks`` (the class whose methods a type must implement to use it) and
    ``generate(engine, ptype, params, seed, options)``."""


@hookspec
def register_criteria(register: Register) -> None:
    """Call ``register(c)`` for each acceptance criterion, an object with the attributes
    of ``puzzle_engine.criteria.Criterion`` (subclass it): ``name``, ``description`` and
    ``judge(engine, ptype, params, instance, limit=1)``, which returns a
    ``puzzle_engine.criteria.Verdict``: ``accepted`` (``True``, ``False``, or ``None`` when
    the solver ran out of time: unknown, never accepted), ``solutions`` (the distinct
    solutions seen, at most ``limit + 1``), ``status``, and optionally ``solution``,
    ``value`` (an optimum, the correct answer's index) and ``fields`` (for the record).
    ``limit`` is the most solutions an accepted instance may have (``--max-solutions``).
    Optional: ``refuted_by(engine, ptype, params, solutions, limit=1)``, whether some true
    solutions alone show the instance refused (default ``False``), and ``checker(engine,
    ptype, params, full)``, the emptying strategy's checker (default: ``judge`` per
    board)."""


@hookspec
def register_graders(register: Register) -> None:
    """Call ``register(g)`` for each difficulty grader, an object with ``name`` and
    ``grader(engine, ptype, params, options)``. That returns an object with
    ``grade(instance, label)`` and ``close()``; ``grade`` measures one puzzle and returns
    a result with ``to_json()`` (a dict, for ``grade --format json``) and optionally
    ``summary()`` (one or more lines of text). The built-in ``multiple`` returns a
    ``puzzle_engine.grading.Grade``, which level models learn from."""


@hookspec
def register_complexities(register: Register) -> None:
    """Call ``register(Complexity(name, level))`` for each complexity function C of
    GenPuzzles' binning: ``level(puzzle_type, params, instance)`` gives a hashable level."""


# -- a puzzle type ---------------------------------------------------------------------------
class PuzzleType:
    """One kind of puzzle. Subclass it, set the declarations, implement the methods.

    Every method takes ``params``, the canonical parameters from ``check_params``.
    """

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
    #: How puzzles are made, judged and graded: names of registered objects.
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

    # -- instances and solutions -------------------------------------------------------------
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

    def split_data(self, params: Mapping[str, Any], instance: Instance, solver
                   ) -> tuple[Mapping[str, Any], Mapping[str, Sequence[int]]] | None:
        """Optional, for speed: ``instance``'s data in two parts, ``(shared, fixed)``.
        ``shared`` is MiniZinc data that many instances have in common (the board of a
        level that grows a piece at a time); the engine flattens it once. ``fixed`` maps
        integer variable arrays of the model (e.g. ``n``, the count of each piece type)
        to this instance's values, fixed per solver run. The model declares them as
        variables, equal to the data where ``to_data`` gives it whole, so both ways have
        the same solutions. The criteria's satisfaction questions then cost one solver
        run each and no MiniZinc compile. ``None`` (the default): every solve flattens
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
        return None

    def split_values(self, params: Mapping[str, Any], instance: Instance,
                     values: Mapping[str, Any]) -> Mapping[str, Any]:
        """The output values ``from_solution`` reads, from a solution of ``split_data``'s
        model (``values`` holds its decision array only). Default: ``values`` unchanged."""
        return values

    def from_solution(self, params: Mapping[str, Any], values: Mapping[str, Any]) -> Solution:
        """A solution, from a MiniZinc solution (output variable name to value). Default:
        the decision array, flattened row by row into a tuple."""
        return tuple(flatten(values[self.decision]))

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

    def transformations(self, params: Mapping[str, Any]) -> Sequence[Transformation]:
        """Symmetries of the rules: ``Transformation(name, draw)``, where ``draw(rng)``
        gives one random function from instance to instance (applied to a puzzle and its
        solution alike). ``gen --variants`` and GenPuzzles' binning use them."""
        return ()

    def accept_puzzle(self, params: Mapping[str, Any], instance: Instance,
                      solution: Solution) -> bool:
        """``False`` refuses a finished puzzle: the strategy starts again with the next
        draw of the same seeded random generator (so the result stays reproducible)."""
        return True

    def features(self, params: Mapping[str, Any], instance: Instance, solution: Solution,
                 checker) -> dict[str, float]:
        """A feature vector for grading, an ordered ``dict[str, float]``. ``checker``
        counts other solutions (see ``Emptying.is_remove_valid``), or is ``None``."""
        return {}

    def shipped_specs(self) -> dict[str, str]:
        """For a type that generates from templates: the templates it ships, name to one
        line about it (``puzzle-engine specs``). Default: none."""
        return {}

    def spec_text(self, name: str) -> str | None:
        """The text of the shipped spec ``name`` (``puzzle-engine specs --show NAME``), or
        ``None``: not offered. Default ``None``."""
        return None

    # -- corpora and pictures ----------------------------------------------------------------
    def canonical_form(self, params: Mapping[str, Any], instance: Instance) -> Any | None:
        """The representative of ``instance``'s class under the type's symmetry group (its
        ``transformations`` and any others that keep the rules): two instances get equal
        forms exactly when one is an image of the other. A plain JSON value that holds
        what tells puzzles apart across parameters, too (a board's shape): the store
        compares forms of one type whatever the parameters. The puzzle store refuses a
        second puzzle with the same form, and keeps variants linked to the puzzle they
        came from. It is computed once per stored puzzle, so it should take milliseconds.
        Default ``None``: not offered; the store tells puzzles apart by the parameters
        and the instance's JSON (``to_json``)."""
        return None

    def render_svg(self, params: Mapping[str, Any], instance: Instance,
                   solution: Solution | None = None) -> str | None:
        """The puzzle drawn as a standalone SVG document (``<svg ...>...</svg>``), with
        ``solution`` filled in when it is given (an answer key). The host lays drawings
        out on sheets and turns them into PDF and PNG. Default ``None``: no drawing.

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
        return None

    def play_grid(self, params: Mapping[str, Any], instance: Instance,
                  solution: Solution):
        """The puzzle as a board a person fills in on the HTML play page (``render
        --format html``): a ``puzzle_engine.render.play.PlayGrid`` giving the squares (open,
        given or blocked), the solution square by square, the symbols, and the conflict
        rule the page highlights by (every symbol once per unit, region sizes, against the
        solution, or the type's own JavaScript). ``solution`` is the puzzle's solution.
        A ``script`` rule is a function ``(values, grid) => squares in conflict``:
        ``values`` the board as filled in (0 empty, -1 blocked), ``grid`` the PlayGrid as
        JSON, with the fields ``rows``, ``cols``, ``cells``, ``solution``, ``symbols``,
        ``rule``, ``units``, ``regions``, ``rules`` and ``script`` (the rule's number in
        the page). Default ``None``: no play page."""
        return None

    # -- explanations ------------------------------------------------------------------------
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
        or MiniZinc stops on an undefined parameter. A reason is a smallest set of groups (with givens and earlier steps)
        that forces a step, and its size is its number of groups. A group's optional
        ``weight`` and ``kind`` feed the step rating (``explain.ladder``). Default ``None``:
        the model's constraints are one group, "the rules"."""
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
        value ruled out. Default ``None``: an ``emptying`` type is explained as its flat
        board (0 for empty, the givens known, squares named by row and column), any
        other type is refused."""
        return None

    # -- grading -----------------------------------------------------------------------------
    def search_variables(self, params: Mapping[str, Any], instance: Instance) -> Sequence[int]:
        """Positions in the decision array (0-based, ``array1d`` order) that the multiple
        method branches on in random orders: the player's unknowns. Needed by the grader
        ``multiple``; ``GridPuzzle`` gives the empty squares."""
        raise NotImplementedError

    def propagation_levels(self, params: Mapping[str, Any]) -> Sequence[PropagationLevel]:
        """Propagation strengths for grading, weakest first: ``PropagationLevel(name,
        data)``, ``data`` merged into the model's data. Every level keeps the same
        solutions. Empty: one level, the model as it is."""
        return ()

    def implied_constraints(self, params: Mapping[str, Any]) -> str | None:
        """MiniZinc code added for the grader's strengthened pass only (paper 002 adds a
        global cardinality constraint). It must not change the solutions."""
        return None

    def grading_model(self, params: Mapping[str, Any]):
        """The path of a trained level model (``puzzle-engine train``) shipped for these
        params, or ``None``."""
        return None

    # -- criterion ``unique-answer`` ---------------------------------------------------------
    def answer_options(self, params: Mapping[str, Any], instance: Instance) -> Sequence[str]:
        """The multiple-choice options of ``instance``, each a MiniZinc Boolean expression
        over the model's variables. The puzzle is accepted when exactly one option holds
        in every solution and every other holds in none."""
        return ()


# -- what a strategy asks of a type ----------------------------------------------------------
class Emptying:
    """The methods of the ``emptying`` strategy (GenPuzzles). An instance is a flat board
    of integers, 0 for an empty square (``GridPuzzle`` provides all of these)."""

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
        structure square) to empty next."""
        return rng.choice(sorted(candidates))

    def is_remove_valid(self, params: Mapping[str, Any], board: Any, index: int, solution: Any,
                        checker, max_solutions: int) -> bool:
        """isRemoveValid: ``True`` if ``board`` (square ``index`` just emptied) is still
        acceptable. ``checker.at_most(board, k)`` is ``True`` when the board has at most
        ``k`` solutions by the type's criterion, ``False`` when it has more *or the solver
        timed out*. Return a plain ``bool``.

        A type may decide a removal itself (exactly) and ask the checker only where it
        cannot. ``board`` with ``index`` given again is a board the strategy accepted (or
        ``solution``): with ``max_solutions`` 1, another solution of ``board`` differs from
        ``solution`` at ``index``. ``checker.note(label)`` names the path that decided; the
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

    def checker_data(self, params: Mapping[str, Any], board: Any, solver) -> Mapping[str, Any] | None:
        """The MiniZinc data to flatten ``board``'s checks from, holding *no* givens (they
        are fixed in the flattened model), or ``None`` for ``to_data`` of an empty board.
        Boards with equal checker data share one flattened model. It holds what every data
        of the type must hold: the structure when it is data (its 0s included), and the
        explanation switch of ``constraint_groups``, rules on. The explainer flattens from
        it too."""
        return None


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


class OwnGenerator:
    """The method of the ``own`` strategy: the type builds its puzzles itself."""

    def generate(self, params: Mapping[str, Any], rng: random.Random, engine) -> Instance | None:
        """A candidate instance drawn from ``rng``, or ``None`` to draw again. The strategy
        judges it with the type's criterion and draws again until one is accepted.
        For solve-then-constrain, ``engine.solve(self, params, instance, nr_solutions=1,
        extra=(), goal=None)`` returns ``(result, solutions)``: ``result.status`` is a
        ``Status``, ``solutions`` are this type's (``from_solution``)."""
        raise NotImplementedError


__all__ = ["CONTRACT_VERSION", "Complexity", "Emptying", "Growing", "OwnGenerator",
           "PuzzleType", "hookspec", "register_complexities", "register_criteria",
           "register_graders", "register_puzzle_types", "register_strategies"]
