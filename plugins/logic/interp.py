"""The whitelist interpreter of a spec's Python expressions.

A spec holds expressions (``formula``, ``domain``, lambdas in ``custom_cond``, the
``{...}`` parts of ``desc`` templates). PuzzleClone runs them with ``exec``/``eval``;
we never do. ``parse`` turns one into a syntax tree with Python's ``ast`` module, and
``Interpreter.eval`` walks the tree, node kind by node kind, doing only what the tables
below allow: names the spec defined or the table lists, literals, arithmetic,
comparisons, Boolean operators, conditional expressions, comprehensions, lambdas,
indexing and slicing, calls of whitelisted functions, and a few named methods. Anything
else (any other attribute, a dunder, an import, a statement) is an ``ExprError``, one
line. Sizes are bounded: expression length and depth, ranges and repeated sequences,
powers, and the number of steps one evaluation may take.
"""
from __future__ import annotations

import ast
import contextlib
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from . import symbolic
from .symbolic import Sym

MAX_CHARS = 20_000       #: characters in one expression
MAX_DEPTH = 60           #: nesting of the syntax tree
MAX_NODES = 20_000       #: nodes of the syntax tree
MAX_RANGE = 100_000      #: elements of a range or a repeated sequence
MAX_STEPS = 1_000_000    #: nodes evaluated by one top-level evaluation
MAX_POW = 10_000         #: largest exponent of a power
MAX_CALL_DEPTH = 40      #: nested lambda calls
MAX_WORK = 5_000_000     #: elements that calls, operators and 'in' of one evaluation handle
MAX_BITS = 100_000       #: bits of an integer a product or power may make
MAX_TEXT = 1_000_000     #: characters of a string a method or '%' may make


class ExprError(ValueError):
    """An expression that is malformed, outside the whitelist, or too large."""


class BudgetError(ExprError):
    """An evaluation that ran out of its steps or elements: it ends the evaluation, even
    where a failing expression would only count as false."""


class Closure:
    """A spec's lambda: its tree, and the scope it was made in."""

    def __init__(self, node: ast.Lambda, scope: dict[str, Any], interp: "Interpreter"):
        self.node, self.scope, self.interp = node, scope, interp

    def __call__(self, *args):
        spec = self.node.args
        names = [a.arg for a in spec.args]
        defaults = spec.defaults
        if len(args) > len(names) or len(args) < len(names) - len(defaults):
            raise ExprError(f"the lambda takes {len(names)} argument(s), given {len(args)}")
        scope = dict(self.scope)
        for i, name in enumerate(names):
            if i < len(args):
                scope[name] = args[i]
            else:
                scope[name] = self.interp._eval(defaults[i - (len(names) - len(defaults))], self.scope)
        self.interp._calls += 1
        try:
            if self.interp._calls > MAX_CALL_DEPTH:
                raise ExprError(f"lambdas nested more than {MAX_CALL_DEPTH} calls deep")
            with _python_errors():
                return self.interp._eval(self.node.body, scope)
        finally:
            self.interp._calls -= 1


@contextlib.contextmanager
def _python_errors():
    """Python's errors met while evaluating (a wrong type, a missing key...) as one-line
    ``ExprError``s."""
    try:
        yield
    except RecursionError:
        raise ExprError("expression too deeply nested") from None
    except (ExprError, symbolic.SymbolicError):
        raise
    except ZeroDivisionError:
        raise ExprError("division by zero") from None
    except (TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError) as exc:
        raise ExprError(f"{type(exc).__name__}: {_one_line(exc)}") from None


def parse(text: str) -> ast.expr:
    """The syntax tree of one expression, checked for size (not yet for whitelist: that
    happens as it is evaluated, so a refused construct is named where it is met)."""
    if not isinstance(text, str):
        text = str(text)
    if len(text) > MAX_CHARS:
        raise ExprError(f"expression longer than {MAX_CHARS} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExprError(f"not a Python expression: {exc.msg} (column {exc.offset})") from None
    except (RecursionError, MemoryError, ValueError):
        raise ExprError("expression too deeply nested") from None
    count = 0
    stack = [(tree.body, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if depth > MAX_DEPTH:
            raise ExprError(f"expression nested more than {MAX_DEPTH} levels deep")
        if count > MAX_NODES:
            raise ExprError(f"expression of more than {MAX_NODES} parts")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return tree.body


def parse_template(text: str) -> list:
    """A ``desc`` template: literal text and ``{expression}`` parts (``{{``/``}}`` are
    braces), as a list of ``str`` and ``(tree, format_spec)``."""
    if not isinstance(text, str):
        text = str(text)
    parts: list = []
    buf, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "{" and text.startswith("{{", i):
            buf.append("{")
            i += 2
        elif c == "}" and text.startswith("}}", i):
            buf.append("}")
            i += 2
        elif c == "}":
            raise ExprError(f"single '}}' at character {i + 1} of the template")
        elif c == "{":
            j = next((k for k, d, depth in _unquoted(text, i + 1) if d in ")]}" and depth == 0), n)
            if j >= n or text[j] != "}":
                raise ExprError(f"'{{' at character {i + 1} of the template is not closed")
            body, spec = text[i + 1:j], ""
            colon = _top_level_colon(body)
            if colon is not None:
                body, spec = body[:colon], body[colon + 1:]
            if buf:
                parts.append("".join(buf))
                buf = []
            parts.append((parse(body), spec))
            i = j + 1
        else:
            buf.append(c)
            i += 1
    if buf:
        parts.append("".join(buf))
    return parts


def _unquoted(text: str, start: int):
    """``(index, character, depth)`` for the characters of ``text`` from ``start`` that
    are outside string literals; ``depth`` counts the brackets open before each one."""
    depth, quote, k = 0, None, start
    while k < len(text):
        d = text[k]
        if quote:
            if d == "\\":
                k += 1
            elif d == quote:
                quote = None
        elif d in "'\"":
            quote = d
        else:
            yield k, d, depth
            depth += (d in "([{") - (d in ")]}")
        k += 1


def _top_level_colon(body: str) -> int | None:
    """The ':' of a format spec (``{x:>4}``), not one inside brackets, strings or a lambda."""
    for k, d, depth in _unquoted(body, 0):
        if d == ":" and depth == 0 and "lambda" not in body[:k] and body[k + 1:k + 2] != "=":
            return k
    return None


# -- what may be called ---------------------------------------------------------------------
def _range(*args):
    for a in args:
        if isinstance(a, bool) or not isinstance(a, int):
            raise ExprError(f"range() takes whole numbers, not {type(a).__name__}")
    r = range(*args)
    if len(r) > MAX_RANGE:
        raise ExprError(f"range of {len(r)} numbers (at most {MAX_RANGE})")
    return r


def _sum(items, start=0):
    total = start
    for x in _iterate(items):
        total = symbolic.binop("+", total, x) if isinstance(x, Sym) or isinstance(total, Sym) \
            else total + x
    return total


def _iterate(x):
    if isinstance(x, Sym):
        raise ExprError("cannot iterate over an unknown")
    if isinstance(x, (str, list, tuple, range, dict, set, frozenset, type({}.keys()),
                      type({}.values()), type({}.items()))):
        return x
    if hasattr(x, "iterate"):
        return x.iterate()
    raise ExprError(f"cannot iterate over a {type(x).__name__}")


def _minmax(f):
    def call(*args, **kw):
        items = list(_iterate(args[0])) if len(args) == 1 else list(args)
        if any(isinstance(x, Sym) for x in items):
            raise ExprError(f"{f.__name__}() of unknowns is not supported; compare with If(...)")
        return f(items, **kw)
    call.__name__ = f.__name__
    return call


def _sorted(items, key=None, reverse=False):
    return sorted(_iterate(items), key=key, reverse=reverse)


def _list(x=()):
    return list(_iterate(x))


def _tuple(x=()):
    return tuple(_iterate(x))


def _set(x=()):
    return set(_iterate(x))


def _enumerate(x, start=0):
    return list(enumerate(_iterate(x), start))


def _zip(*xs):
    return list(zip(*(_iterate(x) for x in xs)))


def _len(x):
    if isinstance(x, Sym):
        raise ExprError("len() of an unknown")
    return len(x)


def _str(x=""):
    if isinstance(x, Sym):
        return repr(x)
    return str(x)


def _round(x, n=None):
    if isinstance(n, int) and abs(n) > 1000:
        raise ExprError(f"round() to {n} digits (at most 1000)")
    return round(x, n) if n is not None else round(x)


def _format(x, spec=""):
    return _apply_format(x, spec)


def _apply_format(x, spec: str) -> str:
    digits = "".join(ch for ch in spec if ch.isdigit())
    if digits and int(digits[:6]) > 1000:
        raise ExprError(f"format width or precision over 1000 ('{spec}')")
    try:
        return format(x, spec)
    except (ValueError, TypeError) as exc:
        raise ExprError(f"bad format '{spec}': {exc}") from None


def _size(x, limit: int = MAX_WORK, seen: dict | None = None) -> int:
    """The elements of ``x`` written out: a string's characters, a container's items and
    theirs, a shared item counted each time (``str([[0] * 1000] * 1000)`` writes a
    million). Stops counting past ``limit``."""
    if isinstance(x, (str, range)):
        return len(x)
    if not isinstance(x, (list, tuple, dict, set, frozenset)):
        return 1
    seen = {} if seen is None else seen
    if id(x) in seen:
        return seen[id(x)]
    seen[id(x)] = limit + 1  # a container inside itself
    total = len(x)
    for item in (x.items() if isinstance(x, dict) else x):
        total += _size(item, limit, seen) if not isinstance(item, (int, float, bool)) else 0
        if total > limit:
            break
    seen[id(x)] = total
    return total


def _text_limit(length: int, what: str) -> None:
    if length > MAX_TEXT:
        raise ExprError(f"{what} would make a string of over {MAX_TEXT} characters")


def _str_method(s: str, name: str):
    """``s.name``, refusing results too large to make (checked before making them)."""
    method = getattr(s, name)
    if name == "zfill":
        def call(width):
            _text_limit(width if isinstance(width, int) else 0, "zfill()")
            return method(width)
    elif name == "replace":
        def call(old, new, count=-1):
            if isinstance(old, str) and isinstance(new, str):
                n = (len(s) + 1 if old == "" else s.count(old))
                n = n if count < 0 else min(n, count)
                _text_limit(len(s) + n * max(len(new) - len(old), 0), "replace()")
            return method(old, new, count)
    elif name == "join":
        def call(items):
            items = list(_iterate(items))
            _text_limit(len(s) * len(items) + sum(len(i) for i in items if isinstance(i, str)),
                        "join()")
            return method(items)
    else:
        return method
    return call


_PERCENT_FIELD = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d*)(?:\.(\*|\d*))?")


def _percent(template: str, args) -> str:
    """``template % args`` with widths and precisions up to 1000 and a bounded result."""
    fields = 0
    for m in _PERCENT_FIELD.finditer(template):
        fields += 1  # '%%' counts too: an over-estimate
        for part in (m.group(1), m.group(2)):
            if part == "*":
                raise ExprError("'*' width in a % format is not allowed")
            if part and int(part[:6]) > 1000:
                raise ExprError(f"% format width or precision over 1000 ('{m.group(0)}')")
    values = args.values() if isinstance(args, dict) else args if isinstance(args, tuple) else [args]
    longest = max((_size(v) for v in values), default=0)
    _text_limit(len(template) + fields * (longest + 1000), "'%' formatting")
    return template % args


BUILTINS: dict[str, Any] = {
    "range": _range, "len": _len, "sum": _sum, "min": _minmax(min), "max": _minmax(max),
    "zip": _zip, "enumerate": _enumerate, "sorted": _sorted, "list": _list, "tuple": _tuple,
    "set": _set, "abs": abs, "int": int, "float": float, "str": _str, "bool": bool,
    "round": _round, "chr": chr, "ord": ord, "any": lambda x: any(_iterate(x)),
    "all": lambda x: all(_iterate(x)), "reversed": lambda x: list(reversed(list(_iterate(x)))),
    "format": _format, "isinstance": isinstance, "dict": dict,
    "map": lambda f, *xs: list(map(f, *(_iterate(x) for x in xs))),
    "filter": lambda f, xs: [x for x in _iterate(xs) if (f(x) if f is not None else x)],
    "True": True, "False": False, "None": None,
    "And": symbolic.And, "Or": symbolic.Or, "Not": symbolic.Not, "Implies": symbolic.Implies,
    "Xor": symbolic.Xor, "If": symbolic.If, "Sum": symbolic.Sum, "Distinct": symbolic.Distinct,
    "ceil": math.ceil, "floor": math.floor, "gcd": math.gcd, "sqrt": math.sqrt,
}
#: Names a spec may not rebind or read even if a variable of that name were defined.
FORBIDDEN_NAMES = {"__import__", "exec", "eval", "compile", "open", "globals", "locals",
                   "getattr", "setattr", "delattr", "breakpoint"}
#: Methods a spec may call, by the type of the object.
METHODS: dict[type, frozenset[str]] = {
    str: frozenset({"join", "upper", "lower", "capitalize", "title", "strip", "split",
                    "replace", "startswith", "endswith", "zfill", "format"}),
    list: frozenset({"count", "index"}),
    tuple: frozenset({"count", "index"}),
    dict: frozenset({"get", "items", "keys", "values"}),
}

_CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_BIN = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
        ast.Mod: "%", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}
#: z3 reads &, |, ^ and ~ on conditions as And, Or, Xor and Not.
_BOOL_BIN = {"&": symbolic.And, "|": symbolic.Or, "^": symbolic.Xor}


class Interpreter:
    """Evaluates trees from ``parse`` against names: the spec's variables and symbols
    (``names``), then ``functions`` (the spec helpers), then ``BUILTINS``."""

    def __init__(self, names: Mapping[str, Any] | None = None,
                 functions: Mapping[str, Callable] | None = None):
        self.names: dict[str, Any] = dict(names or {})
        self.functions: dict[str, Any] = dict(functions or {})
        self._callables = {id(f) for f in (*BUILTINS.values(), *self.functions.values())
                           if callable(f)}
        self._steps = 0
        self._work = 0
        self._calls = 0

    def _charge(self, *values) -> None:
        """Counts the elements ``values`` hold against the evaluation's budget, so that
        work done inside one step (a call, an operator, 'in') is bounded too."""
        for v in values:
            self._work += _size(v, MAX_WORK - self._work)
            if self._work > MAX_WORK:
                raise BudgetError(f"evaluation handled over {MAX_WORK} elements")

    def _charge_sized(self, x) -> None:
        """Charges ``x`` if comparing or hashing it walks its elements."""
        if isinstance(x, (str, list, tuple, dict, set, frozenset)) and len(x) > 16:
            self._charge(x)

    def allow(self, name: str, function: Callable) -> None:
        self.functions[name] = function
        self._callables.add(id(function))

    # -- entry points ---------------------------------------------------------------------
    def eval(self, tree: ast.expr, local: Mapping[str, Any] | None = None):
        self._steps = self._work = 0
        with _python_errors():
            return self._eval(tree, dict(local or {}))

    def text(self, parts: list, local: Mapping[str, Any] | None = None) -> str:
        """A template from ``parse_template``, filled in."""
        out = []
        for p in parts:
            if isinstance(p, str):
                out.append(p)
            else:
                v = self.eval(p[0], local)
                out.append(_apply_format(v, p[1]) if p[1] else _str(v))
        return "".join(out)

    # -- the walk -------------------------------------------------------------------------
    def _eval(self, node: ast.AST, scope: dict[str, Any]):
        self._steps += 1
        if self._steps > MAX_STEPS:
            raise BudgetError(f"evaluation took over {MAX_STEPS} steps")
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise ExprError(f"{_describe(node)} is not allowed in a spec expression")
        return method(node, scope)

    def _Constant(self, node, scope):
        if isinstance(node.value, (bytes, complex)) or node.value is Ellipsis:
            raise ExprError(f"{type(node.value).__name__} literals are not allowed")
        return node.value

    def _Name(self, node, scope):
        name = node.id
        if name.startswith("__") or name in FORBIDDEN_NAMES:
            raise ExprError(f"name '{name}' is not allowed in a spec expression")
        for table in (scope, self.names, self.functions, BUILTINS):
            if name in table:
                return table[name]
        raise ExprError(f"unknown name '{name}'")

    def _List(self, node, scope):
        return [self._eval(e, scope) for e in self._starred(node.elts, scope)]

    def _Tuple(self, node, scope):
        return tuple(self._eval(e, scope) for e in self._starred(node.elts, scope))

    def _Set(self, node, scope):
        return {self._hashed(e, scope) for e in node.elts}

    def _starred(self, elts, scope):
        for e in elts:
            if isinstance(e, ast.Starred):
                raise ExprError("'*' unpacking is not allowed in a spec expression")
            yield e

    def _Dict(self, node, scope):
        if any(k is None for k in node.keys):
            raise ExprError("'**' unpacking is not allowed in a spec expression")
        return {self._hashed(k, scope): self._eval(v, scope) for k, v in zip(node.keys, node.values)}

    def _BinOp(self, node, scope):
        a, b = self._eval(node.left, scope), self._eval(node.right, scope)
        op = _BIN.get(type(node.op))
        if op is None:
            raise ExprError(f"operator {type(node.op).__name__} is not allowed")
        if isinstance(a, Sym) or isinstance(b, Sym):
            if op in _BOOL_BIN:
                return _BOOL_BIN[op](a, b)
            if op == "**":
                if isinstance(b, int) and 0 <= b <= 8:
                    result: Any = 1
                    for _ in range(b):
                        result = symbolic.binop("*", result, a) if not isinstance(result, int) or result != 1 else a
                    return result
                raise ExprError("an unknown may only be raised to a small constant power")
            return symbolic.binop(op, a, b)
        if op == "**":
            if isinstance(b, (int, float)) and abs(b) > MAX_POW:
                raise ExprError(f"power with exponent over {MAX_POW}")
            if isinstance(a, int) and isinstance(b, int) and b > 0 and a.bit_length() * b > MAX_BITS:
                raise ExprError("power too large")
            return a ** b
        if op == "*" and isinstance(a, int) and isinstance(b, int) \
                and a.bit_length() + b.bit_length() > MAX_BITS:
            raise ExprError(f"product of over {MAX_BITS} bits")
        if op == "%" and isinstance(a, str):
            self._charge(a, b)
            return _percent(a, b)
        if op == "*":
            for seq, k in ((a, b), (b, a)):
                if isinstance(seq, (str, list, tuple)) and isinstance(k, int) \
                        and len(seq) * max(k, 0) > MAX_RANGE:
                    raise ExprError(f"repeated sequence longer than {MAX_RANGE}")
        if op in ("+",) and isinstance(a, (str, list, tuple)) and isinstance(b, type(a)) \
                and len(a) + len(b) > 10 * MAX_RANGE:
            raise ExprError("sequence too long")
        if op in ("&", "|", "^") and not (isinstance(a, (int, bool, set)) and isinstance(b, (int, bool, set))):
            raise ExprError(f"operator {op} takes numbers, sets or conditions")
        result = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                  "/": lambda: a / b, "//": lambda: a // b, "%": lambda: a % b,
                  "&": lambda: a & b, "|": lambda: a | b, "^": lambda: a ^ b}[op]()
        if isinstance(result, (str, list, tuple, set)):
            self._charge(result)
        return result

    def _UnaryOp(self, node, scope):
        v = self._eval(node.operand, scope)
        if isinstance(node.op, ast.Not):
            return symbolic.Not(v) if isinstance(v, Sym) else not v
        if isinstance(node.op, ast.USub):
            return symbolic.neg(v) if isinstance(v, Sym) else -v
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(v, Sym):
            return symbolic.Not(v)
        if isinstance(v, int):
            return ~v
        raise ExprError("operator ~ takes a number or a condition")

    def _BoolOp(self, node, scope):
        is_and = isinstance(node.op, ast.And)
        value: Any = None
        for e in node.values:
            value = self._eval(e, scope)
            if isinstance(value, Sym):
                raise ExprError(f"'{'and' if is_and else 'or'}' on an unknown: use "
                                f"{'And' if is_and else 'Or'}(...)")
            if is_and and not value:
                return value
            if not is_and and value:
                return value
        return value

    def _Compare(self, node, scope):
        left = self._eval(node.left, scope)
        results = []
        for op, right_node in zip(node.ops, node.comparators):
            right = self._eval(right_node, scope)
            self._charge_sized(left)  # ==, < and hashing for 'in' walk a container
            if not isinstance(op, (ast.In, ast.NotIn)):
                self._charge_sized(right)
            if type(op) in _CMP:
                sym = _CMP[type(op)]
                if isinstance(left, Sym) or isinstance(right, Sym):
                    if (left is None or right is None) and sym in ("==", "!="):
                        r: Any = sym == "!="  # an unknown is never None
                    else:
                        r = symbolic.binop(sym, left, right)
                else:
                    r = {"==": lambda: left == right, "!=": lambda: left != right,
                         "<": lambda: left < right, "<=": lambda: left <= right,
                         ">": lambda: left > right, ">=": lambda: left >= right}[sym]()
            elif isinstance(op, (ast.In, ast.NotIn)):
                if isinstance(left, Sym):
                    items = list(_iterate(right))
                    r = symbolic.Or([symbolic.binop("==", left, x) for x in items])
                    if isinstance(op, ast.NotIn):
                        r = symbolic.Not(r)
                else:
                    container = right.keys_list() if hasattr(right, "keys_list") else right
                    if isinstance(container, Sym):
                        raise ExprError("'in' an unknown")
                    if isinstance(container, (str, list, tuple, range)):
                        self._charge(container)
                    r = (left in container) == isinstance(op, ast.In)
            elif isinstance(op, (ast.Is, ast.IsNot)):
                r = (left is right) == isinstance(op, ast.Is)
            else:
                raise ExprError(f"comparison {type(op).__name__} is not allowed")
            results.append(r)
            left = right
        if len(results) == 1:
            return results[0]
        return symbolic.And(results)

    def _IfExp(self, node, scope):
        test = self._eval(node.test, scope)
        if isinstance(test, Sym):
            return symbolic.If(test, self._eval(node.body, scope), self._eval(node.orelse, scope))
        return self._eval(node.body if test else node.orelse, scope)

    def _Subscript(self, node, scope):
        obj = self._eval(node.value, scope)
        if isinstance(node.slice, ast.Slice):
            s = node.slice
            parts = [None if p is None else self._eval(p, scope) for p in (s.lower, s.upper, s.step)]
            if not isinstance(obj, (list, tuple, str, range)):
                raise ExprError(f"cannot slice a {type(obj).__name__}")
            result = obj[slice(*parts)]
            self._charge(result)
            return result
        key = self._eval(node.slice, scope)
        self._charge_sized(key)  # hashed
        if isinstance(key, Sym) or isinstance(obj, Sym):
            raise ExprError("cannot index with an unknown or into an unknown")
        if isinstance(key, list):
            key = tuple(key)
        if hasattr(obj, "lookup"):
            return obj.lookup(key)
        if not isinstance(obj, (list, tuple, str, dict, range)):
            raise ExprError(f"cannot index a {type(obj).__name__}")
        try:
            return obj[key]
        except (KeyError, IndexError) as exc:
            raise ExprError(f"no item {_one_line(exc) or key!r}") from None

    def _Attribute(self, node, scope):
        name = node.attr
        if name.startswith("_"):
            raise ExprError(f"attribute '{name}' is not allowed in a spec expression")
        obj = self._eval(node.value, scope)
        if hasattr(obj, "spec_attribute"):
            found = obj.spec_attribute(name)
            if found is not None:
                return found
        if hasattr(obj, "spec_method"):
            method = obj.spec_method(name)
            if method is not None:
                return _Bound(method)
        if isinstance(obj, str) and name == "format":
            return _Bound(_safe_format(obj), obj)
        if isinstance(obj, str) and name in METHODS[str]:
            return _Bound(_str_method(obj, name), obj)
        for typ, names in METHODS.items():
            if isinstance(obj, typ) and name in names:
                return _Bound(getattr(obj, name), obj)
        raise ExprError(f"attribute '.{name}' of a {type(obj).__name__} is not allowed "
                        "(only the documented methods, like .get)")

    def _Call(self, node, scope):
        f = self._eval(node.func, scope)
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                args.extend(_iterate(self._eval(a.value, scope)))
            else:
                args.append(self._eval(a, scope))
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:
                raise ExprError("'**' arguments are not allowed")
            kwargs[k.arg] = self._eval(k.value, scope)
        if isinstance(f, Closure):
            if kwargs:
                raise ExprError("a lambda takes positional arguments only")
            return f(*args)
        if isinstance(f, _Bound):
            self._charge(f.owner, *args, *kwargs.values())
            result = f.method(*args, **kwargs)
        else:
            if id(f) not in self._callables and f not in (int, float, bool, abs, chr, ord, isinstance, dict):
                raise ExprError(f"{_short(f)} is not a function a spec may call")
            self._charge(*args, *kwargs.values())
            result = f(*args, **kwargs)
        self._charge(result)
        return result

    def _Lambda(self, node, scope):
        a = node.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise ExprError("a lambda takes plain positional arguments only")
        return Closure(node, dict(scope), self)

    def _JoinedStr(self, node, scope):
        out = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                out.append(str(v.value))
            else:
                value = self._eval(v.value, scope)
                spec = ""
                if v.format_spec is not None:
                    spec = self._JoinedStr(v.format_spec, scope)
                self._charge(value)
                out.append(_apply_format(value, spec) if spec else _str(value))
        return "".join(out)

    # comprehensions -------------------------------------------------------------------------
    def _comprehend(self, generators, scope, emit):
        def walk(i, inner):
            if i == len(generators):
                emit(inner)
                return
            g = generators[i]
            if g.is_async:
                raise ExprError("async comprehensions are not allowed")
            for item in _iterate(self._eval(g.iter, inner)):
                self._steps += 1
                if self._steps > MAX_STEPS:
                    raise BudgetError(f"evaluation took over {MAX_STEPS} steps")
                local = dict(inner)
                self._assign(g.target, item, local)
                if all(self._truth(self._eval(c, local)) for c in g.ifs):
                    walk(i + 1, local)
        walk(0, dict(scope))

    def _truth(self, v) -> bool:
        if isinstance(v, Sym):
            raise ExprError("a comprehension's 'if' cannot test an unknown")
        return bool(v)

    def _assign(self, target, value, scope):
        if isinstance(target, ast.Name):
            if target.id.startswith("__") or target.id in FORBIDDEN_NAMES:
                raise ExprError(f"name '{target.id}' is not allowed")
            scope[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = list(_iterate(value))
            if len(items) != len(target.elts):
                raise ExprError(f"cannot unpack {len(items)} values into {len(target.elts)}")
            for t, v in zip(target.elts, items):
                self._assign(t, v, scope)
        else:
            raise ExprError(f"{_describe(target)} cannot be a loop variable")

    def _hashed(self, node, scope):
        """A set element or dict key: hashing a tuple walks it, each time."""
        value = self._eval(node, scope)
        self._charge_sized(value)
        return value

    def _ListComp(self, node, scope):
        out: list = []
        self._comprehend(node.generators, scope, lambda s: out.append(self._eval(node.elt, s)))
        return out

    _GeneratorExp = _ListComp

    def _SetComp(self, node, scope):
        out: set = set()
        self._comprehend(node.generators, scope, lambda s: out.add(self._hashed(node.elt, s)))
        return out

    def _DictComp(self, node, scope):
        out: dict = {}
        self._comprehend(node.generators, scope,
                         lambda s: out.__setitem__(self._hashed(node.key, s), self._eval(node.value, s)))
        return out


def _safe_format(template: str):
    """``template.format``, for fields that name an argument only (``{}``, ``{0}``,
    ``{name}``): a field like ``{0.__class__}`` or ``{0[k]}`` would read attributes."""
    import string
    for _, field_name, spec, _ in string.Formatter().parse(template):
        if field_name and not (field_name.isdigit() or field_name.isidentifier()):
            raise ExprError(f"format field '{{{field_name}}}' may only name an argument")
        if spec and "{" in spec:
            raise ExprError("nested format fields are not allowed")
        if spec:
            digits = "".join(ch for ch in spec if ch.isdigit())
            if digits and int(digits[:6]) > 1000:
                raise ExprError(f"format width or precision over 1000 ('{spec}')")

    fields = sum(1 for _, field_name, _, _ in string.Formatter().parse(template)
                 if field_name is not None)

    def call(*args, **kwargs):
        longest = max((_size(v) for v in (*args, *kwargs.values())), default=0)
        _text_limit(len(template) + fields * (longest + 1000), "format()")
        return template.format(*args, **kwargs)
    return call


class Namespace:
    """A module as a spec sees it (``random``, ``math``, ``itertools``): the named
    functions only."""

    def __init__(self, name: str, functions: dict[str, Callable]):
        self.name, self.functions = name, functions

    def spec_method(self, name):
        return self.functions.get(name)

    def __repr__(self):
        return self.name


class _Bound:
    """A whitelisted method of a value."""

    def __init__(self, method, owner=None):
        self.method, self.owner = method, owner


def _describe(node) -> str:
    names = {"Call": "a call", "Attribute": "attribute access", "NamedExpr": "':='",
             "Await": "'await'", "Yield": "'yield'", "YieldFrom": "'yield from'",
             "Starred": "'*' unpacking"}
    kind = type(node).__name__
    return names.get(kind, f"'{kind}'")


def _short(x) -> str:
    text = getattr(x, "__name__", None) or repr(x)
    return text if len(text) < 40 else text[:37] + "..."


def _one_line(exc) -> str:
    return " ".join(str(exc).split())
