"""FlatZinc, read: the one reader of the FlatZinc text MiniZinc writes, shared by every
back end that solves in this process (CP-SAT, SAT), the process back end's session (which
needs the decision array's names) and the explainer.

``parse(text)`` gives the items (declarations, constraints, the solve item) with the line
each came from; ``decision_names`` and ``output_shape`` read an output array's FlatZinc
names and index sets from the items.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

class FznError(Exception):
    """The FlatZinc cannot be read or uses what this reader does not support."""


# -- reading FlatZinc --------------------------------------------------------------------

_TOKEN = re.compile(r'\s+|%[^\n]*|(\.\.|::|-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+|'
                    r'[A-Za-z_][A-Za-z0-9_]*|"(?:[^"\\]|\\.)*"|[\[\](){},:;=])')


@dataclass(frozen=True)
class Ident:
    name: str


@dataclass(frozen=True)
class Access:
    name: str
    index: int


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple[Any, ...]


@dataclass(frozen=True)
class IntSet:
    """A set of integers as sorted, disjoint, non-adjacent closed intervals."""

    intervals: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, values) -> IntSet:
        out: list[list[int]] = []
        for v in sorted(set(values)):
            if out and v == out[-1][1] + 1:
                out[-1][1] = v
            else:
                out.append([v, v])
        return cls(tuple((lo, hi) for lo, hi in out))

    def __contains__(self, v: int) -> bool:
        return any(lo <= v <= hi for lo, hi in self.intervals)


@dataclass
class Item:
    kind: str                     # "par", "var", "constraint", "solve"
    line: int
    name: str = ""
    type: Any = None              # ("int"|"bool"|"float"|"set", domain or None), array flag apart
    array: bool = False
    value: Any = None
    anns: list[Any] = field(default_factory=list)
    goal: str = ""                # solve: satisfy | minimize | maximize
    objective: Any = None


def _tokens(text: str, line: int = 1) -> list[tuple[str, int]]:
    out, pos = [], 0
    for m in _TOKEN.finditer(text):
        if m.start() != pos:
            raise FznError(f"line {line}: unexpected character {text[pos]!r}")
        pos = m.end()
        if m.group(1) is not None:
            out.append((m.group(1), line))
        line += m.group(0).count("\n")
    if pos != len(text):
        raise FznError(f"line {line}: unexpected character {text[pos]!r}")
    return out


class _Parser:
    def __init__(self, text: str, line: int = 1):
        self.toks = _tokens(text, line)
        self.i = 0

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.toks[j][0] if j < len(self.toks) else ""

    @property
    def line(self) -> int:
        return self.toks[min(self.i, len(self.toks) - 1)][1] if self.toks else 1

    def take(self, want: str | None = None) -> str:
        if self.i >= len(self.toks):
            raise FznError(f"line {self.line}: unexpected end of FlatZinc")
        tok = self.toks[self.i][0]
        if want is not None and tok != want:
            raise FznError(f"line {self.line}: expected '{want}', found '{tok}'")
        self.i += 1
        return tok

    def items(self) -> list[Item]:
        items = []
        while self.i < len(self.toks):
            line, head = self.line, self.peek()
            if head == "predicate":
                while self.take() != ";":
                    pass
                continue
            if head == "constraint":
                self.take()
                call = self.expr()
                if not isinstance(call, Call):
                    raise FznError(f"line {line}: a constraint must be a predicate call")
                items.append(Item("constraint", line, call.name, value=call.args, anns=self.anns()))
            elif head == "solve":
                self.take()
                anns = self.anns()
                goal = self.take()
                if goal not in ("satisfy", "minimize", "maximize"):
                    raise FznError(f"line {line}: unknown solve goal '{goal}'")
                items.append(Item("solve", line, anns=anns, goal=goal,
                                  objective=None if goal == "satisfy" else self.expr()))
            else:
                items.append(self.decl(line))
            self.take(";")
        return items

    def decl(self, line: int) -> Item:
        array = False
        if self.peek() == "array":
            self.take()
            self.take("[")
            while self.take() != "]":
                pass
            self.take("of")
            array = True
        is_var = self.peek() == "var"
        if is_var:
            self.take()
        kind = self.type()
        self.take(":")
        name = self.take()
        anns = self.anns()
        value = None
        if self.peek() == "=":
            self.take()
            value = self.expr()
        return Item("var" if is_var else "par", line, name, kind, array, value, anns)

    def type(self) -> tuple[str, IntSet | None]:
        tok = self.peek()
        if tok in ("int", "bool", "float"):
            self.take()
            return tok, None
        if tok == "set":
            self.take()
            self.take("of")
            self.type()
            return "set", None
        dom = self.expr()
        if isinstance(dom, IntSet):
            return "int", dom
        if isinstance(dom, float) or (isinstance(dom, tuple) and dom and dom[0] == "float"):
            return "float", None
        raise FznError(f"line {self.line}: cannot read the type")

    def anns(self) -> list[Any]:
        out = []
        while self.peek() == "::":
            self.take()
            out.append(self.expr())
        return out

    def _until(self, close: str, item) -> list[Any]:
        """Comma-separated ``item()``s up to ``close``, which is consumed."""
        out = []
        while self.peek() != close:
            out.append(item())
            if self.peek() == ",":
                self.take()
        self.take(close)
        return out

    def expr(self) -> Any:
        tok = self.take()
        if tok == "[":
            return self._until("]", self.expr)
        if tok == "{":
            return IntSet.of(self._until("}", lambda: self._int(self.take())))
        if tok == "true" or tok == "false":
            return tok == "true"
        if tok.startswith('"'):
            return tok[1:-1]
        if tok[0].isdigit() or tok[0] == "-":
            if "." in tok or "e" in tok or "E" in tok:
                if self.peek() == "..":
                    self.take()
                    self.take()
                return ("float", tok)
            if self.peek() == "..":
                self.take()
                hi = self._int(self.take())
                return IntSet(((int(tok), hi),) if hi >= int(tok) else ())
            return int(tok)
        if tok[0].isalpha() or tok[0] == "_":
            if self.peek() == "(":
                self.take()
                return Call(tok, tuple(self._until(")", self.expr)))
            if self.peek() == "[":
                self.take()
                index = self._int(self.take())
                self.take("]")
                return Access(tok, index)
            return Ident(tok)
        raise FznError(f"line {self.line}: unexpected '{tok}'")

    def _int(self, tok: str) -> int:
        try:
            return int(tok)
        except ValueError:
            raise FznError(f"line {self.line}: expected an integer, found '{tok}'") from None


# Parsed statements by their text (with the line they were first read at). A check's
# FlatZinc differs from the last one's in a few lines, so this parses each line once.
_PARSED: dict[str, tuple[int, list[Item]]] = {}
_PARSED_MAX = 200_000


def parse(text: str) -> list[Item]:
    """The items of FlatZinc ``text``, read a chunk of lines at a time (up to a line that
    ends in ';'; MiniZinc writes one item per line) and remembered by the chunk's text."""
    items: list[Item] = []
    chunk: list[str] = []
    first = 1
    for k, line in enumerate(text.splitlines(), 1):
        if not chunk:
            first = k
        chunk.append(line)
        if line.rstrip().endswith(";"):
            items.extend(_chunk_items("\n".join(chunk), first))
            chunk = []
    if chunk:
        items.extend(_chunk_items("\n".join(chunk), first))
    return items


def _chunk_items(text: str, first: int) -> list[Item]:
    hit = _PARSED.get(text)
    if hit is None:
        hit = (first, _Parser(text, first).items())
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[text] = hit
    at, items = hit
    return items if at == first else [replace(item, line=item.line - at + first) for item in items]


def output_array(items: list[Item], name: str) -> Item | None:
    """The declaration of the output array ``name`` (annotated ``output_array``), or None."""
    for item in items:
        if item.kind == "var" and item.array and item.name == name and \
                any(isinstance(a, Call) and a.name == "output_array" for a in item.anns):
            return item
    return None


def decision_names(items: list[Item], name: str) -> list[str] | None:
    """The FlatZinc name of each element of the output array ``name``: a variable's name,
    or a literal's text where flattening fixed it; None when there is no such array."""
    item = output_array(items, name)
    if item is None or not isinstance(item.value, list):
        return None
    return [e.name if isinstance(e, Ident) else str(int(e)) if not isinstance(e, bool)
            else ("1" if e else "0") for e in item.value]


def output_shape(items: list[Item], name: str) -> tuple[int, ...]:
    """The index set sizes of the output array ``name`` (its ``output_array`` annotation)."""
    item = output_array(items, name)
    if item is None:
        return ()
    ann = next(a for a in item.anns if isinstance(a, Call) and a.name == "output_array")
    sizes = []
    for dim in ann.args[0]:
        sizes.append(sum(hi - lo + 1 for lo, hi in dim.intervals) if isinstance(dim, IntSet) else 0)
    return tuple(sizes)
