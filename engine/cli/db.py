"""``puzzle-engine db stats|export|query``: read a store back, filtered by type,
parameters, level, date and batch, as JSON Lines or CSV (and, for ``query``, a type's
line format)."""
from __future__ import annotations

import contextlib
import csv
import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from .. import calls, files
from ..errors import PuzzleEngineError, PuzzleInputError
from ..explain.band import parse_band
from ..record import PROVENANCE
from ..store import Filters, Store, records, stats
from ..store.query import SOURCES, check_draw, levels
from . import app, streams
from .common import _errors, _host, err_console, out_console

db_app = typer.Typer(rich_markup_mode="rich", no_args_is_help=True,
                     help="Read a puzzle store: counts, exports and queries.")
app.add_typer(db_app, name="db")

DbArg = Annotated[Path, typer.Argument(help="The store, an SQLite file from 'batch --db' or "
                  "'gen --db'.", show_default=False)]
TypeOpt = Annotated[Optional[str], typer.Option("--type", help="Only puzzles of this type.")]
ParamOpt = Annotated[Optional[list[str]], typer.Option("--param", help="Only puzzles with this "
                     "parameter value, NAME=VALUE (e.g. size=9, box=2x3); repeatable.")]
LevelOpt = Annotated[Optional[str], typer.Option("--level", help="Only puzzles graded at this "
                     "level, and boards in GenPuzzles' bins at it.")]
SinceOpt = Annotated[Optional[str], typer.Option("--since", help="Stored at or after this date "
                     "or time (UTC), YYYY-MM-DD[THH:MM[:SS]].")]
UntilOpt = Annotated[Optional[str], typer.Option("--until", help="Stored before this time, or "
                     "up to the end of this date (UTC).")]
RatingOpt = Annotated[Optional[str], typer.Option("--rating", help="Only puzzles made to a "
                      "band of the step rating ('gen --rating') whose rating is in LO-HI, "
                      "e.g. 1.5-3.0.")]
BatchOpt = Annotated[Optional[int], typer.Option("--batch", help="Only puzzles of this batch "
                     "(its id, from 'db stats').")]
FromOpt = Annotated[str, typer.Option("--from", help="puzzles, bins (GenPuzzles' complDict) or "
                    "all.")]
VariantsOpt = Annotated[bool, typer.Option("--variants", help="Also the stored variants of "
                        "each puzzle (each names its source in store.variant_of).")]
OutOpt = Annotated[Optional[Path], typer.Option("--out", help="Write to this file instead of "
                   "stdout (a file that is not empty is refused, unless --force).")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace an --out file that is not "
                     "empty.")]
EXPORT_FORMATS = ("jsonl", "csv")
CSV_FIELDS = ("id", "type", "params", "key", "variant_of", "variant", "bin", "level",
              "complexity", "complexity_level", "seed", "plugin", "plugin_version", "solver",
              "solver_version", "engine_version", "created_at", "puzzle", "solution", "record")


def _filters(type_name, params, level, since, until, batch_id, rating=None) -> Filters:
    band = parse_band(rating) if rating is not None else None
    return Filters.parse(type_name, params, level, since, until, batch_id,
                         (band.low, band.high) if band else None)


@db_app.command("stats")
def db_stats(db: DbArg, type_name: TypeOpt = None, param: ParamOpt = None,
             level: LevelOpt = None, since: SinceOpt = None, until: UntilOpt = None,
             batch_id: BatchOpt = None, rating: RatingOpt = None,
             fmt: Annotated[str, typer.Option("--format", help="text or json.")] = "text"):
    """Count the puzzles by type, parameters and level; their variants; the bins; and
    each batch's candidates and duplicates."""
    with _errors():
        if fmt not in ("text", "json"):
            raise PuzzleInputError(f"bad --format '{fmt}': expected text or json")
        filters = _filters(type_name, param, level, since, until, batch_id, rating)
        with Store(db, create=False, option="DB") as store:
            found = stats(store, filters)
        if fmt == "json":
            out_console.print(json.dumps(found), markup=False)
            return
        out_console.print(f"{db}: {found['puzzles']} distinct puzzles, {found['variants']} "
                          f"variants, {sum(b['boards'] for b in found['bins'])} boards in bins",
                          markup=False)
        for title, rows, columns in (
                ("Puzzles", found["groups"], ("type", "params", "level", "puzzles")),
                ("Bins (GenPuzzles' complDict)", found["bins"],
                 ("type", "complexity", "level", "boards")),
                ("Batches", found["batches"], ("id", "type", "seed", "count", "next_seed",
                                               "candidates", "duplicates", "off_level",
                                               "skipped", "off_band"))):
            if not rows:
                continue
            table = Table(title=title, title_justify="left")
            for col in columns:
                table.add_column(col)
            for row in rows:
                table.add_row(*(_cell(row[col]) for col in columns))
            out_console.print(table)


def _cell(value) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k}={v}" for k, v in value.items() if v is not None)
    return "-" if value is None else str(value)


@db_app.command("export")
def db_export(db: DbArg, type_name: TypeOpt = None, param: ParamOpt = None,
              level: LevelOpt = None, since: SinceOpt = None, until: UntilOpt = None,
              batch_id: BatchOpt = None, rating: RatingOpt = None,
              source: FromOpt = "puzzles",
              variants: VariantsOpt = False, out: OutOpt = None, force: ForceOpt = False,
              fmt: Annotated[str, typer.Option("--format", help="jsonl (the records of 'gen "
                             "--format json', with the store's fields under 'store') or csv.")
                             ] = "jsonl",
              limit: Annotated[Optional[int], typer.Option("--limit", help="At most this many "
                               "(the first stored, or with --draw a random draw).")] = None,
              draw: Annotated[Optional[int], typer.Option("--draw", help="Draw --limit "
                              "puzzles at random with this seed (the same seed, the same "
                              "draw).")] = None):
    """Export the selected puzzles as JSON Lines or CSV."""
    with _errors():
        if fmt not in EXPORT_FORMATS:
            raise PuzzleInputError(f"bad --format '{fmt}': expected jsonl or csv")
        check_draw(limit, draw)
        _write(db, _filters(type_name, param, level, since, until, batch_id, rating), source,
               variants, limit, draw, fmt, out, force)


@db_app.command("query")
def db_query(db: DbArg, type_name: TypeOpt = None, param: ParamOpt = None,
             level: LevelOpt = None, since: SinceOpt = None, until: UntilOpt = None,
             batch_id: BatchOpt = None, rating: RatingOpt = None,
             source: FromOpt = "all",
             variants: VariantsOpt = False, out: OutOpt = None, force: ForceOpt = False,
             limit: Annotated[Optional[int], typer.Option("--limit", help="At most this many "
                              "(the first stored, or with --draw a random draw).")] = None,
             draw: Annotated[Optional[int], typer.Option("--draw", help="Draw --limit puzzles "
                             "at random with this seed (the same seed, the same draw).")] = None,
             fmt: Annotated[str, typer.Option("--format", help="line (the type's one-line "
                            "format), jsonl or csv.")] = "line"):
    """Print the selected puzzles (by default from the stored puzzles and the bins), e.g.
    '--level expert --limit 10 --draw 1' for ten expert puzzles drawn at random."""
    with _errors():
        if fmt not in ("line", *EXPORT_FORMATS):
            raise PuzzleInputError(f"bad --format '{fmt}': expected line, jsonl or csv")
        check_draw(limit, draw)
        _write(db, _filters(type_name, param, level, since, until, batch_id, rating), source,
               variants, limit, draw, fmt, out, force)


def _write(db: Path, filters: Filters, source: str, variants: bool, limit, draw, fmt: str,
           out: Path | None, force: bool = False) -> None:
    if source not in SOURCES:
        raise PuzzleInputError(f"bad --from '{source}': expected one of {', '.join(SOURCES)}")
    host = _host() if fmt in ("line", "csv") else None
    if out is not None:
        files.check_out(out, force=force, new_file=True)
    with Store(db, create=False, option="DB") as store:
        with files.output(out, newline="") if out else contextlib.nullcontext(streams.stdout) \
                as sink:
            writer = csv.writer(sink) if fmt == "csv" else None
            if writer:
                writer.writerow(CSV_FIELDS)
            written = 0
            for written, record in enumerate(records(store, filters, source, variants, limit,
                                                     draw), 1):
                if fmt == "jsonl":
                    sink.write(json.dumps(record) + "\n")
                elif fmt == "line":
                    sink.write(_line(host, record) + "\n")
                else:
                    writer.writerow(_csv_row(host, record))
            if sink is streams.stdout:
                sink.flush()
        if not written:
            where = {"puzzles": "puzzles", "bins": "bins"}.get(source, "puzzles and bins")
            why = ""
            if filters.rating is not None:
                why = ("; puzzles have a rating when made to a band ('gen --rating LO-HI "
                       "--db', 'batch --rating LO-HI')")
            elif filters.level is not None:  # say what levels there are, if any
                known = levels(store, filters.type, source)
                why = (f"; it has no puzzles at any level (grade them: 'batch --difficulty "
                       "LEVEL' stores graded puzzles)" if not known
                       else f"; its levels: {', '.join(known)}")
            err_console.print(f"puzzle-engine: no match in {db} ({where} searched){why}",
                              markup=False)


def _line(host, record) -> str:
    """A record in its type's line format (the JSON record when the type is not loaded
    or cannot read it)."""
    try:
        ptype = host.get_type(record["type"])
        instance = calls.call(ptype, "from_json", params=record["params"], record=record)
        return calls.text(ptype, "format", params=record["params"], instance=instance,
                          fmt="line")
    except PuzzleEngineError:
        return json.dumps(record)


def _csv_row(host, record) -> list:
    store = record["store"]
    row = {"id": store.get("id"), "type": record["type"], "params": json.dumps(record["params"]),
           "key": store["key"], "variant_of": store.get("variant_of"),
           "variant": record.get("variant"), "bin": store.get("bin"),
           "level": store.get("level"),
           "complexity": store.get("complexity") or (record.get("complexity") or {}).get("name"),
           "complexity_level": (record.get("complexity") or {}).get("level")
           if "bin" not in store else store.get("level"),
           "puzzle": _line(host, record), "record": json.dumps(record),
           "solution": None if record.get("solution") is None else json.dumps(record["solution"]),
           **{k: record.get(k) for k in ("seed", *PROVENANCE)},
           "created_at": store["created_at"]}
    return ["" if row[k] is None else row[k] for k in CSV_FIELDS]
