"""Installing and removing plugin packages: pip, run by the interpreter that runs the
engine (``sys.executable -m pip``), so a plugin lands in the environment that loads it,
whichever that is (a venv, the user's site).

What is checked before pip runs, so that a mistake changes nothing: a path that does not
exist, a built-in plugin or puzzle-engine itself named as a package, a package to remove
that is not installed or is not a plugin, pip missing. pip runs quietly; when it fails,
its first ``ERROR:`` line is the one line the command prints, and its exit status the
command's. Plugins are told apart before and after by their entry points in the group
``puzzle_engine``, read from the installed packages' metadata without importing them.
"""
from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from . import processes
from .errors import PuzzleEngineError, PuzzleInputError
from .plugins import DISTRIBUTION, GROUP


class PipFailed(PuzzleEngineError):
    """pip ran and failed: the message is one line, ``status`` pip's exit status."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Installed:
    """A plugin as its package's metadata declares it."""

    plugin: str   # the entry point's name
    package: str  # the distribution's name
    version: str

    def line(self) -> str:
        return f"plugin '{self.plugin}' ({self.package} {self.version})"


def installed_plugins() -> dict[str, Installed]:
    """Every installed plugin by name, from the entry points of the group ``puzzle_engine``
    (the first found on the path, as the loader takes it)."""
    importlib.invalidate_caches()
    found: dict[str, Installed] = {}
    for ep in importlib.metadata.entry_points(group=GROUP):
        if ep.name in found or ep.dist is None:
            continue
        found[ep.name] = Installed(ep.name, ep.dist.metadata["Name"] or "",
                                   ep.dist.metadata["Version"] or "")
    return found


def _normal(name: str) -> str:
    """A distribution name as pip compares them (PEP 503)."""
    return "-".join(name.replace("_", "-").replace(".", "-").lower().split("-"))


def _builtin_refusal(name: str, plugins: dict[str, Installed]) -> str | None:
    """Why ``name`` may not be installed or removed here, or None."""
    if _normal(name) == _normal(DISTRIBUTION):
        return (f"'{name}' is puzzle-engine itself, not a plugin (upgrade or remove it with "
                f"'{_pip_words()} ...')")
    plugin = plugins.get(name)
    if plugin is not None and _normal(plugin.package) == _normal(DISTRIBUTION):
        return (f"plugin '{name}' is built in (part of puzzle-engine); leave it out with "
                "PUZZLE_ENGINE_PLUGINS instead")
    return None


def _pip_words() -> str:
    return f"{shlex.quote(sys.executable)} -m pip"


def _check_pip() -> None:
    if importlib.util.find_spec("pip") is None:
        raise PuzzleInputError(f"pip is not installed in this environment ({sys.prefix}); "
                               f"'{shlex.quote(sys.executable)} -m ensurepip' installs it")


def _looks_like_path(name: str) -> bool:
    return name.startswith((".", "~", os.sep)) or os.sep in name or name.endswith(
        (".whl", ".tar.gz", ".zip"))


def _run(args: list[str]) -> str:
    """pip with ``args``, quiet; returns what it wrote on stderr (warnings). Raises
    ``PipFailed`` with pip's first error line when it fails. pip and what it starts (a
    build back end) run in the command's group of child processes: an interrupt, or the
    command's end however it ends, ends them too (``processes.run_solver``)."""
    _check_pip()
    proc = processes.run_solver([sys.executable, "-m", "pip", *args])
    if proc.returncode != 0:
        lines = [ln.strip() for ln in (proc.stderr + "\n" + proc.stdout).splitlines()
                 if ln.strip()]
        errors = [ln for ln in lines if ln.startswith("ERROR:")]
        reason = (errors or lines or [f"exit status {proc.returncode}"])[0]
        reason = reason.removeprefix("ERROR:").strip()
        shown = " ".join(shlex.quote(w) for w in ["pip", *args])
        raise PipFailed(f"{shown} failed (exit status {proc.returncode}): {reason}",
                        proc.returncode)
    return proc.stderr


@dataclass
class InstallOptions:
    """pip's options that ``plugins install`` passes on."""

    editable: tuple[str, ...] = ()
    upgrade: bool = False
    force_reinstall: bool = False
    no_deps: bool = False
    no_build_isolation: bool = False
    no_cache_dir: bool = False
    pre: bool = False

    def words(self) -> list[str]:
        flags = {"--upgrade": self.upgrade, "--force-reinstall": self.force_reinstall,
                 "--no-deps": self.no_deps, "--no-build-isolation": self.no_build_isolation,
                 "--no-cache-dir": self.no_cache_dir, "--pre": self.pre}
        words = [flag for flag, on in flags.items() if on]
        for path in self.editable:
            words += ["--editable", path]
        return words


def install(names: list[str], options: InstallOptions) -> tuple[list[Installed], str]:
    """Install packages (names, paths, wheels; and ``options.editable`` folders) with pip.
    Returns the plugins that are new or changed, and pip's warnings."""
    if not names and not options.editable:
        raise PuzzleInputError("nothing to install: name a package, a folder or a wheel "
                               "(or -e FOLDER)")
    before = installed_plugins()
    for name in names:
        refusal = _builtin_refusal(name, before)
        if refusal:
            raise PuzzleInputError(refusal)
        if _looks_like_path(name) and not Path(name).expanduser().exists():
            raise PuzzleInputError(f"no such file or folder: {name}")
    for folder in options.editable:
        path = Path(folder).expanduser()
        if not path.is_dir():
            raise PuzzleInputError(f"-e {folder}: not a folder")
        if not (path / "pyproject.toml").is_file() and not (path / "setup.py").is_file():
            raise PuzzleInputError(f"-e {folder}: no pyproject.toml or setup.py in it")
    warnings = _run(["install", "--quiet", "--disable-pip-version-check", *options.words(),
                     *names])
    after = installed_plugins()
    changed = [p for name, p in sorted(after.items()) if before.get(name) != p]
    return changed, warnings


def to_uninstall(names: list[str]) -> list[tuple[str, list[Installed]]]:
    """The packages to remove for ``names`` (plugin names or package names), each with the
    plugins it declares. Refuses, before anything is removed, a name that is neither, a
    package that declares no plugin, and a built-in."""
    plugins = installed_plugins()
    packages: dict[str, list[Installed]] = {}
    for name in names:
        refusal = _builtin_refusal(name, plugins)
        if refusal:
            raise PuzzleInputError(refusal)
        if name in plugins:
            package = plugins[name].package
        else:
            try:
                package = importlib.metadata.distribution(name).metadata["Name"] or name
            except importlib.metadata.PackageNotFoundError:
                known = ", ".join(sorted(p for p, i in plugins.items()
                                         if _normal(i.package) != _normal(DISTRIBUTION)))
                raise PuzzleInputError(f"no installed plugin or package '{name}' (installed "
                                       f"plugins: {known or 'none but the built-in ones'})"
                                       ) from None
        declared = [p for p in plugins.values() if _normal(p.package) == _normal(package)]
        if not declared:
            raise PuzzleInputError(f"package '{package}' declares no puzzle-engine plugin "
                                   f"(no entry point in the group '{GROUP}'); remove it "
                                   f"with '{_pip_words()} uninstall {package}' if you mean to")
        packages.setdefault(package, declared)
    return list(packages.items())


def uninstall(packages: list[str]) -> str:
    """Remove ``packages`` with pip (no question asked: the caller has asked). Returns
    pip's warnings. pip passes over a package outside this environment (one that an
    environment this one inherits holds) and says so in a warning only: that is an error
    here, naming the package."""
    warnings = _run(["uninstall", "--yes", "--quiet", "--disable-pip-version-check", *packages])
    left = {_normal(p.package) for p in installed_plugins().values()}
    kept = [p for p in packages if _normal(p) in left]
    if kept:
        where = importlib.metadata.distribution(kept[0]).locate_file("")
        raise PuzzleInputError(f"pip did not remove {', '.join(kept)}: installed in {where}, "
                               f"outside this environment ({sys.prefix})")
    return warnings
