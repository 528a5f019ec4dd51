"""A fake solver for the control-flow tests (marker ``fast``): the ``Backend`` interface the
engine uses, answered by Python oracles instead of MiniZinc.

An *oracle* is a function from a model's data (what ``to_data`` or ``checker_data`` gives)
to every solution of the model, in search order, each a dict of output variables as a
MiniZinc solution would be read (``{"grid": [[1, 2], [2, 1]]}``). The fake backend filters
those solutions by the constraints the engine adds (``extra``, a small subset of
MiniZinc: ``constraint <expression>;``), by a board's givens and by "differs from the full
board", and reports what the real backend would report: the same ``Status`` values, the
same ``Run`` records, the same solver call count.

Time-outs are scripted, never timed: ``script(query)`` is asked before every solve and
every run, and returns ``TimeOut(found)`` to make that call run out of time after
``found`` solutions, or None to answer it. Every query is kept in ``queries``.

Oracles for tiny grids are here: every 4x4 Latin square (576) and every 4x4 Sudoku (288)
by brute force, with ``grid_oracle`` to read the givens from the data.
"""
from __future__ import annotations

import functools
import json
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from puzzle_engine.grid import flatten, rows_of
from puzzle_engine.solving.discovery import SolverInfo
from puzzle_engine.solving.results import GOALS, Run, SolveResult
from puzzle_engine.types import Status

Oracle = Callable[[Mapping[str, Any]], Sequence[Mapping[str, Any]]]


@dataclass(frozen=True)
class TimeOut:
    """A scripted answer: the call runs out of time after finding ``found`` solutions."""

    found: int = 0


@dataclass(frozen=True)
class Query:
    """One call to the fake solver, as the script and ``queries`` see it."""

    kind: str                    # "solve" (a whole model) or "run" (a compiled model)
    ptype: str
    data: Mapping[str, Any]
    extra: tuple[str, ...] = ()
    limit: int | None = None     # solve: nr_solutions (0: all); run: limit
    goal: str | None = None
    board: tuple[int, ...] | None = None
    differs: tuple[int, ...] | None = None
    differs_at: tuple[int, ...] | None = None
    stages: Mapping[int, int] | None = None

    @property
    def check(self) -> bool:
        """A uniqueness check: a run that looks for a solution other than a full board."""
        return self.kind == "run" and self.differs is not None


# -- the constraints the engine adds -----------------------------------------------------------
_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)|(/\\|\\/|!=|<=|>=|==|[=<>()\[\],+\-*]))")
_OPS = {"/\\": " and ", "\\/": " or ", "=": "==", "==": "=="}
_WORDS = {"not": " not ", "true": "True", "false": "False", "div": "//", "mod": "%"}


def _at(array, *index):
    """MiniZinc's 1-based indexing, of any dimension."""
    for i in index:
        if not 1 <= i <= len(array):
            raise IndexError(f"index {i} out of 1..{len(array)}")
        array = array[i - 1]
    return array


@functools.lru_cache(maxsize=None)
def _python(expression: str) -> str:
    """A MiniZinc Boolean expression (integers, variables, 1-based array access, comparisons,
    arithmetic, ``not``, ``/\\``, ``\\/``) as a Python expression over ``v``, the solution."""
    out, brackets, pos = [], [], 0
    text = expression.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise ValueError(f"the fake solver cannot read {expression!r} (at {text[pos:]!r})")
        pos = m.end()
        number, name, op = m.groups()
        if number:
            out.append(number)
        elif name in _WORDS:
            out.append(_WORDS[name])
        elif name:
            if text[pos:].lstrip().startswith("["):
                pos = text.index("[", pos) + 1
                out.append(f"_at(v[{name!r}], ")
                brackets.append(name)
            else:
                out.append(f"v[{name!r}]")
        elif op == "[":
            raise ValueError(f"the fake solver cannot read array literals: {expression!r}")
        elif op == "]":
            if not brackets:
                raise ValueError(f"unbalanced ']' in {expression!r}")
            brackets.pop()
            out.append(")")
        else:
            out.append(_OPS.get(op, op))
    if brackets:
        raise ValueError(f"unbalanced '[' in {expression!r}")
    return "".join(out)


def constraints(extra: Sequence[str]) -> list[str]:
    """The expressions of ``extra``'s ``constraint <expression>;`` items."""
    found = []
    for part in extra:
        for item in part.split(";"):
            item = item.strip()
            if not item:
                continue
            if not item.startswith("constraint "):
                raise ValueError(f"the fake solver reads only 'constraint ...;' items, not {item!r}")
            found.append(item[len("constraint "):])
    return found


def holds(expression: str, solution: Mapping[str, Any]) -> bool:
    """Whether ``expression`` holds in ``solution``."""
    try:
        return bool(eval(_python(expression), {"__builtins__": {}},  # noqa: S307 - test input
                         {"v": solution, "_at": _at}))
    except KeyError as exc:
        raise ValueError(f"{expression!r} names {exc}, which is not an output of the oracle") from None


# -- the backend ------------------------------------------------------------------------------
class FakeBackend:
    """The ``Backend`` interface the engine uses, answered by ``oracles`` (puzzle type name
    to oracle). ``script`` decides time-outs (see the module's docstring)."""

    def __init__(self, oracles: Mapping[str, Oracle], script: Callable[[Query], TimeOut | None]
                 | None = None, time_limit: float | None = None, free_search: bool = False,
                 check_flags: Sequence[str] | None = None, tags: Sequence[str] = ("cp", "int")):
        self.info = SolverInfo(id="org.test.fake", name="Fake", version="1.0", tags=tuple(tags),
                               executable=None, std_flags=("-a", "-n", "-f", "-s", "-t"))
        self.oracles = dict(oracles)
        self.script = script
        self.time_limit = time_limit
        self.free_search = bool(free_search)
        self.check_flags = tuple(check_flags or ())
        self.calls = 0
        self.queries: list[Query] = []
        self.compiled = 0  # models compiled
        self._lock = threading.Lock()

    @property
    def solver_id(self) -> str:
        return self.info.id

    def count_call(self) -> None:
        with self._lock:
            self.calls += 1

    def ask(self, query: Query) -> TimeOut | None:
        """Record ``query`` and return the script's answer to it."""
        with self._lock:
            self.queries.append(query)
        answer = self.script(query) if self.script is not None else None
        if answer is not None and not isinstance(answer, TimeOut):
            raise TypeError(f"a script answers TimeOut(...) or None, not {answer!r}")
        return answer

    def solutions(self, ptype, data: Mapping[str, Any], extra: Sequence[str] = ()) -> list[dict]:
        """Every solution of ``ptype``'s model with ``data`` and ``extra``, in search order."""
        if ptype.name not in self.oracles:
            raise LookupError(f"the fake solver has no oracle for puzzle '{ptype.name}'")
        wanted = constraints(extra)
        found = [dict(s) for s in self.oracles[ptype.name](dict(data))]
        return [s for s in found if all(holds(c, s) for c in wanted)]

    def solve(self, ptype, data: Mapping[str, Any], nr_solutions: int = 1,
              extra: Sequence[str] = (), goal: str | None = None
              ) -> tuple[SolveResult, list[dict[str, Any]]]:
        """As ``Backend.solve``: the result and the raw solutions."""
        self.count_call()
        goal = goal or (ptype.sense if ptype.objective else None)
        if goal not in (None, *GOALS):
            raise ValueError(f"goal {goal!r}")
        optimising = ptype.objective is not None and goal != "satisfy"
        sols = self.solutions(ptype, data, extra)
        timeout = self.ask(Query("solve", ptype.name, _frozen(data), tuple(extra), nr_solutions,
                                 goal))
        if optimising:
            improving = []  # each solution the search reports: strictly better than the last
            for s in sols:
                value = s[ptype.objective]
                if not improving or (value > improving[-1][ptype.objective] if goal == "maximize"
                                     else value < improving[-1][ptype.objective]):
                    improving.append(s)
            if timeout is not None:
                improving = improving[:timeout.found]
                status = Status.SAT if improving else Status.UNKNOWN
            else:
                status = Status.OPTIMAL if improving else Status.UNSAT
            best = improving[-1:]
            return SolveResult(status, {}, best[0][ptype.objective] if best else None), best
        want = len(sols) if nr_solutions == 0 else nr_solutions
        if timeout is not None:
            found = sols[:min(timeout.found, want)]
            status = Status.SAT if found else Status.UNKNOWN
        else:
            found = sols[:want]
            status = Status.SAT if nr_solutions and len(sols) >= nr_solutions else (
                Status.ALL if sols else Status.UNSAT)
        return SolveResult(status, {}), found

    def compile(self, ptype, data: Mapping[str, Any], extra: Sequence[str] = (),
                flags: Sequence[str] = (), cache: bool = True) -> FakeModel:
        with self._lock:
            self.compiled += 1
        return FakeModel(self, ptype, data, extra)


def _frozen(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A copy of ``data`` that a script may keep (JSON round trip: lists stay lists)."""
    return json.loads(json.dumps(dict(data)))


class FakeModel:
    """The ``Session`` protocol (``puzzle_engine.solving.session``): the model's solutions, enumerated once, filtered by
    each run's givens."""

    def __init__(self, backend: FakeBackend, ptype, data: Mapping[str, Any], extra: Sequence[str]):
        self.backend = backend
        self.ptype = ptype.name
        self.data = _frozen(data)
        self.boards = [tuple(int(v) for v in flatten(s[ptype.decision]))
                       for s in backend.solutions(ptype, data, extra)]
        self.failed = not self.boards
        self.closed = False

    @property
    def squares(self) -> int:
        if not self.boards:
            raise ValueError("the fake solver knows a model's squares from its solutions; "
                             "this one has none")
        return len(self.boards[0])

    def unfixed(self) -> list[int]:
        """The squares with more than one value among the solutions."""
        return [i for i in range(self.squares) if len({b[i] for b in self.boards}) > 1]

    def count(self, board, limit: int, differs=None, differs_at=None) -> tuple[int, bool]:
        run = self.run(board, limit, differs=differs, differs_at=differs_at)
        return run.found, run.complete

    def run(self, board, limit: int = 1, order=None, stats: bool = False, solution: bool = False,
            differs=None, differs_at=None, stages=None) -> Run:
        """As ``Session.run``. A scripted time-out loses the run's output, as a killed
        solver process does: ``Run(0, False)``."""
        if self.closed:
            raise RuntimeError("run on a closed model")
        if stats:
            raise NotImplementedError("the fake solver does not measure search effort")
        board = tuple(board)
        if self.boards and len(board) != self.squares:
            raise ValueError(f"board has {len(board)} squares, model has {self.squares}")
        if stages is not None and differs is None:
            raise ValueError("stages need differs")
        backend = self.backend
        backend.count_call()
        timeout = backend.ask(Query(
            "run", self.ptype, self.data, (), limit, None, board,
            None if differs is None else tuple(differs),
            None if differs_at is None else tuple(differs_at),
            None if stages is None else dict(stages)))
        if timeout is not None:
            return Run(0, False, {})
        matches = [b for b in self.boards if all(v == 0 or b[i] == v for i, v in enumerate(board))]
        if stages is not None:
            free = [i for i in stages if not board[i]]
            improving, best = 0, None
            for b in matches:
                late = [stages[i] for i in free if b[i] != differs[i]]
                if late and (best is None or max(late) < best):
                    best, improving = max(late), improving + 1
            return Run(improving, True, {}, None, best)
        if differs is not None:
            at = range(len(board)) if differs_at is None else differs_at
            free = [i for i in at if not board[i]]
            matches = [b for b in matches if any(b[i] != differs[i] for i in free)]
        found = min(len(matches), limit)
        if order is not None and matches:  # the least in the lexicographic order of ``order``
            matches = [min(matches, key=lambda b: [b[i] for i in order])]
        return Run(found, True, {}, matches[0] if solution and matches else None)

    def close(self) -> None:
        self.closed = True


# -- oracles for tiny grids ---------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def latin_squares(n: int) -> tuple[tuple[int, ...], ...]:
    """Every Latin square of order ``n`` (flat, row by row), in lexicographic order."""
    return _fill(n, lambda i: [j for j in range(n * n) if j != i and
                               (j // n == i // n or j % n == i % n)])


@functools.lru_cache(maxsize=None)
def sudoku_boards(r: int, c: int) -> tuple[tuple[int, ...], ...]:
    """Every Sudoku board with r x c boxes (flat, row by row), in lexicographic order."""
    n = r * c

    def peers(i):
        row, col = divmod(i, n)
        box = (row // r, col // c)
        return [j for j in range(n * n) if j != i and (
            j // n == row or j % n == col or (j // n // r, j % n // c) == box)]
    return _fill(n, peers)


def _fill(n: int, peers_of: Callable[[int], list[int]]) -> tuple[tuple[int, ...], ...]:
    """Every way to fill an n x n board with 1..n so that no square equals an earlier peer,
    square by square, smallest value first."""
    squares = n * n
    earlier = [[j for j in peers_of(i) if j < i] for i in range(squares)]
    found, board = [], [0] * squares

    def place(i):
        if i == squares:
            found.append(tuple(board))
            return
        for v in range(1, n + 1):
            if all(board[j] != v for j in earlier[i]):
                board[i] = v
                place(i + 1)
        board[i] = 0
    place(0)
    return tuple(found)


def grid_oracle(boards: Callable[[Mapping[str, Any]], Sequence[tuple[int, ...]]],
                side: Callable[[Mapping[str, Any]], int], givens: str = "givens",
                decision: str = "grid") -> Oracle:
    """An oracle for a grid model whose data hold the givens as rows (``givens``, 0 for
    empty): the boards of ``boards(data)`` that agree with them, as ``decision`` rows."""
    def oracle(data):
        fixed = [int(v) for v in flatten(data[givens])]
        cols = side(data)
        return [{decision: rows_of(b, cols)} for b in boards(data)
                if len(b) == len(fixed) and all(g == 0 or g == v for g, v in zip(fixed, b))]
    return oracle


#: The built-in Sudoku's data (r, c, givens) and the toy Latin square's (n, givens).
SUDOKU = grid_oracle(lambda d: sudoku_boards(d["r"], d["c"]), lambda d: d["r"] * d["c"])
LATIN = grid_oracle(lambda d: latin_squares(d["n"]), lambda d: d["n"])


def is_unique(boards: Sequence[tuple[int, ...]], grid: Sequence[int]) -> bool:
    """Whether exactly one of ``boards`` agrees with ``grid``'s givens (an independent
    check, by enumeration)."""
    return sum(1 for b in boards if all(g == 0 or g == v for g, v in zip(grid, b))) == 1


__all__ = ["FakeBackend", "FakeModel", "LATIN", "Query", "SUDOKU", "TimeOut", "constraints",
           "grid_oracle", "holds", "is_unique", "latin_squares", "sudoku_boards"]
