"""Peaceful rooks: place so many white and so many black rooks on a board with walls
that no rook attacks one of the other colour. A rook attacks along its row and column
until its ray meets a wall or any piece.

A puzzle is grown (strategy ``growing``): a random board of walls with no rook to place,
then one rook more at a time, of the colour that has fewer (either, when they are
equal), while the puzzle still has a placement. A level is kept when it has one
placement up to swapping the colours (criterion ``unique-modulo-symmetry``), which is a
symmetry of the rules only when both colours count the same rooks.
"""
import re
from pathlib import Path
from typing import NamedTuple

from puzzle_engine import (Codec, Grading, Growing, Param, Parsed, PuzzleInputError, PuzzleType,
                           hookimpl)

PUZZLE_ENGINE_CONTRACT = 3

EMPTY, WHITE, BLACK, WALL = 0, 1, 2, 3
SHOWN = {EMPTY: ".", WHITE: "W", BLACK: "B", WALL: "#"}
READ = {v: k for k, v in SHOWN.items()}


class Level(NamedTuple):
    """A puzzle: the board (``EMPTY`` or ``WALL`` per square, row by row) and how many
    rooks of each colour to place."""

    size: int
    board: tuple[int, ...]
    white: int
    black: int


def rows_text(board, size, pieces=False):
    """The board as a list of row strings."""
    allowed = SHOWN if pieces else {EMPTY: ".", WALL: "#"}
    return ["".join(allowed[v] for v in board[r * size:(r + 1) * size]) for r in range(size)]


def read_rows(rows, pieces=False):
    """A flat board from row strings; a bad symbol or a board that is not square is
    one line naming it."""
    allowed = ".WB#" if pieces else ".#"
    size = len(rows)
    board = []
    for r, row in enumerate(rows, 1):
        if len(row) != size:
            raise PuzzleInputError(f"row {r} has {len(row)} squares, expected {size} "
                                   "(the board is square)")
        for c, ch in enumerate(row, 1):
            if ch not in allowed:
                raise PuzzleInputError(f"row {r}, column {c}: unexpected {ch!r} "
                                       f"(expected one of {' '.join(allowed)})")
            board.append(READ[ch])
    return tuple(board)


HEADER = re.compile(r"^\s*white\s+(\d+)\s*,\s*black\s+(\d+)\s*:?(.*)$", re.DOTALL)


class PeacefulRooks(PuzzleType, Codec, Growing, Grading):
    name = "peaceful_rooks"
    description = ("Peaceful rooks: place white and black rooks so that no rook attacks "
                   "one of the other colour (walls and pieces stop a ray).")
    params = (
        Param("size", int, 4, "side of the square board (3 to 6)"),
        Param("walls", int, None, "walls on a random board (default: the side)"),
    )
    models = (Path(__file__).with_name("rooks.mzn"),)
    decision = "cell"
    strategy = "growing"
    criterion = "unique-modulo-symmetry"

    def check_params(self, params):
        size, walls = params["size"], params["walls"]
        if isinstance(size, bool) or not isinstance(size, int) or not 3 <= size <= 6:
            raise PuzzleInputError(f"bad --size {size!r}: expected 3 to 6")
        if walls is None:
            walls = size
        if isinstance(walls, bool) or not isinstance(walls, int) or \
                not 0 <= walls <= size * size - 2:
            raise PuzzleInputError(f"bad --walls {walls!r}: expected 0 to {size * size - 2}")
        return {"size": size, "walls": walls}

    # -- growing ------------------------------------------------------------------------
    def random_base(self, params, rng):
        n = params["size"]
        walls = set(rng.sample(range(n * n), params["walls"]))
        return Level(n, tuple(WALL if i in walls else EMPTY for i in range(n * n)), 0, 0)

    def grow(self, params, instance, rng):
        if instance.white + instance.black >= instance.board.count(EMPTY):
            return []
        more_white = instance._replace(white=instance.white + 1)
        more_black = instance._replace(black=instance.black + 1)
        if instance.white < instance.black:
            return [more_white, more_black]
        if instance.black < instance.white:
            return [more_black, more_white]
        return rng.sample([more_white, more_black], 2)

    def complete(self, params, instance):
        return instance.white >= 1 and instance.black >= 1

    # -- solving ------------------------------------------------------------------------
    def to_data(self, params, instance, solver):
        n = instance.size
        return {"n": n, "white": instance.white, "black": instance.black,
                "wall": [[int(instance.board[r * n + c] == WALL) for c in range(n)]
                         for r in range(n)]}

    def from_solution(self, params, values):
        return tuple(int(v) for row in values[self.decision] for v in row)

    def solution_key(self, params, solution):
        # Every solution of one puzzle has the same counts, so whether swapping the
        # colours is a symmetry can be read off any one of them.
        if solution.count(WHITE) != solution.count(BLACK):
            return solution
        swapped = tuple({WHITE: BLACK, BLACK: WHITE}.get(v, v) for v in solution)
        return min(solution, swapped)

    def search_variables(self, params, instance):
        return [i for i, v in enumerate(instance.board) if v == EMPTY]

    def features(self, params, instance, solution, checker):
        return {"squares": float(instance.board.count(EMPTY)),
                "rooks": float(instance.white + instance.black)}

    # -- reading and writing ------------------------------------------------------------
    def to_json(self, params, instance, solution):
        record = {"board": rows_text(instance.board, instance.size),
                  "white": instance.white, "black": instance.black}
        if solution is not None:
            record["solution"] = rows_text(solution, instance.size, pieces=True)
        return record

    def from_json(self, params, record):
        board, white, black = record.get("board"), record.get("white"), record.get("black")
        if not isinstance(board, list) or not all(isinstance(r, str) for r in board):
            raise PuzzleInputError("field 'board' must be a list of row strings")
        for field, value in (("white", white), ("black", black)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise PuzzleInputError(f"field '{field}' must be a whole number from 0")
        level = Level(len(board), read_rows(board), white, black)
        return self._checked(params, level)

    def format(self, params, instance, fmt):
        head = f"white {instance.white}, black {instance.black}"
        rows = rows_text(instance.board, instance.size)
        return f"{head}: {'/'.join(rows)}" if fmt == "line" else "\n".join([head, *rows])

    def format_solution(self, params, solution, fmt):
        size = round(len(solution) ** 0.5)
        rows = rows_text(solution, size, pieces=True)
        return "/".join(rows) if fmt == "line" else "\n".join(rows)

    def parse(self, params, text):
        m = HEADER.match(text)
        if not m:
            raise PuzzleInputError("a peaceful rooks puzzle starts with 'white N, black M'")
        rows = [r.strip() for r in re.split(r"[/\n]", m.group(3)) if r.strip()]
        if len(rows) < 3:
            raise PuzzleInputError(f"the board has {len(rows)} rows, expected at least 3")
        board = read_rows(rows)
        level = Level(len(rows), board, int(m.group(1)), int(m.group(2)))
        canonical = self.check_params({"size": params.get("size") or level.size,
                                       "walls": board.count(WALL)
                                       if params.get("walls") is None else params["walls"]})
        return Parsed(canonical, self._checked(canonical, level))

    @staticmethod
    def _checked(params, level):
        if level.size != params["size"]:
            raise PuzzleInputError(f"the board is {level.size}x{level.size}, not "
                                   f"{params['size']}x{params['size']} (--size)")
        if level.board.count(WALL) != params["walls"]:
            raise PuzzleInputError(f"the board has {level.board.count(WALL)} walls, not "
                                   f"{params['walls']} (--walls)")
        if level.white + level.black > level.board.count(EMPTY):
            raise PuzzleInputError(f"{level.white + level.black} rooks cannot stand on "
                                   f"{level.board.count(EMPTY)} free squares")
        return level


@hookimpl
def register_puzzle_types(register):
    register(PeacefulRooks())
