"""FlatZinc encoded as CNF, for an incremental SAT solver (the SAT back end's session
asks its questions of these clauses by assumptions).

**Integers: the direct encoding channelled with the order encoding.** A variable with
the sorted values v1 < ... < vd has an order literal ``[x >= vi]`` for i >= 2 (``[x >=
v1]`` is the constant true) and a direct literal ``[x = vi]``; ``[x = v1]`` is
``not [x >= v2]`` and ``[x = vd]`` is ``[x >= vd]``, so a variable costs 2d - 3 fresh
variables and about 4d clauses: the chain ``[x >= v(i+1)] -> [x >= vi]`` and
``[x = vi] <-> [x >= vi] and not [x >= v(i+1)]``, which make exactly one value true.
Both encodings are wanted: the puzzles' questions are about values (a given, "differs
from this solution", all_different, element, table, reified equalities: direct
literals, one per question), while bounds (order, ``<=``, the objective, min, max,
linear sums) are single order literals. The domains are small (1..25 mostly; sums of a
few hundred), so the linear size in d is cheap, and a CDCL solver propagates both
encodings by unit propagation. A bool is one literal; ``bool2int`` and the reified
comparisons with a constant (``int_eq_reif(x, 3, r)``, ``int_le_reif``...) reuse the
literal they define instead of a new variable and its channelling clauses.

Before anything is encoded, a pass narrows domains by the unary constraints (``x = c``,
``x != c``, ``x <= c``, ``x in S``, one-term linear ones) and by a clause whose every
literal says ``x = c`` (or ``x = y``, taking y's domain) of one variable, also when
resolved from two binary clauses: a model may declare its unknowns on -10000..10000
and states their real domain as ``x = 0 or x = 1 or x = 2``, and MiniZinc writes
``if b then v else 0`` as two reified equalities on a new variable of that range. A
domain left too large to encode (more than ``MAX_VALUES`` values) is an error, never a
wrong encoding. Every declared variable is encoded before the constructor returns, so
``clauses`` is complete when the solver takes it, and asking for a literal afterwards
(``eq_lit``, ``ge_lit``, ``bool_lit``) never adds a clause.

**Linear constraints** of one or two terms are encoded here (one: a bound, that is one
order literal, or the allowed values' direct literals; two: a clause per value of the
smaller variable, bounding the other; on equalities both ways, which is arc consistent);
three and more go to pindakaas, a maintained library of linear and pseudo-Boolean
encodings, over the terms' order literals (its default encoder; its fresh variables
become fresh variables here). Two patterns skip pindakaas: an unconditional sum of 0/1
terms with coefficients 1 and bound 1 is an at-most-one, and ``z = sum(ci * bi)`` over
0/1 terms that such a constraint keeps to at most one is a selection (``bi -> z = ..``,
a clause per term). ``!=`` of three and more terms is ``< c`` or ``> c`` under two new
literals. Products, division, modulo and power are tabulated over the
pairs of values of their arguments (with a support clause per result value when the
table is small); min and max are stated on order literals, abs on direct ones; element
is a clause (or an equality) per index value plus a support clause per result value.
Reified and half-reified forms (``_reif``, ``_imp``, and the three-argument
``bool_and``...) post the relation under the literal and, for ``_reif``, its negation
under the negated literal.

**Natives** (declared in the solver library ``models_mzn/sat``): ``all_different_int``
is at most one variable per value (pairwise up to ``PAIRWISE`` variables, a sequential
counter beyond) plus, when the variables have exactly as many values between them as
there are variables, "every value is used" (a clause per value: a hidden
single is then unit propagation); ``table_int`` is a selector literal per distinct
row that the domains allow, one of them chosen (two never hold together: their rows
differ somewhere), and per value a clause naming the rows that support it.

What is not supported (float and set variables, an unknown builtin, a domain or a
tabulated function too large) raises ``flatzinc.FznError`` naming the line and the builtin.
"""
from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

from . import flatzinc
from .flatzinc import Access, Call, FznError, Ident, IntSet, Item

#: The most values an integer variable may have once its domain is narrowed.
MAX_VALUES = 20_000
#: The most pairs of values a tabulated function (times, div, mod, pow) may have.
MAX_PAIRS = 200_000
#: All-different: pairwise at-most-one up to this many literals, a sequential counter above.
PAIRWISE = 32


class IntVar:
    """An integer's literals: ``values`` sorted, ``eqs[i]`` the literal ``x = values[i]``,
    ``ges[i]`` the literal ``x >= values[i]`` (``ges[0]`` is the constant true)."""

    __slots__ = ("values", "eqs", "ges")

    def __init__(self, values: list[int], eqs: list[int], ges: list[int]):
        self.values, self.eqs, self.ges = values, eqs, ges

    def eq(self, v: int, true: int) -> int:
        i = bisect.bisect_left(self.values, v)
        return self.eqs[i] if i < len(self.values) and self.values[i] == v else -true

    def ge(self, v: int, true: int) -> int:
        i = bisect.bisect_left(self.values, v)
        if i >= len(self.values):
            return -true
        return true if i == 0 else self.ges[i]

    def le(self, v: int, true: int) -> int:
        return -self.ge(v + 1, true)

    @property
    def lo(self) -> int:
        return self.values[0]

    @property
    def hi(self) -> int:
        return self.values[-1]


def _unsupported(line: int, name: str, why: str = "") -> FznError:
    return FznError(f"line {line}: the SAT encoding does not support '{name}'"
                    + (f" ({why})" if why else ""))


_NEGATE = {"eq": "ne", "ne": "eq", "le": "gt", "lt": "ge", "gt": "le", "ge": "lt"}
# Constraints whose plain name, with this many arguments, is the reified form.
_REIFIED_BY_NAME = {"bool_and": 3, "bool_or": 3, "bool_xor": 3, "array_bool_and": 2,
                    "array_bool_or": 2}


class Encoding:
    """FlatZinc items (``flatzinc.parse``) encoded as CNF (see the module's docstring)."""

    def __init__(self, items: list[Item]):
        self.clauses: list[list[int]] = []
        self._named_ints: dict[str, IntVar] = {}  # eq_lit's and ge_lit's lookups
        self._top = 1
        self.true = 1                       # a variable fixed true
        self.clauses.append([1])
        self.pars: dict[str, Any] = {}       # parameter name -> int, bool, IntSet or list
        self.arrays: dict[str, list[Any]] = {}   # var array name -> its elements (exprs)
        self.domains: dict[str, list[int]] = {}  # int var name -> values (before encoding)
        self.ints: dict[str, IntVar] = {}    # int var name -> literals (when encoded)
        self.bools: dict[str, int] = {}      # bool var name -> literal (when encoded)
        self.bool_names: set[str] = set()
        self.decl_lines: dict[str, int] = {}  # int var name -> the line declaring it
        self.aliases: dict[str, Any] = {}    # var name -> the expression it is declared equal to
        self.outputs: list[Item] = []
        # literal -> the groups (indices) of literals of which at most one holds
        self.amo_groups: dict[int, set[int]] = {}
        self.goal = "satisfy"
        self.objective: str | int | None = None
        self.search: list[str] = []
        self.line = 0
        constraints = []
        for item in items:
            self.line = item.line
            if item.kind == "constraint":
                constraints.append(item)
            elif item.kind == "solve":
                self._solve(item)
            else:
                self._declare(item)
        try:
            rest = self._narrow(constraints)
            rest = self._define(rest)
            self._find_at_most_one(rest)
            for item in rest:
                self.line = item.line
                self._constraint(item)
            # Every variable gets its literals now, used or not: the clauses are complete
            # when the solver takes them, and asking for a literal later adds none.
            for name in self.domains:
                self.int_of(Ident(name))
            for name in self.bool_names:
                self.lit(Ident(name))
        except FznError:
            raise
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise FznError(f"line {self.line}: cannot encode the constraint "
                           f"({type(exc).__name__}: {exc})") from None

    # -- the public interface ----------------------------------------------------------
    def new_var(self) -> int:
        self._top += 1
        return self._top

    @property
    def top(self) -> int:
        return self._top

    def eq_lit(self, name: str, value: int) -> int:
        """The literal ``name = value`` (a FlatZinc int variable's name or a literal's
        text); the constant true/false literal when fixed or out of the domain."""
        return self._named(name).eq(value, self.true)

    def ge_lit(self, name: str, value: int) -> int:
        """The literal ``name >= value`` (order encoding), as ``eq_lit``."""
        return self._named(name).ge(value, self.true)

    def domain(self, name: str) -> list[int]:
        """The values ``name`` may take after the encoding's narrowing."""
        return list(self._named(name).values)

    def _named(self, name: str) -> IntVar:
        """``name``'s integer, looked up once: a session asks for the same squares'
        literals in every question (the encoding is complete, so it never changes)."""
        found = self._named_ints.get(name)
        if found is None:
            found = self._named_ints[name] = self.int_of(self._name_expr(name))
        return found

    def bool_lit(self, name: str) -> int:
        """A bool variable's literal (or ``"true"``/``"false"``: the constant literals)."""
        return self.lit(self._name_expr(name))

    def int_value(self, name: str, model: Sequence[int]) -> int:
        """``name``'s value in a solver model (pysat's ``get_model()``)."""
        return self._decode_int(self._named(name), model)

    def output_values(self, model: Sequence[int]) -> dict[str, Any]:
        """Every output variable and array's value, as MiniZinc prints them: ints,
        bools, and arrays as nested lists by their index sets."""
        out: dict[str, Any] = {}
        for item in self.outputs:
            boolean = item.type[0] == "bool"
            if not item.array:
                out[item.name] = self._decode(Ident(item.name), boolean, model)
                continue
            flat = [self._decode(e, boolean, model) for e in self._array(Ident(item.name))]
            ann = next(a for a in item.anns if isinstance(a, Call) and a.name == "output_array")
            sizes = [sum(hi - lo + 1 for lo, hi in d.intervals) for d in ann.args[0]]
            out[item.name] = _nest(flat, sizes)
        return out

    # -- values --------------------------------------------------------------------------
    def _name_expr(self, name: str) -> Any:
        text = name.strip()
        if text in ("true", "false"):
            return text == "true"
        try:
            return int(text)
        except ValueError:
            return Ident(text)

    def value_of(self, lit: int, model: Sequence[int]) -> bool:
        v = abs(lit)
        val = v <= len(model) and model[v - 1] > 0
        return val if lit > 0 else not val

    def _decode_int(self, x: IntVar, model: Sequence[int]) -> int:
        for v, e in zip(x.values, x.eqs):
            if self.value_of(e, model):
                return v
        raise ValueError("the model gives no value")  # not a model of these clauses

    def _decode(self, e: Any, boolean: bool, model: Sequence[int]) -> Any:
        if boolean:
            return self.value_of(self.lit(e), model)
        return self._decode_int(self.int_of(e), model)

    def resolve(self, e: Any) -> Any:
        """Parameters and arrays replaced by their values; variables stay names."""
        if isinstance(e, Ident):
            if e.name in self.pars:
                return self.pars[e.name]
            if e.name in self.arrays:
                return [self.resolve(x) for x in self.arrays[e.name]]
            if e.name in self.domains or e.name in self.bool_names:
                return e
            raise FznError(f"line {self.line}: unknown identifier '{e.name}'")
        if isinstance(e, Access):
            return self.resolve(self._array(Ident(e.name))[e.index - 1])
        if isinstance(e, list):
            return [self.resolve(x) for x in e]
        if isinstance(e, tuple) and e and e[0] == "float":
            raise FznError(f"line {self.line}: floats are not supported by the SAT encoding")
        return e

    def _array(self, e: Any) -> list[Any]:
        if isinstance(e, list):
            return e
        if isinstance(e, Ident):
            if e.name in self.arrays:
                return self.arrays[e.name]
            if e.name in self.pars and isinstance(self.pars[e.name], list):
                return self.pars[e.name]
        raise FznError(f"line {self.line}: expected an array, found {e!r}")

    def lit(self, e: Any) -> int:
        """A bool's literal."""
        v = self.resolve(e)
        if isinstance(v, bool):
            return self.true if v else -self.true
        if isinstance(v, int):
            raise FznError(f"line {self.line}: expected a bool, found {v}")
        name = v.name
        if name not in self.bools:
            if name not in self.bool_names:
                raise FznError(f"line {self.line}: '{name}' is not a bool variable")
            if name in self.aliases:
                self.bools[name] = self.lit(self.aliases[name])
            else:
                self.bools[name] = self.new_var()
        return self.bools[name]

    def lits(self, e: Any) -> list[int]:
        return [self.lit(x) for x in self._array(e)]

    def int_list(self, e: Any) -> list[IntVar]:
        return [self.int_of(x) for x in self._array(e)]

    def const(self, c: int) -> IntVar:
        return IntVar([c], [self.true], [self.true])

    def int_of(self, e: Any) -> IntVar:
        """An integer's literals (a constant's are the constant literals)."""
        v = self.resolve(e)
        if isinstance(v, bool):
            v = int(v)
        if isinstance(v, int):
            return self.const(v)
        if not isinstance(v, Ident):
            raise FznError(f"line {self.line}: expected an integer, found {v!r}")
        name = v.name
        x = self.ints.get(name)
        if x is not None:
            return x
        if name in self.bool_names:  # a bool where an int is expected (bool2int's view)
            b = self.lit(v)
            return IntVar([0, 1], [-b, b], [self.true, b])
        if name in self.aliases:
            x = self.int_of(self.aliases[name])
            self._restrict_to(x, self.domains[name])
        else:
            x = self._encode_domain(name, self.domains[name])
        self.ints[name] = x
        return x

    def _restrict_to(self, x: IntVar, values: list[int]) -> None:
        allowed = set(values)
        for v, e in zip(x.values, x.eqs):
            if v not in allowed:
                self.add([-e])

    def _encode_domain(self, name: str, values: list[int]) -> IntVar:
        d = len(values)
        if d == 0:
            self.add([])
            return IntVar([], [], [])
        if d > MAX_VALUES:
            raise FznError(f"line {self.decl_lines.get(name, self.line)}: variable '{name}' has "
                           f"{d} values, too many for "
                           f"the SAT encoding (at most {MAX_VALUES}; give it a smaller domain)")
        if d == 1:
            return self.const(values[0])
        ges = [self.true] + [self.new_var() for _ in range(d - 1)]
        eqs = [-ges[1]] + [self.new_var() for _ in range(d - 2)] + [ges[d - 1]]
        cl = self.clauses
        for i in range(1, d - 1):
            cl.append([-ges[i + 1], ges[i]])
            e, g, g1 = eqs[i], ges[i], ges[i + 1]
            cl.append([-e, g])
            cl.append([-e, -g1])
            cl.append([-g, g1, e])
        return IntVar(list(values), eqs, ges)

    # -- clauses -------------------------------------------------------------------------
    def add(self, clause: Sequence[int]) -> None:
        """Add a clause, folding the constant literals."""
        t = self.true
        if t not in clause and -t not in clause:
            self.clauses.append(list(clause))
            return
        out = []
        for lit in clause:
            if lit == t:
                return
            if lit != -t:
                out.append(lit)
        if not out:
            out = [-t]
        self.clauses.append(out)

    def implies(self, enforce: Sequence[int], clause: Sequence[int]) -> None:
        self.add([*(-e for e in enforce), *clause])

    # -- declarations and the solve item -------------------------------------------------
    def _declare(self, item: Item) -> None:
        kind, dom = item.type
        if kind == "float" or (kind == "set" and item.kind == "var"):
            raise FznError(f"line {item.line}: {kind} {'variables' if item.kind == 'var' else 'parameters'}"
                           " are not supported by the SAT encoding")
        if item.kind == "par":
            self.pars[item.name] = self.resolve(item.value)
            return
        if item.array:
            self.arrays[item.name] = list(item.value)
        elif kind == "bool":
            self.bool_names.add(item.name)
            if item.value is not None:
                self.aliases[item.name] = item.value
        else:
            if dom is None:
                raise FznError(f"line {item.line}: variable '{item.name}' has no bounds; the SAT "
                               "encoding needs a finite domain")
            values = self._interval_values(item.name, dom)
            if item.value is not None:
                self.aliases[item.name] = item.value
            self.domains[item.name] = values
            self.decl_lines[item.name] = item.line
        for ann in item.anns:
            if (isinstance(ann, Ident) and ann.name == "output_var") or \
                    (isinstance(ann, Call) and ann.name == "output_array"):
                self.outputs.append(item)

    def _interval_values(self, name: str, dom: IntSet) -> list[int]:
        size = sum(hi - lo + 1 for lo, hi in dom.intervals)
        if size > 50 * MAX_VALUES:  # kept as intervals no longer: narrowed below or refused
            raise FznError(f"line {self.line}: variable '{name}' has {size} values, too many for "
                           f"the SAT encoding (at most {MAX_VALUES})")
        return [v for lo, hi in dom.intervals for v in range(lo, hi + 1)]

    def _solve(self, item: Item) -> None:
        self.goal = item.goal
        obj = item.objective
        if obj is not None:
            self.objective = obj.name if isinstance(obj, Ident) else int(obj) if isinstance(obj, int) else None
            if self.objective is None:
                raise FznError(f"line {item.line}: the objective must be a variable or a constant")
        for ann in item.anns:
            self.search.extend(self._search_names(ann))

    def _search_names(self, ann: Any) -> list[str]:
        if isinstance(ann, Call) and ann.name == "seq_search":
            return [s for sub in ann.args[0] for s in self._search_names(sub)]
        if isinstance(ann, Call) and ann.name in ("int_search", "bool_search") and ann.args:
            xs = ann.args[0]
            elems = self.arrays.get(xs.name, []) if isinstance(xs, Ident) else xs
            return [e.name for e in elems if isinstance(e, Ident)]
        return []

    # -- narrowing domains before encoding -----------------------------------------------
    def _var_name(self, e: Any) -> str | None:
        """The name of an int variable not yet encoded nor declared equal to another, or None."""
        v = self.resolve(e)
        if isinstance(v, Ident) and v.name in self.domains and v.name not in self.aliases \
                and v.name not in self.ints:
            return v.name
        return None

    def _narrow(self, constraints: list[Item]) -> list[Item]:
        """Apply the unary constraints to the domains; returns the others."""
        rest = []
        # bool name -> [(int var, the values that make it true: a set, or another int var's
        # name, whose domain it is)]
        reif: dict[str, list[tuple[str, Any]]] = {}
        for item in constraints:
            self.line = item.line
            name, args = item.name, item.value
            allowed = None
            if name in ("int_eq", "int_ne", "int_le", "int_lt") and len(args) == 2:
                a, b = self.resolve(args[0]), self.resolve(args[1])
                if isinstance(b, int) and not isinstance(b, bool):
                    x, c, flip = self._var_name(a), b, False
                elif isinstance(a, int) and not isinstance(a, bool):
                    x, c, flip = self._var_name(b), a, True
                else:
                    x = None
                if x is not None:
                    op = name[4:]
                    allowed = {
                        "eq": lambda v: v == c, "ne": lambda v: v != c,
                        "le": (lambda v: v >= c) if flip else (lambda v: v <= c),
                        "lt": (lambda v: v > c) if flip else (lambda v: v < c)}[op]
            elif name == "set_in" and len(args) == 2:
                x = self._var_name(args[0])
                s = self.resolve(args[1])
                if x is not None and isinstance(s, IntSet):
                    allowed = s.__contains__
            elif name in ("int_lin_eq", "int_lin_le", "int_lin_ne"):
                cs, xs, c = self.resolve(args[0]), self.resolve(args[1]), self.resolve(args[2])
                terms = [(a, v) for a, v in zip(cs, xs) if a != 0]
                consts = sum(a * int(v) for a, v in terms if isinstance(v, int))
                var_terms = [(a, v) for a, v in terms if not isinstance(v, int)]
                if len(var_terms) == 1 and (x := self._var_name(var_terms[0][1])) is not None:
                    a, rhs = var_terms[0][0], c - consts
                    allowed = {"int_lin_eq": lambda v: a * v == rhs,
                               "int_lin_le": lambda v: a * v <= rhs,
                               "int_lin_ne": lambda v: a * v != rhs}[name]
            elif name in ("int_eq_reif", "set_in_reif") and len(args) == 3:
                r = self.resolve(args[2])
                if isinstance(r, Ident) and r.name not in self.aliases:
                    a, b = self.resolve(args[0]), self.resolve(args[1])
                    pairs = [(a, b), (b, a)] if name == "int_eq_reif" else [(a, b)]
                    for one, other in pairs:
                        x = self._var_name(one)
                        if x is None:
                            continue
                        if isinstance(other, int) and not isinstance(other, bool):
                            reif.setdefault(r.name, []).append((x, {other}))
                        elif isinstance(other, IntSet) and \
                                sum(hi - lo + 1 for lo, hi in other.intervals) <= MAX_VALUES:
                            reif.setdefault(r.name, []).append((x, set(
                                v for lo, hi in other.intervals for v in range(lo, hi + 1))))
                        elif isinstance(other, Ident) and other.name in self.domains:
                            reif.setdefault(r.name, []).append((x, other.name))
            if allowed is not None:
                self.domains[x] = [v for v in self.domains[x] if allowed(v)]
            else:
                rest.append(item)
        # A clause of literals that each say 'x = c' of one x: x takes one of those values.
        # Also such a clause resolved from two clauses of two literals, (r1 or b) and
        # (r2 or not b): MiniZinc's 'if b then 6 else 0' for a variable x.
        clauses = []
        for item in rest:
            if item.name == "array_bool_or" and len(item.value) == 2 and item.value[1] is True:
                clauses.append([(v, True) for v in self.resolve(item.value[0])])
            elif item.name == "bool_clause":
                pos, neg = self.resolve(item.value[0]), self.resolve(item.value[1])
                clauses.append([(v, True) for v in pos] + [(v, False) for v in neg])
        binary: dict[tuple[Any, bool], list[Any]] = {}
        for clause in clauses:
            if len(clause) == 2 and all(isinstance(v, Ident) for v, _ in clause):
                (a, pa), (b, pb) = clause
                if pa and a.name in reif:
                    binary.setdefault((b.name, pb), []).append(a.name)
                if pb and b.name in reif:
                    binary.setdefault((a.name, pa), []).append(b.name)
        groups = [[v.name for v, pos in clause] for clause in clauses
                  if clause and all(pos and isinstance(v, Ident) for v, pos in clause)]
        for (name, pos), ones in binary.items():
            for other in binary.get((name, not pos), []):
                groups.extend([one, other] for one in ones)
        groups = [g for g in groups if all(r in reif for r in g)]
        for _ in range(3):  # a narrowed domain may narrow another (x = y where y is narrowed)
            changed = False
            for group in groups:
                owners = set.intersection(*({x for x, _ in reif[r]} for r in group))
                for x in owners:
                    allowed_values: set[int] = set()
                    for r in group:
                        for owner, values in reif[r]:
                            if owner == x:
                                allowed_values |= set(self.domains[values]) \
                                    if isinstance(values, str) else values
                    before = len(self.domains[x])
                    self.domains[x] = [v for v in self.domains[x] if v in allowed_values]
                    changed |= len(self.domains[x]) != before
            if not changed:
                break
        return rest

    def _define(self, constraints: list[Item]) -> list[Item]:
        """Bools defined by a comparison of a variable with a constant take that literal;
        an int defined by bool2int takes its bool's literal. Returns the rest."""
        rest = []
        for item in constraints:
            self.line = item.line
            name, args = item.name, item.value
            done = False
            if name == "bool2int" and len(args) == 2:
                b, x = self.resolve(args[0]), self._var_name(args[1])
                if isinstance(b, Ident) and x is not None:
                    lit = self.lit(b)
                    dom = self.domains[x]
                    if 0 not in dom:
                        self.add([lit])
                    if 1 not in dom:
                        self.add([-lit])
                    self.ints[x] = IntVar([0, 1], [-lit, lit], [self.true, lit])
                    done = True
            elif name in ("int_eq_reif", "int_ne_reif", "int_le_reif", "int_lt_reif") and len(args) == 3:
                r = self.resolve(args[2])
                a, b = self.resolve(args[0]), self.resolve(args[1])
                if isinstance(r, Ident) and r.name not in self.bools and r.name not in self.aliases \
                        and (isinstance(a, int) != isinstance(b, int)):
                    x = self.int_of(b if isinstance(a, int) else a)
                    c = a if isinstance(a, int) else b
                    op = name[4:6]
                    if isinstance(a, int):  # c op x
                        op = {"eq": "eq", "ne": "ne", "le": "ge", "lt": "gt"}[op]
                    self.bools[r.name] = {
                        "eq": lambda: x.eq(c, self.true), "ne": lambda: -x.eq(c, self.true),
                        "le": lambda: x.le(c, self.true), "lt": lambda: x.le(c - 1, self.true),
                        "ge": lambda: x.ge(c, self.true), "gt": lambda: x.ge(c + 1, self.true)}[op]()
                    done = True
            if not done:
                rest.append(item)
        return rest

    def _find_at_most_one(self, constraints: list[Item]) -> None:
        """Groups of 0/1 terms of which at most one is 1 (``sum(bs) <= 1`` or ``= 1``, all
        coefficients 1): a sum of other coefficients over such a group is encoded as a
        selection (``_selection``)."""
        count = 0
        for item in constraints:
            if item.name not in ("int_lin_le", "int_lin_eq", "bool_lin_le", "bool_lin_eq") \
                    or len(item.value) != 3:
                continue
            self.line = item.line
            cs, rhs = self.resolve(item.value[0]), self.resolve(item.value[2])
            if rhs != 1 or not isinstance(cs, list) or any(a != 1 for a in cs) or len(cs) < 3:
                continue
            xs = self.int_list(item.value[1])
            if not all(x.values == [0, 1] for x in xs):
                continue
            for x in xs:
                self.amo_groups.setdefault(x.eqs[1], set()).add(count)
            count += 1

    def _selection(self, ts: list, op: str, c: int, enforce: Sequence[int]) -> bool:
        """``z * a + sum(ci * bi) = c`` where at most one bi holds (a group found by
        ``_find_at_most_one``): bi -> z = (c - ci) / a, none -> z = c / a, and each value
        of z has a clause naming the bi that give it. False when the pattern is not met."""
        if op != "eq":
            return False
        others = [(a, x) for a, x in ts if x.values != [0, 1]]
        bools = [(a, x.eqs[1]) for a, x in ts if x.values == [0, 1]]
        if len(others) != 1 or len(bools) < 2:
            others = [(a, x) for a, x in ts if x.values != [0, 1] or
                      x.eqs[1] not in self.amo_groups]
            if len(others) != 1:
                return False
            bools = [(a, x.eqs[1]) for a, x in ts if (a, x) not in others]
        groups = None
        for _, b in bools:
            g = self.amo_groups.get(b)
            if not g:
                return False
            groups = set(g) if groups is None else groups & g
            if not groups:
                return False
        (za, z), t = others[0], self.true
        neg = [-e for e in enforce]
        support: dict[int, list[int]] = {}
        for ci, b in bools:
            w, r = divmod(c - ci, za)
            target = z.eq(w, t) if r == 0 else -t
            self.add([*neg, -b, target])
            if r == 0:
                support.setdefault(w, []).append(b)
        w, r = divmod(c, za)
        self.add([*neg, *(b for _, b in bools), z.eq(w, t) if r == 0 else -t])
        for v, e in zip(z.values, z.eqs):
            if r == 0 and v == w:
                continue
            self.add([*neg, -e, *support.get(v, [])])
        return True

    # -- constraints ---------------------------------------------------------------------
    def _constraint(self, item: Item) -> None:
        name, args = item.name, item.value
        base, mode = name, ""
        for suffix in ("_reif", "_imp"):
            if name.endswith(suffix):
                base, mode = name[:-len(suffix)], suffix[1:]
        if name in _REIFIED_BY_NAME and len(args) == _REIFIED_BY_NAME[name]:
            mode = "reif"
        if base in _NATIVE:
            if mode:
                raise _unsupported(item.line, name)
            _NATIVE[base](self, *args)
            return
        if base not in _RELATIONS:
            raise _unsupported(item.line, name, "it encodes the integer and Boolean builtins, "
                               "all_different_int and table_int")
        post = _RELATIONS[base]
        if not mode:
            post(self, args, True, ())
            return
        r = self.lit(args[-1])
        rel = args[:-1]
        if r == self.true:
            post(self, rel, True, ())
        elif r == -self.true:
            if mode == "reif":
                post(self, rel, False, ())
        else:
            post(self, rel, True, (r,))
            if mode == "reif":
                post(self, rel, False, (-r,))

    # relations between two integers, each under ``enforce``
    def rel(self, x: IntVar, op: str, y: IntVar, enforce: Sequence[int]) -> None:
        """``x op y`` under ``enforce`` (op: eq ne le lt ge gt)."""
        t = self.true
        if op in ("ge", "gt"):
            x, y, op = y, x, "le" if op == "ge" else "lt"
        if len(y.values) == 1 and len(x.values) != 1:
            c = y.values[0]
            lit = {"eq": x.eq(c, t), "ne": -x.eq(c, t), "le": x.le(c, t), "lt": x.le(c - 1, t)}[op]
            self.implies(enforce, [lit])
            return
        if len(x.values) == 1:
            c = x.values[0]
            lit = {"eq": y.eq(c, t), "ne": -y.eq(c, t), "le": y.ge(c, t), "lt": y.ge(c + 1, t)}[op]
            self.implies(enforce, [lit])
            return
        neg = [-e for e in enforce]
        if op == "eq":
            for v, e in zip(x.values, x.eqs):
                self.add([*neg, -e, y.eq(v, t)])
            for v, e in zip(y.values, y.eqs):
                self.add([*neg, -e, x.eq(v, t)])
        elif op == "ne":
            for v, e in zip(x.values, x.eqs):
                other = y.eq(v, t)
                if other != -t:
                    self.add([*neg, -e, -other])
        else:
            shift = 0 if op == "le" else 1
            for v, g in zip(x.values, x.ges):  # x >= v -> y >= v (+1)
                self.add([*neg, -g, y.ge(v + shift, t)])

    def linear(self, coeffs: Sequence[int], xs: Sequence[IntVar], op: str, c: int,
               enforce: Sequence[int]) -> None:
        """``sum(coeffs * xs) op c`` under ``enforce`` (op: eq, ne, le)."""
        terms: dict[int, list] = {}
        for a, x in zip(coeffs, xs):
            if a == 0:
                continue
            if len(x.values) == 1:
                c -= a * x.values[0]
                continue
            key = id(x)
            if key in terms:
                terms[key][0] += a
            else:
                terms[key] = [a, x]
        ts = [(a, x) for a, x in terms.values() if a != 0]
        t = self.true
        if not ts:
            holds = {"eq": 0 == c, "ne": 0 != c, "le": 0 <= c}[op]
            if not holds:
                self.implies(enforce, [])
            return
        if len(ts) == 1:
            a, x = ts[0]
            self._unary(x, lambda v: {"eq": a * v == c, "ne": a * v != c, "le": a * v <= c}[op],
                        enforce)
            return
        if op == "ne":
            if len(ts) == 2:
                (a, x), (b, y) = ts
                for v, e in zip(x.values, x.eqs):
                    w, r = divmod(c - a * v, b)
                    if r == 0:
                        other = y.eq(w, t)
                        if other != -t:
                            self.implies(enforce, [-e, -other])
                return
            lo, hi = self.new_var(), self.new_var()  # the sum below c, or above it
            self.implies(enforce, [lo, hi])
            self.linear([a for a, _ in ts], [x for _, x in ts], "le", c - 1, [lo])
            self.linear([-a for a, _ in ts], [x for _, x in ts], "le", -c - 1, [hi])
            return
        if len(ts) == 2:
            (a, x), (b, y) = ts
            if len(x.values) > len(y.values):
                (a, x), (b, y) = (b, y), (a, x)
            for v, e in zip(x.values, x.eqs):
                rest = c - a * v   # b * y op rest
                self._unary(y, lambda w, rest=rest: b * w == rest if op == "eq" else b * w <= rest,
                            [*enforce, e])
            if op == "eq":
                for w, e in zip(y.values, y.eqs):
                    rest = c - b * w
                    self._unary(x, lambda v, rest=rest: a * v == rest, [*enforce, e])
            return
        if self.amo_groups and self._selection(ts, op, c, enforce):
            return
        if op == "le" and c == 1 and not enforce and all(a == 1 and x.values == [0, 1] for a, x in ts):
            self.at_most_one([x.eqs[1] for _, x in ts])
            return
        self._pindakaas(ts, op, c, enforce)

    def _unary(self, x: IntVar, allowed, enforce: Sequence[int]) -> None:
        """``allowed(x)`` under ``enforce``: a bound (one order literal) when the allowed
        values are an interval of x's values, else the allowed values' direct literals."""
        ok = [allowed(v) for v in x.values]
        if all(ok):
            return
        if not any(ok):
            self.implies(enforce, [])
            return
        first = ok.index(True)
        last = len(ok) - 1 - ok[::-1].index(True)
        if first == last:  # one value: its direct literal
            self.implies(enforce, [x.eqs[first]])
            return
        if all(ok[first:last + 1]):
            if first > 0:
                self.implies(enforce, [x.ges[first]])
            if last < len(ok) - 1:
                self.implies(enforce, [-x.ges[last + 1]])
            return
        if not enforce:
            for v, e, good in zip(x.values, x.eqs, ok):
                if not good:
                    self.add([-e])
            return
        self.implies(enforce, [e for e, good in zip(x.eqs, ok) if good])

    def _pindakaas(self, ts: list, op: str, c: int, enforce: Sequence[int]) -> None:
        """A linear constraint of three or more terms, encoded by pindakaas over the
        terms' order literals; its fresh variables become fresh variables here."""
        import pindakaas as pk  # lazy: pindakaas loads only for a long linear constraint
        db = pk.CNF()
        mine: list[int] = [0]          # pindakaas variable i -> my literal mine[i]
        expr = 0
        for a, x in ts:
            lits = list(db.new_vars(len(x.values) - 1))
            mine.extend(x.ges[1:])
            expr = expr + a * db.int_var_from_order_literals(x.values, lits)
        cond = []
        for e in enforce:
            mine.append(e)
            cond.append(db.new_var())
        known = len(mine) - 1
        con = (expr == c) if op == "eq" else (expr <= c)
        try:
            db.add_encoding(con, conditions=cond or None)
        except pk.Unsatisfiable:
            self.implies(enforce, [])
            return
        fresh: dict[int, int] = {}

        def mapped(lit: int) -> int:
            v = abs(lit)
            if v <= known:
                m = mine[v]
            else:
                m = fresh.get(v)
                if m is None:
                    m = fresh[v] = self.new_var()
            return m if lit > 0 else -m
        table = mine
        for clause in db._clauses_as_int():
            self.add([table[lit] if 0 < lit <= known else -table[-lit] if -known <= lit < 0
                      else mapped(lit) for lit in clause])

    # Boolean relations
    def or_of(self, lits: list[int], holds: bool, enforce: Sequence[int]) -> None:
        if holds:
            self.implies(enforce, lits)
        else:
            for lit in lits:
                self.implies(enforce, [-lit])

    def and_of(self, lits: list[int], holds: bool, enforce: Sequence[int]) -> None:
        if holds:
            for lit in lits:
                self.implies(enforce, [lit])
        else:
            self.implies(enforce, [-lit for lit in lits])

    def xor_of(self, lits: list[int], holds: bool, enforce: Sequence[int]) -> None:
        """An odd number of ``lits`` hold (an even number without ``holds``)."""
        acc = -self.true  # the xor of nothing
        for lit in lits:
            acc = self._xor2(acc, lit)
        self.implies(enforce, [acc if holds else -acc])

    def _xor2(self, a: int, b: int) -> int:
        t = self.true
        if abs(a) == t:
            return b if a == -t else -b
        if abs(b) == t:
            return a if b == -t else -a
        z = self.new_var()
        self.add([-z, a, b])
        self.add([-z, -a, -b])
        self.add([z, -a, b])
        self.add([z, a, -b])
        return z

    def at_most_one(self, lits: list[int]) -> None:
        t = self.true
        lits = [x for x in lits if x != -t]
        if len(lits) <= 1:
            return
        if t in lits:
            for x in lits:
                if x != t:
                    self.add([-x])
            if lits.count(t) > 1:
                self.add([])
            return
        if len(lits) <= PAIRWISE:
            cl = self.clauses
            for i in range(len(lits)):
                a = -lits[i]
                cl.extend([a, -b] for b in lits[i + 1:])
            return
        prev = None   # sequential counter: s_i = some of lits[0..i] holds
        for i, x in enumerate(lits):
            s = self.new_var() if i < len(lits) - 1 else None
            if s is not None:
                self.add([-x, s])
            if prev is not None:
                self.add([-x, -prev])
                if s is not None:
                    self.add([-prev, s])
            prev = s


def _nest(flat: list[Any], sizes: list[int]) -> Any:
    if len(sizes) <= 1:
        return flat
    step = len(flat) // sizes[0] if sizes[0] else 0
    return [_nest(flat[i * step:(i + 1) * step], sizes[1:]) for i in range(sizes[0])]


# -- the builtins --------------------------------------------------------------------------

def _compare(op: str):
    def post(enc: Encoding, args, holds: bool, enforce) -> None:
        enc.rel(enc.int_of(args[0]), op if holds else _NEGATE[op], enc.int_of(args[1]), enforce)
    return post


def _compare_lin(op: str, boolean: bool = False):
    def post(enc: Encoding, args, holds: bool, enforce) -> None:
        cs = enc.resolve(args[0])
        xs = enc.int_list(args[1])
        c = enc.resolve(args[2])
        if isinstance(c, Ident):  # bool_lin_eq's right-hand side may be a variable
            cs, xs, c = [*cs, -1], [*xs, enc.int_of(c)], 0
        if holds:
            enc.linear(cs, xs, op, c, enforce)
        elif op == "eq":
            enc.linear(cs, xs, "ne", c, enforce)
        elif op == "ne":
            enc.linear(cs, xs, "eq", c, enforce)
        else:  # not (sum <= c): -sum <= -c - 1
            enc.linear([-a for a in cs], xs, "le", -c - 1, enforce)
    return post


def _rel_bool(kind: str):
    def post(enc: Encoding, args, holds: bool, enforce) -> None:
        a, b = enc.lit(args[0]), enc.lit(args[1])
        if kind == "eq":
            enc.xor_of([a, b], not holds, enforce)
        elif kind == "ne":
            enc.xor_of([a, b], holds, enforce)
        elif kind == "le":
            enc.or_of([-a, b], holds, enforce)
        elif kind == "lt":
            enc.and_of([-a, b], holds, enforce)
        elif kind == "and":
            enc.and_of([a, b], holds, enforce)
        elif kind == "or":
            enc.or_of([a, b], holds, enforce)
    return post


def _clause(enc: Encoding, args, holds: bool, enforce) -> None:
    enc.or_of(enc.lits(args[0]) + [-x for x in enc.lits(args[1])], holds, enforce)


def _array_bool(kind: str):
    def post(enc: Encoding, args, holds: bool, enforce) -> None:
        lits = enc.lits(args[0])
        {"and": enc.and_of, "or": enc.or_of, "xor": enc.xor_of}[kind](lits, holds, enforce)
    return post


def _set_in(enc: Encoding, args, holds: bool, enforce) -> None:
    x, s = enc.int_of(args[0]), enc.resolve(args[1])
    if not isinstance(s, IntSet):
        raise _unsupported(enc.line, "set_in", "the set must be a constant")
    enc._unary(x, (lambda v: v in s) if holds else (lambda v: v not in s), enforce)


def _bool2int(enc: Encoding, a, b) -> None:
    enc.rel(enc.int_of(a), "eq", enc.int_of(b), ())


def _tabulate(enc: Encoding, x: IntVar, y: IntVar, z: IntVar, f) -> None:
    """z = f(x, y) over every pair of values (f gives None where undefined)."""
    if len(x.values) * len(y.values) > MAX_PAIRS:
        raise FznError(f"line {enc.line}: a product, quotient or power of variables with "
                       f"{len(x.values)} and {len(y.values)} values is too large for the SAT encoding")
    t = enc.true
    for v, ev in zip(x.values, x.eqs):
        for w, ew in zip(y.values, y.eqs):
            r = f(v, w)
            enc.add([-ev, -ew] if r is None else [-ev, -ew, z.eq(r, t)])
    # z's value has a support: z = r -> some pair giving r (propagates from z back)
    support: dict[int, list[int]] = {}
    if len(x.values) * len(y.values) <= 4096:
        for v, ev in zip(x.values, x.eqs):
            for w, ew in zip(y.values, y.eqs):
                r = f(v, w)
                if r is not None:
                    support.setdefault(r, []).append((ev, ew))
        for r, ez in zip(z.values, z.eqs):
            pairs = support.get(r, [])
            if len(pairs) == 1:
                enc.add([-ez, pairs[0][0]])
                enc.add([-ez, pairs[0][1]])
            elif not pairs:
                enc.add([-ez])


def _div(v: int, w: int) -> int | None:
    if w == 0:
        return None
    q = abs(v) // abs(w)
    return q if (v >= 0) == (w > 0) else -q


def _mod(v: int, w: int) -> int | None:
    q = _div(v, w)
    return None if q is None else v - q * w


def _pow(v: int, w: int) -> int | None:
    if w < 0:
        return None if v == 0 else (v ** w if abs(v) == 1 else 0)  # int_pow rounds toward 0
    return v ** w


def _function(kind: str):
    def post(enc: Encoding, *args) -> None:
        xs = [enc.int_of(a) for a in args]
        t = enc.true
        if kind == "abs":
            x, z = xs
            for v, e in zip(x.values, x.eqs):
                enc.add([-e, z.eq(abs(v), t)])
            for w, e in zip(z.values, z.eqs):
                enc.add([-e, x.eq(w, t), x.eq(-w, t)])
        elif kind in ("min", "max"):
            x, y, z = xs
            points = sorted(set(x.values) | set(y.values) | set(z.values))
            for v in points:
                gx, gy, gz = x.ge(v, t), y.ge(v, t), z.ge(v, t)
                if kind == "min":   # z >= v <-> x >= v and y >= v
                    enc.add([-gz, gx])
                    enc.add([-gz, gy])
                    enc.add([-gx, -gy, gz])
                else:               # z >= v <-> x >= v or y >= v
                    enc.add([gz, -gx])
                    enc.add([gz, -gy])
                    enc.add([-gz, gx, gy])
            # z is one of them
            for w, e in zip(z.values, z.eqs):
                enc.add([-e, x.eq(w, t), y.eq(w, t)])
        elif kind == "plus":
            enc.linear([1, 1, -1], xs, "eq", 0, ())
        elif kind == "minus":
            enc.linear([1, -1, -1], xs, "eq", 0, ())
        else:
            f = {"times": lambda v, w: v * w, "div": _div, "mod": _mod, "pow": _pow}[kind]
            _tabulate(enc, *xs, f)
    return post


def _element(boolean: bool):
    def post(enc: Encoding, index, array, value) -> None:
        i = enc.int_of(index)
        elems = enc._array(array)
        t = enc.true
        enc._unary(i, lambda k: 1 <= k <= len(elems), ())
        for k, e in zip(i.values, i.eqs):
            if not 1 <= k <= len(elems):
                continue
            if boolean:
                a, z = enc.lit(elems[k - 1]), enc.lit(value)
                enc.xor_of([a, z], False, [e])
            else:
                enc.rel(enc.int_of(elems[k - 1]), "eq", enc.int_of(value), [e])
        if not boolean:   # z = w -> some index whose element can be w
            z = enc.int_of(value)
            for w, ez in zip(z.values, z.eqs):
                sup = []
                for k, e in zip(i.values, i.eqs):
                    if 1 <= k <= len(elems):
                        el = enc.int_of(elems[k - 1])
                        if len(el.values) == 1:
                            if el.values[0] == w:
                                sup.append(e)
                        elif el.eq(w, t) != -t:
                            sup.append(e)
                enc.add([-ez, *sup])
    return post


def _extremum(kind: str):
    def post(enc: Encoding, value, array) -> None:
        xs = enc.int_list(array)
        z, t = enc.int_of(value), enc.true
        points = sorted(set().union(*(x.values for x in xs), z.values))
        for v in points:
            gz, gs = z.ge(v, t), [x.ge(v, t) for x in xs]
            if kind == "min":
                for g in gs:
                    enc.add([-gz, g])
                enc.add([gz, *(-g for g in gs)])
            else:
                for g in gs:
                    enc.add([gz, -g])
                enc.add([-gz, *gs])
        for w, e in zip(z.values, z.eqs):
            enc.add([-e, *(x.eq(w, t) for x in xs)])
    return post


def _all_different(enc: Encoding, array) -> None:
    xs = enc.int_list(array)
    t = enc.true
    values = sorted(set().union(*(x.values for x in xs))) if xs else []
    if len(values) < len(xs):
        enc.add([])
        return
    for v in values:
        lits = [x.eq(v, t) for x in xs]
        enc.at_most_one(lits)
        if len(values) == len(xs):  # as many values as variables: each value used
            enc.add(lits)


def _table(enc: Encoding, array, table) -> None:
    xs = enc.int_list(array)
    flat = enc.resolve(table)
    k = len(xs)
    t = enc.true
    # distinct rows: two selectors then never hold together (their rows differ somewhere)
    rows = list(dict.fromkeys(tuple(flat[i:i + k]) for i in range(0, len(flat), k))) if k else []
    selectors = []
    support: list[dict[int, list[int]]] = [{} for _ in xs]
    for row in rows:
        lits = [x.eq(v, t) for x, v in zip(xs, row)]
        if -t in lits:
            continue
        s = enc.new_var()
        selectors.append(s)
        for j, (lit, v) in enumerate(zip(lits, row)):
            enc.add([-s, lit])
            support[j].setdefault(v, []).append(s)
    enc.add(selectors)
    for j, x in enumerate(xs):
        for v, e in zip(x.values, x.eqs):
            enc.add([-e, *support[j].get(v, [])])


_RELATIONS = {
    **{f"int_{op}": _compare(op) for op in ("eq", "ne", "le", "lt")},
    **{f"int_lin_{op}": _compare_lin(op) for op in ("eq", "ne", "le")},
    **{f"bool_lin_{op}": _compare_lin(op) for op in ("eq", "le")},
    "bool_eq": _rel_bool("eq"), "bool_le": _rel_bool("le"), "bool_lt": _rel_bool("lt"),
    "bool_not": _rel_bool("ne"),
    "bool_and": _rel_bool("and"), "bool_or": _rel_bool("or"), "bool_xor": _rel_bool("ne"),
    "bool_clause": _clause,
    "array_bool_and": _array_bool("and"), "array_bool_or": _array_bool("or"),
    "array_bool_xor": _array_bool("xor"),
    "set_in": _set_in,
}

_NATIVE = {
    "bool2int": _bool2int,
    **{f"int_{k}": _function(k) for k in ("abs", "min", "max", "plus", "minus", "times", "div",
                                          "mod", "pow")},
    "array_int_element": _element(False), "array_var_int_element": _element(False),
    "array_bool_element": _element(True), "array_var_bool_element": _element(True),
    "array_int_maximum": _extremum("max"), "array_int_minimum": _extremum("min"),
    "fzn_all_different_int": _all_different, "all_different_int": _all_different,
    "fzn_table_int": _table, "table_int": _table,
}


def encode(text: str) -> Encoding:
    """FlatZinc ``text`` encoded."""
    return Encoding(flatzinc.parse(text))
