"""Calling a puzzle type's methods: every call names the plugin that answered, and every
result is checked before the engine uses it. A plugin's bug is one line, never a
traceback, and never reaches another plugin's types."""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .errors import PluginError, PuzzleEngineError, one_line
from .hookspecs import facet_of
from .types import Parsed


def owner(ptype) -> str:
    return f"puzzle '{ptype.name}', plugin '{ptype.plugin}'"


def call(ptype, method: str, /, **kwargs):
    """``ptype.method(**kwargs)``; an exception other than our own becomes a
    ``PluginError`` naming the method, the type and its plugin. A method of a facet the
    type does not have (``isinstance``) is not called: the answer is the facet's
    ``NOT_OFFERED`` one, or, where it has none, an error naming the facet."""
    facet = facet_of(method)
    if facet is not None and not isinstance(ptype, facet):
        if method in facet.NOT_OFFERED:
            return facet.NOT_OFFERED[method]
        raise PluginError(f"{method} is needed here, and {owner(ptype)} does not offer the "
                          f"{facet.__name__} facet (see docs/plugin-authoring.md)")
    try:
        return getattr(ptype, method)(**kwargs)
    except PuzzleEngineError:
        raise
    except NotImplementedError:
        raise PluginError(f"{method} of {owner(ptype)} is not implemented, and is needed "
                          "here (see docs/plugin-authoring.md)") from None
    except Exception as exc:  # noqa: BLE001 - a plugin's bug is one line, not a traceback
        raise PluginError(f"{method} ({owner(ptype)}) raised {type(exc).__name__}: "
                          f"{one_line(exc)}") from exc


def level(complexity, ptype, params, instance):
    """A complexity function's level of ``instance``, checked to be hashable."""
    try:
        value = complexity.level(ptype, params, instance)
        hash(value)
    except PuzzleEngineError:
        raise
    except Exception as exc:  # noqa: BLE001 - one line naming the plugin
        raise PluginError(f"complexity function '{complexity.name}' on {owner(ptype)} raised "
                          f"{type(exc).__name__}: {one_line(exc)}") from exc
    return value


def bad_result(method: str, ptype, value: Any, wanted: str) -> PluginError:
    """The one-line error for a method that returned ``value`` where ``wanted`` was due."""
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return PluginError(f"{method} ({owner(ptype)}) returned {shown}, not {wanted}")


def canonical_params(ptype, raw: Mapping[str, Any]) -> dict[str, Any]:
    """``raw`` with the defaults filled in, through the type's ``check_params``."""
    params = {p.name: raw.get(p.name, p.default) for p in ptype.params}
    result = call(ptype, "check_params", params=params)
    if not isinstance(result, dict):
        raise bad_result("check_params", ptype, result, "a dict of parameters")
    return result


def preferred_solver(ptype, params: Mapping[str, Any] | None) -> str | None:
    result = call(ptype, "preferred_solver", params=params)
    if result is not None and not isinstance(result, str):
        raise bad_result("preferred_solver", ptype, result, "a solver name or None")
    return result


def wants_free_search(ptype, solver_id: str, tags: tuple[str, ...] = ()) -> bool:
    """Whether the type asks for free search on this solver (by id, its last dotted part,
    or a tag)."""
    names = {solver_id, solver_id.rsplit(".", 1)[-1], *tags}
    return any(name in names for name in ptype.free_search)


def model_sources(ptype) -> list[tuple[str, str]]:
    """Each model part as ``(label, code)``: a file's name and text, or ``("<inline>", code)``."""
    parts = []
    for part in ptype.models:
        if isinstance(part, str):
            parts.append(("<inline>", part))
        else:
            parts.append((str(getattr(part, "name", part)), part.read_text()))
    return parts


def data(ptype, params, instance, solver) -> dict[str, Any]:
    value = call(ptype, "to_data", params=params, instance=instance, solver=solver)
    if not isinstance(value, Mapping):
        raise bad_result("to_data", ptype, value, "a mapping of MiniZinc data")
    return dict(value)


def instance_model(ptype, params, instance) -> list[str]:
    """The type's ``instance_model``, checked: MiniZinc code to add, as a list (empty for
    None)."""
    value = call(ptype, "instance_model", params=params, instance=instance)
    if value is None:
        return []
    if not isinstance(value, str):
        raise bad_result("instance_model", ptype, value, "None or MiniZinc code (a str)")
    return [value]


def split_data(ptype, params, instance, solver):
    """The type's ``split_data``, checked: None, or ``(shared data, {array: ints}, model)``,
    ``model`` the MiniZinc text of the instance's shape or None."""
    value = call(ptype, "split_data", params=params, instance=instance, solver=solver)
    if value is None:
        return None
    wanted = "None or (shared data, {array name: list of integers}[, MiniZinc text])"
    if not (isinstance(value, tuple) and len(value) in (2, 3) and isinstance(value[0], Mapping)
            and isinstance(value[1], Mapping)) or (len(value) == 3 and not isinstance(value[2], str)):
        raise bad_result("split_data", ptype, value, wanted)
    for name, values in value[1].items():
        if not isinstance(name, str) or not isinstance(values, (list, tuple)) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise bad_result("split_data", ptype, value, wanted)
    model = value[2] if len(value) == 3 else None
    return dict(value[0]), {name: list(values) for name, values in value[1].items()}, model


def split_values(ptype, params, instance, values):
    """The type's ``split_values``, checked to be a mapping."""
    value = call(ptype, "split_values", params=params, instance=instance, values=values)
    if not isinstance(value, Mapping):
        raise bad_result("split_values", ptype, value, "a mapping of output values")
    return value


def rules(ptype, params) -> str | None:
    """The type's rules text (``Rules.rules``), checked: one line of text, or ``None``
    for a type that says none."""
    value = call(ptype, "rules", params=params)
    if value is not None and (not isinstance(value, str) or "\n" in value):
        raise bad_result("rules", ptype, value, "one line of text or None")
    return value or None


def text(ptype, method: str, **kwargs) -> str:
    value = call(ptype, method, **kwargs)
    if not isinstance(value, str):
        raise bad_result(method, ptype, value, "text")
    return value


def parsed(ptype, params, text_: str) -> Parsed:
    value = call(ptype, "parse", params=params, text=text_)
    if not isinstance(value, Parsed) or not isinstance(value.params, dict):
        raise bad_result("parse", ptype, value, "a Parsed(params, instance)")
    return value


def record(ptype, params, instance, solution, reserved=()) -> dict[str, Any]:
    """The type's fields of a JSON record. ``reserved`` are the fields the engine writes
    into the same record: a type's field of the same name would be overwritten without a
    word, so it is an error naming the field."""
    value = call(ptype, "to_json", params=params, instance=instance, solution=solution)
    if not isinstance(value, dict):
        raise bad_result("to_json", ptype, value, "a dict of JSON fields")
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        raise bad_result("to_json", ptype, value, "plain JSON values") from None
    taken = sorted(k for k in value if k in reserved)
    if taken:
        raise PluginError(f"to_json ({owner(ptype)}) returned the field"
                          f"{'s' * (len(taken) > 1)} {', '.join(repr(k) for k in taken)}, which "
                          "the engine writes into the same record; give it another name")
    return value


def canonical_form(ptype, params, instance) -> Any:
    """The type's canonical form of ``instance``, checked to be None or plain JSON."""
    value = call(ptype, "canonical_form", params=params, instance=instance)
    if value is not None:
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            raise bad_result("canonical_form", ptype, value, "None or a plain JSON value") from None
    return value


def flag(ptype, method: str, **kwargs) -> bool:
    value = call(ptype, method, **kwargs)
    if value is not True and value is not False:  # "yes" is no verdict
        raise bad_result(method, ptype, value, "True or False")
    return value


def maybe(ptype, method: str, **kwargs) -> bool | None:
    """A yes, a no, or ``None`` for "not decided here" (``verify_solution``)."""
    value = call(ptype, method, **kwargs)
    if value is not None and value is not True and value is not False:
        raise bad_result(method, ptype, value, "True, False or None")
    return value


def features(ptype, **kwargs) -> dict[str, float]:
    value = call(ptype, "features", **kwargs)
    if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool)
            for k, v in value.items()):
        raise bad_result("features", ptype, value, "a dict of name to number")
    return {k: float(v) for k, v in value.items()}


def board(ptype, method: str, params, value: Any, full: bool) -> tuple[int, ...]:
    """``value``, a grid board a method returned, checked: a sequence of whole numbers, one
    per square, every one a value (not 0) when ``full``."""
    n = call(ptype, "board_size", params=params)
    if not isinstance(value, (list, tuple)) or len(value) != n or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value):
        raise bad_result(method, ptype, value, f"a {'full ' if full else ''}board of "
                         f"{n} whole numbers{' from 1' if full else ''}")
    if full and 0 in value:  # only a structure square may hold 0 ("no clue here")
        fixed = call(ptype, "structure", params=params, board=tuple(value))
        if not isinstance(fixed, (set, frozenset)) or any(
                not v and i not in fixed for i, v in enumerate(value)):
            raise bad_result(method, ptype, value, f"a full board of {n} whole numbers from 1 "
                             "(0 only on a structure square)")
    return tuple(value)
