"""Fillomino without a solver: parameters, parsing and formatting, regions, the random
partition of the board, square choice, features and the symmetries of the board."""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from puzzle_engine import PuzzleInputError

Board = tuple[int, ...]

MAX_SIDE = 30  # the largest board side the plugin accepts (the model grows as (rows*cols)^1)
DEFAULT_SIDE = 9


# -- parameters ---------------------------------------------------------------------------
def parse_sizes(text: str, max_region: int) -> tuple[int, ...]:
    """'1-5' or '1,2,4' or '1-3,6' -> a sorted tuple of region sizes."""
    sizes: set[int] = set()
    for part in str(text).split(","):
        part = part.strip()
        try:
            if "-" in part:
                lo, hi = (int(x) for x in part.split("-", 1))
                sizes.update(range(lo, hi + 1))
            else:
                sizes.add(int(part))
        except ValueError:
            raise PuzzleInputError(f"bad --region-sizes '{text}': expected numbers and "
                                   "ranges such as 1-5 or 1,2,4") from None
    if not sizes or min(sizes) < 1 or max(sizes) > max_region:
        raise PuzzleInputError(f"bad --region-sizes '{text}': sizes must run from 1 to "
                               f"--max-region ({max_region})")
    return tuple(sorted(sizes))


def check_params(raw: dict) -> dict:
    size, rows, cols = raw.get("size"), raw.get("rows"), raw.get("cols")
    if size is not None and (rows is not None or cols is not None) and (rows, cols) != (size, size):
        raise PuzzleInputError("give either --size N or --rows and --cols, not both")
    rows = rows if rows is not None else (size if size is not None else cols or DEFAULT_SIDE)
    cols = cols if cols is not None else (size if size is not None else rows)
    for name, value in (("rows", rows), ("cols", cols)):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_SIDE:
            raise PuzzleInputError(f"bad {name} {value!r}: the Fillomino model supports boards "
                                   f"from 1x1 to {MAX_SIDE}x{MAX_SIDE}")
    if rows * cols < 2:
        raise PuzzleInputError("bad board 1x1: a Fillomino board needs at least 2 cells")
    max_region = raw.get("max_region")
    if max_region is None:
        max_region = max(rows, cols)
    if not isinstance(max_region, int) or not 1 <= max_region <= rows * cols:
        raise PuzzleInputError(f"bad --max-region {max_region!r}: must run from 1 to "
                               f"{rows * cols} (the number of cells)")
    sizes = raw.get("region_sizes")
    sizes = parse_sizes(sizes if sizes is not None else f"1-{max_region}", max_region)
    return {"rows": rows, "cols": cols, "max_region": max_region,
            "region_sizes": ",".join(map(str, sizes)),
            "seeding": _choice(raw.get("seeding"), "seeding", ("python", "solver")),
            "allow_empty_regions": bool(raw.get("allow_empty_regions")),
            "logic_only": bool(raw.get("logic_only"))}


def _choice(value, name, options):
    value = options[0] if value is None else value
    if value not in options:
        raise PuzzleInputError(f"bad --{name.replace('_', '-')} '{value}': choose "
                               f"{' or '.join(options)}")
    return value


def region_sizes(params) -> tuple[int, ...]:
    return tuple(int(x) for x in params["region_sizes"].split(","))


# -- text ---------------------------------------------------------------------------------
def parse(text: str, params: dict) -> tuple[dict, Board]:
    """Rows of space-separated cells, '.' for empty; rows on separate lines (the text
    format) or separated by '/' (the line format). Sizes missing from ``params`` are read
    from the text."""
    lines = [ln for ln in text.replace("/", "\n").splitlines() if ln.strip()]
    if not lines:
        raise PuzzleInputError("empty puzzle: expected rows of cells such as '. 3 . 1'")
    rows = [ln.split() for ln in lines]
    width = len(rows[0])
    for i, row in enumerate(rows, 1):
        if len(row) != width:
            raise PuzzleInputError(f"wrong row length: row {i} has {len(row)} cells, "
                                   f"row 1 has {width}")
    nrows, ncols = len(rows), width
    given_rows, given_cols = params.get("rows"), params.get("cols")
    if params.get("size") is not None:
        given_rows = given_rows or params["size"]
        given_cols = given_cols or params["size"]
    if given_rows is not None and given_rows != nrows:
        raise PuzzleInputError(f"wrong number of rows: {nrows}, expected {given_rows}")
    if given_cols is not None and given_cols != ncols:
        raise PuzzleInputError(f"wrong row length: {ncols} cells, expected {given_cols}")
    if nrows > MAX_SIDE or ncols > MAX_SIDE:
        raise PuzzleInputError(f"board {nrows}x{ncols} is larger than the Fillomino model "
                               f"supports ({MAX_SIDE}x{MAX_SIDE})")
    board = []
    for i, row in enumerate(rows, 1):
        for j, tok in enumerate(row, 1):
            if tok == ".":
                board.append(0)
                continue
            try:
                value = int(tok)
            except ValueError:
                raise PuzzleInputError(f"bad symbol '{tok}' at row {i}, column {j} "
                                       "(expected a region size or '.')") from None
            if value < 1:
                raise PuzzleInputError(f"bad value {value} at row {i}, column {j}: a region "
                                       "size is at least 1 ('.' marks an empty cell)")
            if value > nrows * ncols:
                raise PuzzleInputError(f"bad value {value} at row {i}, column {j}: larger than "
                                       f"the board ({nrows * ncols} cells)")
            board.append(value)
    canonical = check_params({**params, "size": None, "rows": nrows, "cols": ncols})
    conflict = _adjacent_ones(tuple(board), nrows, ncols)
    if conflict:
        (i, j), (k, m) = conflict
        raise PuzzleInputError(f"conflicting givens: two 1s touch at row {i}, column {j} "
                               f"and row {k}, column {m}")
    return canonical, tuple(board)


def _adjacent_ones(board: Board, rows: int, cols: int):
    for c, v in enumerate(board):
        if v == 1:
            for d in neighbours(c, rows, cols):
                if board[d] == 1:
                    return (c // cols + 1, c % cols + 1), (d // cols + 1, d % cols + 1)
    return None


def format_board(board: Board, rows: int, cols: int, fmt: str) -> str:
    width = max(len(str(v)) for v in board)
    cells = ["." if v == 0 else str(v) for v in board]
    if fmt == "line":
        return "/".join(" ".join(cells[i * cols:(i + 1) * cols]) for i in range(rows))
    return "\n".join(" ".join(x.rjust(width) for x in cells[i * cols:(i + 1) * cols])
                     for i in range(rows))


# -- regions ------------------------------------------------------------------------------
def neighbours(c: int, rows: int, cols: int) -> list[int]:
    i, j = divmod(c, cols)
    out = []
    if i > 0:
        out.append(c - cols)
    if j > 0:
        out.append(c - 1)
    if j < cols - 1:
        out.append(c + 1)
    if i < rows - 1:
        out.append(c + cols)
    return out


def regions(solution: Sequence[int], rows: int, cols: int) -> list[int]:
    """Region id of every cell of a full board: the components of equal values."""
    ids = [-1] * len(solution)
    nxt = 0
    for start in range(len(solution)):
        if ids[start] >= 0:
            continue
        ids[start] = nxt
        stack = [start]
        while stack:
            c = stack.pop()
            for d in neighbours(c, rows, cols):
                if ids[d] < 0 and solution[d] == solution[c]:
                    ids[d] = nxt
                    stack.append(d)
        nxt += 1
    return ids


@lru_cache(maxsize=16)
def solution_regions(solution: tuple[int, ...], rows: int, cols: int) -> tuple[int, ...]:
    """``regions`` of a full board, remembered: GenPuzzles asks about the same solution's
    regions at every square."""
    return tuple(regions(solution, rows, cols))


def is_valid_solution(board: Sequence[int], rows: int, cols: int) -> bool:
    """Every cell holds the size of its component of equal values."""
    ids = regions(board, rows, cols)
    counts: dict[int, int] = {}
    for r in ids:
        counts[r] = counts.get(r, 0) + 1
    return all(v >= 1 and counts[ids[c]] == v for c, v in enumerate(board))


# -- a sound bound on the values of every solution ---------------------------------------
def value_bound(board: Sequence[int], rows: int, cols: int) -> int:
    """The largest value any solution of ``board``'s givens can hold, bounded from above.

    A region either holds a given, and then its size is that given, or holds none: then it
    is a connected set of empty cells (at most the largest component of empty cells) and
    is disjoint from the regions of any givens known to lie in different regions. Givens
    of different values lie in different regions, and so do two givens of value v that are
    v or more steps apart (a region of v cells spans at most v - 1 steps). Greedily picking
    such givens, the regions without a given hold at most ``cells - sum of their values``.
    The bound is sound for the plain rules, whatever the region sizes, so the model with
    ``maxv`` set to it has exactly the solutions of the unbounded puzzle.
    """
    n = rows * cols
    givens = [(c // cols, c % cols, v) for c, v in enumerate(board) if v]
    apart: dict[int, list[tuple[int, int]]] = {}  # by value: only equal values compare
    held = 0
    for i, j, v in sorted(givens, key=lambda g: -g[2]):  # stable: then by row, column
        same = apart.setdefault(v, [])
        for h, k in same:
            if abs(i - h) + abs(j - k) < v:
                break
        else:
            same.append((i, j))
            held += v
    free = min(n - held, _largest_empty_component(board, rows, cols))
    return max([1, free] + [g[2] for g in givens])


def _largest_empty_component(board: Sequence[int], rows: int, cols: int) -> int:
    around = neighbour_lists(rows, cols)
    seen = [bool(v) for v in board]  # givens are never part of an empty component
    best = 0
    for start in range(len(board)):
        if seen[start]:
            continue
        seen[start] = True
        stack, size = [start], 0
        while stack:
            c = stack.pop()
            size += 1
            for d in around[c]:
                if not seen[d]:
                    seen[d] = True
                    stack.append(d)
        if size > best:
            best = size
    return best


@lru_cache(maxsize=64)
def neighbour_lists(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """``neighbours`` of every cell, remembered per board shape."""
    return tuple(tuple(neighbours(c, rows, cols)) for c in range(rows * cols))


# -- GetRandomPuzzle, the pure-Python route -----------------------------------------------
def random_partition(rows: int, cols: int, sizes: Sequence[int], rng: random.Random,
                     max_rounds: int = 10_000) -> Board:
    """A random valid full board: grow regions of sizes drawn from ``sizes`` from random
    free cells (a region stops early when it is walled in); then dissolve every pair of
    touching regions of equal size and grow their cells again, until none is left.

    A region never exceeds max(sizes); dissolving and regrowing only ever uses sizes drawn
    from ``sizes`` or the smaller sizes a walled-in region ends with.
    """
    n = rows * cols
    owner = [-1] * n          # region id of each cell, -1 = free
    members: dict[int, list[int]] = {}
    next_id = 0
    nbs = [neighbours(c, rows, cols) for c in range(n)]
    for _ in range(max_rounds):
        free = [c for c in range(n) if owner[c] < 0]
        rng.shuffle(free)
        for start in free:
            if owner[start] >= 0:
                continue
            target = rng.choice(sizes)
            cells = [start]
            owner[start] = next_id
            frontier = [d for d in nbs[start] if owner[d] < 0]
            while len(cells) < target and frontier:
                c = frontier.pop(rng.randrange(len(frontier)))
                if owner[c] >= 0:
                    continue
                owner[c] = next_id
                cells.append(c)
                frontier.extend(d for d in nbs[c] if owner[d] < 0)
            members[next_id] = cells
            next_id += 1
        clashes = sorted({(min(owner[c], owner[d]), max(owner[c], owner[d]))
                          for c in range(n) for d in nbs[c]
                          if owner[c] != owner[d]
                          and len(members[owner[c]]) == len(members[owner[d]])})
        if not clashes:
            sizes_of = [len(members[owner[c]]) for c in range(n)]
            return tuple(sizes_of)
        for a, b in clashes:
            for r in (a, b):
                for c in members.pop(r, ()):
                    owner[c] = -1
    raise PuzzleInputError(f"no valid {rows}x{cols} board with region sizes "
                           f"{','.join(map(str, sizes))} after {max_rounds} rounds; "
                           "allow more sizes with --region-sizes")


def solver_seed(rows: int, cols: int, sizes: Sequence[int], rng: random.Random) -> Board:
    """Givens for the solver route of GetRandomPuzzle: one random cell in twelve (at least
    one) fixed to a random size from ``sizes``. The caller lets the solver complete it and
    drops half of the givens whenever it cannot."""
    n = rows * cols
    board = [0] * n
    cells = rng.sample(range(n), max(1, n // 12))
    for c in cells:
        board[c] = rng.choice(sizes)
    return tuple(board)


# -- ChooseSquare, isRemoveValid ----------------------------------------------------------
def keeps_a_given(board: Sequence[int], index: int, region_of: Sequence[int]) -> bool:
    """True when emptying ``index`` leaves at least one given in its region."""
    r = region_of[index]
    return any(v and c != index and region_of[c] == r for c, v in enumerate(board))


def choose(board: Sequence[int], candidates: Iterable[int], region_of: Sequence[int],
           allow_empty_regions: bool, rng: random.Random) -> int:
    """A uniformly random candidate; unless ``allow_empty_regions``, only among those whose
    region keeps a given (the paper's rule). When no candidate qualifies any is returned,
    and isRemoveValid refuses it without a solver call."""
    pool = sorted(candidates)
    if not allow_empty_regions:
        left: dict[int, int] = {}
        for c, v in enumerate(board):
            if v:
                left[region_of[c]] = left.get(region_of[c], 0) + 1
        eligible = [c for c in pool if left.get(region_of[c], 0) >= 2]
        pool = eligible or pool
    return rng.choice(pool)


# -- features (paper 000, section 3.2.4) --------------------------------------------------
def features(board: Sequence[int], solution: Sequence[int] | None, rows: int, cols: int,
             optimal: bool | None) -> dict[str, float]:
    n = rows * cols
    empty = sum(1 for v in board if v == 0)
    nregions = len(set(regions(solution, rows, cols))) if solution else float("nan")
    return {"cells": float(n), "empty": float(empty), "regions": float(nregions),
            "optimal": float("nan") if optimal is None else float(optimal)}


# -- transformations (paper 000, section 3.2.5) --------------------------------------------
def _mapper(rows: int, cols: int, f: Callable[[int, int], tuple[int, int]]):
    """Board function from a map of (row, col) to its new (row, col), same shape."""
    perm = [0] * (rows * cols)
    for i in range(rows):
        for j in range(cols):
            a, b = f(i, j)
            perm[a * cols + b] = i * cols + j
    return lambda board: tuple(board[p] for p in perm)


def transformations(rows: int, cols: int) -> list[tuple[str, Callable]]:
    """Rotations and reflections that keep the board's shape: the 8 symmetries of a
    square board, the 4 of a rectangular one. Each draw is uniform over its group."""
    last_r, last_c = rows - 1, cols - 1
    if rows == cols:
        def rotate(rng):
            k = rng.randrange(4)
            fs = [lambda i, j: (i, j), lambda i, j: (j, last_r - i),
                  lambda i, j: (last_r - i, last_c - j), lambda i, j: (last_c - j, i)]
            return _mapper(rows, cols, fs[k])
    else:
        def rotate(rng):
            if rng.randrange(2):
                return _mapper(rows, cols, lambda i, j: (last_r - i, last_c - j))
            return lambda board: tuple(board)

    def reflect(rng):
        if rng.randrange(2):
            return _mapper(rows, cols, lambda i, j: (i, last_c - j))
        return lambda board: tuple(board)

    return [("rotate", rotate), ("reflect", reflect)]
