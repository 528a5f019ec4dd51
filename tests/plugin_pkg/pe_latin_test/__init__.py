"""Latin squares of order n: every row and column holds 1..n once. A third-party plugin
that uses only the public API of puzzle_engine."""
import math

from puzzle_engine import Param, Parsed, PuzzleInputError, PuzzleType, Transformation, hookimpl

NAME = "latin"
MODEL = """
include "all_different_int.mzn";
int: n;
array[1..n, 1..n] of 0..n: givens;
array[1..n, 1..n] of var 1..n: grid;
constraint forall(i, j in 1..n where givens[i, j] > 0)(grid[i, j] = givens[i, j]);
constraint forall(i in 1..n)(all_different_int([grid[i, j] | j in 1..n]));
constraint forall(j in 1..n)(all_different_int([grid[i, j] | i in 1..n]));
"""


def check_params(raw):
    n = raw.get("size") or 4
    if not 3 <= n <= 9:
        raise PuzzleInputError(f"bad size {n}: Latin squares run from 3 to 9")
    return {"size": n}


@hookimpl
def puzzle_register_types(register):
    register(PuzzleType(name=NAME, models=(MODEL,), decision="grid",
                        shape=lambda params: (params["size"], params["size"]),
                        params=(Param("size", int, None, "order n (default 4)"),),
                        check_params=check_params, description="Latin square"))


def _mine(puzzle_type):
    return puzzle_type.name == NAME


@hookimpl
def puzzle_to_data(puzzle_type, params, board):
    if not _mine(puzzle_type):
        return None
    n = params["size"]
    return {"n": n, "givens": [list(board[i * n:(i + 1) * n]) for i in range(n)]}


@hookimpl
def puzzle_parse(puzzle_type, params, text):
    if not _mine(puzzle_type):
        return None
    cells = [ch for ch in text if not ch.isspace()]
    n = params.get("size") or math.isqrt(len(cells))
    if n * n != len(cells):
        raise PuzzleInputError(f"wrong length: {len(cells)} cells, expected {n * n}")
    canonical = check_params({"size": n})
    board = []
    for i, ch in enumerate(cells):
        if ch == ".":
            board.append(0)
        elif ch.isdigit() and 1 <= int(ch) <= n:
            board.append(int(ch))
        else:
            raise PuzzleInputError(f"bad symbol '{ch}' at row {i // n + 1}, column {i % n + 1}")
    return Parsed(canonical, tuple(board))


@hookimpl
def puzzle_format(puzzle_type, params, board, fmt):
    if not _mine(puzzle_type):
        return None
    n = params["size"]
    cells = ["." if v == 0 else str(v) for v in board]
    if fmt == "line":
        return "".join(cells)
    return "\n".join(" ".join(cells[i * n:(i + 1) * n]) for i in range(n))


@hookimpl
def puzzle_transformations(puzzle_type, params):
    if not _mine(puzzle_type):
        return None
    n = params["size"]

    def relabel(rng):
        perm = [0] + rng.sample(range(1, n + 1), n)
        return lambda b: tuple(perm[v] for v in b)

    def rows(rng):
        p = rng.sample(range(n), n)
        return lambda b: tuple(b[p[i] * n + j] for i in range(n) for j in range(n))

    def columns(rng):
        p = rng.sample(range(n), n)
        return lambda b: tuple(b[i * n + p[j]] for i in range(n) for j in range(n))

    return [Transformation("relabel", relabel), Transformation("rows", rows),
            Transformation("columns", columns)]
