"""Polyomino Math on the HTML play page (``play_grid``): a ``PieceBoard`` of the board's
numbers and the piece set, each kind a shape that turns and flips, scored by the rule
``score`` (max of sum and product) against the optimum, the solution's score."""
from __future__ import annotations

from puzzle_engine import PieceBoard, PieceKind

from .drawing import COLOURS
from .shapes import free, text_of


def play_grid(instance, kinds, counts, placed) -> PieceBoard:
    """``kinds`` and ``counts``: the distinct pieces and how many of each; ``placed``: the
    solution's pieces, ``(free shape, squares, score)`` each."""
    frees = [free(shape) for shape in kinds]
    pieces = tuple(PieceKind(squares=tuple(shape), count=count, name=text_of(shape),
                             colour=COLOURS[k % len(COLOURS)], turns=True)
                   for k, (shape, count) in enumerate(zip(kinds, counts)))
    solution = tuple((frees.index(free(shape)), tuple(squares))
                     for shape, squares, _ in placed)
    return PieceBoard(rows=instance.rows, cols=instance.cols,
                      cells=(0,) * (instance.rows * instance.cols), kinds=pieces,
                      solution=solution, rule="score", numbers=tuple(instance.numbers),
                      goal=sum(score for _, _, score in placed), scoring="max")
