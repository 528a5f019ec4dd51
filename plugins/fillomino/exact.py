"""Fillomino's exact check where the deductions and the searches give up, asked of a
session on the type's own model (``checker.session``: the engine compiles the model once
and keeps it; with an in-process back end, the solver keeps what it learnt from one
question to the next).

isRemoveValid asks it: is there a solution of the board other than the known one, with
a value other than the known one in the emptied cell? The deductions (``deduce.propagate``)
run first, with that value excluded: a contradiction answers "no" at once, and every cell
they settle is given to the solver as an assumption of the question alone, besides the
board's givens. The deductions are sound, so those assumptions keep every solution: the
answer is the exact one, whatever back end decides.

A question that runs out of the session's limits is "unknown" (None): the caller then asks
the engine's checker, and never takes it for "unique".
"""
from __future__ import annotations

from collections.abc import Sequence

from . import deduce

#: The solver of the exact questions: one that learns and runs in this process (CP-SAT:
#: on a hard 12x12 question measured, Chuffed on the same model did not finish in 120 s,
#: docs/performance.md). Its session has the engine's time limit, which CP-SAT's session
#: counts in deterministic time, so that the machine's load never decides a removal.
SOLVER = "cp-sat"


def assumptions(board: Sequence[int], rows: int, cols: int,
                exclude: tuple[int, int] | None = None) -> list[int] | None:
    """``board`` with every cell the deductions settle filled in (``exclude``'s value
    ruled out of its cell first), or None when they find no solution at all."""
    known, poss = deduce.initial(board, rows, cols)
    if exclude is not None and exclude[1] < len(poss):
        poss[exclude[1]] &= ~(1 << exclude[0])
    try:
        deduce.propagate(rows, cols, known, poss)
    except deduce.Contradiction:
        return None
    filled = list(board)
    for v in range(1, len(known)):
        bits = known[v]
        while bits:
            low = bits & -bits
            filled[low.bit_length() - 1] = v
            bits ^= low
    return filled


def other_solution(session, board: Sequence[int], rows: int, cols: int, full: Sequence[int],
                   index: int | None = None) -> bool | None:
    """Whether ``board`` (0 = empty) has a solution with a value other than ``full``'s in
    cell ``index`` (any solution when ``index`` is None): True, False, or None when the
    session's solver ran out of its limits. ``session`` is a session on the type's model
    (``Session.run``) with data whose value bound every solution of ``board`` respects."""
    exclude = None if index is None else (index, full[index])
    filled = assumptions(board, rows, cols, exclude)
    if filled is None:
        return False
    if index is None or filled[index]:
        # Any solution counts: the deductions settled the cell on another value.
        run = session.run(tuple(filled))
    else:
        # A full board that agrees with the assumptions and with ``full`` in the cell.
        other = tuple(f or s for f, s in zip(filled, full))
        run = session.run(tuple(filled), differs=other, differs_at=(index,))
    if run.found:
        return True
    return False if run.complete else None
