"""Combination's text format: a level's first line lists its piece types, ``2 rook a, 1
queen b`` (count, attack, colour letter); the rows follow, ``.`` empty, ``#`` wall, ``o``
hole. In a solution, every square is two letters: ``aR`` a rook of colour a (``B``
bishop, ``Q`` queen), ``..``, ``##``, ``oo``."""
from puzzle_engine import PuzzleInputError

from .level import ATTACKS, COLOURS, Piece, merged
from .squares import READ_SQUARE, SQUARE


def rows_text(board, width):
    """The board as a list of row strings."""
    return ["".join(SQUARE[v] for v in board[r:r + width]) for r in range(0, len(board), width)]


def piece_symbol(v):
    """A solution's square as two letters: ``aR`` a rook of colour a (``B`` bishop, ``Q``
    queen), ``..`` empty, ``##`` a wall, ``oo`` a hole."""
    shown = {-1: "##", -2: "oo", 0: ".."}
    return shown[v] if v <= 0 else COLOURS[v // 4 - 1] + "RBQ"[v % 4 - 1]


def solution_rows(solution, width):
    """A solution (``-1`` wall, ``-2`` hole, 0 empty, ``4 * colour + attack`` a piece,
    attack 1 rook, 2 bishop, 3 queen) as row strings of two-letter squares."""
    return [" ".join(piece_symbol(v) for v in solution[r:r + width])
            for r in range(0, len(solution), width)]


def pieces_text(pieces):
    return ", ".join(f"{p.count} {p.attack} {COLOURS[p.colour - 1]}" for p in pieces)


def read_pieces(text):
    """Piece types from ``2 rook a, 1 queen b``; a bad one is one line naming it."""
    pieces = []
    for n, part in enumerate(text.split(","), 1):
        words = part.split()
        if len(words) != 3:
            raise PuzzleInputError(f"piece type {n} {part.strip()!r}: expected 'COUNT ATTACK "
                                   "COLOUR', e.g. '2 rook a'")
        count, attack, colour = words
        if not count.isdigit() or int(count) < 1:
            raise PuzzleInputError(f"piece type {n}: bad count {count!r} (expected 1 or more)")
        if attack not in ATTACKS:
            raise PuzzleInputError(f"piece type {n}: unknown attack {attack!r} (expected "
                                   f"{', '.join(ATTACKS)})")
        if len(colour) != 1 or colour not in COLOURS:
            raise PuzzleInputError(f"piece type {n}: unknown colour {colour!r} (expected a "
                                   f"letter from {COLOURS[0]} to {COLOURS[-1]})")
        pieces.append(Piece(int(count), COLOURS.index(colour) + 1, attack))
    return merged(pieces)


def read_rows(rows):
    """A flat board from row strings; a bad symbol or a ragged row is one line naming it."""
    width = len(rows[0])
    board = []
    for r, row in enumerate(rows, 1):
        if len(row) != width:
            raise PuzzleInputError(f"row {r} has {len(row)} squares, expected {width}")
        for c, ch in enumerate(row, 1):
            if ch not in READ_SQUARE:
                raise PuzzleInputError(f"row {r}, column {c}: unknown square {ch!r} "
                                       "(expected . empty, # wall or o hole)")
            board.append(READ_SQUARE[ch])
    return width, tuple(board)
