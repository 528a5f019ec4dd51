"""The helper functions PuzzleClone's specs call, written by us (none of its code is
used). Each takes plain values; the ones that draw at random take the generation's
seeded ``random.Random`` first (``Helpers`` binds it). Documented in
``docs/logic-specs.md``."""
from __future__ import annotations

import itertools
import math
import random
import string
from typing import Any

from . import symbolic
from .interp import BudgetError, ExprError, Namespace, _iterate
from .symbolic import Sym

#: The word lists of ``get_faker(n, provider)``, in English (PuzzleClone draws Chinese
#: words with the Faker library; the provider names are its, the words ours).
FAKER = {
    "name": ("Alice", "Bob", "Carol", "David", "Emma", "Frank", "Grace", "Henry", "Irene",
             "Jack", "Karen", "Leo", "Maria", "Nathan", "Olivia", "Paul", "Queenie", "Robert",
             "Sarah", "Tom", "Ursula", "Victor", "Wendy", "Xavier", "Yvonne", "Zack"),
    "name_male": ("Adam", "Ben", "Carl", "Dan", "Eric", "Fred", "George", "Hugo", "Ian",
                  "James", "Kevin", "Luke", "Mark", "Noah", "Oscar", "Peter", "Ray", "Sam"),
    "name_female": ("Amy", "Beth", "Clara", "Diana", "Ella", "Fiona", "Gina", "Hannah", "Ivy",
                    "Julia", "Kate", "Lucy", "Mia", "Nora", "Paula", "Rose", "Sophie", "Tina"),
    "last_name": ("Smith", "Jones", "Brown", "Taylor", "Wilson", "Evans", "Walker", "Wright",
                  "Green", "Hall", "Wood", "Clarke", "Hughes", "Lewis", "Harris", "Martin"),
    "city": ("London", "Paris", "Rome", "Madrid", "Berlin", "Vienna", "Prague", "Lisbon",
             "Dublin", "Oslo", "Athens", "Warsaw", "Zurich", "Brussels", "Helsinki", "Budapest"),
    "country": ("France", "Spain", "Italy", "Germany", "Norway", "Japan", "Brazil", "Canada",
                "Egypt", "India", "Mexico", "Peru", "Kenya", "Chile", "Greece", "Sweden"),
    "color": ("red", "blue", "green", "yellow", "white", "black", "purple", "orange", "pink",
              "grey", "brown", "gold"),
    "job": ("teacher", "doctor", "engineer", "lawyer", "nurse", "pilot", "chef", "farmer",
            "painter", "writer", "baker", "tailor"),
    "chinese_drink": ("green tea", "black tea", "soy milk", "plum juice", "coconut milk",
                      "oolong tea", "jasmine tea", "lemon tea", "ginger tea", "barley tea"),
    "pet_category": ("cat", "dog", "rabbit", "parrot", "hamster", "goldfish", "turtle",
                     "canary", "guinea pig", "lizard"),
    "fruit_cn": ("apple", "pear", "peach", "banana", "grape", "orange", "cherry", "mango",
                 "plum", "lychee", "melon", "kiwi"),
    "hobby_cn": ("reading", "chess", "painting", "swimming", "singing", "dancing", "cycling",
                 "hiking", "photography", "cooking", "fishing", "gardening"),
    "foreign_name_cn": ("Anna", "Boris", "Chloe", "Dmitri", "Elena", "Felix", "Greta", "Hans",
                        "Ingrid", "Jonas", "Klara", "Lars", "Mila", "Nils"),
    "product_cn": ("phone", "laptop", "camera", "watch", "tablet", "printer", "speaker",
                   "headphones", "monitor", "keyboard", "router", "projector", "scanner",
                   "microphone", "television", "radio", "fridge", "kettle", "toaster", "fan"),
    "car_brand": ("Audi", "BMW", "Ford", "Honda", "Kia", "Mazda", "Nissan", "Opel", "Renault",
                  "Skoda", "Toyota", "Volvo"),
    "occupation_cn": ("teacher", "doctor", "engineer", "lawyer", "nurse", "pilot", "chef",
                      "farmer", "painter", "writer", "accountant", "architect"),
    "metal_ore": ("iron", "copper", "tin", "zinc", "lead", "silver", "gold", "nickel",
                  "aluminium", "manganese", "cobalt", "chromium", "tungsten", "platinum",
                  "titanium", "mercury"),
    "flower_name": ("rose", "lily", "tulip", "daisy", "orchid", "peony", "lotus", "iris",
                    "jasmine", "violet", "sunflower", "camellia"),
    "sport": ("football", "basketball", "tennis", "swimming", "running", "cycling",
              "volleyball", "badminton", "table tennis", "rowing", "skiing", "boxing"),
    "office_supplies": ("pen", "pencil", "stapler", "ruler", "eraser", "notebook", "folder",
                        "scissors", "tape", "glue", "marker", "envelope"),
    "major": ("mathematics", "physics", "chemistry", "biology", "history", "geography",
              "economics", "law", "medicine", "music", "art", "philosophy"),
    "color_name_cn": ("red", "blue", "green", "yellow", "white", "black", "purple", "orange",
                      "pink", "grey", "brown", "cyan"),
}
FAKER["first_name"] = FAKER["name"]


class Model:
    """One solution, as a spec sees ``_sol`` and ``_model``: indexed by an unknown,
    iterated over its unknowns, read with ``get_value``."""

    def __init__(self, assignment: dict[str, Any], variables: dict[str, Sym]):
        self.assignment = assignment
        self.vars = variables

    def lookup(self, key):
        if isinstance(key, Sym):
            return symbolic.value(key, self.assignment)
        raise ExprError("a solution is indexed by an unknown")

    def iterate(self):
        return [self.vars[n] for n in sorted(self.assignment) if n in self.vars]

    def spec_method(self, name):
        if name in ("evaluate", "eval"):  # z3's model.evaluate(formula)
            return lambda formula, *_: symbolic.value(formula, self.assignment)
        return None

    def __len__(self):
        return len(self.assignment)

    def key(self):
        return tuple(sorted(self.assignment.items()))


class SymbolicModel:
    """``_model`` while an option's formula is turned into MiniZinc: ``get_value`` gives
    the unknown itself."""

    def lookup(self, key):
        return key

    def iterate(self):
        raise ExprError("cannot iterate over a solution here")


SYMBOLIC_MODEL = SymbolicModel()


def get_value(model, x):
    if isinstance(x, (list, tuple)):
        return [get_value(model, item) for item in x]
    if isinstance(x, dict):
        return [get_value(model, item) for item in x.values()]
    if hasattr(x, "iterate") and not isinstance(x, Sym):
        return [get_value(model, item) for item in x.iterate()]
    if isinstance(model, SymbolicModel):
        return x
    if not isinstance(model, Model):
        raise ExprError("get_value takes a solution (_sol, _model) first")
    return model.lookup(x) if isinstance(x, Sym) else x


#: Names ``generate_var_names`` makes at most.
MAX_NAMES = 10_000


def generate_letters(n, lang="en"):
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 1000:
        raise ExprError("generate_letters takes a whole number from 0 to 1000")
    if lang != "en":
        return "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥"[:n]
    return [f"A{i + 1}" for i in range(n)]


def generate_var_names(n):
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_NAMES:
        raise ExprError(f"generate_var_names takes a whole number from 0 to {MAX_NAMES}")
    if n <= 3:
        return ["x", "y", "z"][:n]
    if n <= 11:
        return list("pqrstuvwxyz")[:n]
    return [f"x{i}" for i in range(1, n + 1)]


def gen_event_count_condition(events, fact, num=0):
    items = list(get_items(events))
    num = max(0, min(num, len(items)))
    count = symbolic.Sum([symbolic.If(v, 1, 0) for v in items]) if fact != "distinct" else None
    if fact == "most":
        return [symbolic.binop("<=", count, num)]
    if fact == "least":
        return [symbolic.binop(">=", count, num)]
    if fact == "equal":
        return [symbolic.binop("==", count, num)]
    if fact == "distinct":
        return [symbolic.Distinct(items)]
    raise ExprError(f"gen_event_count_condition: unknown fact {fact!r} (most, least, equal, distinct)")


def get_items(x):
    if isinstance(x, dict):
        return list(x.values())
    return list(_iterate(x))


def to_unique(items):
    if not isinstance(items, list):
        return items
    seen, out = set(), []
    for item in items:
        k = _hashable(item)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


def _hashable(x):
    if isinstance(x, (list, tuple)):
        return tuple(_hashable(e) for e in x)
    if isinstance(x, Sym):
        return x.key()
    if isinstance(x, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in x.items()))
    return x


_MAKE_EXPR = {
    "eq": "==", "==": "==", "neq": "!=", "!=": "!=", "gt": ">", ">": ">", "ge": ">=",
    ">=": ">=", "lt": "<", "<": "<", "le": "<=", "<=": "<=", "sub": "-", "-": "-",
    "mul": "*", "*": "*", "div": "/", "/": "/",
}


def make_expr(op, *operands):
    """A formula from an operator name (PuzzleClone's ``make_expr``): comparisons and
    arithmetic take two operands, ``and``/``or``/``add`` any number, ``not`` one."""
    n = len(operands)
    if op in ("and", "&&"):
        return symbolic.And(*operands)
    if op in ("or", "||"):
        return symbolic.Or(*operands)
    if op in ("add", "+"):
        return symbolic.Sum(*operands)
    if op in ("not", "!"):
        if n != 1:
            raise ExprError(f"make_expr: '{op}' takes 1 operand")
        return symbolic.Not(operands[0])
    if op in ("implies", "=>"):
        return symbolic.Implies(*operands)
    if op not in _MAKE_EXPR:
        raise ExprError(f"make_expr: unknown operator {op!r}")
    if n != 2:
        raise ExprError(f"make_expr: '{op}' takes 2 operands")
    a, b = operands
    sym = _MAKE_EXPR[op]
    if isinstance(a, Sym) or isinstance(b, Sym):
        return symbolic.binop(sym, a, b)
    return {"==": lambda: a == b, "!=": lambda: a != b, ">": lambda: a > b,
            ">=": lambda: a >= b, "<": lambda: a < b, "<=": lambda: a <= b,
            "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b}[sym]()


def get_TF_events_for_each_solution(events, solutions, require=True):
    """Per solution, the unknowns of ``events`` that are ``require`` in it (or that it
    leaves unassigned)."""
    items = get_items(events)
    return [[v for v in items if (value := get_value(m, v)) is None or value == require]
            for m in _iterate(solutions)]


def reduce(function, items, *initial):
    import functools
    return functools.reduce(function, list(_iterate(items)), *initial)


def count(items, value):
    return list(_iterate(items)).count(value)


def cmp(a, b):
    return (a > b) - (a < b)


class Helpers:
    """The helpers of one generation: the pure ones, and those drawing from ``rng`` or
    reading the symbols' metadata (``get_p``, ``get_desc``)."""

    def __init__(self, rng: random.Random, sym_config: dict, interpret=None):
        self.rng = rng
        self.sym_config = sym_config
        self.interpret = interpret  # text -> value, by the generation's interpreter

    def functions(self) -> dict[str, Any]:
        return {
            "get_value": get_value, "generate_letters": generate_letters,
            "generate_var_names": generate_var_names,
            "gen_event_count_condition": gen_event_count_condition, "to_unique": to_unique,
            "count": count, "cmp": cmp, "get_p": self.get_p, "get_desc": self.get_desc,
            "randint": self.randint, "uniform": self.uniform, "choice": self.choice,
            "sample": self.sample, "shuffle": self.shuffled,
            "generate_random_list": self.generate_random_list, "get_faker": self.get_faker,
            "make_expr": make_expr, "reduce": reduce,
            "get_TF_events_for_each_solution": get_TF_events_for_each_solution,
            "random": Namespace("random", {
                "randint": self.randint, "uniform": self.uniform, "choice": self.choice,
                "sample": self.sample, "shuffle": self.shuffle_in_place,
                "random": self.rng.random}),
            "math": Namespace("math", {
                "ceil": math.ceil, "floor": math.floor, "sqrt": math.sqrt, "log": math.log,
                "gcd": math.gcd, "lcm": _lcm, "pi": math.pi, "fabs": math.fabs,
                "comb": _bounded(math.comb), "factorial": _bounded(math.factorial)}),
            "itertools": Namespace("itertools", {
                "permutations": permutations, "combinations": combinations,
                "product": product}),
            "permutations": permutations, "combinations": combinations, "product": product,
        }

    def get_p(self, sym, p):
        k = _hashable(sym)
        if k in self.sym_config:
            found = self.sym_config[k].get("p", {})
            if p not in found:
                raise ExprError(f"get_p: the symbol has no source '{p}'")
            return found[p]
        if isinstance(sym, (list, tuple)):
            return type(sym)(self.get_p(item, p) for item in sym)
        raise ExprError(f"get_p: {sym!r} is not a symbol's unknown")

    def get_desc(self, sym):
        k = _hashable(sym)
        if k in self.sym_config:
            return self.sym_config[k].get("desc")
        if isinstance(sym, (list, tuple)):
            return type(sym)(self.get_desc(item) for item in sym)
        return None

    def randint(self, a, b):
        return self.rng.randint(a, b)

    def uniform(self, a, b):
        return self.rng.uniform(a, b)

    def choice(self, xs):
        return self.rng.choice(list(_iterate(xs)))

    def sample(self, xs, k):
        return self.rng.sample(list(_iterate(xs)), k)

    def shuffle_in_place(self, xs):
        if not isinstance(xs, list):
            raise ExprError("shuffle takes a list")
        self.rng.shuffle(xs)

    def shuffled(self, xs):
        items = list(_iterate(xs))
        self.rng.shuffle(items)
        return items

    def generate_random_list(self, size, ele_type, ele_domain, cond=(), per_ele_domain=None):
        """``size`` random elements: ``int``/``float`` from ``[lo, hi]``, ``bool``/``enum``
        one of the domain's items; per element from ``per_ele_domain[i]`` when given (not
        None). ``cond``: lambdas (or their text, interpreted) the list must satisfy; drawn again
        until it does, ``RANDOM_LIST_TRIES`` times at most (PuzzleClone: for ever). As there,
        a condition that fails with an error counts as not met."""
        if isinstance(size, bool) or not isinstance(size, int) or not 0 < size <= 10_000:
            raise ExprError("generate_random_list: size from 1 to 10000")
        if ele_type not in ("int", "float", "bool", "enum"):
            raise ExprError(f"generate_random_list: unknown type {ele_type!r}")
        if per_ele_domain is not None and len(per_ele_domain) != size:
            raise ExprError("generate_random_list: per_ele_domain needs one domain per element")
        checks = [self.interpret(c) if isinstance(c, str) and self.interpret else c for c in cond]
        if not all(callable(c) for c in checks):
            raise ExprError("generate_random_list: each cond is a lambda")
        for _ in range(max(1, min(RANDOM_LIST_TRIES, RANDOM_LIST_ELEMENTS // size))):
            out = []
            for i in range(size):
                domain = per_ele_domain[i] if per_ele_domain and per_ele_domain[i] is not None \
                    else ele_domain
                if ele_type == "int":
                    out.append(self.rng.randint(domain[0], domain[1]))
                elif ele_type == "float":
                    out.append(round(self.rng.uniform(domain[0], domain[1]), 2))
                else:
                    out.append(self.rng.choice(list(domain)))
            if all(_holds(c, out) for c in checks):
                return out
        raise ExprError(f"generate_random_list: no list met the conditions in "
                        f"{max(1, min(RANDOM_LIST_TRIES, RANDOM_LIST_ELEMENTS // size))} draws")

    def get_faker(self, num, provider_name="name", locale="en", seed=None):
        words = FAKER.get(provider_name)
        if words is None:
            raise ExprError(f"get_faker: no word list '{provider_name}' (we have "
                            f"{', '.join(sorted(FAKER))})")
        if num > len(words):
            raise ExprError(f"get_faker: only {len(words)} words of '{provider_name}'")
        return self.rng.sample(list(words), num)


def permutations(xs, r=None):
    return [list(p) for p in _limited(itertools.permutations(list(_iterate(xs)), r))]


def combinations(xs, r):
    return [list(p) for p in _limited(itertools.combinations(list(_iterate(xs)), r))]


def product(*xs, repeat=1):
    return [list(p) for p in _limited(itertools.product(*(list(_iterate(x)) for x in xs),
                                                         repeat=repeat))]


def _lcm(*numbers):
    """``math.lcm``, refusing a multiple of over 1000 bits (each step of a long list would
    work on it)."""
    result = 1
    for x in numbers:
        result = math.lcm(result, x)
        if result.bit_length() > 1000:
            raise ExprError("lcm() of over 1000 bits")
    return result


def _bounded(f):
    def call(*args):
        if any(isinstance(a, int) and a > 1000 for a in args):
            raise ExprError(f"{f.__name__}() of a number over 1000")
        return f(*args)
    return call


#: Lists ``generate_random_list`` draws before giving up.
RANDOM_LIST_TRIES = 20_000
#: ... and elements, over all its draws.
RANDOM_LIST_ELEMENTS = 1_000_000


def _holds(check, items) -> bool:
    try:
        return bool(check(items))
    except BudgetError:
        raise
    except ExprError:
        return False


def _limited(iterator, limit: int = 100_000):
    out = []
    for item in iterator:
        out.append(item)
        if len(out) > limit:
            raise ExprError(f"more than {limit} arrangements")
    return out


LETTERS = string.ascii_uppercase
