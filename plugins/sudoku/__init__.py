"""The built-in Sudoku plugin: boxes of any shape r x c (4x4 up to 35x35)."""
from importlib.resources import files

from puzzle_engine import (Drawing, Explanation, GridPuzzle, Param, Parsed, Play,
                           PropagationLevel, Symmetry, Transformation, hookimpl)

from . import canonical, drawing, groups, logic, words

PUZZLE_ENGINE_CONTRACT = 3

# The model's `level` parameter (sudoku.mzn, beside this file), weakest first: naked singles,
# + hidden singles, + naked/hidden subsets, + pointing and box/line reduction.
LEVELS = (
    PropagationLevel("singles", {"level": 1}, "value-consistent all-different"),
    PropagationLevel("hidden", {"level": 2}, "+ every value once per unit (hidden singles)"),
    PropagationLevel("subsets", {"level": 3}, "domain-consistent all-different + hidden singles"),
    PropagationLevel("lines", {"level": 4}, "+ counts per box line (pointing, box/line)"),
)


class Sudoku(GridPuzzle, Symmetry, Explanation, Drawing, Play):
    name = "sudoku"
    description = "Sudoku with r x c boxes: every row, column and box holds 1..n once."
    models = (files("puzzle_engine_plugins.sudoku") / "sudoku.mzn",)
    decision = "grid"
    params = (
        Param("size", int, None, "board side n (default 9); the squarest box is used"),
        Param("box", str, None, "box shape RxC (rows x columns of a box), e.g. 2x3"),
        Param("choose", str, "fill", "ChooseSquare: 'fill' (the paper's fill-fraction "
              "sampling) or 'random'"),
    )

    def check_params(self, params):
        return logic.check_params(params)

    def preferred_solver(self, params):
        return None if params is None else logic.preferred_solver(params)

    def shape(self, params):
        return params["size"], params["size"]

    def to_data(self, params, instance, solver):
        n, r, c = logic.dims(params)
        return {"r": r, "c": c, "givens": self.rows(instance, n), "level": 0}

    def random_solution(self, params, rng, solve, transform):
        n, r, c = logic.dims(params)
        board = solve(logic.seed_board(n, r, c, rng))
        if board is None:  # never seen; fall back to completing an empty board
            board = solve(tuple([0] * (n * n)))
        return None if board is None else transform(board)

    def choose_square(self, params, board, candidates, rng, solution):
        if params["choose"] != "fill":
            return super().choose_square(params, board, candidates, rng, solution)
        return logic.choose_fill(board, params["size"], candidates, rng)

    def transformations(self, params):
        return [Transformation(name, draw)
                for name, draw in logic.transformations(*logic.dims(params))]

    def canonical_form(self, params, instance):
        return canonical.canonical(instance, *logic.dims(params))

    def features(self, params, instance, solution, checker):
        return logic.features(instance, *logic.dims(params))

    def constraint_groups(self, params, instance):
        return groups.constraint_groups(*logic.dims(params))

    def technique_name(self, params, technique):
        return words.technique_name(technique)

    def step_words(self, params, step):
        return words.step_words(step)

    def propagation_levels(self, params):
        return LEVELS

    def grading_model(self, params):
        if params["size"] != 9:
            return None
        return files(__package__) / "grading" / "sudoku-9x9.skops"

    def parse(self, params, text):
        canonical, board = logic.parse(text, params)
        return Parsed(canonical, board)

    def format(self, params, instance, fmt):
        if fmt == "line":
            return logic.format_line(instance)
        return logic.format_text(instance, *logic.dims(params))

    def render_svg(self, params, instance, solution=None):
        return drawing.render_svg(params, instance, solution)

    def play_grid(self, params, instance, solution):
        return drawing.play_grid(params, instance, solution)

    def rules(self, params):
        return drawing.rules(params)


@hookimpl
def register_puzzle_types(register):
    register(Sudoku())
