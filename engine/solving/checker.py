"""The compiled uniqueness check of grid puzzles: a board's givens are fixed in a model
flattened once, and the solver looks for a solution other than a known full board."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .session import Session
from ..types import Board


class Checker:
    """isRemoveValid's solver: counts solutions other than the full board.

    The model is flattened once per distinct checker data (``puzzle_checker_data``; by
    default once per puzzle type and parameters, shared by every puzzle the engine makes).
    Each check fixes the board's givens and adds "differs from the full board" in FlatZinc.

    The checker remembers the boards it has proven unique. A solution of a board that
    agrees with the full board on every square a proven-unique board gives is a solution
    of that board, so it is the full board. Hence another solution must differ from the
    full board on one of the squares emptied since: in GenPuzzles, usually the one square
    being removed. The constraint is then a disequality instead of a disjunction over
    every empty square, which propagates far better; the count is the same.

    It also remembers how many other solutions it found for a board: a board with fewer
    givens has at least as many, so it is answered without a solver call when that is
    enough for the limit. In GenPuzzles a square whose removal failed therefore fails
    again on any later board, whatever was removed in between.
    """

    def __init__(self, model: Callable[[Board], Session], full: Board,
                 session: Callable[..., Session] | None = None):
        self._model = model
        self._session = session
        self.full = tuple(full)
        self.unknown = 0
        self._unique: list[frozenset[int]] = [frozenset()]  # empty squares of proven-unique boards
        self._others: list[tuple[frozenset[int], int]] = []  # (empty squares, solutions found)

    def count_other(self, board: Board, limit: int) -> tuple[int, bool]:
        """Solutions of ``board`` that differ from the full board, up to ``limit``, and
        whether that count is definite (False after a time-out)."""
        empty = frozenset(i for i, v in enumerate(board) if not v)
        if any(found >= limit and u <= empty for u, found in self._others):
            return limit, True
        if any(empty <= u for u in reversed(self._unique)):
            return 0, True
        base = next(u for u in reversed(self._unique) if u <= empty)
        at = sorted(empty - base)
        found, definite = self._model(board).count(board, limit, differs=self.full, differs_at=at)
        if definite and found == 0:
            self._unique.append(empty)
        elif found:
            self._others.append((empty, found))
        return found, definite

    def first_with_other(self, boards: list[Board]) -> tuple[int | None, bool]:
        """The index of the first of ``boards`` (each with the empty squares of the one
        before it and more) that has a solution other than the full board, or None, in one
        optimising solver call; and whether that answer is definite (False on a time-out)."""
        if not boards:
            return None, True
        empties = [frozenset(i for i, v in enumerate(b) if not v) for b in boards]
        known = next((j for j, e in enumerate(empties)
                      if any(found >= 1 and u <= e for u, found in self._others)), len(boards))
        if known == 0:
            return 0, True
        if any(empties[known - 1] <= u for u in reversed(self._unique)):
            return (known if known < len(boards) else None), True
        base = next(u for u in reversed(self._unique) if u <= empties[0])
        stages: dict[int, int] = {}
        for j in range(known):
            for i in empties[j] - base:
                stages.setdefault(i, j)
        last = boards[known - 1]
        run = self._model(last).run(last, differs=self.full, stages=stages)
        if not run.complete:
            return None, False
        if run.stage is None:
            self._unique.append(empties[known - 1])
            return (known if known < len(boards) else None), True
        if run.stage > 0:
            self._unique.append(empties[run.stage - 1])
        self._others.append((empties[run.stage], 1))
        return run.stage, True

    def accepted(self, board: Board, k: int) -> None:
        """The strategy accepted ``board`` with at most ``k`` solutions (whoever judged
        it: this checker or the type's own deductions). For ``k = 1`` it is unique, which
        later checks use as if this checker had proven it."""
        if k == 1:
            empty = frozenset(i for i, v in enumerate(board) if not v)
            if not any(empty <= u for u in self._unique):
                self._unique.append(empty)

    def at_most(self, board: Board, k: int = 1) -> bool:
        """True when ``board`` has at most ``k`` solutions; False when it has more or when
        the solver timed out (an unknown answer never counts as unique)."""
        found, definite = self.count_other(board, k)
        if not definite:
            self.unknown += 1
            return False
        return found < k

    def session(self, data: Mapping[str, Any], solver: str | None = None) -> Session:
        """A session on the type's model flattened with ``data`` (the plugin contract's
        ``checker.session``): the engine's, which it keeps and closes."""
        if self._session is None:
            raise TypeError("this checker opens no sessions")
        return self._session(data, solver)

    def close(self) -> None:
        """Nothing to release: the compiled models belong to the engine."""
