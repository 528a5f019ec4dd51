"""What is written under a drawing, in words: its number on the sheet, the type, its level
or rating (an ungraded puzzle has none), the parameters the user set, and a short id
that, with the options shown, reproduces the puzzle (``render --caption short``; ``full``
adds the plugin version and the solver, ``none`` leaves the caption out).

The id is ``TYPE/SEED/HASH``: ``gen TYPE --seed SEED`` with the parameters shown and the
``gen`` flags shown after the id (the record's strategy options that are not at their
defaults, such as ``--target-empty 8``), on the plugin version and solver shown, makes
the puzzle again; ``HASH``, the first six hexadecimal digits of the SHA-256 of the
puzzle's line format, tells whether it is the same one. A variant (``gen --variants``)
has ``SEED.V``; a record without a seed (from ``solve --format json``) has the id
``TYPE/HASH``."""
from __future__ import annotations

import hashlib
import json

from .. import calls
from ..errors import PuzzleEngineError
from .sources import Entry


def short_id(entry: Entry) -> str:
    line = calls.text(entry.ptype, "format", params=entry.params, instance=entry.instance,
                      fmt="line")
    digest = hashlib.sha256(line.encode("utf-8")).hexdigest()[:6]
    seed, variant = entry.record.get("seed"), entry.record.get("variant")
    if not isinstance(seed, int) or isinstance(seed, bool):
        return f"{entry.ptype.name}/{digest}"
    if isinstance(variant, int) and not isinstance(variant, bool):
        return f"{entry.ptype.name}/{seed}.{variant}/{digest}"
    return f"{entry.ptype.name}/{seed}/{digest}"


def _text(value) -> str | None:
    """A record's field as caption text: a string or a number, else nothing (a record is
    data from anywhere)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return None


def level(record: dict) -> str | None:
    """The record's level in words: the grade of ``gen --difficulty`` or of a store's
    grading (``level expert``), else the explainer's step rating (``rating 2.31``); an
    ungraded puzzle has none (its complexity, ``givens 25``, is no level)."""
    graded = record.get("difficulty")
    if isinstance(graded, dict) and _text(graded.get("level")):
        return f"level {_text(graded['level'])}"
    rated = record.get("rating")
    score = rated.get("score") if isinstance(rated, dict) else rated
    if isinstance(score, (int, float)) and not isinstance(score, bool) and \
            score == score and abs(score) != float("inf"):
        return f"rating {score:.2f}"
    return None


def complexity(record: dict) -> str | None:
    """The record's complexity level as it was binned (``givens 25``), or None."""
    binned = record.get("complexity")
    if isinstance(binned, dict) and _text(binned.get("level")):
        return f"{_text(binned.get('name')) or 'complexity'} {_text(binned['level'])}"
    return None


def kind(ptype) -> str:
    """The type's name in words: ``block-puzzle`` is ``Block Puzzle``."""
    words = ptype.name.replace("-", " ").replace("_", " ").split()
    return " ".join(w[:1].upper() + w[1:] for w in words) or ptype.name


_SET: dict[tuple[int, str], tuple[str, ...]] = {}


def set_params(entry: Entry) -> dict:
    """The parameters the user set: in the declared order, those the type's
    ``check_params`` would not fill in the same way from the ones before them. A parameter at its default, or implied by another
    (a box shape by the board's size), is left out: ``gen`` with the rest makes the puzzle."""
    params = entry.params
    names = [p.name for p in entry.ptype.params if params.get(p.name) is not None]
    key = (id(entry.ptype), json.dumps(params, sort_keys=True, default=str))
    if key not in _SET:
        shown: dict = {}
        for name in names:  # in the declared order: a size, then the box it implies
            try:
                filled = calls.canonical_params(entry.ptype, shown)
            except PuzzleEngineError:
                filled = {}
            if name not in filled or filled[name] != params[name]:
                shown[name] = params[name]
        _SET[key] = tuple(shown)
    return {name: params[name] for name in _SET[key]}


def _value(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def gen_flags(entry: Entry) -> list[str]:
    """The ``gen`` flags of the record's ``options`` that are not at their defaults (its
    strategy's options, ``entry.gen_options``), as they are typed: ``--target-empty 8``."""
    recorded = entry.record.get("options")
    if not isinstance(recorded, dict):
        return []
    flags = []
    for option in entry.gen_options:
        value = recorded.get(option.name)
        if value is None or value == option.default:
            continue
        if isinstance(value, bool):
            flags.append(option.flag if value else f"--{option.negative}" if option.negative
                         else f"--no-{option.flag[2:]}")
        elif _text(value) is not None:
            flags.append(f"{option.flag} {_text(value)}")
    return flags


CAPTIONS = ("short", "full", "none")  #: ``render --caption``


def caption(entry: Entry, number: int, mode: str = "short") -> list[str]:
    """The caption's lines. ``short``: ``N. Type · LEVEL · PARAMS`` (the parameters the
    user set), then the id with the ``gen`` flags beyond the parameters, which together
    make the puzzle again. ``full`` adds the complexity level, the plugin version and
    the solver that made it. ``none``: no caption."""
    if mode == "none":
        return []
    head = [f"{number}. {kind(entry.ptype)}"]
    shown = level(entry.record)
    if shown:
        head.append(shown)
    params = ", ".join(f"{k.replace('_', '-')} {_value(v)}"
                       for k, v in set_params(entry).items())
    if params:
        head.append(params)
    made = [f"id {short_id(entry)}"]
    flags = gen_flags(entry)
    if flags:
        made.append(f"gen {' '.join(flags)}")
    if mode == "full":
        binned = complexity(entry.record)
        if binned:
            made.append(binned)
        version, plugin = entry.record.get("plugin_version"), entry.record.get("plugin")
        if isinstance(version, str) and version:
            made.append(f"{plugin if isinstance(plugin, str) and plugin else entry.ptype.plugin} "
                        f"{version}")
        solver = entry.record.get("solver")
        if isinstance(solver, str) and solver:
            made.append(solver.rsplit(".", 1)[-1])
    return [" \u00b7 ".join(head), " \u00b7 ".join(made)]
