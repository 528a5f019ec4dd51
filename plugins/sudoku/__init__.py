"""The built-in Sudoku plugin: boxes of any shape r x c (4x4 up to 35x35)."""
from importlib.resources import files

from puzzle_engine import Param, Parsed, PropagationLevel, PuzzleType, Transformation, hookimpl

from . import logic

NAME = "sudoku"


def _mine(puzzle_type) -> bool:
    return puzzle_type.name == NAME


@hookimpl
def puzzle_register_types(register):
    register(PuzzleType(
        name=NAME,
        description="Sudoku with r x c boxes: every row, column and box holds 1..n once.",
        models=(files("puzzle_engine_models") / "sudoku.mzn",),
        decision="grid",
        shape=lambda params: (params["size"], params["size"]),
        params=(
            Param("size", int, None, "board side n (default 9); the squarest box is used"),
            Param("box", str, None, "box shape RxC (rows x columns of a box), e.g. 2x3"),
            Param("choose", str, "fill", "ChooseSquare: 'fill' (the paper's fill-fraction "
                  "sampling) or 'random'"),
        ),
        check_params=logic.check_params,
        solver=logic.preferred_solver,
    ))


@hookimpl
def puzzle_random_solution(puzzle_type, params, rng, solve, transform):
    if not _mine(puzzle_type):
        return None
    n, r, c = logic.dims(params)
    board = solve(logic.seed_board(n, r, c, rng))
    if board is None:  # never seen; fall back to completing an empty board
        board = solve(tuple([0] * (n * n)))
    return None if board is None else transform(board)


@hookimpl
def puzzle_choose_square(puzzle_type, params, board, candidates, rng):
    if not _mine(puzzle_type) or params["choose"] != "fill":
        return None  # 'random' falls through to the host's uniform choice
    return logic.choose_fill(board, params["size"], candidates, rng)


@hookimpl
def puzzle_transformations(puzzle_type, params):
    if not _mine(puzzle_type):
        return None
    return [Transformation(name, draw) for name, draw in logic.transformations(*logic.dims(params))]


@hookimpl
def puzzle_features(puzzle_type, params, board):
    if not _mine(puzzle_type):
        return None
    return logic.features(board, *logic.dims(params))


@hookimpl
def puzzle_to_data(puzzle_type, params, board):
    if not _mine(puzzle_type):
        return None
    n, r, c = logic.dims(params)
    return {"r": r, "c": c, "givens": [list(board[i * n:(i + 1) * n]) for i in range(n)],
            "level": 0}


# The model's `level` parameter (models_mzn/sudoku.mzn), weakest first: naked singles,
# + hidden singles, + naked/hidden subsets, + pointing and box/line reduction.
LEVELS = (
    PropagationLevel("singles", {"level": 1}, "value-consistent all-different"),
    PropagationLevel("hidden", {"level": 2}, "+ every value once per unit (hidden singles)"),
    PropagationLevel("subsets", {"level": 3}, "domain-consistent all-different + hidden singles"),
    PropagationLevel("lines", {"level": 4}, "+ counts per box line (pointing, box/line)"),
)


@hookimpl
def puzzle_propagation_levels(puzzle_type, params):
    return LEVELS if _mine(puzzle_type) else None


@hookimpl
def puzzle_grading_model(puzzle_type, params):
    if not _mine(puzzle_type) or params["size"] != 9:
        return None
    return files(__package__) / "grading" / "sudoku-9x9.skops"


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
    if fmt == "line":
        return logic.format_line(board)
    return logic.format_text(board, *logic.dims(params))
