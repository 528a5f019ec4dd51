"""Going on with a batch (``gen --out FILE --resume``): what the puzzles already in the
file must share with this run, and where this run goes on from.

``outfile`` reads the file back and checks each line against what it is given; this
module says what that is (the ``same`` fields), and from the lines it read works out how
many puzzles are done and the seed to go on with. A batch is a run of seeds, each making a
puzzle and its variants; with ``--difficulty`` seeds that miss the level are skipped, so
each record notes the next seed to try.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import __version__, calls
from ..errors import PuzzleInputError
from ..hookspecs import PuzzleType
from ..inputs import parse
from ..solving.discovery import EXACT
from . import outfile


def same_fields(engine, ptype: PuzzleType, strategy, options, judge=None,
                level: str | None = None, band=None) -> dict[str, Any]:
    """What decides the puzzles besides the seed, which a resumed batch must share: the
    solver and its version (any exact solver, for a strategy whose puzzles are alike on
    all of them), the versions, the strategy's recorded options, and with a ``level`` the
    level, the grader and the level model (by content) of ``judge``, with a rating
    ``band`` (``explain.band.Band``) the band. Dotted names, as ``outfile.read_existing``
    takes them."""
    solver = engine.backend.solver_id
    if solver in EXACT and getattr(strategy, "alike_on_exact_solvers", False):
        # The same puzzles on every exact solver (and version): the batch may go on on any.
        pinned: dict[str, Any] = {"solver": outfile.OneOf(sorted(EXACT))}
    else:
        pinned = {"solver": solver, "solver_version": engine.backend.info.version}
    same = {**pinned, "plugin_version": ptype.plugin_version, "engine_version": __version__,
            **{f"options.{k}": v for k, v in strategy.record_options(options).items()
               if k != "batch"}}
    if level is not None:
        same.update({"difficulty.level": level, "difficulty.grader": judge.which,
                     "difficulty.model_sha256": judge.digest})
    if band is not None:
        same["rating.band"] = [band.low, band.high]
    return same


def existing_batch(ptype: PuzzleType, params: dict[str, Any], out: Path | None, fmt: str,
                   resume: bool, same: dict[str, Any]) -> outfile.Existing | None:
    """What ``out`` holds (checked to be this batch's records, with ``resume``), or None
    when there is nothing to go on from (always without ``resume``)."""
    if out is None:
        return None
    if not resume:  # a file that is not empty was refused before (files.check_out)
        return None

    def check_line(line: str) -> None:
        """A line is ours when it reads as a puzzle of these options and is written back
        the same (a hand-made line that merely parses is not)."""
        parsed = parse(ptype, params, line)
        if parsed.params != params:
            raise PuzzleInputError(f"a puzzle with options {parsed.params}, not {params}")
        if calls.text(ptype, "format", params=params, instance=parsed.instance,
                      fmt="line") != line:
            raise PuzzleInputError("not written as 'gen --format line' writes")
    return outfile.read_existing(out, fmt, ptype.name, params, check_line, same)


def done_and_seed(out: Path | None, fmt: str, existing: outfile.Existing | None,
                  seed: int | None, variants: int) -> tuple[int, int | None]:
    """How many puzzles (seeds written) ``out`` already holds, and the seed to go on from
    (``seed``, the one asked for, when there are none; it may be None).

    In JSON, a seed's group is its puzzle and its ``variants`` (or every level a growing
    strategy kept, all variant None), and seeds follow each other but for those skipped
    (their strategy found no puzzle), which the next record lists in ``skipped``. The
    line format records no seed: the seed asked for plus the groups written (a run that
    skipped seeds is resumed exactly in JSON only)."""
    if existing is None or not existing.lines:
        return 0, seed
    group = 1 + variants
    if fmt == "line":
        if seed is None:
            raise PuzzleInputError(f"{out} holds puzzles in the line format, which does not "
                                   "record their seed: pass the batch's --seed to resume it")
        if len(existing.lines) % group:
            raise PuzzleInputError(f"{out} holds {len(existing.lines)} lines, not whole groups "
                                   f"of a puzzle and its {variants} variants: was it made with "
                                   "another --variants?")
        return len(existing.lines) // group, seed + len(existing.lines) // group
    records = existing.records
    first_seed = records[0]["seed"] - len(_skipped(records[0]))
    groups: list[list[dict[str, Any]]] = []
    next_seed = first_seed
    for number, record in enumerate(records, 1):
        starts = not groups or record["seed"] != groups[-1][0]["seed"]
        if starts:
            expected = (next_seed + len(_skipped(record)), None)
            if variants and groups and len(groups[-1]) != group:  # a group cut short
                expected = (groups[-1][0]["seed"], len(groups[-1]))
        else:
            last = groups[-1][-1]["variant"]
            expected = (groups[-1][0]["seed"], None if not variants else (last or 0) + 1)
        if (record["seed"], record["variant"]) != expected or \
                (variants and expected[1] is not None and expected[1] > variants):
            raise PuzzleInputError(
                f"{out}, line {number}: seed {record['seed']} variant {record['variant']}, "
                f"expected seed {expected[0]} variant {expected[1]}: not one batch of "
                f"--variants {variants}; --resume leaves the file untouched")
        if starts:
            groups.append([record])
            next_seed = record["seed"] + 1
        else:
            groups[-1].append(record)
    if variants and len(groups[-1]) != group:
        raise PuzzleInputError(f"{out} ends inside a group of a puzzle and its {variants} "
                               "variants: was it made with another --variants?")
    if seed is not None and first_seed != seed:
        raise PuzzleInputError(f"{out} was started with --seed {first_seed}, not {seed}")
    return len(groups), next_seed


def _skipped(record: dict[str, Any]) -> list[int]:
    """The seeds a record says were skipped just before it (``sinks.Lines``)."""
    skipped = record.get("skipped")
    return skipped if isinstance(skipped, list) else []


def done_and_next_seed(out: Path | None, existing: outfile.Existing | None,
                       seed: int | None) -> tuple[int, int | None]:
    """With ``--difficulty`` or ``--rating``: how many puzzles ``out`` already holds, and
    the next seed to try, which the last record notes (JSON only: seeds that miss the
    level or band are skipped, so the records' seeds do not follow each other)."""
    if existing is None:
        return 0, seed
    records = [r for r in existing.records if r["variant"] is None]
    if not records:
        return 0, seed
    notes = [records[-1].get(name) for name in ("difficulty", "rating")]
    found = [n.get("next_seed") for n in notes if isinstance(n, dict) and "next_seed" in n]
    next_seed = found[0] if found else None
    if not isinstance(next_seed, int) or isinstance(next_seed, bool):
        raise PuzzleInputError(f"{out}, line {len(existing.records)}: no difficulty.next_seed "
                               "nor rating.next_seed: not a batch of gen --difficulty or "
                               "--rating; --resume leaves it untouched")
    return len({r["seed"] for r in records}), next_seed
