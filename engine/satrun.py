"""A SAT solver (Glucose 4, through PySAT) as a MiniZinc solver: FlatZinc to CNF.

For puzzles whose models are finite domains and all-different constraints, a CDCL SAT
solver on a direct encoding finds second solutions faster than CP-SAT: on a sample of
25x25 Sudoku uniqueness checks, Glucose took 26-32 s where CP-SAT took 48-49 s
(docs/performance.md). This module reads FlatZinc with the CP-SAT runner's reader
(``puzzle_engine.cpsat.parse``) and writes clauses:

* each integer variable gets one literal per value of its domain, exactly one true (the
  direct encoding); a fixed variable gets none. Before encoding, the domains are
  narrowed at the root: unary constraints (``int_ne(x, 3)``, ``set_in``), then each
  ``all_different`` removes its fixed variables' values from the others' domains until
  nothing changes;
* ``all_different_int`` (native: the solver library ``models_mzn/sat`` declares it) is
  at most one variable per value, and exactly one when the variables take all the values
  (a permutation, as in a Sudoku unit);
* comparisons and linear constraints of at most two variables, with their ``_reif`` and
  ``_imp`` forms, are clauses over the values (each value of one side implies the values
  of the other that keep the relation); Boolean builtins are clauses; ``bool2int``,
  ``set_in`` and element constraints over constants are supported;
* anything else (arithmetic, linear sums of three or more variables, floats, sets, large
  domains) is a one-line error that names the line: such models run on ``cp-sat``.

Minimisation and maximisation run the solver again with "better than the last value"
until no solution is left. Enumeration (``-a``, ``-n N``) blocks each solution's output
values. The model's search annotation is ignored: a SAT solver uses its own search, so
``-f`` changes nothing. ``-t MS`` interrupts the solver; ``-r`` and ``-p`` are accepted
and ignored (Glucose in PySAT takes no seed and runs one thread).

It runs in the engine's process (``run_file``: PySAT's solve releases Python's global
lock, so two probes' checks run on two cores) and, through ``register()``, as a MiniZinc
solver named ``sat`` for full solves, like the CP-SAT runner.
"""
from __future__ import annotations

import itertools
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import cpsat
from .cpsat import Access, FznError, Ident, IntSet, Item, Output

SOLVER_ID = "org.puzzle-engine.sat"
STD_FLAGS = ("-a", "-f", "-n", "-p", "-r", "-s", "-t")
BACKEND = "glucose4"
MAX_DOMAIN = 4096          # values per integer variable in the direct encoding
MAX_PAIRS = 1_000_000      # value pairs a binary constraint may enumerate
NAME = "the SAT runner"
SUPPORTED = ("integer variables with finite domains, Boolean builtins, comparisons and "
             "linear constraints of up to two variables, all_different_int; use cp-sat "
             "for other models")


class IntVar:
    """An integer variable in the direct encoding: ``lits[v]`` is the literal of x = v."""

    __slots__ = ("name", "dom", "lits")

    def __init__(self, name: str, dom: set[int]):
        self.name = name
        self.dom = dom
        self.lits: dict[int, int] = {}


class BoolVar:
    __slots__ = ("name", "lit")

    def __init__(self, name: str, lit: int):
        self.name = name
        self.lit = lit


class Encoding:
    """CNF for FlatZinc items, with what is needed to print solutions."""

    def __init__(self, items: list[Item]):
        self.top = 0
        self.clauses: list[list[int]] = []
        self.env: dict[str, Any] = {}
        self.outputs: list[Output] = []
        self.ints: list[IntVar] = []
        self.goal = "satisfy"
        self.objective: Any = None
        self.line = 0
        self._unsat = False
        posts = []
        for item in items:
            self.line = item.line
            try:
                if item.kind == "constraint":
                    posts.append(item)
                elif item.kind == "solve":
                    self.goal = item.goal
                    if item.objective is not None:
                        self.objective = self.resolve(item.objective)
                else:
                    self._declare(item)
            except FznError:
                raise
            except (KeyError, IndexError, TypeError, ValueError) as exc:
                raise FznError(f"line {item.line}: cannot translate '{item.name or item.kind}' "
                               f"({type(exc).__name__}: {exc})") from None
        self._narrow(posts)
        for x in self.ints:
            self._encode_int(x)
        for item in posts:
            self.line = item.line
            try:
                self._constraint(item)
            except FznError:
                raise
            except (KeyError, IndexError, TypeError, ValueError) as exc:
                raise FznError(f"line {item.line}: cannot translate '{item.name}' "
                               f"({type(exc).__name__}: {exc})") from None

    # -- values and literals ---------------------------------------------------------
    def new_lit(self) -> int:
        self.top += 1
        return self.top

    def resolve(self, e: Any) -> Any:
        if isinstance(e, Ident):
            if e.name not in self.env:
                raise FznError(f"line {self.line}: unknown identifier '{e.name}'")
            return self.env[e.name]
        if isinstance(e, Access):
            return self.env[e.name][e.index - 1]
        if isinstance(e, list):
            return [self.resolve(x) for x in e]
        if isinstance(e, tuple) and e and e[0] == "float":
            raise FznError(f"line {self.line}: floats are not supported by {NAME}")
        return e

    def lit(self, e: Any) -> int | bool:
        """A Boolean as a literal, or a bool constant."""
        v = self.resolve(e)
        if isinstance(v, BoolVar):
            return v.lit
        if isinstance(v, bool):
            return v
        raise FznError(f"line {self.line}: expected a Boolean, found {v!r}")

    def num(self, e: Any) -> IntVar | int:
        v = self.resolve(e)
        if isinstance(v, bool):
            return int(v)
        if isinstance(v, (IntVar, int)):
            return self._fixed(v)
        raise FznError(f"line {self.line}: expected an integer, found {v!r}")

    @staticmethod
    def _fixed(v: IntVar | int) -> IntVar | int:
        return next(iter(v.dom)) if isinstance(v, IntVar) and len(v.dom) == 1 else v

    @staticmethod
    def values(x: IntVar | int) -> Sequence[int]:
        return sorted(x.dom) if isinstance(x, IntVar) else (x,)

    def eq(self, x: IntVar | int, v: int) -> int | bool:
        """The literal of ``x = v`` (a constant when it is decided)."""
        if isinstance(x, int):
            return x == v
        if len(x.dom) == 1:
            return v in x.dom
        return x.lits.get(v, False)

    def add(self, lits: Sequence[int | bool]) -> None:
        """A clause; constant literals are simplified away."""
        out = []
        for a in lits:
            if a is True:
                return
            if a is not False:
                out.append(a)
        if not out:
            self._unsat = True
        self.clauses.append(out)

    def define_or(self, lits: Sequence[int | bool]) -> int | bool:
        """A literal equivalent to the disjunction of ``lits``."""
        lits = [a for a in lits if a is not False]
        if any(a is True for a in lits):
            return True
        if not lits:
            return False
        if len(lits) == 1:
            return lits[0]
        r = self.new_lit()
        self.add([-r, *lits])
        for a in lits:
            self.add([r, -a])
        return r

    # -- declarations ----------------------------------------------------------------
    def _declare(self, item: Item) -> None:
        kind, dom = item.type
        if kind in ("float", "set"):
            raise FznError(f"line {item.line}: {kind} variables are not supported by {NAME}")
        if item.kind == "par" or item.array or item.value is not None:
            value = self.resolve(item.value)
            if item.kind == "var" and not item.array and dom is not None and isinstance(value, int) \
                    and not isinstance(value, bool) and value not in dom:
                self._unsat = True
        elif kind == "bool":
            value = BoolVar(item.name, self.new_lit())
        else:
            if dom is None:
                raise FznError(f"line {item.line}: '{item.name}' has no bounds; {NAME} needs "
                               "finite domains (use cp-sat)")
            size = sum(hi - lo + 1 for lo, hi in dom.intervals)
            if size > MAX_DOMAIN:
                raise FznError(f"line {item.line}: '{item.name}' has {size} values, more than "
                               f"{NAME} encodes ({MAX_DOMAIN}; use cp-sat)")
            value = IntVar(item.name, {v for lo, hi in dom.intervals for v in range(lo, hi + 1)})
            self.ints.append(value)
        self.env[item.name] = value
        if item.kind != "var":
            return
        for ann in item.anns:
            if isinstance(ann, Ident) and ann.name == "output_var":
                self.outputs.append(Output(item.name, value, kind == "bool"))
            elif isinstance(ann, cpsat.Call) and ann.name == "output_array":
                dims = [(d.intervals[0][0], d.intervals[-1][1]) if d.intervals else (1, 0)
                        for d in ann.args[0]]
                self.outputs.append(Output(item.name, value, kind == "bool", dims))

    # -- narrowing domains at the root -----------------------------------------------
    def _narrow(self, posts: list[Item]) -> None:
        alldiffs = []
        for item in posts:
            self.line = item.line
            name, args = item.name, item.value
            if name in ("fzn_all_different_int", "all_different_int"):
                alldiffs.append([x for x in self.resolve(args[0]) if not isinstance(x, bool)])
                continue
            if name in ("int_eq", "int_ne", "int_le", "int_lt"):
                a, b = self.resolve(args[0]), self.resolve(args[1])
                if isinstance(a, IntVar) and isinstance(b, int) and not isinstance(b, bool):
                    keep = {"int_eq": lambda v: v == b, "int_ne": lambda v: v != b,
                            "int_le": lambda v: v <= b, "int_lt": lambda v: v < b}[name]
                    a.dom = {v for v in a.dom if keep(v)}
                elif isinstance(b, IntVar) and isinstance(a, int) and not isinstance(a, bool):
                    keep = {"int_eq": lambda v: v == a, "int_ne": lambda v: v != a,
                            "int_le": lambda v: a <= v, "int_lt": lambda v: a < v}[name]
                    b.dom = {v for v in b.dom if keep(v)}
            elif name == "set_in":
                x, s = self.resolve(args[0]), self.resolve(args[1])
                if isinstance(x, IntVar):
                    x.dom = {v for v in x.dom if v in s}
        changed = True
        while changed:
            changed = False
            for xs in alldiffs:
                fixed = [x if isinstance(x, int) else next(iter(x.dom))
                         for x in xs if isinstance(x, int) or len(x.dom) == 1]
                taken = set(fixed)
                if len(taken) < len(fixed):
                    self._unsat = True
                for x in xs:
                    if isinstance(x, IntVar) and len(x.dom) > 1 and x.dom & taken:
                        x.dom -= taken
                        changed = True
        if any(not x.dom for x in self.ints):
            self._unsat = True

    def _encode_int(self, x: IntVar) -> None:
        if len(x.dom) <= 1:
            return
        x.lits = {v: self.new_lit() for v in sorted(x.dom)}
        self.exactly_one(list(x.lits.values()))

    def at_most_one(self, lits: list[int]) -> None:
        # Pairwise up to 64 literals: on 25x25 Sudoku checks, Glucose took 27.7 s with
        # pairwise and 48.8 s with a sequential counter over each group of 25.
        if len(lits) <= 64:
            for a, b in itertools.combinations(lits, 2):
                self.clauses.append([-a, -b])
            return
        # Sequential counter: s_i = "one of the first i literals holds".
        prev = lits[0]
        for a in lits[1:-1]:
            s = self.new_lit()
            self.clauses += [[-prev, s], [-a, s], [-prev, -a]]
            prev = s
        self.clauses.append([-prev, -lits[-1]])

    def exactly_one(self, lits: list[int]) -> None:
        self.clauses.append(list(lits))
        self.at_most_one(lits)

    # -- constraints -----------------------------------------------------------------
    def _constraint(self, item: Item) -> None:
        name, args = item.name, item.value
        if name in ("fzn_all_different_int", "all_different_int"):
            self._all_different([self.num(x) for x in self.resolve(args[0])])
            return
        base, mode = name, ""
        for suffix in ("_reif", "_imp"):
            if name.endswith(suffix):
                base, mode = name[:-len(suffix)], suffix[1:]
        if name in cpsat._REIFIED_BY_NAME and len(args) == cpsat._REIFIED_BY_NAME[name]:
            mode = "reif"
        post = _POSTS.get(base)
        if post is None:
            raise FznError(f"line {item.line}: unsupported FlatZinc constraint '{name}' "
                           f"({NAME} supports {SUPPORTED})")
        if not mode:
            post(self, args, True, ())
            return
        r = self.lit(args[-1])
        rel = args[:-1]
        if isinstance(r, bool):
            if r or mode == "reif":
                post(self, rel, r, ())
            return
        post(self, rel, True, (r,))
        if mode == "reif":
            post(self, rel, False, (-r,))

    def _all_different(self, xs: list[IntVar | int]) -> None:
        by_value: dict[int, list[int | bool]] = {}
        for x in xs:
            for v in self.values(x):
                by_value.setdefault(v, []).append(self.eq(x, v))
        permutation = len(by_value) == len(xs)
        for lits in by_value.values():
            if any(a is True for a in lits):
                if sum(a is True for a in lits) > 1:
                    self._unsat = True
                for a in lits:
                    if a is not True and a is not False:
                        self.clauses.append([-a])
                continue
            free = [a for a in lits if a is not False]
            if permutation:
                self.add(free)
            self.at_most_one(free)

    def relation(self, a: IntVar | int, b: IntVar | int, holds, enforce: Sequence[int]) -> None:
        """``holds(va, vb)`` for the values of a and b, under the literals ``enforce``."""
        guard = [-e for e in enforce]
        va, vb = self.values(a), self.values(b)
        if len(va) * len(vb) > MAX_PAIRS:
            raise FznError(f"line {self.line}: a constraint over {len(va)} x {len(vb)} values is "
                           f"too large for {NAME} (use cp-sat)")
        if len(va) == 1:  # b must take a value that keeps the relation
            self.add([*guard, *(self.eq(b, w) for w in vb if holds(va[0], w))])
            return
        for v in va:  # a has two values or more here, so a literal per value
            self.add([*guard, -a.lits[v], *(self.eq(b, w) for w in vb if holds(v, w))])

    def unary(self, x: IntVar | int, holds, enforce: Sequence[int]) -> None:
        self.add([*(-e for e in enforce), *(self.eq(x, v) for v in self.values(x) if holds(v))])


_OPS = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
        "le": lambda a, b: a <= b, "lt": lambda a, b: a < b}
_NEG = {"eq": "ne", "ne": "eq", "le": "gt", "lt": "ge", "gt": "le", "ge": "lt"}
_OPS["gt"] = lambda a, b: a > b
_OPS["ge"] = lambda a, b: a >= b


def _compare(op: str):
    def post(e: Encoding, args, holds: bool, enforce):
        rel = _OPS[op if holds else _NEG[op]]
        e.relation(e.num(args[0]), e.num(args[1]), rel, enforce)
    return post


def _compare_lin(op: str):
    def post(e: Encoding, args, holds: bool, enforce):
        cs, xs, rhs = e.resolve(args[0]), [e.num(x) for x in e.resolve(args[1])], e.resolve(args[2])
        const = sum(c * x for c, x in zip(cs, xs) if isinstance(x, int))
        terms = [(c, x) for c, x in zip(cs, xs) if not isinstance(x, int) and c != 0]
        rel = _OPS[op if holds else _NEG[op]]
        k = rhs - const
        if len(terms) == 0:
            e.add([*(-f for f in enforce), rel(0, k)])
        elif len(terms) == 1:
            c, x = terms[0]
            e.unary(x, lambda v: rel(c * v, k), enforce)
        elif len(terms) == 2:
            (c1, x1), (c2, x2) = terms
            e.relation(x1, x2, lambda v, w: rel(c1 * v + c2 * w, k), enforce)
        else:
            raise FznError(f"line {e.line}: a linear constraint over {len(terms)} variables is not "
                           f"supported by {NAME} (use cp-sat)")
    return post


def _bool_post(kind: str):
    """Boolean builtins; ``holds`` False posts the negation."""
    def post(e: Encoding, args, holds: bool, enforce):
        guard = [-f for f in enforce]
        if kind == "clause":
            pos, neg = e.resolve(args[0]), e.resolve(args[1])
            lits = [e.lit(a) for a in pos] + [_neg(e.lit(a)) for a in neg]
            kind2 = "or"
        elif kind in ("array_or", "array_and", "array_xor"):
            lits = [e.lit(a) for a in e.resolve(args[0])]
            kind2 = kind[6:]
        else:
            a, b = e.lit(args[0]), e.lit(args[1])
            lits, kind2 = {"eq": ([a, _neg(b)], "xor_not"), "ne": ([a, b], "xor"),
                           "le": ([_neg(a), b], "or"), "lt": ([_neg(a), b], "and"),
                           "and": ([a, b], "and"), "or": ([a, b], "or"),
                           "xor": ([a, b], "xor")}[kind]
            if kind2 == "xor_not":  # a = b: a xor not b
                kind2 = "xor"
        if kind2 == "or":
            if holds:
                e.add([*guard, *lits])
            else:
                for a in lits:
                    e.add([*guard, _neg(a)])
        elif kind2 == "and":
            if holds:
                for a in lits:
                    e.add([*guard, a])
            else:
                e.add([*guard, *(_neg(a) for a in lits)])
        else:  # xor: an odd number hold (even, when not holds)
            _xor(e, lits, holds, guard)
    return post


def _neg(a: int | bool) -> int | bool:
    return (not a) if isinstance(a, bool) else -a


def _xor(e: Encoding, lits: list[int | bool], odd: bool, guard: list[int]) -> None:
    for a in lits:
        if isinstance(a, bool):
            odd ^= a
    free = [a for a in lits if not isinstance(a, bool)]
    if len(free) > 12:
        raise FznError(f"line {e.line}: an xor of {len(free)} literals is too large for {NAME}")
    for signs in itertools.product((1, -1), repeat=len(free)):
        # Forbid each assignment with the wrong parity.
        ones = sum(1 for s in signs if s > 0)
        if (ones % 2 == 1) != odd:
            e.add([*guard, *(-s * a for s, a in zip(signs, free))])


def _bool2int(e: Encoding, args, holds: bool, enforce):
    b, x = e.lit(args[0]), e.num(args[1])
    guard = [-f for f in enforce]
    e.add([*guard, _neg(b), e.eq(x, 1)])
    e.add([*guard, b, e.eq(x, 0)])


def _set_in(e: Encoding, args, holds: bool, enforce):
    s = e.resolve(args[1])
    e.unary(e.num(args[0]), lambda v: (v in s) == holds, enforce)


def _element(e: Encoding, args, holds: bool, enforce):
    """``array[i] = value`` (``holds`` only): each value k of i implies the k-th item."""
    if not holds:
        raise FznError(f"line {e.line}: a negated element constraint is not supported by {NAME}")
    i, arr, target = e.num(args[0]), e.resolve(args[1]), e.resolve(args[2])
    boolean = isinstance(target, (BoolVar, bool))
    e.unary(i, lambda k: 1 <= k <= len(arr), enforce)
    for k in e.values(i):
        at = e.eq(i, k) if 1 <= k <= len(arr) else False
        if at is False:
            continue
        when = [*enforce] if at is True else [*enforce, at]
        guard = [-f for f in when]
        if boolean:
            a, b = e.lit(arr[k - 1]), e.lit(target)
            e.add([*guard, _neg(a), b])
            e.add([*guard, a, _neg(b)])
        else:
            e.relation(e.num(arr[k - 1]), e.num(target), _OPS["eq"], when)


_POSTS = {
    **{f"int_{op}": _compare(op) for op in ("eq", "ne", "le", "lt")},
    **{f"int_lin_{op}": _compare_lin(op) for op in ("eq", "ne", "le")},
    "bool_eq": _bool_post("eq"), "bool_le": _bool_post("le"), "bool_lt": _bool_post("lt"),
    "bool_not": _bool_post("ne"), "bool_and": _bool_post("and"), "bool_or": _bool_post("or"),
    "bool_xor": _bool_post("xor"), "bool_clause": _bool_post("clause"),
    "array_bool_and": _bool_post("array_and"), "array_bool_or": _bool_post("array_or"),
    "array_bool_xor": _bool_post("array_xor"),
    "bool2int": _bool2int, "set_in": _set_in,
    **{f"array_{v}{k}_element": _element for v in ("", "var_") for k in ("int", "bool")},
}


# -- solving and printing ----------------------------------------------------------------

def solve(text: str, opts: cpsat.Options) -> str:
    """Run FlatZinc ``text`` and return what a FlatZinc solver prints."""
    from pysat.solvers import Solver

    enc = Encoding(cpsat.parse(text))
    deadline = None if opts.time_limit is None else time.monotonic() + opts.time_limit
    out: list[str] = []
    stats = {"decisions": 0, "conflicts": 0}
    found = 0
    complete = False
    optimising = enc.goal != "satisfy" and isinstance(enc.objective, IntVar) \
        and len(enc.objective.dom) > 1
    limit = None if opts.all_solutions else opts.limit
    if enc._unsat:
        return "=====UNSATISFIABLE=====\n"
    with Solver(name=BACKEND, bootstrap_with=enc.clauses) as solver:
        best = None
        while True:
            answer = _run(solver, deadline)
            st = solver.accum_stats() or {}
            stats = {"decisions": st.get("decisions", 0), "conflicts": st.get("conflicts", 0)}
            if answer is None:          # interrupted: the time limit
                break
            if answer is False:         # no (further, or better) solution
                complete = True
                break
            model = solver.get_model()
            truth = set(a for a in model if a > 0)

            def value(x):
                if isinstance(x, IntVar):
                    if len(x.dom) == 1:
                        return next(iter(x.dom))
                    return next(v for v, a in x.lits.items() if a in truth)
                if isinstance(x, BoolVar):
                    return x.lit in truth
                return x
            found += 1
            text_out = _render(enc, value)
            if optimising:
                best = text_out
                if opts.all_solutions:
                    out.append(text_out)
                v = value(enc.objective)
                better = [a for w, a in enc.objective.lits.items()
                          if (w < v if enc.goal == "minimize" else w > v)]
                if not better:
                    complete = True
                    break
                solver.add_clause(better)
                continue
            out.append(text_out)
            if enc.goal != "satisfy" or (limit is not None and found >= limit):
                complete = enc.goal != "satisfy"
                break
            block = _blocking(enc, truth)
            if not block:
                complete = True
                break
            solver.add_clause(block)
    if optimising and best is not None and not opts.all_solutions:
        out.append(best)
    if not found:
        out.append("=====UNSATISFIABLE=====\n" if complete else "=====UNKNOWN=====\n")
    elif complete and (optimising or enc.goal != "satisfy" or limit is None or found < limit):
        out.append("==========\n")
    if opts.stats:
        out.append(f"%%%mzn-stat: nodes={stats['decisions']}\n"
                   f"%%%mzn-stat: failures={stats['conflicts']}\n%%%mzn-stat-end\n")
    return "".join(out)


def _run(solver, deadline: float | None) -> bool | None:
    """One solve: True, False, or None when the deadline passed first."""
    if deadline is None:
        return solver.solve_limited(expect_interrupt=True)
    left = deadline - time.monotonic()
    if left <= 0:
        return None
    timer = threading.Timer(left, solver.interrupt)
    timer.start()
    try:
        answer = solver.solve_limited(expect_interrupt=True)
    finally:
        timer.cancel()
        solver.clear_interrupt()
    return answer


def _render(enc: Encoding, value) -> str:
    lines = []
    for out in enc.outputs:
        def show(v):
            got = value(v)
            return ("true" if got else "false") if out.boolean else str(int(got))
        if out.dims is None:
            lines.append(f"{out.name} = {show(out.value)};")
        else:
            ranges = ",".join(f"{lo}..{hi}" for lo, hi in out.dims)
            lines.append(f"{out.name} = array{len(out.dims)}d({ranges},[{','.join(show(x) for x in out.value)}]);")
    return "\n".join(lines + ["----------"]) + "\n"


def _blocking(enc: Encoding, truth: set[int]) -> list[int]:
    """A clause that excludes this solution's output values (every variable's, without
    outputs)."""
    shown = []
    for out in enc.outputs:
        shown.extend(out.value if out.dims is not None else [out.value])
    if not enc.outputs:
        shown = [*enc.ints, *(v for v in enc.env.values() if isinstance(v, BoolVar))]
    block = []
    for x in shown:
        if isinstance(x, IntVar) and len(x.dom) > 1:
            block.extend(-a for a in x.lits.values() if a in truth)
        elif isinstance(x, BoolVar):
            block.append(-x.lit if x.lit in truth else x.lit)
    return sorted(set(block))


def run_args(args: Sequence[str]) -> tuple[str, str, int]:
    """Run what a FlatZinc solver's command line asks (flags and one file, ``-`` for
    standard input): ``(stdout, stderr, exit code)``."""
    label = "sat"
    try:
        opts, rest = cpsat.parse_flags(args)
        if len(rest) != 1:
            raise FznError("usage: python -m puzzle_engine.satrun [flags] MODEL.fzn")
        label = rest[0]
        text = sys.stdin.read() if label == "-" else Path(label).read_text()
        return solve(text, opts), "", 0
    except (FznError, OSError) as exc:
        return "", f"Error: {label}: {exc}\n", 1


def run_file(path: str | Path, args: Sequence[str]) -> tuple[str, str, int]:
    """Run a FlatZinc file with FlatZinc solver flags, in this process."""
    return run_args([*args, str(path)])


def main(argv: Sequence[str] | None = None) -> int:
    out, err, code = run_args(list(sys.argv[1:] if argv is None else argv))
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code


# -- registering with MiniZinc ---------------------------------------------------------

def available() -> bool:
    import importlib.util
    return importlib.util.find_spec("pysat") is not None


def solver_config() -> dict[str, Any]:
    from importlib.metadata import version
    from importlib.resources import files
    return {
        "id": SOLVER_ID,
        "name": "SAT",
        "description": "Glucose 4 (PySAT) on a direct CNF encoding, through puzzle-engine's "
                       "FlatZinc reader",
        "version": version("python-sat"),
        "mznlib": str(files("puzzle_engine_models") / "sat"),
        "tags": ["sat", "int"],
        "stdFlags": list(STD_FLAGS),
        "supportsMzn": False,
        "supportsFzn": True,
        "needsSolns2Out": True,
        "needsMznExecutable": False,
        "needsStdlibDir": False,
        "isGUIApplication": False,
    }


def register() -> Path | None:
    """As ``cpsat.register``: make ``minizinc --solver sat`` work from this process."""
    if not available():
        return None
    return cpsat.register_solver(solver_config(), "fzn-sat", "sat.msc", "puzzle_engine.satrun")


if __name__ == "__main__":
    sys.exit(main())
