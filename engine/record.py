"""The record of a generated puzzle: the one place that names its fields and stamps its
provenance.

A strategy makes a ``Puzzle`` (``stamped`` gives it the seed, the plugin and its version,
the solver and its version, and what the puzzle cost); ``Puzzle.to_json`` is the record
``gen --format json`` writes, with the engine's version; a level's grade is the note
``grade_note`` makes. The field lists below are what the rest of the engine reads: the
fields a record of ours always carries (``--resume`` checks them), the ones the store
keeps in columns of their own, the ones of a grade as the store keeps it. This module
depends on nothing above the plugin calls, so that every layer may use it.
"""
from __future__ import annotations

import time
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import calls
from .version import __version__

#: Which puzzle: its type, options, seed and variant number.
IDENTITY = ("type", "params", "seed", "variant")
#: Where it comes from: what decides the puzzle besides its identity.
PROVENANCE = ("plugin", "plugin_version", "engine_version", "solver", "solver_version")
#: The fields the engine writes into every record of ``gen`` (some only for some
#: strategies or options); the strategy's and criterion's fields (``Puzzle.extra``) too.
ENGINE_FIELDS = (*IDENTITY, *PROVENANCE, "solver_calls", "seconds", "minimal", "unknown",
                 "complexity", "options", "rating", "skipped")
#: The fields every record of ours carries, whatever wrote it (``--resume`` refuses a
#: line without them).
REQUIRED = ("type", "params", "seed", "variant", "plugin", "engine_version")
#: The record fields the store keeps in columns of their own (the rest go to ``meta``).
COLUMNS = (*IDENTITY, *PROVENANCE)
#: A puzzle's grade as the store keeps it.
GRADE_FIELDS = ("level", "grader", "model_sha256", "mean_nodes", "mode", "probabilities")


def stamped(ptype, params: Mapping[str, Any], seed: int, backend, calls0: int,
            start: float) -> dict[str, Any]:
    """The fields of a ``Puzzle`` that say where it comes from and what it cost: made
    from ``seed`` by ``ptype`` (its plugin and version) on ``backend`` (its solver and
    version), with the solver calls since ``calls0`` and the time since ``start``
    (``time.perf_counter``)."""
    return {"type": ptype.name, "params": dict(params), "seed": seed, "plugin": ptype.plugin,
            "plugin_version": ptype.plugin_version, "solver": backend.solver_id,
            "solver_version": backend.info.version, "solver_calls": backend.calls - calls0,
            "seconds": time.perf_counter() - start}


@dataclass
class Puzzle:
    """One generated puzzle with everything needed to reproduce it."""

    type: str
    params: dict[str, Any]
    instance: Any
    solution: Any
    seed: int
    plugin: str
    plugin_version: str
    solver: str
    solver_version: str
    solver_calls: int
    seconds: float
    minimal: bool | None = None  # emptying: no given can go (None: not the strategy's notion)
    unknown: int = 0        # checks that timed out (counted as refusals)
    level: Hashable = None
    options: dict[str, Any] = field(default_factory=dict)
    variant: int | None = None  # k for the k-th transformed variant of the puzzle with `seed`
    extra: dict[str, Any] = field(default_factory=dict)  # the strategy's and criterion's fields

    @property
    def grid(self):
        """The instance of a grid puzzle."""
        return self.instance

    def to_json(self, ptype) -> dict[str, Any]:
        reserved = {*ENGINE_FIELDS, *self.extra}
        record = {"type": self.type, "params": self.params,
                  **calls.record(ptype, self.params, self.instance, self.solution, reserved),
                  "seed": self.seed, "variant": self.variant,
                  "plugin": self.plugin, "plugin_version": self.plugin_version,
                  "engine_version": __version__, "solver": self.solver,
                  "solver_version": self.solver_version, "solver_calls": self.solver_calls,
                  "seconds": round(self.seconds, 4)}
        if self.minimal is not None:
            record.update({"minimal": self.minimal, "unknown": self.unknown})
        if "complexity" in self.options:
            record["complexity"] = {"name": self.options.get("complexity"), "level": self.level}
        return {**record, **self.extra, "options": self.options}


def grade_note(judge, grade, level: Hashable, levels: Mapping[str, Any]) -> dict[str, Any]:
    """A puzzle's grade as its record carries it (``difficulty``): its ``level`` and the
    figures of ``grade``, from ``judge``'s model (``difficulty.Judge``)."""
    return {"level": level, "grader": judge.which, "model": judge.model.source,
            "model_sha256": judge.digest, "mean_nodes": round(grade.mean_nodes, 4),
            "mode": grade.mode, "probabilities": levels["probabilities"]}


def stored_grade(note: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a grade note the store keeps (``GRADE_FIELDS``)."""
    return {k: note[k] for k in GRADE_FIELDS}
