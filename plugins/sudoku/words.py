"""Sudoku's steps in a player's words (``Explanation.technique_name`` and ``step_words``):
the names Sudoku players use for each class of step the explainer and the step rating
know (docs/grading.md, "Techniques"), and a sentence for each."""
from __future__ import annotations

from puzzle_engine import ExplainedStep, StepFact

#: The rating's classes (and the explainer's) by their ids, as Sudoku players name them.
NAMES = {
    "elimination": "Elimination", "full house": "Full house",
    "hidden single": "Hidden single", "naked single": "Naked single",
    "intersection": "Intersection", "direct intersection": "Direct intersection",
    "naked subset": "Naked subset", "hidden subset": "Hidden subset",
    "direct hidden subset": "Direct hidden subset", "fish": "Fish", "chain": "Chain",
    "x-chain": "X-chain", "xy-chain": "XY-chain", "aic": "Alternating inference chain",
    "nice loop": "Nice loop", "cell forcing chain": "Cell forcing chain",
    "region forcing chain": "Region forcing chain",
    "contradiction forcing chain": "Contradiction forcing chain", "nishio": "Nishio",
    "dynamic forcing chain": "Dynamic forcing chain",
    "unique rectangle": "Unique rectangle", "bug": "BUG", "deduction": "Deduction",
    "xy-wing": "XY-wing", "xyz-wing": "XYZ-wing", "wing 4": "WXYZ-wing",
    "wing 5": "VWXYZ-wing", "strong links 2": "Turbot fish",
    "strong links 3": "X-chain of 3 strong links", "strong links 4": "X-chain of 4 strong links",
    "strong links 5": "X-chain of 5 strong links", "strong links 6": "X-chain of 6 strong links",
    "x-loop": "X-loop", "xy-loop": "XY-loop", "double forcing chain": "Double forcing chain",
}
#: The step rating's dynamic forms: "dynamic cell forcing chain", "dynamic+ ...".
DYNAMIC = {"dynamic ": "Dynamic ", "dynamic+ ": "Dynamic+ "}
#: A subset's name by its size; a fish's by its number of rows (or columns).
SUBSETS = {2: "pair", 3: "triple", 4: "quad"}
FISH = {2: "X-wing", 3: "Swordfish", 4: "Jellyfish"}
CHAINS = ("x-chain", "xy-chain", "aic", "nice loop", "cell forcing chain",
          "region forcing chain", "contradiction forcing chain", "nishio",
          "dynamic forcing chain", "unique rectangle", "bug", "chain", "xy-wing", "xyz-wing",
          "wing 4", "wing 5", "strong links 2", "strong links 3", "strong links 4",
          "strong links 5", "strong links 6", "x-loop", "xy-loop", "double forcing chain")


def technique_name(technique: str) -> str | None:
    if technique in NAMES:
        return NAMES[technique]
    for prefix, said in sorted(DYNAMIC.items(), reverse=True):  # ("dynamic+ " first)
        base = technique[len(prefix):]
        if technique.startswith(prefix) and base in NAMES and base in CHAINS:
            return said + NAMES[base][:1].lower() + NAMES[base][1:]
    return None


def _and(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _ruled_out(step: ExplainedStep) -> str:
    """"r4c9 can't be 2 or 7 and r4c1 and r4c3 can't be 2"."""
    by_square: dict[str, list[str]] = {}
    for f in (step.fact, *step.also):
        by_square.setdefault(f.square, []).append(f.value)
    by_values: dict[tuple[str, ...], list[str]] = {}  # "r5c1 and r5c2 can't be 1"
    for x, vs in by_square.items():
        by_values.setdefault(tuple(vs), []).append(x)
    return _and([f"{_and(xs)} can't be {' or '.join(vs)}" for vs, xs in by_values.items()])


def _kind(name: str) -> str:
    return name.split()[0]


def step_words(step: ExplainedStep) -> str | None:
    t, f = step.technique, step.fact
    x, v = f.square, f.value
    name = technique_name(t)
    if name is None:
        return None  # a class we do not know: the engine's generic words
    if t == "full house" and step.house:
        return f"Full house: {x} is the last empty square of {step.house}, so it holds {v}"
    if t == "hidden single" and step.house:
        return f"Hidden single: in {step.house}, only {x} can hold {v}"
    if t == "naked single" and f.equal:
        by = f" ({_and(step.via)} rule{'s' * (len(step.via) == 1)} out the rest)" \
            if step.via else ""
        return f"Naked single: {x} can only be {v}{by}"
    if t in ("intersection", "direct intersection") and step.house and not f.equal:
        other = [g for g in step.groups if g != step.house]
        where = other[0] if other else "one place"
        kind = "Pointing" if _kind(step.house) == "box" else "Claiming"
        return (f"{kind}: in {step.house}, {v} can only go in {where}, so "
                f"{_ruled_out(step)}")
    if t in ("naked subset", "hidden subset", "direct hidden subset") and step.house \
            and step.squares and step.values:
        n = len(step.squares) if t == "naked subset" else len(step.values)
        size = SUBSETS.get(n, f"set of {n}")
        then = _ruled_out(step) if not f.equal else f"{x} must be {v}" if x not in \
            step.squares else f"{x}, which can't be " + " or ".join(
                u for u in step.values if u != v) + f", holds {v}"
        if t == "naked subset":
            return (f"Naked {size}: in {step.house}, {_and(step.squares)} hold only "
                    f"{_and(step.values)}, so {then}")
        return (f"Hidden {size}: in {step.house}, {_and(step.values)} can only go in "
                f"{_and(step.squares)}, so {then}")
    if t == "fish" and not f.equal and step.groups:
        cover_kinds = {_kind(g) for g in step.holding}
        base = [g for g in step.groups if _kind(g) not in cover_kinds]
        cover = [g for g in step.groups if _kind(g) in cover_kinds]
        if base and cover and len(base) == len(cover):
            return (f"{FISH.get(len(base), 'Fish')}: in {_and(base)}, {v} can only go in "
                    f"{_and(cover)}, so {_ruled_out(step)}")
        return f"Fish on {v}: {_and(step.groups)} leave {v} no place in {x}"
    if t == "deduction" and step.house:
        what = "must be" if f.equal else "can't be"
        given = _facts(step.facts).replace(" from ", ", given ", 1)
        return f"Deduction: in {step.house}, {x} {what} {v}{given}"
    if (t in CHAINS or t.split(" ", 1)[-1] in CHAINS) and step.groups:
        what = "is" if f.equal else "can't be"
        known = _facts(step.facts)
        return (f"{name}: following {_and(step.groups)}{known}, {x} {what} {v}"
                if len(step.groups) < 7 else
                f"{name}: a chain through {len(step.groups)} rows, columns and boxes"
                f"{known} shows {x} {what} {v}")
    return None


def _facts(facts: tuple[StepFact, ...]) -> str:
    """" from r1c1 = 3 and r2c5 != 4" for up to four facts, else their count."""
    if not facts:
        return ""
    said = [f"{f.square} {'=' if f.equal else '!='} {f.value}" for f in facts]
    return f" from {_and(said)}" if len(said) <= 4 else f" from {len(said)} known facts"
