"""The built-in Fillomino plugin (paper 000, section 3.2), built only on the public plugin
contract: rows x cols boards, two routes to a random full board, random square choice that
keeps a given in every region, rotations and reflections, and the paper's features."""
from importlib.resources import files

from puzzle_engine import Param, Parsed, PuzzleType, Transformation, hookimpl

from . import logic

NAME = "fillomino"


def _mine(puzzle_type) -> bool:
    return puzzle_type.name == NAME


def _shape(params) -> tuple[int, int]:
    return params["rows"], params["cols"]


@hookimpl
def puzzle_register_types(register):
    register(PuzzleType(
        name=NAME,
        description="Fillomino: every cell holds the size of its region; regions of equal "
                    "size never touch.",
        models=(files("puzzle_engine_models") / "fillomino.mzn",),
        decision="grid",
        shape=_shape,
        params=(
            Param("size", int, None, "a square board of side N (default 9)"),
            Param("rows", int, None, "rows of the board"),
            Param("cols", int, None, "columns of the board"),
            Param("max_region", int, None, "largest region of the random full board "
                  "(default: the longer side)"),
            Param("region_sizes", str, None, "region sizes to draw from, e.g. 1-5 or 1,2,4 "
                  "(default 1 to --max-region)"),
            Param("seeding", str, "python", "the random full board: 'python' (a random "
                  "partition) or 'solver' (completed by the solver)"),
            Param("allow_empty_regions", bool, False, "let a region lose all its givens"),
        ),
        check_params=logic.check_params,
        # Proving a sparse board unique needs a learning solver: on the hard checks
        # measured, Chuffed with free search was 20 to 200 times faster than Gecode
        # (docs/solvers.md).
        solver="chuffed",
        free_search=("chuffed",),
    ))


@hookimpl
def puzzle_random_solution(puzzle_type, params, rng, solve, transform):
    if not _mine(puzzle_type):
        return None
    rows, cols = _shape(params)
    sizes = logic.region_sizes(params)
    if params["seeding"] == "python":
        return logic.random_partition(rows, cols, sizes, rng)
    # The solver route: a few random givens, completed by the solver; givens are dropped
    # (half at a time) while the solver finds no completion.
    seed = list(logic.solver_seed(rows, cols, sizes, rng))
    while True:
        board = solve(tuple(seed))
        if board is not None:
            return transform(board)
        placed = [c for c, v in enumerate(seed) if v]
        if not placed:
            return None
        for c in rng.sample(placed, (len(placed) + 1) // 2):
            seed[c] = 0


@hookimpl
def puzzle_choose_square(puzzle_type, params, board, candidates, rng, solution):
    if not _mine(puzzle_type):
        return None
    region_of = logic.regions(solution, *_shape(params))
    return logic.choose(board, candidates, region_of, params["allow_empty_regions"], rng)


@hookimpl
def puzzle_is_remove_valid(puzzle_type, params, board, index, solution, checker, max_solutions):
    if not _mine(puzzle_type):
        return None
    if not params["allow_empty_regions"]:
        region_of = logic.regions(solution, *_shape(params))
        if not logic.keeps_a_given(board, index, region_of):
            return False  # the paper's rule: no solver call needed
    return checker.at_most(board, max_solutions)


@hookimpl
def puzzle_transformations(puzzle_type, params):
    if not _mine(puzzle_type):
        return None
    return [Transformation(name, draw) for name, draw in logic.transformations(*_shape(params))]


@hookimpl
def puzzle_features(puzzle_type, params, board, solution, checker):
    if not _mine(puzzle_type):
        return None
    optimal = None
    if checker is not None:
        # Optimal: no given can be removed (by the generator's rules) with the solution
        # staying unique.
        region_of = logic.regions(solution, *_shape(params))
        optimal = not any(
            checker.at_most(board[:c] + (0,) + board[c + 1:], 1)
            for c, v in enumerate(board)
            if v and (params["allow_empty_regions"] or logic.keeps_a_given(board, c, region_of)))
    return logic.features(board, solution, *_shape(params), optimal)


@hookimpl
def puzzle_to_data(puzzle_type, params, board, solver):
    if not _mine(puzzle_type):
        return None
    rows, cols = _shape(params)
    # maxv is a bound that every solution of these givens respects, whatever the region
    # sizes (logic.value_bound): "unique" means unique under the plain rules.
    return _data(rows, cols, board, logic.value_bound(board, rows, cols), solver)


@hookimpl
def puzzle_checker_data(puzzle_type, params, board, solver):
    if not _mine(puzzle_type):
        return None
    rows, cols = _shape(params)
    # The same bound, rounded up to a multiple of 4 so that the compiled checker is reused
    # for many boards: the bound grows slowly as a puzzle is emptied.
    bound = min(rows * cols, -(-logic.value_bound(board, rows, cols) // 4) * 4)
    return _data(rows, cols, (0,) * (rows * cols), bound, solver)


def _data(rows, cols, board, maxv, solver):
    # The costly implied constraints only for solvers that do not learn (see the model).
    implied = solver is None or "lcg" not in solver.tags
    return {"R": rows, "C": cols, "maxv": maxv, "implied": implied,
            "givens": [list(board[i * cols:(i + 1) * cols]) for i in range(rows)]}


@hookimpl
def puzzle_parse(puzzle_type, params, text):
    if not _mine(puzzle_type):
        return None
    canonical, board = logic.parse(text, params)
    return Parsed(canonical, board)


@hookimpl
def puzzle_format(puzzle_type, params, board, fmt):
    if not _mine(puzzle_type):
        return None
    return logic.format_board(board, *_shape(params), fmt)
