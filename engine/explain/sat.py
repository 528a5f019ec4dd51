"""The explanation model in CNF, on one incremental SAT solver (python-sat's MiniSat) per
model: the same model as ``model.GroupModel`` (the flattened model, a Boolean indicator per
constraint group, a literal per square and value), asked the same questions under
assumptions, but on a solver that keeps its clauses, what it learnt and its heuristics
from one question to the next, with nothing to set up per question. That is Demystify's
way: a question costs microseconds where CP-SAT's set-up and presolve cost milliseconds.

The model is CNF almost directly: each integer variable a literal per value (exactly one
true, the direct encoding), an all_different at most one square per value (exactly one
when there are as many squares as values, as ``model`` does), Boolean relations as
clauses, comparisons of a variable with a constant or with another small-domain variable
as clauses over value literals. A constraint of a group holds under its indicator: each of
its clauses gets the indicator's negation. A model with anything else (linear sums,
products, tables) raises ``Unsupported`` and the explainer keeps CP-SAT (``model``) for it.

A core (``Answer.core``) is the solver's final conflict, the assumptions it used to refute
the question: not minimal, as CP-SAT's is not; the explainer shrinks it by deletion
(``explainer``: clause-set refinement), so reasons are subset-minimal whichever solver
answered, but where a step has several minimal reasons the solver's cores choose which."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pysat.solvers import Solver

from ..errors import ModelError
from ..solving import flatzinc
from .flatten import Flattened

#: python-sat's name of the solver: MiniSat answers the explainer's many tiny questions
#: fastest (measured against CaDiCaL and Glucose on a 9x9, docs/performance.md).
SOLVER = "minicard"
#: Pairwise at-most-one up to this many literals; a sequential counter past it.
PAIRWISE = 12


class Unsupported(Exception):
    """The model has a constraint this translation does not encode."""


class Lit(int):
    """A Boolean variable's literal (a plain ``int`` is an integer constant)."""


class IntVar:
    """An integer variable: a literal per value, exactly one true."""

    __slots__ = ("lits",)

    def __init__(self, lits: dict[int, int]):
        self.lits = lits


def model_items(flat: Flattened, constraints: Sequence[int], squares: Sequence[int]
                ) -> list[flatzinc.Item]:
    """The items of the model of ``constraints``: the parameters, the variables those
    constraints and ``squares`` use, then the constraints (as ``model``'s)."""
    needed = {flat.squares[x] for x in squares}
    for k in constraints:
        needed |= flat.refs[k] | flat.uses[k]
    items = [it for it in flat.items if it.kind == "par" or (it.kind == "var" and it.name in needed)]
    return items + [flat.items[k] for k in constraints]


class _Cnf:
    """The clauses of a grouped model (see the module's text)."""

    def __init__(self, flat: Flattened, constraints: Sequence[int], squares: Sequence[int],
                 switchable: bool):
        self.n = 0
        self.clauses: list[list[int]] = []
        self.atmost: list[list[int]] = []  # native at-most-one constraints (MiniCard's)
        self.env: dict[str, Any] = {}
        self.indicators: dict[int, int] = {}
        self.true = self.new()
        self.clauses.append([self.true])
        by_item = {id(flat.items[k]): flat.group_of.get(k) for k in constraints}
        # The items that name their group's indicator (all of a group's, from flatten).
        guarded = {id(flat.items[k]) for k in constraints if flat.uses[k] & flat.guards.keys()}
        self.line = 0
        for item in model_items(flat, constraints, squares):
            self.line = item.line
            if item.kind == "par":
                self.env[item.name] = self.resolve(item.value)
            elif item.kind == "var":
                if item.name in flat.guards:  # a group's indicator: on when asked, or always
                    g = flat.guards[item.name]
                    self.env[item.name] = self._indicator(g) if switchable else True
                else:
                    self._var(item)
            else:
                group = by_item.get(id(item))
                enforce: tuple[int, ...] = ()
                if group is not None and switchable and id(item) not in guarded:
                    enforce = (self._indicator(group),)
                self._constraint(item, enforce)

    # -- literals and variables ----------------------------------------------------------
    def new(self) -> Lit:
        self.n += 1
        return Lit(self.n)

    def _indicator(self, g: int) -> int:
        if g not in self.indicators:
            self.indicators[g] = self.new()
        return self.indicators[g]

    def resolve(self, e: Any) -> Any:
        if isinstance(e, flatzinc.Ident):
            if e.name not in self.env:
                raise Unsupported(f"line {self.line}: unknown identifier '{e.name}'")
            return self.env[e.name]
        if isinstance(e, flatzinc.Access):
            return self.env[e.name][e.index - 1]
        if isinstance(e, list):
            return [self.resolve(x) for x in e]
        if isinstance(e, (bool, int, flatzinc.IntSet)):
            return e
        raise Unsupported(f"line {self.line}: the value {e!r}")

    def lit(self, e: Any) -> int:
        """A literal for Boolean ``e`` (a constant is the true literal or its negation)."""
        v = self.resolve(e)
        if isinstance(v, bool):
            return self.true if v else -self.true
        if isinstance(v, Lit):
            return v
        raise Unsupported(f"line {self.line}: {v!r} is not a Boolean")

    def _var(self, item: flatzinc.Item) -> None:
        kind, dom = item.type
        if item.array:
            self.env[item.name] = self.resolve(item.value)
            return
        if item.value is not None:
            value = self.resolve(item.value)
            if kind == "int" and dom is not None and isinstance(value, int) \
                    and not isinstance(value, Lit) and value not in dom:
                self.clauses.append([])  # a constant outside its domain: no solution
            elif kind == "int" and dom is not None and isinstance(value, IntVar):
                for v, lit in value.lits.items():
                    if v not in dom:
                        self.clauses.append([-lit])
            self.env[item.name] = value
            return
        if kind == "bool":
            self.env[item.name] = self.new()
            return
        if kind != "int" or dom is None:
            raise Unsupported(f"line {item.line}: a {kind} variable without bounds")
        values = [v for lo, hi in dom.intervals for v in range(lo, hi + 1)]
        if len(values) > 1000:
            raise Unsupported(f"line {item.line}: {len(values)} values")
        lits = {v: self.new() for v in values}
        self.clauses.append(list(lits.values()))
        self._at_most_one(list(lits.values()), ())
        self.env[item.name] = IntVar(lits)

    def value_lits(self, x: Any) -> dict[int, int]:
        """A literal per value of integer ``x`` (a constant: its one value, true)."""
        if isinstance(x, IntVar):
            return x.lits
        if isinstance(x, int) and not isinstance(x, (bool, Lit)):
            return {x: self.true}
        raise Unsupported(f"line {self.line}: {x!r} is not an integer")

    # -- clauses ---------------------------------------------------------------------------
    def clause(self, lits: Sequence[int], enforce: Sequence[int]) -> None:
        self.clauses.append([*lits, *(-e for e in enforce)])

    def _at_most_one(self, lits: Sequence[int], enforce: Sequence[int]) -> None:
        if not enforce:  # one native constraint, where pairs of clauses would be many
            self.atmost.append(list(lits))
            return
        if len(lits) <= PAIRWISE:
            for i, a in enumerate(lits):
                for b in lits[i + 1:]:
                    self.clause([-a, -b], enforce)
            return
        # A sequential counter: s_i says "one of the first i is true".
        prev = None
        for i, a in enumerate(lits):
            if prev is not None:
                self.clause([-a, -prev], enforce)
            if i < len(lits) - 1:
                s = self.new()
                self.clause([-a, s], enforce)
                if prev is not None:
                    self.clause([-prev, s], enforce)
                prev = s

    def _or(self, lits: Sequence[int], holds: bool, enforce: Sequence[int]) -> None:
        if holds:
            self.clause(lits, enforce)
        else:
            for a in lits:
                self.clause([-a], enforce)

    def _and(self, lits: Sequence[int], holds: bool, enforce: Sequence[int]) -> None:
        self._or([-a for a in lits], not holds, enforce)

    # -- constraints -------------------------------------------------------------------------
    def _constraint(self, item: flatzinc.Item, enforce: tuple[int, ...]) -> None:
        name, args = item.name, item.value
        if name in ("fzn_all_different_int_imp", "fzn_all_different_int_reif"):
            xs, b = self.resolve(args[0]), self.resolve(args[1])
            if b is not False:
                self._all_different(xs, enforce if b is True else (*enforce, self.lit(args[1])))
            if name.endswith("_reif") and b is not True:
                self._some_equal(xs, enforce if b is False else (*enforce, -self.lit(args[1])))
            return
        if name in ("fzn_all_different_int", "all_different_int"):
            self._all_different(self.resolve(args[0]), enforce)
            return
        base, mode = name, ""
        for suffix in ("_reif", "_imp"):
            if name.endswith(suffix):
                base, mode = name[:-len(suffix)], suffix[1:]
        if name in _REIFIED_BY_NAME and len(args) == _REIFIED_BY_NAME[name]:
            mode = "reif"
        post = _RELATIONS.get(base)
        if post is None:
            raise Unsupported(f"line {item.line}: '{name}'")
        if not mode:
            post(self, args, True, enforce)
            return
        r = self.lit(args[-1])
        post(self, args[:-1], True, (*enforce, r))
        if mode == "reif":
            post(self, args[:-1], False, (*enforce, -r))

    def _all_different(self, xs: Sequence[Any], enforce: Sequence[int]) -> None:
        by_value: dict[int, list[int]] = {}
        fixed: dict[int, int] = {}
        for x in xs:
            if isinstance(x, IntVar):
                for v, lit in x.lits.items():
                    by_value.setdefault(v, []).append(lit)
            else:
                v = self.value_lits(x)
                (k,) = v
                fixed[k] = fixed.get(k, 0) + 1
        if any(k > 1 for k in fixed.values()):
            self.clause([], enforce)
        # As many squares as values: each value exactly once (implied, as in ``model``).
        tight = len(xs) == len(set(by_value) | set(fixed))
        for v, lits in by_value.items():
            if fixed.get(v, 0):
                for a in lits:
                    self.clause([-a], enforce)
                continue
            self._at_most_one(lits, enforce)
            if tight:
                self.clause(lits, enforce)

    def _some_equal(self, xs: Sequence[Any], enforce: Sequence[int]) -> None:
        """Under ``enforce``: two of ``xs`` share a value."""
        values = sorted(set().union(*(self.value_lits(x) for x in xs)))
        shared = []
        for v in values:
            lits = [self.value_lits(x).get(v) for x in xs]
            lits = [a for a in lits if a is not None]
            if len(lits) < 2:
                continue
            two = self.new()  # two -> at least two of lits: each one's others have one
            for i in range(len(lits)):
                self.clause([-two, *lits[:i], *lits[i + 1:]], ())
            shared.append(two)
        self.clause(shared, enforce)


# -- relations: post(t, args, holds, enforce) ---------------------------------------------

def _compare(op: str):
    def post(t: _Cnf, args, holds: bool, enforce) -> None:
        x, y = t.resolve(args[0]), t.resolve(args[1])
        xs, ys = t.value_lits(x), t.value_lits(y)
        test = {"eq": int.__eq__, "ne": int.__ne__, "le": int.__le__, "lt": int.__lt__}[op]
        if isinstance(x, IntVar) and isinstance(y, IntVar):
            for a, la in xs.items():  # each pair of values the relation (or not) forbids
                for b, lb in ys.items():
                    if test(a, b) != holds:
                        t.clause([-la, -lb], enforce)
            # (x = y with no common value, and the like, are caught: every pair forbidden)
            return
        if isinstance(y, IntVar):  # one side a constant: the other side's values allowed
            allowed = [lb for b, lb in ys.items() if test(x, b) == holds]
        else:
            allowed = [la for a, la in xs.items() if test(a, y) == holds]
        t.clause(allowed, enforce)
    return post


def _bool(kind: str):
    def post(t: _Cnf, args, holds: bool, enforce) -> None:
        a, b = t.lit(args[0]), t.lit(args[1])
        if kind == "eq" or kind == "ne":
            same = (kind == "eq") == holds      # a = b, or a != b
            t.clause([-a, b] if same else [-a, -b], enforce)
            t.clause([a, -b] if same else [a, b], enforce)
        elif kind == "le":
            t._or([-a, b], holds, enforce)
        elif kind == "lt":
            t._and([-a, b], holds, enforce)
        elif kind == "and":
            t._and([a, b], holds, enforce)
        elif kind == "or":
            t._or([a, b], holds, enforce)
    return post


def _clause(t: _Cnf, args, holds: bool, enforce) -> None:
    t._or([t.lit(x) for x in t.resolve(args[0])] + [-t.lit(x) for x in t.resolve(args[1])],
          holds, enforce)


def _array_bool(kind: str):
    def post(t: _Cnf, args, holds: bool, enforce) -> None:
        lits = [t.lit(x) for x in t.resolve(args[0])]
        (t._and if kind == "and" else t._or)(lits, holds, enforce)
    return post


def _set_in(t: _Cnf, args, holds: bool, enforce) -> None:
    xs, s = t.value_lits(t.resolve(args[0])), t.resolve(args[1])
    t.clause([a for v, a in xs.items() if (v in s) == holds], enforce)


_REIFIED_BY_NAME = {"bool_and": 3, "bool_or": 3, "array_bool_and": 2, "array_bool_or": 2}
_RELATIONS = {
    **{f"int_{op}": _compare(op) for op in ("eq", "ne", "le", "lt")},
    "bool_eq": _bool("eq"), "bool_not": _bool("ne"), "bool_xor": _bool("ne"),
    "bool_le": _bool("le"), "bool_lt": _bool("lt"), "bool_and": _bool("and"),
    "bool_or": _bool("or"), "bool_clause": _clause,
    "array_bool_and": _array_bool("and"), "array_bool_or": _array_bool("or"),
    "set_in": _set_in,
}


class Answer:
    """As ``model.Answer``: ``sat``, the squares' values when satisfiable (read from the
    solver's model only when asked: most questions want only ``sat``), and when not the
    indices of the assumptions in the solver's core."""

    __slots__ = ("sat", "core", "_read", "_values")

    def __init__(self, sat: bool, read=None, core: tuple[int, ...] = ()):
        self.sat, self.core, self._read, self._values = sat, core, read, None

    @property
    def values(self) -> dict[int, int] | None:
        if self._values is None and self._read is not None:
            self._values, self._read = self._read(), None
        return self._values


class SatModel:
    """``model.GroupModel`` on a SAT solver: the same attributes and questions, the
    literals plain integers (``neg`` negates one)."""

    backend = "sat"

    def __init__(self, flat: Flattened, constraints: Sequence[int], squares: Sequence[int],
                 ptype_name: str, switchable: bool = True):
        try:
            t = _Cnf(flat, constraints, squares, switchable)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise Unsupported(f"{type(exc).__name__}: {exc}") from None
        self.indicators = t.indicators
        self.squares = list(squares)
        self.domains: dict[int, dict[int, int]] = {}
        for x in self.squares:
            name = flat.squares[x]
            value = int(name) if _is_int(name) else t.resolve(flatzinc.Ident(name))
            self.domains[x] = dict(t.value_lits(value))
        self._t = t
        self.solver = Solver(name=SOLVER, bootstrap_with=t.clauses)
        for lits in t.atmost:
            self.solver.add_atmost(lits, 1)
        self.calls = 0
        #: The explainer's: a fact's literal, and each square's fact literals by its
        #: values left.
        self.fact_lits: dict[Any, Any] = {}

    def close(self) -> None:
        self.solver.delete()

    def literal(self, square: int, value: int):
        return self.domains[square].get(value)

    def indicator(self, group: int):
        return self.indicators[group]

    @staticmethod
    def neg(lit: int) -> int:
        return -lit

    def _solve(self, assumptions: list[int]) -> bool | None:
        return self.solver.solve(assumptions=assumptions)

    def _values(self, squares: Sequence[int] | None = None):
        """A function that reads the values of ``squares`` from the solution just found."""
        model = self.solver.get_model()
        domains = self.domains

        def read() -> dict[int, int]:
            return {x: v for x in (domains if squares is None else squares)
                    for v, lit in domains[x].items() if model[lit - 1] > 0}
        return read

    def check(self, assumptions: Sequence[int], want_core: bool = False,
              squares: Sequence[int] | None = None) -> Answer:
        """Solve under ``assumptions`` (literals); a solution's values of ``squares`` (by
        default all the model's)."""
        self.calls += 1
        assumptions = list(assumptions)
        found = self._solve(assumptions)
        if found is None:
            raise ModelError("the explainer's check ended UNKNOWN")
        if found:
            return Answer(True, self._values(squares))
        core = ()
        if want_core:
            used = self.solver.get_core() or []
            where = {lit: i for i, lit in enumerate(assumptions)}
            core = tuple(sorted({where[lit] for lit in used}))
        return Answer(False, core=core)

    def check_any(self, assumptions: Sequence[int], lits: Sequence[int],
                  squares: Sequence[int] | None = None) -> Answer:
        """Solve under ``assumptions`` with at least one of ``lits`` true, each of them
        preferred true (a solution then shows as many of them as it can)."""
        s = self._t.new()
        self.solver.add_clause([-s, *lits])
        self.solver.set_phases(list(lits))
        try:
            return self.check([*assumptions, s], squares=squares)
        finally:
            self.solver.add_clause([-s])  # this question's clause, off for good
            self.solver.set_phases([-a for a in lits])


def _is_int(s: str) -> bool:
    try:
        int(s)
    except ValueError:
        return False
    return True
