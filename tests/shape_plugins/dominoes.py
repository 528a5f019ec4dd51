"""Domino packing: a small board of numbers 1..9; lay dominoes on it, each on two
neighbouring squares and none overlapping, so that the dominoes score most. A domino
scores the product of the two numbers it covers. The puzzle is accepted when exactly one
packing reaches the best score (criterion ``unique-optimum``).

The type draws its boards itself (strategy ``own``): random numbers, judged by the
criterion, drawn again until one packing alone is best. The model has no solve item: the
type declares ``objective`` and ``sense`` and the engine adds it.
"""
import re

from puzzle_engine import (Codec, Grading, OwnGenerator, Param, Parsed, PuzzleInputError,
                           PuzzleType, hookimpl)

PUZZLE_ENGINE_CONTRACT = 3

# Each square says where its domino's other half lies: 0 none (the square is left
# uncovered), 1 right, 2 left, 3 below, 4 above. Every packing has exactly one such array.
NONE, RIGHT, LEFT, DOWN, UP = range(5)

MODEL = """
int: R;
int: C;
array[1..R, 1..C] of 1..9: weight;
array[1..R, 1..C] of var 0..4: partner;

constraint forall(i in 1..R, j in 1..C)(
    (if j < C then (partner[i, j] = 1 <-> partner[i, j + 1] = 2) else partner[i, j] != 1 endif)
 /\\ (if j = 1 then partner[i, j] != 2 else true endif)
 /\\ (if i < R then (partner[i, j] = 3 <-> partner[i + 1, j] = 4) else partner[i, j] != 3 endif)
 /\\ (if i = 1 then partner[i, j] != 4 else true endif));

% each domino counted once, from its left or top half
var int: score = sum(i in 1..R, j in 1..C)(
      bool2int(partner[i, j] = 1) * (if j < C then weight[i, j] * weight[i, j + 1] else 0 endif)
    + bool2int(partner[i, j] = 3) * (if i < R then weight[i, j] * weight[i + 1, j] else 0 endif));
"""


def dominoes_of(partner, cols):
    """The packing as a list of dominoes, each ``[[row, col], [row, col]]`` (0-based),
    from its left or top half, in reading order."""
    found = []
    for i, p in enumerate(partner):
        r, c = divmod(i, cols)
        if p == RIGHT:
            found.append([[r, c], [r, c + 1]])
        elif p == DOWN:
            found.append([[r, c], [r + 1, c]])
    return found


class DominoPacking(PuzzleType, Codec, OwnGenerator, Grading):
    name = "domino_packing"
    description = ("Domino packing: lay dominoes on a board of numbers; each scores the "
                   "product of its two numbers; one packing alone scores most.")
    params = (
        Param("rows", int, 3, "rows of the board (2 to 4)"),
        Param("cols", int, 4, "columns of the board (2 to 5)"),
        Param("top", int, 9, "the largest number drawn (2 to 9)"),
    )
    models = (MODEL,)
    decision = "partner"
    objective = "score"
    sense = "maximize"
    strategy = "own"
    criterion = "unique-optimum"

    def check_params(self, params):
        for name, low, high in (("rows", 2, 4), ("cols", 2, 5), ("top", 2, 9)):
            value = params[name]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise PuzzleInputError(f"bad --{name} {value!r}: expected {low} to {high}")
        return {"rows": params["rows"], "cols": params["cols"], "top": params["top"]}

    def generate(self, params, rng, engine):
        return tuple(rng.randint(1, params["top"]) for _ in range(params["rows"] * params["cols"]))

    # -- solving ------------------------------------------------------------------------
    def to_data(self, params, instance, solver):
        cols = params["cols"]
        return {"R": params["rows"], "C": cols,
                "weight": [list(instance[r * cols:(r + 1) * cols]) for r in range(params["rows"])]}

    def from_solution(self, params, values):
        return tuple(int(v) for row in values[self.decision] for v in row)

    def search_variables(self, params, instance):
        return list(range(len(instance)))

    # -- reading and writing ------------------------------------------------------------
    def to_json(self, params, instance, solution):
        cols = params["cols"]
        record = {"weights": [list(instance[r * cols:(r + 1) * cols])
                              for r in range(params["rows"])]}
        if solution is not None:
            record["dominoes"] = dominoes_of(solution, cols)
        return record

    def from_json(self, params, record):
        weights = record.get("weights")
        if not isinstance(weights, list) or not all(isinstance(r, list) for r in weights):
            raise PuzzleInputError("field 'weights' must be a list of rows")
        rows = ["".join(str(v) if isinstance(v, int) and not isinstance(v, bool) else "?"
                        for v in r) for r in weights]
        return self._read(params, rows)[1]

    def format(self, params, instance, fmt):
        cols = params["cols"]
        rows = [instance[r * cols:(r + 1) * cols] for r in range(params["rows"])]
        if fmt == "line":
            return "/".join("".join(map(str, row)) for row in rows)
        return "\n".join(" ".join(map(str, row)) for row in rows)

    def format_solution(self, params, solution, fmt):
        # Each domino a letter, in reading order; an uncovered square a dot.
        cols = params["cols"]
        shown = ["."] * len(solution)
        for k, ((r1, c1), (r2, c2)) in enumerate(dominoes_of(solution, cols)):
            shown[r1 * cols + c1] = shown[r2 * cols + c2] = chr(ord("a") + k)
        rows = ["".join(shown[r * cols:(r + 1) * cols]) for r in range(params["rows"])]
        return "/".join(rows) if fmt == "line" else "\n".join(" ".join(row) for row in rows)

    def parse(self, params, text):
        rows = [re.sub(r"\s+", "", r) for r in re.split(r"[/\n]", text) if r.strip()]
        canonical, instance = self._read(params, rows)
        return Parsed(canonical, instance)

    def _read(self, params, rows):
        """Canonical params (the shape read from ``rows``) and the board."""
        if not rows:
            raise PuzzleInputError("empty board")
        for r, row in enumerate(rows, 1):
            for c, ch in enumerate(row, 1):
                if ch not in "123456789":
                    raise PuzzleInputError(f"row {r}, column {c}: unexpected {ch!r} "
                                           "(expected a number from 1 to 9)")
            if len(row) != len(rows[0]):
                raise PuzzleInputError(f"row {r} has {len(row)} numbers, row 1 has {len(rows[0])}")
        shape = {"rows": len(rows), "cols": len(rows[0])}
        for name, value in shape.items():
            if params.get(name) is not None and params[name] != value:
                raise PuzzleInputError(f"the board has {value} {name}, not {params[name]} "
                                       f"(--{name})")
        canonical = self.check_params({**shape, "top": params.get("top") or 9})
        board = tuple(int(ch) for row in rows for ch in row)
        if max(board) > canonical["top"]:
            raise PuzzleInputError(f"the number {max(board)} is above --top {canonical['top']}")
        return canonical, board


@hookimpl
def register_puzzle_types(register):
    register(DominoPacking())
