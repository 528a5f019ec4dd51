"""CP-SAT's model and solver on OR-Tools' compiled helper alone, without ``cp_model``.

``ortools.sat.python.cp_model`` imports numpy and pandas at its top (for its Series
API, which nothing here uses), and its ``CpModel`` (the helper's ``CpBaseModel``) imports
numpy when made: 0.85 s of CPU per process, more than a whole small command may
cost (docs/performance.md). ``Model`` here writes the model's proto (the helper's
``CpModelProto``) directly, for the ``CpModel`` methods the FlatZinc translation and the
sessions call, with the helper's variables and linear expressions; ``Solver`` is
``CpSolver``'s solve, stop and read on the helper's solve wrapper. Importing this costs
0.15 s. (The explainer, which needs more of ``CpModel``, keeps ``cp_model``.)
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


class Constraint:
    """A constraint just added: ``only_enforce_if`` puts it under literals."""

    __slots__ = ("_model", "_index")

    def __init__(self, model: Model, index: int):
        self._model, self._index = model, index

    def only_enforce_if(self, *lits) -> Constraint:
        model = self._model
        got = [model.literal(lit) for lit in _flat(lits) if lit is not True]
        model.proto.constraints[self._index].enforcement_literal.extend(got)
        return self

    def index(self) -> int:
        return self._index


class Model:
    """A CP-SAT model: ``cp_model.CpModel``'s methods that the FlatZinc translation and
    the sessions call, writing the model's proto directly."""

    def __init__(self) -> None:
        self.proto = cmh.CpModelProto()
        self._constants: dict[int, Any] = {}

    def Proto(self):  # noqa: N802 - CpModel's name
        return self.proto

    def clone(self) -> Model:
        """A copy to add to: the same variables (by index), constraints and constants."""
        copy = Model()
        copy.proto.copy_from(self.proto)
        copy._constants = dict(self._constants)
        return copy

    # variables
    def new_int_var_from_domain(self, domain: Domain, name: str):
        return cmh.IntVar(self.proto).with_name(name).with_domain(domain)

    def new_int_var(self, lb: int, ub: int, name: str):
        return self.new_int_var_from_domain(Domain(lb, ub), name)

    def new_bool_var(self, name: str):
        return self.new_int_var_from_domain(Domain(0, 1), name)

    def new_constant(self, value: int):
        value = int(value)
        var = self._constants.get(value)
        if var is None:
            var = self._constants[value] = self.new_int_var(value, value, "")
        return var

    def literal(self, lit: Any) -> int:
        """A literal's index in the proto (a bool or 0/1 is the fixed literal)."""
        if isinstance(lit, (bool, int)):
            one = self.new_constant(1).index
            return one if lit else -one - 1
        return lit.index

    get_or_make_boolean_index = literal

    def _expr(self, out: Any, e: Any) -> None:
        """Write the affine or linear expression ``e`` into the proto message ``out``."""
        if isinstance(e, (bool, int)):
            out.offset = int(e)
            return
        flat = cmh.FlatIntExpr(e)
        out.vars.extend([v.index for v in flat.vars])
        out.coeffs.extend(flat.coeffs)
        out.offset = flat.offset

    def _add(self):
        index = len(self.proto.constraints)
        return Constraint(self, index), self.proto.constraints.add()

    # constraints
    def add(self, ct: Any) -> Constraint:
        if isinstance(ct, bool):
            return self.add_bool_or([True] if ct else [])
        if not isinstance(ct, cmh.BoundedLinearExpression):
            raise TypeError(f"not supported: Model.add({type(ct).__name__!r})")
        offset, indices, coeffs = ct.offset, [], []
        for v, c in zip(ct.vars, ct.coeffs):
            if v.index < 0:  # a negated literal: c * (1 - x)
                offset += c
                indices.append(-v.index - 1)
                coeffs.append(-c)
            else:
                indices.append(v.index)
                coeffs.append(c)
        bounds = ct.bounds
        if not indices:  # a constant relation: true, or false unless not enforced
            return self.add_bool_and([]) if bounds.contains(offset) else self.add_bool_or([])
        if offset:
            bounds = bounds.addition_with(Domain(-offset, -offset))
        handle, proto = self._add()
        linear = proto.linear
        linear.vars.extend(indices)
        linear.coeffs.extend(coeffs)
        linear.domain.extend(bounds.flattened_intervals())
        return handle

    def add_linear_expression_in_domain(self, expr: Any, domain: Domain) -> Constraint:
        if isinstance(expr, (bool, int)):
            return self.add_bool_and([]) if domain.contains(int(expr)) else self.add_bool_or([])
        return self.add(cmh.BoundedLinearExpression(expr, domain))

    def _bools(self, field: str, lits: tuple) -> Constraint:
        handle, proto = self._add()
        getattr(proto, field).literals.extend([self.literal(x) for x in _flat(lits)])
        return handle

    def add_bool_or(self, *lits) -> Constraint:
        return self._bools("bool_or", lits)

    def add_bool_and(self, *lits) -> Constraint:
        return self._bools("bool_and", lits)

    def add_bool_xor(self, *lits) -> Constraint:
        return self._bools("bool_xor", lits)

    def add_exactly_one(self, *lits) -> Constraint:
        return self._bools("exactly_one", lits)

    def add_at_most_one(self, *lits) -> Constraint:
        return self._bools("at_most_one", lits)

    def add_implication(self, a: Any, b: Any) -> Constraint:
        return self.add_bool_or([b]).only_enforce_if(a)

    def add_all_different(self, *exprs) -> Constraint:
        handle, proto = self._add()
        alldiff = proto.all_diff
        for e in _flat(exprs):
            self._expr(alldiff.exprs.add(), e)
        return handle

    def add_element(self, index: Any, exprs: Any, target: Any) -> Constraint:
        exprs = list(exprs)
        if not exprs:
            raise ValueError("add_element expects a non-empty expressions array")
        if isinstance(index, int):
            return self.add(exprs[index] == target)
        handle, proto = self._add()
        element = proto.element
        self._expr(element.linear_index, index)
        self._expr(element.linear_target, target)
        for e in exprs:
            self._expr(element.exprs.add(), e)
        return handle

    def add_allowed_assignments(self, exprs: Any, tuples: Any) -> Constraint:
        exprs = list(exprs)
        if not exprs:
            raise ValueError("add_allowed_assignments expects a non-empty expressions array")
        handle, proto = self._add()
        table = proto.table
        for e in exprs:
            self._expr(table.exprs.add(), e)
        for row in tuples:
            if len(row) != len(exprs):
                raise TypeError(f"a tuple of {len(row)} values for {len(exprs)} expressions")
            table.values.extend([int(v) for v in row])
        return handle

    def _arguments(self, field: str, target: Any, exprs: list) -> Constraint:
        handle, proto = self._add()
        message = getattr(proto, field)
        self._expr(message.target, target)
        for e in exprs:
            self._expr(message.exprs.add(), e)
        return handle

    def add_max_equality(self, target: Any, *exprs) -> Constraint:
        return self._arguments("lin_max", target, _flat(exprs))

    def add_min_equality(self, target: Any, *exprs) -> Constraint:
        return self._arguments("lin_max", -target, [-e for e in _flat(exprs)])

    def add_abs_equality(self, target: Any, expr: Any) -> Constraint:
        return self._arguments("lin_max", target, [expr, -expr])

    def add_division_equality(self, target: Any, num: Any, denom: Any) -> Constraint:
        return self._arguments("int_div", target, [num, denom])

    def add_modulo_equality(self, target: Any, expr: Any, mod: Any) -> Constraint:
        return self._arguments("int_mod", target, [expr, mod])

    def add_multiplication_equality(self, target: Any, *exprs) -> Constraint:
        return self._arguments("int_prod", target, _flat(exprs))

    # objective, search, assumptions
    def minimize(self, obj: Any) -> None:
        self._set_objective(obj, False)

    def maximize(self, obj: Any) -> None:
        self._set_objective(obj, True)

    def clear_objective(self) -> None:
        self.proto.clear_objective()
        self.proto.clear_floating_point_objective()

    def _set_objective(self, obj: Any, maximize: bool) -> None:
        self.clear_objective()
        objective = self.proto.objective
        if isinstance(obj, (bool, int)):
            objective.offset = int(obj)
            objective.scaling_factor = 1.0
            return
        flat = cmh.FlatIntExpr(obj)
        sign = -1 if maximize else 1
        objective.vars.extend([v.index for v in flat.vars])
        objective.coeffs.extend([sign * c for c in flat.coeffs])
        objective.offset = sign * flat.offset
        objective.scaling_factor = float(sign)

    def add_decision_strategy(self, variables: Any, var_strategy: Any, value_strategy: Any) -> None:
        strategy = self.proto.search_strategy.add()
        for v in variables:
            expr = strategy.exprs.add()
            if v.index >= 0:
                expr.vars.append(v.index)
                expr.coeffs.append(1)
            else:
                expr.vars.append(-v.index - 1)
                expr.coeffs.append(-1)
                expr.offset = 1
        strategy.variable_selection_strategy = var_strategy
        strategy.domain_reduction_strategy = value_strategy

    def add_assumptions(self, lits: Any) -> None:
        self.proto.assumptions.extend([self.literal(x) for x in lits])

    def clear_assumptions(self) -> None:
        self.proto.assumptions.clear()

    def validate(self) -> str:
        return cmh.CpSatHelper.validate_model(self.proto)


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
