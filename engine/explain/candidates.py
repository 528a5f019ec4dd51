"""The step rating's fast path: candidates and chains, for puzzles whose every group says
"each value exactly once".

When each constraint group is one all-different over as many squares as there are
values (and no other rule constrains the squares), what a group forces is known without
a solver: a square holds one of its candidate values, and each value has exactly one
square in each group. The state is then each square's candidates as a bit set, and every
technique is a pattern on groups and candidates, named by what it uses and never by a
puzzle type:

- *singles*: a group with one empty square (full house); a value with one square left in
  a group (hidden single); a square with one value left (naked single);
- *intersections*: a value whose squares in one group all lie in another group;
- *subsets*: n squares of a group holding n values between them (naked), or n values of
  a group with n squares between them (hidden);
- *fish*: n disjoint groups of one kind whose squares for a value lie in n disjoint
  groups of another kind;
- *wings*: a square with two or three values and two squares with two values it shares a
  group with (the XY and XYZ patterns);
- *chains*, on candidates (square, value) that are on (the square holds the value) or off:
  on implies off for the same value in every square sharing a group and (a *cell link*)
  for the square's other values; off implies on for the other value of a square with two
  values (a cell link) and for the other square of a group where the value has two
  squares left (a *group link*). A chain from "p on" to "p off" rules p out (and from
  "p off" to "p on" places it): an X-chain uses group links only, an XY-chain cell
  links only, an alternating inference chain both. A *nice loop* closes on itself and
  rules out every candidate that sees both ends of one of its weak links.
- *forcing chains* follow several chains at once: every value of a square (cell forcing)
  or every square of a value in a group (region forcing) implying the same fact, a
  candidate whose on and off both imply it (double), or whose on implies a fact and its
  negation (contradiction; nishio when only group links of its own value are used);
- *dynamic* forms propagate on a copy of the state, so that links appear as candidates
  go, and the strongest (``plus``) adds intersections to the propagation.

A chain's cost is its technique's base cost plus 0.1 each time its length (nodes, or the
nodes of all its chains) passes 4, 6, 8, 12, 16, 24, ... (``length_step``). Past the
dynamic forms the path stops as needing search, as it does when a step would need more
than ``EFFORT`` propagated implications: the rating never hangs.

The costs come from the step rating's table (``ladder.COSTS``), passed in, so that this
module names no technique's cost of its own.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

#: The most implications a step's search may propagate before the path stops as needing
#: search (a bound on effort, not on time: the same on a busy machine).
EFFORT = 3_000_000
#: What each strong link in a group lighter than the heaviest adds to a strong-link
#: chain's cost (SE: a skyscraper, two in rows, 4.0; a kite, one in a box, 4.1).
STRONG_STEP = 0.1
#: What a grouped node adds to a strong-link chain (SE: a grouped skyscraper 4.3).
GROUPED_STEP = 0.3


class NeedsSearch(Exception):
    """The next step would need more than the bounded effort."""


def popcount(b: int) -> int:
    return b.bit_count()


def bits(b: int) -> list[int]:
    out = []
    while b:
        low = b & -b
        out.append(low)
        b ^= low
    return out


def length_step(nodes: int) -> float:
    """The cost a chain's length adds: 0.1 for each of 4, 6, 8, 12, 16, 24, 32, ... that
    ``nodes - 2`` exceeds (the ceilings grow by half and by a third in turn)."""
    added, ceiling, odd, length = 0.0, 4, False, nodes - 2
    while length > ceiling:
        added += 0.1
        ceiling = ceiling * 3 // 2 if not odd else ceiling * 4 // 3
        odd = not odd
    return round(added, 4)


@dataclass(frozen=True)
class Hint:
    """A step: its technique, cost, the squares it fills ``(square, bit)``, the candidates
    it rules out, and the groups it uses."""

    technique: str
    cost: float
    place: tuple[tuple[int, int], ...] = ()
    remove: tuple[tuple[int, int], ...] = ()
    groups: tuple[int, ...] = ()


class Grid:
    """The candidate state of a puzzle whose groups are each "every value exactly once".

    ``groups``: each group's squares; ``values``: the values (a square's value ``v`` is
    bit ``values.index(v)``); ``weights`` and ``kinds``: each group's (``ConstraintGroup``);
    ``costs``: the step rating's table (``ladder.COSTS``)."""

    def __init__(self, groups: Sequence[Sequence[int]], n: int, values: Sequence[int],
                 weights: Sequence[float], kinds: Sequence[str], costs: Mapping[str, float]):
        self.groups = [tuple(g) for g in groups]
        self.n, self.values = n, list(values)
        self.full = (1 << len(self.values)) - 1
        self.weights, self.kinds, self.costs = list(weights), list(kinds), costs
        self.of: list[list[int]] = [[] for _ in range(n)]
        for k, g in enumerate(self.groups):
            for x in g:
                self.of[x].append(k)
        self.peers: list[frozenset[int]] = [
            frozenset(y for k in self.of[x] for y in self.groups[k] if y != x) for x in range(n)]
        self.cand = [self.full] * n
        self.placed = [False] * n
        self.effort = 0
        # Kinds whose groups are pairwise disjoint (a partition of some squares): fish
        # bases and covers are taken from them.
        by_kind: dict[str, list[int]] = {}
        for k, kind in enumerate(self.kinds):
            by_kind.setdefault(kind, []).append(k)
        self.by_kind = {kind: ks for kind, ks in by_kind.items()
                        if sum(len(self.groups[k]) for k in ks)
                        == len(set().union(*(self.groups[k] for k in ks)))}

    # -- the state -----------------------------------------------------------------------------
    def copy(self) -> "Grid":
        other = object.__new__(Grid)
        other.__dict__.update(self.__dict__)
        other.cand, other.placed = list(self.cand), list(self.placed)
        return other

    def place(self, x: int, b: int) -> None:
        self.cand[x] = b
        self.placed[x] = True
        for y in self.peers[x]:  # the free eliminations (pencil marks)
            if not self.placed[y]:
                self.cand[y] &= ~b

    def apply(self, hint: Hint) -> None:
        for x, b in hint.remove:
            self.cand[x] &= ~b
        for x, b in hint.place:
            if not self.placed[x]:
                self.place(x, b)

    def solved(self) -> bool:
        return all(self.placed)

    def broken(self) -> bool:
        """Whether the state has a square without candidates or a group without a square for
        a value it still needs."""
        if any(c == 0 for c in self.cand):
            return True
        for g in self.groups:
            seen = 0
            for x in g:
                seen |= self.cand[x]
            if seen != self.full:
                return True
        return False

    def where(self, k: int, b: int) -> list[int]:
        """The squares of group ``k`` not placed that can hold bit ``b``."""
        return [x for x in self.groups[k] if not self.placed[x] and self.cand[x] & b]

    def _group_needs(self, k: int) -> int:
        done = 0
        for x in self.groups[k]:
            if self.placed[x]:
                done |= self.cand[x]
        return self.full & ~done

    # -- singles -------------------------------------------------------------------------------
    def full_houses(self) -> list[Hint]:
        out = []
        for k, g in enumerate(self.groups):
            empty = [x for x in g if not self.placed[x]]
            if len(empty) == 1 and popcount(self.cand[empty[0]]) == 1:
                out.append(Hint("full house", self.costs["full house"], ((empty[0], self.cand[empty[0]]),), (), (k,)))
        return out

    def hidden_singles(self, only: Sequence[int] | None = None, value: int | None = None) -> list[Hint]:
        out = []
        for k in range(len(self.groups)) if only is None else only:
            need = self._group_needs(k)
            for b in bits(need if value is None else need & value):
                at = self.where(k, b)
                if len(at) == 1:
                    out.append(Hint("hidden single", self.costs["hidden single"] + self.weights[k],
                                    ((at[0], b),), (), (k,)))
        return out

    def naked_singles(self) -> list[Hint]:
        return [Hint("naked single", self.costs["naked single"], ((x, c),))
                for x, c in enumerate(self.cand) if not self.placed[x] and popcount(c) == 1]

    # -- intersections and subsets ---------------------------------------------------------------
    def intersections(self) -> list[Hint]:
        out = []
        for a, ga in enumerate(self.groups):
            for b in bits(self._group_needs(a)):
                at = self.where(a, b)
                if len(at) < 2:
                    continue
                common = set(self.of[at[0]]).intersection(*(self.of[x] for x in at[1:])) - {a}
                for c in sorted(common):
                    remove = tuple((y, b) for y in self.where(c, b) if y not in at)
                    if not remove:
                        continue
                    changed = {y for y, _ in remove}
                    follow = [k for k in range(len(self.groups)) if k not in (a, c)
                              and self.kinds[k] == self.kinds[a] and changed & set(self.groups[k])]
                    trial = self.copy()
                    for y, _ in remove:
                        trial.cand[y] &= ~b
                    direct = bool(trial.hidden_singles(follow, b))
                    name = "direct intersection" if direct else "intersection"
                    out.append(Hint(name, self.costs[name] + self.weights[a], (), remove, (a, c)))
        return out

    def subsets(self, largest: int = 4) -> list[Hint]:
        out = []
        for k, g in enumerate(self.groups):
            open_ = [x for x in g if not self.placed[x]]
            empty = [x for x in open_ if popcount(self.cand[x]) > 1]
            need = bits(self._group_needs(k))
            for n in range(2, min(largest, len(open_) - 1) + 1):
                for xs in combinations(empty, n):  # naked: n squares, n values
                    union = 0
                    for x in xs:
                        union |= self.cand[x]
                    if popcount(union) == n:
                        remove = tuple((y, b) for y in open_ if y not in xs
                                       for b in bits(self.cand[y] & union))
                        if remove:
                            out.append(Hint("naked subset", self.costs[f"naked subset {n}"], (), remove, (k,)))
                for vs in combinations(need, n):  # hidden: n values, n squares
                    mask = sum(vs)
                    xs = [x for x in open_ if self.cand[x] & mask]
                    if len(xs) == n and all(any(self.cand[x] & b for x in xs) for b in vs):
                        remove = tuple((x, b) for x in xs for b in bits(self.cand[x] & ~mask))
                        if not remove:
                            continue
                        trial = self.copy()
                        for x, b in remove:
                            trial.cand[x] &= ~b
                        direct = n < 4 and bool(trial.hidden_singles([k]))
                        name = "direct hidden subset" if direct else "hidden subset"
                        out.append(Hint(name, self.costs[f"{name} {n}"], (), remove, (k,)))
        return out

    def fish(self, largest: int = 4) -> list[Hint]:
        """n disjoint groups of one kind (the base) whose squares for a value lie in n
        groups of another kind (the cover): the value goes from the cover's other squares."""
        out = []
        kinds = list(self.by_kind)
        for b in bits(self.full):
            for base_kind in kinds:
                rows = [(k, self.where(k, b)) for k in self.by_kind[base_kind]]
                rows = [(k, at) for k, at in rows if 2 <= len(at) <= largest]
                for n in range(2, largest + 1):
                    for combo in combinations(rows, n):
                        squares = {x for _, at in combo for x in at}
                        for cover_kind in kinds:
                            if cover_kind == base_kind:
                                continue
                            covers = {h for x in squares for h in self.of[x]
                                      if self.kinds[h] == cover_kind}
                            if len(covers) != n:
                                continue
                            remove = tuple((y, b) for h in sorted(covers) for y in self.where(h, b)
                                           if y not in squares)
                            if remove:
                                out.append(Hint("fish", self.costs[f"fish {n}"], (), remove,
                                                tuple(sorted({k for k, _ in combo} | covers))))
        return out

    def wings(self, largest: int = 5) -> list[Hint]:
        """n squares holding n values between them, every value but one (z) *restricted*
        (its squares in the set share a group pairwise): one of the set holds z, so z
        goes from the squares that share a group with all the set's z squares. Three
        squares: an XY-wing when all hold two values, else an XYZ-wing; four and five:
        WXYZ- and VWXYZ-wings. As SE has them, one square of the set (the pivot) shares a
        group with each of the others: the set is grown from each square with squares it
        shares a group with, its values at most n."""
        out = []
        seen: set[frozenset[int]] = set()
        open_ = [x for x in range(self.n) if not self.placed[x] and 2 <= popcount(self.cand[x]) <= largest]
        eligible = frozenset(open_)

        def grow(members: list[int], union: int, arms: list[int], start: int, loose: int):
            k = len(members)
            if k >= 3 and popcount(union) == k:
                key = frozenset(members)
                if key not in seen:
                    seen.add(key)
                    self._wing(members, union, out)
            if k == largest:
                return
            for i in range(start, len(arms)):
                y = arms[i]
                cy = self.cand[y]
                if popcount(union | cy) > largest:
                    continue
                # a value stays restricted while each new holder shares a group with the
                # set's holders; a set with two loose values is no wing, nor are its growths
                more = loose
                for b in bits(cy & union & ~loose):
                    if any(self.cand[x] & b and x not in self.peers[y] for x in members):
                        more |= b
                if popcount(more) < 2:
                    grow(members + [y], union | cy, arms, i + 1, more)

        for x in open_:  # the pivot, and squares it shares a group with
            grow([x], self.cand[x], sorted(self.peers[x] & eligible), 0, 0)
        return out

    def _wing(self, members: list[int], union: int, out: list[Hint]) -> None:
        loose = []
        for b in bits(union):
            holders = [x for x in members if self.cand[x] & b]
            if not all(y in self.peers[x] for x, y in combinations(holders, 2)):
                loose.append((b, holders))
        if len(loose) != 1:
            return
        z, holders = loose[0]
        see = frozenset.intersection(*(self.peers[x] for x in holders))
        remove = tuple((w, z) for w in sorted(see) if w not in members
                       and not self.placed[w] and self.cand[w] & z)
        if not remove:
            return
        k = len(members)
        if any(set(members) <= set(g) for g in self.groups):
            return  # a naked subset
        if not any(all(y in self.peers[x] for y in members if y != x) for x in members):
            return  # no pivot: a square sharing a group with each of the others
        name = ("xy-wing" if all(popcount(self.cand[x]) == 2 for x in members) else "xyz-wing") \
            if k == 3 else f"wing {k}"
        out.append(Hint(name, self.costs[name], (), remove))

    def strong_links(self, largest: int = 6, grouped: int = 3) -> list[Hint]:
        """One value's chains of n strong links joined by weak ones: one end holds the
        value, so it goes from the squares sharing a group with both ends. A *node* is a
        square, or (grouped) the value's squares of a group that lie in one other group;
        a strong link is a group whose squares for the value are two nodes; a weak link
        joins two nodes whose squares all share a group. Two strong links: a skyscraper,
        a kite, a turbot fish; more: longer X-chains; grouped ones (nodes of several
        squares, up to ``grouped`` links) cost ``GROUPED_STEP`` more."""
        out = []
        top = max(self.weights, default=0.0)
        for b in bits(self.full):
            links: dict[frozenset[int], list[tuple[frozenset[int], float]]] = {}
            for k in range(len(self.groups)):
                at = self.where(k, b)
                if len(at) < 2:
                    continue
                places = frozenset(at)
                nodes = {frozenset([x]) for x in at}
                nodes |= {places & frozenset(self.groups[h]) for x in at for h in self.of[x] if h != k}
                nodes = {n for n in nodes if n and n != places}
                for n in nodes:
                    rest = places - n
                    if rest in nodes:
                        links.setdefault(n, []).append((rest, self.weights[k]))
            holders = [x for x in range(self.n) if not self.placed[x] and self.cand[x] & b]
            sees = {}

            def seen_by(node: frozenset[int]) -> frozenset[int]:
                if node not in sees:
                    sees[node] = frozenset.intersection(*(self.peers[x] for x in node))
                return sees[node]

            def extend(chain: list[frozenset[int]], used: frozenset[int], light: int, links_n: int):
                big = any(len(n) > 1 for n in chain)
                if links_n >= 2:
                    see = seen_by(chain[0]) & seen_by(chain[-1])
                    remove = tuple((w, b) for w in holders if w in see and w not in used)
                    if remove:
                        name = f"strong links {links_n}"
                        cost = self.costs[name] + STRONG_STEP * light + (GROUPED_STEP if big else 0.0)
                        out.append(Hint(name, round(cost, 4), (), remove))
                if links_n == largest or (big and links_n >= grouped):
                    return
                near = seen_by(chain[-1])
                for node, nxt in links.items():  # a weak link from the end, then a strong one
                    if node & used or not node <= near:
                        continue
                    for other, weight in nxt:
                        if not other & used:
                            extend(chain + [node, other], used | node | other,
                                   light + (weight < top), links_n + 1)

            for node, nxt in links.items():
                for other, weight in nxt:
                    extend([node, other], node | other, int(weight < top), 1)
        return out

    def _link_weight(self, x: int, y: int) -> float:
        """The heaviest weight of a group holding both squares."""
        return max(self.weights[k] for k in self.of[x] if y in self.groups[k])

    # -- uniqueness -----------------------------------------------------------------------------
    def bug(self) -> list[Hint]:
        """A bivalue universal grave plus one: every square left holds two values but one,
        which holds three, and every value is in two squares of each group but one value,
        in three of that square's groups. Were it not that value, every square would
        hold one of two values, each group twice: two solutions. Assumes one solution."""
        open_ = [x for x in range(self.n) if not self.placed[x]]
        three = [x for x in open_ if popcount(self.cand[x]) != 2]
        if len(three) != 1 or popcount(self.cand[three[0]]) != 3:
            return []
        x = three[0]
        extra = 0
        for k, g in enumerate(self.groups):
            for b in bits(self._group_needs(k)):
                count = len(self.where(k, b))
                if count == 3 and x in g and self.cand[x] & b:
                    extra |= b
                elif count != 2:
                    return []
        if popcount(extra) != 1:
            return []
        return [Hint("bug", self.costs["bug"], ((x, extra),))]

    def rectangles(self) -> list[Hint]:
        """A unique rectangle (type 1): four squares, each group meeting them in two, three
        of them holding the same two values only and the fourth more: the fourth is not
        one of the two, or the four could swap them (two solutions). Assumes one solution."""
        out = []
        pairs: dict[int, list[int]] = {}
        for x in range(self.n):
            if not self.placed[x] and popcount(self.cand[x]) == 2:
                pairs.setdefault(self.cand[x], []).append(x)
        for two, xs in pairs.items():
            for trio in combinations(xs, 3):
                for d in range(self.n):
                    if d in trio or self.placed[d] or self.cand[d] & two != two or self.cand[d] == two:
                        continue
                    four = (*trio, d)
                    meet = {}
                    for y in four:
                        for k in self.of[y]:
                            meet[k] = meet.get(k, 0) + 1
                    if all(c == 2 for c in meet.values()):
                        out.append(Hint("unique rectangle", self.costs["unique rectangle"], (),
                                        tuple((d, b) for b in bits(two))))
        return out

    # -- chains --------------------------------------------------------------------------------
    # A node is (square, bit, on). Links are those of the state the search starts from.
    def _on_to_off(self, x: int, b: int, cell: bool):
        for y in self.peers[x]:
            if not self.placed[y] and self.cand[y] & b:
                yield (y, b, False)
        if cell:
            for c in bits(self.cand[x] & ~b):
                yield (x, c, False)

    def _off_to_on(self, x: int, b: int, cell: bool, group: bool):
        if cell and popcount(self.cand[x]) == 2:
            yield (x, self.cand[x] & ~b, True)
        if group:
            for y in self._links.get((x, b), ()):
                yield (y, b, True)

    def _conjugates(self) -> dict[tuple[int, int], list[int]]:
        """Each candidate's partners in the groups where its value has two squares left
        (the state's group links; made by the searches that use them, ``_linked``)."""
        conj: dict[tuple[int, int], list[int]] = {}
        for k in range(len(self.groups)):
            for b in bits(self._group_needs(k)):
                at = self.where(k, b)
                if len(at) == 2:
                    conj.setdefault((at[0], b), []).append(at[1])
                    conj.setdefault((at[1], b), []).append(at[0])
        return conj

    def _closure(self, starts, cell: bool, group: bool, values: int | None = None):
        """What the ``starts`` imply through the static links (breadth first): each node
        reached with its parent; ``values`` keeps to the chains of those bits."""
        parent = {s: None for s in starts}
        todo = deque(starts)
        while todo:
            node = todo.popleft()
            x, b, on = node
            nxt = self._on_to_off(x, b, cell) if on else self._off_to_on(x, b, cell, group)
            for m in nxt:
                self.effort += 1
                if m not in parent and (values is None or m[1] & values):
                    parent[m] = node
                    todo.append(m)
        if self.effort > EFFORT:
            raise NeedsSearch(f"a step needs more than {EFFORT} implications")
        return parent

    @staticmethod
    def _length(parent, node) -> int:
        n = 0
        while node is not None:
            n += 1
            node = parent[node]
        return n

    def _candidates(self):
        return [(x, b) for x in range(self.n) if not self.placed[x] for b in bits(self.cand[x])]

    @staticmethod
    def _kind(path) -> str:
        """A chain's class by the links it uses: cell links only (``xy-``), group links
        only (``x-``), or both."""
        cell = group = False
        for (x, _, on), (y, _, _) in zip(path, path[1:]):
            if x == y:
                cell = True
            elif not on:
                group = True
        return "x" if not cell else ("xy" if not group else "")

    @staticmethod
    def _path(parent, node) -> list:
        path = []
        while node is not None:
            path.append(node)
            node = parent[node]
        path.reverse()
        return path

    def chains(self) -> list[Hint]:
        """Chains from one candidate (the shortest, through group and cell links): to its
        own negation (a forcing chain: an X-chain, an XY-chain or an alternating inference
        chain, by the links it uses), or from "p on" back to "p on" (a nice loop: every
        weak link of the loop is then a fact, and what sees both its ends goes)."""
        out = []
        self._links = self._conjugates()
        names = {"x": ("x-chain", "x-loop"), "xy": ("xy-chain", "xy-loop"), "": ("aic", "nice loop")}
        for x, b in self._candidates():
            for on in (True, False):
                start = (x, b, on)
                parent = self._closure([start], True, True)
                end = (x, b, not on)
                if end in parent:
                    path = self._path(parent, end)
                    name = names[self._kind(path)][0]
                    move = ((x, b),)
                    out.append(Hint(name, self.costs[name] + length_step(len(path)),
                                    () if on else move, move if on else ()))
                if not on:
                    continue
                # A loop: an off node whose strong link leads back to the start.
                for node in list(parent):
                    y, c, state = node
                    if state or (y, c) == (x, b) or start not in self._off_to_on(y, c, True, True):
                        continue
                    path = self._path(parent, node)
                    if len({(p[0], p[1]) for p in path}) != len(path):
                        continue
                    remove = self._loop_removals(path + [start])
                    if remove:
                        name = names[self._kind(path + [start])][1]
                        out.append(Hint(name, self.costs[name] + length_step(len(path)), (),
                                        tuple(sorted(remove))))
        return out

    def _loop_removals(self, path) -> set[tuple[int, int]]:
        """The weak links of a loop (on -> off) as facts: what sees both their ends goes."""
        on_nodes = {(p[0], p[1]) for p in path}
        out = set()
        for (x, b, on), (y, c, _) in zip(path, path[1:]):
            if not on:
                continue
            if x == y:  # a cell link: the square's other values go
                for d in bits(self.cand[x] & ~(b | c)):
                    out.add((x, d))
            elif b == c:
                for w in self.peers[x] & self.peers[y]:
                    if not self.placed[w] and self.cand[w] & b and (w, b) not in on_nodes:
                        out.add((w, b))
        return out

    # -- forcing chains on several chains ---------------------------------------------------------
    def _implied(self, starts, mode: str, values: int | None = None):
        """What ``starts`` imply: {(square, bit): (on, length)}, or None when they imply a
        contradiction (with its length). ``mode``: "static" (the state's links), "dynamic"
        (propagated on a copy of the state), "plus" (dynamic, and intersections)."""
        if mode == "static":
            parent = self._closure(starts, True, True, values)
            facts: dict[tuple[int, int], tuple[bool, int]] = {}
            for node in parent:
                key = (node[0], node[1])
                length = self._length(parent, node)
                if key in facts and facts[key][0] != node[2]:
                    return None, facts[key][1] + length
                if key not in facts:
                    facts[key] = (node[2], length)
            return facts, 0
        return self._dynamic(starts, mode == "plus")

    def _dynamic(self, starts, plus: bool):
        """Propagate on a copy: each node's ancestors as a bit set over node numbers."""
        g = self.copy()
        number: dict[tuple[int, int, bool], int] = {}
        anc: dict[tuple[int, int, bool], int] = {}
        facts: dict[tuple[int, int], tuple[bool, int]] = {}
        todo = deque()

        def add(node, a):
            key = (node[0], node[1])
            if key in facts:
                if facts[key][0] != node[2]:
                    raise _Contradiction(popcount(a) + facts[key][1])
                return
            number[node] = len(number)
            anc[node] = a | (1 << number[node])
            facts[key] = (node[2], popcount(anc[node]))
            todo.append(node)

        try:
            for s in starts:
                add(s, 0)
            while todo:
                x, b, on = node = todo.popleft()
                a = anc[node]
                self.effort += 1
                if on:
                    if not g.cand[x] & b:
                        raise _Contradiction(popcount(a))
                    for c in bits(g.cand[x] & ~b):
                        add((x, c, False), a)
                    for y in self.peers[x]:
                        if not g.placed[y] and g.cand[y] & b:
                            add((y, b, False), a)
                    continue
                if not g.cand[x] & b:
                    continue
                g.cand[x] &= ~b
                if g.cand[x] == 0:
                    raise _Contradiction(popcount(a))
                if not g.placed[x] and popcount(g.cand[x]) == 1:
                    # the square's other values, all off, put it on
                    why = a
                    for c in bits(self.cand[x] & ~g.cand[x]):
                        why |= anc.get((x, c, False), 0)
                    add((x, g.cand[x], True), why)
                for k in self.of[x]:
                    at = g.where(k, b)
                    if g._group_needs(k) & b and len(at) <= 1:
                        if not at:
                            raise _Contradiction(popcount(a))
                        why = a
                        for y in self.groups[k]:
                            if self.cand[y] & b and y != at[0]:
                                why |= anc.get((y, b, False), 0)
                        add((at[0], b, True), why)
                if plus and not todo:
                    for h in g.intersections():
                        for y, c in h.remove:
                            if g.cand[y] & c:
                                add((y, c, False), a)
                if self.effort > EFFORT:
                    raise NeedsSearch(f"a step needs more than {EFFORT} implications")
        except _Contradiction as bad:
            return None, bad.length
        return facts, 0

    def forcing(self, mode: str) -> list[Hint]:
        """Forcing chains: contradiction (nishio in static mode when one value's group links
        suffice), double, cell and region forcing chains, statically or dynamically."""
        out = []
        self._links = self._conjugates()
        prefix = "" if mode == "static" else ("dynamic " if mode == "dynamic" else "dynamic+ ")
        cands = self._candidates()
        on_facts: dict[tuple[int, int], dict] = {}
        for x, b in cands:
            if mode == "static":
                nishio, length = self._implied([(x, b, True)], mode, values=b)
                if nishio is None:
                    out.append(Hint("nishio", self.costs["nishio"] + length_step(length), (), ((x, b),)))
                    continue
            facts, length = self._implied([(x, b, True)], mode)
            if facts is None:
                name = prefix + "contradiction forcing chain"
                out.append(Hint(name, self.costs[name] + length_step(length), (), ((x, b),)))
                continue
            on_facts[(x, b)] = facts
        if out:
            return out
        # Double: a candidate's on and off imply the same fact.
        for x, b in cands:
            if (x, b) not in on_facts:
                continue
            off, length = self._implied([(x, b, False)], mode)
            if off is None:
                name = prefix + "contradiction forcing chain"
                out.append(Hint(name, self.costs[name] + length_step(length), ((x, b),)))
                continue
            out += self._agree(prefix + "double forcing chain", [on_facts[(x, b)], off], {(x, b)})
        # Cell: every value of a square; region: every square of a value in a group.
        for x in range(self.n):
            if not self.placed[x] and popcount(self.cand[x]) > 2:
                sets = [on_facts.get((x, b)) for b in bits(self.cand[x])]
                if all(s is not None for s in sets):
                    out += self._agree(prefix + "cell forcing chain", sets, {(x, b) for b in bits(self.cand[x])})
        for k in range(len(self.groups)):
            for b in bits(self._group_needs(k)):
                at = self.where(k, b)
                if len(at) > 2:
                    sets = [on_facts.get((y, b)) for y in at]
                    if all(s is not None for s in sets):
                        out += self._agree(prefix + "region forcing chain", sets, {(y, b) for y in at})
        return out

    def _agree(self, name: str, sets, skip) -> list[Hint]:
        out = []
        first = sets[0]
        for key, (on, length) in first.items():
            if key in skip or self.placed[key[0]]:
                continue
            total, ok = length, True
            for other in sets[1:]:
                got = other.get(key)
                if got is None or got[0] != on:
                    ok = False
                    break
                total += got[1]
            if ok:
                move = (key,)
                out.append(Hint(name, self.costs[name] + length_step(total),
                                move if on else (), () if on else move))
        return out


class _Contradiction(Exception):
    def __init__(self, length: int):
        super().__init__(length)
        self.length = length


ALL_DIFFERENT = ("fzn_all_different_int", "all_different_int", "fzn_all_different_int_imp",
                 "fzn_all_different_int_reif")


def from_explainer(ex, costs: Mapping[str, float]) -> Grid | None:
    """The candidate state of ``ex``'s puzzle, or None when some group is not "each value
    exactly once" (one all-different over as many squares as values, every square's
    values the same) or another rule constrains the squares: the rating then takes the
    explainer's checks."""
    flat = ex.flat
    square_names = set(flat.squares)
    items: dict[int | None, list[int]] = {}
    for k, g in flat.group_of.items():
        items.setdefault(g, []).append(k)
    if any(flat.refs[k] & square_names for k in items.get(None, [])):
        return None
    values = ex._all[0] if ex._all else frozenset()
    if any(a != values for a in ex._all):
        return None
    groups = []
    for g in range(len(ex.names)):
        mine = items.get(g, [])
        if len(mine) != 1 or flat.items[mine[0]].name not in ALL_DIFFERENT:
            return None
        scope = ex._scope[g]
        if len(scope) != len(values) or {flat.squares[x] for x in scope} != (flat.refs[mine[0]] & square_names):
            return None
        groups.append(scope)
    n = len(ex.domains)
    covered = set().union(*groups) if groups else set()
    if len(covered) != n:
        return None
    order = sorted(values)
    grid = Grid(groups, n, order, [w for w, _ in ex.kinds], [k for _, k in ex.kinds], costs)
    bit = {v: 1 << i for i, v in enumerate(order)}
    for x, dom in enumerate(ex.domains):
        grid.cand[x] = sum(bit[v] for v in dom)
    for x in range(n):
        if ex.known[x]:
            grid.place(x, grid.cand[x])
    return grid
