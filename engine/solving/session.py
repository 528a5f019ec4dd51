"""The session protocol: one compiled model, kept open, asked many questions.

A session is what ``Backend.compile`` opens on a flattened model. It lives as long as its
owner (an engine, so a batch or a worker) and is closed deterministically (``close``).
Every question the engine asks of a puzzle's model goes through ``run``: the givens are
assumptions of that question only, and so is everything else a question adds (a solution
that differs from a known one, on these squares, at the least stage, with these arrays).
A back end that solves in this process keeps what its solver learnt from one question to
the next; a process back end (``ProcessSession``) runs the solver's FlatZinc executable
per question and keeps nothing.

Answers do not depend on the back end: the same counts, the same statuses, and with
``order`` the same first solution (the least in that order), so that a puzzle made on one
exact solver is the puzzle made on another. Search effort (``stats``) is the exception:
only a back end that reports nodes can grade.

A question that runs out of its limit answers ``Run(found, complete=False)``: unknown,
never a proof. Every back end, and the fast tier's fake solver, implements this protocol.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..types import Board
from ..errors import SolverError
from .results import Run, SolveResult


@runtime_checkable
class Session(Protocol):
    """A compiled model kept open for questions (see the module's docstring)."""

    #: Flattening already proved the model unsatisfiable.
    failed: bool

    @property
    def squares(self) -> int:
        """The decision array's length."""

    def unfixed(self) -> list[int]:
        """The squares that flattening left as variables (the rest it fixed)."""

    def run(self, board: Board, limit: int = 1, order: Sequence[int] | None = None,
            stats: bool = False, solution: bool = False, differs: Board | None = None,
            differs_at: Sequence[int] | None = None, stages: Mapping[int, int] | None = None,
            arrays: Mapping[str, Sequence[int]] | None = None, every: bool = False) -> Run:
        """Ask for solutions with ``board``'s givens (0: empty) fixed, up to ``limit``.

        :param order: the first solution is the least in the lexicographic order of these
            squares (smallest value first); a process back end also branches in it.
        :param stats: report search effort (``nodes``, ...): only process back ends.
        :param solution: give the first solution's board (``Run.first``).
        :param differs: count only solutions that differ from this full board on an empty
            square (of ``differs_at``, default all).
        :param stages: with ``differs``: a stage per empty square; ``Run.stage`` is the
            least stage s such that a solution differs from ``differs`` on squares of
            stages up to s only, or None when none differs.
        :param arrays: values for other integer output arrays of the model, by name.
        :param every: give each solution's board (``Run.every``).
        """

    def count(self, board: Board, limit: int, differs: Board | None = None,
              differs_at: Sequence[int] | None = None) -> tuple[int, bool]:
        """``run``'s count and whether it is definite."""

    def shaped(self, board: Board) -> Any:
        """The decision array as MiniZinc writes it: nested lists for 2-D and more."""

    def close(self) -> None:
        """Release the solver and its files; the session answers nothing after this."""


def literal(name: str) -> bool:
    """Whether a FlatZinc name of a square is a literal (flattening fixed the square)."""
    return name.lstrip("-").isdigit()


def reshape(flat: list[Any], shape: tuple[int, ...]) -> Any:
    """A flat array as MiniZinc writes one of these index set sizes: nested lists."""
    if len(shape) <= 1:
        return flat
    step = len(flat) // shape[0]
    return [reshape(flat[i:i + step], shape[1:]) for i in range(0, len(flat), step)]


def work_rate(env: str, default: float, unit: str) -> float:
    """How much work an in-process back end counts for a second of ``--time-limit``: the
    environment variable ``env`` when set (a positive number of ``unit``), else
    ``default``. Budgets in work, not wall time, give the same puzzle on a slower machine."""
    text = os.environ.get(env, "")
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise SolverError(f"bad {env} {text!r}: expected a positive number ({unit} per second "
                          "of --time-limit)")
    return value


class SessionBase:
    """What a session derives from its ``run`` and the decision array's FlatZinc names
    (``_names``) and shape (``_shape``), so that each back end writes only ``run`` and
    ``close``."""

    _names: list[str]
    _shape: tuple[int, ...]

    @property
    def squares(self) -> int:
        return len(self._names)

    def unfixed(self) -> list[int]:
        """The squares that flattening left as variables (the rest are literals)."""
        return [i for i, name in enumerate(self._names) if not literal(name)]

    def count(self, board: Board, limit: int, differs: Board | None = None,
              differs_at: Sequence[int] | None = None) -> tuple[int, bool]:
        """``run``'s count and whether it is definite (False on a time-out)."""
        run = self.run(board, limit, differs=differs, differs_at=differs_at)
        return run.found, run.complete

    def shaped(self, board: Board) -> Any:
        return reshape(list(board), self._shape)


@runtime_checkable
class WholeSession(Session, Protocol):
    """A session that also answers whole solves (``Backend.solve``) in this process: an
    in-process back end implements ``outputs``; a process back end need not (its whole
    solves go through minizinc-python)."""

    def outputs(self, limit: int = 1, goal: str = "satisfy"
                ) -> tuple[SolveResult, list[dict[str, Any]]]:
        """Solve the model as flattened (its own solve item's ``goal``: ``"satisfy"``,
        ``"minimize"`` or ``"maximize"``) and give each solution's output variables as
        minizinc-python does: ``{name: value}``, arrays as nested lists, Booleans as bool.

        :param limit: solutions wanted of a satisfaction model (0: all of them; the
            status is then ``ALL`` when the search finished). An optimisation gives the
            best solution found: ``OPTIMAL`` when proven, ``SAT`` when the budget ran out;
            ``SolveResult.objective`` is its objective value.
        A satisfaction solve stopped by ``limit`` is ``SAT``, one that found every solution
        ``ALL``, none ``UNSAT``. A budget or time limit exhausted with nothing found is ``UNKNOWN``.
        """
