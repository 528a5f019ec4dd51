"""The criterion ``polyomino-optimum``: the solver proves the optimum; a second solve,
with every piece forced onto the board and the score fixed at the optimum, decides Type I
(it has a solution) or Type II (it has none); a third counts the optimal placements up to
swapping identical pieces (the model holds identical pieces as one kind, so each such
class is one solution). A board is accepted when the optimum is proven, and, as the
params ask, it is of the ``type`` wanted and its optimum is unique (``unique_optimum``).
A time-out in any of these solves is unknown, never an acceptance."""
from __future__ import annotations

from puzzle_engine import Status
from puzzle_engine.criteria import Criterion, Verdict, not_proven


class PolyominoOptimum(Criterion):
    name = "polyomino-optimum"
    description = ("a proven optimum, its type (I: an optimum uses every piece; II: none "
                   "does) and how many placements reach it, as the params ask")

    def judge(self, engine, ptype, params, instance, limit: int = 1) -> Verdict:
        result, best = engine.solve(ptype, params, instance)
        if result.status == Status.UNSAT:  # (cannot happen: no piece at all is a placement)
            return Verdict(False, 0, result.status)
        if result.status != Status.OPTIMAL or not best:
            return not_proven(result, best)
        value = int(result.objective)
        fields = {"optimum": value}
        # Type: a placement of every piece that scores the optimum. The optimal placement
        # found may show it already; else a solve decides it.
        if 0 not in best[0]:
            kind = "I"
        else:
            forced, _ = engine.solve(ptype, params, instance, goal="satisfy",
                                     extra=[f"constraint all_used /\\ score = {value};"])
            if forced.status == Status.UNKNOWN:
                return Verdict(None, 1, forced.status, best[0], value, fields)
            kind = "I" if forced.status != Status.UNSAT else "II"
        fields["board_type"] = kind
        if params.get("type") not in (None, kind):  # refused: no need to count
            return Verdict(False, 1, result.status, best[0], value, fields)
        counted, optimal = engine.solve(ptype, params, instance, nr_solutions=limit + 1,
                                        goal="satisfy", extra=[f"constraint score = {value};"])
        n = len({engine.key(ptype, params, s) for s in optimal})
        if n <= limit and counted.status not in (Status.ALL, Status.UNSAT):
            return Verdict(None, n, counted.status, best[0], value, fields)
        fields["unique_optimum"] = n == 1
        accepted = n <= limit or not params.get("unique_optimum")
        return Verdict(accepted, n, result.status, best[0], value, fields)
