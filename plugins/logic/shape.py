"""The shape of a logic puzzle's model: its MiniZinc structure with the drawn values lifted
out, so that every draw of a spec with the same structure is one compiled model.

A spec's draw fixes numbers (a volume, a divisor, "3 times as much"), picks between ``==``
and ``!=`` ("is / is not a multiple of"), and picks the unknowns an answer option reads
("barrel D holds the beer"). ``template`` writes the model with each of these read from an
integer array instead, and returns the arrays' values for this draw:

- ``pe_k``: every integer constant but 0 (0 stays in the text). Each element's domain is
  the class of its value (1..2^10, 1..2^20, 1..10^9, or the same below 0), so a divisor
  is never 0 and products keep bounds the solver can hold; values of another class give
  another shape.
- ``pe_s``: one 0/1 per comparison of integers by ``==`` or ``!=``: 1 negates it.
- ``pe_x``: the unknown each reference in an answer option reads, an index into the
  model's unknowns (``pe_iv`` for integers, ``pe_bv`` for Booleans); the constraints name
  their unknowns themselves (``pe_v1``, ``pe_v2``... in order of first use).
- ``pe_answer``: one per answer option, 0 by default: a question sets 1 (only solutions
  where the option holds) or 2 (only those where it fails).

``pe_sol`` holds every unknown (a Boolean as 0/1), in the order of ``Template.names``: the
decision array the engine reads solutions from. The engine flattens the text once (its
``split_data`` hook) and fixes the arrays per question: the same solutions as the model
written with the values in place, without a MiniZinc compile per draw.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import symbolic
from .symbolic import MAX_INT, Sym

#: The domain classes of a lifted constant (by absolute value).
CLASSES = (2 ** 10, 2 ** 20, MAX_INT)
#: The decision array of a shaped model (``LogicPuzzle.decision``).
SOLUTION = "pe_sol"
#: The answer options' array (the engine's ``ANSWER_ARRAY``).
ANSWER = "pe_answer"


@dataclass(frozen=True)
class Template:
    """A model's shape (``text``), this draw's values of its arrays (``arrays``), and the
    unknown (name, ``int``/``bool``) behind each element of ``pe_sol`` (``names``)."""

    text: str
    arrays: dict[str, list[int]]
    names: tuple[tuple[str, str], ...]

    def assignment(self, board) -> dict:
        """A ``pe_sol`` solution as the unknowns' values, Booleans as true/false."""
        return {name: bool(v) if typ == "bool" else int(v)
                for (name, typ), v in zip(self.names, board)}


#: Division by a lifted number: a variable of a fixed sign, never 0, which the solvers'
#: own division need not support (Chuffed's takes sign-fixed operands only): as
#: ``symbolic.PRELUDE``'s division by a number, ``a = b * q + r``.
PRELUDE = """function int: pe_qk(var int: a, var int: b) =
    max(abs(lb(a)), abs(ub(a))) div max(1, min(abs(lb(b)), abs(ub(b)))) + 1;
function int: pe_mk(var int: b) = max(abs(lb(b)), abs(ub(b)));
function var int: pe_emodk(var int: a, var int: b) :: promise_total =
    let { var 0..pe_mk(b) - 1: r; var -pe_qk(a, b)..pe_qk(a, b): q;
          constraint r < abs(b) /\\ a = b * q + r } in r;
function var int: pe_edivk(var int: a, var int: b) :: promise_total =
    let { var 0..pe_mk(b) - 1: r; var -pe_qk(a, b)..pe_qk(a, b): q;
          constraint r < abs(b) /\\ a = b * q + r } in q;
function var int: pe_fdivk(var int: a, var int: b) :: promise_total =
    let { var 1 - pe_mk(b)..pe_mk(b) - 1: r; var -pe_qk(a, b)..pe_qk(a, b): q;
          constraint a = b * q + r /\\ (b > 0 -> (r >= 0 /\\ r < b))
                     /\\ (b < 0 -> (r <= 0 /\\ r > b)) } in q;
"""


class _Writer:
    def __init__(self):
        self.vars: dict[str, tuple[str, str]] = {}   # unknown -> (pe_v name, type)
        self.k: list[int] = []
        self.k_class: list[tuple[int, int]] = []
        self.s: list[int] = []
        self.x: list[int] = []
        self.x_kind: list[str] = []
        self.indexed = None                           # unknown -> (kind, index) in options

    def const(self, v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if v == 0:
            return "0"
        top = next(c for c in CLASSES if abs(v) <= c)
        self.k.append(v)
        self.k_class.append((1, top) if v > 0 else (-top, -1))
        return f"pe_k[{len(self.k)}]"

    def var(self, x: Sym) -> str:
        name = x.args[0]
        if self.indexed is not None:  # in an answer option: which unknown is data
            kind, index = self.indexed[name]
            self.x.append(index)
            self.x_kind.append(kind)
            return f"pe_{kind}v[pe_x[{len(self.x)}]]"
        if name not in self.vars:
            self.vars[name] = (f"pe_v{len(self.vars) + 1}", x.type)
        return self.vars[name][0]

    def write(self, x) -> str:
        if not isinstance(x, Sym):
            x = symbolic._lift(x)
        op, args = x.op, x.args
        if op == "var":
            return self.var(x)
        if op == "const":
            return self.const(args[0])
        if op in ("==", "!=") and args[0].type == "int":
            self.s.append(0 if op == "==" else 1)
            j = len(self.s)  # before the operands add theirs
            return f"(({self.write(args[0])} = {self.write(args[1])}) xor (pe_s[{j}] = 1))"
        if op in symbolic._MZN_BIN:
            return f"({self.write(args[0])} {symbolic._MZN_BIN[op]} {self.write(args[1])})"
        if op in ("/", "%", "//"):
            f = {"/": "pe_ediv", "%": "pe_emod", "//": "pe_fdiv"}[op]
            if args[1].op == "const" and args[1].args[0] != 0:
                f += "k"  # by a lifted number: never 0, its sign fixed (PRELUDE)
            return f"{f}({self.write(args[0])}, {self.write(args[1])})"
        if op == "neg":
            return f"(-{self.write(args[0])})"
        if op == "b2i":
            return f"bool2int({self.write(args[0])})"
        if op in ("and", "or"):
            if not args:
                return "true" if op == "and" else "false"
            return "(" + (" /\\ " if op == "and" else " \\/ ").join(self.write(a) for a in args) + ")"
        if op == "not":
            return f"(not {self.write(args[0])})"
        if op == "if":
            return f"(if {self.write(args[0])} then {self.write(args[1])} else {self.write(args[2])} endif)"
        if op == "distinct":
            return "all_different([" + ", ".join(self.write(a) for a in args) + "])"
        raise symbolic.SymbolicError(f"no MiniZinc form for {op}")


def template(constraints, bound: int, options=None) -> Template | None:
    """The shape of the model of ``constraints`` (formulas), its unknowns bounded by
    ``bound``, with the answer ``options`` (formulas) when given. None when the model has
    no unknown, or an option reads an unknown no constraint names: such a model is
    solved whole."""
    w = _Writer()
    body = [f"constraint {w.write(c)};" for c in constraints if isinstance(c, Sym)]
    if any(isinstance(c, bool) and not c for c in constraints):
        body.append("constraint false;")
    if not w.vars:
        return None
    ints = [v for v, t in w.vars.values() if t == "int"]
    bools = [v for v, t in w.vars.values() if t == "bool"]
    lines = [symbolic.PRELUDE, PRELUDE]
    for v, t in w.vars.values():
        lines.append(f"var bool: {v};" if t == "bool" else f"var {-bound}..{bound}: {v};")
    asks = []
    if options is not None:
        if not all(isinstance(o, Sym) and o.type == "bool" for o in options):
            return None
        w.indexed = {}
        for name, (_, t) in w.vars.items():
            group = ints if t == "int" else bools
            w.indexed[name] = ("i" if t == "int" else "b", group.index(w.vars[name][0]) + 1)
        try:
            texts = [w.write(o) for o in options]
        except KeyError:  # an option reads an unknown the constraints do not name
            return None
        for i, text in enumerate(texts, 1):
            asks.append(f"constraint {ANSWER}[{i}] = 1 -> {text};")
            asks.append(f"constraint {ANSWER}[{i}] = 2 -> not {text};")
    arrays: dict[str, list[int]] = {}
    if w.k:
        lines.append(f"array[1..{len(w.k)}] of var {-MAX_INT}..{MAX_INT}: pe_k;")
        lines += [f"constraint pe_k[{j}] in {lo}..{hi};" for j, (lo, hi) in enumerate(w.k_class, 1)]
        arrays["pe_k"] = w.k
    if w.s:
        lines.append(f"array[1..{len(w.s)}] of var 0..1: pe_s;")
        arrays["pe_s"] = w.s
    if w.x:
        if "i" in w.x_kind:
            lines.append(f"array[1..{len(ints)}] of var {-bound}..{bound}: pe_iv = [{', '.join(ints)}];")
        if "b" in w.x_kind:
            lines.append(f"array[1..{len(bools)}] of var bool: pe_bv = [{', '.join(bools)}];")
        lines.append(f"array[1..{len(w.x)}] of var 1..{max(len(ints), len(bools))}: pe_x;")
        arrays["pe_x"] = w.x
    if options is not None:
        lines.append(f"array[1..{len(options)}] of var 0..2: {ANSWER};")
        arrays[ANSWER] = [0] * len(options)
    # Declared, then equated: MiniZinc outputs an array with no right-hand side only.
    sol = [v if t == "int" else f"bool2int({v})" for v, t in w.vars.values()]
    lines.append(f"array[1..{len(sol)}] of var {-bound}..{bound}: {SOLUTION};")
    lines.append(f"constraint {SOLUTION} = [{', '.join(sol)}];")
    lines += body + asks
    lines.append("solve satisfy;")
    names = tuple((name, t) for name, (_, t) in w.vars.items())
    return Template("\n".join(lines) + "\n", arrays, names)
