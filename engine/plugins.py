"""Loading plugins: one path for built-in and third-party plugins alike.

Plugins are found through the entry-point group ``puzzle_engine``, the engine's own
registrations too (``ENGINE_PLUGIN``, ``puzzle_engine.defaults``: loaded first, whatever
the narrowing). The environment variable ``PUZZLE_ENGINE_PLUGINS`` (comma-separated
entry-point names) narrows the set; set to an empty string, it loads none. A plugin that fails to import, declares another
contract version, or fails to register its objects is recorded in ``Host.failures`` and
left out; the host carries on. A plugin of contract 2 loads, its types adapted to contract
3's facets as they register and its criteria and strategies given the members contract 2
let them leave out (``contract_v2``); a type that cannot be adapted is refused.

The host keeps five registries, filled through the ``register_*`` hooks: puzzle types,
generation strategies, acceptance criteria, graders and complexity functions. A name is
registered once: a second registration is refused with the names of both plugins, and
the built-in plugins register first, so they are never displaced. A puzzle type with an
option the command line keeps for itself (``RESERVED_OPTIONS``) or its strategy's is
refused too, and so is one that breaks its facets (not a ``Codec``, a facet's method
without the facet, a ``FlatBoard`` that reads its own solution), and so is a strategy,
criterion or grader that lacks a member of its protocol in ``hookspecs`` (``lacks``): one
line names the plugin, the object and the member, and a type that names the refused
object is told the same when it is used.

What a command says about the plugins (``Host.warnings``) is one line per plugin with a
problem, naming the package it came from; a plugin that took over ``SLOW_LOAD`` seconds to
load, and a plugin name that two installed packages declare, are one line each.
"""
from __future__ import annotations

import functools
import inspect
import os
import time
from dataclasses import dataclass, field
from importlib.metadata import entry_points

import pluggy

from . import contract_v2, hookspecs
from .errors import PluginError, PuzzleInputError, UnknownPuzzleError, one_line
from .hookspecs import ADAPTED_CONTRACT, CONTRACT_VERSION, Codec, FlatBoard, PuzzleType
from .types import Param

GROUP = "puzzle_engine"
#: A plugin whose loading (its import and registration) takes longer, in seconds, is named
#: in a warning: every command pays for it.
SLOW_LOAD = 2.0
DISTRIBUTION = "puzzle-engine"  # the built-in plugins' distribution
#: The entry point of the engine's own strategies, criteria, graders and complexity
#: functions (``defaults.py``): a plugin like any other, that no narrowing leaves out.
ENGINE_PLUGIN = "puzzle_engine.defaults"
ENV_PLUGINS = "PUZZLE_ENGINE_PLUGINS"
#: The hook names of contract 1, to tell an old plugin from a misspelt hook.
OLD_HOOKS = ("puzzle_register_types", "puzzle_to_data", "puzzle_random_solution",
             "puzzle_parse", "puzzle_format", "puzzle_register_complexities")
#: The options of the commands that read a puzzle type's options (``gen``, ``batch``,
#: ``solve``, ``check``, ``grade``, ``train``, ``explain``, ``hint``, ``solvers``): the
#: command line takes them first, so a type's option of one of these names could never
#: be set. A type that declares one is refused. tests/engine/test_contract.py derives the set
#: from the commands themselves and checks it is this one (the core does not import the
#: command line, which loads only the command being run).
RESERVED_OPTIONS = frozenset((
    "attempts", "bins", "config", "count", "cutoff", "dask-timeout", "data", "db",
    "difficulty", "exact", "executor", "features", "force", "format", "grade",
    "grade-seed", "grader", "help", "jobs", "max-size", "model", "no-steps",
    "no-strengthen", "out", "per-label", "puzzle", "rating", "resume", "runs", "scheduler",
    "seed", "solver", "steps", "strengthen", "time-limit", "workers"))
#: registry name -> (hook, what an object must have: its attributes, or the protocol of
#: ``hookspecs`` it must follow, what it is called in messages)
REGISTRIES = {
    "types": ("register_puzzle_types", (), "puzzle type"),
    "strategies": ("register_strategies", hookspecs.Strategy, "strategy"),
    "criteria": ("register_criteria", hookspecs.Criterion, "criterion"),
    "graders": ("register_graders", hookspecs.Grader, "grader"),
    "complexities": ("register_complexities", ("name", "level"), "complexity function"),
}
#: Where the authoring guide describes each protocol: a refusal points there.
GUIDE = "docs/plugin-authoring.md"
SECTIONS = {hookspecs.Strategy: "strategies", hookspecs.Criterion: "criteria",
            hookspecs.Grader: "graders", hookspecs.GradingSession: "graders",
            hookspecs.Checker: "criteria"}


@dataclass(frozen=True)
class Member:
    """One member of a protocol of ``hookspecs``: a method (with its signature, ``self``
    left out) or a data attribute (``signature`` None), required or not."""

    name: str
    required: bool
    signature: inspect.Signature | None = None

    def shown(self) -> str:
        """The member as the guide writes it: ``judge(engine, ..., limit=1)``."""
        if self.signature is None:
            return self.name
        words = [p.name if p.default is inspect.Parameter.empty else f"{p.name}={p.default!r}"
                 for p in self.signature.parameters.values()]
        return f"{self.name}({', '.join(words)})"


@functools.cache
def members(protocol: type) -> list[Member]:
    """The members of ``protocol`` (a class of ``hookspecs``), data first, in the order
    declared. A method marked ``@optional``, and a data attribute with a value there,
    may be left out."""
    found = [Member(name, name not in vars(protocol))
             for name in vars(protocol).get("__annotations__", {})]
    for name, value in vars(protocol).items():
        if name.startswith("_"):
            continue
        if isinstance(value, property):
            found.append(Member(name, True))
        elif inspect.isfunction(value):
            signature = inspect.signature(value)
            signature = signature.replace(parameters=list(signature.parameters.values())[1:])
            found.append(Member(name, not getattr(value, "__optional__", False), signature))
    return found


def _takes(function, wanted: inspect.Signature) -> bool:
    """Whether ``function`` can be called as the engine calls a member of signature
    ``wanted``: every argument by position, and those with a default by name too."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a built-in without a signature: take it on trust
        return True
    params = list(wanted.parameters.values())
    needed = [p for p in params if p.default is inspect.Parameter.empty]
    try:
        signature.bind(*params)
        signature.bind(*needed, **{p.name: p for p in params if p not in needed})
    except TypeError:
        return False
    return True


def lacks(item, protocol: type) -> str | None:
    """What ``item`` lacks of ``protocol``, as the end of a sentence ("without
    'refuted_by'"), or None when it has every required member, each method callable with
    the arguments the engine passes. A method the item's class defines is checked once
    per class: the engine checks what a criterion or grader makes every time it is made."""
    try:
        own = vars(item)
    except TypeError:  # no __dict__ (slots), or one that refuses: check every member
        own = None
    for member in members(protocol):
        if member.signature is None or own is None or member.name in own \
                or isinstance(item, type):
            problem = _check(item, member)
        else:
            key = (type(item), protocol, member.name)
            if key not in _CHECKED:
                _CHECKED[key] = _check(item, member)
            problem = _CHECKED[key]
        if problem is not None:
            return problem
    return None


#: ``_check`` of a method defined by an item's class, by (class, protocol, name).
_CHECKED: dict[tuple[type, type, str], str | None] = {}


def _check(item, member: Member) -> str | None:
    """What ``item`` lacks of one member of a protocol, or None."""
    if not hasattr(item, member.name):
        return f"without '{member.name}'" if member.required else None
    if member.signature is None:
        return None
    value = getattr(item, member.name)
    if not callable(value):
        return f"whose '{member.name}' is not callable"
    if not _takes(value, member.signature):
        return f"whose '{member.name}' cannot be called as {member.shown()}"
    return None


def guide(protocol: type) -> str:
    """The authoring guide's section on ``protocol``."""
    return f"{GUIDE}#{SECTIONS[protocol]}"


def _good_name(name) -> bool:
    """A registered name: a non-empty str of letters, digits, ``-`` and ``_``."""
    return isinstance(name, str) and bool(name) and name.replace("-", "").replace(
        "_", "").isalnum()


@dataclass
class PluginFailure:
    """A problem with a plugin: the whole plugin was left out (``skipped``), or one thing
    it registered was refused and the rest of it loaded. ``distribution`` is the installed
    package that declares the plugin ("NAME VERSION"), when it came from one."""

    name: str
    error: str
    skipped: bool = True
    distribution: str = ""

    def who(self) -> str:
        return f"plugin '{self.name}'" + (f" (from {self.distribution})" if self.distribution else "")

    def line(self) -> str:
        if self.skipped:
            return f"{self.who()} is broken and was skipped: {self.error}"
        # "plugin 'x' registers criterion 'y' without 'refuted_by' (see ...)": one sentence
        said = f" {self.error}" if self.error.startswith("registers ") else f": {self.error}"
        return f"{self.who()}{said} (the rest of the plugin is loaded)"


@dataclass
class PluginInfo:
    name: str
    version: str
    module: str
    hooks: list[str]
    types: list[str] = field(default_factory=list)
    #: What else it registered: registry name -> names (strategies, criteria...).
    registers: dict[str, list[str]] = field(default_factory=dict)
    #: The contract it declares (``PUZZLE_ENGINE_CONTRACT``); ``ADAPTED_CONTRACT``: the
    #: host adapts it (``contract_v2``).
    contract: int = CONTRACT_VERSION

    @property
    def adapted(self) -> bool:
        """Whether it is written for contract 2 and adapted."""
        return self.contract == ADAPTED_CONTRACT


class Host:
    """The plugin manager plus what the plugins registered."""

    def __init__(self, pm: pluggy.PluginManager):
        self.pm = pm
        self.failures: list[PluginFailure] = []
        self.versions: dict[str, str] = {}
        #: Plugins of this package's own distribution: their names are never displaced.
        self.builtin: set[str] = set()
        #: The distribution of each plugin loaded from an entry point ("NAME VERSION").
        self.distributions: dict[str, str] = {}
        #: The same as (name, version), for ``puzzle-engine plugins --json``.
        self.packages: dict[str, tuple[str, str]] = {}
        #: Other things to say about the plugins, one line each (a slow one, a name that
        #: two distributions declare).
        self.notices: list[str] = []
        #: Seconds each plugin took to load: its import, then its ``register_*`` hooks.
        self.load_seconds: dict[str, float] = {}
        self._registries: dict[str, dict] = {}
        self._owners: dict[str, dict[str, str]] = {}  # registry -> name -> plugin
        #: Plugins written for contract 2, whose types are adapted (``contract_v2``).
        self.adapted: set[str] = set()
        self._refused: dict[str, dict[str, str]] = {}  # registry -> name -> why refused

    @property
    def hook(self):
        return self.pm.hook

    def register(self, plugin, name: str, version: str = "") -> bool:
        """Register a plugin object (module or instance), as the entry-point loader does.
        A plugin written for another contract is refused (recorded in ``failures``), but
        for contract 2, whose types are adapted to contract 3's facets as they register."""
        declared = getattr(plugin, "PUZZLE_ENGINE_CONTRACT", None)
        if declared not in (CONTRACT_VERSION, ADAPTED_CONTRACT):
            old = [h for h in OLD_HOOKS if hasattr(plugin, h)]
            said = (f"declares contract {declared!r}" if declared is not None else
                    "is written for contract 1" if old else "declares no PUZZLE_ENGINE_CONTRACT")
            self._note(name, (
                f"{said}; this engine speaks contract {CONTRACT_VERSION} "
                f"(set PUZZLE_ENGINE_CONTRACT = {CONTRACT_VERSION}; see docs/plugin-authoring.md)"))
            return False
        if self.pm.has_plugin(name):
            raise PluginError(f"a plugin named '{name}' is already loaded; unregister it first "
                              "(host.unregister) or register this one under another name")
        self.pm.register(plugin, name=name)
        self.versions[name] = version
        if declared == ADAPTED_CONTRACT:
            self.adapted.add(name)
        self._registries.clear()
        return True

    def unregister(self, name: str) -> None:
        self.pm.unregister(name=name)
        self.versions.pop(name, None)
        self.adapted.discard(name)
        self._registries.clear()

    def _collect(self, registry: str) -> dict:
        """Call a ``register_*`` hook one plugin at a time, so that one broken plugin
        is reported and dropped instead of breaking the rest."""
        hookname, needs, what = REGISTRIES[registry]
        found: dict = {}
        owner: dict = {}
        refused: dict[str, str] = {}  # name -> why it was refused
        impls = getattr(self.pm.hook, hookname).get_hookimpls()
        # Built-ins first, whatever their order in pluggy (tryfirst/trylast, load order):
        # a third party that registers a built-in's name is the one refused. Plugins are
        # keyed by identity: a plugin object need not be hashable (a SimpleNamespace).
        order = {id(plugin): i for i, (_, plugin) in enumerate(self.pm.list_name_plugin())}
        impls.sort(key=lambda impl: (self.pm.get_name(impl.plugin) not in self.builtin,
                                     order.get(id(impl.plugin), len(order))))
        for impl in impls:
            plugin = self.pm.get_name(impl.plugin) or repr(impl.plugin)
            collected = []
            start = time.perf_counter()
            try:
                impl.function(register=collected.append)
            except Exception as exc:  # noqa: BLE001 - a plugin's bug must not stop the host
                self._fail(plugin, f"{hookname} raised {type(exc).__name__}: {one_line(exc)}")
                continue
            finally:
                self.load_seconds[plugin] = (self.load_seconds.get(plugin, 0.0)
                                             + time.perf_counter() - start)
            for item in collected:
                try:
                    if plugin in self.adapted and isinstance(needs, type):
                        item = contract_v2.fill(item, needs)  # what contract 2 let it omit
                    problem = self._problem(registry, item, needs, what)
                except Exception as exc:  # noqa: BLE001 - an attribute that raises
                    problem = (f"{hookname}: a {what} whose attributes raise "
                               f"{type(exc).__name__}: {one_line(exc)}")
                if problem:
                    self._note(plugin, f"{problem}; ignored", skipped=False)
                    name = getattr(item, "name", None) if problem.startswith("registers") \
                        else None
                    if _good_name(name):  # a type naming it is told why it is missing
                        refused.setdefault(name, f"plugin '{plugin}' {problem}")
                    continue
                if registry == "types":
                    try:
                        problem = self._facet_problem(item, plugin in self.adapted)
                    except Exception as exc:  # noqa: BLE001 - a class that breaks isinstance
                        problem = (f"puzzle type '{getattr(item, 'name', '?')}' was refused: "
                                   f"checking its facets raised {type(exc).__name__}: "
                                   f"{one_line(exc)}")
                    if problem:
                        self._note(plugin, problem, skipped=False)
                        if _good_name(getattr(item, "name", None)):  # named by a command
                            refused.setdefault(item.name, f"plugin '{plugin}': {problem}")
                        continue
                key = item.name
                if key in found:
                    self._note(plugin, f"{what} '{key}' is already registered by plugin "
                                       f"'{owner[key]}'; plugin '{plugin}' cannot register it too",
                               skipped=False)
                    continue
                if registry == "types":
                    taken = self._reserved(item)
                    if taken:
                        self._note(plugin, f"puzzle type '{key}' was refused: its option "
                                           f"{taken} is the engine's own (the command line "
                                           "takes it first); rename it", skipped=False)
                        continue
                    item.plugin, item.plugin_version = plugin, self.versions.get(plugin, "")
                found[key], owner[key] = item, plugin
        self._owners[registry] = owner
        self._refused[registry] = {k: v for k, v in refused.items() if k not in found}
        return found

    def _reserved(self, ptype: PuzzleType) -> str | None:
        """The first option of ``ptype`` (as ``--name``) that it cannot have: one the
        command line keeps (``RESERVED_OPTIONS``) or one of its strategy's options."""
        name = getattr(ptype, "strategy", None)
        strategy = self.registry("strategies").get(name) if isinstance(name, str) else None
        taken = set(RESERVED_OPTIONS)
        options = getattr(strategy, "options", None)
        for option in options if isinstance(options, (tuple, list)) else ():
            if isinstance(getattr(option, "name", None), str):
                taken.add(option.name.replace("_", "-"))
        params = getattr(ptype, "params", None)
        for param in params if isinstance(params, (tuple, list)) else ():
            name = getattr(param, "name", None)
            if not isinstance(name, str):
                continue
            names = [name.replace("_", "-")]
            negative = getattr(param, "negative", None)
            if getattr(param, "type", None) is bool:
                names += [f"no-{names[0]}", negative if isinstance(negative, str) else ""]
            for option in names:
                if option in taken:
                    return f"--{option}"
        return None

    @staticmethod
    def _facet_problem(ptype: PuzzleType, adapted: bool) -> str | None:
        """Why the type ``ptype`` cannot be registered for its facets, or None. A type of a
        contract-2 plugin is adapted first (``contract_v2``)."""
        if adapted:
            try:
                contract_v2.adapt(ptype)
            except contract_v2.Unadaptable as exc:
                return (f"puzzle type '{ptype.name}' is written for contract "
                        f"{ADAPTED_CONTRACT} and cannot be adapted: {exc}; "
                        f"{contract_v2.MIGRATING}")
        if not isinstance(ptype, Codec):
            return (f"puzzle type '{ptype.name}' was refused: it is not a Codec (every type "
                    "subclasses PuzzleType and Codec; see docs/plugin-authoring.md)")
        # A facet's method written without the facet would never be called: refused.
        lacking = [] if adapted else contract_v2.facets_for(type(ptype))
        if lacking:
            facet = lacking[0]
            method = next(m for m in dir(type(ptype)) if hookspecs.facet_of(m) is facet)
            advice = (f"rename it, or add {facet.__name__} to its base classes if its "
                      "instances are flat boards" if facet is FlatBoard else
                      f"add {facet.__name__} to its base classes")
            return (f"puzzle type '{ptype.name}' was refused: it writes {method}, a method of "
                    f"the {facet.__name__} facet, but is not a {facet.__name__} ({advice}; "
                    "see docs/plugin-authoring.md)")
        unwritten = hookspecs.unwritten(type(ptype))
        if unwritten:
            facet, method = unwritten[0]
            return (f"puzzle type '{ptype.name}' was refused: it is a {facet.__name__} but "
                    f"does not write {method}, which that facet needs (see "
                    "docs/plugin-authoring.md)")
        if isinstance(ptype, FlatBoard) and \
                type(ptype).from_solution is not PuzzleType.from_solution:
            return (f"puzzle type '{ptype.name}' was refused: it is a FlatBoard and writes "
                    "from_solution, but a flat board's solution is its decision array; "
                    "remove from_solution (see docs/plugin-authoring.md)")
        return None

    @staticmethod
    def _problem(registry: str, item, needs, what: str) -> str | None:
        """Why ``item`` cannot be registered, to follow "plugin 'x' ", or None. ``needs`` is
        the attributes ``item`` must have, or the protocol of ``hookspecs`` it follows."""
        hookname = REGISTRIES[registry][0]
        if registry == "types":
            if isinstance(item, type):
                return f"{hookname}: registered the class {item.__name__}, not an instance of it"
            if not isinstance(item, PuzzleType):
                return f"{hookname}: {type(item).__name__} is not a PuzzleType"
        if isinstance(needs, type):
            return Host._unlike(item, needs, what)
        missing = [a for a in ("name", *needs) if not hasattr(item, a)]
        if missing:
            return f"{hookname}: a {what} needs {', '.join(missing)}"
        if not _good_name(item.name):
            return f"{hookname}: bad {what} name {item.name!r}"
        return None

    @staticmethod
    def _unlike(item, protocol: type, what: str) -> str | None:
        """How ``item`` fails ``protocol``, or None."""
        see = f"(see {guide(protocol)})"
        if isinstance(item, type):
            return f"registers the class {item.__name__} as a {what}, not an instance of it {see}"
        if not hasattr(item, "name"):
            return f"registers a {what} ({type(item).__name__}) without 'name' {see}"
        if not _good_name(item.name):
            return f"registers a {what} with the bad name {item.name!r} {see}"
        lacking = lacks(item, protocol)
        if lacking is None and not isinstance(getattr(item, "description", ""), str):
            lacking = "whose 'description' is not a str"
        if lacking is None and protocol is hookspecs.Strategy:
            if not isinstance(item.hooks, type):
                lacking = "whose 'hooks' is not a class"
            elif not isinstance(item.options, (tuple, list)) or not all(
                    isinstance(o, Param) for o in item.options):
                lacking = "whose 'options' is not a tuple of Param"
        return None if lacking is None else f"registers {what} '{item.name}' {lacking} {see}"

    def _note(self, name: str, error: str, skipped: bool = True) -> None:
        """Record a failure once, however often the registries are collected."""
        failure = PluginFailure(name, error, skipped, self.distributions.get(name, ""))
        if failure not in self.failures:
            self.failures.append(failure)

    def warnings(self) -> list[str]:
        """What a command says about the plugins, one line each: one per plugin with a
        problem (all its problems in that line, naming its distribution), then the
        notices."""
        for registry in REGISTRIES:  # what the plugins register is judged on collection
            self.registry(registry)
        lines = []
        for name in dict.fromkeys(f.name for f in self.failures):
            mine = [f for f in self.failures if f.name == name]
            skipped = [f for f in mine if f.skipped]
            errors = "; ".join(dict.fromkeys(f.error for f in (skipped or mine)))
            lines.append(PluginFailure(name, errors, bool(skipped), mine[0].distribution).line())
        return lines + list(dict.fromkeys(self.notices))

    def _fail(self, name: str, error: str) -> None:
        self._note(name, error)
        if self.pm.get_plugin(name) is not None:
            self.pm.unregister(name=name)
            self._registries.clear()

    def registry(self, registry: str) -> dict:
        if registry not in self._registries:
            self._registries[registry] = self._collect(registry)
        return self._registries[registry]

    @property
    def types(self) -> dict[str, PuzzleType]:
        return self.registry("types")

    @property
    def complexities(self) -> dict:
        return self.registry("complexities")

    def get_type(self, name: str) -> PuzzleType:
        types = self.types
        if name not in types and name in self._refused.get("types", {}):
            raise PluginError(self._refused["types"][name])
        if name not in types:
            known = ", ".join(sorted(types)) or "none"
            raise UnknownPuzzleError(f"unknown puzzle '{name}' (loaded puzzle types: {known}; "
                                     "see 'puzzle-engine plugins')")
        return types[name]

    def get(self, registry: str, name: str, flag: str = ""):
        """A registered strategy, criterion, grader or complexity function by name."""
        found = self.registry(registry)
        if name not in found and name in self._refused.get(registry, {}):
            raise PluginError(self._refused[registry][name])
        if name not in found:
            what = REGISTRIES[registry][2]
            known = ", ".join(sorted(found)) or "none"
            raise PuzzleInputError(f"unknown {what} '{name}'{flag} (known: {known})")
        return found[name]

    def owner(self, registry: str, name: str) -> str:
        """The plugin that registered ``name`` in ``registry``."""
        self.registry(registry)
        return self._owners.get(registry, {}).get(name, "")

    def made(self, registry: str, name: str, product, protocol: type, what: str):
        """``product``, which the registered ``name`` made (a criterion's checker, a
        grader's grading), checked against ``protocol``: a one-line ``PluginError`` naming
        the plugin and the member it lacks."""
        lacking = lacks(product, protocol)
        if lacking is not None:
            kind = REGISTRIES[registry][2]
            raise PluginError(f"plugin '{self.owner(registry, name)}' {kind} '{name}' makes "
                              f"a {what} {lacking} (see {guide(protocol)})")
        return product

    def get_complexity(self, name: str):
        return self.get("complexities", name)

    def plugin_infos(self) -> list[PluginInfo]:
        infos = []
        registers: dict[str, dict[str, list[str]]] = {}
        for registry in REGISTRIES:
            self.registry(registry)
            for item, plugin in self._owners.get(registry, {}).items():
                registers.setdefault(plugin, {}).setdefault(registry, []).append(item)
        for name, plugin in self.pm.list_name_plugin():
            hooks = sorted(c.name for c in self.pm.get_hookcallers(plugin) or [])
            mine = {k: sorted(v) for k, v in registers.get(name, {}).items()}
            infos.append(PluginInfo(name=name, version=self.versions.get(name, ""),
                                    module=getattr(plugin, "__name__", type(plugin).__name__),
                                    hooks=hooks, types=mine.pop("types", []), registers=mine,
                                    contract=ADAPTED_CONTRACT if name in self.adapted
                                    else CONTRACT_VERSION))
        return infos


#: Distribution metadata already parsed: its text -> (name, version).
_PARSED: dict[str, tuple[str, str]] = {}


def _distribution(ep) -> tuple[str, str]:
    """The name and version of the distribution that declares ``ep`` ("" and "" when
    unknown). Its metadata is parsed once per distribution, not per entry point and field:
    every built-in plugin shares one, and each parse costs start-up time."""
    if ep.dist is None:
        return "", ""
    text = ep.dist.read_text("METADATA") or ep.dist.read_text("PKG-INFO") or ""
    if text not in _PARSED:
        meta = ep.dist.metadata
        _PARSED[text] = (meta["Name"] or "", meta["Version"] or "")
    return _PARSED[text]


def _by_name(eps) -> dict[str, list]:
    """The entry points of ``eps`` by plugin name, in the order found (``sys.path``'s)."""
    named: dict[str, list] = {}
    for ep in eps:
        named.setdefault(ep.name, []).append(ep)
    return named


def _label(ep) -> str:
    name, version = _distribution(ep)
    return f"{name} {version}".strip() if name else f"'{ep.value}'"


def _wanted() -> set[str] | None:
    raw = os.environ.get(ENV_PLUGINS)
    if raw is None:
        return None
    return {name.strip() for name in raw.split(",") if name.strip()}


def get_host() -> Host:
    """A fresh host: the contract, the engine's own plugin, then every other entry-point
    plugin."""
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    host = Host(pm)
    wanted = _wanted()
    found = _by_name(entry_points(group=GROUP))
    if ENGINE_PLUGIN not in found:
        host._note(ENGINE_PLUGIN, f"no entry point '{ENGINE_PLUGIN}' in the group '{GROUP}': "
                                  "the engine's own strategies, criteria and graders are "
                                  "missing (reinstall puzzle-engine)")
    for plugin_name, eps in sorted(found.items(), key=lambda item: item[0] != ENGINE_PLUGIN):
        if wanted is not None and plugin_name not in wanted and plugin_name != ENGINE_PLUGIN:
            continue
        # Two distributions under one name: the built-in's wins, else the first on the
        # path, and the warning names them all.
        eps.sort(key=lambda e: _distribution(e)[0] != DISTRIBUTION)
        ep = eps[0]
        if len(eps) > 1:
            host.notices.append(
                f"plugin '{plugin_name}' is declared by {len(eps)} installed packages: "
                f"{', '.join(_label(e) for e in eps)}; only the first is loaded "
                "(uninstall the others, or rename one's entry point)")
        name, version = _distribution(ep)
        host.distributions[plugin_name] = _label(ep)
        host.packages[plugin_name] = (name, version)
        start = time.perf_counter()
        try:
            plugin = ep.load()
            if host.register(plugin, name=ep.name, version=version) and \
                    name == DISTRIBUTION:
                host.builtin.add(ep.name)
        except Exception as exc:  # noqa: BLE001 - report and carry on
            host._note(ep.name, f"failed to load {ep.value}: {type(exc).__name__}: {one_line(exc)}")
        host.load_seconds[ep.name] = time.perf_counter() - start
    while True:  # a hook implementation with no spec (a misspelt name) drops its plugin
        try:
            pm.check_pending()
            break
        except pluggy.PluginValidationError as exc:
            host._fail(pm.get_name(exc.plugin) or repr(exc.plugin), str(exc))
    for registry in REGISTRIES:  # collect now, so that failures show up at once
        host.registry(registry)
    for plugin_name, took in host.load_seconds.items():  # a built-in's time is the engine's
        if took > SLOW_LOAD and plugin_name not in host.builtin and \
                plugin_name in host.distributions:
            host.notices.append(f"plugin '{plugin_name}' (from {host.distributions[plugin_name]})"
                                f" took {took:.1f} s to load; every command waits for it")
    return host
