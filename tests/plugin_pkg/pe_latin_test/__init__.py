"""Latin squares of order n (3 to 9): every row and every column holds 1..n once.

A third-party puzzle-engine plugin that uses only the public API of ``puzzle_engine``.
The tests build it into a wheel and install it, so it loads through the entry-point
group ``puzzle_engine`` exactly as any plugin from PyPI would. The model is inline.
"""
from puzzle_engine import Param, Parsed, PuzzleInputError, PuzzleType, Transformation, hookimpl

NAME = "latin"
MIN_SIZE, MAX_SIZE = 3, 9
DEFAULT_SIZE = 4
SYMBOLS = "123456789"  # the value v is written as SYMBOLS[v - 1]; '.' is an empty square

# all_different_int, not alldifferent: Debian's Gecode library overrides only the old-style
# predicate, so alldifferent would be decomposed there (see models_mzn/sudoku.mzn).
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
    n = raw.get("size")
    if n is None:
        n = DEFAULT_SIZE
    if isinstance(n, bool) or not isinstance(n, int) or not MIN_SIZE <= n <= MAX_SIZE:
        raise PuzzleInputError(f"bad size {n!r}: Latin squares run from {MIN_SIZE} to {MAX_SIZE}")
    return {"size": n}


@hookimpl
def puzzle_register_types(register):
    register(PuzzleType(name=NAME, models=(MODEL,), decision="grid",
                        shape=lambda params: (params["size"], params["size"]),
                        params=(Param("size", int, DEFAULT_SIZE,
                                      f"order n, {MIN_SIZE} to {MAX_SIZE}"),),
                        check_params=check_params,
                        description="Latin square: every row and column holds 1..n once."))


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
    """One line of n*n symbols ('.' empty), or the "text" format (whitespace is ignored).
    Without --size, n is inferred from the length."""
    if not _mine(puzzle_type):
        return None
    cells = [ch for ch in text if not ch.isspace()]
    if not cells:
        raise PuzzleInputError("empty puzzle: expected n*n squares")
    n = params.get("size")
    if n is None:
        n = next((k for k in range(MIN_SIZE, MAX_SIZE + 1) if k * k == len(cells)), None)
        if n is None:
            raise PuzzleInputError(f"wrong length: {len(cells)} squares; a Latin square of order "
                                   f"n has n*n squares, n from {MIN_SIZE} to {MAX_SIZE}")
    canonical = check_params({"size": n})
    if len(cells) != n * n:
        raise PuzzleInputError(f"wrong length: {len(cells)} squares, expected {n * n} "
                               f"for order {n}")
    board = []
    for i, ch in enumerate(cells):
        if ch == ".":
            board.append(0)
        elif ch in SYMBOLS[:n]:
            board.append(SYMBOLS.index(ch) + 1)
        else:
            raise PuzzleInputError(f"bad symbol '{ch}' at row {i // n + 1}, column {i % n + 1} "
                                   f"(expected 1-{n} or '.')")
    for i in range(n):
        for what, line in (("row", board[i * n:(i + 1) * n]), ("column", board[i::n])):
            seen = [v for v in line if v]
            dup = next((v for v in seen if seen.count(v) > 1), None)
            if dup is not None:
                raise PuzzleInputError(f"conflicting givens: {dup} appears twice in {what} {i + 1}")
    return Parsed(canonical, tuple(board))


@hookimpl
def puzzle_format(puzzle_type, params, board, fmt):
    if not _mine(puzzle_type):
        return None
    n = params["size"]
    cells = ["." if v == 0 else SYMBOLS[v - 1] for v in board]
    if fmt == "line":
        return "".join(cells)
    return "\n".join(" ".join(cells[i * n:(i + 1) * n]) for i in range(n))


@hookimpl
def puzzle_transformations(puzzle_type, params):
    if not _mine(puzzle_type):
        return None
    n = params["size"]

    def relabel(rng):
        perm = [0] + rng.sample(range(1, n + 1), n)  # 0 (empty) stays empty
        return lambda b: tuple(perm[v] for v in b)

    def rows(rng):
        p = rng.sample(range(n), n)
        return lambda b: tuple(b[p[i] * n + j] for i in range(n) for j in range(n))

    def columns(rng):
        p = rng.sample(range(n), n)
        return lambda b: tuple(b[i * n + p[j]] for i in range(n) for j in range(n))

    return [Transformation("relabel", relabel), Transformation("rows", rows),
            Transformation("columns", columns)]
