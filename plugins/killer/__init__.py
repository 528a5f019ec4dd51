"""Killer Sudoku (``killer``): Sudoku whose dashed cages each hold distinct digits that
add up to the cage's sum, usually with no given digit at all.

The cages are drawn from a full grid (``cages.draw``) and are structure: the board is
the digits (n rows), the cage of each square (n rows), then each cage's sum on its first
square (n rows, 0 elsewhere). Text: the digits, a blank line, the cages (a letter a
cage: ``A``-``Z``, then ``a``-``z``), a blank line, the sums in cage order; the line
format joins the three with ``/`` (sums split by commas). Sizes 4 to 9 with boxes.
"""
from importlib.resources import files

from puzzle_engine import ConstraintGroup, Param, Parsed, PuzzleInputError, hookimpl
from puzzle_engine.render.svg import GridDrawing
from puzzle_engine_plugins.sudoku import Sudoku, drawing, logic
from puzzle_engine_plugins.sudoku.variant import (CORE, SudokuVariant, boxes_of, conflict,
                                                  connected, labelled, lines_of, read_labels,
                                                  reading_order, sections, write_labels)

from . import cages, picture

PUZZLE_ENGINE_CONTRACT = 3

#: The letters of the cages in the text formats.
CAGE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


class Killer(SudokuVariant):
    name = "killer"
    description = "Killer Sudoku: cages of distinct digits with given sums, and few givens (none with --max-givens 0)."
    models = (CORE, files("puzzle_engine_plugins.killer") / "killer.mzn")
    params = Sudoku.params[:2] + (  # size and box, as Sudoku's
        Param("max_givens", int, None, "draw again until a puzzle needs at most this many "
              "givens (0: none; default: as few as uniqueness allows)"),)
    layers = 3

    def check_params(self, params):
        most = params.get("max_givens")
        if most is not None and (isinstance(most, bool) or not isinstance(most, int) or most < 0):
            raise PuzzleInputError(f"bad --max-givens {most!r}: expected a whole number from 0")
        return {**self.boxed_params(params), "max_givens": most}

    def accept_puzzle(self, params, instance, solution):
        most = params["max_givens"]
        return most is None or self.givens(params, instance) <= most

    def box_shape(self, params):
        return logic.dims(params)[1:]

    def model_data(self, params):
        return self.box_data(params)

    def cage_of(self, params, board) -> tuple[int, ...]:
        n = params["size"]
        return tuple(board[n * n:2 * n * n])

    def sums(self, params, board) -> dict[int, int]:
        """Each cage's sum, by cage number."""
        n = params["size"]
        return {g: sum(board[2 * n * n + i] for i in squares)
                for g, squares in labelled(self.cage_of(params, board)).items()}

    def units(self, params, instance):
        n, r, c = logic.dims(params)
        return lines_of(n) + boxes_of(n, r, c)

    def extra_groups(self, params, instance):
        return [ConstraintGroup(f"cage {g} (sum {total})", f"cage_rule({g})", 0.0, "cage")
                for g, total in self.sums(params, instance).items()]

    def random_solution(self, params, rng, solve, transform):
        n, r, c = logic.dims(params)
        full = solve(logic.seed_board(n, r, c, rng) + (0,) * (2 * n * n))
        if full is None:
            return None
        digits = full[:n * n]
        cage = cages.draw(digits, n, rng)
        if max(cage) > len(CAGE_LETTERS):
            return None
        return tuple(digits) + tuple(cage) + tuple(cages.sums(digits, cage))

    def format(self, params, instance, fmt):
        n = params["size"]
        sums = [str(v) for v in self.sums(params, instance).values()]
        parts = [self.format_digits(params, instance, fmt),
                 write_labels(self.cage_of(params, instance), CAGE_LETTERS, n, fmt),
                 ",".join(sums) if fmt == "line" else " ".join(sums)]
        return ("/" if fmt == "line" else "\n\n").join(parts)

    def parse(self, params, text):
        parts = sections(text)
        if len(parts) != 3:
            raise PuzzleInputError(f"a killer is the digits, the cages and the sums (three "
                                   f"parts, split by '/' or blank lines), not {len(parts)} part(s)")
        params, digits = self.parse_digits(parts[0], params)
        n = params["size"]
        labels = read_labels(parts[1], CAGE_LETTERS, n, "cages")
        squares = labelled(labels)
        totals = parts[2].replace(",", " ").split()
        if len(totals) != len(squares) or max(squares) != len(squares):
            raise PuzzleInputError(f"the cages use {len(squares)} letters (from A, none "
                                   f"skipped) but {len(totals)} sums are given")
        board = list(digits) + [0] * (2 * n * n)
        for (g, members), total in zip(squares.items(), totals):
            most = sum(range(n - len(members) + 1, n + 1))
            if not connected(members, n) or len(members) > n:
                raise PuzzleInputError(f"cage {CAGE_LETTERS[g - 1]} must be at most {n} "
                                       "squares joined side by side")
            if not total.isdigit() or not 1 <= int(total) <= most:
                raise PuzzleInputError(f"bad sum '{total}' of cage {CAGE_LETTERS[g - 1]} "
                                       f"({len(members)} squares hold 1 to {most})")
            board[2 * n * n + members[0]] = int(total)
        board[n * n:2 * n * n] = reading_order(labels)  # each sum stays on its first square
        found = conflict(board, [(f"cage {g}", "cage", members)
                                 for g, members in labelled(board[n * n:2 * n * n]).items()])
        if found:
            raise PuzzleInputError(f"conflicting givens: {found}")
        return Parsed(params, self.check_units(params, board))

    def play_regions(self, params, instance):
        return self.cage_of(params, instance)

    def play_grid(self, params, instance, solution):
        grid = super().play_grid(params, instance, solution)
        cages_by = labelled(self.cage_of(params, instance))
        cage_units = tuple(tuple(s) for s in cages_by.values())
        totals = self.sums(params, instance)
        # Each cage's sum in the corner of its first square (in reading order), as printed.
        labels = tuple((squares[0], str(totals[g])) for g, squares in cages_by.items())
        return type(grid)(**{**grid.__dict__, "rule": "script", "script": picture.CAGE_RULE,
                             "units": grid.units + cage_units, "labels": labels,
                             "rules": f"{self.rules(params)} The cages are outlined thick."})

    def render_svg(self, params, instance, solution=None):
        n, r, c = logic.dims(params)
        board = GridDrawing(n, n)
        self.symbols(board, params, instance, solution)
        board.lines(drawing.boxes(n, r, c))
        picture.cages(board, self.cage_of(params, instance), self.sums(params, instance))
        return board.to_string()

    def rules(self, params):
        n, r, c = logic.dims(params)
        return (f"Fill every row, column and {r}x{c} box with {logic.ALPHABET[0]}-"
                f"{logic.ALPHABET[n - 1]}, each once; the digits in a dashed cage differ "
                "and add up to the number in its corner.")


@hookimpl
def register_puzzle_types(register):
    register(Killer())
