"""The randomisation hierarchy of PuzzleClone's paper: for each *domain* item, for each
*dimension*, for each *source*, draw ``amount`` items (``order``, ``duplicate``); then
check the dimension level (``dim_cond``: by default the dimensions of one item differ in
at least one source; ``custom_cond`` with ``scope: dim``) and the domain level
(``domain_cond``: by default no two identical items; ``custom_cond`` with ``scope:
domain``; ``constraint: None`` means the values of ``fields`` are all different). All of
it from the generation's seeded ``random.Random``."""
from __future__ import annotations

import random
from typing import Callable

from .helpers import _hashable

#: Draws of one dimension's or one domain's selection before the draw is given up.
TRIES = 200


class Redraw(Exception):
    """This draw cannot be completed; the generator starts again from the next draw."""


def pick(rng: random.Random, pool: list, amount: int, order: bool, duplicate: bool) -> list:
    """``amount`` of ``pool``'s indices."""
    n = len(pool)
    if amount < 0 or (not duplicate and amount > n) or (n == 0 and amount > 0):
        raise Redraw(f"cannot pick {amount} of {n} items")
    idx = [rng.randrange(n) for _ in range(amount)] if duplicate else rng.sample(range(n), amount)
    if not order:
        idx.sort()
    return idx


def select(rng: random.Random, sources: list[list], amounts: list[int], domain: int, *,
           dim: int = 1, order: list[bool], duplicate: list[bool], dim_cond=None,
           domain_cond: bool = True, custom: list[tuple[str, list[int], Callable | None]] = (),
           ) -> tuple[list, list]:
    """``domain`` items, each ``dim`` dimensions, each one list of values per source:
    ``items[domain][dim][source][amount]``, and the same shape of indices into the
    sources (a spec's ``_ind``)."""
    groups = dim_cond if dim_cond is not None else [list(range(len(sources)))]
    dim_checks = [(f, c) for s, f, c in custom if s == "dim"]
    domain_checks = [(f, c) for s, f, c in custom if s == "domain"]
    for _ in range(TRIES):
        items: list = []
        indices: list = []
        for _d in range(domain):
            for _t in range(TRIES):
                idx = [[pick(rng, sources[k], amounts[k], order[k], duplicate[k])
                        for k in range(len(sources))] for _ in range(dim)]
                dims = [[[sources[k][i] for i in d[k]] for k in range(len(sources))] for d in idx]
                if dim > 1 and not _groups_differ(idx, groups):
                    continue
                if all(_holds(idx, f, c) for f, c in dim_checks):
                    break
            else:
                raise Redraw("no selection met the dimension conditions")
            items.append(dims)
            indices.append(idx)
        if domain_cond and len({_hashable(it) for it in items}) < len(items):
            continue
        if all(_holds(indices, f, c, nested=True) for f, c in domain_checks):
            return items, indices
    raise Redraw("no selection met the domain conditions")


def _groups_differ(dims, groups) -> bool:
    for g in groups:
        seen = set()
        for d in dims:
            k = _hashable([d[i] for i in g])
            if k in seen:
                return False
            seen.add(k)
    return True


def _holds(items, fields, constraint, nested=False) -> bool:
    if nested:
        view = [[[d[f] for f in fields] for d in item] for item in items]
    else:
        view = [[d[f] for f in fields] for d in items]
    if constraint is None:  # the shortcut: the values of these fields are all different
        keys = [_hashable(v) for v in view]
        return len(set(keys)) == len(keys)
    return bool(constraint(view))
