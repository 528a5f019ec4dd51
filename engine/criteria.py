"""Acceptance criteria: when is a puzzle good enough to give a player?

A criterion judges an instance through the engine's solver service and returns a
``Verdict``: accepted, refused, or unknown. Unknown (a time-out) is never an acceptance.
Shipped:

* ``unique`` (at most k solutions; k is 1 unless the strategy asks for more);
* ``unique-modulo-symmetry``: every solution has the same ``solution_key``;
* ``unique-optimum``: the type's objective has a proven optimum that one solution reaches;
* ``unique-answer``: of the type's ``answer_options``, exactly one holds in every solution
  and each other holds in none.

For grid puzzles emptied by GenPuzzles, ``checker`` gives isRemoveValid's checker; the
``unique`` criterion's is the compiled check (``checker.Checker``), the others judge each
board with ``judge``.
"""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from . import calls, hookspecs
from .contract_v2 import filled_by
from .errors import PluginError
from .types import Board, Status

#: Solutions enumerated per judgement of ``unique-modulo-symmetry`` before giving up
#: (unknown): a level with more solutions than this, all symmetric, is not worth it.
MAX_ENUMERATED = 10_000


@dataclass(frozen=True)
class Verdict:
    """A criterion's judgement. ``accepted`` is None when the solver ran out of time.
    ``solutions`` counts the distinct solutions seen (0: none exists, so no larger
    puzzle of a growing strategy can be accepted either); ``solution`` is one of them."""

    accepted: bool | None
    solutions: int
    status: Status
    solution: Any = None
    value: Any = None  # the optimum, or the index of the correct answer
    fields: dict[str, Any] = field(default_factory=dict)  # for the puzzle's record

    @property
    def solvable(self) -> bool | None:
        if self.solutions:
            return True
        return False if self.status == Status.UNSAT else None


def not_proven(result, best) -> Verdict:
    """The verdict of an optimisation that ran out of time before proving its optimum:
    unknown, with the best solution found (if any) and its objective as ``fields["best"]``,
    never as ``value``: a best-so-far is no optimum."""
    if not best:
        return Verdict(None, 0, result.status)
    return Verdict(None, len(best), result.status, best[0], fields={"best": result.objective})


@filled_by(hookspecs.Criterion)  # a contract-2 criterion's missing members are ours
class Criterion:
    """A base for criteria (the protocol is ``hookspecs.Criterion``): ``refuted_by`` never
    refutes, ``checker`` asks ``judge`` about each board. Set ``name`` and ``description``
    and implement ``judge``."""

    name = ""
    description = ""

    def judge(self, engine, ptype, params, instance, limit: int = 1) -> Verdict:
        raise NotImplementedError

    def refuted_by(self, engine, ptype, params, solutions, limit: int = 1) -> bool:
        """Whether ``solutions``, true solutions of an instance, show without a solver
        that the instance is refused (the growing strategy asks, with solutions the type
        built itself: ``Growing.extensions``). Default: they never do."""
        return False

    def checker(self, engine, ptype, params, full: Board):
        """isRemoveValid's checker for grid boards emptied from ``full``."""
        return JudgeChecker(self, engine, ptype, params)


class JudgeChecker:
    """A checker that asks the criterion about each board (no compiled fast path)."""

    def __init__(self, criterion: Criterion, engine, ptype, params):
        self.criterion, self.engine, self.ptype, self.params = criterion, engine, ptype, params
        self.unknown = 0

    def count_other(self, board: Board, limit: int) -> tuple[int, bool]:
        verdict = self.criterion.judge(self.engine, self.ptype, self.params, board, limit)
        if verdict.accepted is None:
            return 0, False
        return (0 if verdict.accepted else limit), True

    def at_most(self, board: Board, k: int = 1) -> bool:
        found, definite = self.count_other(board, k)
        if not definite:
            self.unknown += 1
            return False
        return found < k

    def first_with_other(self, boards):
        return None, False  # no one-call answer: the caller bisects

    def session(self, data, solver=None):
        """A session on the type's model with ``data``, kept by the engine."""
        return self.engine.session(self.ptype, data, solver)

    def accepted(self, board: Board, k: int) -> None:
        """Nothing to learn: every board is judged afresh."""

    def close(self) -> None:
        pass


def _count(result, solutions, limit: int) -> tuple[bool | None, int]:
    """(accepted, count) for "at most ``limit``" from a solve that asked for limit + 1."""
    n = len(solutions)
    if n > limit:
        return False, n
    if result.status in (Status.ALL, Status.UNSAT):
        return (n >= 1), n
    return None, n  # a time-out before the search was done


class AtMost(Criterion):
    name = "unique"
    description = "at most k solutions (k = 1: unique)"

    def judge(self, engine, ptype, params, instance, limit: int = 1) -> Verdict:
        result, solutions = engine.solve(ptype, params, instance, nr_solutions=limit + 1,
                                         goal="satisfy")
        accepted, n = _count(result, solutions, limit)
        return Verdict(accepted, n, result.status, solutions[0] if solutions else None)

    def checker(self, engine, ptype, params, full: Board):
        return engine.compiled_checker(ptype, params, full)

    def refuted_by(self, engine, ptype, params, solutions, limit: int = 1) -> bool:
        return len(set(solutions)) > limit


class UniqueModuloSymmetry(Criterion):
    name = "unique-modulo-symmetry"
    description = "all solutions are the same up to the type's symmetry (solution_key)"

    def judge(self, engine, ptype, params, instance, limit: int = 1) -> Verdict:
        # Ask for limit + 1 solutions: when the model breaks the symmetry itself, each
        # class has one member and that settles it. Otherwise, while the solutions found
        # fall into limit classes or fewer and more may exist, ask for eight times as
        # many, up to MAX_ENUMERATED. "solutions" counts those found before the verdict.
        want = limit + 1
        while True:
            result, solutions = engine.solve(ptype, params, instance, nr_solutions=want,
                                             goal="satisfy")
            classes: dict[Hashable, Any] = {}
            for s in solutions:
                classes.setdefault(engine.key(ptype, params, s), s)
            n = len(classes)
            first = next(iter(classes.values()), None)
            fields = {"solutions": len(solutions), "classes": n}
            if n > limit:
                return Verdict(False, n, result.status, first, fields=fields)
            if result.status in (Status.ALL, Status.UNSAT):
                return Verdict(n >= 1, n, result.status, first, fields=fields)
            if result.status != Status.SAT or len(solutions) < want or want >= MAX_ENUMERATED:
                return Verdict(None, n, result.status, first, fields=fields)
            want = min(want * 8, MAX_ENUMERATED)

    def refuted_by(self, engine, ptype, params, solutions, limit: int = 1) -> bool:
        return len({engine.key(ptype, params, s) for s in solutions}) > limit


class UniqueOptimum(Criterion):
    name = "unique-optimum"
    description = "a proven optimum that exactly one solution reaches"

    def judge(self, engine, ptype, params, instance, limit: int = 1) -> Verdict:
        if not ptype.objective:
            raise PluginError(f"{calls.owner(ptype)} uses criterion 'unique-optimum' but "
                              "declares no objective")
        result, best = engine.solve(ptype, params, instance)
        if result.status == Status.UNSAT:
            return Verdict(False, 0, result.status)
        if result.status != Status.OPTIMAL or not best:
            return not_proven(result, best)
        value = result.objective
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise PluginError(f"the objective '{ptype.objective}' of {calls.owner(ptype)} "
                              f"is {value!r}, not a number")
        # How many solutions reach it: a satisfaction solve with the objective fixed.
        result2, solutions = engine.solve(ptype, params, instance, nr_solutions=limit + 1,
                                          extra=[f"constraint {ptype.objective} = {value};"],
                                          goal="satisfy")
        accepted, n = _count(result2, solutions, limit)
        return Verdict(accepted, n, result2.status if accepted is None else result.status,
                       best[0], value, {"optimum": value, "optimal_solutions": n})


class UniqueAnswer(Criterion):
    name = "unique-answer"
    description = "one option holds in every solution, every other option in none"

    def judge(self, engine, ptype, params, instance, limit: int = 1) -> Verdict:
        options = calls.call(ptype, "answer_options", params=params, instance=instance)
        if not isinstance(options, (list, tuple)) or len(options) < 2 or not all(
                isinstance(o, str) and o.strip() for o in options):
            raise calls.bad_result("answer_options", ptype, options,
                                   "two or more MiniZinc Boolean expressions")
        result, solutions = engine.solve(ptype, params, instance, goal="satisfy")
        if result.status == Status.UNSAT:
            return Verdict(False, 0, result.status)
        if not solutions:
            return Verdict(None, 0, result.status)
        correct, unknown = [], False
        for i, option in enumerate(options):
            # A solution exists, so an option that holds in none is not also in all: one
            # solver call settles a distractor, the usual case.
            refuted = self._never(engine, ptype, params, instance, (i, True))
            if refuted:
                continue
            entailed = self._never(engine, ptype, params, instance, (i, False))
            if entailed:  # in every solution (and so in some: it is not refuted either)
                correct.append(i)
            elif entailed is False and refuted is False:  # in some solutions only
                return Verdict(False, 1, result.status, solutions[0],
                               fields={"ambiguous_option": i})
            else:
                unknown = True
        if len(correct) > 1 or (not unknown and len(correct) == 0):
            return Verdict(False, 1, result.status, solutions[0], fields={"correct": correct})
        if unknown:
            return Verdict(None, 1, Status.UNKNOWN, solutions[0])
        return Verdict(True, 1, result.status, solutions[0], correct[0], {"answer": correct[0]})

    @staticmethod
    def _never(engine, ptype, params, instance, option: tuple[int, bool]) -> bool | None:
        """Whether no solution has ``option`` = ``(i, holds)``: the answer option i
        holding (or failing); None: unknown. A type with a split model that selects its
        options (``split_data``) answers it by a question of a session, no compile."""
        result, _ = engine.solve(ptype, params, instance, goal="satisfy", option=option)
        if result.status == Status.UNSAT:
            return True
        if result.status == Status.UNKNOWN:
            return None
        return False


BUILTIN = (AtMost(), UniqueModuloSymmetry(), UniqueOptimum(), UniqueAnswer())
