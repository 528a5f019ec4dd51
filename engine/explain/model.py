"""The explanation model in CP-SAT: the flattened model (``flatten``) with one Boolean
indicator per constraint group and one literal per square and value, so that each check
("do these groups, with these facts, allow this?") is a solve under assumptions, in this
process, on a model built once.

A grouped constraint holds only while its group's indicator is true: CP-SAT's
enforcement literals, and for ``all_different_int`` (which CP-SAT cannot enforce
conditionally) at most one square per value, over the value literals; exactly one when
there are as many squares as values. That last, implied, constraint matters: without it
a check where a few squares share too few values is a pigeonhole proof, 20 ms instead of
0.3 ms; and CP-SAT's own all-different, where no indicator is needed, makes the easy
checks three times slower than the literals do (measured on a 9x9)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ModelError
from ..solving import cpsat, flatzinc
from .flatten import Flattened


class _Grouped(cpsat.Translation):
    """``cpsat.Translation`` with each grouped constraint under its group's indicator."""

    def __init__(self, flat: Flattened, constraints: Sequence[int], squares: Sequence[int],
                 switchable: bool):
        self._switchable = switchable
        self._by_item = {id(flat.items[k]): flat.group_of.get(k) for k in constraints}
        self._guards = flat.guards
        # The items that name their group's indicator (all of a group's, from flatten).
        self._guarded = {id(flat.items[k]): sorted(flat.uses[k] & flat.guards.keys())
                         for k in constraints if flat.uses[k] & flat.guards.keys()}
        self._indicators: dict[int, Any] = {}
        self._values: dict[int, dict[int, Any]] = {}
        needed = {flat.squares[x] for x in squares}
        for k in constraints:
            needed |= flat.refs[k] | flat.uses[k]
        items = [it for it in flat.items if it.kind == "par" or (it.kind == "var" and it.name in needed)]
        items += [flat.items[k] for k in constraints]
        super().__init__(items)

    def _indicator(self, group: int):
        if group not in self._indicators:
            self._indicators[group] = self.model.new_bool_var(f"PE_GROUP_{group}")
        return self._indicators[group]

    def _var(self, item: flatzinc.Item) -> None:
        if item.name not in self._guards:  # a group's indicator: made by its first item
            super()._var(item)

    def _constraint(self, item: flatzinc.Item) -> None:
        for name in self._guarded.get(id(item), ()):  # on when asked, or always
            if name not in self.env:  # (made here, in the order of the model's items)
                self.env[name] = self._indicator(self._guards[name]) if self._switchable else True
        if item.name in ("fzn_all_different_int_imp", "fzn_all_different_int_reif"):
            xs, b = self.resolve(item.value[0]), self.resolve(item.value[1])
            if b is not False:
                self._all_different(xs, None if b is True else b)
            if item.name.endswith("_reif") and b is not True:
                self._some_equal(xs, None if b is False else b.Not())
            return
        if id(item) in self._guarded:  # its indicator is in it: the plain translation
            super()._constraint(item)
            return
        group = self._by_item.get(id(item))
        if group is None or not self._switchable:
            if group is not None and item.name in ("fzn_all_different_int", "all_different_int"):
                self._all_different(self.resolve(item.value[0]), None)
                return
            super()._constraint(item)
            return
        on = self._indicator(group)
        name, args = item.name, item.value
        base, mode = name, ""
        for suffix in ("_reif", "_imp"):
            if name.endswith(suffix):
                base, mode = name[:-len(suffix)], suffix[1:]
        if name in cpsat._REIFIED_BY_NAME and len(args) == cpsat._REIFIED_BY_NAME[name]:
            mode = "reif"
        if base in ("fzn_all_different_int", "all_different_int") and not mode:
            self._all_different(self.resolve(args[0]), on)
            return
        if base not in cpsat._RELATIONS or base in cpsat._NATIVE:
            raise flatzinc.FznError(f"line {item.line}: the explainer cannot switch '{name}' "
                                 "off with its group")
        post = cpsat._RELATIONS[base]
        if not mode:
            post(self, args, True, (on,))
            return
        r, rel = self.resolve(args[-1]), args[:-1]
        if isinstance(r, bool):
            if r or mode == "reif":
                post(self, rel, r, (on,))
            return
        post(self, rel, True, (r, on))
        if mode == "reif":
            post(self, rel, False, (r.Not(), on))

    def _all_different(self, xs: Sequence[Any], on) -> None:
        by_value: dict[int, list[Any]] = {}
        fixed: dict[int, int] = {}
        for x in xs:
            if isinstance(x, int):
                fixed[x] = fixed.get(x, 0) + 1
                continue
            for v, lit in self.value_literals(x).items():
                by_value.setdefault(v, []).append(lit)
        enforce = [] if on is None else [on]
        for v, k in fixed.items():
            if k > 1:
                self.model.add_bool_or([x.Not() for x in enforce])
        # As many squares as values: each value exactly once (implied; it spares the
        # solver a pigeonhole proof where a few squares share too few values).
        tight = len(xs) == len(set(by_value) | set(fixed))
        for v, lits in by_value.items():
            bound = 1 - fixed.get(v, 0)
            if tight:
                self.model.add(sum(lits) == bound).only_enforce_if(enforce)
            else:
                self.model.add(sum(lits) <= bound).only_enforce_if(enforce)

    def _some_equal(self, xs: Sequence[Any], on) -> None:
        """Under ``on``: two of ``xs`` share a value (an all_different reified and false)."""
        shared = []
        for v in set().union(*(set(self.value_literals(x)) if not isinstance(x, int) else {x}
                               for x in xs)):
            lits = [x == v if isinstance(x, int) else self.value_literals(x).get(v, False)
                    for x in xs]
            lits = [self.lit(b) if isinstance(b, bool) else b for b in lits]
            two = self.model.new_bool_var("")
            self.model.add(sum(lits) >= 2).only_enforce_if(two)
            shared.append(two)
        self.model.add_bool_or(shared).only_enforce_if([] if on is None else [on])

    def value_literals(self, x) -> dict[int, Any]:
        """A literal per value of integer variable ``x``: true exactly when x takes it."""
        key = x.Index()
        if key not in self._values:
            # x is the sum of value times literal, exactly one literal true: two constraints
            # where a pair of enforced ones per value would be (2.5x faster to solve).
            lits = {v: self.model.new_bool_var("") for v in _values(self.model, x)}
            self.model.add(x == sum(v * b for v, b in lits.items()))
            self.model.add_exactly_one(list(lits.values()))
            self._values[key] = lits
        return self._values[key]


def _values(model, x) -> list[int]:
    dom = cpsat.domain(model, x)
    out = []
    for lo, hi in zip(dom[::2], dom[1::2]):
        if hi - lo > 1000:
            raise flatzinc.FznError(f"variable {x.Name()} has {hi - lo + 1} values: too many to explain")
        out.extend(range(lo, hi + 1))
    return out


@dataclass
class Answer:
    """A check's answer: ``sat``, a solution's value of each of the model's squares when
    satisfiable, and when not, the assumptions that sufficed (a core, not necessarily
    minimal, as indices into the assumptions)."""

    sat: bool
    values: dict[int, int] | None = None
    core: tuple[int, ...] = ()


class GroupModel:
    """The part of the model that some groups (and the background they reach) make: the
    constraint items ``constraints`` of ``flat``, an indicator per group among them
    (``indicator(g)``) and a literal per value of each square of ``squares``
    (``literal(square, v)``).

    Not ``switchable``: the groups always hold (no indicators); the model of a set of
    groups, which every check switches on, is built that way."""

    def __init__(self, flat: Flattened, constraints: Sequence[int], squares: Sequence[int],
                 ptype_name: str, switchable: bool = True):
        try:
            t = _Grouped(flat, constraints, squares, switchable)
        except flatzinc.FznError as exc:
            raise ModelError(f"model error in puzzle '{ptype_name}': the explainer cannot "
                             f"build its model: {exc}") from None
        self._t = t
        self.cp = t.cp
        self.model = t.model
        self.indicators = t._indicators
        self.squares = list(squares)
        self._vars: list[Any] = [int(s) if _is_int(s) else t.resolve(flatzinc.Ident(s))
                                 for s in (flat.squares[x] for x in squares)]
        # Literals per square and value; a square that flattening fixed has one, true.
        self.domains: dict[int, dict[int, Any]] = {}
        for x, var in zip(self.squares, self._vars):
            self.domains[x] = {var: t.true()} if isinstance(var, int) else t.value_literals(var)
        self.solver = self.cp.CpSolver()
        p = self.solver.parameters
        p.num_workers = 1        # one worker and a fixed seed: the same answers in every run
        p.random_seed = 1        # (CP-SAT's default, stated)
        p.cp_model_presolve = False
        p.symmetry_level = 0
        # The checks are many and tiny: the LP relaxation and probing cost more than the
        # search (3x, measured on a row of a 9x9).
        p.linearization_level = 0
        p.cp_model_probing_level = 0
        p.catch_sigint_signal = False
        self.calls = 0
        #: The explainer's: a fact's literal, and each square's fact literals by its
        #: values left.
        self.fact_lits: dict[Any, Any] = {}
        self._any = None

    backend = "cp-sat"

    def literal(self, square: int, value: int):
        return self.domains[square].get(value)

    @staticmethod
    def neg(lit):
        return lit.Not()

    def indicator(self, group: int):
        return self.indicators[group]

    def check(self, assumptions: Sequence[Any], want_core: bool = False) -> Answer:
        """Solve under ``assumptions`` (literals)."""
        self.calls += 1
        self.model.clear_assumptions()
        self.model.add_assumptions(list(assumptions))
        status = self.solver.solve(self.model)
        name = self.solver.status_name(status)
        if name in ("OPTIMAL", "FEASIBLE"):
            return Answer(True, {x: v if isinstance(v, int) else self.solver.value(v)
                                 for x, v in zip(self.squares, self._vars)})
        if name == "INFEASIBLE":
            core = ()
            if want_core:
                where = {self.cp_index(lit): i for i, lit in enumerate(assumptions)}
                core = tuple(sorted(where[k] for k in self.solver.sufficient_assumptions_for_infeasibility()
                                    if k in where))
            return Answer(False, core=core)
        raise ModelError(f"the explainer's check ended {name}")

    def check_any(self, assumptions: Sequence[Any], lits: Sequence[Any],
                  squares: Sequence[int] | None = None) -> Answer:
        """Solve under ``assumptions`` with at least one of ``lits`` true, and as many of
        them as a greedy search finds: each of ``lits`` in turn is tried true first
        (solution support then needs a few rich solutions, not one per literal). The
        solution's values of every square (``squares``: at least of those)."""
        if self._any is None:  # one clause, its literals replaced for each check
            switch = self.model.new_bool_var("")
            self.model.add_bool_or([]).only_enforce_if(switch)
            self._any = (switch, len(self.model.Proto().constraints) - 1)
        switch, at = self._any
        indices = [self.cp_index(lit) for lit in lits]
        proto = self.model.Proto()
        proto.constraints[at].bool_or.literals.extend(indices)
        strategy = proto.search_strategy.add()
        strategy.variables.extend(indices)
        strategy.variable_selection_strategy = strategy.CHOOSE_FIRST
        strategy.domain_reduction_strategy = strategy.SELECT_MAX_VALUE
        params = self.solver.parameters
        params.search_branching = params.FIXED_SEARCH
        try:
            return self.check([*assumptions, switch])
        finally:
            proto.constraints[at].bool_or.literals.clear()
            proto.search_strategy.clear()
            params.search_branching = params.AUTOMATIC_SEARCH

    def cp_index(self, lit) -> int:
        return self.model.get_or_make_boolean_index(lit)


def _is_int(s: str) -> bool:
    try:
        int(s)
    except ValueError:
        return False
    return True
