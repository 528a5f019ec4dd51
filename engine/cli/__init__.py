"""The command line: thin typer commands over the engine, one module per group of
commands (``gen``; ``batch``; ``solve`` and ``check``; ``grade`` and ``train``; ``plugins``
(and its ``install``, ``uninstall``, ``new``); ``solvers``; ``db``), and what they share in ``common``. stdout carries only puzzles and answers;
progress, warnings and errors go to stderr. A bad input is one line on stderr and exit
status 2."""
from __future__ import annotations

import importlib
import inspect
import os
import sys
from typing import Annotated

import typer

from .. import __version__, processes
from ..errors import PuzzleEngineError
from . import streams
from .common import err_console, out_console

#: The module of every command (importing it registers its commands), in the order of the
#: help. Only the module of the command being run is imported (``main``), so that a command
#: does not pay for the others' imports at start-up.
COMMANDS = {"gen": "gen", "batch": "batch", "solve": "solve", "check": "solve",
            "grade": "grade", "train": "grade", "plugins": "plugins", "solvers": "info",
            "db": "db", "render": "render", "explain": "explain", "hint": "explain",
            "specs": "specs"}


class _LazyApp(typer.Typer):
    """The command line, whose command modules are imported when typer reads its commands:
    only the one ``main`` is running (``only``), or all of them (the help, an unknown
    command, ``from puzzle_engine.cli import app``). A module is imported once; later
    reads add the ones they need."""

    only: str | None = None

    def __init__(self, *args, **kwargs):
        self._modules: set[str] = set()
        super().__init__(*args, **kwargs)

    @property
    def registered_commands(self):
        self._load()
        _plain_help(self._commands)
        order = list(COMMANDS)  # the help's order, whatever the order of the imports
        self._commands.sort(key=lambda info: order.index(info.name or info.callback.__name__)
                            if (info.name or info.callback.__name__) in order else len(order))
        return self._commands

    @registered_commands.setter
    def registered_commands(self, value):
        self._commands = value

    @property
    def registered_groups(self):
        self._load()
        for group in self._groups:
            _plain_help(group.typer_instance.registered_commands)
        return self._groups

    @registered_groups.setter
    def registered_groups(self, value):
        self._groups = value

    def _load(self) -> None:
        if not hasattr(self, "_commands"):  # still in typer's __init__
            return
        names = [self.only] if self.only in COMMANDS else list(COMMANDS)
        missing = [m for m in dict.fromkeys(COMMANDS[name] for name in names)
                   if m not in self._modules]
        self._modules.update(missing)  # first: a module's own registration reads the commands
        for module in missing:
            importlib.import_module(f"{__name__}.{module}")


class _Command(typer.core.TyperCommand):
    """A command whose usage line names its arguments as click does (``PUZZLE INPUT``),
    not in typer's braces (``{puzzle} {INPUT}``), which read like a set or a template."""

    def collect_usage_pieces(self, ctx) -> list[str]:
        pieces = []
        for piece in super().collect_usage_pieces(ctx):
            if piece[:1] == "{" and piece[-1:] == "}":  # required
                piece = piece[1:-1].upper()
            elif piece[:1] == "[" and piece[-1:] == "]" and piece != "[OPTIONS]":  # optional
                piece = piece.upper()
            pieces.append(piece)
        return pieces


def _plain_help(commands) -> None:
    """Each command's help from its docstring as the terminal should show it: typer keeps
    the docstring's line breaks after the first paragraph, which then break sentences
    mid-line at the terminal's width, and shows reStructuredText's ``quotes`` as they
    are. Paragraphs stay apart; the breaks inside them and the quotes go. The usage
    line is ``_Command``'s."""
    for info in commands:
        if info.cls in (None, typer.core.TyperCommand):
            info.cls = _Command
        if info.help is None and info.callback is not None and info.callback.__doc__:
            text = inspect.cleandoc(info.callback.__doc__).replace("``", "'")
            info.help = "\n\n".join(" ".join(part.split()) for part in text.split("\n\n"))


app = _LazyApp(rich_markup_mode="rich", no_args_is_help=True, add_completion=False,
               pretty_exceptions_enable=False,
               help="Generate, solve and check puzzles from MiniZinc models, through plugins.")


def _version_callback(value: bool):
    """``--version``: print the version and exit."""
    if value:
        out_console.print(f"puzzle-engine {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: Annotated[bool, typer.Option("--version", callback=_version_callback,
                                                is_eager=True, help="Show the version.")] = False):
    """Generate, solve and check puzzles from MiniZinc models, through plugins."""


def main(argv: list[str] | None = None) -> None:
    """The ``puzzle-engine`` command. Every error is one line on stderr: ours and the
    command line parser's (exit 2), and one that is a bug of ours (exit 1, with the
    traceback only when ``PUZZLE_ENGINE_DEBUG`` is set). A closed standard output ends
    the command quietly with exit status 141, whichever command wrote (``streams``).
    SIGTERM and SIGHUP unwind like Ctrl-C; folders left by killed runs are swept."""
    streams.open_closed()
    saved_stdout = streams.guard_stdout()  # the help, written by typer itself, too
    processes.handle_signals()
    words = sys.argv[1:] if argv is None else argv
    app.only = words[0] if words else None
    try:
        processes.sweep_temp_dirs()
        code = app(args=argv, prog_name="puzzle-engine", standalone_mode=False)
        streams.stdout.flush()  # what is still buffered: its failure is the command's
    except streams.ClosedOutput:
        streams.end_quietly()
        sys.exit(streams.CLOSED_OUTPUT)
    except PuzzleEngineError as exc:  # raised outside a command's own guard (the flush)
        err_console.print(f"puzzle-engine: error: {exc}", markup=False)
        sys.exit(2)
    except KeyboardInterrupt as exc:
        err_console.print("puzzle-engine: interrupted", markup=False)
        sys.exit(processes.exit_code(exc))
    except Exception as exc:  # noqa: BLE001 - the last guard against a traceback
        usage = getattr(exc, "format_message", None)  # the parser's (click) errors
        if usage is not None and isinstance(getattr(exc, "exit_code", None), int):
            if type(exc).__name__ == "Abort":  # click's name for an interrupt while parsing
                err_console.print("puzzle-engine: interrupted", markup=False)
                sys.exit(130)
            command = getattr(getattr(exc, "ctx", None), "command_path", "puzzle-engine")
            message = " ".join(usage().split()).rstrip(".")
            if not message:  # no arguments at all: the parser has shown the help
                sys.exit(exc.exit_code)
            err_console.print(f"puzzle-engine: error: {message[0].lower()}{message[1:]} (see "
                              f"'{command} --help')", markup=False)
            sys.exit(exc.exit_code)
        if os.environ.get("PUZZLE_ENGINE_DEBUG"):
            raise
        err_console.print(f"puzzle-engine: internal error: {type(exc).__name__}: {exc} (a bug; "
                          "PUZZLE_ENGINE_DEBUG=1 shows where)", markup=False)
        sys.exit(1)
    finally:
        app.only = None  # a later read of the app (a test's CliRunner) sees every command
        sys.stdout = saved_stdout
    sys.exit(code if isinstance(code, int) else 0)
