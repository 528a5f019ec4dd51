"""Which solver and time limit are in effect.

Precedence, highest first: ``--solver`` on the command line; the environment variable
``PUZZLE_ENGINE_SOLVER``; the TOML config file (``--config FILE``, else
``puzzle-engine.toml`` in the working directory), where ``[plugins.<name>]`` overrides
``[solver]``; the default, ``gecode``. The time limit per solver call follows the same
order without the environment variable.

    [solver]
    id = "gecode"
    time_limit = 60        # seconds per solver call

    [plugins.NAME]         # a puzzle type, or the plugin that provides it
    id = "chuffed"
    time_limit = 20
    free_search = true     # let the solver leave the model's search annotation (-f)
    check_flags = ["-f"]   # the solver's flags for uniqueness checks (default: per solver)

    [dask]                 # batch --executor dask
    timeout = 30           # seconds to wait on the cluster (--dask-timeout)

Between the config file and the default sits the puzzle type's own preference
(``PuzzleType.solver``, ``PuzzleType.free_search``).
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ConfigError
from .files import MAX_SMALL_FILE, decode, read_small

DEFAULT_SOLVER = "gecode"
DEFAULT_TIME_LIMIT = 60.0
ENV_SOLVER = "PUZZLE_ENGINE_SOLVER"
CONFIG_NAME = "puzzle-engine.toml"
_SECTION_KEYS = {"id", "time_limit", "free_search", "check_flags"}
#: The longest time limit per solver call: a week. Longer is surely a slip (1e308, say).
MAX_TIME_LIMIT = 7 * 24 * 3600.0


def time_limit_problem(value) -> str | None:
    """Why ``value`` is no time limit in seconds (None when it is one)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        return "must be a number of seconds"
    if value <= 0:
        return "must be a positive number of seconds"
    if value > MAX_TIME_LIMIT:
        return f"must be at most {MAX_TIME_LIMIT:g} seconds (a week)"
    return None


@dataclass(frozen=True)
class Settings:
    solver: str
    solver_from: str  # "command line", "environment", "<file> [section]", "default"
    time_limit: float | None
    time_limit_from: str
    free_search: bool | None = None  # None: as the puzzle type asks
    free_search_from: str = "puzzle type"
    check_flags: tuple[str, ...] | None = None  # None: the solver's default
    check_flags_from: str = "solver default"


def load_config(path: Path | None) -> tuple[dict[str, Any], str | None]:
    """The parsed config and its file name; ``({}, None)`` when there is none."""
    explicit = path is not None
    path = Path(path) if explicit else Path.cwd() / CONFIG_NAME
    if not path.exists():
        if explicit:
            raise ConfigError(f"config file {path} does not exist")
        return {}, None
    if path.is_dir():
        raise ConfigError(f"config file {path} is a folder")
    # A regular file of at most 1 MB, checked before it is read: a FIFO would block, and
    # /dev/zero would fill the memory.
    text = decode(read_small(path, "config file", MAX_SMALL_FILE, ConfigError), str(path),
                  error=ConfigError)
    import tomllib  # here: most runs have no config file
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: malformed TOML: {exc}") from None
    _validate(data, str(path))
    return data, str(path)


def _validate(data: dict[str, Any], name: str) -> None:
    for key in data:
        if key not in ("solver", "plugins", "dask"):
            raise ConfigError(f"{name}: unknown section [{key}] (expected [solver], "
                              "[plugins.NAME] or [dask])")
    dask = data.get("dask", {})
    if not isinstance(dask, dict):
        raise ConfigError(f"{name}: [dask] must be a table")
    for key, value in dask.items():
        if key != "timeout":
            raise ConfigError(f"{name}: unknown field dask.{key} (expected timeout)")
        if problem := time_limit_problem(value):
            raise ConfigError(f"{name}: dask.timeout {problem}")
    sections = [("solver", data.get("solver", {}))]
    plugins = data.get("plugins", {})
    if not isinstance(plugins, dict):
        raise ConfigError(f"{name}: 'plugins' must be a table of [plugins.NAME] sections")
    sections += [(f"plugins.{k}", v) for k, v in plugins.items()]
    for label, section in sections:
        if not isinstance(section, dict):
            raise ConfigError(f"{name}: [{label}] must be a table")
        for key, value in section.items():
            if key not in _SECTION_KEYS:
                raise ConfigError(f"{name}: unknown field {label}.{key} "
                                  "(expected id, time_limit, free_search or check_flags)")
            if key == "id" and not (isinstance(value, str) and value):
                raise ConfigError(f"{name}: {label}.id must be a non-empty string")
            if key == "free_search" and not isinstance(value, bool):
                raise ConfigError(f"{name}: {label}.free_search must be true or false")
            if key == "check_flags" and not (isinstance(value, list)
                                             and all(isinstance(f, str) and f for f in value)):
                raise ConfigError(f"{name}: {label}.check_flags must be a list of solver flags, "
                                  'e.g. ["-f"]')
            if key == "time_limit" and (problem := time_limit_problem(value)):
                raise ConfigError(f"{name}: {label}.time_limit {problem}")


def resolve(*, puzzle: str | None = None, plugin: str | None = None, cli_solver: str | None = None,
            cli_time_limit: float | None = None, config_path: Path | None = None,
            type_solver: str | None = None) -> Settings:
    """The settings in effect for one puzzle type (or none, for commands like ``solvers``).
    ``type_solver`` is the puzzle type's preferred solver, below the config file."""
    data, name = load_config(config_path)
    layers = []  # highest precedence first
    plugins = data.get("plugins", {})
    for key in (puzzle, plugin):
        if key and key in plugins:
            layers.append((f"{name} [plugins.{key}]", plugins[key]))
            break
    if "solver" in data:
        layers.append((f"{name} [solver]", data["solver"]))

    def first(key: str):
        """The highest config layer that sets ``key``: ``(value, label)``, or ``None``."""
        return next(((section[key], label) for label, section in layers if key in section), None)

    if cli_solver:
        solver, solver_from = cli_solver, "command line"
    elif os.environ.get(ENV_SOLVER):
        solver, solver_from = os.environ[ENV_SOLVER], f"environment ({ENV_SOLVER})"
    else:
        solver, solver_from = first("id") or (
            (type_solver, f"puzzle type '{puzzle}'") if type_solver else (DEFAULT_SOLVER, "default"))

    if cli_time_limit is not None:
        if problem := time_limit_problem(cli_time_limit):
            raise ConfigError(f"bad --time-limit {cli_time_limit:g}: {problem}")
        limit, limit_from = float(cli_time_limit), "command line"
    else:
        limit, limit_from = first("time_limit") or (DEFAULT_TIME_LIMIT, "default")
        limit = float(limit)
    free, free_from = first("free_search") or (None, "puzzle type")
    flags, flags_from = first("check_flags") or (None, "solver default")
    return Settings(solver, solver_from, limit, limit_from, free, free_from,
                    None if flags is None else tuple(flags), flags_from)


def dask_timeout(cli_value: float | None, config_path: Path | None, default: float) -> float:
    """Seconds to wait on a Dask cluster: ``--dask-timeout``, else the config file's
    ``[dask] timeout``, else ``default``."""
    if cli_value is not None:
        if problem := time_limit_problem(cli_value):
            raise ConfigError(f"bad --dask-timeout {cli_value:g}: {problem}")
        return float(cli_value)
    data, _ = load_config(config_path)
    return float(data.get("dask", {}).get("timeout", default))
