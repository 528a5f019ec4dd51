"""A Combination level as data: its piece types (count, colour, attack) and its board."""
from typing import NamedTuple

ATTACKS = ("rook", "bishop", "queen")
COLOURS = "abcdefgh"


class Piece(NamedTuple):
    """A piece type: how many pieces, their colour (1 for 'a'), their attack."""

    count: int
    colour: int
    attack: str


class Level(NamedTuple):
    """A puzzle: the board (``EMPTY``, ``WALL`` or ``HOLE`` per square, row by row) and
    the piece types to place."""

    width: int
    height: int
    board: tuple[int, ...]
    pieces: tuple[Piece, ...]


def merged(pieces):
    """The piece types with those of one colour and attack added together."""
    out = {}
    for p in pieces:
        key = (p.colour, p.attack)
        out[key] = out[key]._replace(count=out[key].count + p.count) if key in out else p
    return tuple(out.values())


def piece_sets(pieces):
    """Each colour's piece set, as a sorted tuple of (attack, count)."""
    sets = {}
    for p in pieces:
        sets.setdefault(p.colour, []).append((p.attack, p.count))
    return {c: tuple(sorted(s)) for c, s in sets.items()}
