"""The ``emptying`` strategy: GenPuzzles (Algorithm 1 of "Automatically Generating Puzzles
of Different Complexity"). A random full board (``random_solution``) is emptied square by
square (``choose_square``) while isRemoveValid (``is_remove_valid``) holds, judged by the
type's acceptance criterion; ``transformations`` make variants, and a complexity function
bins every accepted board.

The squares may be judged one by one, or many per solver call with bisection on failure
(``--batch``), several calls at once (``--probes``), or the first failing square found by
one optimising call (``--optimise``): the puzzle is the same.

With ``--symmetry`` other than ``none``, a removal is an orbit of the board's squares
under that symmetry (the type's ``orbits``): the chosen square and its images are emptied
together, so that the givens are symmetric, and the puzzle is minimal when no further
orbit can be removed. Orbits are judged one by one.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .. import calls, processes
from ..errors import NothingFound, PluginError, PuzzleInputError
from ..hookspecs import Emptying as EmptyingHooks
from ..types import Board, Param
from ..record import Puzzle, stamped
from .base import GenResult, Strategy, check_range

#: Draws of a random full board a type may refuse in a row.
MAX_DRAWS = 100
MAX_VARIANTS = 1000        # transformed variants of each puzzle
MAX_SOLUTIONS = 1_000_000  # --max-solutions: solutions counted per check
MAX_PROBES = 64
#: ``--symmetry``: the symmetries of the givens (``none``: square by square).
SYMMETRIES = ("none", "rot180", "rot90", "mirror", "diagonal")


@dataclass(frozen=True)
class GenOptions:
    max_solutions: int = 1          # isRemoveValid: at most this many solutions (1 = unique)
    target_empty: int | None = None  # stop once this many squares are empty
    variants: int = 0               # transformed variants of the final puzzle
    complexity: str = "givens"      # the complexity function C used for binning
    batch: int = 1                  # most squares speculated per solver call (1 = one by one)
    probes: int = 1                 # with batch > 1: solver calls run at once
    optimise: bool = False          # with batch > 1: find a run's first failing square in one call
    symmetry: str = "none"          # remove orbits of this symmetry (SYMMETRIES)

    def check(self) -> None:
        check_range("max_solutions", self.max_solutions, 1, MAX_SOLUTIONS)
        check_range("target_empty", self.target_empty, 1)
        check_range("variants", self.variants, 0, MAX_VARIANTS)
        check_range("batch", self.batch, 1)
        check_range("probes", self.probes, 1, MAX_PROBES)
        if self.symmetry not in SYMMETRIES:
            raise PuzzleInputError(f"bad --symmetry {self.symmetry!r}: expected one of "
                                   f"{', '.join(SYMMETRIES)}")

    def to_json(self) -> dict[str, Any]:
        # symmetry only when set, so that the records of 'none' stay as they were
        return {"max_solutions": self.max_solutions, "target_empty": self.target_empty,
                "complexity": self.complexity, "batch": self.batch,
                **({"symmetry": self.symmetry} if self.symmetry != "none" else {})}


class _Speculation:
    """The checker that ``puzzle_is_remove_valid`` sees while squares are speculated.

    It answers from ``known`` where the answer is known, and otherwise with ``guess``,
    recording every question. Guessing "at most k solutions" speculates a run of
    removals. Uniqueness is monotone, since emptying more squares only adds solutions. So
    if the last speculated board passes, every earlier one does too, and a failure is
    bisected to the first failing square. Guessing "more" speculates a run of refusals,
    whose boards all differ from the current one by a single square and are checked at once.
    """

    def __init__(self, known: dict[tuple[Board, int], bool], guess: bool = True,
                 sessions: Callable | None = None):
        self.known = known
        self.guess = guess
        self._sessions = sessions  # the engine's sessions on the type's model, by data
        self.asked: list[tuple[Board, int]] = []
        self.notes: list[str] = []

    def session(self, data, solver=None):
        return _session(self._sessions, data, solver)

    def note(self, label: str) -> None:
        self.notes.append(_label(label))

    def at_most(self, board: Board, k: int = 1) -> bool:
        key = (tuple(board), k)
        self.asked.append(key)
        return self.known.get(key, self.guess)

    def count_other(self, board: Board, limit: int) -> tuple[int, bool]:
        return (0, True) if self.at_most(board, limit) else (limit, True)


class _Noting:
    """The checker ``is_remove_valid`` sees in one-by-one mode: the real one, and a record
    of whether the hook asked it and of the hook's notes."""

    def __init__(self, checker, sessions: Callable | None = None):
        self.checker = checker
        self._sessions = sessions  # the engine's sessions on the type's model, by data
        self.asked = 0
        self.notes: list[str] = []

    def session(self, data, solver=None):
        return _session(self._sessions, data, solver)

    def note(self, label: str) -> None:
        self.notes.append(_label(label))

    def at_most(self, board: Board, k: int = 1) -> bool:
        self.asked += 1
        return self.checker.at_most(board, k)

    def count_other(self, board: Board, limit: int) -> tuple[int, bool]:
        self.asked += 1
        return self.checker.count_other(board, limit)


def _session(sessions: Callable | None, data, solver):
    """``checker.session(data, solver)``: the engine's session on the type's model."""
    if sessions is None:
        raise TypeError("this checker opens no sessions")
    return sessions(data, solver)


def _label(label) -> str:
    """A hook's ``checker.note`` label, checked: it becomes a key of the record's
    ``removals``. Raised inside the hook, the error names the plugin (engine/calls.py)."""
    if not isinstance(label, str) or not label:
        raise TypeError(f"checker.note takes a non-empty str, got {label!r}")
    return label


def _learn(checker, board: Board, k: int) -> None:
    """Tell ``checker`` that the type accepted ``board`` (at most ``k`` solutions) by its own
    exact decision, which it said with ``checker.note``, if the checker can use that (a
    criterion's own checker may not offer ``accepted``). A silent acceptance (a criterion
    of the type's own, or a bug) is no proof: the checker's later answers stay its own."""
    learn = getattr(checker, "accepted", None)
    if learn is not None:
        learn(board, k)


def _tally(removals: dict[str, dict[str, int]], verdict: bool, notes: list[str],
           asked: bool) -> None:
    """Count one decided removal under the path that decided it: the hook's last note
    (``checker.note(label)``), else "checker" when the hook asked the checker, else "type"
    (the type's own rule)."""
    label = notes[-1] if notes else ("checker" if asked else "type")
    entry = removals.setdefault(label, {"kept": 0, "refused": 0})
    entry["kept" if verdict else "refused"] += 1


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


def _first_in_one_call(questions: list[list[tuple[Board, int]]], checker,
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


class EmptyingStrategy(Strategy):
    name = "emptying"
    # The full board is the least completion (Engine.complete), every check a count:
    # the same puzzle on every exact solver (tests/test_golden.py).
    alike_on_exact_solvers = True
    description = "GenPuzzles: empty a random full board while the puzzle stays acceptable"
    hooks = EmptyingHooks
    options = (
        Param("target_empty", int, None, "Stop emptying once this many squares are empty."),
        Param("max_solutions", int, 1, "isRemoveValid: allow at most this many solutions "
              "(1 = unique)."),
        Param("variants", int, 0, "Also emit this many transformed variants of each puzzle."),
        Param("complexity", str, "givens", "Complexity function for GenPuzzles' binning."),
        Param("batch", int, 16, "Judge up to this many squares in one solver call, bisecting "
              "when it fails; the puzzle is the same as with --batch 1 (one by one)."),
        Param("probes", int, None, "With --batch: solver calls run at once while bisecting a "
              "run (default 2, 1 with --workers); the puzzle is the same."),
        Param("optimise", bool, True, "With --batch: find the first failing square of a run in "
              "one optimising solver call (--bisect: by bisection); the puzzle is the same.",
              negative="bisect"),
        Param("symmetry", str, "none", "Symmetric givens: empty squares in orbits of none, "
              "rot180 (half turn), rot90 (quarter turn), mirror (left-right) or diagonal (the "
              "main diagonal); rot90 and diagonal on square boards only. A puzzle is minimal "
              "when no further orbit can be removed."),
    )

    def make_options(self, values, workers: int = 1) -> GenOptions:
        values = dict(super().make_options(values))  # probes: 1 in each of several workers
        if values["probes"] is None:
            values["probes"] = 2 if workers == 1 else 1
        options = GenOptions(**values)
        options.check()
        return options

    def default_options(self) -> GenOptions:
        return GenOptions()  # one square per solver call

    def record_options(self, options: GenOptions) -> dict[str, Any]:
        return options.to_json()

    def check_options(self, ptype, params, options: GenOptions) -> None:
        """A ``--symmetry`` the type's board allows (its ``orbits``), before any output."""
        if options.symmetry != "none":
            n = calls.call(ptype, "board_size", params=params)
            _Run.orbits(ptype, params, n, options.symmetry)

    def generate(self, engine, ptype, params, seed: int, options: GenOptions) -> GenResult:
        return _Run(engine).generate(ptype, params, seed, options)


class _Run:
    """One puzzle's emptying."""

    def __init__(self, engine):
        self.engine = engine
        self.fixed: frozenset[int] = frozenset()
        self.unverified = False  # the random solution's verification timed out
        self.vouched = False  # the type's verify_solution said True (``_confirm``)
        self.removals: dict[str, dict[str, int]] = {}  # decided removals by path (``_tally``)
        self.orbit_of: dict[int, frozenset[int]] | None = None  # --symmetry: each square's orbit

    def _choose(self, ptype, params, board, tested, n, rng, full) -> int:
        candidates = frozenset(i for i in range(n) if i not in tested)
        index = calls.call(ptype, "choose_square", params=params, board=tuple(board),
                           candidates=candidates, rng=rng, solution=full)
        if isinstance(index, bool) or index not in candidates:
            raise calls.bad_result("choose_square", ptype, index, "one of the candidates")
        return index

    def _sessions(self, ptype) -> Callable:
        """``checker.session(data)`` of the checkers ``is_remove_valid`` sees."""
        return lambda data, solver=None: self.engine.session(ptype, data, solver)

    def _valid(self, ptype, params, trial, index, full, checker, options) -> bool:
        return calls.flag(ptype, "is_remove_valid", params=params, board=trial, index=index,
                          solution=full, checker=checker, max_solutions=options.max_solutions)

    def _empties(self, board: Board) -> int:
        """The empty squares of ``board`` (``--target-empty``): a structure square that
        holds 0 ("no clue here") is not one."""
        return sum(1 for i, v in enumerate(board) if not v and i not in self.fixed)

    @staticmethod
    def orbits(ptype, params, n, symmetry) -> dict[int, frozenset[int]]:
        """Each square's orbit under ``symmetry``, from the type's ``orbits``, checked to
        be a partition of the squares 0..n-1."""
        found = calls.call(ptype, "orbits", params=params, symmetry=symmetry)
        if found is None:
            raise PuzzleInputError(f"--symmetry {symmetry}: {calls.owner(ptype)} does not say "
                                   "how its squares map under a symmetry (no orbits)")
        orbit_of: dict[int, frozenset[int]] = {}
        try:
            for orbit in found:
                orbit = frozenset(orbit)
                for i in orbit:
                    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < n \
                            or i in orbit_of:
                        raise ValueError
                    orbit_of[i] = orbit
        except (TypeError, ValueError):
            orbit_of = {}
        if len(orbit_of) != n:
            raise calls.bad_result("orbits", ptype, found, f"a partition of the squares "
                                   f"0..{n - 1}")
        return orbit_of

    def _empty(self, ptype, params, full, checker, rng, options, accept):
        """The loop of Algorithm 1, one square (or, with ``--symmetry``, one orbit) and one
        solver call at a time."""
        n, board, tested = len(full), full, set(self.fixed)
        while len(tested) < n:
            if options.target_empty is not None and self._empties(board) >= options.target_empty:
                break
            index = self._choose(ptype, params, board, tested, n, rng, full)
            if self.orbit_of is None:
                tested.add(index)
                trial = board[:index] + (0,) + board[index + 1:]
            else:  # the whole orbit at once; structure squares stay
                orbit = self.orbit_of[index] - self.fixed
                tested |= orbit
                trial = tuple(0 if i in orbit else v for i, v in enumerate(board))
            noting = _Noting(checker, self._sessions(ptype))
            verdict = self._valid(ptype, params, trial, index, full, noting, options)
            _tally(self.removals, verdict, noting.notes, bool(noting.asked))
            if verdict:
                board = trial
                accept(trial)
                if noting.notes:
                    _learn(checker, trial, options.max_solutions)
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
        n, board, tested = len(full), full, set(self.fixed)
        sessions = self._sessions(ptype)
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
                            self._empties(spec_board) >= options.target_empty:
                        return False
                    index = self._choose(ptype, params, spec_board, spec_tested, n, rng, full)
                    state = rng.getstate()
                    spec_tested.add(index)
                    trial = spec_board[:index] + (0,) + spec_board[index + 1:]
                    spec = _Speculation(known, not refusing, sessions=sessions)
                    verdict = self._valid(ptype, params, trial, index, full, spec, options)
                    steps.append((index, trial, state, [q for q in spec.asked if q not in known],
                                  verdict, spec.asked, spec.notes))
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
                                                       full, _Speculation(known, sessions=sessions), options))
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
                    index, trial, state, questions, verdict, asked, notes = steps[i]
                    tested.add(index)
                    if i == wrong or (refusing and questions):
                        # Ask the hook again, now that its answers are known: exact, no solver call.
                        again = _Speculation(known, sessions=sessions)
                        verdict = self._valid(ptype, params, trial, index, full, again, options)
                        notes = again.notes
                    _tally(self.removals, verdict, notes, bool(asked))
                    checker.unknown += sum(1 for q in asked if q in timed_out)
                    if i == wrong:
                        rng.setstate(state)
                    if verdict:
                        board = trial
                        accept(trial)
                        if notes:
                            _learn(checker, trial, options.max_solutions)
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

    def generate(self, ptype, params, seed: int, options: GenOptions) -> GenResult:
        """Algorithm 1: empty a random full board square by square while isRemoveValid holds."""
        options.check()
        engine = self.engine
        complexity = engine.host.get_complexity(options.complexity)
        start, calls0 = time.perf_counter(), engine.backend.calls
        rng = random.Random(seed)
        n = engine.board_size(ptype, params)
        if options.symmetry != "none":  # before any solver call: a bad board is one line
            self.orbit_of = self.orbits(ptype, params, n, options.symmetry)

        for draw in range(1, MAX_DRAWS + 1):
            full = self._random_solution(ptype, params, rng)
            self.fixed = calls.call(ptype, "structure", params=params, board=full)
            if not isinstance(self.fixed, (set, frozenset)) or not all(
                    isinstance(i, int) and 0 <= i < n for i in self.fixed):
                raise calls.bad_result("structure", ptype, self.fixed,
                                       f"a set of squares 0..{n - 1}")
            checker = engine.checker(ptype, params, full)
            checker.unknown += self.unverified
            self.removals = {}
            compl_dict: dict[Hashable, list[Board]] = {}
            bin_rng = random.Random(f"{seed}/bins")  # variants for binning never disturb `rng`

            def accept(trial: Board) -> None:
                for p in [trial] + [engine.random_variant(ptype, params, bin_rng)(trial)
                                    for _ in range(options.variants)]:
                    compl_dict.setdefault(calls.level(complexity, ptype, params, p), []).append(p)

            try:
                if options.batch > 1 and self.orbit_of is None:
                    board, tested = self._empty_batched(ptype, params, full, checker, rng,
                                                        options, accept)
                else:
                    board, tested = self._empty(ptype, params, full, checker, rng, options,
                                                accept)
            finally:
                checker.close()
            if self.vouched and engine.backend.calls > calls0:
                self._confirm(ptype, params, full, checker)
            # The type may refuse the finished puzzle: then the next draw of ``rng``.
            if calls.flag(ptype, "accept_puzzle", params=params, instance=tuple(board),
                          solution=full):
                break
        else:
            raise NothingFound(f"accept_puzzle ({calls.owner(ptype)}) refused {MAX_DRAWS} "
                              "puzzles in a row")

        grid = tuple(board)
        backend = engine.backend
        puzzle = Puzzle(**stamped(ptype, params, seed, backend, calls0, start),
                        instance=grid, solution=full,
                        minimal=len(tested) == n and checker.unknown == 0,
                        unknown=checker.unknown, level=calls.level(complexity, ptype, params, grid),
                        options={**options.to_json(), "free_search": backend.free_search,
                                 "check_flags": list(backend.check_flags)},
                        extra={"removals": self.removals,
                               **({"draws": draw} if draw > 1 else {})})
        variants = []
        vrng = random.Random(f"{seed}/variants")
        for k in range(1, options.variants + 1):
            f = engine.random_variant(ptype, params, vrng)
            g, s = f(grid), f(full)
            variants.append(Puzzle(**{**puzzle.__dict__, "instance": g, "solution": s,
                                      "variant": k, "level": calls.level(complexity, ptype, params, g)}))
        return GenResult(puzzle, variants, compl_dict)

    def _random_solution(self, ptype, params, rng: random.Random):
        """GetRandomPuzzle, verified: the type's random full board, checked to be a board
        and to keep the rules, by the type's ``verify_solution`` or else by one solve (a
        solve that times out leaves it unverified, counted in ``unknown``). A refused draw
        (None) is drawn again from ``rng``."""
        engine = self.engine
        for _ in range(MAX_DRAWS):
            full = calls.call(ptype, "random_solution", params=params, rng=rng,
                              solve=lambda b: engine.complete(ptype, params, tuple(b)),
                              transform=lambda b: engine.random_variant(ptype, params, rng)(b))
            if full is None:
                continue
            full = calls.board(ptype, "random_solution", params, full, full=True)
            verdict = calls.maybe(ptype, "verify_solution", params=params, board=full)
            if verdict is False:
                raise calls.bad_result("random_solution", ptype, full, "a board that keeps "
                                       "the rules (the type's verify_solution refutes it)")
            self.vouched = verdict is True
            if verdict is True:
                self.unverified = False
                return full
            run = self._solve_full(ptype, params, full)
            if run.complete and run.found == 0:
                raise calls.bad_result("random_solution", ptype, full,
                                       "a board that keeps the rules (the solver refutes it)")
            self.unverified = not run.complete
            return full
        raise PluginError(f"random_solution ({calls.owner(ptype)}) refused {MAX_DRAWS} draws "
                          "in a row")

    def _solve_full(self, ptype, params, full):
        """One run of the check model with every square of ``full`` given."""
        return self.engine.compiled(ptype, self.engine.checker_data(ptype, params, full)).run(full)

    def _confirm(self, ptype, params, full, checker) -> None:
        """The full board the type's ``verify_solution`` vouched for, confirmed by one solve
        once the solver has run for this puzzle anyway: a type that vouches for a board
        breaking its rules is a plugin error, never a puzzle without a solution. A puzzle
        whose every removal the type decided itself (no solver call) keeps no solver call:
        the engine trusts the type there as it trusts its ``is_remove_valid``."""
        run = self._solve_full(ptype, params, full)
        if run.complete and run.found == 0:
            raise PluginError(f"verify_solution ({calls.owner(ptype)}) returned True for a "
                              "board from random_solution that the solver refutes")
        checker.unknown += not run.complete
