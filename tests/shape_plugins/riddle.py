"""An arithmetic riddle: three unknown whole numbers x, y and z from 1 to N, a few facts
about them ("x + y = 11", "y - z = 3", "x < z"), and options of which exactly one
follows from the facts. The facts may leave the numbers open: the correct option must
hold in every solution, and every other option in none (criterion ``unique-answer``).

The type draws its riddles itself (strategy ``own``): hidden numbers, facts true of
them, then the solutions of the facts (one call of the engine's solver) and options
picked among the statements that hold in all of them and those that hold in none. The
criterion judges each riddle on its own solver runs before it is kept.
"""
import re
from typing import NamedTuple

from puzzle_engine import (Codec, Grading, MultipleChoice, OwnGenerator, Param, Parsed,
                           PuzzleInputError, PuzzleType, Status, hookimpl)

PUZZLE_ENGINE_CONTRACT = 3

NAMES = ("x", "y", "z")
#: Facts the model reads from its data, by code: a + b = k, a - b = k, a < b.
FACT_KINDS = {"sum": 1, "diff": 2, "less": 3}

MODEL = """
int: top;
int: F;
array[1..F] of 1..3: kind;
array[1..F] of 1..3: a;
array[1..F] of 1..3: b;
array[1..F] of int: k;

% the unknowns, and their names for the options
array[1..3] of var 1..top: v;
var int: x = v[1];
var int: y = v[2];
var int: z = v[3];

constraint forall(f in 1..F)(
    if kind[f] = 1 then v[a[f]] + v[b[f]] = k[f]
    elseif kind[f] = 2 then v[a[f]] - v[b[f]] = k[f]
    else v[a[f]] < v[b[f]] endif);

solve satisfy;
"""


class Statement(NamedTuple):
    """A statement about the unknowns: ``kind`` is ``sum`` (a + b = k), ``diff``
    (a - b = k), ``less`` (a < b), ``is`` (a = k) or ``parity`` (a mod 2 = k); ``a`` and
    ``b`` index ``NAMES`` (``b`` is -1 when unused)."""

    kind: str
    a: int
    b: int
    k: int

    def text(self) -> str:
        a, b = NAMES[self.a], NAMES[self.b] if self.b >= 0 else ""
        return {"sum": f"{a} + {b} = {self.k}", "diff": f"{a} - {b} = {self.k}",
                "less": f"{a} < {b}", "is": f"{a} = {self.k}",
                "parity": f"{a} is {'odd' if self.k else 'even'}"}[self.kind]

    def minizinc(self) -> str:
        if self.kind == "parity":
            return f"{NAMES[self.a]} mod 2 = {self.k}"
        return self.text()

    def holds(self, values) -> bool:
        a = values[self.a]
        b = values[self.b] if self.b >= 0 else None
        return {"sum": lambda: a + b == self.k, "diff": lambda: a - b == self.k,
                "less": lambda: a < b, "is": lambda: a == self.k,
                "parity": lambda: a % 2 == self.k}[self.kind]()


V = r"\s*([xyz])\s*"
PATTERNS = (
    ("sum", re.compile(rf"^{V}\+{V}=\s*(-?\d+)\s*$")),
    ("diff", re.compile(rf"^{V}-{V}=\s*(-?\d+)\s*$")),
    ("less", re.compile(rf"^{V}<{V}$")),
    ("is", re.compile(rf"^{V}=\s*(-?\d+)\s*$")),
    ("parity", re.compile(rf"^{V}is\s+(even|odd)\s*$")),
)


def read_statement(text: str, facts: bool) -> Statement:
    for kind, pattern in PATTERNS:
        m = pattern.match(text)
        if m is None:
            continue
        if facts and kind not in FACT_KINDS:
            break
        groups = m.groups()
        a = NAMES.index(groups[0])
        if kind == "parity":
            return Statement(kind, a, -1, int(groups[1] == "odd"))
        if kind == "is":
            return Statement(kind, a, -1, int(groups[1]))
        b = NAMES.index(groups[1])
        if a == b:
            raise PuzzleInputError(f"'{text.strip()}': name two different unknowns")
        return Statement(kind, a, b, int(groups[2]) if kind != "less" else 0)
    what = ("a fact like 'x + y = 7', 'x - y = 2' or 'x < y'" if facts else
            "an option like 'x + y = 7', 'x - y = 2', 'x < y', 'x = 4' or 'x is even'")
    raise PuzzleInputError(f"'{text.strip()}' is not {what}")


class Riddle(NamedTuple):
    top: int
    facts: tuple[Statement, ...]
    options: tuple[Statement, ...]


def statements(top: int):
    """Every option the generator may offer, for unknowns from 1 to ``top``."""
    found = []
    for a in range(3):
        found += [Statement("is", a, -1, k) for k in range(1, top + 1)]
        found += [Statement("parity", a, -1, r) for r in (0, 1)]
        for b in range(3):
            if a < b:
                found += [Statement("sum", a, b, k) for k in range(2, 2 * top + 1)]
            if a != b:
                found += [Statement("diff", a, b, k) for k in range(1, top)]
                found.append(Statement("less", a, b, 0))
    return found


HEADER = re.compile(r"^\s*x, y and z are whole numbers from 1 to (\d+)\.\s*$")
LINE = re.compile(r"^\s*1\.\.(\d+)\s*\|([^|]*)\|([^|]*)$")
OPTION = re.compile(r"^\s*([a-z])\)\s*(.*)$")


class ArithmeticRiddle(PuzzleType, Codec, OwnGenerator, MultipleChoice, Grading):
    name = "arithmetic_riddle"
    description = ("Arithmetic riddle: facts about x, y and z, and options of which exactly "
                   "one follows from them.")
    params = (
        Param("top", int, 9, "the unknowns are whole numbers from 1 to TOP (3 to 20)"),
        Param("choices", int, 4, "options offered (2 to 6)"),
    )
    models = (MODEL,)
    decision = "v"
    strategy = "own"
    criterion = "unique-answer"

    def check_params(self, params):
        for name, low, high in (("top", 3, 20), ("choices", 2, 6)):
            value = params[name]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise PuzzleInputError(f"bad --{name} {value!r}: expected {low} to {high}")
        return {"top": params["top"], "choices": params["choices"]}

    def generate(self, params, rng, engine):
        top = params["top"]
        hidden = [rng.randint(1, top) for _ in range(3)]
        facts = []
        for _ in range(2):
            a, b = rng.sample(range(3), 2)
            kind = rng.choice(("sum", "sum", "diff", "less"))
            if kind != "sum" and hidden[a] < hidden[b]:
                a, b = b, a  # "a - b = k" with k from 1, and "b < a"
            if kind != "sum" and hidden[a] == hidden[b]:
                kind = "sum"
            fact = {"sum": Statement("sum", min(a, b), max(a, b), hidden[a] + hidden[b]),
                    "diff": Statement("diff", a, b, hidden[a] - hidden[b]),
                    "less": Statement("less", b, a, 0)}[kind]
            if fact not in facts:
                facts.append(fact)
        riddle = Riddle(top, tuple(facts), ())
        result, solutions = engine.solve(self, params, riddle, nr_solutions=0, goal="satisfy")
        if result.status != Status.ALL:
            return None  # a time-out: draw again
        always = [s for s in statements(top)
                  if s not in facts and all(s.holds(v) for v in solutions)]
        never = [s for s in statements(top) if not any(s.holds(v) for v in solutions)]
        if not always or len(never) < params["choices"] - 1:
            return None
        options = rng.sample(never, params["choices"] - 1)
        options.insert(rng.randrange(params["choices"]), rng.choice(always))
        return Riddle(top, riddle.facts, tuple(options))

    def answer_options(self, params, instance):
        return [o.minizinc() for o in instance.options]

    # -- solving ------------------------------------------------------------------------
    def to_data(self, params, instance, solver):
        facts = instance.facts
        return {"top": instance.top, "F": len(facts),
                "kind": [FACT_KINDS[f.kind] for f in facts], "a": [f.a + 1 for f in facts],
                "b": [f.b + 1 for f in facts], "k": [f.k for f in facts]}

    def from_solution(self, params, values):
        return tuple(int(n) for n in values[self.decision])

    def search_variables(self, params, instance):
        return [0, 1, 2]

    # -- reading and writing ------------------------------------------------------------
    def to_json(self, params, instance, solution):
        record = {"top": instance.top, "facts": [f.text() for f in instance.facts],
                  "choices": [o.text() for o in instance.options]}
        if solution is not None:  # one solution of the facts; the riddle asks for the option
            record["example"] = dict(zip(NAMES, solution))
        return record

    def from_json(self, params, record):
        facts, options = record.get("facts"), record.get("choices")
        for field, value in (("facts", facts), ("choices", options)):
            if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
                raise PuzzleInputError(f"field '{field}' must be a list of statements")
        return self._checked(params, Riddle(params["top"],
                                            tuple(read_statement(s, True) for s in facts),
                                            tuple(read_statement(s, False) for s in options)))

    def format(self, params, instance, fmt):
        if fmt == "line":
            return (f"1..{instance.top} | " + "; ".join(f.text() for f in instance.facts)
                    + " | " + "; ".join(o.text() for o in instance.options))
        return "\n".join([f"x, y and z are whole numbers from 1 to {instance.top}.",
                          *(f.text() for f in instance.facts), "Which is true?",
                          *(f"{chr(ord('a') + i)}) {o.text()}"
                            for i, o in enumerate(instance.options))])

    def format_solution(self, params, solution, fmt):
        return ", ".join(f"{n} = {v}" for n, v in zip(NAMES, solution))

    def parse(self, params, text):
        m = LINE.match(text)
        if m:
            top = int(m.group(1))
            facts = [s for s in m.group(2).split(";") if s.strip()]
            options = [s for s in m.group(3).split(";") if s.strip()]
        else:
            lines = [ln for ln in text.splitlines() if ln.strip()]
            head = HEADER.match(lines[0]) if lines else None
            if head is None:
                raise PuzzleInputError("a riddle starts with 'x, y and z are whole numbers "
                                       "from 1 to N.' or, on one line, '1..N | facts | options'")
            if "Which is true?" not in (ln.strip() for ln in lines):
                raise PuzzleInputError("the riddle has no line 'Which is true?' before its options")
            ask = [ln.strip() for ln in lines].index("Which is true?")
            top, facts, options = int(head.group(1)), lines[1:ask], []
            for i, line in enumerate(lines[ask + 1:]):
                o = OPTION.match(line)
                if o is None or o.group(1) != chr(ord("a") + i):
                    raise PuzzleInputError(f"option {i + 1} must start with "
                                           f"'{chr(ord('a') + i)})', not '{line.strip()}'")
                options.append(o.group(2))
        riddle = Riddle(top, tuple(read_statement(s, True) for s in facts),
                        tuple(read_statement(s, False) for s in options))
        canonical = self.check_params({
            "top": top if params.get("top") is None else params["top"],
            "choices": len(options) if params.get("choices") is None else params["choices"]})
        return Parsed(canonical, self._checked(canonical, riddle))

    @staticmethod
    def _checked(params, riddle):
        if riddle.top != params["top"]:
            raise PuzzleInputError(f"the unknowns go up to {riddle.top}, not {params['top']} "
                                   "(--top)")
        if len(riddle.options) != params["choices"]:
            raise PuzzleInputError(f"the riddle has {len(riddle.options)} options, not "
                                   f"{params['choices']} (--choices)")
        if not riddle.facts:
            raise PuzzleInputError("the riddle states no fact")
        return riddle


@hookimpl
def register_puzzle_types(register):
    register(ArithmeticRiddle())
