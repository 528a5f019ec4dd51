"""What is written under a drawing: its number on the sheet, the type, the parameters,
the level, and a short id that, with the options shown, reproduces the puzzle.

The id is ``TYPE/SEED/HASH``: ``gen TYPE --seed SEED`` with the parameters shown and the
``gen`` flags shown after the id (the record's strategy options that are not at their
defaults, such as ``--target-empty 8``), on the plugin version and solver shown, makes
the puzzle again; ``HASH``, the first six hexadecimal digits of the SHA-256 of the
puzzle's line format, tells whether it is the same one. A variant (``gen --variants``)
has ``SEED.V``; a record without a seed (from ``solve --format json``) has the id
``TYPE/HASH``."""
from __future__ import annotations

import hashlib

from .. import calls
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
    """The record's level: the grade of ``gen --difficulty`` (``level expert``), else its
    complexity level (``givens 25``)."""
    graded = record.get("difficulty")
    if isinstance(graded, dict) and _text(graded.get("level")):
        return f"level {_text(graded['level'])}"
    binned = record.get("complexity")
    if isinstance(binned, dict) and _text(binned.get("level")):
        return f"{_text(binned.get('name')) or 'complexity'} {_text(binned['level'])}"
    return None


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


def caption(entry: Entry, number: int) -> list[str]:
    """Two lines: ``N. TYPE · LEVEL`` with the parameters (those not at their declared
    defaults), then the id with the ``gen`` flags beyond the parameters, the plugin
    version and the solver that made it."""
    head = f"{number}. {entry.ptype.name}"
    shown = level(entry.record)
    if shown:
        head += f" \u00b7 {shown}"
    # A parameter at its declared default, or unset, is left out: 'gen' fills it in the
    # same way.
    defaults = {p.name: p.default for p in entry.ptype.params if p.default is not None}
    params = ", ".join(f"{k.replace('_', '-')} {_value(v)}" for k, v in entry.params.items()
                       if v is not None and (k not in defaults or defaults[k] != v))
    made = [f"id {short_id(entry)}"]
    flags = gen_flags(entry)
    if flags:
        made.append(f"gen {' '.join(flags)}")
    version, plugin = entry.record.get("plugin_version"), entry.record.get("plugin")
    if isinstance(version, str) and version:
        made.append(f"{plugin if isinstance(plugin, str) and plugin else entry.ptype.plugin} "
                    f"{version}")
    solver = entry.record.get("solver")
    if isinstance(solver, str) and solver:
        made.append(solver.rsplit(".", 1)[-1])
    return [f"{head} \u00b7 {params}" if params else head, " \u00b7 ".join(made)]
