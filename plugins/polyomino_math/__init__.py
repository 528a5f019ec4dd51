"""The built-in Polyomino Math plugin (paper 001, puzzles for arithmetic practice): a
rectangular board of numbers and a multiset of polyominoes that can cover it exactly. The
player places any of the pieces, in any of their eight orientations, without overlap; a
placed piece scores the larger of the sum and the product of the numbers under it; the
goal is the highest total. A board is of Type I when an optimum uses every piece, Type II
when none does.

The type draws its puzzles itself (strategy ``own``): a tileable piece set (given, or a
random tiling of the board; on 10x10 four 5x5 sets composed, optionally with two adjacent
4-ominoes fused into an 8-omino) and a shuffled multiset of numbers. Its criterion
``polyomino-optimum`` proves the optimum with the solver, decides the type by a second
solve that forces every piece, and counts the optimal placements modulo swapping
identical pieces. Its grader ``evolutionary`` is the paper's hardness measure.

A solution lists, per square, the piece covering it: pieces numbered 1, 2, ... in
reading order of their first square, 0 for an uncovered square. Identical pieces are one
kind in the model, so two placements that differ by swapping them are one solution.
"""
from __future__ import annotations

from importlib.resources import files

from puzzle_engine import (Codec, Drawing, Grading, OwnGenerator, Param, Parsed, Play,
                           PuzzleInputError, PuzzleType, Symmetry, hookimpl)

from . import board as boards
from . import canonical, drawing, play
from .board import Board, count_of, default_numbers, numbers_text, read_numbers
from .criterion import PolyominoOptimum
from .scoring import best_of
from .shapes import digits, free, pieces_text, read_pieces, sort_pieces, text_of
from .tiling import GaveUp, compose, fuse, one_tiling, pieces_of, placements, random_tiling

PUZZLE_ENGINE_CONTRACT = 3

SIZES = range(1, 9)  # piece sizes a random set may use
TILING_DRAWS = 200   # random tilings tried for one piece set
TILING_STEPS = 1_000_000  # steps of the search that checks a given set tiles the board
INT_LIMIT = 2 ** 31 - 2   # the largest score the model may hold (Gecode's integers)


def _flag(params, name):
    value = params[name]
    if not isinstance(value, bool):
        raise PuzzleInputError(f"bad --{name.replace('_', '-')} {value!r}: expected a flag")
    return value


class PolyominoMath(PuzzleType, Codec, OwnGenerator, Grading, Symmetry, Drawing, Play):
    name = "polyomino-math"
    description = ("Polyomino Math: place polyominoes on a board of numbers; each scores "
                   "max(sum, product) of its numbers; find the highest total.")
    params = (
        Param("rows", int, 5, "rows of the board (2 to 12)"),
        Param("cols", int, 6, "columns of the board (2 to 12)"),
        Param("pieces", str, None, "the piece set, e.g. '2xL3 I4 O4 T4 ...' (default: a "
              "random set that tiles the board)"),
        Param("sizes", str, "3,4", "sizes of the pieces of a random set"),
        Param("numbers", str, None, "the numbers shuffled onto the board, NUMBER:COUNT,... "
              "(default 1:8,2:8,3:8,4:6 on 5x6, 1:25,2:30,3:30,4:15 on 10x10)"),
        Param("type", str, None, "keep only boards of this type: I (an optimum uses every "
              "piece) or II (none does)"),
        Param("unique_optimum", bool, False, "keep only boards with one optimal placement "
              "(up to swapping identical pieces)"),
        Param("compose", bool, False, "a random set made of four sets that each tile a "
              "quarter of the board (the paper's 10x10 sets)"),
        Param("fuse", bool, False, "fuse two adjacent 4-ominoes of the set's tiling into "
              "an 8-omino"),
        Param("tournaments", int, 2000, "the evolutionary grader's budget: tournaments "
              "per run"),
    )
    models = (files("puzzle_engine_plugins.polyomino_math") / "polyomino_math.mzn",)
    decision = "at"
    objective = "score"
    sense = "maximize"
    strategy = "own"
    criterion = PolyominoOptimum.name
    grader = "evolutionary"
    # CP-SAT: its LP relaxation bounds the weighted packing; Gecode and Chuffed took 20 s
    # to more than a minute on a 5x6 board (docs/performance.md).
    solver = "cp-sat"

    # -- parameters -----------------------------------------------------------------------

    def check_params(self, params):
        out = {}
        for name in ("rows", "cols"):
            v = params[name]
            if isinstance(v, bool) or not isinstance(v, int) or not 2 <= v <= 12:
                raise PuzzleInputError(f"bad --{name} {v!r}: expected 2 to 12")
            out[name] = v
        rows, cols, area = out["rows"], out["cols"], out["rows"] * out["cols"]
        sizes = str(params["sizes"]).replace(" ", "").split(",")
        if not all(digits(s) and int(s) in SIZES for s in sizes):
            raise PuzzleInputError(f"bad --sizes {params['sizes']!r}: expected sizes from "
                                   f"{SIZES[0]} to {SIZES[-1]}, e.g. 3,4")
        out["sizes"] = ",".join(str(s) for s in sorted({int(s) for s in sizes}))
        if params["pieces"] is None:  # a random set: its sizes must add up to the area
            part = (rows // 2) * (cols // 2) if params["compose"] is True else area
            if not sums_to(part, [int(s) for s in sizes]):
                raise PuzzleInputError(f"bad --sizes {params['sizes']!r}: no pieces of these "
                                       f"sizes cover the {part} squares of the board"
                                       f"{' quarter' if params['compose'] is True else ''}")
        numbers = default_numbers(area) if params["numbers"] is None \
            else read_numbers(params["numbers"])
        total = sum(numbers.values())
        if total != area:
            raise PuzzleInputError(f"bad --numbers: {total} numbers do not fill the "
                                   f"{rows}x{cols} board's {area} squares")
        out["numbers"] = numbers_text(numbers)
        kind = params["type"]
        if kind is not None and str(kind).upper() not in ("I", "II"):
            raise PuzzleInputError(f"bad --type {kind!r}: expected I or II")
        out["type"] = None if kind is None else str(kind).upper()
        for name in ("unique_optimum", "compose", "fuse"):
            out[name] = _flag(params, name)
        if out["compose"] and params["pieces"] is not None:
            raise PuzzleInputError("--compose draws a random set; it cannot be used with "
                                   "--pieces")
        if out["compose"] and (rows % 2 or cols % 2):
            raise PuzzleInputError(f"--compose needs even rows and columns, not {rows}x{cols}")
        t = params["tournaments"]
        if isinstance(t, bool) or not isinstance(t, int) or t < 1:
            raise PuzzleInputError(f"bad --tournaments {t!r}: expected a positive whole number")
        out["tournaments"] = t
        out["pieces"] = None
        if params["pieces"] is not None:
            pieces = read_pieces(str(params["pieces"]), "--pieces: piece")
            check_tiles(pieces, rows, cols)
            out["pieces"] = pieces_text(pieces)
        return out

    # -- generation -----------------------------------------------------------------------
    def generate(self, params, rng, engine):
        rows, cols = params["rows"], params["cols"]
        layout = self._layout(params, rng)
        if layout is None:
            return None
        if params["fuse"]:
            layout = fuse(layout, cols, rng)
            if layout is None:
                return None
        numbers = [v for v, n in read_numbers(params["numbers"]).items() for _ in range(n)]
        rng.shuffle(numbers)
        return Board(rows, cols, tuple(numbers), sort_pieces(shape for shape, _ in layout))

    def _layout(self, params, rng):
        """A tiling of the board by the given pieces, or by a random set."""
        rows, cols = params["rows"], params["cols"]
        if params["pieces"] is not None:
            return one_tiling(read_pieces(params["pieces"]), rows, cols, rng)
        sizes = [int(s) for s in params["sizes"].split(",")]
        if not params["compose"]:
            return random_tiling(sizes, rows, cols, rng, TILING_DRAWS)
        # The paper composes four distinct sets: a quarter whose set is already taken is
        # drawn again.
        quarters, taken = [], set()
        for _ in range(TILING_DRAWS):
            quarter = random_tiling(sizes, rows // 2, cols // 2, rng, TILING_DRAWS)
            if quarter is None:
                return None
            if pieces_of(quarter) not in taken:
                taken.add(pieces_of(quarter))
                quarters.append(quarter)
                if len(quarters) == 4:
                    return compose(quarters, rows // 2, cols // 2)
        raise PuzzleInputError(f"--compose: {TILING_DRAWS} random tilings of the "
                               f"{rows // 2}x{cols // 2} quarter gave fewer than four "
                               f"distinct sets of pieces of sizes {params['sizes']}")

    # -- solving --------------------------------------------------------------------------
    def to_data(self, params, instance, solver):
        return model_data(instance)

    def from_solution(self, params, values):
        return relabelled([v for row in values[self.decision] for v in row])

    def search_variables(self, params, instance):
        return list(range(instance.rows * instance.cols))

    # -- reading and writing --------------------------------------------------------------
    def to_json(self, params, instance, solution):
        record = {"pieces": pieces_text(instance.pieces), "numbers": boards.rows_of(instance)}
        if solution is not None:
            placed = placed_pieces(instance, solution)
            record["placement"] = [
                {"piece": text_of(shape), "score": score,
                 "squares": [list(divmod(s, instance.cols)) for s in squares]}
                for shape, squares, score in placed]
            record["score"] = sum(p["score"] for p in record["placement"])
            record["all_pieces_used"] = len(placed) == len(instance.pieces)
        return record

    def from_json(self, params, record):
        pieces, numbers = record.get("pieces"), record.get("numbers")
        if not isinstance(pieces, str):
            raise PuzzleInputError("field 'pieces' must be a string like '2xL3 I4 T4'")
        if not isinstance(numbers, list) or not numbers or not all(
                isinstance(r, list) and all(isinstance(v, int) and not isinstance(v, bool)
                                            for v in r) for r in numbers):
            raise PuzzleInputError("field 'numbers' must be a list of rows of whole numbers")
        text = pieces + "\n" + "\n".join(" ".join(map(str, r)) for r in numbers)
        return self.parse(params, text).instance

    def format(self, params, instance, fmt):
        return boards.format_board(instance, fmt)

    def format_solution(self, params, solution, fmt):
        # Each piece a letter (a..z, then A..Z), in reading order; an uncovered square '.'.
        letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        cols = params["cols"]
        shown = ["." if v == 0 else letters[(v - 1) % len(letters)] for v in solution]
        rows = ["".join(shown[r:r + cols]) for r in range(0, len(shown), cols)]
        return "/".join(rows) if fmt == "line" else "\n".join(" ".join(row) for row in rows)

    def parse(self, params, text):
        params = params or {}
        found = boards.parse_board(text)
        for name, value in (("rows", found.rows), ("cols", found.cols)):
            if not 2 <= value <= 12:  # the board's own size, not an option the user gave
                raise PuzzleInputError(f"the board has {value} {name}; expected 2 to 12")
            if params.get(name) is not None and params[name] != value:
                raise PuzzleInputError(f"the board has {value} {name}, not {params[name]} "
                                       f"(--{name})")
        check_tiles(found.pieces, found.rows, found.cols)
        raw = {p.name: params.get(p.name) for p in self.params}
        raw.update(rows=found.rows, cols=found.cols, pieces=None,
                   numbers=numbers_text(count_of(found.numbers)))
        for p in self.params:
            if raw[p.name] is None and p.default is not None:
                raw[p.name] = p.default
        return Parsed(self.check_params(raw), found)

    def canonical_form(self, params, instance):
        return canonical.canonical_form(instance)

    def rules(self, params):
        return ("Cut out the pieces and place any of them on the board, turned or flipped, "
                "without overlap. A piece scores the larger of the sum and the product of "
                "the numbers it covers: find the highest total.")

    def render_svg(self, params, instance, solution=None):
        placed = None if solution is None else placed_pieces(instance, solution)
        return drawing.render(instance, placed)

    def play_grid(self, params, instance, solution):
        kinds, counts = kinds_of(instance)
        return play.play_grid(instance, kinds, counts, placed_pieces(instance, solution))

    def solution_key(self, params, solution):
        return tuple(solution)  # already the same for placements that swap identical pieces


def sums_to(total: int, sizes) -> bool:
    """Whether ``total`` is a sum of the ``sizes`` (each used any number of times)."""
    reach = [True] + [False] * total
    for t in range(1, total + 1):
        reach[t] = any(s <= t and reach[t - s] for s in sizes)
    return reach[total]


def check_tiles(pieces, rows, cols):
    """A one-line error unless ``pieces`` cover the rows x cols board exactly."""
    area = sum(len(p) for p in pieces)
    if area != rows * cols:
        raise PuzzleInputError(f"the pieces ({pieces_text(pieces)}) cover {area} squares, "
                               f"the {rows}x{cols} board has {rows * cols}")
    try:
        found = one_tiling(pieces, rows, cols, steps=TILING_STEPS)
    except GaveUp:
        raise PuzzleInputError(f"no tiling of the {rows}x{cols} board by the pieces "
                               f"({pieces_text(pieces)}) found in {TILING_STEPS:,} search "
                               "steps; they may not tile it") from None
    if found is None:
        raise PuzzleInputError(f"the pieces ({pieces_text(pieces)}) cannot tile the "
                               f"{rows}x{cols} board")


def kinds_of(instance: Board):
    """The distinct pieces, in canonical order, and how many of each."""
    kinds = sorted(set(instance.pieces), key=instance.pieces.index)
    return kinds, [instance.pieces.count(k) for k in kinds]


def all_placements(instance: Board):
    """Every placement ``(kind index, mask, value)`` of every kind, kind by kind."""
    kinds, _ = kinds_of(instance)
    out = []
    for k, shape in enumerate(kinds):
        for _, mask in placements(shape, instance.rows, instance.cols):
            squares = [i for i in range(mask.bit_length()) if mask >> i & 1]
            out.append((k, mask, best_of([instance.numbers[i] for i in squares])))
    return out


def model_data(instance: Board):
    kinds, counts = kinds_of(instance)
    table = all_placements(instance)
    over = [[] for _ in range(instance.rows * instance.cols)]
    for p, (_, mask, _) in enumerate(table, 1):
        for i in range(mask.bit_length()):
            if mask >> i & 1:
                over[i].append(p)
    # The score's bound: each piece on its best placement. Above the solvers' integers it
    # is the user's numbers that are too large, not a model error.
    best = [0] * len(kinds)
    for k, _, v in table:
        best[k] = max(best[k], v)
    top = sum(n * b for n, b in zip(counts, best))
    if top > INT_LIMIT:
        raise PuzzleInputError(f"the numbers are too large: the pieces could score up to "
                               f"{top:,}, above the solvers' limit {INT_LIMIT:,}")
    return {"R": instance.rows, "C": instance.cols, "K": len(kinds), "n": counts, "top": top,
            "P": len(table), "kind": [k + 1 for k, _, _ in table],
            "value": [v for _, _, v in table], "over": [{"set": s} for s in over]}


def relabelled(labels):
    """Per-square labels with the pieces numbered 1, 2, ... in reading order of their first
    square (0 stays 0)."""
    names: dict[int, int] = {}
    out = []
    for v in labels:
        if v and v not in names:
            names[v] = len(names) + 1
        out.append(names.get(v, 0))
    return tuple(out)


def placed_pieces(instance: Board, solution):
    """The placed pieces of a solution: ``(free shape, squares, score)`` in label order."""
    groups: dict[int, list[int]] = {}
    for i, v in enumerate(solution):
        if v:
            groups.setdefault(v, []).append(i)
    out = []
    for v in sorted(groups):
        squares = groups[v]
        shape = free(divmod(i, instance.cols) for i in squares)
        out.append((shape, squares, best_of([instance.numbers[i] for i in squares])))
    return out


@hookimpl
def register_puzzle_types(register):
    register(PolyominoMath())


@hookimpl
def register_criteria(register):
    register(PolyominoOptimum())


@hookimpl
def register_graders(register):
    from .evolution import Evolutionary
    register(Evolutionary())
