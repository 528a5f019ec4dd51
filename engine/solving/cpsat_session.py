"""The CP-SAT back end's session: the model translated from the FlatZinc once, in this
process, and every question asked of a copy of it.

A question copies the translated model (``Model.clone``: a copy of its proto, in C++)
and narrows the copy: a given fixes its square's domain, ``differs`` and ``stages`` add
their literals and constraints, ``arrays`` fix other arrays' domains. The copy is solved
with one worker (deterministic) and dropped, so questions never see each other's
additions and threads may share a session. (CP-SAT keeps nothing between solves, so
asking by assumptions on one model would learn nothing more; it measured slower, as
CP-SAT cannot presolve assumptions away: docs/solvers.md.)

Budgets: a question's limit is CP-SAT's deterministic time (``max_deterministic_time``,
work that does not depend on the machine's speed or load), ``time_limit`` seconds of
``--time-limit`` times ``WORK_PER_SECOND`` (``PUZZLE_ENGINE_CPSAT_WORK``); the wall
time limit, ``WALL_SAFETY`` times ``--time-limit``, is only a safety. Either exhausted is
``Run(found, complete=False)``: unknown.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import processes
from ..errors import ModelError, SolverError
from ..types import Board, Status
from .compiled import FlatModel
from . import cpsat_api
from .cpsat import Output, Translation, add_search, configure, run_interruptibly
from .flatzinc import FznError
from .results import Run, SolveResult
from .session import SessionBase, reshape, work_rate

#: Deterministic time (CP-SAT's unit) a question may use per second of ``--time-limit``.
#: CP-SAT did 0.3 to 0.4 units a CPU second on the 2-core machine measured (docs/solvers.md);
#: ``PUZZLE_ENGINE_CPSAT_WORK`` overrides it.
WORK_PER_SECOND = 0.4
WORK_ENV = "PUZZLE_ENGINE_CPSAT_WORK"
#: The wall time limit, a safety for a loaded machine: this many times ``--time-limit``.
WALL_SAFETY = 3.0


def work_per_second() -> float:
    return work_rate(WORK_ENV, WORK_PER_SECOND, 'deterministic time')


class CpsatSession(SessionBase):
    """A session on CP-SAT in this process (see the module's docstring)."""

    def __init__(self, backend, flat: FlatModel):
        self.backend = backend
        self.failed = flat.failed
        self._ptype = flat.ptype
        try:
            self._t = t = Translation(flat.items, cpsat_api.Model())
        except FznError as exc:
            raise SolverError(f"CP-SAT failed on puzzle '{flat.ptype}': {exc}") from None
        self._api = t.api
        self._base = t.model
        self._outputs = {out.name: out for out in t.outputs}
        decision = self._outputs.get(flat.decision)
        if decision is None or decision.dims is None:
            raise ModelError(f"model error in puzzle '{flat.ptype}': decision array "
                             f"'{flat.decision}' is not an output array of the model")
        self._squares: list[Any] = list(decision.value)
        self._shape = tuple(hi - lo + 1 for lo, hi in decision.dims)

    # -- the protocol ----------------------------------------------------------------------
    @property
    def squares(self) -> int:
        return len(self._squares)

    def unfixed(self) -> list[int]:
        return [i for i, x in enumerate(self._squares) if not _constant(x)]

    def close(self) -> None:
        self._base = None

    def run(self, board: Board, limit: int = 1, order: Sequence[int] | None = None,
            stats: bool = False, solution: bool = False, differs: Board | None = None,
            differs_at: Sequence[int] | None = None, stages: Mapping[int, int] | None = None,
            arrays: Mapping[str, Sequence[int]] | None = None, every: bool = False) -> Run:
        """As ``Session.run``; ``stats`` is refused (CP-SAT's search effort is not the
        nodes the graders were trained on)."""
        if stats:
            raise SolverError("CP-SAT runs in this process and reports no search effort "
                              "(nodes) to grade by: grade on gecode or chuffed")
        if len(board) != len(self._squares):
            raise ValueError(f"board has {len(board)} squares, model has {len(self._squares)}")
        sq = self._squares
        model = self._model()
        fixed = all(self._fix(model, sq[i], v) for i, v in enumerate(board) if v)
        for name, values in (arrays or {}).items():
            fixed = self._fix_array(model, name, values) and fixed
        if stages is not None:
            if differs is None or self._t.goal != "satisfy":
                raise ValueError("stages need differs and a satisfaction model")
            free = [i for i in stages if not board[i] and not _constant(sq[i])]
            if not fixed or not free:
                return Run(0, True, {}, None, None)
            stage = model.new_int_var(0, max(stages[i] for i in free), "PE_STAGE")
            diffs = [self._differs(model, sq[i], differs[i]) for i in free]
            for i, d in zip(free, diffs):
                model.add(stage >= stages[i]).only_enforce_if(d)
            model.add_bool_or(diffs)
            model.minimize(stage)
            solver = self._solver(model, order, free=True)
            status = self._solve(solver, model)
            if status == self._api.INFEASIBLE:
                return Run(0, True, {}, None, None)
            if status in (self._api.OPTIMAL, self._api.FEASIBLE):
                return Run(1, status == self._api.OPTIMAL, {}, None, solver.value(stage))
            return Run(0, False, {}, None, None)
        if not fixed:
            return Run(0, True, {})
        if differs is not None:
            at = range(len(board)) if differs_at is None else differs_at
            free = [i for i in at if not board[i] and not _constant(sq[i])]
            if not free:
                return Run(0, True, {})
            if len(free) == 1:
                model.add(sq[free[0]] != differs[free[0]])
            else:
                model.add_bool_or([self._differs(model, sq[i], differs[i]) for i in free])
        solver = self._solver(model, order, free=differs is not None
                              and "-f" in self.backend.check_flags)
        want_boards = solution or every
        found, boards = 0, []
        if limit == 1 and not every:
            status = self._solve(solver, model)
            if status in (self._api.OPTIMAL, self._api.FEASIBLE):
                found = 1
                if want_boards:
                    boards.append(tuple(_value(solver, x) for x in sq))
        else:
            solver.parameters.enumerate_all_solutions = True
            api = self._api

            class Collect(api.Callback):
                def on_solution_callback(self) -> None:
                    nonlocal found
                    found += 1
                    if want_boards and (every or not boards):
                        boards.append(tuple(_value(self, x) for x in sq))
                    if found >= limit:
                        self.stop_search()
            status = self._solve(solver, model, Collect())
        if status == self._api.INFEASIBLE:
            return Run(0, True, {})
        complete = found >= limit or (status == self._api.OPTIMAL)
        return Run(found, complete, {}, boards[0] if solution and boards else None,
                   every=tuple(boards) if every else ())

    # -- whole solves ----------------------------------------------------------------------
    def outputs(self, limit: int = 1, goal: str = "satisfy"
                ) -> tuple[SolveResult, list[dict[str, Any]]]:
        """As ``WholeSession.outputs``: the model's output variables, as minizinc-python
        gives them, for each solution."""
        t, api = self._t, self._api
        if goal not in ("satisfy", "minimize", "maximize"):
            raise ValueError(f"goal {goal!r}")
        optimising = goal != "satisfy"
        if optimising and t.objective is None:
            raise ValueError(f"goal {goal!r} on a model without an objective")
        if self.failed:
            return SolveResult(Status.UNSAT), []
        model = self._model()
        if optimising:
            (model.minimize if goal == "minimize" else model.maximize)(t.objective)
        solver = self._solver(model, None, free=self.backend.free_search)
        outs = t.outputs
        raw: list[dict[str, Any]] = []
        enumerate_ = not optimising and limit != 1
        if enumerate_:
            solver.parameters.enumerate_all_solutions = True

            class Collect(api.Callback):
                def on_solution_callback(self) -> None:
                    raw.append(_outputs(self, outs))
                    if limit and len(raw) >= limit:
                        self.stop_search()
            status = self._solve(solver, model, Collect())
        else:
            status = self._solve(solver, model)
            if status in (api.OPTIMAL, api.FEASIBLE):
                raw.append(_outputs(solver, outs))
        stats = {"nodes": solver.num_branches, "failures": solver.num_conflicts,
                 "solveTime": solver.wall_time, "deterministicTime": solver.deterministic_time,
                 "nSolutions": len(raw)}
        if status == api.INFEASIBLE:
            return SolveResult(Status.UNSAT, stats), []
        if not raw:
            return SolveResult(Status.UNKNOWN, stats), []
        if optimising:
            value = _value(solver, t.objective)
            raw[-1]["objective"] = value
            proven = status == api.OPTIMAL
            return SolveResult(Status.OPTIMAL if proven else Status.SAT, stats, value), raw
        ended = enumerate_ and status == api.OPTIMAL and (limit == 0 or len(raw) < limit)
        return SolveResult(Status.ALL if ended else Status.SAT, stats), raw

    # -- the parts -------------------------------------------------------------------------
    def _model(self):
        if self._base is None:
            raise SolverError("the CP-SAT session is closed")
        return self._base.clone()

    def _solver(self, model, order: Sequence[int] | None, free: bool):
        """A solver for ``model``: one worker, the budget, and the search: ``order``'s
        squares first, smallest value first (so the first solution is the least in that
        order), else the model's annotation unless ``free``."""
        api = self._api
        solver = api.Solver()
        configure(solver)
        limit = self.backend.time_limit
        if limit:
            solver.parameters.max_deterministic_time = max(limit * work_per_second(), 1e-3)
            solver.parameters.max_time_in_seconds = max(limit * WALL_SAFETY, 1e-3)
        if order is not None:
            xs = [self._squares[i] for i in order if not _constant(self._squares[i])]
            if xs:
                model.add_decision_strategy(xs, api.VAR_SELECTION.CHOOSE_FIRST,
                                            api.VALUE_SELECTION.SELECT_MIN_VALUE)
                solver.parameters.search_branching = api.FIXED_SEARCH
                # Presolve rewrites variables (substitutions, merged equalities), after
                # which the fixed search no longer meets solutions in this order: on a
                # 9x9 grid the first solution then differed from Gecode's least one.
                solver.parameters.cp_model_presolve = False
        elif not free:
            add_search(self._t, model, solver)
        return solver

    def _solve(self, solver, model, callback=None):
        processes.check_stopping()
        self.backend.count_call()
        status = run_interruptibly(solver, model, callback)
        if status == self._api.MODEL_INVALID:
            raise SolverError(f"CP-SAT failed on puzzle '{self._ptype}': it rejected the "
                              f"model ({model.validate() or 'invalid model'})")
        return status

    @staticmethod
    def _fix(model, x: Any, v: int) -> bool:
        """Narrow ``x`` to ``v`` in ``model``; False when ``v`` is outside its domain."""
        if _constant(x):
            return int(x) == v
        index = x.index
        if index < 0:  # a negated Boolean literal: fixed by a constraint
            model.add(x == v)
            return True
        dom = model.proto.variables[index].domain
        bounds = list(dom)
        if not any(bounds[k] <= v <= bounds[k + 1] for k in range(0, len(bounds), 2)):
            return False
        dom.clear()
        dom.extend([v, v])
        return True

    def _fix_array(self, model, name: str, values: Sequence[int]) -> bool:
        out = self._outputs.get(name)
        if out is None or out.dims is None:
            raise ModelError(f"model error in puzzle '{self._ptype}': array '{name}' is not "
                             "an output array of the model")
        if len(values) != len(out.value):
            raise ValueError(f"array '{name}' has {len(out.value)} elements, not {len(values)}")
        return all([self._fix(model, x, int(v)) for x, v in zip(out.value, values)])

    @staticmethod
    def _differs(model, x: Any, value: int):
        """A literal that holds exactly when ``x`` differs from ``value``."""
        d = model.new_bool_var("")
        model.add(x != value).only_enforce_if(d)
        model.add(x == value).only_enforce_if(d.Not())
        return d


def _constant(x: Any) -> bool:
    return isinstance(x, (bool, int))


def _value(reader, x: Any) -> int:
    return int(x) if _constant(x) else reader.value(x)


def _outputs(reader, outs: list[Output]) -> dict[str, Any]:
    """A solution's output variables as minizinc-python gives them."""
    def one(x: Any, boolean: bool):
        if boolean:
            return bool(x) if _constant(x) else bool(reader.boolean_value(x))
        return _value(reader, x)
    got: dict[str, Any] = {}
    for out in outs:
        if out.dims is None:
            got[out.name] = one(out.value, out.boolean)
        else:
            values = [one(x, out.boolean) for x in out.value]
            got[out.name] = reshape(values, tuple(hi - lo + 1 for lo, hi in out.dims))
    return got
