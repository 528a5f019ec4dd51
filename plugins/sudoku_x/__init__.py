"""Sudoku X (``sudoku-x``): Sudoku whose two long diagonals hold 1..n once each too.

The board is Sudoku's (a flat n x n board, the same text and line formats), drawn with
the diagonals shaded (on the play page too); it shares Sudoku's options (``--size``, ``--box``), reading,
writing, square chooser (by fill fraction, Sudoku's default) and the symmetries that
keep the diagonals (relabelling, reflections, quarter turns).
"""
from importlib.resources import files

from puzzle_engine import Parsed, Symmetry, Transformation, hookimpl
from puzzle_engine.render.svg import GridDrawing
from puzzle_engine_plugins.sudoku import Sudoku, drawing, logic
from puzzle_engine_plugins.sudoku.variant import CORE, SudokuVariant, boxes_of, lines_of

PUZZLE_ENGINE_CONTRACT = 3

#: Sudoku's symmetries that map the two diagonals onto themselves.
KEEP_DIAGONALS = ("relabel", "reflect", "rotate")
#: A diagonal square's shade: lighter than the engine's grey, so givens read clearly.
DIAGONAL_SHADE = "#e6e6e6"


def diagonals(n: int) -> list[tuple[str, str, list[int]]]:
    return [("the main diagonal", "diagonal", [i * n + i for i in range(n)]),
            ("the anti-diagonal", "diagonal", [i * n + n - 1 - i for i in range(n)])]


class SudokuX(SudokuVariant, Symmetry):
    name = "sudoku-x"
    description = "Sudoku X: Sudoku whose two long diagonals hold 1..n once each too."
    models = (CORE, files("puzzle_engine_plugins.sudoku_x") / "sudoku_x.mzn")
    params = Sudoku.params[:2]  # size and box, as Sudoku's; squares chosen by fill fraction

    def check_params(self, params):
        return self.boxed_params(params)

    def box_shape(self, params):
        return logic.dims(params)[1:]

    def model_data(self, params):
        return self.box_data(params)

    def units(self, params, instance):
        n, r, c = logic.dims(params)
        return lines_of(n) + boxes_of(n, r, c) + diagonals(n)

    def random_solution(self, params, rng, solve, transform):
        n = params["size"]
        seed = [0] * (n * n)  # a random main diagonal; the solver completes the rest
        for i, v in enumerate(rng.sample(range(1, n + 1), n)):
            seed[i * n + i] = v
        board = solve(tuple(seed))
        return None if board is None else transform(board)

    def choose_square(self, params, board, candidates, rng, solution):
        return logic.choose_fill(board, params["size"], candidates, rng)  # Sudoku's default

    def transformations(self, params):
        return [Transformation(name, draw) for name, draw in
                logic.transformations(*logic.dims(params)) if name in KEEP_DIAGONALS]

    def parse(self, params, text):
        params, board = self.parse_digits(text, params)
        return Parsed(params, self.check_units(params, board))

    def format(self, params, instance, fmt):
        return self.format_digits(params, instance, fmt)

    def play_regions(self, params, instance):
        return drawing.boxes(*logic.dims(params))

    def play_grid(self, params, instance, solution):
        grid = super().play_grid(params, instance, solution)
        shaded = sorted({i for _, _, squares in diagonals(params["size"]) for i in squares})
        return type(grid)(**{**grid.__dict__, "shaded": tuple(shaded)})

    def render_svg(self, params, instance, solution=None):
        n, r, c = logic.dims(params)
        picture = GridDrawing(n, n)
        for _, _, squares in diagonals(n):
            for i in squares:
                picture.shade(i, DIAGONAL_SHADE, name="diagonal")
        self.symbols(picture, params, instance, solution)
        picture.lines(drawing.boxes(n, r, c))
        return picture.to_string()

    def rules(self, params):
        n, r, c = logic.dims(params)
        return (f"Fill every row, column, {r}x{c} box and both long diagonals (the shaded "
                f"squares) with {logic.ALPHABET[0]}-{logic.ALPHABET[n - 1]}, each once.")


@hookimpl
def register_puzzle_types(register):
    register(SudokuX())
