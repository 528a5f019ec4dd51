"""Skyscrapers, as a third-party plugin would write it (issue 38): an n x n Latin square of
building heights 1..n, with clues around it, each the number of buildings seen from
there (a taller one hides the shorter ones behind it). A clue may be missing.

The board is (n + 2) x (n + 2), row by row: the inner n x n squares are the player's
(0 empty), the border squares are *structure*, the clues: a number, or 0 for "no clue
here" (the corners are always 0). The model reads the clues as data, 0 included, from
``to_data`` and ``checker_data``, so a clue square is fixed whatever it holds.

Text: one character a square, ``.`` for an empty square or a missing clue, ``*`` for a
corner; the line format is the rows joined.
"""
from __future__ import annotations

from puzzle_engine import GridPuzzle, Param, Parsed, PuzzleInputError, hookimpl

PUZZLE_ENGINE_CONTRACT = 3

MODEL = """
include "all_different_int.mzn";
int: n;
set of int: B = 1..n + 2;
set of int: IN = 2..n + 1;
% The board: 0 an empty inner square; on the border a clue, 0 for no clue.
array[B, B] of int: board;
array[B, B] of var 0..n: grid;
predicate border(int: i, int: j) = i in {1, n + 2} \\/ j in {1, n + 2};
% The structure is data: every border square holds its clue, 0 included.
constraint forall(i, j in B where border(i, j))(grid[i, j] = board[i, j]);
constraint forall(i, j in IN where board[i, j] > 0)(grid[i, j] = board[i, j]);
constraint forall(i, j in IN)(grid[i, j] >= 1);
constraint forall(i in IN)(all_different_int([grid[i, j] | j in IN]));
constraint forall(j in IN)(all_different_int([grid[i, j] | i in IN]));
function var int: seen(array[int] of var int: xs) =
    sum(k in index_set(xs))(bool2int(forall(l in index_set(xs) where l < k)(xs[l] < xs[k])));
constraint forall(j in IN where board[1, j] > 0)(seen([grid[i, j] | i in IN]) = board[1, j]);
constraint forall(j in IN where board[n + 2, j] > 0)(
    seen([grid[i, j] | i in reverse(IN)]) = board[n + 2, j]);
constraint forall(i in IN where board[i, 1] > 0)(seen([grid[i, j] | j in IN]) = board[i, 1]);
constraint forall(i in IN where board[i, n + 2] > 0)(
    seen([grid[i, j] | j in reverse(IN)]) = board[i, n + 2]);
"""


def seen(heights) -> int:
    """The buildings seen along ``heights``, from its start."""
    count, top = 0, 0
    for h in heights:
        if h > top:
            count, top = count + 1, h
    return count


def clues_of(inner: list[list[int]]) -> dict[tuple[int, int], int]:
    """Every clue of a filled inner square, by border square (row, column), 0-based on
    the (n + 2) board."""
    n = len(inner)
    cols = [[inner[i][j] for i in range(n)] for j in range(n)]
    clues = {}
    for k in range(n):
        clues[0, k + 1] = seen(cols[k])
        clues[n + 1, k + 1] = seen(cols[k][::-1])
        clues[k + 1, 0] = seen(inner[k])
        clues[k + 1, n + 1] = seen(inner[k][::-1])
    return clues


class Skyscrapers(GridPuzzle):
    name = "skyscrapers_test"
    description = "Skyscrapers: heights 1..n, clues around (a missing clue is 0)."
    models = (MODEL,)
    decision = "grid"
    params = (Param("size", int, None, "the inner board's side, 3 to 6"),)

    def check_params(self, params):
        n = params.get("size") or 4
        if isinstance(n, bool) or not isinstance(n, int) or not 3 <= n <= 6:
            raise PuzzleInputError(f"bad --size {n!r}: expected 3 to 6")
        return {"size": n}

    def shape(self, params):
        return params["size"] + 2, params["size"] + 2

    def structure(self, params, board):
        m = params["size"] + 2
        return frozenset(i for i in range(m * m)
                         if i // m in (0, m - 1) or i % m in (0, m - 1))

    def to_data(self, params, instance, solver):
        return {"n": params["size"], "board": self.rows(instance, params["size"] + 2)}

    def checker_data(self, params, board, solver):
        # The compiled checks fix the givens themselves; the clues (structure) stay data.
        fixed = self.structure(params, board)
        return self.to_data(params, tuple(v if i in fixed else 0 for i, v in enumerate(board)),
                            solver)

    def random_solution(self, params, rng, solve, transform):
        n, m = params["size"], params["size"] + 2
        full = solve(tuple([0] * (m * m)))  # the heights; the clues are then computed
        if full is None:
            return None
        inner = [[full[(i + 1) * m + j + 1] for j in range(n)] for i in range(n)]
        board = list(full)
        for (i, j), v in clues_of(inner).items():
            board[i * m + j] = v
        return tuple(board)

    def format(self, params, instance, fmt):
        m = params["size"] + 2
        fixed = self.structure(params, instance)
        rows = ["".join("*" if i in fixed and (i // m in (0, m - 1) and i % m in (0, m - 1))
                        else str(v) if v else "." for i, v in enumerate(instance[r * m:(r + 1) * m],
                                                                       r * m))
                for r in range(m)]
        return "".join(rows) if fmt == "line" else "\n".join(rows)

    def parse(self, params, text):
        chars = [c for c in text if not c.isspace()]
        m = round(len(chars) ** 0.5)
        if m * m != len(chars) or not 5 <= m <= 8:
            raise PuzzleInputError(f"wrong length {len(chars)}: expected (n + 2)^2 squares")
        n = m - 2
        if params.get("size") not in (None, n):
            raise PuzzleInputError(f"a board of size {n}, not {params['size']}")
        board = []
        for i, c in enumerate(chars):
            if c in ".*":
                board.append(0)
            elif c.isdigit() and 1 <= int(c) <= n:
                board.append(int(c))
            else:
                raise PuzzleInputError(f"row {i // m + 1}, column {i % m + 1}: bad symbol {c!r}")
        return Parsed({"size": n}, tuple(board))


@hookimpl
def register_puzzle_types(register):
    register(Skyscrapers())
