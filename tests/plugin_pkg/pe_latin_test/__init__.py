"""Latin squares of order n (3 to 9): every row and every column holds 1..n once.

A third-party puzzle-engine plugin, written for contract 3, that uses only the public API
of ``puzzle_engine``. The tests build it into a wheel and install it, so it loads through
the entry-point group ``puzzle_engine`` exactly as any plugin from PyPI would. The model
is inline; ``GridPuzzle`` provides everything the plugin leaves out (the random full
board, ChooseSquare, isRemoveValid, JSON records, features); its symmetries are the
``Symmetry`` facet it opts into.
"""
from puzzle_engine import (GridPuzzle, Param, Parsed, PuzzleInputError, Symmetry, Transformation,
                           hookimpl)

PUZZLE_ENGINE_CONTRACT = 3

NAME = "latin"
MIN_SIZE, MAX_SIZE = 3, 9
DEFAULT_SIZE = 4
SYMBOLS = "123456789"  # the value v is written as SYMBOLS[v - 1]; '.' is an empty square

# all_different_int, not alldifferent: Debian's Gecode library overrides only the old-style
# predicate, so alldifferent would be decomposed there (see plugins/sudoku/sudoku.mzn).
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


class Latin(GridPuzzle, Symmetry):
    name = NAME
    description = "Latin square: every row and column holds 1..n once."
    models = (MODEL,)
    decision = "grid"
    params = (Param("size", int, DEFAULT_SIZE, f"order n, {MIN_SIZE} to {MAX_SIZE}"),)

    def check_params(self, params):
        return check_params(params)

    def shape(self, params):
        return params["size"], params["size"]

    def to_data(self, params, instance, solver):
        n = params["size"]
        return {"n": n, "givens": self.rows(instance, n)}

    def parse(self, params, text):
        """One line of n*n symbols ('.' empty), or the "text" format (whitespace is
        ignored). Without --size, n is inferred from the length."""
        cells = [ch for ch in text if not ch.isspace()]
        if not cells:
            raise PuzzleInputError("empty puzzle: expected n*n squares")
        n = params.get("size")
        if n is None:
            n = next((k for k in range(MIN_SIZE, MAX_SIZE + 1) if k * k == len(cells)), None)
            if n is None:
                raise PuzzleInputError(f"wrong length: {len(cells)} squares; a Latin square of "
                                       f"order n has n*n squares, n from {MIN_SIZE} to {MAX_SIZE}")
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
                raise PuzzleInputError(f"bad symbol '{ch}' at row {i // n + 1}, column "
                                       f"{i % n + 1} (expected 1-{n} or '.')")
        for i in range(n):
            for what, line in (("row", board[i * n:(i + 1) * n]), ("column", board[i::n])):
                seen = [v for v in line if v]
                dup = next((v for v in seen if seen.count(v) > 1), None)
                if dup is not None:
                    raise PuzzleInputError(f"conflicting givens: {dup} appears twice in "
                                           f"{what} {i + 1}")
        return Parsed(canonical, tuple(board))

    def format(self, params, instance, fmt):
        n = params["size"]
        cells = ["." if v == 0 else SYMBOLS[v - 1] for v in instance]
        if fmt == "line":
            return "".join(cells)
        return "\n".join(" ".join(cells[i * n:(i + 1) * n]) for i in range(n))

    def transformations(self, params):
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


@hookimpl
def register_puzzle_types(register):
    register(Latin())
