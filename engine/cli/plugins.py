"""``puzzle-engine plugins``: what is loaded (a table, or ``--json``), and the plugin
ecosystem: ``install`` and ``uninstall`` (pip, into the environment that runs the
engine), ``new`` (a plugin package from a template, ready to install and test)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from ..contract_v2 import MIGRATING
from ..errors import PuzzleInputError
from ..hookspecs import CONTRACT_VERSION
from . import app
from .common import _errors, _host, err_console, out_console

plugins_app = typer.Typer(rich_markup_mode="rich", no_args_is_help=False,
                          help="List the loaded plugins, their puzzle types and options, and "
                               "any broken plugin; install, uninstall and start plugins.")
app.add_typer(plugins_app, name="plugins")

NamesArg = Annotated[list[str], typer.Argument(metavar="NAME...", show_default=False)]


@plugins_app.callback(invoke_without_command=True)
def plugins(ctx: typer.Context,
            as_json: Annotated[bool, typer.Option("--json", help="Print the plugins as JSON: "
                               "name, version, package, hooks, what each registers, and its "
                               "errors.")] = False):
    """List the loaded plugins, their puzzle types and options, and any broken plugin.
    'install', 'uninstall' and 'new' manage plugin packages."""
    if ctx.invoked_subcommand is not None:
        if as_json:
            with _errors():
                raise PuzzleInputError(f"--json goes with 'plugins' alone, not with "
                                       f"'plugins {ctx.invoked_subcommand}'")
        return
    with _errors():
        host = _host(warn=False)  # the broken plugins are listed below
        if as_json:
            out_console.print(json.dumps(listing(host), indent=2), markup=False)
        else:
            _table(host)


def _table(host) -> None:
    from rich.table import Table  # lazy: only the table loads rich.table (test_startup)
    table = Table(title="Plugins")
    for col in ("plugin", "version", "puzzle types", "also registers", "contract"):
        table.add_column(col)
    infos = host.plugin_infos()
    for info in infos:
        also = "; ".join(f"{registry}: {', '.join(names)}"
                         for registry, names in info.registers.items())
        contract = f"{info.contract}, adapted" if info.adapted else str(info.contract)
        table.add_row(info.name, info.version, ", ".join(info.types), also, contract)
    out_console.print(table)
    types = Table(title="Puzzle types")
    for col in ("type", "plugin", "strategy", "options", "description"):
        types.add_column(col)
    for t in sorted(host.types.values(), key=lambda t: t.name):
        opts = ", ".join(f"--{p.name.replace('_', '-')}"
                         + (f" (default {p.default})"
                            if p.default is not None and p.type is not bool else "")
                         for p in t.params)
        types.add_row(t.name, t.plugin, t.strategy, opts, t.description)
    out_console.print(types)
    for f in host.failures:
        who = f"'{f.name}'" + (f" (from {f.distribution})" if f.distribution else "")
        line = (f"broken plugin {who} (skipped): {f.error}" if f.skipped
                else f"refused from plugin {who}: {f.error}")
        out_console.print(line, markup=False)
    for info in infos:
        if info.adapted:
            out_console.print(f"plugin '{info.name}' is written for contract {info.contract} "
                              f"and adapted to contract {CONTRACT_VERSION} ({MIGRATING})",
                              markup=False)
    for line in dict.fromkeys(host.notices):
        out_console.print(line, markup=False)


def _plain(value: Any) -> Any:
    """``value`` if JSON holds it as it is, else its text (a parser function's name)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return getattr(value, "__name__", str(value))


def listing(host) -> list[dict[str, Any]]:
    """Every plugin the host knows, loaded or skipped, as ``plugins --json`` prints it."""
    plugins: list[dict[str, Any]] = []
    loaded = {info.name: info for info in host.plugin_infos()}
    names = list(loaded) + [f.name for f in host.failures if f.name not in loaded]
    for name in dict.fromkeys(names):
        info = loaded.get(name)
        package, version = host.packages.get(name, ("", host.versions.get(name, "")))
        registers = info.registers if info else {}
        types = [host.types[t] for t in (info.types if info else []) if t in host.types]
        plugins.append({
            "name": name,
            "version": info.version if info and info.version else version,
            "package": package,
            "module": info.module if info else "",
            "builtin": name in host.builtin,
            "loaded": info is not None,
            "hooks": info.hooks if info else [],
            "contract": info.contract if info else None,
            "adapted": bool(info and info.adapted),
            "types": [{"name": t.name, "description": t.description, "strategy": t.strategy,
                       "criterion": t.criterion, "grader": t.grader,
                       "options": [{"name": p.name.replace("_", "-"), "type": _plain(p.type),
                                    "default": _plain(p.default), "help": p.help}
                                   for p in t.params]} for t in types],
            "strategies": registers.get("strategies", []),
            "criteria": registers.get("criteria", []),
            "graders": registers.get("graders", []),
            "complexities": registers.get("complexities", []),
            "errors": [f.error for f in host.failures if f.name == name],
            "warnings": [n for n in dict.fromkeys(host.notices)
                         if n.startswith(f"plugin '{name}' ")],
        })
    return plugins


@plugins_app.command("install")
def install(names: Annotated[Optional[list[str]], typer.Argument(
                metavar="[NAME]...", show_default=False,
                help="Packages to install: names on the package index, folders (./my-plugin), "
                     "wheels or archives, as pip takes them.")] = None,
            editable: Annotated[Optional[list[str]], typer.Option(
                "--editable", "-e", metavar="FOLDER", show_default=False,
                help="Install this folder in place (pip install -e): edits take effect "
                     "without installing again. Repeatable.")] = None,
            upgrade: Annotated[bool, typer.Option("--upgrade", "-U", help="Upgrade the packages "
                               "to their newest versions.")] = False,
            force_reinstall: Annotated[bool, typer.Option("--force-reinstall", help="Reinstall "
                                       "even if the same version is installed.")] = False,
            no_deps: Annotated[bool, typer.Option("--no-deps", help="Install no dependencies.")
                               ] = False,
            no_build_isolation: Annotated[bool, typer.Option("--no-build-isolation", help="Build "
                                          "with the setuptools already installed (offline).")
                                          ] = False,
            no_cache_dir: Annotated[bool, typer.Option("--no-cache-dir", help="Do not use pip's "
                                    "cache.")] = False,
            pre: Annotated[bool, typer.Option("--pre", help="Also consider pre-release "
                                              "versions.")] = False):
    """Install plugin packages with pip into the environment that runs puzzle-engine, and
    name the plugins they add. pip's own output is left out; its first error is the one
    line printed, and its exit status the command's."""
    from .. import installer  # lazy: only these commands load pip's helpers
    with _errors():
        options = installer.InstallOptions(tuple(editable or ()), upgrade, force_reinstall,
                                           no_deps, no_build_isolation, no_cache_dir, pre)
        try:
            changed, warnings = installer.install(list(names or ()), options)
        except installer.PipFailed as exc:
            err_console.print(f"puzzle-engine: error: {exc}", markup=False)
            raise typer.Exit(exc.status) from None
        _pass_on(warnings)
        for plugin in changed:
            out_console.print(f"installed {plugin.line()}", markup=False)
        if not changed:
            err_console.print("puzzle-engine: warning: no plugin was added or changed (already "
                              "installed, or the package declares no entry point in the group "
                              "'puzzle_engine')", markup=False)


@plugins_app.command("uninstall")
def uninstall(names: NamesArg,
              yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for "
                             "confirmation.")] = False):
    """Uninstall plugin packages with pip, by plugin name or package name. Only packages
    that declare a plugin are removed, never a built-in one."""
    from .. import installer  # lazy: only these commands load pip's helpers
    with _errors():
        packages = installer.to_uninstall(names)
        described = "; ".join(f"{package} ({', '.join(f'plugin {p.plugin!r}' for p in plugins)})"
                              for package, plugins in packages)
        if not yes:
            # Asked on stderr, answered on stdin: stdout carries only the result.
            err_console.print(f"Uninstall {described}? [y/N]: ", end="", markup=False)
            answer = sys.stdin.readline()
            if not answer.endswith("\n") or not sys.stdin.isatty():  # not echoed: end the line
                err_console.print()
            if answer.strip().lower() not in ("y", "yes"):
                raise PuzzleInputError("nothing uninstalled (answer y, or pass --yes)")
        try:
            warnings = installer.uninstall([package for package, _ in packages])
        except installer.PipFailed as exc:
            err_console.print(f"puzzle-engine: error: {exc}", markup=False)
            raise typer.Exit(exc.status) from None
        _pass_on(warnings)
        for _, plugins in packages:
            for plugin in plugins:
                out_console.print(f"uninstalled {plugin.line()}", markup=False)


def _pass_on(warnings: str) -> None:
    """pip's own warnings, one line each; what a build back end says through pip (the
    warnings of setuptools) is left out."""
    for line in warnings.splitlines():
        if line.startswith(("WARNING:", "DEPRECATION:")):
            err_console.print(f"puzzle-engine: pip: {line.strip()}", markup=False)


@plugins_app.command("new")
def new(name: Annotated[str, typer.Argument(help="The plugin's name, which is also its puzzle "
                                            "type's: letters, digits and '-', from a letter.",
                                            show_default=False)],
        strategy: Annotated[str, typer.Option("--strategy", help="How its puzzles are made: "
                            "emptying (a full board emptied while unique), growing (a level "
                            "grown a piece at a time), or own (drawn by the type itself).",
                            show_default=False)] = "emptying",
        folder: Annotated[Optional[Path], typer.Option("--dir", help="The folder to write "
                          "(default: ./puzzle-engine-NAME); it must not exist, or be empty.",
                          show_default=False)] = None):
    """Write a new plugin package from a template: its pyproject.toml with the entry point,
    a MiniZinc model, the puzzle type with its rules and drawing, a README and a test that
    runs the conformance kit (puzzle_engine.testing). It installs, generates, draws and
    passes the kit as written."""
    from .. import scaffold  # lazy: only 'plugins new' loads the templates
    with _errors():
        written = scaffold.write(name, strategy, folder)
        out_console.print(f"wrote {written.folder}: plugin '{written.name}' ({written.strategy})",
                          markup=False)
        for path in written.files:
            out_console.print(f"  {path}", markup=False)
        out_console.print(f"next: puzzle-engine plugins install -e {written.folder} && "
                          f"python -m pytest {written.folder}", markup=False)
