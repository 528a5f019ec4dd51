"""Paper 000's Sudoku generator, re-implemented with z3: a peer for bench_generate.py.

    benchmarks/.peers-venv/bin/python benchmarks/peers/z3_genpuzzles.py --size 9 --seed 1
    benchmarks/.peers-venv/bin/python benchmarks/peers/z3_genpuzzles.py --size 16 --seed 2 --target-empty 150

A faithful re-implementation of GenPuzzles (Algorithm 1) for Sudoku as sections 3.1.1 to
3.1.3 of the paper describe it, to measure what that approach costs:

  3.1.1  the declarative definition: one z3 Int per square, 1 <= X[i][j] <= n, Distinct on
         every row, column and box, and X[i][j] == board[i][j] for every given;
  3.1.2  the initial puzzle: one z3 solve of that definition;
  3.1.3  emptying squares: ChooseSquare picks a row by its fill fraction, then a column
         in that row by the column's fill fraction (rejection sampling); isRemoveValid makes
         one z3 call per removal, on the board without that square plus the constraint that
         the solution differs from the full board (S' != P_I, section 2 with k = 1): unsat
         means the solution is still unique and the square stays empty. A square that
         cannot be emptied goes to the list of squares that do not work and is not tried
         again. The loop stops when every square is either empty or in that list (or at
         --target-empty, the paper's parameter of section 4.2).

The complexity function and the transformations of Algorithm 1 (lines 10-17) are left out:
they are not part of generating one puzzle, which is what is timed here.

Prints one JSON line: seconds (generation, after z3 is imported), calls (z3 check() calls:
1 for the initial board + 1 per square tested), givens, empty, unknown (checks z3 gave up
on, 0 normally) and the puzzle (row-major, 0 = empty).

Only the standard library and z3 (``z3-solver`` on PyPI, installed by
benchmarks/setup_peers.sh into benchmarks/.peers-venv, never into the project's .venv).
All randomness comes from ``random.Random(seed)``.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import time

from z3 import And, CheckSatResult, Distinct, Int, Or, Solver, sat, unknown, unsat


def variables(n: int) -> list[list]:
    """X[i][j]: the value of square (i, j) (3.1.1).

    The paper names them 'x%d%d' % (i, j), which collides from n = 10 on (x1_11 and
    x11_1 would both be 'x111'), so the names here have separators. The paper's list
    comprehension also builds X transposed (i inner); here X[i] is row i, as the paper's
    constraints read it. Neither changes the model for z3.
    """
    return [[Int(f"x_{i}_{j}") for j in range(n)] for i in range(n)]


def sudoku_constraint(X: list[list], board: list[list[int]]) -> list:
    """valid_values + rows_distinct + cols_distinct + box_distinct + already_set (3.1.1),
    for n x n with b x b boxes (the paper's "three_by_three_distinct", generalised as it says)."""
    n = len(X)
    b = math.isqrt(n)
    valid_values = [And(X[i][j] >= 1, X[i][j] <= n) for i in range(n) for j in range(n)]
    rows_distinct = [Distinct(X[i]) for i in range(n)]
    cols_distinct = [Distinct([X[i][j] for i in range(n)]) for j in range(n)]
    box_distinct = [Distinct([X[b * k + i][b * l + j] for i in range(b) for j in range(b)])
                    for k in range(b) for l in range(b)]
    already_set = [X[i][j] == board[i][j] for i in range(n) for j in range(n) if board[i][j] != 0]
    return valid_values + rows_distinct + cols_distinct + box_distinct + already_set


def random_full_board(X: list[list], rng: random.Random) -> list[list[int]]:
    """GetRandomPuzzle (3.1.2): one z3 solve of the Sudoku constraints.

    The paper solves the bare definition; z3 then returns the same board on every run (the
    paper says so for Fillomino in 3.2). To get a different board per seed, the first row
    is fixed to a random permutation of 1..n drawn from rng before the one z3 call; z3 fills
    in the rest.
    """
    n = len(X)
    board = [[0] * n for _ in range(n)]
    board[0] = rng.sample(range(1, n + 1), n)
    s = Solver()
    s.add(sudoku_constraint(X, board))
    if s.check() != sat:
        raise RuntimeError("z3 found no full board")
    m = s.model()
    return [[m.eval(X[i][j]).as_long() for j in range(n)] for i in range(n)]


def pick(candidates: list[int], fraction, rng: random.Random) -> int:
    """The paper's rejection sampling (3.1.3): take a random candidate and a random number
    in [0, 1); keep the candidate when the number is below its fill fraction, else draw
    both again."""
    while True:
        c = rng.choice(candidates)
        if rng.random() < fraction(c):
            return c


def choose_square(board: list[list[int]], not_working: set, rng: random.Random) -> tuple[int, int]:
    """ChooseSquare (3.1.3): a row by its fill fraction (filled squares / n), then a column
    of that row by the column's fill fraction.

    Where the paper is vague: it does not say what happens when the drawn square is already
    empty or in the list of squares that do not work. Here only rows that still hold a
    square that can be tried are candidates, and in the chosen row only such columns, so
    every draw is a new square (Algorithm 1 tests each square once). Every candidate has a
    fill fraction above 0, so the sampling ends.
    """
    n = len(board)

    def open_square(i: int, j: int) -> bool:
        return board[i][j] != 0 and (i, j) not in not_working

    rows = [i for i in range(n) if any(open_square(i, j) for j in range(n))]
    row = pick(rows, lambda i: sum(v != 0 for v in board[i]) / n, rng)
    cols = [j for j in range(n) if open_square(row, j)]
    col = pick(cols, lambda j: sum(board[i][j] != 0 for i in range(n)) / n, rng)
    return row, col


def is_remove_valid(X: list[list], board: list[list[int]], full: list[list[int]],
                    i: int, j: int) -> CheckSatResult:
    """isRemoveValid (3.1.3 with K = 1, the single-call form of section 2): a fresh z3
    solver holds the temporary board (square (i, j) set to 0) and the constraint that the
    solution differs from the full board P_I somewhere. unsat: no other solution, the
    square can stay empty. Returns z3's answer (unsat, sat or unknown).

    The paper's "less than K ways" with K = 1 is read as "a unique solution", as its
    section 2 states it. An 'unknown' answer (z3 gave up) counts as not removable.
    """
    n = len(board)
    temp = [r[:] for r in board]
    temp[i][j] = 0
    s = Solver()
    s.add(sudoku_constraint(X, temp))
    s.add(Or([X[k][l] != full[k][l] for k in range(n) for l in range(n)]))
    return s.check()


def gen_puzzle(n: int, seed: int, target_empty: int | None = None) -> dict:
    """GenPuzzles (Algorithm 1) for one n x n Sudoku; returns the figures and the puzzle."""
    b = math.isqrt(n)
    if b * b != n or n < 4:
        raise SystemExit(f"--size {n}: the paper's model needs square boxes (4, 9, 16, 25, ...)")
    rng = random.Random(seed)
    start = time.perf_counter()
    X = variables(n)
    full = random_full_board(X, rng)
    calls = 1
    board = [r[:] for r in full]
    not_working: set[tuple[int, int]] = set()
    empty = unknowns = 0
    while empty + len(not_working) < n * n and (not target_empty or empty < target_empty):
        i, j = choose_square(board, not_working, rng)
        calls += 1
        answer = is_remove_valid(X, board, full, i, j)
        if answer == unsat:
            board[i][j] = 0
            empty += 1
        else:
            not_working.add((i, j))
            unknowns += answer == unknown
    seconds = time.perf_counter() - start
    return {"size": n, "seed": seed, "seconds": seconds, "calls": calls,
            "givens": n * n - empty, "empty": empty, "unknown": unknowns,
            "puzzle": "".join(f"{v}," for r in board for v in r).rstrip(",")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=9, help="board side n, a square (default 9)")
    ap.add_argument("--seed", type=int, default=1, help="seed of random.Random (default 1)")
    ap.add_argument("--target-empty", type=int, default=0,
                    help="stop once this many squares are empty (default 0: none)")
    args = ap.parse_args()
    print(json.dumps(gen_puzzle(args.size, args.seed, args.target_empty or None)), flush=True)


if __name__ == "__main__":
    main()
