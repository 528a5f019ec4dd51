"""Loading plugins: one path for built-in and third-party plugins alike.

Plugins are found through the entry-point group ``puzzle_engine``. The environment
variable ``PUZZLE_ENGINE_PLUGINS`` (comma-separated entry-point names) narrows the set;
set to an empty string, it loads none. A plugin that fails to import, declares another
contract version, or fails to register its objects is recorded in ``Host.failures`` and
left out; the host carries on.

The host keeps five registries, filled through the ``register_*`` hooks: puzzle types,
generation strategies, acceptance criteria, graders and complexity functions. A name is
registered once: a second registration is refused with the names of both plugins, and
the built-in plugins register first, so they are never displaced. A puzzle type with an
option the command line keeps for itself (``RESERVED_OPTIONS``) or its strategy's is
refused too.

What a command says about the plugins (``Host.warnings``) is one line per plugin with a
problem, naming the package it came from; a plugin that took over ``SLOW_LOAD`` seconds to
load, and a plugin name that two installed packages declare, are one line each.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from importlib.metadata import entry_points

import pluggy

from . import hookspecs
from .errors import PluginError, PuzzleInputError, UnknownPuzzleError, one_line
from .hookspecs import CONTRACT_VERSION, PuzzleType

GROUP = "puzzle_engine"
#: A plugin whose loading (its import and registration) takes longer, in seconds, is named
#: in a warning: every command pays for it.
SLOW_LOAD = 2.0
DISTRIBUTION = "puzzle-engine"  # the built-in plugins' distribution
ENV_PLUGINS = "PUZZLE_ENGINE_PLUGINS"
#: The hook names of contract 1, to tell an old plugin from a misspelt hook.
OLD_HOOKS = ("puzzle_register_types", "puzzle_to_data", "puzzle_random_solution",
             "puzzle_parse", "puzzle_format", "puzzle_register_complexities")
#: The options of the commands that read a puzzle type's options (``gen``, ``batch``,
#: ``solve``, ``check``, ``grade``, ``train``, ``explain``, ``hint``, ``solvers``): the
#: command line takes them first, so a type's option of one of these names could never
#: be set. A type that declares one is refused. tests/test_contract.py derives the set
#: from the commands themselves and checks it is this one (the core does not import the
#: command line, which loads only the command being run).
RESERVED_OPTIONS = frozenset((
    "attempts", "bins", "config", "count", "cutoff", "dask-timeout", "data", "db",
    "difficulty", "exact", "executor", "features", "force", "format", "grade",
    "grade-seed", "grader", "help", "jobs", "max-size", "model", "no-steps",
    "no-strengthen", "out", "per-label", "puzzle", "resume", "runs", "scheduler", "seed",
    "solver", "steps", "strengthen", "time-limit", "workers"))
#: registry name -> (hook, what an object must have, what it is called in messages)
REGISTRIES = {
    "types": ("register_puzzle_types", (), "puzzle type"),
    "strategies": ("register_strategies", ("name", "options", "hooks", "generate"), "strategy"),
    "criteria": ("register_criteria", ("name", "judge"), "criterion"),
    "graders": ("register_graders", ("name", "grader"), "grader"),
    "complexities": ("register_complexities", ("name", "level"), "complexity function"),
}


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
        return f"{self.who()}: {self.error} (the rest of the plugin is loaded)"


@dataclass
class PluginInfo:
    name: str
    version: str
    module: str
    hooks: list[str]
    types: list[str] = field(default_factory=list)
    #: What else it registered: registry name -> names (strategies, criteria...).
    registers: dict[str, list[str]] = field(default_factory=dict)


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

    @property
    def hook(self):
        return self.pm.hook

    def register(self, plugin, name: str, version: str = "") -> bool:
        """Register a plugin object (module or instance), as the entry-point loader does.
        A plugin written for another contract is refused (recorded in ``failures``)."""
        declared = getattr(plugin, "PUZZLE_ENGINE_CONTRACT", None)
        if declared != CONTRACT_VERSION:
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
        self._registries.clear()
        return True

    def unregister(self, name: str) -> None:
        self.pm.unregister(name=name)
        self.versions.pop(name, None)
        self._registries.clear()

    def _collect(self, registry: str) -> dict:
        """Call a ``register_*`` hook one plugin at a time, so that one broken plugin
        is reported and dropped instead of breaking the rest."""
        hookname, needs, what = REGISTRIES[registry]
        found: dict = {}
        owner: dict = {}
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
                problem = self._problem(registry, item, needs, what)
                if problem:
                    self._note(plugin, f"{hookname}: {problem}; ignored", skipped=False)
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
    def _problem(registry: str, item, needs: tuple[str, ...], what: str) -> str | None:
        """Why ``item`` cannot be registered, or None."""
        if registry == "types":
            if isinstance(item, type):
                return f"registered the class {item.__name__}, not an instance of it"
            if not isinstance(item, PuzzleType):
                return f"{type(item).__name__} is not a PuzzleType"
        missing = [a for a in ("name", *needs) if not hasattr(item, a)]
        if missing:
            return f"a {what} needs {', '.join(missing)}"
        if not isinstance(item.name, str) or not item.name or not item.name.replace("-", "").replace(
                "_", "").isalnum():
            return f"bad {what} name {item.name!r}"
        return None

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
        if name not in types:
            known = ", ".join(sorted(types)) or "none"
            raise UnknownPuzzleError(f"unknown puzzle '{name}' (loaded puzzle types: {known}; "
                                     "see 'puzzle-engine plugins')")
        return types[name]

    def get(self, registry: str, name: str, flag: str = ""):
        """A registered strategy, criterion, grader or complexity function by name."""
        found = self.registry(registry)
        if name not in found:
            what = REGISTRIES[registry][2]
            known = ", ".join(sorted(found)) or "none"
            raise PuzzleInputError(f"unknown {what} '{name}'{flag} (known: {known})")
        return found[name]

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
                                    hooks=hooks, types=mine.pop("types", []), registers=mine))
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
    """A fresh host: the contract, the host's defaults, then every entry-point plugin."""
    from . import defaults

    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    host = Host(pm)
    from . import __version__
    host.register(defaults, name=defaults.NAME, version=__version__)
    host.builtin.add(defaults.NAME)
    host.packages[defaults.NAME] = (DISTRIBUTION, __version__)
    wanted = _wanted()
    for plugin_name, eps in _by_name(entry_points(group=GROUP)).items():
        if wanted is not None and plugin_name not in wanted:
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
