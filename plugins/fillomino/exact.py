"""An exact, in-process Fillomino check on CP-SAT (OR-Tools), built on the deductions.

isRemoveValid asks it where the deductions and the short search (``deduce.solve``) give
up: is there a solution of the board other than the known one? The model is built from
the domains the deductions leave (``deduce.propagate``), so it only holds what they could
not settle, and runs in this process: no MiniZinc compile, no solver process.

The model (every Fillomino solution is exactly one of its solutions up to the choice of
parents below, so "feasible" means "another solution exists"):

* ``x[c, v]``: cell c holds v, for the values v the deductions leave in c; one per cell;
* ``a[c, r]``: c belongs to the region whose root (least cell index) is r, for the cells
  r <= c close enough to share a region with c (Manhattan distance below a common value);
  one per cell. ``a[r, r]`` says that r is a root, and a cell joins only a root;
* a region's cells share its root's value, and two neighbours share a root exactly when
  they share a value (equal neighbours are one region);
* size by counting: a root r of value v is the root of exactly v cells;
* connectivity by distance labels: every cell that is not a root has a parent, a
  neighbour of its region one step closer to the root (``dist``), so a path inside the
  region leads from every cell to its root.

The search is CP-SAT's own, on one worker, with a limit in CP-SAT's *deterministic* time
(``DETERMINISTIC_LIMIT``), never in wall seconds: the same board gets the same answer on
any machine, and a check that reaches the limit is "unknown" (the caller then asks the
exact MiniZinc check), never "unique".
"""
from __future__ import annotations

from collections.abc import Sequence

from . import deduce

#: CP-SAT deterministic time (its own work units, about seconds on a fast core) after
#: which a check gives up and the MiniZinc check decides.
DETERMINISTIC_LIMIT = 20.0


def other_solution(board: Sequence[int], rows: int, cols: int,
                   exclude: tuple[int, int] | None = None,
                   limit: float | None = None) -> bool | None:
    """Whether ``board`` (0 = empty) has a solution without value ``exclude[1]`` in cell
    ``exclude[0]`` (any solution when ``exclude`` is None): True, False, or None when
    CP-SAT reached ``limit`` (deterministic time; None: ``DETERMINISTIC_LIMIT``)
    undecided."""
    known, poss = deduce.initial(board, rows, cols)
    if exclude is not None and exclude[1] < len(poss):
        poss[exclude[1]] &= ~(1 << exclude[0])
    try:
        deduce.propagate(rows, cols, known, poss)
    except deduce.Contradiction:
        return False
    n = rows * cols
    domains: list[list[int]] = [[] for _ in range(n)]
    for v in range(1, len(known)):
        bits = known[v] | poss[v]
        while bits:
            low = bits & -bits
            domains[low.bit_length() - 1].append(v)
            bits ^= low
    return _feasible(domains, rows, cols, DETERMINISTIC_LIMIT if limit is None else limit)


def _feasible(domains: list[list[int]], rows: int, cols: int, limit: float) -> bool | None:
    from ortools.sat.python import cp_model

    from puzzle_engine.solving.cpsat import run_interruptibly

    n = rows * cols
    m = cp_model.CpModel()
    dom = [set(d) for d in domains]
    x = [{v: m.NewBoolVar("") for v in d} for d in domains]
    for c in range(n):
        m.AddExactlyOne(x[c].values())
    value = [sum(v * b for v, b in x[c].items()) for c in range(n)]

    def md(a: int, b: int) -> int:
        return abs(a // cols - b // cols) + abs(a % cols - b % cols)

    # Root candidates: r <= c sharing a value v with c, Manhattan distance below v.
    roots: list[dict[int, object]] = []
    for c in range(n):
        here = {}
        top = max(dom[c])
        r0 = max(0, (c // cols - top + 1) * cols)
        for r in range(r0, c + 1):
            d = md(r, c)
            if d < top and any(v > d for v in dom[c] & dom[r]):
                here[r] = m.NewBoolVar("")
        roots.append(here)
        m.AddExactlyOne(here.values())
    members: dict[int, list] = {r: [] for r in range(n)}
    for c in range(n):
        for r, a in roots[c].items():
            members[r].append(a)
            if r == c:
                continue
            m.AddImplication(a, roots[r][r])
            d = md(r, c)
            for v, xr in x[r].items():
                xc = x[c].get(v)
                if xc is None or v <= d:
                    m.AddBoolOr([a.Not(), xr.Not()])
                else:
                    m.AddBoolOr([a.Not(), xr.Not(), xc])
    # Size by counting: a root of value v roots exactly v cells.
    for r in range(n):
        m.Add(sum(members[r]) == value[r]).OnlyEnforceIf(roots[r][r])
    # Neighbours: the same value exactly when the same root.
    dist = [m.NewIntVar(0, max(dom[c]) - 1, "") for c in range(n)]
    parents: list[list] = [[] for _ in range(n)]
    for c in range(n):
        m.Add(dist[c] == 0).OnlyEnforceIf(roots[c][c])
        m.Add(dist[c] >= 1).OnlyEnforceIf(roots[c][c].Not())
        m.Add(dist[c] < value[c])
        i, j = divmod(c, cols)
        for d in ((c + 1) if j + 1 < cols else None, (c + cols) if i + 1 < rows else None):
            if d is None:
                continue
            same = m.NewBoolVar("")
            for v in dom[c] | dom[d]:
                xc, xd = x[c].get(v), x[d].get(v)
                if xc is not None and xd is not None:
                    m.AddBoolOr([xc.Not(), xd.Not(), same])
                    m.AddBoolOr([same.Not(), xd.Not(), xc])
                    m.AddBoolOr([same.Not(), xc.Not(), xd])
                else:
                    m.AddImplication(same, (xc if xc is not None else xd).Not())
            for p, q in ((c, d), (d, c)):
                for r, a in roots[p].items():
                    b = roots[q].get(r)
                    if b is None:
                        m.AddBoolOr([same.Not(), a.Not()])
                    else:
                        m.AddBoolOr([same.Not(), a.Not(), b])
                        if p == c:
                            m.AddBoolOr([a.Not(), b.Not(), same])
                # q as p's parent: same region, one step closer to the root.
                par = m.NewBoolVar("")
                m.AddImplication(par, same)
                m.Add(dist[p] == dist[q] + 1).OnlyEnforceIf(par)
                parents[p].append(par)
    for c in range(n):
        m.AddBoolOr(parents[c] + [roots[c][c]])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = limit
    # Ctrl-C is the command's: CP-SAT would take it for itself and end the search as if
    # its limit were up, so that the command went on (and an unknown became MiniZinc's).
    solver.parameters.catch_sigint_signal = False
    status = run_interruptibly(solver, m)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True
    if status == cp_model.INFEASIBLE:
        return False
    return None
