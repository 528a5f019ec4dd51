"""The explanation model: the type's MiniZinc model flattened once, with every FlatZinc
constraint assigned to the constraint group it came from.

The type's groups (``Explanation.constraint_groups``) are written one per line into a file
of their own and compiled with the type's model files, the data of the board without its
givens, and the groups' ``data`` (which turns the model's own copy of those rules off).
MiniZinc's ``--keep-paths`` annotates each FlatZinc constraint with the path of the
MiniZinc expression it came from; the path's first step is the top-level item, so the
file and line of that item name the group. What is left (the model's other constraints)
is background, always on. A constraint that only defines an introduced variable
(``defines_var``: a reified comparison, a sum) constrains nothing by itself and is
background too, so that a definition shared by two groups never switches off with one.

Each group is compiled as ``PE_GROUP_<g> -> (its constraint)``, with ``PE_GROUP_<g>`` a
Boolean of its own that the explainer assumes true or false (Demystify's indicators). Had
the group been compiled on its own, MiniZinc would fold what it says of one variable into
that variable's domain (a cell's ``dir[c] != k`` off the board, ``root_row[c] <= i``),
which then holds whether the group is on or not, and a reason could lean on a group it
does not name. Under its indicator nothing of a group is at the root, so nothing is
folded: every item of a group is a reified relation (defining an introduced Boolean) and
a clause over those Booleans and the indicator. A clause "indicator -> B" whose B only
that clause uses, defined by one reified relation, is read back as the relation
half-reified by the indicator: the model the explainer builds is then the one the group
would have given without the folding (an all_different stays one constraint through the
explainer's own library, ``models_mzn/explain``).

Without groups the model's constraints are one group, "the rules". Givens are not in the
model: the explainer states them as assumptions, like every later deduction.
"""
from __future__ import annotations

import json
import importlib.resources
import math
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import calls, processes
from ..errors import ModelError, PluginError
from ..solving import cpsat, flatzinc
from ..solving.compiled import compile_error, model_files
from ..solving.discovery import find_solver, minizinc_binary
from ..types import ConstraintGroup, ConstraintGroups

RULES = "the rules"  #: the one group of a type that declares none
GUARD = "PE_GROUP_"  #: the indicator of group g is the Boolean GUARD + str(g)


@dataclass
class Flattened:
    """The FlatZinc of the explanation model, read: its items, the group of each
    constraint item (an index into ``names``; ``None`` for background), the groups' human
    names, the FlatZinc name of each square of the decision array, and the indicator
    variables (name -> group), which the items of their group name."""

    items: list[flatzinc.Item]
    group_of: dict[int, int | None]     # item index -> group index or None
    names: list[str]
    squares: list[str]
    guards: dict[str, int] = field(default_factory=dict)
    #: The explainer's switchable models of this FlatZinc, shared by the puzzles that
    #: share it (``Explainer._build``): their answers do not depend on the puzzles asked
    #: before (CP-SAT keeps nothing between solves; a SAT twin is asked only yes or no).
    shared: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self):
        arrays = {it.name: [e.name for e in it.value if isinstance(e, flatzinc.Ident)]
                  for it in self.items if it.kind in ("var", "par") and it.array
                  and isinstance(it.value, list)}
        #: The scalar variables each constraint item reads (through its arrays).
        self.refs: dict[int, set[str]] = {}
        #: ... and the names it uses (arrays by their own name).
        self.uses: dict[int, set[str]] = {}
        #: The variable each defining constraint item defines.
        self.defines: dict[int, str] = {}
        for k in self.group_of:
            names: set[str] = set()
            _idents(self.items[k].value, names)
            self.uses[k] = names
            self.refs[k] = {e for n in names for e in arrays.get(n, [n])}
            for ann in self.items[k].anns:
                if isinstance(ann, flatzinc.Call) and ann.name == "defines_var" and ann.args \
                        and isinstance(ann.args[0], flatzinc.Ident):
                    self.defines[k] = ann.args[0].name


#: The explainer's MiniZinc library, searched before the solver's and the standard one.
LIBRARY = importlib.resources.files("puzzle_engine_models") / "explain"


def groups_of(ptype, params, instance) -> ConstraintGroups | None:
    """The type's constraint groups, checked."""
    value = calls.call(ptype, "constraint_groups", params=params, instance=instance)
    if value is None:
        return None
    wanted = ("ConstraintGroups(groups, data) of ConstraintGroup(name, MiniZinc constraint), "
              "the name printable text on one line")
    if not (isinstance(value, ConstraintGroups) and isinstance(value.data, Mapping)
            and isinstance(value.groups, (tuple, list)) and value.groups and all(
                isinstance(g, ConstraintGroup) and isinstance(g.name, str) and g.name
                and g.name.isprintable()
                and isinstance(g.constraint, str) and g.constraint.strip()
                and "\n" not in g.constraint for g in value.groups)):
        raise calls.bad_result("constraint_groups", ptype, value, wanted)
    for g in value.groups:  # the step rating's (``ladder``): a finite weight from 0, a kind
        w = g.weight
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) or w < 0:
            raise calls.bad_result("constraint_groups", ptype, w,
                                   f"a finite number from 0 as the weight of {g.name!r}")
        if not isinstance(g.kind, str):
            raise calls.bad_result("constraint_groups", ptype, g.kind,
                                   f"a string as the kind of {g.name!r}")
    return value


#: The explanation models flattened in this process, the most recent last: puzzles of one
#: type and size share one (the givens are not in it), so a batch of hints (a play page)
#: runs MiniZinc once per type and size, not once per puzzle.
_FLATTENED: OrderedDict[str, Flattened] = OrderedDict()
KEEP = 8


def flatten(ptype, params, data: Mapping[str, Any], groups: ConstraintGroups | None
            ) -> Flattened:
    """Compile ``ptype``'s model with ``data`` (no givens) and ``groups`` for CP-SAT, or
    the same model compiled earlier in this process (read-only, so shared)."""
    key = json.dumps([ptype.name, [str(part) for part in ptype.models], dict(data),
                      None if groups is None else [[(g.name, g.constraint) for g in groups.groups],
                                                   dict(groups.data)]],
                     sort_keys=True, default=str)
    if key in _FLATTENED:
        _FLATTENED.move_to_end(key)
        return _FLATTENED[key]
    flat = _flatten(ptype, params, data, groups)
    _FLATTENED[key] = flat
    while len(_FLATTENED) > KEEP:
        _FLATTENED.popitem(last=False)
    return flat


def _flatten(ptype, params, data: Mapping[str, Any], groups: ConstraintGroups | None
             ) -> Flattened:
    info = find_solver(cpsat.SOLVER_ID)
    folder = processes.temp_dir()
    try:
        tmp = Path(folder.name)
        group_file = tmp / "groups.mzn"
        files, labels = model_files(ptype, [], tmp)
        if groups:
            group_file.write_text("".join(
                f"var bool: {GUARD}{i}; constraint {GUARD}{i} -> ({g.constraint});\n"
                for i, g in enumerate(groups.groups)))
            files = ["-I", str(LIBRARY), *files, str(group_file)]
            labels[str(group_file)] = f"the constraint groups of puzzle '{ptype.name}'"
            data = {**data, **groups.data}
        (tmp / "data.json").write_text(json.dumps(dict(data)))
        fzn = tmp / "model.fzn"
        # --keep-paths also writes a symbol table, by default next to the first model
        # file (inside the installed package): into the temporary folder instead.
        proc = processes.run_minizinc([minizinc_binary(), "--solver", info.id, "--keep-paths",
                                       "--output-paths-to-file", str(tmp / "model.paths"),
                                       "-c", *files, str(tmp / "data.json"),
                                       "--fzn", str(fzn), "--ozn", "/dev/null"])
        if proc.returncode != 0:
            raise ModelError(compile_error(ptype, proc.stderr, labels))
        text = fzn.read_text()
    finally:
        folder.cleanup()
    try:
        items = flatzinc.parse(text)
    except flatzinc.FznError as exc:
        raise ModelError(f"model error in puzzle '{ptype.name}': the explainer cannot read "
                         f"its FlatZinc: {exc}") from None
    names = [g.name for g in groups.groups] if groups else [RULES]
    guards = {f"{GUARD}{i}": i for i in range(len(names))} if groups else {}
    items = _half_reified(items, guards)
    group_of: dict[int, int | None] = {}
    for k, item in enumerate(items):
        if item.kind != "constraint":
            continue
        used: set[str] = set()
        _idents(item.value, used)
        guard = sorted(guards[n] for n in used if n in guards)
        if _defines(item):
            group_of[k] = None
        elif guard:
            group_of[k] = guard[0]
        elif not groups:
            group_of[k] = 0
        else:
            group_of[k] = _group_line(item, str(group_file))
    squares = flatzinc.decision_names(items, ptype.decision)
    if squares is None:
        raise ModelError(f"model error in puzzle '{ptype.name}': decision array "
                         f"'{ptype.decision}' is not an output array of the model")
    if groups and not any(g is not None for g in group_of.values()):
        raise PluginError(f"constraint_groups ({calls.owner(ptype)}): no constraint of the "
                          "flattened model comes from a group")
    return Flattened(items, group_of, names, squares, guards)


def _half_reified(items: list[flatzinc.Item], guards: Mapping[str, int]) -> list[flatzinc.Item]:
    """``items`` with each clause "indicator -> B" whose B is used by nothing else and
    defined by one reified relation R(args, B) replaced by R's half-reified form
    R_imp(args, indicator), and that definition dropped."""
    if not guards:
        return items
    uses: dict[str, int] = {}
    definer: dict[str, int] = {}
    for k, item in enumerate(items):
        if item.kind == "constraint":
            names: set[str] = set()
            _idents(item.value, names)
            for n in names:
                uses[n] = uses.get(n, 0) + 1
            for ann in item.anns:
                if isinstance(ann, flatzinc.Call) and ann.name == "defines_var" and ann.args \
                        and isinstance(ann.args[0], flatzinc.Ident):
                    definer[ann.args[0].name] = k
        elif item.kind == "var" and not item.array:
            if any(isinstance(a, flatzinc.Ident) and a.name == "output_var" for a in item.anns):
                uses[item.name] = uses.get(item.name, 0) + 2  # seen outside: keep it
    out = list(items)
    dropped: set[int] = set()
    for k, item in enumerate(items):
        if not (item.kind == "constraint" and item.name == "bool_clause"
                and len(item.value) == 2 and len(item.value[0]) == 1 and len(item.value[1]) == 1):
            continue
        (b,), (on,) = item.value
        if not (isinstance(b, flatzinc.Ident) and isinstance(on, flatzinc.Ident) and on.name in guards
                and uses.get(b.name) == 2 and b.name in definer):
            continue
        d = items[definer[b.name]]
        args = d.value
        if not (args and args[-1] == b):
            continue
        if d.name.endswith("_reif"):
            name = d.name[:-len("_reif")] + "_imp"
        elif cpsat._REIFIED_BY_NAME.get(d.name) == len(args):
            name = d.name + "_imp"
        else:
            continue
        out[k] = flatzinc.Item("constraint", item.line, name, value=[*args[:-1], on], anns=item.anns)
        dropped.add(definer[b.name])
    return [it for k, it in enumerate(out) if k not in dropped]


def _idents(value, out: set[str]) -> None:
    if isinstance(value, (flatzinc.Ident, flatzinc.Access)):
        out.add(value.name)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _idents(v, out)


def _defines(item: flatzinc.Item) -> bool:
    return any(isinstance(a, flatzinc.Call) and a.name == "defines_var" for a in item.anns)


def _group_line(item: flatzinc.Item, group_file: str) -> int | None:
    """The group (0-based line of the groups file) a constraint's path starts in."""
    for ann in item.anns:
        if isinstance(ann, flatzinc.Call) and ann.name == "mzn_path" and ann.args:
            first = str(ann.args[0]).split(";", 1)[0].split("|")
            if len(first) > 1 and first[0] == group_file:
                return int(first[1]) - 1
            return None
    return None
