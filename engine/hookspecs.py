"""The plugin contract. Every hook is declared here and nowhere else.

All hooks are called with keyword arguments, so an implementation may accept only the
arguments it needs. Hooks marked *first result* stop at the first implementation that
returns something other than ``None``: an implementation must return ``None`` for puzzle
types it does not handle (compare ``puzzle_type.name``). The host registers its own
defaults with ``trylast=True``, so any plugin can pre-empt them.
"""
import pluggy

hookspec = pluggy.HookspecMarker("puzzle_engine")


@hookspec
def puzzle_register_types(register):
    """Declare puzzle types.

    Called once when the plugins load. Call ``register(PuzzleType(...))`` once for each
    puzzle type the plugin provides: its name, parameters with defaults, a ``check_params``
    validator, the board shape, the MiniZinc model file(s) and the name of the decision
    array whose ``array1d`` is the board.
    """


@hookspec(firstresult=True)
def puzzle_random_solution(puzzle_type, params, rng, solve, transform):
    """GetRandomPuzzle: return a random *full* board (a tuple of ints, no zeros).

    :param rng: a ``random.Random``; the only source of randomness allowed.
    :param solve: ``solve(board) -> Board | None`` completes a partial board with the
        configured solver (``None`` when it has no solution), so a plugin can fix a few
        random squares and let the solver do the rest.
    :param transform: ``transform(board) -> Board`` applies a random composition of the
        type's transformations, drawn from ``rng``.

    The host's default completes an empty board with the solver and applies random
    transformations (``puzzle_transformations``) to it.
    """


@hookspec(firstresult=True)
def puzzle_choose_square(puzzle_type, params, board, candidates, rng, solution):
    """ChooseSquare: return the index of the square to try emptying next.

    :param board: the current puzzle (0 = empty).
    :param candidates: the indices not yet tried, all non-empty, never empty itself.
    :param rng: a ``random.Random``.
    :param solution: the full board the puzzle is emptied from (a rule may depend on it,
        e.g. "every region of the solution keeps a given").

    Must return one of ``candidates``. The host's default picks uniformly at random.
    """


@hookspec(firstresult=True)
def puzzle_is_remove_valid(puzzle_type, params, board, index, solution, checker, max_solutions):
    """isRemoveValid: return ``True`` if ``board`` (square ``index`` just emptied) is acceptable.

    :param solution: the full board the puzzle was emptied from.
    :param checker: counts solutions other than ``solution``:
        ``checker.at_most(board, k)`` is ``True`` when the board has at most ``k``
        solutions, ``False`` when it has more *or when the solver timed out*.
    :param max_solutions: the ``k`` asked for on the command line (1 = unique).

    The host's default is ``checker.at_most(board, max_solutions)``: one solver call
    that asks for a solution different from ``solution``.
    """


@hookspec
def puzzle_transformations(puzzle_type, params):
    """Return a list of ``Transformation`` objects: symmetries that keep the rules.

    Return ``None`` or ``[]`` for types you do not handle. Each transformation's
    ``draw(rng)`` gives a board -> board function, applied to a puzzle and its solution
    alike. The host composes them to make variants (``gen --variants M``) and to bin the
    transformed puzzles in GenPuzzles.
    """


@hookspec(firstresult=True)
def puzzle_features(puzzle_type, params, board, solution, checker):
    """Return a feature vector for grading, as an ordered ``dict[str, float]``.

    :param solution: the puzzle's solution (the engine solves the puzzle first), or
        ``None`` when the caller has none.
    :param checker: counts solutions other than ``solution`` (see
        ``puzzle_is_remove_valid``), for features that need the solver, such as whether a
        given could still be removed; ``None`` when the caller has no solution.

    ``Engine.features(puzzle_type, params, board)`` supplies both. The host's default gives
    the number of squares, givens and empties.
    """


@hookspec(firstresult=True)
def puzzle_to_data(puzzle_type, params, board, solver):
    """Return the MiniZinc data (a ``dict`` of parameter name to value) for ``board``.

    :param solver: the ``SolverInfo`` (``id``, ``name``, ``version``, ``tags``) the data is
        for, so that a model can switch formulations by solver (e.g. implied constraints
        only for solvers without learning, tag ``lcg``). Most plugins ignore it.

    The host may call it with an all-empty board and fix the givens itself, so the
    model must treat a given of 0 as "empty" and constrain nothing for it.
    """


@hookspec(firstresult=True)
def puzzle_checker_data(puzzle_type, params, board, solver):
    """Return the MiniZinc data from which to compile the checker for ``board``, or ``None``.

    The checker (isRemoveValid's solver) flattens the model once and then fixes each
    board's givens in the compiled FlatZinc, so the data returned here must hold *no*
    givens. Boards whose checker data are equal share one compiled model; return data that
    changes rarely. Use it for data that depends on the board, such as a bound on the
    values that every solution of ``board`` respects, which makes the model smaller. The
    bound must be sound: the compiled model must have exactly the solutions that
    ``puzzle_to_data(board)`` gives.

    :param solver: as in ``puzzle_to_data``.

    The host's default (``None``) compiles ``puzzle_to_data`` of an all-empty board once.
    """


@hookspec(firstresult=True)
def puzzle_from_solution(puzzle_type, params, solution):
    """Turn a MiniZinc solution (``dict`` of output variable to value) into a full board.

    The host's default flattens the decision array ``puzzle_type.decision`` row by row.
    """


@hookspec(firstresult=True)
def puzzle_parse(puzzle_type, params, text):
    """Parse ``text`` (a puzzle in one of the plugin's text formats) into a ``Parsed``.

    :param params: the parameters given on the command line; a missing one is ``None``,
        and the plugin may infer it from the text (e.g. the size from the length).

    Raise ``PuzzleInputError`` with a one-line message that names the problem (row,
    column, symbol) for a wrong length, a bad symbol or conflicting givens.
    """


@hookspec(firstresult=True)
def puzzle_format(puzzle_type, params, board, fmt):
    """Format ``board`` as text. ``fmt`` is ``"text"`` (a readable grid) or ``"line"``
    (one line, ``.`` for empty). ``puzzle_parse`` must read back both."""


@hookspec
def puzzle_register_complexities(register):
    """Declare complexity functions for GenPuzzles' binning.

    Call ``register(Complexity(name, level))``; ``level(puzzle_type, params, board)``
    returns a hashable hardness level. The host registers ``givens`` (the number of
    givens).
    """


@hookspec(firstresult=True)
def puzzle_propagation_levels(puzzle_type, params):
    """Return the type's propagation levels for grading, weakest first, or ``None``.

    A level is a ``PropagationLevel(name, data)``: MiniZinc data merged into the puzzle's
    data so that the model propagates more or less strongly (e.g. a ``level``
    parameter that picks value- or domain-consistent all-different and adds redundant
    counting constraints). Every level must keep exactly the same solutions.

    The grader solves each level once and records whether propagation alone solved the
    puzzle (no search) and the nodes it took: "solvable at increasing consistency
    levels", features the SVM can learn from. The *first* level is also the plain model of
    the multiple method's second pass (see ``docs/grading.md``). ``None`` means one level,
    the model as it is.
    """


@hookspec(firstresult=True)
def puzzle_implied_constraints(puzzle_type, params):
    """Return MiniZinc code with implied constraints for the grader's strengthened pass,
    or ``None``.

    Paper 002 adds a global cardinality constraint to the Combination model for this. The
    code is added to the model only for that pass, together with SAC probing at the root
    (MiniZinc ``-O5``). It must not change the solutions.
    """


@hookspec(firstresult=True)
def puzzle_grading_model(puzzle_type, params):
    """Return the path (``pathlib.Path`` or ``importlib.resources`` traversable) of a
    trained level model shipped for these parameters, or ``None``.

    ``puzzle-engine train`` writes such a file. ``grade`` and ``gen --difficulty`` use it
    when ``--model`` is not given.
    """
