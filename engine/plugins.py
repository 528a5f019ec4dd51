"""Loading plugins: one path for built-in and third-party plugins alike.

Plugins are found through the entry-point group ``puzzle_engine``. The environment
variable ``PUZZLE_ENGINE_PLUGINS`` (comma-separated entry-point names) narrows the set;
set to an empty string, it loads none. A plugin that fails to import, to register or to
declare its types is recorded in ``Host.failures`` and left out; the host carries on.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from importlib.metadata import entry_points

import pluggy

from . import hookspecs
from .errors import PuzzleInputError, UnknownPuzzleError
from .types import Complexity, PuzzleType

GROUP = "puzzle_engine"
DISTRIBUTION = "puzzle-engine"  # the built-in plugins' distribution
ENV_PLUGINS = "PUZZLE_ENGINE_PLUGINS"


@dataclass
class PluginFailure:
    name: str
    error: str


@dataclass
class PluginInfo:
    name: str
    version: str
    module: str
    hooks: list[str]
    types: list[str] = field(default_factory=list)


class Host:
    """The plugin manager plus what the plugins declared."""

    def __init__(self, pm: pluggy.PluginManager):
        self.pm = pm
        self.failures: list[PluginFailure] = []
        self.versions: dict[str, str] = {}
        #: Plugins of this package's own distribution: their names are never displaced.
        self.builtin: set[str] = set()
        self._types: dict[str, PuzzleType] | None = None
        self._complexities: dict[str, Complexity] | None = None

    @property
    def hook(self):
        return self.pm.hook

    def register(self, plugin, name: str, version: str = "") -> None:
        """Register a plugin object (module or instance), as the entry-point loader does."""
        self.pm.register(plugin, name=name)
        self.versions[name] = version
        self._types = self._complexities = None

    def unregister(self, name: str) -> None:
        self.pm.unregister(name=name)
        self.versions.pop(name, None)
        self._types = self._complexities = None

    def _collect(self, hookname: str, key, stamp=lambda item, plugin: item) -> dict:
        """Call a ``register`` hook one plugin at a time, so that one broken plugin
        is reported and dropped instead of breaking the rest. ``stamp(item, plugin)``
        may record which plugin registered an item."""
        found: dict = {}
        owner: dict = {}
        impls = getattr(self.pm.hook, hookname).get_hookimpls()
        # Built-ins first, whatever their order in pluggy (tryfirst/trylast, load order):
        # a third party that registers a built-in's name is the one refused.
        impls.sort(key=lambda impl: self.pm.get_name(impl.plugin) not in self.builtin)
        for impl in impls:
            name = self.pm.get_name(impl.plugin) or repr(impl.plugin)
            collected = []
            try:
                impl.function(register=collected.append)
            except Exception as exc:  # noqa: BLE001 - a plugin's bug must not stop the host
                self._fail(name, f"{hookname} raised {type(exc).__name__}: {exc}")
                continue
            for item in collected:
                k = key(item)
                if k in found:
                    self.failures.append(PluginFailure(name, f"'{k}' is already registered by "
                                                       f"plugin '{owner[k]}'; ignored"))
                    continue
                found[k], owner[k] = stamp(item, name), name
        return found

    def _fail(self, name: str, error: str) -> None:
        self.failures.append(PluginFailure(name, error))
        if self.pm.get_plugin(name) is not None:
            self.pm.unregister(name=name)
            self._types = self._complexities = None

    @property
    def types(self) -> dict[str, PuzzleType]:
        if self._types is None:
            self._types = self._collect(
                "puzzle_register_types", lambda t: t.name,
                lambda t, plugin: replace(t, plugin=plugin, plugin_version=self.versions.get(plugin, "")))
        return self._types

    @property
    def complexities(self) -> dict[str, Complexity]:
        if self._complexities is None:
            self._complexities = self._collect("puzzle_register_complexities", lambda c: c.name)
        return self._complexities

    def get_type(self, name: str) -> PuzzleType:
        types = self.types
        if name not in types:
            known = ", ".join(sorted(types)) or "none"
            raise UnknownPuzzleError(f"unknown puzzle '{name}' (loaded puzzle types: {known}; "
                                     "see 'puzzle-engine plugins')")
        return types[name]

    def get_complexity(self, name: str) -> Complexity:
        if name not in self.complexities:
            known = ", ".join(sorted(self.complexities))
            raise PuzzleInputError(f"unknown complexity function '{name}' (known: {known})")
        return self.complexities[name]

    def plugin_infos(self) -> list[PluginInfo]:
        infos = []
        by_plugin: dict[str, list[str]] = {}
        for t in self.types.values():
            by_plugin.setdefault(t.plugin, []).append(t.name)
        for name, plugin in self.pm.list_name_plugin():
            hooks = sorted(c.name for c in self.pm.get_hookcallers(plugin) or [])
            infos.append(PluginInfo(name=name, version=self.versions.get(name, ""),
                                    module=getattr(plugin, "__name__", type(plugin).__name__),
                                    hooks=hooks, types=sorted(by_plugin.get(name, []))))
        return infos


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
    host.register(defaults, name="puzzle_engine.defaults", version=__version__)
    wanted = _wanted()
    for ep in entry_points(group=GROUP):
        if wanted is not None and ep.name not in wanted:
            continue
        version = ep.dist.version if ep.dist is not None else ""
        try:
            plugin = ep.load()
            host.register(plugin, name=ep.name, version=version)
            if ep.dist is not None and ep.dist.name == DISTRIBUTION:
                host.builtin.add(ep.name)
        except Exception as exc:  # noqa: BLE001 - report and carry on
            host.failures.append(PluginFailure(ep.name, f"failed to load {ep.value}: "
                                               f"{type(exc).__name__}: {exc}"))
    while True:  # a hook implementation with no spec (a misspelt name) drops its plugin
        try:
            pm.check_pending()
            break
        except pluggy.PluginValidationError as exc:
            host._fail(pm.get_name(exc.plugin) or repr(exc.plugin), str(exc))
    host.types  # declare types and complexities now, so that failures show up at once
    host.complexities
    return host
