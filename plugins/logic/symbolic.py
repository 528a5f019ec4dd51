"""Symbolic expressions over the decision variables of a logic puzzle, and their
MiniZinc form.

A spec's formulas are evaluated by the interpreter (``interp``); where they touch a
decision variable (a symbol's unknown) the result is a ``Sym``, a small tree that the
generator compiles to MiniZinc and that ``value`` evaluates under one solution. Plain
Python values (the spec's constants) never become trees: they are computed by the
interpreter.

z3, which PuzzleClone uses, and MiniZinc differ; ``docs/logic-specs.md`` says how we
bridge them. Here: integer ``/`` and ``%`` on unknowns follow z3 (SMT-LIB's Euclidean
division: the remainder is never negative), ``//`` follows Python (floor), Booleans
count as 0 and 1 in arithmetic, and every integer unknown has the bounds its symbol
declares (``int_bound``) because a finite-domain solver needs them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: MiniZinc's functions for z3's and Python's integer division, defined once per model.
PRELUDE = """include "alldifferent.mzn";
function var int: pe_ediv(var int: a, var int: b) = (a - pe_emod(a, b)) div b;
function var int: pe_emod(var int: a, var int: b) =
    let { var int: r = a mod b } in if r < 0 then r + abs(b) else r endif;
function var int: pe_emod(var int: a, int: b) :: promise_total =
    let { int: m = abs(b); var 0..m - 1: r; var -pe_q(a, b)..pe_q(a, b): q;
          constraint m > 0 /\\ a = b * q + r } in r;
function var int: pe_ediv(var int: a, int: b) :: promise_total =
    let { int: m = abs(b); var 0..m - 1: r; var -pe_q(a, b)..pe_q(a, b): q;
          constraint m > 0 /\\ a = b * q + r } in q;
function int: pe_q(var int: a, int: b) = max(abs(lb(a)), abs(ub(a))) div max(1, abs(b)) + 1;
function var int: pe_fdiv(var int: a, var int: b) =
    let { var int: q = a div b } in if (a mod b != 0) /\\ ((a < 0) != (b < 0)) then q - 1 else q endif;
"""


class SymbolicError(ValueError):
    """A formula used an unknown where only a known value can go."""


#: Parts of one formula, counted as written out.
MAX_SIZE = 200_000
#: Largest number a formula may hold: MiniZinc's and Chuffed's integers (a larger literal
#: is a MiniZinc syntax error far from the spec's field).
MAX_INT = 1_000_000_000


@dataclass(frozen=True, eq=False)
class Sym:
    """A node: ``op`` is ``var`` (``args``: name), ``const`` (a value) or an operator."""

    op: str
    args: tuple
    type: str  # "int" or "bool"

    def __post_init__(self):
        # The size of the tree written out: a shared subtree counts each time it is met,
        # as MiniZinc's text, hashing and evaluation all meet it (``e + e`` doubled 40
        # times is 40 nodes in memory but 2**40 in the model).
        size = 1 + sum(a.size for a in self.args if isinstance(a, Sym))
        if size > MAX_SIZE:
            raise SymbolicError(f"formula of more than {MAX_SIZE} parts")
        object.__setattr__(self, "size", size)
        if self.op == "const" and not isinstance(self.args[0], bool) and abs(self.args[0]) > MAX_INT:
            v = self.args[0]
            shown = str(v) if abs(v) < 10**30 else f"of {v.bit_length()} bits"
            raise SymbolicError(f"the number {shown} is beyond the solver's "
                                f"integers (at most {MAX_INT} in size)")

    def __bool__(self):
        raise SymbolicError("an unknown cannot decide a Python condition here "
                            "(use If(...), And(...), Or(...) instead of if/and/or)")

    def __hash__(self):
        return hash((self.op, self.args))

    def key(self):
        """A hashable, comparable identity (for selections and symbol descriptions)."""
        return (self.op, tuple(a.key() if isinstance(a, Sym) else a for a in self.args))

    def __repr__(self):
        return self.args[0] if self.op == "var" else f"<{self.op} {self.type}>"

    def variables(self, found: dict[str, "Sym"]) -> dict[str, "Sym"]:
        if self.op == "var":
            found.setdefault(self.args[0], self)
        for a in self.args:
            if isinstance(a, Sym):
                a.variables(found)
        return found


def var(name: str, typ: str) -> Sym:
    return Sym("var", (name,), typ)


def is_sym(x) -> bool:
    return isinstance(x, Sym)


def _lift(x) -> Sym:
    if isinstance(x, Sym):
        return x
    if isinstance(x, bool):
        return Sym("const", (x,), "bool")
    if isinstance(x, int):
        return Sym("const", (x,), "int")
    raise SymbolicError(f"a {type(x).__name__} value ({_short(x)}) cannot be combined with an unknown")


def _short(x) -> str:
    text = repr(x)
    return text if len(text) < 40 else text[:37] + "..."


def _int(x: Sym) -> Sym:
    return Sym("b2i", (x,), "int") if x.type == "bool" else x


def _bool(x: Sym) -> Sym:
    if x.type == "bool":
        return x
    raise SymbolicError("an integer unknown was used where a condition is needed")


ARITH = {"+", "-", "*", "/", "%", "//"}
COMPARE = {"==", "!=", "<", "<=", ">", ">="}


def binop(op: str, a, b) -> Sym:
    a, b = _lift(a), _lift(b)
    if op in ARITH:
        return Sym(op, (_int(a), _int(b)), "int")
    if op in COMPARE:
        if op in ("==", "!=") and a.type == b.type == "bool":
            return Sym(op, (a, b), "bool")
        return Sym(op, (_int(a), _int(b)), "bool")
    raise SymbolicError(f"operator {op} cannot take an unknown")


def neg(a) -> Sym:
    return Sym("neg", (_int(_lift(a)),), "int")


def flatten_args(args) -> list:
    """z3's n-ary functions take ``f(a, b, c)`` or ``f([a, b, c])``."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return list(args[0])
    return list(args)


def And(*args):
    items = flatten_args(args)
    if not any(isinstance(x, Sym) for x in items):
        return all(_known_bool(x) for x in items)
    return Sym("and", tuple(_bool(_lift(x)) for x in items), "bool")


def Or(*args):
    items = flatten_args(args)
    if not any(isinstance(x, Sym) for x in items):
        return any(_known_bool(x) for x in items)
    return Sym("or", tuple(_bool(_lift(x)) for x in items), "bool")


def Not(a):
    if not isinstance(a, Sym):
        return not _known_bool(a)
    return Sym("not", (_bool(a),), "bool")


def Implies(a, b):
    if not isinstance(a, Sym) and not isinstance(b, Sym):
        return (not _known_bool(a)) or _known_bool(b)
    return Sym("->", (_bool(_lift(a)), _bool(_lift(b))), "bool")


def Xor(a, b):
    if not isinstance(a, Sym) and not isinstance(b, Sym):
        return _known_bool(a) != _known_bool(b)
    return Sym("xor", (_bool(_lift(a)), _bool(_lift(b))), "bool")


def If(c, a, b):
    if not isinstance(c, Sym):
        return a if _known_bool(c) else b
    a, b = _lift(a), _lift(b)
    typ = "bool" if a.type == b.type == "bool" else "int"
    if typ == "int":
        a, b = _int(a), _int(b)
    return Sym("if", (_bool(c), a, b), typ)


def Sum(*args):
    items = flatten_args(args)
    total: Any = 0
    for x in items:
        total = binop("+", total, x) if isinstance(x, Sym) or isinstance(total, Sym) else total + x
    return total


def Distinct(*args):
    items = flatten_args(args)
    if not any(isinstance(x, Sym) for x in items):
        return len(set(items)) == len(items)
    return Sym("distinct", tuple(_int(_lift(x)) for x in items), "bool")


def _known_bool(x) -> bool:
    if isinstance(x, (bool, int)):
        return bool(x)
    raise SymbolicError(f"expected a condition, got {_short(x)}")


# -- MiniZinc ---------------------------------------------------------------------------------
_MZN_BIN = {"+": "+", "-": "-", "*": "*", "==": "=", "!=": "!=", "<": "<", "<=": "<=",
            ">": ">", ">=": ">=", "->": "->", "xor": "xor"}


def to_minizinc(x) -> str:
    """The MiniZinc text of a formula (a ``Sym`` or a known bool/int)."""
    if not isinstance(x, Sym):
        x = _lift(x)
    op, args = x.op, x.args
    if op == "var":
        return args[0]
    if op == "const":
        v = args[0]
        return ("true" if v else "false") if isinstance(v, bool) else str(v) if v >= 0 else f"({v})"
    if op in _MZN_BIN:
        return f"({to_minizinc(args[0])} {_MZN_BIN[op]} {to_minizinc(args[1])})"
    if op in ("/", "%", "//"):
        f = {"/": "pe_ediv", "%": "pe_emod", "//": "pe_fdiv"}[op]
        return f"{f}({to_minizinc(args[0])}, {to_minizinc(args[1])})"
    if op == "neg":
        return f"(-{to_minizinc(args[0])})"
    if op == "b2i":
        return f"bool2int({to_minizinc(args[0])})"
    if op in ("and", "or"):
        if not args:
            return "true" if op == "and" else "false"
        return "(" + (" /\\ " if op == "and" else " \\/ ").join(to_minizinc(a) for a in args) + ")"
    if op == "not":
        return f"(not {to_minizinc(args[0])})"
    if op == "if":
        return (f"(if {to_minizinc(args[0])} then {to_minizinc(args[1])} "
                f"else {to_minizinc(args[2])} endif)")
    if op == "distinct":
        return "all_different([" + ", ".join(to_minizinc(a) for a in args) + "])"
    raise SymbolicError(f"no MiniZinc form for {op}")


# -- evaluation under one solution ----------------------------------------------------------
def _ediv(a: int, b: int) -> int:
    return (a - _emod(a, b)) // b


def _emod(a: int, b: int) -> int:
    return a % abs(b)


def value(x, assignment: dict[str, Any]):
    """The value of a formula when the unknowns take ``assignment`` (name to value); None
    when it names an unknown the assignment lacks (as z3's model does for a variable in
    no constraint)."""
    if not isinstance(x, Sym):
        return x
    op, args = x.op, x.args
    if op == "var":
        return assignment.get(args[0])
    if op == "const":
        return args[0]
    vals = [value(a, assignment) for a in args]
    if any(v is None for v in vals):
        return None
    if op in ("+", "-", "*"):
        a, b = vals
        return a + b if op == "+" else a - b if op == "-" else a * b
    if op in ("/", "%", "//"):
        a, b = vals
        if b == 0:
            return None
        return _ediv(a, b) if op == "/" else _emod(a, b) if op == "%" else a // b
    if op in COMPARE:
        a, b = vals
        return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b,
                ">=": a >= b}[op]
    if op == "neg":
        return -vals[0]
    if op == "b2i":
        return int(vals[0])
    if op == "and":
        return all(vals)
    if op == "or":
        return any(vals)
    if op == "not":
        return not vals[0]
    if op == "->":
        return (not vals[0]) or vals[1]
    if op == "xor":
        return vals[0] != vals[1]
    if op == "if":
        return vals[1] if vals[0] else vals[2]
    if op == "distinct":
        return len(set(vals)) == len(vals)
    raise SymbolicError(f"cannot evaluate {op}")
