"""The engine: the plugins (a ``Host``) bound to one solver (a ``Backend``).

It is the service that strategies, criteria and graders work through: it calls a type's
methods (``calls``), solves its model, flattens it once for many checks, and hands
generation to the type's strategy. It never looks inside an instance itself.
"""
from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import calls
from .solving.backend import Backend
from .solving.results import SolveResult
from .solving.session import Session
from .solving.checker import Checker
from .errors import PluginError, PuzzleInputError, SolverError, one_line
from .grid import GridPuzzle
from .hookspecs import Emptying, PuzzleType
from .plugins import Host
from .types import Board, Status, Transformation


#: Models flattened from ``split_data`` kept at once (a growing level needs one).
SPLIT_MODELS = 4
#: "All solutions" through a flattened model: more is surely a runaway enumeration.
MAX_SOLUTIONS = 1_000_000


def strategy_of(host: Host, ptype: PuzzleType):
    """The strategy ``ptype`` names, checked to be one the type can use."""
    strategy = host.get("strategies", ptype.strategy, f" (named by {calls.owner(ptype)})")
    if not isinstance(ptype, strategy.hooks):
        raise PluginError(f"{calls.owner(ptype)} uses strategy '{strategy.name}' but is not "
                          f"a {strategy.hooks.__name__} (see docs/plugin-authoring.md)")
    return strategy


class Engine:
    """A host (the plugins) bound to one solver backend."""

    def __init__(self, host: Host, backend: Backend):
        self.host = host
        self.backend = backend
        self._compiled: dict[str, Session] = {}
        self._split: dict[str, Session] = {}  # split_data's models, least recent first
        self._backends: dict[str, Backend] = {}  # sessions' other solvers, by the name asked
        self._empty_data: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    # -- the type's own operations, checked ---------------------------------------------------
    def check_params(self, ptype: PuzzleType, raw: Mapping[str, Any]) -> dict[str, Any]:
        return calls.canonical_params(ptype, raw)

    def board_size(self, ptype: PuzzleType, params) -> int:
        n = calls.call(ptype, "board_size", params=params)
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise calls.bad_result("board_size", ptype, n, "a positive whole number")
        return n

    def transformations(self, ptype: PuzzleType, params) -> list[Transformation]:
        found = calls.call(ptype, "transformations", params=params)
        if not isinstance(found, (list, tuple)) or not all(
                isinstance(t, Transformation) for t in found):
            raise calls.bad_result("transformations", ptype, found, "a list of Transformation")
        return list(found)

    def random_variant(self, ptype: PuzzleType, params, rng: random.Random) -> Callable:
        """One random composition of all the type's transformations."""
        drawn = []
        for t in self.transformations(ptype, params):
            try:
                drawn.append((t, t.draw(rng)))
            except Exception as exc:  # noqa: BLE001 - one line naming the plugin
                raise PluginError(f"transformation '{t.name}' ({calls.owner(ptype)}) raised "
                                  f"{type(exc).__name__}: {one_line(exc)}") from exc

        def apply(instance):
            for t, f in drawn:
                try:
                    instance = f(instance)
                except Exception as exc:  # noqa: BLE001 - one line naming the plugin
                    raise PluginError(f"transformation '{t.name}' ({calls.owner(ptype)}) raised "
                                      f"{type(exc).__name__}: {one_line(exc)}") from exc
                if isinstance(instance, list):
                    instance = tuple(instance)
            return instance
        return apply

    def data(self, ptype: PuzzleType, params, instance) -> dict[str, Any]:
        return calls.data(ptype, params, instance, self.backend.info)

    def solution_of(self, ptype: PuzzleType, params, values: Mapping[str, Any]):
        """A type's solution from MiniZinc's output values, checked for a grid."""
        solution = calls.call(ptype, "from_solution", params=params, values=values)
        if isinstance(ptype, Emptying):
            return calls.board(ptype, "from_solution", params, solution, full=True)
        if solution is None:
            raise calls.bad_result("from_solution", ptype, solution, "a solution")
        return solution

    def key(self, ptype: PuzzleType, params, solution):
        key = calls.call(ptype, "solution_key", params=params, solution=solution)
        try:
            hash(key)
        except TypeError:
            raise calls.bad_result("solution_key", ptype, key, "a hashable key") from None
        return key

    # -- solving ------------------------------------------------------------------------------
    def solve(self, ptype: PuzzleType, params, instance, nr_solutions: int = 1,
              extra: Sequence[str] = (), goal: str | None = None) -> tuple[SolveResult, list]:
        """Solutions of ``instance`` (up to ``nr_solutions``; 0 for all) through a full
        MiniZinc run. ``goal`` is ``"satisfy"`` to drop an optimisation type's objective;
        ``extra`` is MiniZinc code added to the model. Returns the result (its status
        tells SAT, ALL, OPTIMAL, UNSAT and UNKNOWN apart; ``objective`` holds the
        optimum's value) and the type's solutions."""
        own = calls.instance_model(ptype, params, instance)
        if not extra and not own and (goal == "satisfy" or not ptype.objective):
            split = calls.split_data(ptype, params, instance, self.backend.info)
            if split is not None:
                result, raw = self._solve_split(ptype, *split, nr_solutions)
                return result, [self.solution_of(ptype, params, s) for s in raw]
        result, raw = self.backend.solve(ptype, self.data(ptype, params, instance),
                                         nr_solutions, [*own, *extra], goal)
        return result, [self.solution_of(ptype, params, s) for s in raw]

    def _solve_split(self, ptype: PuzzleType, shared: dict[str, Any],
                     fixed: dict[str, list[int]], nr_solutions: int):
        """A satisfaction solve through the model flattened once with ``shared`` data
        (``split_data``): one solver run with ``fixed`` arrays, no compile."""
        model = self.split_model(ptype, shared)
        limit = nr_solutions or MAX_SOLUTIONS
        run = model.run((0,) * model.squares, limit=limit, arrays=fixed, every=True)
        if run.found == 0:
            status = Status.UNSAT if run.complete else Status.UNKNOWN
        else:  # cut short by the limit or a time-out: SAT; else every solution
            status = Status.SAT if run.found >= limit or not run.complete else Status.ALL
        raw = [{ptype.decision: model.shaped(board)} for board in run.every]
        return SolveResult(status), raw

    def split_model(self, ptype: PuzzleType, shared: dict[str, Any]) -> Session:
        """The model flattened with ``split_data``'s shared data. The last few are kept
        (a growing level needs one at a time), so a long batch holds no more."""
        key = json.dumps([ptype.name, ptype.plugin, shared], sort_keys=True)
        with self._lock:
            model = self._split.pop(key, None)
            if model is None:
                model = self.backend.compile(ptype, shared, cache=False)
            self._split[key] = model  # the most recent last
            while len(self._split) > SPLIT_MODELS:
                self._split.pop(next(iter(self._split))).close()
            return model

    def complete(self, ptype: PuzzleType, params, board: Board) -> Board | None:
        """A solution of a grid ``board`` (the first the model's search finds), or None."""
        if type(ptype).from_solution is GridPuzzle.from_solution:
            # The flattened check model, run directly: no MiniZinc compile per board.
            run = self.compiled(ptype, self.checker_data(ptype, params, board)).run(board, solution=True)
            if run.first is None and run.complete:
                return None
            boards = [] if run.first is None else [run.first]
            status = Status.SAT if boards else Status.UNKNOWN
        else:  # the type reads the solution itself: give it MiniZinc's
            result, boards = self.solve(ptype, params, board)
            status = result.status
        if not boards:
            if status == Status.UNKNOWN:
                raise SolverError(f"solver timed out completing a '{ptype.name}' board "
                                  "(raise --time-limit)")
            return None
        return boards[0]

    def unique_solution(self, ptype: PuzzleType, params, instance, what: str = "the puzzle"):
        """The one solution of ``instance``; an error when it has none, more, or the solver
        timed out."""
        result, solutions = self.solve(ptype, params, instance, nr_solutions=2, goal="satisfy")
        if result.status == Status.UNKNOWN or (result.status == Status.SAT and len(solutions) < 2):
            raise SolverError(f"solver timed out solving {what} (unknown; raise --time-limit)")
        if len(solutions) != 1:
            raise PuzzleInputError(f"{what} has {'no solution' if not solutions else '2 or more solutions'}; "
                                   "a unique solution is needed here")
        return solutions[0]

    def features(self, ptype: PuzzleType, params, instance, solution=None) -> dict[str, float]:
        """The type's feature vector of a puzzle with a unique solution (``solution``, if
        the caller already knows it; otherwise the engine solves the puzzle)."""
        if solution is None:
            solution = self.unique_solution(ptype, params, instance)
        checker = self.checker(ptype, params, solution) if isinstance(ptype, Emptying) else None
        try:
            return calls.features(ptype, params=params, instance=instance, solution=solution,
                                  checker=checker)
        finally:
            if checker is not None:
                checker.close()

    # -- sessions: a type's model compiled once, asked many questions ----------------------------
    def session(self, ptype: PuzzleType, data: Mapping[str, Any],
                solver: str | None = None) -> Session:
        """A session on ``ptype``'s model flattened with ``data`` (MiniZinc data holding no
        givens: each question gives its own). It is opened once per engine, data and
        solver, shared by every caller that asks with equal data, and closed by
        ``close``: a caller never closes it. Plugins reach it through
        ``checker.session(data, solver=None)`` (``Emptying.is_remove_valid``).

        ``solver`` (an id or tag; None: the engine's) opens it on another solver, for
        questions whose answer does not depend on the solver (an exact check of the
        type's own on a solver that suits it), with the engine's time limit (which a
        back end in this process counts in its own work, not in seconds)."""
        if not isinstance(data, Mapping):
            # Raised inside a plugin's hook, the error names the plugin (engine/calls.py).
            raise TypeError(f"session data must be a mapping of MiniZinc data, not "
                            f"{type(data).__name__}")
        backend = self.backend if solver is None else self._backend(solver)
        key = json.dumps([ptype.name, ptype.plugin, dict(data), solver], sort_keys=True)
        with self._lock:
            if key not in self._compiled:
                self._compiled[key] = backend.compile(ptype, dict(data))
            return self._compiled[key]

    def _backend(self, solver: str):
        """A back end on ``solver`` for sessions, made once: the engine's time limit, the
        solver's default check flags."""
        with self._lock:
            if solver not in self._backends:
                self._backends[solver] = Backend(solver, self.backend.time_limit)
            return self._backends[solver]

    # -- the compiled checks of grid puzzles ------------------------------------------------------
    def compiled(self, ptype: PuzzleType, data: dict[str, Any]) -> Session:
        """``ptype``'s model flattened with ``data`` (which holds no givens), once per
        engine: puzzles of the same type and data share it (``session``)."""
        return self.session(ptype, data)

    def checker_data(self, ptype: PuzzleType, params, board: Board) -> dict[str, Any]:
        """The data to flatten ``board``'s check model from: the type's ``checker_data``,
        or else the empty board's ``to_data``."""
        data = calls.call(ptype, "checker_data", params=params, board=board,
                          solver=self.backend.info)
        if data is None:  # the empty board's data, made once per type and parameters
            key = json.dumps([ptype.name, ptype.plugin, params], sort_keys=True)
            if key not in self._empty_data:
                self._empty_data[key] = self.data(ptype, params, tuple([0] * len(board)))
            return self._empty_data[key]
        if not isinstance(data, Mapping):
            raise calls.bad_result("checker_data", ptype, data, "a mapping of MiniZinc data or None")
        return dict(data)

    def checker(self, ptype: PuzzleType, params, full: Board):
        """isRemoveValid's checker for boards emptied from ``full``, by the type's criterion."""
        return self.criterion(ptype).checker(self, ptype, params, full)

    def compiled_checker(self, ptype: PuzzleType, params, full: Board) -> Checker:
        return Checker(lambda board: self.compiled(ptype, self.checker_data(ptype, params, board)),
                       full, lambda data, solver=None: self.session(ptype, data, solver))

    # -- the registered objects a type names ------------------------------------------------------
    def criterion(self, ptype: PuzzleType):
        return self.host.get("criteria", ptype.criterion, f" (named by {calls.owner(ptype)})")

    def strategy(self, ptype: PuzzleType):
        return strategy_of(self.host, ptype)

    def generate(self, ptype: PuzzleType, params, seed: int, options=None):
        """One puzzle (with its variants) from ``seed``, by the type's strategy. ``options``
        are the strategy's: its options object, a mapping of option values, or None for
        the defaults."""
        strategy = self.strategy(ptype)
        if options is None:
            options = strategy.default_options()
        elif isinstance(options, Mapping):
            options = strategy.make_options(dict(options))
        return strategy.generate(self, ptype, params, seed, options)

    def close(self) -> None:
        for model in [*self._compiled.values(), *self._split.values()]:
            model.close()
        self._compiled.clear()
        self._split.clear()
