"""Contract 2's puzzle types, adapted to contract 3's facets.

In contract 2 a ``PuzzleType`` had every method, most with a default meaning "not
offered"; in contract 3 the core is small and each ability is a facet the type subclasses
(``hookspecs``). The mapping is mechanical: a contract-2 type gets ``Codec`` (whose
defaults its base used to give) and every facet one of whose methods its class has (but
``FlatBoard``: in contract 2 a flat board was an ``Emptying`` type, which is one). Its
class is replaced, once, by a subclass that adds those facets, so the type's own methods
answer as before and the engine's ``isinstance`` tests see the facets.

What cannot be mapped so is refused (``Unadaptable``) with a reason; the host reports it
in one line naming the plugin and pointing to "Migrating from contract v2" in
docs/plugin-authoring.md:

* a type that empties a board (``Emptying``, so a ``FlatBoard``) and reads its solution
  itself (``from_solution``): in contract 3 a flat board's solution is its decision array;
* a type whose class cannot be subclassed with the facets (its metaclass or
  ``__init_subclass__`` refuses, a built-in layout).

Contract 2 also let a criterion leave out ``refuted_by`` and ``checker``, and a strategy
everything but ``name``, ``options``, ``hooks`` and ``generate``; contract 3's protocols
(``hookspecs.Criterion``, ``hookspecs.Strategy``) require them. A contract-2 plugin's
criterion or strategy that lacks one is wrapped (``fill``): the wrapper answers the
missing members as the base class does (``puzzle_engine.criteria.Criterion``,
``puzzle_engine.strategies.Strategy``, which name themselves in ``BASES`` when imported:
they sit above this module) and hands every other attribute to the plugin's object. A
contract-3 plugin's object is never filled: it is refused for the member it lacks.
"""
from __future__ import annotations

from typing import Any

from . import hookspecs
from .hookspecs import FACETS, Codec, FlatBoard, PuzzleType

#: Where a refusal sends the author.
MIGRATING = "see 'Migrating from contract v2' in docs/plugin-authoring.md"

#: Adapted classes, by the class of contract 2 (each is adapted once per process).
_ADAPTED: dict[type, type] = {}


#: The members of each protocol that contract 2 let an object leave out.
OPTIONAL_IN_V2: dict[type, tuple[str, ...]] = {
    hookspecs.Criterion: ("refuted_by", "checker"),
    hookspecs.Strategy: ("description", "make_options", "default_options", "record_options",
                         "alike_on_exact_solvers"),
}
#: protocol -> the base class whose members fill a contract-2 object's missing ones. The
#: base classes add themselves when their module is imported (``filled_by``).
BASES: dict[type, type] = {}
#: Wrapper classes, by (the wrapped object's class, the members filled).
_FILLED: dict[tuple[type, tuple[str, ...]], type] = {}


class Unadaptable(Exception):
    """A contract-2 type that has no mechanical contract-3 form; the message says why."""


def facets_for(cls: type) -> list[type]:
    """The facets ``cls`` (a contract-2 type's class) gets: ``Codec`` unless it has it,
    and each facet it lacks one of whose methods the class has."""
    added = [] if issubclass(cls, Codec) else [Codec]
    for facet in FACETS:
        if issubclass(cls, facet):
            continue
        methods = {name for name, value in vars(facet).items()  # its own, not Rules'
                   if callable(value) and not name.startswith("_")}
        if any(callable(getattr(cls, name, None)) for name in methods):
            added.append(facet)
    return added


def _no_rules(self, params):
    """Contract 2 had no rules text: the adapted type gives none."""
    return None


def adapt(ptype: PuzzleType) -> PuzzleType:
    """``ptype``, a contract-2 type, given its facets (its class replaced by a subclass
    that adds them); raises ``Unadaptable`` with the reason when it cannot be."""
    cls = type(ptype)
    if isinstance(ptype, FlatBoard) and cls.from_solution is not PuzzleType.from_solution:
        raise Unadaptable("it empties a board (Emptying) and reads its solution itself "
                          "(from_solution); a flat board's solution is now its decision "
                          "array")
    if cls not in _ADAPTED:
        # A flat board was an Emptying type in contract 2, and Emptying is one already.
        added = [facet for facet in facets_for(cls) if facet is not FlatBoard]
        body = {"__module__": cls.__module__, "__qualname__": cls.__qualname__,
                "__doc__": cls.__doc__}
        if not hasattr(cls, "rules"):  # contract 2 had no rules text: none, as before
            body["rules"] = _no_rules
        try:
            _ADAPTED[cls] = cls if not added else type(cls)(cls.__name__, (cls, *added), body)
        except Exception as exc:  # noqa: BLE001 - a metaclass, an __init_subclass__
            raise Unadaptable(f"its class {cls.__name__} cannot take the facets as base "
                              f"classes ({type(exc).__name__}: {exc})") from None
    adapted = _ADAPTED[cls]
    if adapted is not cls:
        try:
            ptype.__class__ = adapted
        except TypeError as exc:
            raise Unadaptable(f"its class {cls.__name__} cannot take the facets as base "
                              f"classes ({exc})") from None
    return ptype


def filled_by(protocol: type):
    """Class decorator: the decorated base class fills contract-2 objects' missing members
    of ``protocol`` (``fill``)."""
    def mark(base: type) -> type:
        BASES[protocol] = base
        return base
    return mark


class Filled:
    """A contract-2 object, with the members contract 2 let it leave out answered as its
    protocol's base class answers them (set on a subclass made per object class). Every
    other attribute is the object's own (read and set through)."""

    __slots__ = ("wrapped",)

    def __init__(self, wrapped: Any):
        object.__setattr__(self, "wrapped", wrapped)

    def __getattr__(self, name: str) -> Any:
        return getattr(object.__getattribute__(self, "wrapped"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.wrapped, name, value)

    def __repr__(self) -> str:
        return f"<contract-2 {self.wrapped!r}, adapted>"


def fill(item: Any, protocol: type) -> Any:
    """``item``, a contract-2 plugin's registered object, or a ``Filled`` wrapper of it that
    answers the members of ``protocol`` it lacks and contract 2 called optional, as the
    protocol's base class does. ``item`` itself when it lacks none (or is a class, or the
    base class is not loaded: then it is judged as contract 3 judges it)."""
    base = BASES.get(protocol)
    if base is None or isinstance(item, type):
        return item
    missing = tuple(name for name in OPTIONAL_IN_V2.get(protocol, ())
                    if not hasattr(item, name))
    if not missing:
        return item
    key = (type(item), missing)
    if key not in _FILLED:
        body = {name: getattr(base, name) for name in missing}
        body["__slots__"] = ()
        _FILLED[key] = type(f"{type(item).__name__}", (Filled,), body)
    return _FILLED[key](item)
