"""Sound Fillomino deductions on bitsets, and a small complete search built on them.

A board of rows x cols cells is held as Python integers used as bitsets (bit c is cell c),
one pair per value v: ``known[v]``, the cells fixed to v, and ``poss[v]``, the empty cells
that may still hold v. ``propagate`` removes a value from a cell only when no solution
of the plain rules (regions of any size) puts it there, and fixes a cell only when every
solution agrees, so when it fills the whole board, that board is the only solution:

* groups: fixed cells of equal value that touch are one region; a group larger than its
  value is a contradiction, one of exactly its value is complete;
* regions with no given: an empty cell may hold v without touching any fixed v only if its
  component of such cells (v possible, no fixed v next to them) has v cells or more;
* regions through a group: a region of v cells that holds an incomplete group G of s cells
  reaches no cell more than v - s steps from G (through cells that may hold v);
* merges: a cell next to a complete v-group, or next to two v-groups whose sizes add up to
  v or more, cannot hold v;
* growth: the cells a group can reach (above) must number v or more; a cell without which
  fewer than v remain reachable belongs to the group's region (the only way out of a
  group is the common case);
* singles: an empty cell with one possible value holds it; one with none is a
  contradiction.

``solve`` runs the deductions, and, if they stall and a node budget allows, branches on
whether the incomplete group with the fewest ways out takes one neighbour (on the values
of a cell with the fewest once every group is complete; the known solution's choice last),
with the deductions at every node: a complete search, counting solutions up to a limit. Every full board it
reaches is a solution, since the deductions refute a board whose groups do not have
exactly their value's size. docs/user-guide.md (Fillomino, isRemoveValid) describes how
the plugin uses them.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .logic import value_bound

#: Branching nodes of ``solve`` before it gives up (the exact check decides then). The
#: search counts nodes, never seconds, so the path that decides a removal is the same on
#: any machine.
DEFAULT_BUDGET = 1000
#: The nodes of the second, deeper search isRemoveValid runs when the first gives up and no
#: second solution turns up near the emptied square (chosen on 12x12: docs/performance.md).
DEEP_BUDGET = 4000


class Contradiction(Exception):
    """No solution agrees with what is known."""


class _Stop(Exception):
    """The search found enough solutions or ran out of nodes."""


@dataclass(frozen=True)
class Outcome:
    """What ``solve`` found: ``solutions`` (at most ``limit``), whether they are all of them
    (``complete``: the search finished below the limit, or proved none), and the branching
    nodes it used (0: the deductions alone decided)."""

    solutions: tuple[tuple[int, ...], ...]
    complete: bool
    nodes: int

    @property
    def by_logic(self) -> bool:
        """The deductions alone filled the board: the puzzle is unique and needs no guess."""
        return self.nodes == 0 and self.complete and len(self.solutions) == 1


@lru_cache(maxsize=64)
def _masks(rows: int, cols: int) -> tuple[int, int, int, int]:
    """(cols, all cells, cells with a right neighbour, cells with a left neighbour)."""
    full = (1 << (rows * cols)) - 1
    first = sum(1 << (i * cols) for i in range(rows))
    last = first << (cols - 1)
    return cols, full, full & ~last, full & ~first


def _cells(bits: int):
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def propagate(rows: int, cols: int, known: list[int], poss: list[int]) -> None:
    """Apply the deductions to ``known`` and ``poss`` (lists indexed by value, changed in
    place) until none applies. Raise ``Contradiction`` when no solution is left."""
    full = (1 << (rows * cols)) - 1
    maxv = len(known) - 1
    while True:
        changed = False
        for v in range(1, maxv + 1):
            kv, pv = known[v], poss[v]
            if not kv and not pv:
                continue
            swept = _sweep(rows, cols, v, kv, pv)
            if swept is None:
                raise Contradiction
            new, force = swept
            if force:
                known[v] = kv | force
                for w in range(1, maxv + 1):
                    poss[w] &= ~force
                changed = True
            if new != poss[v]:
                poss[v] = new
                changed = True
        # Singles: a cell with one possible value; none left is a contradiction.
        once = twice = fixed = 0
        for v in range(1, maxv + 1):
            p = poss[v]
            twice |= once & p
            once |= p
            fixed |= known[v]
        free = full & ~fixed
        if free & ~once:
            raise Contradiction
        single = free & ~twice
        if single:
            for v in range(1, maxv + 1):
                cells = single & poss[v]
                if cells:
                    known[v] |= cells
                    poss[v] &= ~cells
            changed = True
        if not changed:
            return


@lru_cache(maxsize=1 << 16)
def _sweep(rows: int, cols: int, v: int, kv: int, pv: int) -> tuple[int, int] | None:
    """The deductions about one value v, which depend on ``kv`` (the cells fixed to v) and
    ``pv`` (the empty cells that may hold v) alone: ``(pv without the cells that cannot
    hold v, the cells that must)``, or None for a contradiction. Remembered, since boards
    that GenPuzzles and the search judge one after another share most of them.

    The hot loop of the deductions: one step of growth (a set and its four neighbours) is
    written out in place rather than called, and a growth test stops as soon as v cells
    are reachable (docs/performance.md, Fillomino ``--logic-only`` and start-up)."""
    C, full, has_right, has_left = _masks(rows, cols)
    # Groups: the components of kv (grown one step at a time inside kv).
    complete, groups, rest, near = 0, [], kv, 0
    while rest:
        comp = rest & -rest
        while True:
            out = (comp | (comp << C) | (comp >> C) | ((comp & has_right) << 1)
                   | ((comp & has_left) >> 1)) & full
            nxt = out & kv
            if nxt == comp:
                break
            comp = nxt
        rest ^= comp
        near |= out
        s = comp.bit_count()
        if s > v:
            return None
        if s == v:
            complete |= comp
        else:
            groups.append((comp, s, out))
    if not pv:
        return None if groups else (0, 0)  # a group too small with nothing to grow into
    feasible = 0
    bad = (complete | (complete << C) | (complete >> C) | ((complete & has_right) << 1)
           | ((complete & has_left) >> 1)) & full
    force = 0
    if groups:
        # Regions through an incomplete group G: within v - s steps of it.
        graph = pv | (kv & ~complete)
        rims = []
        for g, s, out in groups:
            steps = v - s
            reach = _reach(g, graph, steps, C, has_right, has_left)
            size = reach.bit_count()
            if size < v:
                return None
            feasible |= reach
            rim = out & pv
            rims.append((rim, s))
            # Growth: a neighbour without which too little is reachable.
            if size == v:
                force |= reach & pv
                continue
            if s + rim.bit_count() > v:
                continue  # the other neighbours alone make v cells, whichever is left out
            for x in _cells(rim):
                bit = 1 << x
                if _reach(g, graph & ~bit, steps, C, has_right, has_left, v).bit_count() < v:
                    force |= bit
        for i, (rim_i, s_i) in enumerate(rims):
            for rim_j, s_j in rims[:i]:
                if s_i + s_j >= v:
                    bad |= rim_i & rim_j
    # Regions that hold no fixed cell: v cells, none next to a fixed v. Only the lone
    # cells not already known to be feasible (through a group) need their component.
    lone = pv & ~near
    if v == 1:
        feasible |= lone
    elif lone.bit_count() >= v:
        rest = lone & ~feasible
        while rest:
            comp = rest & -rest
            while True:
                nxt = (comp | (comp << C) | (comp >> C) | ((comp & has_right) << 1)
                       | ((comp & has_left) >> 1)) & lone
                if nxt == comp:
                    break
                comp = nxt
            rest &= ~comp
            if comp.bit_count() >= v:
                feasible |= comp
    new = pv & feasible & ~bad
    if force & ~new:
        return None
    return new & ~force, force


def _reach(group: int, graph: int, steps: int, C: int, has_right: int, has_left: int,
           enough: int = 0) -> int:
    """The cells of ``graph`` within ``steps`` steps of ``group`` (through ``graph``); with
    ``enough``, only as far as needed to know whether they number ``enough`` or more."""
    reach = group
    for _ in range(steps):
        nxt = (reach | (reach << C) | (reach >> C) | ((reach & has_right) << 1)
               | ((reach & has_left) >> 1)) & graph
        if nxt == reach:
            break
        reach = nxt
        if enough and reach.bit_count() >= enough:
            break
    return reach


def initial(board: Sequence[int], rows: int, cols: int) -> tuple[list[int], list[int]]:
    """``known`` and ``poss`` of a board of givens (0 = empty): every empty cell may hold
    any value up to a bound that every solution respects (``logic.value_bound``)."""
    maxv = value_bound(board, rows, cols)
    known = [0] * (maxv + 1)
    for c, v in enumerate(board):
        if v:
            known[v] |= 1 << c
    fixed = 0
    for k in known:
        fixed |= k
    free = ((1 << (rows * cols)) - 1) & ~fixed
    return known, [0] + [free] * maxv


def board_of(known: Sequence[int], n: int) -> tuple[int, ...]:
    """The board of ``known`` (0 where no value is fixed)."""
    out = [0] * n
    for v, bits in enumerate(known):
        for c in _cells(bits):
            out[c] = v
    return tuple(out)


def deduce(board: Sequence[int], rows: int, cols: int) -> tuple[int, ...] | None:
    """The board as far as the deductions alone fill it (0 where they stall), or None
    when they refute it (it has no solution)."""
    known, poss = initial(board, rows, cols)
    try:
        propagate(rows, cols, known, poss)
    except Contradiction:
        return None
    return board_of(known, rows * cols)


def candidates(board: Sequence[int], rows: int, cols: int) -> list[frozenset[int]] | None:
    """Every cell's values left by the deductions (a given's: itself), or None when they
    refute the board. Every solution's value of every cell is among them."""
    known, poss = initial(board, rows, cols)
    try:
        propagate(rows, cols, known, poss)
    except Contradiction:
        return None
    out: list[set[int]] = [set() for _ in range(rows * cols)]
    for v in range(1, len(known)):
        for c in _cells(known[v] | poss[v]):
            out[c].add(v)
    return [frozenset(s) for s in out]


@lru_cache(maxsize=4096)
def solve(board: tuple[int, ...], rows: int, cols: int, limit: int = 2,
          budget: int | None = None, avoid: tuple[int, ...] | None = None,
          exclude: tuple[int, int] | None = None) -> Outcome:
    """Solutions of ``board`` (0 = empty) up to ``limit``, by the deductions and, where they
    stall, at most ``budget`` branching nodes (None: ``DEFAULT_BUDGET``). ``avoid``, a
    known solution, is tried last at every branch, so that another one turns up first.
    ``exclude = (cell, value)``: only the solutions without that value in that empty cell.
    Remembered: GenPuzzles asks about a board again after speculating on it (tuples,
    hashable, only)."""
    n = rows * cols
    known, poss = initial(board, rows, cols)
    if exclude is not None:
        cell, value = exclude
        if value < len(poss):
            poss[value] &= ~(1 << cell)
    found: list[tuple[int, ...]] = []
    nodes = 0
    if budget is None:
        budget = DEFAULT_BUDGET

    def node(known: list[int], poss: list[int]) -> None:
        nonlocal nodes
        try:
            propagate(rows, cols, known, poss)
        except Contradiction:
            return
        fixed = 0
        for k in known:
            fixed |= k
        free = ((1 << n) - 1) & ~fixed
        if not free:
            found.append(board_of(known, n))
            if len(found) >= limit:
                raise _Stop
            return
        if nodes >= budget:
            raise _Stop
        nodes += 1
        grow = _growth(rows, cols, known, poss)
        if grow is not None:
            # Does the group take this neighbour or not? (the full board's choice last)
            cell, v = grow
            bit = 1 << cell
            joined = (known[:v] + [known[v] | bit] + known[v + 1:], [p & ~bit for p in poss])
            apart = (list(known), poss[:v] + [poss[v] & ~bit] + poss[v + 1:])
            first, second = (apart, joined) if avoid is not None and avoid[cell] == v \
                else (joined, apart)
            node(*first)
            node(*second)
            return
        cell, values = _branch(free, poss)
        if avoid is not None and avoid[cell] in values:
            values.remove(avoid[cell])
            values.append(avoid[cell])
        bit = 1 << cell
        for v in values:
            k2, p2 = list(known), [p & ~bit for p in poss]
            k2[v] |= bit
            node(k2, p2)

    try:
        node(known, poss)
        complete = True
    except _Stop:
        complete = False
    if len(found) >= limit:
        complete = False  # there may be more
    return Outcome(tuple(found), complete, nodes)


def _growth(rows: int, cols: int, known: Sequence[int], poss: Sequence[int]
            ) -> tuple[int, int] | None:
    """A neighbour of the incomplete group with the fewest ways to grow, and the group's
    value; None when every group is complete."""
    C, full, has_right, has_left = _masks(rows, cols)
    best = None
    for v in range(2, len(known)):
        kv = known[v]
        rest = kv
        while rest:
            comp = rest & -rest
            while True:
                nxt = (comp | (comp << C) | (comp >> C) | ((comp & has_right) << 1)
                       | ((comp & has_left) >> 1)) & full
                if nxt & kv == comp:
                    break
                comp = nxt & kv
            rest &= ~comp
            if comp.bit_count() < v:
                rim = nxt & poss[v]
                count = rim.bit_count()
                if rim and (best is None or count < best[0]):
                    best = (count, (rim & -rim).bit_length() - 1, v)
    return None if best is None else best[1:]


def _branch(free: int, poss: Sequence[int]) -> tuple[int, list[int]]:
    """A free cell with the fewest possible values, and those values (when every group is
    complete, so that ``_growth`` has nothing to branch on)."""
    once = twice = thrice = 0
    for p in poss:
        thrice |= twice & p
        twice |= once & p
        once |= p
    pick = (free & twice & ~thrice) or (free & thrice) or free
    bit = pick & -pick
    return bit.bit_length() - 1, [v for v, p in enumerate(poss) if p & bit]
