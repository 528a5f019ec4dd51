"""One exception family. Every message is a single line that names the problem;
the CLI prints it and exits with status 2, without a traceback."""


class PuzzleEngineError(Exception):
    """Base class: a problem the user can act on."""


class PuzzleInputError(PuzzleEngineError):
    """A malformed puzzle, bad parameters, or a bad option value."""


class UnknownPuzzleError(PuzzleEngineError):
    """No loaded plugin provides the requested puzzle type."""


class SolverError(PuzzleEngineError):
    """MiniZinc or a solver is missing, or a solver run failed."""


class ModelError(PuzzleEngineError):
    """A MiniZinc model did not compile."""


class ConfigError(PuzzleEngineError):
    """A configuration file is malformed."""


class PluginError(PuzzleEngineError):
    """A plugin raised inside one of its hooks."""


class NothingFound(PluginError):
    """A generation gave up without a puzzle: no level grown from any base, none of the
    drawn puzzles accepted, no seed of the level or rating asked for. Not bad input: the
    CLI exits with ``NOTHING_FOUND`` (a run of many seeds skips such a seed instead)."""


#: The exit status of a command whose generation found nothing (``NothingFound``).
NOTHING_FOUND = 3


def one_line(exc: BaseException) -> str:
    """An exception's message on one line (a plugin's may span several)."""
    return " ".join(str(exc).split())
