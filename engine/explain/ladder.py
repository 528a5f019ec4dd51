"""The step rating's path: the cheapest technique first, as a person (and Sukaku Explainer)
solves, and the cost of the hardest technique it needed.

The explainer's own path takes the steps with the fewest groups, all of a round at once;
that cannot tell a hidden single from a naked single (both rest on one group, or none).
Here each step is classed by the groups *and the facts* its reason needs, which needs no
puzzle-specific rule:

- a value ruled out by one group from placed values alone is free (a person's pencil
  marks; cost 0);
- a square that one group fills from placed values alone is a *full house* (the last
  square of a row, say);
- a *one-value* reason needs, besides placed values, only facts about the step's own value
  on other squares ("y != v"): a hidden single (a square filled by one group), an
  intersection (two groups: pointing, claiming), a fish (more groups);
- a square with one value left is a *naked single*: it rests on its own ruled-out values;
- anything else needs facts about several values: a subset of n squares or values in one
  group (n counted from the reason's facts), or a larger reason.

Costs (``COSTS``) follow Sukaku Explainer's scale for the techniques each class covers on
the grid it rates (docs/grading.md, "The step rating"). A single, an intersection or a
larger reason also costs the ``ConstraintGroup.weight`` of the group it reasons in (the
group that holds no square it changes, for an intersection; the heaviest, for a larger
reason). Stage by stage (the singles; then the intersections, naked singles and subsets;
then a larger reason), the cheapest steps of the first stage that has any are applied,
then the free eliminations; an intersection or a hidden subset that lets a hidden single
follow at once is *direct*, and cheaper. The rating is the cost of the hardest step on the path."""
from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from . import candidates
from .explainer import Explainer, Fact

#: The cost of each class of step, before the weight of its group.
COSTS = {
    "full house": 1.0,             # one group fills a square from placed values alone
    "hidden single": 1.2,          # one group, one value: a square filled
    "direct intersection": 1.7,    # two groups, one value, a hidden single follows
    "direct hidden subset": 2.0,   # + 0.5 per value past 2 (pair 2.0, triple 2.5)
    "naked single": 2.3,           # a square with one value left
    "intersection": 2.6,           # two groups, one value
    "naked subset": 3.0,           # + 0.6 per square past 2 (pair 3.0, triple 3.6)
    "hidden subset": 3.4,          # + 0.6 per value past 2 (pair 3.4, triple 4.0)
    "fish": 3.2,                   # one value, 3 or more groups: + 0.3 per group past 4
    "chain": 4.2,                  # several values, 3 or more groups: + 0.3 per group past 4
    # The candidate path's techniques (``candidates``: groups that are each "every value
    # exactly once"); a chain's cost grows with its length (``candidates.length_step``).
    "xy-wing": 4.2,                # a square with two values and two squares it sees
    "xyz-wing": 4.4,               # a square with three values and two squares it sees
    "wing 4": 5.5,                 # four squares, four values, one of them unrestricted
    "wing 5": 6.3,                 # five squares, five values, one unrestricted
    "unique rectangle": 4.5,       # four squares that could swap two values (type 1)
    "bug": 5.6,                    # every square but one with two values (BUG + 1)
    "strong links 2": 4.0,         # one value: two strong links (skyscraper, kite)
    "strong links 3": 5.4,         # ... three
    "strong links 4": 5.8,
    "strong links 5": 6.2,
    "strong links 6": 6.5,
    "x-loop": 6.5,                 # a nice loop of one value's group links
    "xy-loop": 6.5,                # a nice loop of squares with two values
    "x-chain": 6.6,                # a chain of one value's group links
    "xy-chain": 7.0,               # a chain through squares with two values (SE: a forcing chain)
    "nice loop": 7.0,              # a loop of group and cell links
    "aic": 7.0,                    # an alternating inference chain: group and cell links
    "nishio": 7.5,                 # one value's chains from a candidate to a contradiction
    "contradiction forcing chain": 8.0,  # a candidate's chains to a contradiction
    "double forcing chain": 8.0,   # a candidate's on and off imply the same fact
    "cell forcing chain": 8.0,     # every value of a square implies the same fact
    "region forcing chain": 8.0,   # every square of a value in a group implies it
    "dynamic contradiction forcing chain": 8.5,  # the same, propagated on the state
    "dynamic double forcing chain": 8.5,
    "dynamic cell forcing chain": 8.5,
    "dynamic region forcing chain": 8.5,
    "dynamic+ contradiction forcing chain": 9.0,  # ... with intersections in the propagation
    "dynamic+ double forcing chain": 9.0,
    "dynamic+ cell forcing chain": 9.0,
    "dynamic+ region forcing chain": 9.0,
}
#: The candidate path's costs of subsets and fish by their size n (SE's: a naked quad
#: 5.0, a jellyfish 5.2, a hidden quad 5.4, a direct hidden quad 4.3).
SIZED = {
    "naked subset": {2: 3.0, 3: 3.6, 4: 5.0},
    "hidden subset": {2: 3.4, 3: 4.0, 4: 5.4},
    "direct hidden subset": {2: 2.0, 3: 2.5, 4: 4.3},
    "fish": {2: 3.2, 3: 3.8, 4: 5.2},
}
#: What the candidate path costs the next step at least when none of its techniques has
#: one: SE's nested forcing chains begin at 9.5.
NESTED = 9.5
SUBSET_STEP = 0.6
DIRECT_STEP = 0.5
GROUP_STEP = 0.3


@dataclass(frozen=True)
class Rated:
    """A step of the rating's path: its facts (all of one class, applied together), the
    class, its cost and its groups."""

    facts: tuple[Fact, ...]
    technique: str
    cost: float
    groups: tuple[int, ...]


@dataclass
class Ladder:
    """The rating's path: its steps (free eliminations left out), whether it solved the
    puzzle, and why it stopped if not."""

    steps: list[Rated] = field(default_factory=list)
    solved: bool = False
    stuck: str | None = None
    #: When the path stopped short: the least its next step would have cost, where known
    #: (the candidate path: the technique it was looking at, or nested forcing chains).
    floor: float | None = None

    def features(self) -> dict[str, float]:
        """``effort_max`` (the hardest step's cost; when the path needs search, the least
        its next step costs (``floor``) where known, else one more),
        ``effort_mean`` (over the steps), ``effort_hard`` (the share of steps costing more
        than a direct intersection in the lightest group)."""
        costs = [s.cost for s in self.steps] or [0.0]
        hard = sum(1 for c in costs if c > COSTS["direct intersection"]) / len(costs)
        top = max(costs)
        if not self.solved:
            top = top + 1.0 if self.floor is None else max(top, self.floor)
        return {"effort_max": round(top, 4),
                "effort_mean": round(sum(costs) / len(costs), 4), "effort_hard": round(hard, 4)}


def weights(ex: Explainer) -> tuple[tuple[float, str], ...]:
    """The groups' weights and kinds (checked where the groups are read, ``groups_of``)."""
    return ex.kinds


@contextmanager
def _assuming(ex: Explainer, domains: list[set[int]]) -> Iterator[None]:
    """The explainer's checks made as if ``domains`` were the state (its caches are keyed
    by the domains, so they stay right)."""
    saved = ex.domains
    ex.domains = domains
    try:
        yield
    finally:
        ex.domains = saved


def _facts(ex: Explainer, squares, skip: int) -> list[Fact]:
    """The facts of ``squares`` but ``skip``: a square is "= v" once placed (a given or a
    step); before that, even with one value left, its values ruled out."""
    facts = []
    for x in squares:
        if x != skip:
            facts += [Fact(x, next(iter(ex.domains[x])), True)] if ex.known[x] else \
                [Fact(x, w, False) for w in sorted(ex._all_values(x) - ex.domains[x])]
    return facts


def _forced_by(ex: Explainer, groups: frozenset[int], fact: Fact, keep: Callable[[Fact], bool]) -> bool:
    """Whether ``groups`` force ``fact`` from the facts (``_facts``) of other squares that
    ``keep``."""
    model = ex._model(groups)
    if fact.square not in model.domains:
        return False
    lits = [model.indicator(g) for g in sorted(groups) if g in model.indicators]
    lits.append(ex._negation(model, fact))
    lits += [ex._lit(model, f) for f in _facts(ex, model.squares, fact.square) if keep(f)]
    return not ex._check(model, lits).sat


def _one_value(ex: Explainer, groups: frozenset[int], fact: Fact) -> bool:
    return _forced_by(ex, groups, fact, lambda f: f.equal or f.value == fact.value)


def _reason(ex: Explainer, groups: frozenset[int], fact: Fact, keep: Callable[[Fact], bool]
            ) -> list[Fact]:
    """A subset-minimal set of facts that, with ``groups``, force ``fact``: deletion-based,
    the facts that ``keep`` rejects tried first, so that they stay out where they can.

    Plain deletion, each fact tried once in that order, without narrowing to the solver's
    cores: the reason (and so a subset's class) then depends on the order alone, not on
    which solver answered (SAT or CP-SAT) nor on the cores it happened to find."""
    model = ex._model(groups)
    on = [model.indicator(g) for g in sorted(groups) if g in model.indicators]
    neg = ex._negation(model, fact)
    facts = sorted(_facts(ex, model.squares, fact.square), key=keep)

    def forced(trial: list[Fact]) -> bool:
        return not ex._check(model, on + [neg] + [ex._lit(model, f) for f in trial]).sat

    if not forced(facts):
        raise AssertionError("a step's reason does not force it")
    found, i = facts, 0
    while i < len(found):
        trial = found[:i] + found[i + 1:]
        if forced(trial):
            found = trial
        else:
            i += 1
    return found


class Rater:
    """Walks one puzzle cheapest technique first (``run``). ``ex`` is used as it stands
    and left as the path leaves it: pass a copy (``rate`` does) to keep it."""

    def __init__(self, ex: Explainer):
        self.ex = ex
        kinds = weights(ex)
        self.weights = [w for w, _ in kinds]
        self.kinds = [k for _, k in kinds]
        self.n = len(ex.domains)

    # -- the state ----------------------------------------------------------------------------
    def _apply(self, facts) -> None:
        for f in facts:
            if f.equal:
                self.ex.domains[f.square] = {f.value}
                self.ex.known[f.square] = True
            else:
                self.ex.domains[f.square].discard(f.value)

    def _free(self) -> None:
        """Rule out, to a fixpoint, what one group forces from placed values alone."""
        ex = self.ex
        while True:
            view = [set(d) if ex.known[x] else ex._all_values(x) for x, d in enumerate(ex.domains)]
            with _assuming(ex, view):
                out = [(x, w) for g in range(len(ex.names)) for x, w in ex.implied(frozenset([g]))]
            out = [(x, w) for x, w in out if w in ex.domains[x] and len(ex.domains[x]) > 1]
            if not out:
                return
            for x, w in out:
                ex.domains[x].discard(w)

    # -- the classes --------------------------------------------------------------------------
    def _ruled(self, groups: frozenset[int]) -> dict[int, set[int]]:
        out: dict[int, set[int]] = {}
        for x, w in self.ex.implied(groups):
            out.setdefault(x, set()).add(w)
        return out

    def hidden_singles(self, groups=None) -> list[Rated]:
        """Squares one group (of ``groups``, default all) fills from placed values alone
        (a full house) or from facts about that value (a hidden single)."""
        ex, out = self.ex, []
        for g in range(len(ex.names)) if groups is None else groups:
            ruled = self._ruled(frozenset([g]))
            for x in ex._scope[g]:
                if ex.known[x]:
                    continue
                left = ex.domains[x] - ruled.get(x, set())
                if len(left) == 1:
                    fact = Fact(x, next(iter(left)), True)
                    if _forced_by(ex, frozenset([g]), fact, lambda f: f.equal):
                        out.append(Rated((fact,), "full house", COSTS["full house"], (g,)))
                    elif _one_value(ex, frozenset([g]), fact):
                        out.append(Rated((fact,), "hidden single",
                                         COSTS["hidden single"] + self.weights[g], (g,)))
        return out

    def intersections(self) -> list[Rated]:
        """Two groups, one value: what a pair rules out from facts about that value alone,
        a step per value; direct when a hidden single follows."""
        ex, out = self.ex, []
        for pair in ex._sets(2):
            by_value: dict[int, list[Fact]] = {}
            for x, ws in self._ruled(pair).items():
                for w in sorted(ws):
                    # (one group alone may rule it out too, but by a subset: not one value)
                    fact = Fact(x, w, False)
                    if _one_value(ex, pair, fact):
                        by_value.setdefault(w, []).append(fact)
            for facts in by_value.values():
                step = self._intersection(pair, facts)
                if step is not None:
                    out.append(step)
        return out

    def _intersection(self, pair: frozenset[int], facts: list[Fact]) -> Rated | None:
        ex = self.ex
        changed = {f.square for f in facts}
        source = [g for g in pair if not changed & set(ex._scope[g])]
        if not source:  # the source holds none of the squares it changes
            return None
        weight = max(self.weights[g] for g in source)
        # Direct: a hidden single follows in a group of the source's kind (Sukaku
        # Explainer's: another box for pointing, another row or column for claiming)
        # that holds a square this rules out.
        follow = [g for g in range(len(ex.names)) if g not in pair and changed & set(ex._scope[g])
                  and any(self.kinds[g] == self.kinds[h] for h in source)]
        trial = [set(d) for d in ex.domains]
        for f in facts:
            trial[f.square].discard(f.value)
        with _assuming(ex, trial):
            direct = bool(self.hidden_singles(follow))
        technique = "direct intersection" if direct else "intersection"
        return Rated(tuple(facts), technique, COSTS[technique] + weight, tuple(sorted(pair)))

    def naked_singles(self) -> list[Rated]:
        ex = self.ex
        return [Rated((Fact(x, next(iter(d)), True),), "naked single", COSTS["naked single"], ())
                for x, d in enumerate(ex.domains) if len(d) == 1 and not ex.known[x]]

    def subsets(self) -> list[Rated]:
        """One group, several values: the values it rules out, by subset: the fewer of the squares and the
        values of the reason's "!=" facts (a naked pair rests on two squares' values, a
        hidden pair on two values' squares). Direct when a hidden single follows."""
        ex, out = self.ex, []
        # A square with one value left is a naked single: its facts go first when a reason
        # is made minimal, so that a subset's reason keeps only what the subset needs.
        singles = {x for x, d in enumerate(ex.domains) if len(d) == 1 and not ex.known[x]}
        for g in range(len(ex.names)):
            s = frozenset([g])
            batches: dict[tuple[str, int], list[Fact]] = {}
            for x, ws in self._ruled(s).items():
                for w in sorted(ws):
                    fact = Fact(x, w, False)
                    ruled = [f for f in _reason(ex, s, fact, lambda f: f.square not in singles)
                             if not f.equal]
                    squares = len({f.square for f in ruled})
                    values = len({f.value for f in ruled})
                    n = min(squares, values)
                    if n >= 2:
                        technique = "hidden subset" if values < squares else "naked subset"
                        batches.setdefault((technique, n), []).append(fact)
            for (technique, n), facts in batches.items():
                direct = False
                if technique == "hidden subset":
                    changed = {f.square for f in facts}
                    trial = [set(d) for d in ex.domains]
                    for f in facts:
                        trial[f.square].discard(f.value)
                    follow = [h for h in range(len(ex.names)) if changed & set(ex._scope[h])]
                    with _assuming(ex, trial):
                        direct = bool(self.hidden_singles(follow))
                cost = (COSTS["direct hidden subset"] + DIRECT_STEP * (n - 2) if direct else
                        COSTS[technique] + SUBSET_STEP * (n - 2))
                out.append(Rated(tuple(facts), ("direct " if direct else "") + technique, cost, (g,)))
        return out

    def larger(self) -> list[Rated]:
        """The explainer's smallest reason past two groups (subset-minimal), of any size:
        the explainer's ``max_size`` bounds an explanation, not the rating."""
        ex = self.ex
        saved, ex.max_size = ex.max_size, None
        try:
            steps, why = ex._fallback([x for x in range(self.n) if len(ex.domains[x]) > 1])
        finally:
            ex.max_size = saved
        if not steps:
            self.stuck = why
            return []
        step = steps[0]
        groups = frozenset(step.groups)
        k = max(len(groups), 3)
        technique = "fish" if _one_value(ex, groups, step.fact) else "chain"
        cost = COSTS[technique] + GROUP_STEP * (k - 4) + max(self.weights[g] for g in groups)
        return [Rated((step.fact,), technique, cost, tuple(sorted(groups)))]

    # -- the path -----------------------------------------------------------------------------
    def run(self, ceiling: float | None = None) -> Ladder:
        """The path; with ``ceiling``, it stops (unsolved) at the first step whose cheapest
        technique costs more: the rating is above the ceiling whatever follows."""
        ex, out = self.ex, Ladder()
        self.stuck = None
        # Each stage is tried only when the ones before it found nothing; within a
        # stage the cheapest steps win.
        stages = ((self.hidden_singles,), (self.intersections, self.naked_singles, self.subsets),
                  (self.larger,))
        while True:
            self._free()
            if all(ex.known):
                out.solved = True
                return out
            found = []
            for stage in stages:
                found = [s for find in stage for s in find()]
                if found:
                    break
            if not found:
                out.stuck = self.stuck or "no step is forced"
                return out
            cheapest = min(s.cost for s in found)
            if ceiling is not None and cheapest > ceiling + 1e-9:
                out.steps.append(min(found, key=lambda s: s.cost))
                out.stuck = f"a step costs {cheapest:.2f}, above the ceiling {ceiling:g}"
                return out
            taken: set[Fact] = set()
            for s in found:  # each fact once (two groups may find it at the same cost)
                if s.cost == cheapest and not taken.issuperset(s.facts):
                    taken.update(s.facts)
                    out.steps.append(s)
                    self._apply(s.facts)


def classes(ex: Explainer) -> bool:
    """Whether ``ex``'s steps can be classed: its rules must be cut into two groups or
    more. One group alone ("the rules" of a type that declares none) forces every value of
    a unique puzzle from the givens, so every step would be a free full house."""
    return len(ex.names) > 1


#: The candidate path's techniques in the order of their least cost, with that cost.
def _finders(grid: candidates.Grid):
    c = COSTS
    return sorted((  # (stable: a tie keeps this order)
        (c["full house"], grid.full_houses),
        (c["hidden single"], grid.hidden_singles),
        (c["direct intersection"], grid.intersections),
        (SIZED["direct hidden subset"][2], grid.subsets),
        (c["naked single"], grid.naked_singles),
        (SIZED["fish"][2], grid.fish),
        (c["xy-wing"], grid.wings),
        (c["strong links 2"], grid.strong_links),
        (c["unique rectangle"], grid.rectangles),
        (c["bug"], grid.bug),
        (c["x-loop"], grid.chains),
        (c["nishio"], lambda: grid.forcing("static")),
        (c["dynamic double forcing chain"], lambda: grid.forcing("dynamic")),
        (c["dynamic+ double forcing chain"], lambda: grid.forcing("plus")),
    ), key=lambda f: f[0])


def candidate_costs() -> dict[str, float]:
    """The table the candidate path prices its steps by: ``COSTS`` and ``SIZED``."""
    return {**COSTS, **{f"{k} {n}": v for k, sizes in SIZED.items() for n, v in sizes.items()}}


def walk(grid: candidates.Grid, ceiling: float | None = None) -> Ladder:
    """The rating's path on candidates: at each point the cheapest steps (every technique
    whose least cost is below the cheapest found so far is asked), all applied; until
    solved, no technique has a step (needs search: nested forcing chains), a step would
    need more than the bounded effort (``candidates.EFFORT``), or the cheapest step costs
    more than ``ceiling``."""
    out = Ladder()
    finders = _finders(grid)
    while not grid.solved():
        found: list[candidates.Hint] = []
        best = None
        grid.effort = 0
        try:
            for least, find in finders:
                if best is not None and best <= least:
                    break
                if ceiling is not None and least > ceiling and best is None:
                    out.stuck, out.floor = f"the next step costs more than {ceiling:g}", least
                    return out
                hints = find()
                if hints:
                    found += hints
                    best = min(h.cost for h in found)
        except candidates.NeedsSearch as why:
            out.stuck, out.floor = f"needs search: {why}", least
            return out
        if best is None:
            out.stuck, out.floor = "needs search: no technique up to dynamic forcing chains has a step", NESTED
            return out
        best = round(best, 4)
        if ceiling is not None and best > ceiling:
            out.stuck, out.floor = f"the next step costs more than {ceiling:g}", best
            return out
        taken: set[tuple[int, int, bool]] = set()
        for h in found:
            if round(h.cost, 4) != best:
                continue
            moves = {(x, b, True) for x, b in h.place} | {(x, b, False) for x, b in h.remove}
            if taken.issuperset(moves):
                continue
            taken |= moves
            facts = tuple(Fact(x, grid.values[b.bit_length() - 1], True) for x, b in h.place) + \
                tuple(Fact(x, grid.values[b.bit_length() - 1], False) for x, b in h.remove)
            out.steps.append(Rated(facts, h.technique, best, h.groups))
            grid.apply(h)
        if grid.broken():  # only a uniqueness step can, on a puzzle with two solutions
            out.stuck = ("needs search: a step that assumes one solution left none: the "
                         "puzzle has more than one")
            out.floor = best
            return out
    out.solved = True
    return out


def rate(ex: Explainer, ceiling: float | None = None) -> Ladder:
    """The rating's path of ``ex``'s puzzle from its current state (``ex`` unchanged).
    Where every group is "each value exactly once", on candidates (``walk``: SE's
    techniques up to dynamic forcing chains); else by the explainer's checks. ``ceiling``:
    stop (unsolved, ``floor`` the next step's cost) once the next step costs more."""
    grid = candidates.from_explainer(ex, candidate_costs())
    if grid is not None:
        return walk(grid, ceiling)
    clone = copy.copy(ex)
    clone.domains = [set(d) for d in ex.domains]
    clone.known = list(ex.known)
    # The fallback's last reason per fact holds only while facts grow: the rating's path
    # goes its own way, so its reasons must not seed the explainer's.
    clone._reasons = dict(ex._reasons)
    return Rater(clone).run(ceiling)
