"""Combination on the HTML play page (``play_grid``): a ``PieceBoard`` whose kinds are the
level's piece types, one square each, with the colour's group and the attack's rays, so
that the page marks the pieces attacked by another colour and counts what is left to
place; each kind's ``value`` is the explainer's, so that a hint follows its steps."""
from __future__ import annotations

from puzzle_engine import PieceBoard, PieceKind
from puzzle_engine.render.play import BLOCKED, HOLE

from .drawing import GLYPHS, PALETTE
from .squares import EMPTY, WALL

ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
RAYS = {"rook": ORTHOGONAL, "bishop": DIAGONAL, "queen": ORTHOGONAL + DIAGONAL}


def play_grid(level, solution, colour_letters: str, attacks: tuple[str, ...]) -> PieceBoard:
    """The level as pieces to place; ``solution`` a piece ``4 * colour + attack`` on a
    square (attack 1 to 3 in the order of ``attacks``), 0 empty, below 0 wall or hole."""
    kinds, index = [], {}
    for p in level.pieces:
        letter = colour_letters[p.colour - 1]
        value = 4 * p.colour + attacks.index(p.attack) + 1
        index[value] = len(kinds)
        kinds.append(PieceKind(count=p.count, name=f"{p.attack} {letter}",
                               colour=PALETTE[(p.colour - 1) % len(PALETTE)],
                               symbol=GLYPHS[p.attack] + letter, group=p.colour,
                               rays=RAYS[p.attack], value=value))
    cells = tuple(0 if v == EMPTY else BLOCKED if v == WALL else HOLE for v in level.board)
    placed = tuple((index[v], (i,)) for i, v in enumerate(solution) if v > 0)
    return PieceBoard(rows=level.height, cols=level.width, cells=cells, kinds=tuple(kinds),
                      solution=placed, rule="attacks")
