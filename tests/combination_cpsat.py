"""An independent model of the Combination rules (paper 002) written directly with OR-Tools
CP-SAT, sharing no code with the plugin (neither its MiniZinc model nor its Python), for the
tests to confirm a generated level unique by a second solver. Levels are read from their
record fields: ``board`` rows of ``.`` empty, ``#`` wall, ``o`` hole, ``pieces`` text like
``2 rook a, 1 queen b`` and ``solution`` rows like ``aR .. ## oo``.

The rules: pieces stand on empty squares only; a rook attacks along rows and columns, a
bishop along diagonals, a queen both; a ray stops at the first wall or piece and passes
over holes; no piece may be attacked by a piece of another colour (two pieces in line with
nothing stopping the ray between them conflict when either attacks along that line). Each
(colour, kind) is placed exactly its count. Placements count modulo renaming colours whose
piece sets (kind and count) are identical.

A time-out is never an answer: ``count_classes`` raises ``Undecided`` and ``verdict`` says
``"unknown"``.
"""
import itertools

from ortools.sat.python import cp_model

from combination_brute import read_pieces, read_solution

ORTHOGONAL = ((0, 1), (1, 0))
DIAGONAL = ((1, 1), (1, -1))
#: The directions (one of each opposite pair) each attack covers.
LINES = {"R": ORTHOGONAL, "B": DIAGONAL, "Q": ORTHOGONAL + DIAGONAL}
#: CP-SAT's workers: one proved six generated 6x6 and 8x8 levels unique in 4.0 s (2.7 s of
#: CPU), two took 6.5 s (6.3 s of CPU), on the 2 shared cores of the test machine (load 2).
WORKERS = 1


class Undecided(Exception):
    """CP-SAT ran out of time (or gave no verdict): neither unique nor several."""


class Model:
    """The placements of ``pieces`` (as ``read_pieces`` gives them) on ``board`` (rows)
    as a CP-SAT model: ``x[(r, c, k)]`` is true when kind ``k`` (an index into
    ``self.kinds``, (colour, attack)) stands on square (r, c)."""

    def __init__(self, board, pieces):
        self.board = [str(row) for row in board]
        self.h, self.w = len(self.board), len(self.board[0])
        assert all(len(row) == self.w and set(row) <= set(".#o") for row in self.board)
        self.kinds = [(colour, attack) for _, colour, attack in pieces]
        assert len(set(self.kinds)) == len(self.kinds), "a (colour, kind) given twice"
        self.pieces = pieces
        self.model = cp_model.CpModel()
        m = self.model
        self.empty = [(r, c) for r in range(self.h) for c in range(self.w)
                      if self.board[r][c] == "."]
        self.x = {(r, c, k): m.NewBoolVar(f"x{r}_{c}_{k}")
                  for r, c in self.empty for k in range(len(self.kinds))}
        self.occupied = {}
        for r, c in self.empty:
            here = [self.x[r, c, k] for k in range(len(self.kinds))]
            m.AddAtMostOne(here)
            self.occupied[r, c] = m.NewBoolVar(f"o{r}_{c}")
            m.Add(sum(here) == self.occupied[r, c])
        for k, (count, _, _) in enumerate(pieces):
            m.Add(sum(self.x[r, c, k] for r, c in self.empty) == count)
        for (r, c), direction, (r2, c2), between in self.lines():
            for k, (colour, attack) in enumerate(self.kinds):
                for l, (colour2, attack2) in enumerate(self.kinds):
                    if colour == colour2:
                        continue
                    if direction not in LINES[attack] and direction not in LINES[attack2]:
                        continue
                    # k on (r, c) and l on (r2, c2) only with a piece between them.
                    m.AddBoolOr([self.x[r, c, k].Not(), self.x[r2, c2, l].Not(),
                                 *(self.occupied[s] for s in between)])

    def lines(self):
        """Each pair of empty squares in line with no wall between them, once: (square,
        direction, other square, the empty squares between them)."""
        for r, c in self.empty:
            for dr, dc in ORTHOGONAL + DIAGONAL:
                between = []
                r2, c2 = r + dr, c + dc
                while 0 <= r2 < self.h and 0 <= c2 < self.w and self.board[r2][c2] != "#":
                    if self.board[r2][c2] == ".":
                        yield (r, c), (dr, dc), (r2, c2), tuple(between)
                        between.append((r2, c2))
                    r2, c2 = r2 + dr, c2 + dc

    def renamings(self):
        """Every renaming of colours that maps each colour to one of an identical piece
        set (the identity included), as a dict."""
        sets = {}
        for count, colour, attack in self.pieces:
            sets.setdefault(colour, set()).add((count, attack))
        colours = sorted(sets)
        return [dict(zip(colours, p)) for p in itertools.permutations(colours)
                if all(sets[a] == sets[b] for a, b in zip(colours, p))]

    def block(self, placement):
        """Forbid ``placement`` (a dict square -> kind index) and every image of it under
        the colour renamings: each is one clause (a placement has exactly the counted
        pieces, so it is the one placement with all of its pieces)."""
        index = {kind: k for k, kind in enumerate(self.kinds)}
        for renaming in self.renamings():
            image = [self.x[r, c, index[renaming[self.kinds[k][0]], self.kinds[k][1]]]
                     for (r, c), k in placement.items()]
            self.model.AddBoolOr([v.Not() for v in image])

    def fix(self, placement):
        """Require exactly ``placement``: its pieces, and no piece elsewhere."""
        for (r, c), k in placement.items():
            self.model.Add(self.x[r, c, k] == 1)
        for square in self.empty:
            if square not in placement:
                self.model.Add(self.occupied[square] == 0)

    def solve(self, seconds, workers=WORKERS):
        """One placement (dict square -> kind index), or None when there is none; raises
        Undecided on a time-out."""
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = seconds
        solver.parameters.num_workers = workers
        status = solver.Solve(self.model)
        if status == cp_model.INFEASIBLE:
            return None
        if status not in (cp_model.FEASIBLE, cp_model.OPTIMAL):
            raise Undecided(f"CP-SAT: {solver.StatusName(status)} after {seconds} s")
        return {(r, c): k for (r, c, k), v in self.x.items() if solver.Value(v)}

    def rows(self, placement):
        """A placement (dict square -> kind index) as a record's solution rows."""
        def square(r, c):
            if (r, c) in placement:
                return "".join(self.kinds[placement[r, c]])
            return self.board[r][c] * 2
        return [" ".join(square(r, c) for c in range(self.w)) for r in range(self.h)]

    def placement_of(self, solution_rows):
        """A record's solution rows as a dict square -> kind index (KeyError for a piece
        of no listed kind)."""
        index = {kind: k for k, kind in enumerate(self.kinds)}
        squares = read_solution(solution_rows)
        assert len(squares) == self.h * self.w, "the solution is not the board's size"
        return {divmod(i, self.w): index[v] for i, v in enumerate(squares) if v is not None}


def count_classes(board, pieces_text, limit=2, seconds=30.0):
    """How many placements ``board`` has for ``pieces_text`` modulo the colour renamings,
    up to ``limit``. Raises Undecided when CP-SAT runs out of time."""
    model = Model(board, read_pieces(pieces_text))
    found = 0
    while found < limit:
        placement = model.solve(seconds)
        if placement is None:
            break
        found += 1
        model.block(placement)
    return found


def valid(board, pieces_text, solution_rows, seconds=30.0):
    """Whether the solution rows are a placement of exactly the pieces, by these rules
    (pieces on empty squares of the board, counts exact, no attack between colours), the
    other squares shown as the board has them."""
    model = Model(board, read_pieces(pieces_text))
    try:
        placement = model.placement_of(solution_rows)
    except KeyError:
        return False
    if any(model.board[r][c] != "." for r, c in placement):
        return False
    if model.rows(placement) != [" ".join(row.split()) for row in solution_rows]:
        return False  # a square without a piece that shows another square than the board's
    model.fix(placement)
    return model.solve(seconds) is not None


def verdict(board, pieces_text, solution_rows, seconds=30.0):
    """"unique" when no placement differs from the solution's (modulo the colour
    renamings), "several" when one does, "unknown" when CP-SAT runs out of time."""
    model = Model(board, read_pieces(pieces_text))
    model.block(model.placement_of(solution_rows))
    try:
        return "unique" if model.solve(seconds) is None else "several"
    except Undecided:
        return "unknown"
