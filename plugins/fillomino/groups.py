"""Fillomino's constraint groups for the explainer: one per cell (the model's
``cell_rules``: the cell's place in its region's tree, its links to its neighbours, and
the size of its region), named after the region it belongs to."""
from __future__ import annotations

from puzzle_engine import ConstraintGroup, ConstraintGroups


def constraint_groups(board, rows: int, cols: int) -> ConstraintGroups:
    """"the region of 4 at r2c5" for a given, "the region at r3c1" for an empty cell;
    ``grouped = true`` turns the model's own copy of the rules off."""
    groups = []
    for c, v in enumerate(board):
        where = f"r{c // cols + 1}c{c % cols + 1}"
        name = f"the region of {v} at {where}" if v else f"the region at {where}"
        groups.append(ConstraintGroup(name, f"cell_rules({c + 1})"))
    return ConstraintGroups(tuple(groups), {"grouped": True})
