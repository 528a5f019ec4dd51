"""Sudoku with r x c boxes: pure functions, no I/O. Boards are flat, row-major, 0 = empty.

Box shape ``RxC``: each box has R rows and C columns, n = R*C. The board has C bands
(horizontal groups of R rows) and R stacks (vertical groups of C columns).
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from puzzle_engine import Board, PuzzleInputError

#: Symbols for the values 1..35: the digits 1-9, then letters. ``.`` (or ``0``) is empty.
ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MIN_SIZE, MAX_SIZE = 4, len(ALPHABET)
CHOOSERS = ("fill", "random")


# -- parameters ---------------------------------------------------------------------------
def squarest_box(n: int) -> tuple[int, int]:
    """The box R x C with R*C = n, R <= C and R as large as possible (6 -> 2x3, 12 -> 3x4)."""
    r = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
    return r, n // r


def parse_box(text: str) -> tuple[int, int]:
    try:
        r, c = (int(x) for x in str(text).lower().split("x"))
    except ValueError:
        raise PuzzleInputError(f"bad --box '{text}': expected RxC, e.g. 3x3 or 2x3") from None
    if r < 1 or c < 1:
        raise PuzzleInputError(f"bad --box '{text}': both sides must be at least 1")
    return r, c


def preferred_solver(params: dict[str, Any]) -> str | None:
    """The SAT back end up to 16x16: its uniqueness checks are questions by assumptions
    to one CaDiCaL kept in the process, which keeps what it learnt (0.8 ms a 9x9 check,
    7.6 ms a 16x16 one), and it generates with the least CPU of the exact solvers there
    (docs/solvers.md). Every exact solver makes the same puzzle from a seed, so the choice
    changes no puzzle. CP-SAT above 16x16, where its checks are 5 to 20 times faster than
    Chuffed's and Gecode's time out (docs/performance.md)."""
    return "cp-sat" if params["size"] > 16 else "sat"


def check_params(raw: dict[str, Any]) -> dict[str, Any]:
    """Canonical params ``{"size", "box", "choose"}`` from ``--size``/``--box``/``--choose``."""
    size, box = raw.get("size"), raw.get("box")
    if box is not None:
        r, c = parse_box(box)
        if size is not None and size != r * c:
            raise PuzzleInputError(f"--size {size} does not match --box {box} ({r}x{c} boxes "
                                   f"make a {r * c}x{r * c} board)")
        size = r * c
    else:
        size = 9 if size is None else size
        if not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
            raise PuzzleInputError(f"bad size {size}: Sudoku sizes run from {MIN_SIZE} to {MAX_SIZE}")
        r, c = squarest_box(size)
        if r == 1:
            raise PuzzleInputError(f"bad size {size}: {size} is prime, so no box shape has both "
                                   f"sides above 1 (use --box 1x{size} to force one)")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise PuzzleInputError(f"bad size {size}: Sudoku sizes run from {MIN_SIZE} to {MAX_SIZE}")
    choose = raw.get("choose") or "fill"
    if choose not in CHOOSERS:
        raise PuzzleInputError(f"bad --choose '{choose}': expected one of {', '.join(CHOOSERS)}")
    return {"size": size, "box": f"{r}x{c}", "choose": choose}


def dims(params) -> tuple[int, int, int]:
    r, c = parse_box(params["box"])
    return r * c, r, c


# -- serialisation ------------------------------------------------------------------------
def format_line(board: Board) -> str:
    return "".join(ALPHABET[v - 1] if v else "." for v in board)


def format_text(board: Board, n: int, r: int, c: int) -> str:
    """A grid with box borders: ``|`` between stacks, a ``-+-`` rule between bands."""
    lines = []
    rule = "-+-".join("-" * (2 * c - 1) for _ in range(r))
    for i in range(n):
        if i and i % r == 0:
            lines.append(rule)
        cells = [ALPHABET[v - 1] if v else "." for v in board[i * n:(i + 1) * n]]
        lines.append(" | ".join(" ".join(cells[s * c:(s + 1) * c]) for s in range(r)))
    return "\n".join(lines)


def parse(text: str, raw: dict[str, Any]) -> tuple[dict[str, Any], Board]:
    """Read the line or text format (box borders and white space are ignored)."""
    symbols = [ch for ch in text if not ch.isspace() and ch not in "|+-"]
    length = len(symbols)
    if raw.get("size") is None and raw.get("box") is None:
        n = math.isqrt(length)
        if n * n != length or not MIN_SIZE <= n <= MAX_SIZE:
            raise PuzzleInputError(f"wrong length: {length} cells is not a Sudoku (expected n*n "
                                   "cells, e.g. 81 for 9x9 or 256 for 16x16)")
        raw = {**raw, "size": n}
    params = check_params(raw)
    n, r, c = dims(params)
    if length != n * n:
        raise PuzzleInputError(f"wrong length: {length} cells, expected {n * n} for a {n}x{n} Sudoku")
    board = []
    for i, ch in enumerate(symbols):
        if ch in ".0":
            board.append(0)
            continue
        v = ALPHABET.find(ch.upper()) + 1
        if not 1 <= v <= n:
            raise PuzzleInputError(f"bad symbol '{ch}' at row {i // n + 1}, column {i % n + 1} "
                                   f"(expected {ALPHABET[0]}-{ALPHABET[n - 1]} or '.')")
        board.append(v)
    board = tuple(board)
    conflict = find_conflict(board, n, r, c)
    if conflict:
        raise PuzzleInputError(f"conflicting givens: {conflict}")
    return params, board


def units(n: int, r: int, c: int) -> list[tuple[str, list[int]]]:
    """Every row, column and box as (name, flat indices)."""
    out = [(f"row {i + 1}", [i * n + j for j in range(n)]) for i in range(n)]
    out += [(f"column {j + 1}", [i * n + j for i in range(n)]) for j in range(n)]
    for b in range(c):
        for s in range(r):
            cells = [(b * r + i) * n + s * c + j for i in range(r) for j in range(c)]
            out.append((f"box {b * r + s + 1}", cells))
    return out


def find_conflict(board: Board, n: int, r: int, c: int) -> str | None:
    return repeated(board, units(n, r, c))


def repeated(board: Board, named: Sequence[tuple[str, Sequence[int]]]) -> str | None:
    """The first value that one of the ``(name, squares)`` units holds twice, in words
    ("5 appears twice in row 3"), or None (also the Sudoku variants' check)."""
    for name, cells in named:
        seen: set[int] = set()
        for i in cells:
            v = board[i]
            if v and v in seen:
                return f"{ALPHABET[v - 1]} appears twice in {name}"
            seen.add(v)
    return None


# -- generation ---------------------------------------------------------------------------
def seed_board(n: int, r: int, c: int, rng: random.Random) -> Board:
    """Random permutations in the boxes on the diagonal (distinct bands and stacks, so they
    never conflict); the solver completes the rest."""
    board = [0] * (n * n)
    for k in range(min(r, c)):
        values = rng.sample(range(1, n + 1), n)
        cells = [(k * r + i) * n + k * c + j for i in range(r) for j in range(c)]
        for cell, v in zip(cells, values):
            board[cell] = v
    return tuple(board)


def choose_fill(board: Board, n: int, candidates: Sequence[int], rng: random.Random) -> int:
    """ChooseSquare of the paper (section 3.1.3): pick a row at random and keep it with
    probability equal to its fill fraction, then a column within it the same way. Only
    rows and columns that hold an untried candidate are drawn."""
    cand = sorted(candidates)
    rows = sorted({i // n for i in cand})
    row_fill = [sum(1 for v in board[i * n:(i + 1) * n] if v) / n for i in range(n)]
    while True:
        row = rng.choice(rows)
        if rng.random() < row_fill[row]:
            break
    cols = [i % n for i in cand if i // n == row]
    col_fill = [sum(1 for i in range(n) if board[i * n + j]) / n for j in range(n)]
    while True:
        col = rng.choice(cols)
        if rng.random() < col_fill[col]:
            return row * n + col


def features(board: Board, n: int, r: int, c: int) -> dict[str, float]:
    """Paper 000, section 3.1.4, without the solution count (the grader adds solver figures):
    empties, rows/columns/boxes with at least 7/9 of their squares blank, each value's
    count and the standard deviation of those counts."""
    blank_min = math.ceil(7 * n / 9)
    feats: dict[str, float] = {"empties": float(board.count(0))}
    for kind, plural in (("row", "rows"), ("column", "columns"), ("box", "boxes")):
        feats[f"{plural}_mostly_blank"] = float(sum(
            1 for name, cells in units(n, r, c)
            if name.startswith(kind) and sum(1 for i in cells if not board[i]) >= blank_min))
    counts = [board.count(v) for v in range(1, n + 1)]
    for v, k in enumerate(counts, 1):
        feats[f"count_{ALPHABET[v - 1]}"] = float(k)
    mean = sum(counts) / n
    feats["count_std"] = math.sqrt(sum((k - mean) ** 2 for k in counts) / n)
    return feats


# -- transformations (paper 000, section 3.1.5) ---------------------------------------------
BoardMap = Callable[[Board], Board]


def _remap(n: int, rows: Sequence[int], cols: Sequence[int]) -> BoardMap:
    """new[i][j] = old[rows[i]][cols[j]]."""
    return lambda b: tuple(b[rows[i] * n + cols[j]] for i in range(n) for j in range(n))


def _blocks(count: int, width: int, rng: random.Random) -> list[int]:
    order = rng.sample(range(count), count)
    return [blk * width + k for blk in order for k in range(width)]


def _within(count: int, width: int, rng: random.Random) -> list[int]:
    return [blk * width + k for blk in range(count) for k in rng.sample(range(width), width)]


def transformations(n: int, r: int, c: int) -> list[tuple[str, Callable[[random.Random], BoardMap]]]:
    """The symmetries that keep an r x c box shape. Transposition and quarter turns swap
    the box sides, so they are offered only for square boxes (r == c)."""
    ident = list(range(n))

    def relabel(rng):
        perm = [0] + rng.sample(range(1, n + 1), n)
        return lambda b: tuple(perm[v] for v in b)

    def reflect(rng):
        rows = ident[::-1] if rng.random() < 0.5 else ident
        cols = ident[::-1] if rng.random() < 0.5 else ident
        return _remap(n, rows, cols)

    out = [
        ("relabel", relabel),
        ("bands", lambda rng: _remap(n, _blocks(c, r, rng), ident)),
        ("stacks", lambda rng: _remap(n, ident, _blocks(r, c, rng))),
        ("rows_in_band", lambda rng: _remap(n, _within(c, r, rng), ident)),
        ("columns_in_stack", lambda rng: _remap(n, ident, _within(r, c, rng))),
        ("reflect", reflect),
    ]
    if r == c:
        def rotate(rng):
            turns = rng.randrange(4)

            def apply(b: Board) -> Board:
                for _ in range(turns):  # 90 degrees clockwise: new[i][j] = old[n-1-j][i]
                    b = tuple(b[(n - 1 - j) * n + i] for i in range(n) for j in range(n))
                return b
            return apply
        out.append(("rotate", rotate))
    return out
