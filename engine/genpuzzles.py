"""GenPuzzles (Algorithm 1 of "Automatically Generating Puzzles of Different Complexity"),
generic over plugins. Every step is a hook: GetRandomPuzzle (``puzzle_random_solution``),
ChooseSquare (``puzzle_choose_square``), isRemoveValid (``puzzle_is_remove_valid``), the
transformations (``puzzle_transformations``) and the complexity function
(``puzzle_register_complexities``).
"""
from __future__ import annotations

import json
import random
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import __version__, processes
from .backend import Backend, CompiledModel, SolveResult
from .errors import PluginError, PuzzleEngineError, PuzzleInputError, SolverError
from .plugins import Host
from .types import Board, PuzzleType

def rows_of(board: Board, cols: int) -> list[list[int]]:
    """A flat board as a list of rows."""
    return [list(board[i:i + cols]) for i in range(0, len(board), cols)]


@dataclass(frozen=True)
class GenOptions:
    max_solutions: int = 1          # isRemoveValid: at most this many solutions (1 = unique)
    target_empty: int | None = None  # stop once this many squares are empty
    variants: int = 0               # transformed variants of the final puzzle
    complexity: str = "givens"      # the complexity function C used for binning
    batch: int = 1                  # most squares speculated per solver call (1 = one by one)
    probes: int = 1                 # with batch > 1: solver calls run at once
    optimise: bool = False          # with batch > 1: find a run's first failing square in one call

    def to_json(self) -> dict[str, Any]:
        return {"max_solutions": self.max_solutions, "target_empty": self.target_empty,
                "complexity": self.complexity, "batch": self.batch}


@dataclass
class Puzzle:
    """One generated puzzle with everything needed to reproduce it."""

    type: str
    params: dict[str, Any]
    grid: Board
    solution: Board
    seed: int
    plugin: str
    plugin_version: str
    solver: str
    solver_version: str
    solver_calls: int
    seconds: float
    minimal: bool
    unknown: int = 0        # checks that timed out (counted as not removable)
    level: Hashable = None
    options: dict[str, Any] = field(default_factory=dict)
    variant: int | None = None  # k for the k-th transformed variant of the puzzle with `seed`

    @property
    def givens(self) -> int:
        return sum(1 for v in self.grid if v)

    def to_json(self, shape: tuple[int, int]) -> dict[str, Any]:
        _, cols = shape
        return {"type": self.type, "params": self.params, "grid": rows_of(self.grid, cols),
                "solution": rows_of(self.solution, cols), "givens": self.givens,
                "empty": len(self.grid) - self.givens, "seed": self.seed, "variant": self.variant,
                "plugin": self.plugin, "plugin_version": self.plugin_version,
                "engine_version": __version__, "solver": self.solver,
                "solver_version": self.solver_version, "solver_calls": self.solver_calls,
                "seconds": round(self.seconds, 4), "minimal": self.minimal, "unknown": self.unknown,
                "complexity": {"name": self.options.get("complexity"), "level": self.level},
                "options": self.options}


@dataclass
class GenResult:
    puzzle: Puzzle
    variants: list[Puzzle]
    compl_dict: dict[Hashable, list[Board]]  # level -> every accepted puzzle (and variants)


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

    def __init__(self, model: Callable[[Board], CompiledModel], full: Board):
        self._model = model
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

    def at_most(self, board: Board, k: int = 1) -> bool:
        """True when ``board`` has at most ``k`` solutions; False when it has more or when
        the solver timed out (an unknown answer never counts as unique)."""
        found, definite = self.count_other(board, k)
        if not definite:
            self.unknown += 1
            return False
        return found < k

    def close(self) -> None:
        """Nothing to release: the compiled models belong to the engine."""


class _Speculation:
    """The checker that ``puzzle_is_remove_valid`` sees while squares are speculated.

    It answers from ``known`` where the answer is known, and otherwise with ``guess``,
    recording every question. Guessing "at most k solutions" speculates a run of
    removals. Uniqueness is monotone, since emptying more squares only adds solutions. So
    if the last speculated board passes, every earlier one does too, and a failure is
    bisected to the first failing square. Guessing "more" speculates a run of refusals,
    whose boards all differ from the current one by a single square and are checked at once.
    """

    def __init__(self, known: dict[tuple[Board, int], bool], guess: bool = True):
        self.known = known
        self.guess = guess
        self.asked: list[tuple[Board, int]] = []

    def at_most(self, board: Board, k: int = 1) -> bool:
        key = (tuple(board), k)
        self.asked.append(key)
        return self.known.get(key, self.guess)

    def count_other(self, board: Board, limit: int) -> tuple[int, bool]:
        return (0, True) if self.at_most(board, limit) else (limit, True)


def _first_failing(pending: list[int], passes: Callable[[int], bool], probes: int,
                   pool: ThreadPoolExecutor | None) -> int | None:
    """The first step of ``pending`` that fails (``passes`` is monotone along it: passing,
    then failing), or None. One probe at a time is a bisection that checks the last step
    first. With a pool, ``probes`` steps are checked at once per round, the last step
    among the first round's, so that a run that passes still costs one round."""
    lo, hi = 0, len(pending)           # the answer is in [lo, hi]; hi = none fails
    first = True
    while lo < hi:
        width = min(probes if pool is not None else 1, hi - lo)
        if first:                      # the last step and evenly spaced ones before it
            points = sorted({hi - 1 - (k * (hi - lo)) // width for k in range(width)})
        else:
            points = sorted({lo + ((k + 1) * (hi - lo)) // (width + 1) for k in range(width)})
        first = False
        results = dict(zip(points, (pool.map(lambda j: passes(pending[j]), points)
                                    if pool is not None and len(points) > 1
                                    else [passes(pending[j]) for j in points])))
        failing = [j for j in points if not results[j]]
        if failing:
            hi = failing[0]
        passing = [j for j in points if results[j] and j < hi]
        if passing:
            lo = passing[-1] + 1
    return pending[lo] if lo < len(pending) else None


def _first_in_one_call(questions: list[list[tuple[Board, int]]], checker: Checker,
                       known: dict[tuple[Board, int], bool]) -> tuple[bool, int | None]:
    """``(True, j)``: the j-th step is the first whose questions fail (None: none), found in
    one optimising call and recorded in ``known``. ``(False, None)`` when that does not
    apply (a step asks other than one "at most 1" question, the boards are not nested) or
    the call timed out, so the caller bisects."""
    if len(questions) < 2 or any(len(qs) != 1 or qs[0][1] != 1 for qs in questions):
        return False, None
    boards = [qs[0][0] for qs in questions]
    if not all(a.count(0) < b.count(0) and all(y == 0 or y == x for x, y in zip(a, b))
               for a, b in zip(boards, boards[1:])):
        return False, None
    j, definite = checker.first_with_other(boards)
    if not definite:
        return False, None
    for k, qs in enumerate(questions):
        known[qs[0]] = j is None or k < j
    return True, j


class Engine:
    """A host (the plugins) bound to one solver backend."""

    def __init__(self, host: Host, backend: Backend):
        self.host = host
        self.backend = backend
        self._compiled: dict[str, CompiledModel] = {}
        self._empty_data: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    # -- hook calls ---------------------------------------------------------------------
    def call(self, hookname: str, **kwargs):
        try:
            return getattr(self.host.hook, hookname)(**kwargs)
        except PuzzleEngineError:
            raise
        except Exception as exc:  # noqa: BLE001 - name the hook, never crash with a traceback
            ptype = kwargs.get("puzzle_type")
            owner = f" (puzzle '{ptype.name}', plugin '{ptype.plugin}')" if ptype else ""
            raise PluginError(f"hook {hookname}{owner} raised {type(exc).__name__}: {exc}") from exc

    @staticmethod
    def bad_result(hookname: str, ptype: PuzzleType, value: Any, wanted: str) -> PluginError:
        """The one-line error for a hook that returned ``value`` where ``wanted`` was due."""
        shown = repr(value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        return PluginError(f"hook {hookname} (puzzle '{ptype.name}', plugin '{ptype.plugin}') "
                           f"returned {shown}, not {wanted}")

    def board_from(self, hookname: str, ptype: PuzzleType, params, value: Any, full: bool) -> Board:
        """``value``, a board a hook returned, checked: a sequence of whole numbers, one per
        square, every one a value (not 0) when ``full``."""
        n = self.board_size(ptype, params)
        least = 1 if full else 0
        if not isinstance(value, (list, tuple)) or len(value) != n or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= least for v in value):
            raise self.bad_result(hookname, ptype, value, f"a {'full ' if full else ''}board of "
                                  f"{n} whole numbers{' from 1' if full else ''}")
        return tuple(value)

    def check_params(self, ptype: PuzzleType, raw: dict[str, Any]) -> dict[str, Any]:
        return ptype.canonical_params(raw)

    def transformations(self, ptype: PuzzleType, params) -> list:
        found = self.call("puzzle_transformations", puzzle_type=ptype, params=params)
        return [t for group in found if group for t in group]

    def random_variant(self, ptype: PuzzleType, params, rng: random.Random) -> Callable[[Board], Board]:
        """One random composition of all the type's transformations."""
        drawn = [t.draw(rng) for t in self.transformations(ptype, params)]

        def apply(board: Board) -> Board:
            for f in drawn:
                board = tuple(f(board))
            return board
        return apply

    def data(self, ptype: PuzzleType, params, board: Board) -> dict[str, Any]:
        data = self.call("puzzle_to_data", puzzle_type=ptype, params=params, board=board,
                         solver=self.backend.info)
        if data is None:
            raise PluginError(f"no plugin converts puzzle '{ptype.name}' to MiniZinc data")
        if not isinstance(data, Mapping):
            raise self.bad_result("puzzle_to_data", ptype, data, "a mapping of MiniZinc data")
        return data

    def board_size(self, ptype: PuzzleType, params) -> int:
        rows, cols = ptype.shape(params)
        return rows * cols

    # -- solving ------------------------------------------------------------------------
    def solve(self, ptype: PuzzleType, params, board: Board, nr_solutions: int = 1,
              ) -> tuple[SolveResult, list[Board]]:
        """Solutions of ``board`` (up to ``nr_solutions``) through a full MiniZinc run."""
        result, raw = self.backend.solve(ptype, self.data(ptype, params, board), nr_solutions)
        boards = [self.board_from("puzzle_from_solution", ptype, params, self.call(
            "puzzle_from_solution", puzzle_type=ptype, params=params, solution=s), full=True)
            for s in raw]
        return result, boards

    def complete(self, ptype: PuzzleType, params, board: Board) -> Board | None:
        """A solution of ``board`` (the first the model's search finds), or None."""
        if self._default_from_solution():
            # The flattened check model, run directly: no MiniZinc compile per board.
            run = self.compiled(ptype, self.checker_data(ptype, params, board)).run(board, solution=True)
            if run.first is None and run.complete:
                return None
            boards = [] if run.first is None else [run.first]
            result = SolveResult("sat" if boards else "unknown")
        else:  # a plugin reads the solution itself: give it MiniZinc's
            result, boards = self.solve(ptype, params, board)
        if not boards:
            if result.status == "unknown":
                raise SolverError(f"solver timed out completing a '{ptype.name}' board "
                                  "(raise --time-limit)")
            return None
        return boards[0]

    def _default_from_solution(self) -> bool:
        """No plugin implements ``puzzle_from_solution``: a solution is the decision array."""
        from . import defaults
        return all(impl.plugin is defaults for impl in self.host.hook.puzzle_from_solution.get_hookimpls())

    def features(self, ptype: PuzzleType, params, board: Board,
                 solution: Board | None = None) -> dict[str, float]:
        """The plugin's feature vector of a puzzle with a unique solution (``solution``, if
        the caller already knows it; otherwise the engine solves the puzzle)."""
        if solution is None:
            result, boards = self.solve(ptype, params, board, nr_solutions=2)
            if result.status == "unknown":
                raise SolverError(f"solver timed out solving the '{ptype.name}' puzzle")
            if len(boards) != 1:
                raise PuzzleInputError(f"the puzzle has {'no solution' if not boards else '2 or more solutions'}; "
                                       "features need a unique solution")
            solution = boards[0]
        checker = self.checker(ptype, params, tuple(solution))
        try:
            return self.call("puzzle_features", puzzle_type=ptype, params=params, board=board,
                             solution=tuple(solution), checker=checker)
        finally:
            checker.close()

    def compiled(self, ptype: PuzzleType, data: dict[str, Any]) -> CompiledModel:
        """``ptype``'s model flattened with ``data`` (which holds no givens), once per
        engine: puzzles of the same type and data share it."""
        key = json.dumps([ptype.name, ptype.plugin, data], sort_keys=True)
        with self._lock:
            if key not in self._compiled:
                self._compiled[key] = self.backend.compile(ptype, data)
            return self._compiled[key]

    def checker_data(self, ptype: PuzzleType, params, board: Board) -> dict[str, Any]:
        """The data to flatten ``board``'s check model from: ``puzzle_checker_data``, or
        else the empty board's ``puzzle_to_data``."""
        data = self.call("puzzle_checker_data", puzzle_type=ptype, params=params, board=board,
                         solver=self.backend.info)
        if data is None:  # the empty board's data, made once per type and parameters
            key = json.dumps([ptype.name, ptype.plugin, params], sort_keys=True)
            if key not in self._empty_data:
                self._empty_data[key] = dict(self.data(ptype, params, tuple([0] * len(board))))
            return self._empty_data[key]
        return dict(data)

    def checker(self, ptype: PuzzleType, params, full: Board) -> Checker:
        return Checker(lambda board: self.compiled(ptype, self.checker_data(ptype, params, board)),
                       full)

    def close(self) -> None:
        for model in self._compiled.values():
            model.close()
        self._compiled.clear()

    # -- GenPuzzles ---------------------------------------------------------------------
    def _choose(self, ptype, params, board, tested, n, rng, full) -> int:
        candidates = frozenset(i for i in range(n) if i not in tested)
        index = self.call("puzzle_choose_square", puzzle_type=ptype, params=params,
                          board=tuple(board), candidates=candidates, rng=rng, solution=full)
        if index not in candidates:
            raise PluginError(f"puzzle_choose_square for '{ptype.name}' returned {index!r}, "
                              "not one of the candidates")
        return index

    def _valid(self, ptype, params, trial, index, full, checker, options) -> bool:
        verdict = self.call("puzzle_is_remove_valid", puzzle_type=ptype, params=params,
                            board=trial, index=index, solution=full, checker=checker,
                            max_solutions=options.max_solutions)
        if isinstance(verdict, str) or verdict not in (True, False):  # "yes" is no verdict
            raise self.bad_result("puzzle_is_remove_valid", ptype, verdict, "True or False")
        return bool(verdict)

    def _empty(self, ptype, params, full, checker, rng, options, accept):
        """The loop of Algorithm 1, one square and one solver call at a time."""
        n, board, tested = len(full), full, set()
        while len(tested) < n:
            if options.target_empty is not None and board.count(0) >= options.target_empty:
                break
            index = self._choose(ptype, params, board, tested, n, rng, full)
            tested.add(index)
            trial = board[:index] + (0,) + board[index + 1:]
            if self._valid(ptype, params, trial, index, full, checker, options):
                board = trial
                accept(trial)
        return board, tested

    def _empty_batched(self, ptype, params, full, checker, rng, options, accept):
        """The same loop, with the same result, in fewer solver calls.

        Speculate a run of squares as if every removal the solver must judge were valid
        (ChooseSquare sees the boards it would see then), check the last board of the
        run, and bisect to the first failing square when it fails. That square is
        refused, the squares before it are final, the rest of the run is dropped and
        ``rng`` goes back to its state just after that square was chosen. The run grows
        after a run that passed and shrinks after one that failed, up to
        ``options.batch``.

        With ``options.probes`` > 1, once the next square fails right away (late in the
        loop, when most removals fail), speculate refusals instead: the next squares as
        if each removal before them failed, each checked on the current board as soon as
        it is speculated, ``probes`` at a time, and settled in order as the checks finish
        (``_resolve_refusals``). The first one that passes ends the run the same way, and
        the loop goes back to speculating removals.

        Equal to one-by-one checking as long as no check times out, for isRemoveValid
        hooks that are monotone in the checker's answers (a hook that refuses when told
        "unique" also refuses when told "not unique").
        """
        n, board, tested = len(full), full, set()
        known: dict[tuple[Board, int], bool] = {}
        timed_out: set[tuple[Board, int]] = set()
        run, refusing = 2, False

        def ask(q: tuple[Board, int]) -> bool:
            if q not in known:
                found, definite = checker.count_other(q[0], q[1])
                known[q] = definite and found < q[1]
                if not definite:
                    timed_out.add(q)
            return known[q]

        # Refusals' checks under way (refusing mode): a check keeps running into the next
        # round, and its answer lands in ``known`` and the checker's memory either way.
        inflight: dict[tuple[Board, int], Future] = {}

        with self._probe_pool(options.probes) as pool:
            while len(tested) < n:
                # 1. Speculate.
                # (index, trial, rng state after the choice, open questions, verdict, questions)
                steps = []
                spec_board, spec_tested = board, set(tested)

                def speculate() -> bool:
                    """One more speculated step, if the run may grow; its open questions
                    start at once in refusing mode."""
                    nonlocal spec_board
                    if len(spec_tested) >= n or len(steps) >= (options.batch if refusing else run):
                        return False
                    if options.target_empty is not None and \
                            spec_board.count(0) >= options.target_empty:
                        return False
                    index = self._choose(ptype, params, spec_board, spec_tested, n, rng, full)
                    state = rng.getstate()
                    spec_tested.add(index)
                    trial = spec_board[:index] + (0,) + spec_board[index + 1:]
                    spec = _Speculation(known, guess=not refusing)
                    verdict = self._valid(ptype, params, trial, index, full, spec, options)
                    steps.append((index, trial, state, [q for q in spec.asked if q not in known],
                                  verdict, spec.asked))
                    if verdict:
                        spec_board = trial
                    if refusing:
                        for q in steps[-1][3]:
                            if q not in inflight:
                                inflight[q] = pool.submit(ask, q)
                    return True

                while (not refusing or sum(1 for step in steps if step[3]) < options.probes) \
                        and speculate():
                    pass
                if not steps:
                    break
                # 2. Resolve: the first step whose verdict was guessed wrong.
                if refusing:
                    wrong = self._resolve_refusals(steps, inflight, known, speculate, options,
                                                   lambda i: self._valid(
                                                       ptype, params, steps[i][1], steps[i][0],
                                                       full, _Speculation(known), options))
                    if wrong is not None:  # the run ends: drop the checks not started yet
                        for q in [q for q, f in inflight.items() if f.cancel()]:
                            del inflight[q]
                else:
                    pending = [i for i, step in enumerate(steps) if step[4] and step[3]]
                    questions = [steps[i][3] for i in pending]
                    done, j = (_first_in_one_call(questions, checker, known) if options.optimise
                               else (False, None))
                    if done:
                        wrong = None if j is None else pending[j]
                    else:
                        wrong = _first_failing(pending, lambda i: all([ask(q) for q in steps[i][3]]),
                                               options.probes, pool)
                # 3. Commit the steps up to the first wrong guess.
                last = len(steps) - 1 if wrong is None else wrong
                for i in range(last + 1):
                    index, trial, state, questions, verdict, asked = steps[i]
                    tested.add(index)
                    if i == wrong or (refusing and questions):
                        # Ask the hook again, now that its answers are known: exact, no solver call.
                        verdict = self._valid(ptype, params, trial, index, full,
                                              _Speculation(known), options)
                    checker.unknown += sum(1 for q in asked if q in timed_out)
                    if i == wrong:
                        rng.setstate(state)
                    if verdict:
                        board = trial
                        accept(trial)
                if refusing:
                    refusing = wrong is None
                else:
                    refusing = options.probes > 1 and wrong is not None and wrong == pending[0]
                    run = min(options.batch, run * 2) if wrong is None else max(1, run // 2)
        return board, tested

    @staticmethod
    @contextmanager
    def _probe_pool(probes: int):
        """The threads of ``--probes`` (None for one). An error drops the checks not
        started; an interrupt also kills the solvers of those under way (this process's
        all: the threads' solvers run in a group the terminal's Ctrl-C does not reach,
        engine/processes.py), so that it ends the loop at once."""
        if probes <= 1:
            yield None
            return
        pool = ThreadPoolExecutor(probes)
        try:
            yield pool
        except BaseException as exc:
            pool.shutdown(wait=False, cancel_futures=True)
            if not isinstance(exc, Exception):  # an interrupt, not another engine's concern
                processes.kill_solvers()
            raise
        finally:
            pool.shutdown(wait=True)

    @staticmethod
    def _resolve_refusals(steps, inflight, known, speculate, options, verdict_of) -> int | None:
        """The first of the speculated refusals ``steps`` whose verdict was guessed wrong
        (None: none), taking the steps in order as their checks finish. While the next
        step's checks run and fewer than ``options.probes`` checks are under way, one more
        step is speculated, so that a slow check does not leave the other workers idle
        (steps are only committed in order, so the result is the one-by-one one)."""
        i = 0
        while i < len(steps):
            for q in [q for q, f in inflight.items() if f.done() and q in known]:
                del inflight[q]  # answered: ``known`` holds it (a failed check stays, to raise)
            waiting = [inflight[q] for q in steps[i][3] if q not in known]
            while not all(f.done() for f in waiting):
                running = [f for f in inflight.values() if not f.done()]
                if len(running) < options.probes and speculate():
                    continue
                wait(running, return_when=FIRST_COMPLETED)
            for f in waiting:
                f.result()  # a solver error in a check surfaces here
            if steps[i][3] and verdict_of(i) != steps[i][4]:
                return i
            i += 1
        return None

    def generate(self, ptype: PuzzleType, params, seed: int, options: GenOptions = GenOptions()
                 ) -> GenResult:
        """Algorithm 1: empty a random full board square by square while isRemoveValid holds."""
        if options.max_solutions < 1:
            raise PuzzleInputError("--max-solutions must be at least 1")
        complexity = self.host.get_complexity(options.complexity)
        start, calls0 = time.perf_counter(), self.backend.calls
        rng = random.Random(seed)
        n = self.board_size(ptype, params)

        full = self.call("puzzle_random_solution", puzzle_type=ptype, params=params, rng=rng,
                         solve=lambda b: self.complete(ptype, params, tuple(b)),
                         transform=lambda b: self.random_variant(ptype, params, rng)(b))
        full = self.board_from("puzzle_random_solution", ptype, params, full, full=True)
        checker = self.checker(ptype, params, full)
        compl_dict: dict[Hashable, list[Board]] = {}
        bin_rng = random.Random(f"{seed}/bins")  # variants for binning never disturb `rng`

        def accept(trial: Board) -> None:
            for p in [trial] + [self.random_variant(ptype, params, bin_rng)(trial)
                                for _ in range(options.variants)]:
                compl_dict.setdefault(complexity.level(ptype, params, p), []).append(p)

        try:
            if options.batch > 1:
                board, tested = self._empty_batched(ptype, params, full, checker, rng, options,
                                                    accept)
            else:
                board, tested = self._empty(ptype, params, full, checker, rng, options, accept)
        finally:
            checker.close()

        grid = tuple(board)
        puzzle = Puzzle(type=ptype.name, params=dict(params), grid=grid, solution=full, seed=seed,
                        plugin=ptype.plugin, plugin_version=ptype.plugin_version,
                        solver=self.backend.solver_id, solver_version=self.backend.info.version,
                        solver_calls=self.backend.calls - calls0,
                        seconds=time.perf_counter() - start,
                        minimal=len(tested) == n and checker.unknown == 0,
                        unknown=checker.unknown, level=complexity.level(ptype, params, grid),
                        options={**options.to_json(), "free_search": self.backend.free_search,
                                 "check_flags": list(self.backend.check_flags)})
        variants = []
        vrng = random.Random(f"{seed}/variants")
        for k in range(1, options.variants + 1):
            f = self.random_variant(ptype, params, vrng)
            g, s = f(grid), f(full)
            variants.append(Puzzle(**{**puzzle.__dict__, "grid": g, "solution": s, "variant": k,
                                      "level": complexity.level(ptype, params, g)}))
        return GenResult(puzzle, variants, compl_dict)
