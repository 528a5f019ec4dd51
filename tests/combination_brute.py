"""A brute-force enumerator of Combination placements (paper 002), written with no code of
the plugin, for the tests to check the plugin against: boards are row strings of ``.``
empty, ``#`` wall, ``o`` hole, and a placement is a tuple of squares, ``None`` or
(colour, attack).

It places the pieces square by square, row by row, and walks the rays itself. Since
squares are filled in order, two placed pieces in line have every square between them
decided already, so a conflict among placed pieces is final and the search prunes on it.
"""
import itertools

ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
LINES = {"R": ORTHOGONAL, "B": DIAGONAL, "Q": ORTHOGONAL + DIAGONAL}


def read_pieces(text):
    """``2 rook a, 1 queen b`` as [(2, 'a', 'R'), (1, 'b', 'Q')]."""
    out = []
    for part in text.split(","):
        count, attack, colour = part.split()
        out.append((int(count), colour, attack[0].upper()))
    return out


def placements(board, pieces):
    """Every placement of ``pieces`` on ``board`` (rows of '.', '#', 'o') with no piece
    attacked by another colour, each as a tuple of squares: ``None`` or (colour, attack)."""
    h, w = len(board), len(board[0])
    kinds = [(colour, attack) for _, colour, attack in pieces]
    left = [count for count, _, _ in pieces]
    grid = [[None] * w for _ in range(h)]
    found = []

    def first_piece_back(r, c, dr, dc):
        r, c = r + dr, c + dc
        while 0 <= r < h and 0 <= c < w and board[r][c] != "#":
            if grid[r][c] is not None:
                return grid[r][c]
            r, c = r + dr, c + dc
        return None

    def safe(r, c, kind):
        for dr, dc in ORTHOGONAL + DIAGONAL:
            if (dr, dc) > (0, 0):  # only look back at squares already decided
                continue
            other = first_piece_back(r, c, dr, dc)
            if other is None or other[0] == kind[0]:
                continue
            if (dr, dc) in LINES[kind[1]] or (dr, dc) in LINES[other[1]]:
                return False
        return True

    def place(i):
        if i == h * w:
            if not any(left):
                found.append(tuple(v for row in grid for v in row))
            return
        if sum(left) > h * w - i:
            return
        r, c = divmod(i, w)
        place(i + 1)
        if board[r][c] != ".":
            return
        for k, kind in enumerate(kinds):
            if left[k] and safe(r, c, kind):
                grid[r][c], left[k] = kind, left[k] - 1
                place(i + 1)
                grid[r][c], left[k] = None, left[k] + 1

    place(0)
    return found


def classes(found, pieces):
    """The placements up to renaming colours whose piece sets are identical."""
    sets = {}
    for count, colour, attack in pieces:
        sets.setdefault(colour, set()).add((count, attack))
    colours = sorted(sets)
    renamings = [dict(zip(colours, p)) for p in itertools.permutations(colours)
                 if all(sets[a] == sets[b] for a, b in zip(colours, p))]
    return {min((tuple(None if v is None else (ren[v[0]], v[1]) for v in f) for ren in renamings),
                key=repr) for f in found}


def representatives(found, pieces):
    """The placements the model keeps: where colours of identical piece sets appear in
    increasing order of their first square (row by row). One per class."""
    sets = {}
    for count, colour, attack in pieces:
        sets.setdefault(colour, set()).add((count, attack))

    def ordered(f):
        first = {}
        for i, v in enumerate(f):
            if v is not None:
                first.setdefault(v[0], i)
        return all(first[a] < first[b] for a in sets for b in sets
                   if a < b and sets[a] == sets[b])
    return [f for f in found if ordered(f)]


def read_solution(rows):
    """A solution's rows ('aR .. ## oo') as a tuple like ``placements`` gives."""
    return tuple(None if s in ("..", "##", "oo") else (s[0], s[1])
                 for row in rows for s in row.split())
