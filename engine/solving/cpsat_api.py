"""CP-SAT's model and solver on OR-Tools' compiled helper alone, without ``cp_model``.

``ortools.sat.python.cp_model`` imports numpy and pandas at its top (for its Series
API, which nothing here uses): about 0.85 s of CPU per process, more than a whole
Polyomino Math command may cost (docs/performance.md). Its ``CpModel`` and ``CpSolver``
are thin layers over ``cp_model_helper`` (the C++ model builder, the solve wrapper); this
module is the same thin layer, for the methods the FlatZinc translation and the sessions
call, on the same helper (0.15 s to import). Any other ``CpModel`` method is borrowed
from ``cp_model`` on first use (importing it then), so code written for ``CpModel`` runs
on a ``Model`` unchanged.
"""
from __future__ import annotations

import threading
from typing import Any

from ortools.sat.python import cp_model_helper as cmh
from ortools.util.python.sorted_interval_list import Domain

__all__ = ["Callback", "Domain", "Model", "Solver", "VAR_SELECTION", "VALUE_SELECTION",
           "FIXED_SEARCH", "OPTIMAL", "FEASIBLE", "INFEASIBLE", "UNKNOWN", "MODEL_INVALID"]

VAR_SELECTION = cmh.DecisionStrategyProto.VariableSelectionStrategy
VALUE_SELECTION = cmh.DecisionStrategyProto.DomainReductionStrategy
FIXED_SEARCH = cmh.SatParameters.SearchBranching.FIXED_SEARCH
OPTIMAL = cmh.CpSolverStatus.OPTIMAL
FEASIBLE = cmh.CpSolverStatus.FEASIBLE
INFEASIBLE = cmh.CpSolverStatus.INFEASIBLE
UNKNOWN = cmh.CpSolverStatus.UNKNOWN
MODEL_INVALID = cmh.CpSolverStatus.MODEL_INVALID


def _flat(args: tuple) -> list:
    """``f(a, b)`` and ``f([a, b])`` alike, as ``CpModel``'s methods take them."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return list(args[0])
    return list(args)


class Model(cmh.CpBaseModel):
    """A CP-SAT model: ``cp_model.CpModel``'s methods, on the compiled helper."""

    def __init__(self, proto: Any = None) -> None:
        cmh.CpBaseModel.__init__(self, proto)

    @property
    def proto(self):
        return self.model_proto

    def Proto(self):  # noqa: N802 - CpModel's name
        return self.model_proto

    def clone(self) -> Model:
        """A copy to add to (variables keep their indices)."""
        copy = Model()
        copy.model_proto.copy_from(self.model_proto)
        copy.rebuild_constant_map()
        return copy

    # variables
    def new_int_var(self, lb: int, ub: int, name: str):
        return cmh.IntVar(self.model_proto).with_name(name).with_domain(Domain(lb, ub))

    def new_int_var_from_domain(self, domain: Domain, name: str):
        return cmh.IntVar(self.model_proto).with_name(name).with_domain(domain)

    def new_bool_var(self, name: str):
        return cmh.IntVar(self.model_proto).with_name(name).with_domain(Domain(0, 1))

    def new_constant(self, value: int):
        return cmh.IntVar(self.model_proto, self.get_or_make_index_from_constant(int(value)))

    # constraints
    def add(self, ct: Any):
        if isinstance(ct, cmh.BoundedLinearExpression):
            return self._add_bounded_linear_expression(ct)
        if isinstance(ct, bool):
            return self.add_bool_or([True] if ct else [])
        raise TypeError(f"not supported: Model.add({type(ct).__name__!r})")

    def add_linear_expression_in_domain(self, expr: Any, domain: Domain):
        if isinstance(expr, int):
            return self.add_bool_and([]) if domain.contains(expr) else self.add_bool_or([])
        return self._add_bounded_linear_expression(cmh.BoundedLinearExpression(expr, domain))

    def add_bool_or(self, *lits):
        return self._add_bool_argument_constraint(cmh.BoolArgumentConstraint.bool_or, *lits)

    def add_bool_and(self, *lits):
        return self._add_bool_argument_constraint(cmh.BoolArgumentConstraint.bool_and, *lits)

    def add_bool_xor(self, *lits):
        return self._add_bool_argument_constraint(cmh.BoolArgumentConstraint.bool_xor, *lits)

    def add_exactly_one(self, *lits):
        return self._add_bool_argument_constraint(cmh.BoolArgumentConstraint.exactly_one, *lits)

    def add_at_most_one(self, *lits):
        return self._add_bool_argument_constraint(cmh.BoolArgumentConstraint.at_most_one, *lits)

    def add_implication(self, a: Any, b: Any):
        return self.add_bool_or([b]).only_enforce_if(a)

    def add_all_different(self, *exprs):
        return self._add_all_different(*exprs)

    def add_element(self, index: Any, exprs: Any, target: Any):
        exprs = list(exprs)
        if not exprs:
            raise ValueError("add_element expects a non-empty expressions array")
        if isinstance(index, int):
            return self.add(exprs[index] == target)
        return self._add_element(index, exprs, target)

    def add_allowed_assignments(self, exprs: Any, tuples: Any):
        exprs = list(exprs)
        if not exprs:
            raise ValueError("add_allowed_assignments expects a non-empty expressions array")
        return self._add_table(exprs, tuples, False)

    def add_min_equality(self, target: Any, *exprs):
        return self._add_linear_argument_constraint(cmh.LinearArgumentConstraint.min, target,
                                                    *exprs)

    def add_max_equality(self, target: Any, *exprs):
        return self._add_linear_argument_constraint(cmh.LinearArgumentConstraint.max, target,
                                                    *exprs)

    def add_abs_equality(self, target: Any, expr: Any):
        return self._add_linear_argument_constraint(cmh.LinearArgumentConstraint.max, target,
                                                    [expr, -expr])

    def add_division_equality(self, target: Any, num: Any, denom: Any):
        return self._add_linear_argument_constraint(cmh.LinearArgumentConstraint.div, target,
                                                    [num, denom])

    def add_modulo_equality(self, target: Any, expr: Any, mod: Any):
        return self._add_linear_argument_constraint(cmh.LinearArgumentConstraint.mod, target,
                                                    [expr, mod])

    def add_multiplication_equality(self, target: Any, *exprs):
        return self._add_linear_argument_constraint(cmh.LinearArgumentConstraint.prod, target,
                                                    *exprs)

    # objective, search, assumptions
    def minimize(self, obj: Any) -> None:
        self._set_objective(obj, False)

    def maximize(self, obj: Any) -> None:
        self._set_objective(obj, True)

    def clear_objective(self) -> None:
        self.model_proto.clear_objective()
        self.model_proto.clear_floating_point_objective()

    def _set_objective(self, obj: Any, maximize: bool) -> None:
        self.clear_objective()
        objective = self.model_proto.objective
        if isinstance(obj, bool) or isinstance(obj, int):
            objective.offset = int(obj)
            objective.scaling_factor = 1.0
            return
        flat = cmh.FlatIntExpr(obj)
        sign = -1 if maximize else 1
        for var in flat.vars:
            objective.vars.append(var.index)
        for c in flat.coeffs:
            objective.coeffs.append(sign * c)
        objective.offset = sign * flat.offset
        objective.scaling_factor = float(sign)

    def add_decision_strategy(self, variables: Any, var_strategy: Any, value_strategy: Any) -> None:
        strategy = self.model_proto.search_strategy.add()
        for v in variables:
            expr = strategy.exprs.add()
            if v.index >= 0:
                expr.vars.append(v.index)
                expr.coeffs.append(1)
            else:
                expr.vars.append(self.negated(v.index))
                expr.coeffs.append(-1)
                expr.offset = 1
        strategy.variable_selection_strategy = var_strategy
        strategy.domain_reduction_strategy = value_strategy

    def negated(self, index: int) -> int:
        return -index - 1

    def add_assumptions(self, lits: Any) -> None:
        for lit in lits:
            self.model_proto.assumptions.append(self.get_or_make_boolean_index(lit))

    def clear_assumptions(self) -> None:
        self.model_proto.assumptions.clear()

    def validate(self) -> str:
        return cmh.CpSatHelper.validate_model(self.model_proto)

    def __getattr__(self, name: str) -> Any:
        """Any other ``CpModel`` method (importing ``cp_model`` once)."""
        if name.startswith("__"):
            raise AttributeError(name)
        from ortools.sat.python import cp_model
        method = getattr(cp_model.CpModel, name, None)
        if method is None or not callable(method):
            raise AttributeError(name)
        return method.__get__(self)


class Callback(cmh.SolutionCallback):
    """A solution callback: override ``on_solution_callback``; ``value`` and
    ``boolean_value`` read the solution at hand."""

    def __init__(self) -> None:
        cmh.SolutionCallback.__init__(self)

    def OnSolutionCallback(self) -> None:  # noqa: N802 - the helper calls this name
        self.on_solution_callback()

    def on_solution_callback(self) -> None:
        pass

    def value(self, expr: Any) -> int:
        return self.Value(expr)

    def boolean_value(self, lit: Any) -> bool:
        return self.BooleanValue(lit)

    def stop_search(self) -> None:
        self.StopSearch()


class Solver:
    """``cp_model.CpSolver``'s solve, stop and read, on the compiled helper."""

    def __init__(self) -> None:
        self.parameters = cmh.SatParameters()
        self.response: Any = None
        self._wrapper: Any = None
        self._lock = threading.Lock()

    def solve(self, model: Model, callback: Callback | None = None):
        with self._lock:
            wrapper = self._wrapper = cmh.SolveWrapper()
        wrapper.set_parameters(self.parameters)
        if callback is not None:
            wrapper.add_solution_callback(callback)
        try:
            self.response = wrapper.solve(model.proto)
        finally:
            if callback is not None:
                wrapper.clear_solution_callback(callback)
            with self._lock:
                self._wrapper = None
        return self.response.status

    def stop_search(self) -> None:
        with self._lock:
            if self._wrapper is not None:
                self._wrapper.stop_search()

    def value(self, expr: Any) -> int:
        return cmh.ResponseHelper.value(self.response, expr)

    def boolean_value(self, lit: Any) -> bool:
        return cmh.ResponseHelper.boolean_value(self.response, lit)

    def status_name(self, status: Any = None) -> str:
        return (self.response.status if status is None else status).name

    def sufficient_assumptions_for_infeasibility(self) -> list[int]:
        return cmh.ResponseHelper.sufficient_assumptions_for_infeasibility(self.response)

    @property
    def objective_value(self) -> float:
        return self.response.objective_value

    @property
    def num_branches(self) -> int:
        return self.response.num_branches

    @property
    def num_conflicts(self) -> int:
        return self.response.num_conflicts

    @property
    def wall_time(self) -> float:
        return self.response.wall_time

    @property
    def deterministic_time(self) -> float:
        return self.response.deterministic_time
