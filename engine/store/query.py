"""Reading a store back: filters (type, parameters, level, date, batch), the records they
select (puzzles, their variants, GenPuzzles' bins) as ``gen --format json`` writes them
plus the store's own fields, and the counts of ``db stats``."""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from typing import Any

from ..errors import PuzzleInputError
from .store import Store

#: What ``db query`` and ``db export`` may draw from.
SOURCES = ("puzzles", "bins", "all")


def _moment(text: str, option: str, end: bool) -> str:
    """A date or date-time as the store's time stamps compare (UTC text); a bare date
    given as an end means the end of that day."""
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            return (day + timedelta(days=1) if end else day).isoformat()
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise PuzzleInputError(f"bad {option} '{text}': expected a date YYYY-MM-DD or a time "
                               "YYYY-MM-DDTHH:MM[:SS] (UTC)") from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc).replace(tzinfo=None)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")


#: SQLite's whole numbers are 64-bit.
INT_RANGE = range(-2**63, 2**63)


def check_int(option: str, value: int | None) -> None:
    """A whole number the store will hold or compare (a seed, a count, an id)."""
    if value is not None and value not in INT_RANGE:
        raise PuzzleInputError(f"bad {option} {value}: the store holds whole numbers from "
                               f"{INT_RANGE.start} to {INT_RANGE.stop - 1}")


def _param_value(item: str, text: str) -> Any:
    """A ``--param`` value as the params JSON holds it: a number, true/false, or text."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    if value is None or isinstance(value, (list, dict)) or (
            isinstance(value, int) and value not in INT_RANGE):
        raise PuzzleInputError(f"bad --param '{item}': a parameter's value is a number, "
                               "true, false or text")
    return value


@dataclass
class Filters:
    """Which puzzles: of a type, with these parameters (``name=value``), at a level,
    stored in a time range, by a batch, with a step rating in a band (low, high: puzzles
    made with ``--rating``; no board of the bins has one). Unset fields select
    everything."""

    type: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    level: str | None = None
    since: str | None = None
    until: str | None = None
    batch: int | None = None
    rating: tuple[float, float] | None = None

    @classmethod
    def parse(cls, type_name, params: list[str], level, since, until, batch,
              rating: tuple[float, float] | None = None) -> "Filters":
        found = {}
        for item in params or ():
            name, eq, value = item.partition("=")
            if not eq or not name.strip():
                raise PuzzleInputError(f"bad --param '{item}': expected NAME=VALUE, e.g. size=9")
            found[name.strip().replace("-", "_")] = _param_value(item, value.strip())
        check_int("--batch", batch)
        return cls(type_name, found, level,
                   _moment(since, "--since", False) if since else None,
                   _moment(until, "--until", True) if until else None, batch, rating)

    def where(self, table: str, bins: bool = False, rated: bool = True
              ) -> tuple[str, list[Any]]:
        """The SQL condition on ``table`` (puzzles, or bins joined to their
        puzzle ``p``) and its arguments; ``rated``: the store has the rating column
        (schema 4; an older one holds no rated puzzle)."""
        parts, args = ["1"], []
        source = "p" if bins else table
        if self.type is not None:
            parts.append(f"{table}.type = ?")
            args.append(self.type)
        for name, value in self.params.items():
            parts.append(f"json_extract({source}.params, ?) = ?")
            args += [f"$.{name}", value if not isinstance(value, bool) else int(value)]
        if self.level is not None:
            parts.append(f"{table}.level = ?")
            args.append(self.level)
        if self.since is not None:
            parts.append(f"{table}.created_at >= ?")
            args.append(self.since)
        if self.until is not None:
            parts.append(f"{table}.created_at < ?")
            args.append(self.until)
        if self.batch is not None:
            parts.append(f"{source}.batch_id = ?")
            args.append(self.batch)
        if self.rating is not None:
            if bins or not rated:
                parts.append("0")
            else:  # a rating as recorded (4 decimals) at either end is in
                parts.append(f"{table}.rating BETWEEN ? AND ?")
                args += [self.rating[0] - 1e-9, self.rating[1] + 1e-9]
        return " AND ".join(parts), args


_PUZZLE_FIELDS = ("p.id, p.type, p.params, p.key, p.instance, p.solution, p.variant_of, "
                  "p.variant, p.level, p.grade, p.complexity, p.complexity_level, p.seed, "
                  "p.plugin, p.plugin_version, p.solver, p.solver_version, p.engine_version, "
                  "p.meta, p.batch_id, p.created_at")


class _Fields:
    """The JSON columns of one row, read back: each must be JSON of the kind the store
    writes (an object, mostly), else a one-line error naming the store, the table, the
    row and the column (a store edited by hand, or damaged)."""

    def __init__(self, store: Store, table: str, row_id: int):
        self.store, self.table, self.row_id = store, table, row_id

    def load(self, column: str, text: str | None, kind: type | None = dict) -> Any:
        if text is None:
            return None
        try:
            value = json.loads(text)
        except (ValueError, TypeError) as exc:
            why = f"not JSON ({exc})"
        else:
            if kind is None or isinstance(value, kind):
                return value
            why = f"JSON, but not an object ({type(value).__name__})"
        what = {"puzzles": "puzzle", "bins": "bin", "batches": "batch"}[self.table]
        raise PuzzleInputError(f"store {self.store.path}: table {self.table}, {what} id "
                               f"{self.row_id}: column {column} is {why}") from None


def _puzzle_record(store: Store, row) -> dict[str, Any]:
    (pid, type_name, params, key, instance, solution, variant_of, variant, level, grade,
     complexity, complexity_level, seed, plugin, plugin_version, solver, solver_version,
     engine_version, meta, batch_id, created_at) = row
    fields = _Fields(store, "puzzles", pid)
    meta = fields.load("meta", meta)
    meta.pop("variant", None)
    record = {"type": type_name, "params": fields.load("params", params),
              **fields.load("instance", instance),
              **(fields.load("solution", solution) or {}), "seed": seed, "variant": variant,
              "plugin": plugin, "plugin_version": plugin_version,
              "engine_version": engine_version, "solver": solver,
              "solver_version": solver_version, **meta}
    grade = fields.load("grade", grade) if grade else None
    if grade is not None and "difficulty" not in record:
        record["difficulty"] = grade  # as 'gen --difficulty' writes it
    record["store"] = {"id": pid, "key": key, "variant_of": variant_of, "level": level,
                       "grade": grade,
                       "batch": batch_id, "created_at": created_at}
    return record


def _bin_record(store: Store, row) -> dict[str, Any]:
    bid, complexity, level, key, instance, created_at, *puzzle = row
    record = _puzzle_record(store, puzzle)
    source = record["store"]
    fields = {**_Fields(store, "bins", bid).load("instance", instance)}
    out = {"type": record["type"], "params": record["params"], **fields}
    out.update({k: v for k, v in record.items() if k not in out and k not in
                ("variant", "minimal", "unknown", "givens", "empty", "store", "complexity",
                 "difficulty")})
    out["store"] = {"bin": bid, "key": key, "complexity": complexity,
                    "level": _shown(level), "source": source["id"], "batch": source["batch"],
                    "created_at": created_at}
    return out


def _shown(level: str) -> Any:
    """A bin's level as it was (a number stays a number)."""
    try:
        return json.loads(level)
    except ValueError:
        return level


def check_draw(limit: int | None, draw_seed: int | None) -> None:
    """``--limit`` and ``--draw`` as a query takes them: at least one, and a draw of a
    number of puzzles."""
    if limit is not None and limit < 1:
        raise PuzzleInputError(f"bad --limit {limit}: must be at least 1")
    check_int("--limit", limit)
    if draw_seed is not None and limit is None:
        raise PuzzleInputError("--draw needs --limit (how many to draw)")


def check_params(store: Store, filters: Filters) -> None:
    """Refuse a ``--param`` that no stored puzzle (of the type asked for) has: a name
    misspelt, or another type's, selects nothing, and is said to be the cause. Checked
    when nothing matched (only then can a name be unknown), from the stored puzzles'
    own parameters, so a store is read without its types' plugins. A store with no
    puzzles of the type knows no names: nothing is refused."""
    if not filters.params:
        return
    where, args = ("type = ?", [filters.type]) if filters.type is not None else ("1", [])
    known: set[str] = set()
    for pid, params in store.execute(f"SELECT min(id), params FROM puzzles WHERE {where} "
                                     "GROUP BY params", args):
        known.update(_Fields(store, "puzzles", pid).load("params", params))
    if not known:
        return
    for name in filters.params:
        if name not in known:
            of = f" of type {filters.type}" if filters.type is not None else ""
            raise PuzzleInputError(f"bad --param {name}: no puzzle{of} in {store.path} has a "
                                   f"parameter '{name}' (theirs: {', '.join(sorted(known))})")


def records(store: Store, filters: Filters, source: str = "all", variants: bool = False,
            limit: int | None = None, draw_seed: int | None = None) -> Iterator[dict[str, Any]]:
    """The records ``filters`` select, puzzles (with ``variants``, their variants too) in
    the order they were stored, then bins. With ``draw_seed``, ``limit`` of them drawn at
    random (reproducibly) instead of the first ``limit``. None at all with a parameter
    no stored puzzle has: an error saying so (``check_params``)."""
    found = False
    for record in _records(store, filters, source, variants, limit, draw_seed):
        found = True
        yield record
    if not found:
        check_params(store, filters)


def _records(store: Store, filters: Filters, source: str, variants: bool, limit: int | None,
             draw_seed: int | None) -> Iterator[dict[str, Any]]:
    if source not in SOURCES:
        raise PuzzleInputError(f"bad --from '{source}': expected one of {', '.join(SOURCES)}")
    queries = []  # (table, columns, FROM and WHERE, arguments, record maker)
    rated = store.version >= 4
    if source in ("puzzles", "all"):
        where, args = filters.where("p", rated=rated)
        if not variants:
            where += " AND p.variant_of IS NULL"
        queries.append(("p", _PUZZLE_FIELDS, f"FROM puzzles p WHERE {where}", args,
                        _puzzle_record))
    if source in ("bins", "all"):
        where, args = filters.where("b", bins=True, rated=rated)
        queries.append(("b", f"b.id, b.complexity, b.level, b.key, b.instance, b.created_at, "
                        f"{_PUZZLE_FIELDS}", f"FROM bins b JOIN puzzles p ON p.id = b.puzzle_id "
                        f"WHERE {where}", args, _bin_record))
    if draw_seed is not None and limit is not None:
        # Row ids first, so that only the drawn rows are read whole.
        ids = [(n, row[0]) for n, (table, _, body, args, _) in enumerate(queries)
               for row in store.execute(f"SELECT {table}.id {body} ORDER BY {table}.id", args)]
        for n, row_id in random.Random(draw_seed).sample(ids, min(limit, len(ids))):
            table, columns, body, args, make = queries[n]
            yield make(store, store.execute(f"SELECT {columns} {body} AND {table}.id = ?",
                                            [*args, row_id]).fetchone())
        return
    left = limit
    for table, columns, body, args, make in queries:
        sql = f"SELECT {columns} {body} ORDER BY {table}.id"
        if left is not None:
            sql += f" LIMIT {int(left)}"
        for row in store.execute(sql, args):
            yield make(store, row)
            if left is not None:
                left -= 1
        if left is not None and left <= 0:
            return


def levels(store: Store, type_name: str | None = None, source: str = "all") -> list[str]:
    """The levels of a store's puzzles and bins (``source`` as for ``records``; of one
    type, if given): none when nothing was graded."""
    where, args = ("WHERE type = ? AND", [type_name]) if type_name else ("WHERE", [])
    tables = {"puzzles": ["puzzles"], "bins": ["bins"]}.get(source, ["puzzles", "bins"])
    rows = store.conn.execute(" UNION ".join(
        f"SELECT level FROM {table} {where} level IS NOT NULL" for table in tables),
        args * len(tables)).fetchall()
    return sorted({str(level) for (level,) in rows})

def stats(store: Store, filters: Filters) -> dict[str, Any]:
    """Counts: distinct puzzles by type, parameters and level; variants; bins by
    complexity and level; batches with their candidates and duplicates."""
    rated = store.version >= 4
    where, args = filters.where("p", rated=rated)
    groups = [
        {"type": t, "params": _Fields(store, "puzzles", first).load("params", p), "level": level,
         "puzzles": n}
        for t, p, level, n, first in store.execute(
            f"SELECT p.type, p.params, p.level, count(*), min(p.id) FROM puzzles p WHERE {where} "
            "AND p.variant_of IS NULL GROUP BY p.type, p.params, p.level ORDER BY 1, 2, 3", args)]
    puzzles = sum(g["puzzles"] for g in groups)
    variants = store.execute(f"SELECT count(*) FROM puzzles p WHERE {where} AND p.variant_of "
                             "IS NOT NULL", args).fetchone()[0]
    b_where, b_args = filters.where("b", bins=True, rated=rated)
    bins = [{"type": t, "complexity": c, "level": _shown(level), "boards": n}
            for t, c, level, n in store.execute(
                f"SELECT b.type, b.complexity, b.level, count(*) FROM bins b JOIN puzzles p ON "
                f"p.id = b.puzzle_id WHERE {b_where} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3", b_args)]
    counts = "skipped, off_band" if rated else "0, 0"  # schema 4's
    batches = [{"id": i, "type": t, "params": _Fields(store, "batches", i).load("params", p),
                "seed": s, "count": c,
                "next_seed": ns, "candidates": cand, "duplicates": d, "off_level": o,
                "skipped": sk, "off_band": ob, "started_at": st, "updated_at": up}
               for i, t, p, s, c, ns, cand, d, o, sk, ob, st, up in store.execute(
                   "SELECT id, type, params, seed, count, next_seed, candidates, duplicates, "
                   f"off_level, {counts}, started_at, updated_at FROM batches ORDER BY id")]
    if filters.type is not None:
        batches = [b for b in batches if b["type"] == filters.type]
    if not groups and not variants and not bins:
        check_params(store, filters)
    return {"puzzles": puzzles, "variants": variants, "groups": groups, "bins": bins,
            "batches": batches}
