"""Steps in a player's words: each explainer step classed by technique (on its groups and
the facts known when it is taken, by checks as the step rating's, naming no puzzle), the plain
eliminations folded into the step that uses them, and each step said by its type
(``Explanation.technique_name`` and ``step_words``) or, where the type says nothing, in
the engine's generic words.

The classes (ids as in ``ladder.COSTS``; docs/grading.md, "Techniques"):

- *elimination*: a value one group rules out from placed values alone (a player's pencil
  marks): not shown on its own, but folded into the first shown step that rests on it;
- *full house*: a square one group fills from placed values alone;
- *hidden single*: a square one group fills from facts about that value alone;
- *naked single*: a square whose other values are all ruled out;
- *intersection*: a value two groups rule out from facts about that value alone;
- *naked subset*, *hidden subset*: a value one group rules out from facts about several
  values: n squares holding n values between them (naked), or n values that only n
  squares can hold (hidden); n the fewer of the reason's squares and values;
- *fish* (one value) and *chain* (several), for reasons of three groups or more;
- *deduction*: anything else.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .. import calls
from ..types import ExplainedStep, StepFact
from .explainer import Explainer, Explanation, Fact, Step

#: The engine's names of the classes, for a type that names none (``technique_name``).
GENERIC = {"elimination": "Elimination", "full house": "Full house",
           "hidden single": "Hidden single", "naked single": "Naked single",
           "intersection": "Intersection", "direct intersection": "Intersection",
           "naked subset": "Naked subset", "hidden subset": "Hidden subset",
           "direct hidden subset": "Hidden subset", "fish": "Fish", "chain": "Chain",
           "deduction": "Deduction"}


@dataclass(frozen=True)
class Said:
    """A shown step: the indices in the explainer's path of its steps (the first, then the
    others of the same pattern said with it), the eliminations folded into it, and its
    class and words."""

    index: int
    technique: str
    text: str
    uses: tuple[int, ...] = ()
    more: tuple[int, ...] = ()

    def indices(self) -> tuple[int, ...]:
        """The explainer's steps it says, the eliminations it rests on first."""
        return tuple(sorted((*self.uses, self.index, *self.more)))


def generic_name(technique: str) -> str:
    return GENERIC.get(technique) or (technique[:1].upper() + technique[1:])


def _fact(ex: Explainer, fact: Fact) -> StepFact:
    return StepFact(ex.square_name(fact.square), ex.value_name(fact.value), fact.equal)


def _and(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def fact_words(fact: StepFact) -> str:
    return f"{fact.square} is {'' if fact.equal else 'not '}{fact.value}"


def generic_words(step: ExplainedStep, name: str) -> str:
    """The engine's sentence for a step its type does not say: the technique's name, the
    groups and facts of the reason, and the deduction."""
    done = _and([fact_words(f) for f in (step.fact, *step.also)])
    if not step.groups:
        ruled = f" (every other value is ruled out{' by ' + _and(step.via) if step.via else ''})"
        return f"{name}: {done}{ruled}"
    facts = [f"{f.square} {'=' if f.equal else '!='} {f.value}" for f in step.facts]
    given = ""
    if facts:
        given = f", with {_and(facts)}" if len(facts) <= 4 else \
            f", with {', '.join(facts[:3])} and {len(facts) - 3} more known facts"
    return f"{name}: by {_and(step.groups)}{given}, {done}"


class Words:
    """A type's words for steps: its names and sentences, asked once per technique name,
    checked (one line of text, or ``None``), with the generic ones where it gives none."""

    def __init__(self, ptype, params):
        self.ptype, self.params = ptype, params
        self._names: dict[str, str] = {}

    def _line(self, method: str, value: Any, wanted: str) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip() or "\n" in value or "\r" in value:
            raise calls.bad_result(method, self.ptype, value, wanted)
        return value.strip()

    def name(self, technique: str) -> str:
        if technique not in self._names:
            value = calls.call(self.ptype, "technique_name", params=self.params,
                               technique=technique)
            self._names[technique] = self._line("technique_name", value,
                                                "a name on one line or None") \
                or generic_name(technique)
        return self._names[technique]

    def text(self, step: ExplainedStep) -> str:
        value = calls.call(self.ptype, "step_words", params=self.params, step=step)
        return self._line("step_words", value, "a sentence on one line or None") \
            or generic_words(step, self.name(step.technique))


# -- classing a step ----------------------------------------------------------------------------
class State:
    """What a player knows before a step of the path: each square's values left and
    whether it is placed (the explainer's state then), and which step ruled out each
    value."""

    def __init__(self, ex: Explainer, known: Sequence[bool]):
        self.domains = [set(ex._all_values(x)) if not k else set(d)
                        for x, (k, d) in enumerate(zip(known, _start_domains(ex, known)))]
        self.known = list(known)
        self.by: dict[Fact, int] = {}

    def apply(self, k: int, fact: Fact) -> None:
        if fact.equal:
            self.domains[fact.square] = {fact.value}
            self.known[fact.square] = True
        else:
            self.domains[fact.square].discard(fact.value)
            self.by[fact] = k

    def facts(self, ex: Explainer, x: int) -> list[Fact]:
        if self.known[x]:
            return [Fact(x, next(iter(self.domains[x])), True)]
        return [Fact(x, w, False) for w in sorted(ex._all_values(x) - self.domains[x])]


def _start_domains(ex: Explainer, known: Sequence[bool]) -> list[set[int]]:
    board = ex.board.known
    return [{board[x]} if k and x in board else {ex.solution[x]} if k else set()
            for x, k in enumerate(known)]


def _forced(ex: Explainer, state: State, groups, fact: Fact, keep, own: bool = False) -> bool:
    """Whether ``groups`` force ``fact`` from the facts known in ``state`` that ``keep``
    (of the other squares; of the step's own square too with ``own``)."""
    groups = frozenset(groups)
    model = ex._model(groups)
    if fact.square not in model.domains:
        return False
    lits = [model.indicator(g) for g in sorted(groups) if g in model.indicators]
    lits.append(ex._negation(model, fact))
    for y in model.squares:
        if y != fact.square or (own and not state.known[y]):
            lits += [ex._lit(model, f) for f in state.facts(ex, y) if keep(f)]
    return not ex._check(model, lits).sat


def _trivial(ex: Explainer, state: State, step: Step) -> bool:
    """A value one group rules out from placed values alone."""
    if step.fact.equal or step.size != 1 or step.facts is None:
        return False
    if all(f.equal for f in step.facts):
        return True
    return _forced(ex, state, step.groups, step.fact, lambda f: f.equal)


def classify(ex: Explainer, step: Step, state: State, via: Sequence[int] = ()
             ) -> ExplainedStep:
    """``step`` (with its reason's facts) as an ``ExplainedStep``, from ``state``, what is
    known when it is taken; ``via``: the groups of the steps that ruled out the values of
    a naked single."""
    fact, facts = step.fact, step.facts or ()
    v = fact.value
    technique, house, squares, values = "deduction", None, (), ()
    scope = [set(ex._scope[g]) for g in step.groups]

    def one_value(f: Fact) -> bool:
        return f.equal or f.value == v

    if step.facts is None:
        technique = "deduction" if step.size else "naked single"
    elif step.size == 0:
        technique, values = "naked single", tuple(ex.value_name(f.value) for f in facts)
    elif step.size == 1:
        g, = step.groups
        house = ex.names[g]
        if _forced(ex, state, step.groups, fact, lambda f: f.equal):
            technique = "full house" if fact.equal else "elimination"
        elif fact.equal and _forced(ex, state, step.groups, fact, one_value):
            technique = "hidden single"
        elif fact.equal and _forced(ex, state, step.groups, fact,
                                    lambda f: f.equal or f.square == fact.square, own=True):
            technique = "naked single"
            values = tuple(ex.value_name(w) for w in sorted(ex._all_values(fact.square) - {v}))
        else:
            technique, squares, values = _subset(ex, g, fact, facts, state)
    elif step.size == 2 and not fact.equal and _forced(ex, state, step.groups, fact, one_value):
        # The group it reasons in: one without the square (a box that points at a row),
        # else the one where more squares hold the value, fewer are open.
        source = [k for k, s in enumerate(scope) if fact.square not in s] or [0, 1]
        k = min(source, key=lambda k: (
            -sum(1 for x in scope[k] if state.known[x] and state.domains[x] == {v}),
            sum(1 for x in scope[k] if not state.known[x]), k))
        technique = "intersection"
        house = ex.names[step.groups[k]]
        squares = tuple(ex.square_name(x) for x in sorted(scope[0] & scope[1])
                        if not state.known[x] and v in state.domains[x])
        values = (ex.value_name(v),)
    elif step.size >= 3:
        fish = not fact.equal and _forced(ex, state, step.groups, fact, one_value)
        technique = "fish" if fish else "chain"
        values = (ex.value_name(v),) if fish else ()
    return ExplainedStep(
        technique, _fact(ex, fact), tuple(step.names),
        tuple(ex.kinds[g][1] if g < len(ex.kinds) else "" for g in step.groups),
        tuple(ex.names[g] for g, s in zip(step.groups, scope) if fact.square in s),
        tuple(_fact(ex, f) for f in facts), house, squares, values,
        tuple(ex.names[g] for g in via) if technique == "naked single" else ())


def _subset(ex: Explainer, g: int, fact: Fact, facts: Sequence[Fact], state: State):
    """One group, facts about several values: a naked subset (n squares, n values between
    them) or a hidden one (n values, n squares that can hold them), with its squares and
    values; "deduction" when n is under 2."""
    ruled = [f for f in facts if not f.equal and not (fact.equal and f.square == fact.square)]
    on = sorted({f.square for f in ruled})
    by_value = sorted({f.value for f in ruled})
    n = min(len(on), len(by_value))
    if n < 2:
        return "deduction", (), ()
    if len(by_value) < len(on):  # hidden: the values only the squares left can hold
        squares = [x for x in ex._scope[g] if not state.known[x]
                   and state.domains[x] & set(by_value)]
        return ("hidden subset", tuple(ex.square_name(x) for x in squares),
                tuple(ex.value_name(v) for v in by_value))
    taken = {f.value for f in facts if f.equal}
    held: set[int] = set()
    for x in on:
        held |= set(ex._all_values(x)) - {f.value for f in ruled if f.square == x} - taken
    return ("naked subset", tuple(ex.square_name(x) for x in on),
            tuple(ex.value_name(v) for v in sorted(held)))


# -- the shown steps ----------------------------------------------------------------------------
def said_steps(ex: Explainer, steps: Sequence[Step], words: Words,
               start: Sequence[bool] | None = None) -> tuple[list[Said], list[ExplainedStep]]:
    """The shown steps of a path (every step but the plain eliminations, which fold into
    the first shown step that rests on them, directly or through another elimination),
    consecutive eliminations of one pattern said in one sentence; and every step classed.
    ``start``: which squares were known before the first step (default: the board's
    known squares)."""
    if start is None:
        start = [x in ex.board.known for x in range(len(ex.domains))]
    state = State(ex, start)
    eliminated = {step.fact: k for k, step in enumerate(steps) if not step.fact.equal}
    folded: set[int] = set()
    plain: set[int] = set()
    classed: list[ExplainedStep] = []
    said: list[Said] = []
    for k, step in enumerate(steps):
        if _trivial(ex, state, step):
            plain.add(k)
            classed.append(classify(ex, step, state))
            state.apply(k, step.fact)
            continue
        uses: list[int] = []
        todo = list(step.facts or ())
        while todo:
            j = eliminated.get(todo.pop())
            if j is not None and j < k and j not in folded and j in plain:
                folded.add(j)
                uses.append(j)
                todo += steps[j].facts or ()
        uses.sort()
        via: list[int] = []
        if step.fact.equal:  # a naked single: the groups that ruled out its other values
            x = step.fact.square
            for w in sorted(ex._all_values(x) - {step.fact.value}):
                j = state.by.get(Fact(x, w, False))
                via += [] if j is None else steps[j].groups
            via = sorted(set(via) | set(step.groups))
        es = classify(ex, step, state, via if step.fact.equal else ())
        classed.append(es)
        state.apply(k, step.fact)
        last = said[-1] if said else None
        if last is not None and _same(classed[last.index], es):
            said[-1] = replace(last, uses=tuple(sorted(last.uses + tuple(uses))),
                               more=last.more + (k,))
            continue
        said.append(Said(k, es.technique, "", tuple(uses)))
    out = []
    for s in said:
        es = classed[s.index]
        if s.more:
            es = replace(es, also=tuple(classed[j].fact for j in s.more))
        out.append(replace(s, text=words.text(es)))
    return out, classed


def _same(a: ExplainedStep, b: ExplainedStep) -> bool:
    """Two eliminations of one pattern (said in one sentence)."""
    return (a.technique == b.technique and a.technique not in ("deduction", "chain")
            and not a.fact.equal and a.groups == b.groups and a.house == b.house
            and a.squares == b.squares and a.values == b.values)


def explain(ex: Explainer, words: Words, shown: int | None = None
            ) -> tuple[Explanation, list[Said], list[ExplainedStep]]:
    """Run ``ex`` until ``shown`` steps are shown (default: to the end), whole rounds at
    a time (1, then 2, 4... more), so the steps are the first of a whole run's and a
    hint costs a round or two: the explanation (cut after the last shown step), the shown
    steps and every step classed (``said_steps``)."""
    start = list(ex.known)
    result = Explanation()
    rounds = 1
    while True:
        part = ex.run(rounds=None if shown is None else rounds)
        rounds *= 2
        result.steps += part.steps
        result.checks, result.stuck, result.solved = part.checks, part.stuck, part.solved
        said, classed = said_steps(ex, result.steps, words, start)
        if shown is None or len(said) >= shown or part.stuck or part.solved or not part.steps:
            break
    if shown is not None and len(said) >= shown:
        said = said[:shown]
        last = max(max(s.indices()) for s in said) + 1
        if last < len(result.steps):
            result.steps, classed = result.steps[:last], classed[:last]
            result.solved, result.stuck = False, None
    return result, said, classed
