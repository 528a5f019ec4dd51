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
never a proof. Every back end, and the fast tier's fake solver, implements this protocol:
``Session``, declared in ``puzzle_engine.hookspecs`` with the rest of the plugin contract.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from ..hookspecs import Session  # declared with the contract, where a plugin author reads
from ..types import Board
from ..errors import SolverError
from .results import SolveResult


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
