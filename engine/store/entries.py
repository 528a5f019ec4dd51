"""What the store keeps of one generated puzzle, an *entry*: made where the puzzle is made
(the command, a worker process, a Dask worker) so that the one writer only inserts rows.

An entry holds the puzzle type's own JSON of the instance (``to_json`` without the
solution) and of what the solution adds, the canonical key, the level and grade, the
record's other fields (seed, plugin, solver, versions, options...), the puzzle's
variants, and GenPuzzles' bins (``complDict``: every board accepted while the puzzle was
emptied, under the complexity function's level). Everything is plain data, so an entry
crosses process and machine boundaries as it is.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from .. import calls
from ..record import COLUMNS



def dumps(value: Any, sort: bool = True) -> str:
    """JSON as the store writes it: compact, keys sorted (so equal values are equal text)
    unless ``sort`` is False (a type's record keeps its own order)."""
    return json.dumps(value, sort_keys=sort, separators=(",", ":"))


def key_of(ptype, params, instance) -> tuple[str, str | None]:
    """The canonical key of ``instance`` (a SHA-256 in hex) and its canonical form as JSON
    text. Without a form (the type offers none) the key is that of the parameters and the
    instance's JSON: only identical puzzles share it."""
    form = calls.canonical_form(ptype, params, instance)
    if form is None:
        basis = ["instance", ptype.name, params, calls.record(ptype, params, instance, None)]
    else:
        basis = ["form", ptype.name, form]
    return hashlib.sha256(dumps(basis).encode()).hexdigest(), (None if form is None
                                                               else dumps(form))


def _level(value: Any) -> str | None:
    """A level (a grade's, a complexity function's) as the text the store filters on."""
    if value is None:
        return None
    return value if isinstance(value, str) else dumps(value)


@dataclass
class Entry:
    """One puzzle as the store will hold it (JSON fields as text)."""

    seed: int
    type: str
    params: str
    key: str
    canonical: str | None
    instance: str
    solution: str | None
    columns: dict[str, Any]
    meta: str
    level: str | None = None
    grade: str | None = None
    complexity: str | None = None
    complexity_level: str | None = None
    rating: float | None = None  # the step rating, when the puzzle was made to a band
    variants: list[tuple[int, str, str | None]] = field(default_factory=list)
    bins: list[tuple[str, str, str, str]] = field(default_factory=list)  # complexity, level, key, instance


def _rating(note: Any) -> float | None:
    """The score of a record's ``rating`` note (``gen --rating``), if any."""
    score = note.get("score") if isinstance(note, dict) else None
    return float(score) if isinstance(score, (int, float)) else None


def split_record(ptype, puzzle) -> tuple[str, str | None, dict[str, Any], dict[str, Any]]:
    """A generated puzzle's record split for the store: the type's JSON of the instance,
    what the solution adds to it, the columns, and the other fields."""
    params = puzzle.params
    shown = calls.record(ptype, params, puzzle.instance, None)
    whole = calls.record(ptype, params, puzzle.instance, puzzle.solution)
    added = {k: v for k, v in whole.items() if k not in shown or shown[k] != v}
    record = puzzle.to_json(ptype)
    columns = {k: record.get(k) for k in COLUMNS}
    meta = {k: v for k, v in record.items() if k not in whole and k not in COLUMNS}
    return (dumps(shown, False), dumps(added, False) if puzzle.solution is not None else None,
            columns, meta)


def entries_of(ptype, result, grade: dict[str, Any] | None = None,
               bins: bool = False) -> list["Entry"]:
    """The entries of one seed's result: its puzzle (or every level a growing strategy
    kept), each with the variants made from it, and with ``bins`` the boards of
    GenPuzzles' ``complDict``. ``grade`` (level, grader, figures) is the puzzle's."""
    puzzles = result.kept or [result.puzzle]
    out = []
    for puzzle in puzzles:
        params = puzzle.params
        instance, solution, columns, meta = split_record(ptype, puzzle)
        key, form = key_of(ptype, params, puzzle.instance)
        name = puzzle.options.get("complexity") if isinstance(puzzle.options, dict) else None
        entry = Entry(seed=puzzle.seed, type=ptype.name, params=dumps(params), key=key,
                      canonical=form, instance=instance, solution=solution, columns=columns,
                      meta=dumps(meta, False), complexity=name,
                      complexity_level=_level(puzzle.level) if name else None,
                      rating=_rating(puzzle.extra.get("rating")))
        if grade is not None:
            entry.level = _level(grade.get("level"))
            entry.grade = dumps(grade)
        if puzzle is result.puzzle:
            for variant in result.variants:
                v_instance, v_solution, _, _ = split_record(ptype, variant)
                entry.variants.append((variant.variant, v_instance, v_solution))
            if bins and name:
                for level, boards in result.compl_dict.items():
                    for board in boards:
                        b_key, _ = key_of(ptype, params, board)
                        entry.bins.append((name, _level(level), b_key,
                                           dumps(calls.record(ptype, params, board, None),
                                                 False)))
        out.append(entry)
    return out
