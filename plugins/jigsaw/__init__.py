"""Jigsaw Sudoku (``jigsaw``): every row, column and irregular region holds 1..n once.

The regions are drawn from the seed (``regions.draw``), kept when a solution exists, and
are structure: the board is the digits (n rows) then the region of each square (n rows,
``A`` for region 1...). Text: the digits, a blank line, the regions; the line format
joins the two with ``/``. Sizes 4 to 9.
"""
from importlib.resources import files

from puzzle_engine import Param, Parsed, PuzzleInputError, hookimpl
from puzzle_engine.render.svg import GridDrawing
from puzzle_engine_plugins.sudoku.logic import ALPHABET
from puzzle_engine_plugins.sudoku.variant import (CORE, MAX_VARIANT_SIZE, SudokuVariant,
                                                  connected, labelled, lines_of, read_labels,
                                                  reading_order, sections, write_labels)

from . import regions

PUZZLE_ENGINE_CONTRACT = 3

#: The letters of the regions in the text formats.
REGION_LETTERS = "ABCDEFGHI"
MIN_SIZE = 4


class Jigsaw(SudokuVariant):
    name = "jigsaw"
    description = "Jigsaw Sudoku: every row, column and irregular region holds 1..n once."
    models = (CORE, files("puzzle_engine_plugins.jigsaw") / "jigsaw.mzn")
    params = (Param("size", int, 9, f"board side n, {MIN_SIZE} to {MAX_VARIANT_SIZE}: "
                                    "n regions of n squares"),)
    layers = 2

    def check_params(self, params):
        n = params.get("size") or 9
        if isinstance(n, bool) or not isinstance(n, int) or not MIN_SIZE <= n <= MAX_VARIANT_SIZE:
            raise PuzzleInputError(f"bad size {n!r}: jigsaw boards run from {MIN_SIZE} to "
                                   f"{MAX_VARIANT_SIZE}")
        return {"size": n}

    def region_of(self, params, board) -> tuple[int, ...]:
        n = params["size"]
        return tuple(board[n * n:2 * n * n])

    def units(self, params, instance):
        return lines_of(params["size"]) + [
            (f"region {g}", "region", squares)
            for g, squares in labelled(self.region_of(params, instance)).items()]

    def random_solution(self, params, rng, solve, transform):
        n = params["size"]
        first_row = rng.sample(range(1, n + 1), n)  # relabels the least completion
        board = solve(tuple(first_row) + (0,) * (n * n - n) + tuple(regions.draw(n, rng)))
        return None if board is None else transform(board)  # None: no solution, draw again

    def format(self, params, instance, fmt):
        layout = write_labels(self.region_of(params, instance), REGION_LETTERS,
                              params["size"], fmt)
        return self.format_digits(params, instance, fmt) + ("/" if fmt == "line" else "\n\n") \
            + layout

    def parse(self, params, text):
        parts = sections(text)
        if len(parts) != 2:
            raise PuzzleInputError(f"a jigsaw is the digits and the regions (two parts, split "
                                   f"by '/' or a blank line), not {len(parts)} part(s)")
        labels = read_labels(parts[1], REGION_LETTERS, None, "regions")
        n = round(len(labels) ** 0.5)
        if not MIN_SIZE <= n <= MAX_VARIANT_SIZE:
            raise PuzzleInputError(f"bad size {n}: jigsaw boards run from {MIN_SIZE} to "
                                   f"{MAX_VARIANT_SIZE}")
        if params.get("size") not in (None, n):
            raise PuzzleInputError(f"the regions make a {n}x{n} board, not --size {params['size']}")
        for g, squares in labelled(labels).items():
            if g > n or len(squares) != n or not connected(squares, n):
                raise PuzzleInputError(f"region {REGION_LETTERS[g - 1]} must be {n} squares "
                                       f"joined side by side (it has {len(squares)})")
        _, digits = self.parse_digits(parts[0], {"box": f"1x{n}"})
        params = {"size": n}
        board = digits + tuple(reading_order(labels))
        return Parsed(params, self.check_units(params, board))

    def play_regions(self, params, instance):
        return self.region_of(params, instance)

    def render_svg(self, params, instance, solution=None):
        n = params["size"]
        picture = GridDrawing(n, n)
        self.symbols(picture, params, instance, solution)
        picture.lines(self.region_of(params, instance))
        return picture.to_string()

    def rules(self, params):
        n = params["size"]
        return (f"Fill every row, column and outlined region with {ALPHABET[0]}-"
                f"{ALPHABET[n - 1]}, each once.")


@hookimpl
def register_puzzle_types(register):
    register(Jigsaw())
