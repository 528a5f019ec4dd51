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

from . import calls, hookspecs
from .solving.backend import Backend
from .solving.results import Run, SolveResult
from .solving.session import Session
from .solving.checker import Checker
from .errors import PluginError, PuzzleInputError, SolverError, one_line
from .hookspecs import FlatBoard, PuzzleType
from .plugins import Host
from .types import Board, Status, Transformation


#: Models flattened from ``split_data`` kept at once (a growing level needs one).
SPLIT_MODELS = 4
#: Shapes (``split_data`` with a model) kept at once: a spec has a few per structure.
SHAPE_MODELS = 32
#: The array of a split model that selects answer options (see ``split_data``).
ANSWER_ARRAY = "pe_answer"
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
        self._shapes: dict[str, Session] = {}  # split_data's shapes, least recent first
        self._backends: dict[str, Backend] = {}  # sessions' other solvers, by the name asked
        self._others: dict[str, Engine] = {}  # ``on``'s engines, by the solver asked
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
        """A type's solution from MiniZinc's output values, checked for a flat board."""
        solution = calls.call(ptype, "from_solution", params=params, values=values)
        if isinstance(ptype, FlatBoard):
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
              extra: Sequence[str] = (), goal: str | None = None,
              option: tuple[int, bool] | None = None) -> tuple[SolveResult, list]:
        """Solutions of ``instance`` (up to ``nr_solutions``; 0 for all) through a full
        MiniZinc run. ``goal`` is ``"satisfy"`` to drop an optimisation type's objective;
        ``extra`` is MiniZinc code added to the model; ``option`` is ``(i, holds)``: only
        solutions in which the type's answer option i holds (or fails). Returns the
        result (its status tells SAT, ALL, OPTIMAL, UNSAT and UNKNOWN apart;
        ``objective`` holds the optimum's value) and the type's solutions.

        A type with ``split_data`` is answered, where it can be, by a session on its
        model flattened once: satisfaction questions with no ``extra``."""
        own = calls.instance_model(ptype, params, instance)
        if not extra and (goal == "satisfy" or not ptype.objective):
            split = calls.split_data(ptype, params, instance, self.backend.info)
            if split is not None and (split[2] is not None or not own):
                shared, fixed, model = split
                answers = fixed.get(ANSWER_ARRAY)
                if option is None or (answers is not None and 0 <= option[0] < len(answers)):
                    if option is not None:
                        answers = list(answers)
                        answers[option[0]] = 1 if option[1] else 2
                        fixed = {**fixed, ANSWER_ARRAY: answers}
                    result, raw = self._solve_split(ptype, shared, fixed, nr_solutions, model)
                    raw = [calls.split_values(ptype, params, instance, r) for r in raw]
                    return result, [self.solution_of(ptype, params, s) for s in raw]
        if option is not None:
            options = calls.call(ptype, "answer_options", params=params, instance=instance)
            extra = [*extra, f"constraint {'' if option[1] else 'not '}({options[option[0]]});"]
        result, raw = self.backend.solve(ptype, self.data(ptype, params, instance),
                                         nr_solutions, [*own, *extra], goal)
        return result, [self.solution_of(ptype, params, s) for s in raw]

    def _solve_split(self, ptype: PuzzleType, shared: dict[str, Any],
                     fixed: dict[str, list[int]], nr_solutions: int, model: str | None = None):
        """A satisfaction solve through the model flattened once with ``shared`` data
        (``split_data``): one question of its session with ``fixed`` arrays, no compile."""
        session = self.split_model(ptype, shared, model)
        limit = nr_solutions or MAX_SOLUTIONS
        run = session.run((0,) * session.squares, limit=limit, arrays=fixed, every=True)
        if run.found == 0:
            status = Status.UNSAT if run.complete else Status.UNKNOWN
        else:  # cut short by the limit or a time-out: SAT; else every solution
            status = Status.SAT if run.found >= limit or not run.complete else Status.ALL
        raw = [{ptype.decision: session.shaped(board)} for board in run.every]
        return SolveResult(status), raw

    def others(self, ptype: PuzzleType, params, instance, known: Board,
               at: Sequence[int] | None = None, order: Sequence[int] | None = None) -> Run:
        """Whether ``instance`` has a solution other than ``known`` (a solution as its flat
        decision array) that differs from it on a square of ``at`` (default: any): one
        question of a session (the model flattened once with ``split_data``'s shared data,
        or else the instance's data), so a level changed square by square costs no compile.
        ``Run.first`` is such a solution: with ``order``, the least one in that order (the
        same on every exact solver); without, whichever the solver finds first."""
        split = calls.split_data(ptype, params, instance, self.backend.info)
        if split is not None and split[2] is None:
            shared, fixed = split[0], split[1]
        else:
            shared, fixed = self.data(ptype, params, instance), {}
        session = self.split_model(ptype, shared)
        board = tuple(known)
        if len(board) != session.squares:
            raise PluginError(f"{calls.owner(ptype)}: a solution of {len(board)} values is not "
                              f"the decision array '{ptype.decision}' ({session.squares} squares)")
        run = session.run((0,) * session.squares, limit=1, order=order, solution=True,
                          differs=board, differs_at=at, arrays=fixed)
        if run.found and not run.complete and order is not None:
            return Run(0, False, run.stats)  # a first solution short of the least is no answer
        return run

    def split_model(self, ptype: PuzzleType, shared: dict[str, Any],
                    model: str | None = None) -> Session:
        """The model flattened with ``split_data``'s shared data (and its ``model``, a
        shape, when given). The last few are kept (a growing level needs one at a time,
        a spec a few shapes), so a long batch holds no more. A shape's FlatZinc is cached
        between runs (a spec has few); a growing level's board is not (seldom met
        again, it would only fill the disk)."""
        key = json.dumps([ptype.name, ptype.plugin, shared, model], sort_keys=True)
        kept, models = (SPLIT_MODELS, self._split) if model is None else \
            (SHAPE_MODELS, self._shapes)
        with self._lock:
            session = models.pop(key, None)
            if session is None:
                session = self.backend.compile(ptype, shared, [model] if model else (),
                                               cache=model is not None)
            models[key] = session  # the most recent last
            while len(models) > kept:
                models.pop(next(iter(models))).close()
            return session

    def complete(self, ptype: PuzzleType, params, board: Board,
                 order: Sequence[int] | None = None) -> Board | None:
        """The least solution of a grid ``board`` in the lexicographic order of the squares
        ``order`` (default: every square, row by row; smallest value first), or None.

        The least solution is one fact about the model, found by a complete search in that
        order (``Session.run(order=...)``, never free search or a check's own flags), so
        every exact solver gives the same board and a random full board made from it (a
        type's ``random_solution``) is the same whichever decides. A time-out is an error:
        the first solution found before it need not be the least."""
        session = self.compiled(ptype, self.checker_data(ptype, params, board))
        if order is None:
            order = range(session.squares)
        order = list(order)
        if sorted(order) != list(range(session.squares)):
            raise ValueError(f"order must be a permutation of the {session.squares} squares")
        run = session.run(board, order=order, solution=True)
        if run.first is None:
            if run.complete:
                return None
            raise SolverError(f"solver timed out completing a '{ptype.name}' board "
                              "(raise --time-limit)")
        # A flat board's solution is its decision array (FlatBoard keeps from_solution's
        # default; plugins.py refuses one that does not), so the least board is the answer.
        return run.first

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
        checker = self.checker(ptype, params, solution) if isinstance(ptype, FlatBoard) else None
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

    def on(self, solver: str) -> Engine:
        """These plugins on another solver (an id or tag, with its default settings), made
        once and closed with this engine: for work that runs on one solver whatever the
        engine's (the step rating explains on CP-SAT). Callers never build an engine."""
        with self._lock:
            if solver not in self._others:
                self._others[solver] = Engine(self.host, Backend(solver))
            return self._others[solver]

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
        checker = self.criterion(ptype).checker(self, ptype, params, full)
        return self.host.made("criteria", ptype.criterion, checker, hookspecs.Checker, "checker")

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
        for model in [*self._compiled.values(), *self._split.values(), *self._shapes.values()]:
            model.close()
        self._compiled.clear()
        self._split.clear()
        self._shapes.clear()
        for other in self._others.values():
            other.close()
        self._others.clear()
