"""The explainer: the next deductions of a puzzle, each with a smallest reason.

A *fact* is what the player knows of a square: "x = v" (a given, or a step) or "x != v".
A *step* is a new fact that some constraint groups, with some facts, force: the groups
and facts together (its *reason*) have no solution with the step negated. Its size is its
number of groups.

Each round looks for the steps of the smallest size, counting up from 1: a step of size 0
is a square with one value left. For k groups up to ``exact`` (default 2), every connected
set of k groups is tried (connected: each shares a variable with another; a reason that
is not connected has a part it does not need), so a step found at size k has no reason
with fewer groups: the size is the least possible. A set's forced facts are found by
solution support: a solution of the set's part of the model shows one value per square;
the explainer asks for a solution showing any (square, value) still open that none has
shown yet (one clause over their literals; as many of them as a greedy search finds)
until there is none: every one left is then forced out. The set's earlier solutions count while they keep to the facts. Results are cached by the set of groups and the facts in
its scope, so a round redoes only the sets around the squares the last round changed.

Past ``exact``, a step's groups come from *deletion-based* MUS extraction over all groups,
for the squares with the fewest values left (their value, and each value ruled out):
starting from the groups in the solver's unsatisfiable core, each group is dropped in
turn and stays dropped when the rest still force the step, farthest from the square
first, and the set shrinks to each new core (clause-set refinement). The smallest wins.
That reason is subset-minimal, not always the least.

A reason's facts are made subset-minimal the same way. They are found only for the steps
given out, from the facts of the round that found them. All the steps of the smallest size
found in a round are applied before the next round.

A puzzle with no forced fact (more than one solution from here) is reported as needing
search; so is one whose next step needs more than ``max_size`` groups, when that is set.
"""
from __future__ import annotations

import time

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import PuzzleInputError
from ..types import ExplanationBoard
from .board import board_of
from .flatten import Flattened, flatten, groups_of
from .model import GroupModel
from .sat import SatModel, Unsupported

#: The explanation model's back ends by name: SAT where the model encodes (``sat``), else
#: CP-SAT (``model``).
BACKENDS = {"sat": SatModel, "cp-sat": GroupModel}
#: The most switchable models kept per flattened model for later puzzles.
SHARED = 64


#: The fallback asks the groups within these many steps of a square first (then all),
#: while they are at most a third of all the groups (on a large board of cell groups; where
#: a group's neighbours are most of the board, the whole model's core is the better start).
NEAR = (1, 2, 3)


@dataclass(frozen=True)
class Fact:
    """``square`` (0-based, the decision array's order) is ``value`` (``equal``) or is not."""

    square: int
    value: int
    equal: bool


@dataclass(frozen=True)
class Step:
    """A deduction with its reason: the groups (indices and names) and the facts it uses."""

    fact: Fact
    groups: tuple[int, ...]
    names: tuple[str, ...]
    facts: tuple[Fact, ...] | None

    @property
    def size(self) -> int:
        return len(self.groups)


@dataclass
class Explanation:
    """The steps taken, whether they solve the puzzle, and if not why they stopped."""

    steps: list[Step] = field(default_factory=list)
    solved: bool = False
    stuck: str | None = None       # why the explainer stopped short, or None
    checks: int = 0                # solver calls made


class Explainer:
    """Explains one puzzle: of an ``emptying`` type (a flat board, 0 for empty), or of a
    type that gives its ``explanation_board`` (``board.board_of``).

    ``backend``: ``"sat"`` (the checks of sets of groups on SAT, MUS extraction on CP-SAT
    with a SAT twin; an error if the model does not encode), ``"cp-sat"`` (all on CP-SAT,
    as before issue 39), or None: SAT where the model encodes, else CP-SAT."""

    def __init__(self, engine, ptype, params, instance, exact: int = 2,
                 max_size: int | None = None, fallback_squares: int = 4,
                 backend: str | None = None):
        self.ptype, self.params = ptype, params
        self.exact, self.max_size, self.fallback_squares = exact, max_size, fallback_squares
        self.board: ExplanationBoard = board_of(engine, ptype, params, instance)
        groups = groups_of(ptype, params, instance)
        #: Each group's ``ConstraintGroup`` weight and kind (the step rating's).
        self.kinds = tuple((g.weight, g.kind) for g in groups.groups) if groups else ((0.0, ""),)
        self.flat: Flattened = flatten(ptype, params, self.board.data, groups)
        flat = self.flat
        self.names = flat.names
        n = len(flat.squares)
        if n != len(self.board.squares):
            raise PuzzleInputError(f"the puzzle has {len(self.board.squares)} squares, the "
                                   f"model {n}")
        # Which items each group has, and the background items reached through a variable.
        self._items: dict[int, list[int]] = {}
        background: list[int] = []
        for k, g in flat.group_of.items():
            (background if g is None else self._items.setdefault(g, [])).append(k)
        # Background: the definition of each introduced variable, and the other items.
        self._definition: dict[str, list[int]] = {}
        self._plain: dict[str, list[int]] = {}
        for k in background:
            if k in flat.defines:
                self._definition.setdefault(flat.defines[k], []).append(k)
            else:
                for v in flat.refs[k]:
                    self._plain.setdefault(v, []).append(k)
        self._square_of = square_of = {name: x for x, name in enumerate(flat.squares)}
        self._vars: dict[int, set[str]] = {}
        self._scope: dict[int, tuple[int, ...]] = {}
        for g in range(len(self.names)):
            names = set().union(*(flat.refs[k] for k in self._items.get(g, [])))
            self._vars[g] = names
        reach = {g: self._reach(g) for g in self._vars}
        for g in self._vars:  # the squares a group constrains, through the Booleans it uses
            self._scope[g] = tuple(sorted(square_of[v] for v in reach[g] if v in square_of))
        self._adjacent = {g: {h for h in self._vars if h != g and reach[g] & reach[h]}
                          for g in self._vars}
        self._models: dict[frozenset[int], GroupModel] = {}
        self._implied: dict[Any, list[tuple[int, int]]] = {}
        self._solutions: dict[frozenset[int], list[tuple[tuple[int, int], ...]]] = {}
        self._reasons: dict[Fact, frozenset[int]] = {}   # the fallback's last reason per fact
        self._near: dict[frozenset[int], GroupModel] = {}  # switchable models of neighbourhoods
        self.checks = 0
        # The back end: SAT when every constraint encodes (``sat``), else CP-SAT. The model
        # of every group on the SAT back end gives the start (values, a solution); the
        # CP-SAT one with indicators, for MUS extraction past ``exact``, is built when
        # first needed.
        every = frozenset(range(len(self.names)))
        self._kind = BACKENDS[backend or "sat"]
        try:  # (on SAT every group always on: the start needs no indicators)
            start = self._build(every, kind=self._kind, plain=True)
        except Unsupported:
            if backend is not None:
                raise
            self._kind = GroupModel
            start = self._build(every, kind=GroupModel)
        if self._kind is GroupModel:
            self._models[every] = start
        self.backend = self._kind.backend
        #: Each square's values in the model.
        self._all: list[frozenset[int]] = [frozenset(start.domains[x]) for x in range(n)]
        # The state: each square's values left; givens and structure are known.
        self.domains: list[set[int]] = [set(self._all[x]) for x in range(n)]
        self.known: list[bool] = [False] * n
        for x, v in sorted(self.board.known.items()):
            if v not in self.domains[x]:
                raise PuzzleInputError(f"square {self.square_name(x)} holds "
                                       f"{self.value_name(v)}, which the model does not "
                                       "allow there")
            self.domains[x] = {v}
            self.known[x] = True
        answer = self._check(start, [start.indicator(g) for g in start.indicators]
                             + self._fact_literals(start, range(n)))
        if not answer.sat:
            raise PuzzleInputError("the puzzle has no solution")
        self.solution = tuple(answer.values[x] for x in range(n))

    # -- naming ---------------------------------------------------------------------------
    def square_name(self, x: int) -> str:
        return self.board.squares[x]

    def value_name(self, v: int) -> str:
        return self.board.values.get(v, str(v))

    # -- the models of group sets -----------------------------------------------------------
    def _reach(self, g: int) -> set[str]:
        return self._closure(self._vars[g])[0]

    def _closure(self, names: set[str]) -> tuple[set[str], list[int]]:
        """The variables and background items a set of groups brings in: the definitions
        of the variables they use, recursively (what MiniZinc would generate for those
        groups alone), and the other background items on those variables."""
        reach, items, seen = set(names), [], set()
        # (sorted: which variables a plain item brings can depend on the order they are
        # reached in, which must not depend on Python's string hashing)
        todo = sorted(names, reverse=True)
        while todo:
            v = todo.pop()
            for k in self._definition.get(v, []) + self._plain.get(v, []):
                if k not in seen:
                    seen.add(k)
                    items.append(k)
                    new = self.flat.refs[k] - reach
                    reach |= new
                    # A plain item's other variables bring their definitions, not more.
                    todo.extend(sorted(new if k in self.flat.defines else
                                       [u for u in new if u in self._definition], reverse=True))
        # The FlatZinc order: the model CP-SAT gets (its variables' and constraints'
        # order, hence its search) must not depend on Python's string hashing.
        return reach, sorted(items)

    def _model(self, groups: frozenset[int], keep: bool = True) -> GroupModel:
        """The model of ``groups``, kept for later checks unless ``keep`` is false."""
        if groups in self._models:
            return self._models[groups]
        model = self._build(groups)
        if keep:
            self._models[groups] = model
        return model

    def _build(self, groups: frozenset[int], switchable: bool = False, kind=None,
               plain: bool = False) -> GroupModel:
        """The model of ``groups`` and the background they reach (``switchable``: with an
        indicator per group, as the whole model always has)."""
        items = [k for g in sorted(groups) for k in self._items.get(g, [])]
        reach, extra = self._closure(set().union(*(self._vars[g] for g in groups)))
        items += extra
        squares = sorted(self._square_of[v] for v in reach if v in self._square_of)
        if len(groups) == len(self.names):  # the whole model: every square
            squares = list(range(len(self.flat.squares)))
        # Only the whole model switches groups on and off (for MUS extraction); the
        # model of a set of groups has them always on.
        switchable = not plain and (switchable or len(groups) == len(self.names))
        # The switchable models (MUS extraction past ``exact`` groups) stay on CP-SAT:
        # its cores keep the fallback's reasons as small as before (MiniSat's, tried, gave
        # reasons of up to 3 groups more on expert 9x9s; docs/grading.md).
        kind = kind or (GroupModel if switchable else self._kind)
        shared = self.flat.shared
        key = (groups, kind.backend, self._kind.backend, switchable)
        if switchable and key in shared:  # (see Flattened.shared)
            return shared[key]
        model = kind(self.flat, items, squares, self.ptype.name, switchable=switchable)
        if kind is GroupModel and self._kind is SatModel:
            model.twin = SatModel(self.flat, items, squares, self.ptype.name,
                                  switchable=switchable)
        if switchable:
            shared[key] = model
            while len(shared) > SHARED:
                del shared[next(iter(shared))]
        return model

    def _check(self, model: GroupModel, assumptions, want_core=False):
        self.checks += 1
        return model.check(assumptions, want_core)

    # -- facts as literals -------------------------------------------------------------------
    def facts_of(self, squares) -> list[Fact]:
        out = []
        for x in squares:
            dom = self.domains[x]
            if len(dom) == 1:
                out.append(Fact(x, next(iter(dom)), True))
            else:
                out += [Fact(x, w, False) for w in sorted(self._all_values(x) - dom)]
        return out

    def _all_values(self, x: int) -> set[int]:
        return self._all[x]

    @staticmethod
    def _lit(model: GroupModel, fact: Fact):
        lit = model.fact_lits.get(fact)
        if lit is None:
            lit = model.literal(fact.square, fact.value)
            lit = model.fact_lits[fact] = lit if fact.equal else model.neg(lit)
        return lit

    def _fact_literals(self, model: GroupModel, squares) -> list[Any]:
        """The literals of ``facts_of(squares)`` in ``model``, in that order (each square's
        kept per model and values left: the same questions are asked many times)."""
        cache = model.fact_lits
        out: list[Any] = []
        domains = self.domains
        for x in squares:
            key = (x, frozenset(domains[x]))
            lits = cache.get(key)
            if lits is None:
                lits = cache[key] = [self._lit(model, f) for f in self.facts_of((x,))]
            out += lits
        return out

    # -- one group set ------------------------------------------------------------------------
    def implied(self, groups: frozenset[int]) -> list[tuple[int, int]]:
        """The (square, value) pairs that ``groups`` rule out, given the facts in their
        scope, among the values still open."""
        model = self._model(groups)
        squares = model.squares
        key = (groups, tuple(frozenset(self.domains[x]) for x in squares))
        hit = self._implied.get(key)
        if hit is not None:
            return hit
        base = [model.indicator(g) for g in groups if g in model.indicators]
        base += self._fact_literals(model, squares)
        out: list[tuple[int, int]] = []
        # Solution support: ask for a solution showing as many candidates not yet shown
        # as it can (at least one; model.check_any); when there is none, every one left is
        # ruled out. The set's earlier solutions that keep to today's facts still count.
        kept = self._solutions.setdefault(groups, [])
        kept[:] = [sol for sol in kept if all(v in self.domains[x] for x, v in sol)]
        supported = {pair for sol in kept for pair in sol}
        while True:
            left = [(x, w) for x in squares if len(self.domains[x]) > 1
                    for w in sorted(self.domains[x]) if (x, w) not in supported]
            if not left:
                break
            self.checks += 1
            # (the values of squares not placed: a placed square's is the same in every
            # state these solutions are kept for, the rating's trial states included)
            a = model.check_any(base, [model.literal(x, w) for x, w in left],
                                squares=[x for x in squares if not self.known[x]])
            if not a.sat:
                # (the groups with the facts have no solution at all, which cannot be
                # while the puzzle's own solution keeps to the facts: nothing implied)
                if kept or self._check(model, base).sat:
                    out = left
                break
            supported |= set(a.values.items())
            kept.append(tuple(a.values.items()))
        self._implied[key] = out
        return out

    # -- reasons ------------------------------------------------------------------------------
    def _negation(self, model: GroupModel, fact: Fact):
        lit = model.literal(fact.square, fact.value)
        return model.neg(lit) if fact.equal else lit

    def reason_facts(self, groups: frozenset[int], fact: Fact) -> tuple[Fact, ...]:
        """A subset-minimal set of facts that, with ``groups``, force ``fact``."""
        model = self._model(groups)
        on = [model.indicator(g) for g in groups if g in model.indicators]
        facts = [f for f in self.facts_of(model.squares) if not (f.square == fact.square and f.equal)]
        neg = self._negation(model, fact)
        answer = self._check(model, on + [neg] + [self._lit(model, f) for f in facts], True)
        if answer.sat:
            raise AssertionError("a step's reason does not force it")
        core = [facts[i - len(on) - 1] for i in answer.core if i > len(on)]
        i = 0
        while i < len(core):
            trial = core[:i] + core[i + 1:]
            a = self._check(model, on + [neg] + [self._lit(model, f) for f in trial], True)
            if a.sat:
                i += 1
            else:  # refine: keep only what this core used
                used = {k - len(on) - 1 for k in a.core if k > len(on)}
                core = [f for k, f in enumerate(trial) if k in used or k < i]
        return tuple(sorted(core, key=lambda f: (f.square, f.value)))

    def mus_groups(self, fact: Fact) -> frozenset[int] | None:
        """Deletion-based: a subset-minimal set of groups that forces ``fact`` with every
        known fact; None when all the groups do not. Groups are tried for deletion
        farthest first (by steps through groups that share a variable, from those on the
        square), so that what is left is near the square."""
        every = frozenset(range(len(self.names)))
        distance = {g: 0 for g in every if fact.square in self._scope[g]}
        frontier = list(distance)
        while frontier:
            nxt = []
            for g in frontier:
                for h in self._adjacent[g]:
                    if h not in distance:
                        distance[h] = distance[g] + 1
                        nxt.append(h)
            frontier = nxt
        # Facts only grow, so the groups that forced this fact in an earlier round still
        # do: deletion starts from them. Else the groups near the square are asked first,
        # on their own (switchable) model, much smaller than the whole one on a large
        # board, then the whole model.
        core, sub = self._reasons.get(fact), None
        for radius in NEAR if core is None else ():
            near = frozenset(g for g, d in distance.items() if d <= radius)
            if 3 * len(near) > len(every):  # not much smaller than the whole model
                break
            if near not in self._near:
                self._near[near] = self._build(near, switchable=True)
            core = self._forces(near, fact, self._near[near])
            if core is not None:
                sub = self._near[near]
                break
        if core is None:
            core = self._forces(every, fact)
        if core is None:
            return None
        # Deletion checks run on a model of those groups (or of the core's groups, with
        # their indicators), smaller than the whole model.
        if sub is None and len(core) < len(every):
            if frozenset(core) not in self._near:  # (kept: other facts' cores are alike)
                self._near[frozenset(core)] = self._build(frozenset(core), switchable=True)
            sub = self._near[frozenset(core)]
            if self._forces(frozenset(core), fact, sub) is None:
                sub = None  # (the whole model's background, beyond their reach, was needed)
        order = sorted(every, key=lambda g: (-distance.get(g, len(every)), g))
        keep = set(core)  # clause-set refinement: what the solver's core used
        for g in order:
            if g not in keep:
                continue
            trial = frozenset(keep - {g})
            found = self._forces(trial, fact, sub) if trial else None
            if found is not None:
                keep = set(found)
        # Each group is under its indicator in the whole model (flatten), so a group that
        # is off there is absent: what is kept forces the fact by itself.
        self._reasons[fact] = frozenset(keep)
        return frozenset(keep)

    def _forces(self, groups: frozenset[int], fact: Fact, within: GroupModel | None = None
                ) -> frozenset[int] | None:
        """Whether ``groups`` force ``fact`` with every known fact: ``None`` if not, else
        the groups the solver's core used (all of them, on the model of the set). Checked
        on the set's own model when one was built, else on ``within`` (a switchable model
        of more groups) or the whole model, with the other groups off."""
        model = self._models.get(groups) or within or self._model(frozenset(range(len(self.names))))
        on = [g for g in sorted(groups) if g in model.indicators]
        if fact.square not in model.domains:
            return None

        def assumptions(model) -> list[Any]:
            lits = [model.indicator(g) for g in on] + [self._negation(model, fact)]
            lits += self._fact_literals(model, [x for x in model.squares if x != fact.square] +
                                        ([fact.square] if not fact.equal else []))
            if fact.equal:
                lits += [model.neg(model.literal(fact.square, w))
                         for w in self._all_values(fact.square) - self.domains[fact.square]]
            return lits
        # A CP-SAT model's SAT twin (the same constraints) answers first: a solution there
        # is one on CP-SAT too, so only a refutation, whose core deletion uses, is asked
        # of CP-SAT (its cores keep the reasons what they were).
        twin = getattr(model, "twin", None)
        if twin is not None and self._check(twin, assumptions(twin)).sat:
            return None
        answer = self._check(model, assumptions(model), want_core=bool(on))
        if answer.sat:
            return None
        if not on:
            return groups
        used = frozenset(on[i] for i in answer.core if i < len(on))
        # A group that is not in the core is not needed; groups without constraints of
        # their own in this model (none here) would not be in it either.
        return used | (groups - set(model.indicators))

    # -- rounds -------------------------------------------------------------------------------
    def _sets(self, k: int) -> Iterator[frozenset[int]]:
        """Connected sets of k groups, each once."""
        if k == 1:
            for g in range(len(self.names)):
                yield frozenset([g])
            return
        seen: set[frozenset[int]] = set()
        for smaller in self._sets(k - 1):
            for g in sorted(set().union(*(self._adjacent[h] for h in smaller)) - smaller):
                s = smaller | {g}
                if s not in seen:
                    seen.add(s)
                    yield s

    def _open(self) -> list[int]:
        return [x for x in range(len(self.domains)) if len(self.domains[x]) > 1]

    def next_steps(self) -> tuple[list[Step], str | None]:
        """The steps of the next round (all of the smallest size), or ``([], why)``, their
        facts not yet found (``None``; ``with_reason`` finds them)."""
        open_ = self._open()
        if not open_:
            return [], None
        for k in range(1, self.exact + 1):
            if self.max_size is not None and k > self.max_size:
                break
            found: dict[int, tuple[frozenset[int], set[int]]] = {}
            for s in self._sets(k):
                for x, w in self.implied(s):
                    if x not in found:
                        found[x] = (s, set())
                    if found[x][0] == s:
                        found[x][1].add(w)
            if found:
                return self._steps(found), None
        if self.max_size is not None and self.max_size <= self.exact:
            return [], f"no step has a reason of at most {self.max_size} groups"
        return self._fallback(open_)

    def _steps(self, found: dict[int, tuple[frozenset[int], set[int]]]) -> list[Step]:
        steps = []
        for x in sorted(found, key=lambda x: (len(self.domains[x] - found[x][1]) != 1, x)):
            groups, ruled = found[x]
            left = self.domains[x] - ruled
            facts = [Fact(x, next(iter(left)), True)] if len(left) == 1 else \
                [Fact(x, w, False) for w in sorted(ruled)]
            for fact in facts:
                steps.append(self._step(groups, fact))
        return steps

    def _step(self, groups: frozenset[int], fact: Fact) -> Step:
        gs = tuple(sorted(groups))
        return Step(fact, gs, tuple(self.names[g] for g in gs), None)

    def with_reason(self, step: Step) -> Step:
        """``step`` with the facts of its reason, from the facts known now (which must be
        those of the round that found it)."""
        if step.facts is not None:
            return step
        return replace(step, facts=self.reason_facts(frozenset(step.groups), step.fact))

    def _fallback(self, open_: list[int]) -> tuple[list[Step], str | None]:
        """Past ``exact``: for the squares with the fewest values left, their value and each
        value ruled out, a subset-minimal reason each; the smallest win (all the facts
        with a reason of the least size, a square's value before the values it rules out)."""
        found: list[tuple[int, bool, frozenset[int], Fact]] = []
        squares = sorted(open_, key=lambda x: (len(self.domains[x]), x))[:self.fallback_squares]
        for x in squares:
            facts = [Fact(x, self.solution[x], True)]
            facts += [Fact(x, w, False) for w in sorted(self.domains[x] - {self.solution[x]})]
            for fact in facts:
                groups = self.mus_groups(fact)
                if groups is not None:
                    found.append((len(groups), not fact.equal, groups, fact))
        if not found:
            # No square near the end is forced: look for any value ruled out at all.
            for x in open_:
                for w in sorted(self.domains[x] - {self.solution[x]}):
                    groups = self.mus_groups(Fact(x, w, False))
                    if groups is not None:
                        found.append((len(groups), True, groups, Fact(x, w, False)))
                        break
                if found:
                    break
        if not found:
            return [], "no step is forced: the puzzle needs search (it has more than one solution from here)"
        least = min(f[0] for f in found)
        if self.max_size is not None and least > self.max_size:
            return [], f"no step has a reason of at most {self.max_size} groups"
        placed = {f[3].square for f in found if f[0] == least and f[3].equal}
        return [self._step(groups, fact) for size, _, groups, fact in sorted(
            found, key=lambda f: (f[0], f[1], f[3].square, f[3].value))
            if size == least and (fact.equal or fact.square not in placed)], None

    def apply(self, step: Step) -> None:
        f = step.fact
        if f.equal:
            self.domains[f.square] = {f.value}
            self.known[f.square] = True
        else:
            self.domains[f.square].discard(f.value)

    def _singles(self) -> list[Step]:
        """Squares left with one value by "!=" steps, not yet said: steps of size 0, the
        ruled-out values their reason."""
        out = []
        for x, dom in enumerate(self.domains):
            if len(dom) == 1 and not self.known[x]:
                v = next(iter(dom))
                out.append(Step(Fact(x, v, True), (), (), tuple(
                    Fact(x, w, False) for w in sorted(self._all_values(x) - {v}))))
        return out

    def run(self, limit: int | None = None, reasons: bool = True,
            seconds: float | None = None, clock=time.monotonic,
            rounds: int | None = None) -> Explanation:
        """Steps until solved, stuck, ``limit`` steps, ``rounds`` whole rounds, or (between
        rounds) ``seconds`` of ``clock`` (wall time; ``time.process_time`` for CPU), never
        before the first round: a stop leaves at least its steps; the steps found before a
        stop are sound all the same. ``limit`` may cut a round short, so the steps after
        it can differ from a whole run's; ``rounds`` never does."""
        out = Explanation()
        deadline = None if seconds is None else clock() + seconds
        done = 0
        while (limit is None or len(out.steps) < limit) and (rounds is None or done < rounds):
            done += 1
            if deadline is not None and out.steps and clock() >= deadline:
                out.stuck = f"stopped after {seconds:g} s"
                break
            steps = self._singles()
            why = None
            if not steps:
                steps, why = self.next_steps()
            if not steps:
                out.stuck = why
                break
            steps = steps[:None if limit is None else limit - len(out.steps)]
            if reasons:  # before any is applied: each reason is of the round's facts
                steps = [self.with_reason(step) for step in steps]
            for step in steps:
                out.steps.append(step)
                self.apply(step)
        out.solved = all(self.known)
        out.checks = self.checks
        return out
