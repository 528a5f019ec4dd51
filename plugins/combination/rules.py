"""Combination's rules in Python: whether a piece stands safe (no piece of another colour
attacks it, nor it one), and the colour swaps that keep a placement's meaning."""
from .level import ATTACKS, Piece, merged, piece_sets

STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))


def renaming(solution):
    """The canonical renaming of a solution's colours: within each group of colours whose
    piece sets are identical, colours are renamed in the order their first piece appears
    (row by row) to the group's colours in increasing order. Two solutions that differ by
    swapping such colours get the same renamed solution."""
    pieces = merged(Piece(1, v // 4, ATTACKS[v % 4 - 1]) for v in solution if v > 0)
    sets = piece_sets(pieces)
    free = {}
    for colour in sorted(sets):
        free.setdefault(sets[colour], []).append(colour)
    names = {}
    for v in solution:
        if v > 0 and v // 4 not in names:
            names[v // 4] = free[sets[v // 4]].pop(0)
    return names


def along(code, orthogonal):
    """Whether a piece (``4 * colour + attack``) attacks along a row or column
    (``orthogonal``), or along a diagonal."""
    attack = code % 4  # 1 rook, 2 bishop, 3 queen
    return attack == 3 or attack == (1 if orthogonal else 2)


def met(solution, width, i):
    """The first piece met from square ``i`` along each of the eight directions, before a
    wall or the edge: (whether the line is a row or column, the piece's code)."""
    height = len(solution) // width
    for dr, dc in STEPS:
        r, c = divmod(i, width)
        r, c = r + dr, c + dc
        while 0 <= r < height and 0 <= c < width and solution[r * width + c] != -1:
            other = solution[r * width + c]
            if other > 0:
                yield dr == 0 or dc == 0, other
                break
            r, c = r + dr, c + dc


def attacks(code, orthogonal, other):
    """Whether pieces ``code`` and ``other``, in line with nothing between them, attack
    each other: they differ in colour and either attacks along that line."""
    return other // 4 != code // 4 and (along(code, orthogonal) or along(other, orthogonal))


def safe(solution, width, i, code):
    """Whether a piece ``code`` on the empty square ``i`` of a placement (a solution's
    squares) is safe: the first piece it meets along each of its eight directions, before
    a wall or the edge, is of its colour, or neither of the two attacks along that line."""
    return not any(attacks(code, orthogonal, other)
                   for orthogonal, other in met(solution, width, i))
