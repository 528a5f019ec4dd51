"""What the commands share: the output consoles, the option types, one-line errors,
the plugins and the solver settings in effect, the engine on that solver, and the reading
of a puzzle type's (and its strategy's) options from the words the parser left over."""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Annotated, Any, Optional

import click
import typer
from click.core import ParameterSource
from rich.console import Console

from .. import calls, processes
from ..config import resolve
from ..engine import Engine
from ..errors import NOTHING_FOUND, NothingFound, PuzzleEngineError, PuzzleInputError
from ..hookspecs import PuzzleType
from ..plugins import Host, get_host
from ..run.factory import SolverSettings
from ..types import Param
from . import streams

#: stdout carries only puzzles and answers; progress, warnings and errors go to stderr.
#: No emoji codes: ":cat:" in a puzzle's text stays ":cat:" (and rich's table of emoji
#: codes is not loaded at every start-up).
#: Both write through ``streams``, which decides what a failure to write them means.
out_console = Console(file=streams.stdout, highlight=False, soft_wrap=True, emoji=False)
err_console = Console(file=streams.stderr, stderr=True, highlight=False, soft_wrap=True,
                      emoji=False)
FORMATS = ("text", "line", "json")
#: The commands that read a puzzle type's options leave them to ``_plugin_params``.
PLUGIN_ARGS = {"allow_extra_args": True, "ignore_unknown_options": True}

SolverOpt = Annotated[Optional[str], typer.Option("--solver", help="MiniZinc solver id or tag "
                      "(gecode, chuffed, ...); overrides PUZZLE_ENGINE_SOLVER and the config file.")]
ConfigOpt = Annotated[Optional[Path], typer.Option("--config", help="TOML config file "
                      "(default: ./puzzle-engine.toml if present).")]
TimeOpt = Annotated[Optional[float], typer.Option("--time-limit", help="Seconds per solver call; "
                    "a call that runs out is reported as unknown.")]
FormatOpt = Annotated[str, typer.Option("--format", help="text (grid), line (one line, '.' for "
                      "empty) or json (JSON Lines).")]
ModelOpt = Annotated[Optional[Path], typer.Option("--model", help="Level model from "
                     "'puzzle-engine train' (default: the one the plugin ships, if any).")]
InputArg = Annotated[str, typer.Argument(metavar="INPUT", help="The puzzle: a string, a file, or - for stdin. "
                     "Several puzzles are read one per line, in the line format or as JSON "
                     "Lines records from 'gen --format json'.")]


@contextlib.contextmanager
def _errors():
    """Turn our exceptions into one line on stderr and exit status 2 (3, ``NOTHING_FOUND``,
    for a generation that found nothing), and an interrupt (Ctrl-C, SIGTERM) into one line
    and 130 or 143."""
    try:
        yield
    except NothingFound as exc:
        err_console.print(f"puzzle-engine: error: {exc}", markup=False)
        raise typer.Exit(NOTHING_FOUND) from None
    except PuzzleEngineError as exc:
        err_console.print(f"puzzle-engine: error: {exc}", markup=False)
        raise typer.Exit(2) from None
    except KeyboardInterrupt as exc:
        err_console.print("puzzle-engine: interrupted", markup=False)
        raise typer.Exit(processes.exit_code(exc)) from None


def _host(warn: bool = True) -> Host:
    """The plugins: every command loads them here. With ``warn``, each broken one is
    named in a warning on stderr."""
    host = get_host()
    if warn:
        for line in host.warnings():
            err_console.print(f"puzzle-engine: warning: {line}", markup=False)
    return host


class _Value(click.ParamType):
    """A puzzle option's value, made by the type's own function (``Param.type``); a value
    it refuses is a one-line error naming the option."""

    def __init__(self, param: Param):
        self.param = param
        self.name = getattr(param.type, "__name__", "a value")

    def convert(self, value, option, ctx):
        try:
            return self.param.type(value)
        except (ValueError, OverflowError):
            raise PuzzleInputError(f"bad {self.param.flag} '{value}': expected "
                                   f"{self.name}") from None


def _option(param: Param) -> click.Option:
    """``param`` as click declares an option: ``--name VALUE``, or a flag that
    ``--no-name`` (and ``--<negative>``) turns off."""
    if param.type is not bool:
        return click.Option([param.name, param.flag], type=_Value(param))
    option = click.Option([param.name, f"{param.flag}/--no-{param.flag[2:]}"], is_flag=True,
                          default=None)
    if param.negative:
        option.secondary_opts.append(f"--{param.negative}")
    return option


def _plugin_params(ptype: PuzzleType, args: list[str], inputs: int = 0,
                   more: tuple[Param, ...] = ()) -> tuple[dict[str, Any], list[str]]:
    """Options a puzzle type declares (``--size 9``, ``--box=2x3``), and ``more`` options
    (its strategy's), from ``args``, parsed by click; and the ``inputs`` other arguments
    (puzzles to read), wherever they stand among the options. Only the options given are
    returned; each error is one line naming the option."""
    declared = (*ptype.params, *more)
    command = click.Command(ptype.name, add_help_option=False,
                            params=[*map(_option, declared),
                                    click.Argument(["inputs"], nargs=-1)])
    known = ", ".join(p.flag for p in declared) or "none"
    try:
        ctx = command.make_context(ptype.name, list(args))
    except click.NoSuchOption as exc:
        raise PuzzleInputError(f"unknown option {exc.option_name} for puzzle '{ptype.name}' "
                               f"(its options: {known})") from None
    except click.BadOptionUsage as exc:
        flags = {name for o in command.params if getattr(o, "is_flag", False)
                 for name in (*o.opts, *o.secondary_opts)}
        needs = "takes no value" if exc.option_name in flags else "needs a value"
        raise PuzzleInputError(f"option {exc.option_name} {needs}") from None
    except click.UsageError as exc:
        raise PuzzleInputError(f"{' '.join(exc.format_message().split())} (puzzle "
                               f"'{ptype.name}')") from None
    raw = {p.name: ctx.params[p.name] for p in declared
           if ctx.get_parameter_source(p.name) is ParameterSource.COMMANDLINE}
    others = list(ctx.params["inputs"])
    if len(others) > inputs:
        raise PuzzleInputError(f"unexpected argument '{others[inputs]}' for puzzle "
                               f"'{ptype.name}'")
    if len(others) < inputs:
        raise PuzzleInputError("missing the puzzle to read (a string, a file, or - for stdin)")
    return raw, others


def _input_and_params(ptype: PuzzleType, source: str, ctx: typer.Context
                      ) -> tuple[str, dict[str, Any]]:
    """INPUT and the puzzle options of solve, check and grade. The command line parser
    takes INPUT to be the first word that is none of ours, which may be a puzzle option
    (``check TYPE --size 9 PUZZLE``); the words are in order, so read them again."""
    raw, (source,) = _plugin_params(ptype, [source, *ctx.args], inputs=1)
    return source, raw


def _settings(ptype: PuzzleType | None, solver: str | None, config: Path | None,
              time_limit: float | None = None, params: dict[str, Any] | None = None):
    """The solver settings in effect (for ``ptype``, if given); ``params``, when known, let a
    puzzle type prefer a solver by size."""
    return resolve(puzzle=ptype.name if ptype else None, plugin=ptype.plugin if ptype else None,
                   cli_solver=solver, cli_time_limit=time_limit, config_path=config,
                   type_solver=calls.preferred_solver(ptype, params) if ptype else None)


def _engine(host: Host, ptype: PuzzleType | None, solver: str | None, config: Path | None,
            time_limit: float | None, params: dict[str, Any] | None = None) -> Engine:
    """The engine on the solver in effect (``_settings``), made by the factory every
    engine comes from (``run.factory``)."""
    settings = _settings(ptype, solver, config, time_limit, params)
    return SolverSettings.resolved(ptype, settings).engine(host)


def counted(n: float, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1: "1 group", "3 groups"."""
    return f"{n:.0f} {noun}{'' if round(n) == 1 else 's'}"


def _check_format(fmt: str) -> None:
    """Refuse a ``--format`` that is not one of ``FORMATS``."""
    if fmt not in FORMATS:
        raise PuzzleInputError(f"bad --format '{fmt}': expected one of {', '.join(FORMATS)}")


def _render(ptype: PuzzleType, params, instance, fmt: str, solution: bool = False) -> str:
    """A puzzle (or with ``solution``, a solution) in the type's text format ``fmt``."""
    if solution:
        return calls.text(ptype, "format_solution", params=params, solution=instance, fmt=fmt)
    return calls.text(ptype, "format", params=params, instance=instance, fmt=fmt)
