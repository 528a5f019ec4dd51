"""The incremental SAT back end: the FlatZinc encoded as CNF once (``cnf.Encoding``) and
loaded into one CaDiCaL solver (python-sat) that lives as long as the session, so that
what it learnt from one question serves the next.

Every question is asked by assumptions, never by changing the model:

* a given, an array's value (``arrays``), an order's prefix: the literal ``x = v``;
* "differs from this board on these squares", and the clauses that block solutions
  already counted (``limit > 1``, ``every``): clauses guarded by a fresh activation
  literal, assumed for this question only and retired after it (the unit clause of its
  negation), so no question sees another's additions;
* ``stages``: a solution that differs, then one that differs at lower stages only, and
  so on until there is none: the last found gives the least stage;
* ``order``: the least solution in that lexicographic order, square by square: the
  smallest value that stays satisfiable, each model giving the value to beat (``x <
  v``, an order literal) so most squares cost one call;
* whole solves (``outputs``): every solution up to a limit, or the optimum by
  tightening the objective's bound (an order literal) until there is none better.

Limits are counted in work: a question may use ``time_limit x CONFLICTS_PER_SECOND``
conflicts (``PUZZLE_ENGINE_SAT_CONFLICTS`` overrides the rate), so the same seed gives
the same puzzle on a slower machine; ``WALL_SAFETY x time_limit`` seconds of wall time
also stop it, as a safety. Either exhausted answers ``Run(found, complete=False)``:
unknown. The solver is called in chunks of ``CHUNK`` conflicts, between which the
command's interruption (``processes.check_stopping``) and the wall clock are checked:
python-sat holds the interpreter's lock during a solve and cannot interrupt CaDiCaL, so
a chunk is what bounds the time to stop (well under 2 s). Ctrl-C in the main thread is
caught by python-sat itself, which leaves that solver unusable: it is deleted, the
signal handed to the command's handler, and a later question rebuilds the solver.

The back end reports no search nodes (``stats=True`` raises ``SolverError``): grading
runs on a process back end. It also runs as a MiniZinc solver (``register``: ``python
-m puzzle_engine.solving.sat [flags] MODEL.fzn``), for ``Backend.solve`` through
minizinc-python and for ``minizinc --solver sat``.
"""
from __future__ import annotations

import importlib.util
import signal
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import processes
from ..errors import SolverError
from ..types import Board, Status
from . import registration
from .cpsat import parse_flags
from .flatzinc import Call, FznError, Item, decision_names, parse
from .results import Run, SolveResult
from .session import SessionBase, literal, work_rate

if TYPE_CHECKING:  # (compiled imports discovery, which registers this module)
    from .compiled import FlatModel

SOLVER_ID = "org.puzzle-engine.sat"
NAME = "SAT (CaDiCaL)"
#: python-sat's name of the CDCL solver: CaDiCaL 1.9.5 (incremental, with assumptions and
#: conflict budgets; python-sat cannot interrupt it, hence the chunks).
CADICAL = "cadical195"
STD_FLAGS = ("-a", "-f", "-n", "-r", "-s", "-t")
#: Conflicts a solver call may use before the command's interruption and the wall clock
#: are checked again. A chunk takes milliseconds on puzzle models.
CHUNK = 500
#: Clauses handed to the solver between two checks of the command's interruption.
LOAD_SLICE = 20_000
#: Conflicts a question may use per second of ``--time-limit`` (docs/solvers.md).
CONFLICTS_PER_SECOND = 20_000
WORK_ENV = "PUZZLE_ENGINE_SAT_CONFLICTS"
#: The wall time limit, a safety for a loaded machine: this many times ``--time-limit``.
WALL_SAFETY = 3.0


def available() -> bool:
    """Whether python-sat is installed (without importing it)."""
    return importlib.util.find_spec("pysat") is not None


def conflicts_per_second() -> float:
    return work_rate(WORK_ENV, CONFLICTS_PER_SECOND, 'conflicts')


class Budget:
    """What one question may still spend: conflicts (None: no limit) and a deadline on
    the monotonic clock (None: none)."""

    def __init__(self, time_limit: float | None):
        self.conflicts = None if not time_limit else max(1, round(time_limit * conflicts_per_second()))
        self.deadline = None if not time_limit else time.monotonic() + WALL_SAFETY * time_limit

    def spent(self) -> bool:
        return (self.conflicts is not None and self.conflicts <= 0) or \
            (self.deadline is not None and time.monotonic() >= self.deadline)


def _interrupted(exc: BaseException) -> bool:
    """python-sat's error for a Ctrl-C it caught during a solve in the main thread."""
    return type(exc).__module__ == "pysolvers" and "keyboard interrupt" in str(exc).lower()


class Core:
    """An encoding and the CaDiCaL solver that holds its clauses: the solving shared by
    the session and the FlatZinc runner."""

    def __init__(self, items: list[Item]):
        from .cnf import Encoding  # (imports pindakaas: only when used)
        self.enc = Encoding(items)
        self._items = items
        self._solver = None
        self._fed = 0
        self.conflicts = 0  # over the core's life
        self._outs: list[tuple[str, bool]] | None = None

    # -- the solver ----------------------------------------------------------------------
    def solver(self):
        """The solver, fed every clause of the encoding so far (the encoding may add
        clauses when a literal is first asked for)."""
        if self._solver is None:
            from pysat.solvers import Solver  # lazy: python-sat loads only when a SAT solve runs
            self._solver = Solver(name=CADICAL)
            self._fed = 0
        clauses = self.enc.clauses
        while self._fed < len(clauses):  # in slices: a 25x25's 600,000 take seconds
            processes.check_stopping()
            end = min(len(clauses), self._fed + LOAD_SLICE)
            self._solver.append_formula(clauses[self._fed:end])
            self._fed = end
        return self._solver

    def add(self, clause: Sequence[int]) -> None:
        """A clause for good (kept in the encoding too, so a rebuilt solver has it)."""
        self.enc.clauses.append(list(clause))

    def activation(self) -> int:
        """A fresh literal that guards a question's clauses (``retire`` it after)."""
        return self.enc.new_var()

    def retire(self, act: int | None) -> None:
        if act is not None:
            self.add([-act])

    def solve(self, assumptions: Sequence[int], budget: Budget) -> bool | None:
        """SAT (True), UNSAT (False) under ``assumptions``, or None when ``budget`` ran
        out; the model is ``model()``. Stops at the command's interruption."""
        assumptions = list(assumptions)
        while True:
            processes.check_stopping()
            if budget.spent():
                return None
            chunk = CHUNK if budget.conflicts is None else min(CHUNK, budget.conflicts)
            s = self.solver()
            s.conf_budget(chunk)
            try:
                answer = s.solve_limited(assumptions=assumptions)
            except Exception as exc:
                if not _interrupted(exc):
                    raise
                self._drop()  # CaDiCaL was left mid-solve: only deleting it is safe
                handler = signal.getsignal(signal.SIGINT)
                if callable(handler):
                    handler(signal.SIGINT, None)  # the command's: marks it stopping, raises
                if handler != signal.SIG_IGN:
                    raise KeyboardInterrupt from None
                continue  # Ctrl-C ignored: ask again, of a rebuilt solver
            used = s.accum_stats().get("conflicts", 0) - self.conflicts
            self.conflicts += used
            if budget.conflicts is not None:
                budget.conflicts -= max(used, 1 if answer is None else 0)
            if answer is not None:
                return answer

    def model(self) -> list[int]:
        return self._solver.get_model()

    def _drop(self) -> None:
        if self._solver is not None:
            self._solver.delete()
            self._solver = None
            self.conflicts = 0

    def close(self) -> None:
        self._drop()

    # -- what the encoding says of a model -------------------------------------------------
    def constant(self, lit: int) -> bool:
        return abs(lit) == self.enc.true

    def output_elements(self) -> list[tuple[str, bool]]:
        """Every output variable and array element (FlatZinc name, whether bool) that
        is not a constant: what tells solutions apart."""
        if self._outs is None:
            out = []
            for item in self.enc.outputs:
                boolean = item.type[0] == "bool"
                names = decision_names(self._items, item.name) if item.array else [item.name]
                for name in names or ():
                    if literal(name) or name in ("true", "false"):
                        continue
                    if boolean and self.constant(self.enc.bool_lit(name)):
                        continue
                    if not boolean and len(self.enc.domain(name)) <= 1:
                        continue
                    out.append((name, boolean))
            self._outs = out
        return self._outs

    def blocking(self, model: Sequence[int]) -> list[int]:
        """The clause that excludes ``model``'s output values (empty: nothing varies)."""
        enc, clause = self.enc, []
        for name, boolean in self.output_elements():
            if boolean:
                lit = enc.bool_lit(name)
                clause.append(-lit if enc.value_of(lit, model) else lit)
            else:
                clause.append(-enc.eq_lit(name, enc.int_value(name, model)))
        return clause

    def solutions(self, assumptions: Sequence[int], limit: int, budget: Budget
                  ) -> Iterator[list[int]]:
        """Models with distinct output values under ``assumptions``, up to ``limit`` (0:
        all). ``self.finished`` says afterwards whether the search ended (no more)."""
        self.finished = False
        act = None
        found = 0
        try:
            while True:
                answer = self.solve([*assumptions, *([act] if act else [])], budget)
                if answer is None:
                    return
                if not answer:
                    self.finished = True
                    return
                model = self.model()
                found += 1
                yield model
                if limit and found >= limit:
                    return
                block = self.blocking(model)
                if not block:
                    self.finished = True
                    return
                if act is None:
                    act = self.activation()
                self.add([-act, *block])
        finally:
            self.retire(act)

    def optimum(self, goal: str, budget: Budget) -> Iterator[list[int]]:
        """Each better model of ``goal`` (minimize, maximize the objective) in turn;
        ``self.finished``: the last one is proven optimal (or there is none)."""
        self.finished = False
        enc = self.enc
        bound: list[int] = []
        while True:
            answer = self.solve(bound, budget)
            if answer is None:
                return
            if not answer:
                self.finished = True
                return
            model = self.model()
            yield model
            if isinstance(enc.objective, int) or enc.objective is None:
                self.finished = True
                return
            value = enc.int_value(enc.objective, model)
            better = -enc.ge_lit(enc.objective, value) if goal == "minimize" \
                else enc.ge_lit(enc.objective, value + 1)
            if better == -enc.true:
                self.finished = True
                return
            bound = [better]

    def objective_value(self, model: Sequence[int]) -> int | None:
        obj = self.enc.objective
        if obj is None:
            return None
        return obj if isinstance(obj, int) else self.enc.int_value(obj, model)


def encode(items: list[Item], ptype: str) -> Core:
    """The items encoded, or a one-line ``SolverError`` naming the FlatZinc line and the
    builtin the encoding does not support."""
    try:
        return Core(items)
    except FznError as exc:
        raise SolverError(f"{NAME} cannot solve puzzle '{ptype}': the flattened model, {exc}") from None


class SatSession(SessionBase):
    """A session on CaDiCaL in this process (see the module's docstring)."""

    def __init__(self, backend, flat: FlatModel):
        self.backend = backend
        self.failed = flat.failed
        self._flat = flat
        self._ptype = flat.ptype
        self._names = flat.names()
        self._shape = flat.shape
        self._arrays: dict[str, list[str]] = {}
        self._closed = False
        self._core = encode(flat.items, flat.ptype)
        # One question at a time: threads (probes, grade --jobs) may share a session, and
        # a model must be read before another question changes the solver's state.
        self._lock = threading.Lock()

    # -- the protocol ----------------------------------------------------------------------
    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._core.close()

    def run(self, board: Board, limit: int = 1, order: Sequence[int] | None = None,
            stats: bool = False, solution: bool = False, differs: Board | None = None,
            differs_at: Sequence[int] | None = None, stages: Mapping[int, int] | None = None,
            arrays: Mapping[str, Sequence[int]] | None = None, every: bool = False) -> Run:
        """One question (``session.Session.run``), asked by assumptions."""
        with self._lock:
            return self._run(board, limit, order, stats, solution, differs, differs_at,
                             stages, arrays, every)

    def _run(self, board, limit, order, stats, solution, differs, differs_at, stages,
             arrays, every) -> Run:
        if stats:
            raise SolverError(f"{NAME} does not report search nodes; grading needs a process "
                              "back end (--solver gecode)")
        if self._closed:
            raise SolverError(f"the {NAME} session of puzzle '{self._ptype}' is closed")
        if len(board) != len(self._names):
            raise ValueError(f"board has {len(board)} squares, model has {len(self._names)}")
        core, enc = self._core, self._core.enc
        if stages is not None and (differs is None or enc.goal != "satisfy"):
            raise ValueError("stages need differs and a satisfaction model")
        self.backend.count_call()
        budget = Budget(self.backend.time_limit)
        givens = [enc.eq_lit(self._names[i], v) for i, v in enumerate(board) if v]
        for name, values in (arrays or {}).items():
            givens.extend(self._array_lits(name, values))
        if stages is not None:
            return self._stages(board, givens, differs, stages, budget)
        act = None
        try:
            if differs is not None:
                at = range(len(board)) if differs_at is None else differs_at
                act = core.activation()
                core.add([-act, *(-enc.eq_lit(self._names[i], differs[i]) for i in at if not board[i])])
                givens.append(act)
            return self._count(board, givens, limit, order, solution, every, budget)
        finally:
            core.retire(act)

    # -- questions -------------------------------------------------------------------------
    def _count(self, board: Board, assumptions: list[int], limit: int,
               order: Sequence[int] | None, solution: bool, every: bool, budget: Budget) -> Run:
        core = self._core
        first = None
        if order is not None:
            least = self._least(board, assumptions, order, budget)
            if least is None:  # the budget ran out
                return Run(0, False, {})
            if least is False:
                return Run(0, True, {})
            first = least
            # The least one is the first solution; the others are counted past it.
            block = core.blocking(first)
            boards = [self._board(first)] if every else []
            if limit == 1 or not block:
                return Run(1, limit == 1 or not block, {},
                           self._board(first) if solution else None, every=tuple(boards))
            act = core.activation()
            core.add([-act, *block])
            try:
                more = self._count(board, [*assumptions, act], limit - 1 if limit else 0,
                                   None, False, every, budget)
            finally:
                core.retire(act)
            return Run(1 + more.found, more.complete, {}, self._board(first) if solution else None,
                       every=(*boards, *more.every))
        found, boards = 0, []
        for model in core.solutions(assumptions, limit, budget):
            found += 1
            if found == 1 and solution:
                first = self._board(model)
            if every:
                boards.append(self._board(model))
        complete = core.finished or (bool(limit) and found >= limit)
        return Run(found, complete, {}, first, every=tuple(boards))

    def _least(self, board: Board, assumptions: list[int], order: Sequence[int],
               budget: Budget):
        """The least model in ``order``'s lexicographic order (smallest value first),
        False when there is none, None when the budget ran out."""
        core, enc = self._core, self._core.enc
        answer = core.solve(assumptions, budget)
        if not answer:
            return answer
        model = core.model()
        prefix: list[int] = []
        for i in order:
            name = self._names[i]
            if board[i] or literal(name):
                continue
            value = enc.int_value(name, model)
            while value > enc.domain(name)[0]:
                answer = core.solve([*assumptions, *prefix, -enc.ge_lit(name, value)], budget)
                if answer is None:
                    return None
                if not answer:
                    break
                model = core.model()
                value = enc.int_value(name, model)
            prefix.append(enc.eq_lit(name, value))
        return model

    def _stages(self, board: Board, givens: list[int], differs: Board,
                stages: Mapping[int, int], budget: Budget) -> Run:
        """The least stage s with a solution that differs from ``differs`` on squares of
        stages up to s only (``Run.stage``; None: none differs)."""
        core, enc = self._core, self._core.enc
        free = [i for i in stages if not board[i] and not literal(self._names[i])]
        diff = {i: -enc.eq_lit(self._names[i], differs[i]) for i in free}
        found, stage, top = 0, None, None
        while True:
            # Differ somewhere at a stage below the best so far; agree above it.
            allowed = [i for i in free if top is None or stages[i] < top]
            same = [-diff[i] for i in free if top is not None and stages[i] >= top]
            if not allowed:
                return Run(found, True, {}, None, stage)
            act = core.activation()
            core.add([-act, *(diff[i] for i in allowed)])
            try:
                answer = core.solve([*givens, *same, act], budget)
                if answer is None:
                    return Run(found, False, {}, None, stage)
                if not answer:
                    return Run(found, True, {}, None, stage)
                model = core.model()
            finally:
                core.retire(act)
            found += 1
            top = stage = max(stages[i] for i in allowed if enc.value_of(diff[i], model))

    def _array_lits(self, name: str, values: Sequence[int]) -> list[int]:
        names = self._arrays.get(name)
        if names is None:
            names = self._arrays[name] = self._flat.names(name)
        if len(values) != len(names):
            raise ValueError(f"array '{name}' has {len(names)} elements, not {len(values)}")
        return [self._core.enc.eq_lit(var, int(v)) for var, v in zip(names, values)]

    def _board(self, model: Sequence[int]) -> Board:
        enc = self._core.enc
        return tuple(enc.int_value(name, model) for name in self._names)

    # -- whole solves ----------------------------------------------------------------------
    def outputs(self, limit: int = 1, goal: str = "satisfy"
                ) -> tuple[SolveResult, list[dict[str, Any]]]:
        """The model solved as flattened (``session.WholeSession.outputs``)."""
        with self._lock:
            if self._closed:
                raise SolverError(f"the {NAME} session of puzzle '{self._ptype}' is closed")
            return whole(self._core, limit, goal, Budget(self.backend.time_limit))


def whole(core: Core, limit: int, goal: str, budget: Budget
          ) -> tuple[SolveResult, list[dict[str, Any]]]:
    """A whole solve of ``core``: every solution up to ``limit`` (0: all) of a
    satisfaction, or the best of an optimisation; outputs as minizinc-python gives them."""
    start = time.monotonic()
    models = list(core.solutions([], limit, budget)) if goal == "satisfy" \
        else list(core.optimum(goal, budget))[-1:]
    finished = core.finished
    stats = {"solveTime": time.monotonic() - start, "conflicts": core.conflicts}
    if not models:
        return SolveResult(Status.UNSAT if finished else Status.UNKNOWN, stats), []
    if goal == "satisfy":
        status = Status.ALL if finished else Status.SAT
        objective = None
    else:
        status = Status.OPTIMAL if finished else Status.SAT
        objective = core.objective_value(models[-1])
    return SolveResult(status, stats, objective), [core.enc.output_values(m) for m in models]


# -- the FlatZinc runner -------------------------------------------------------------------

def _render(core: Core, model: Sequence[int]) -> str:
    """A solution as a FlatZinc solver prints it."""
    values = core.enc.output_values(model)

    def flat(v: Any) -> list[Any]:
        return [x for e in v for x in flat(e)] if isinstance(v, list) else [v]

    def show(v: Any) -> str:
        return ("true" if v else "false") if isinstance(v, bool) else str(v)
    lines = []
    for item in core.enc.outputs:
        value = values[item.name]
        if not item.array:
            lines.append(f"{item.name} = {show(value)};")
            continue
        ann = next(a for a in item.anns if isinstance(a, Call) and a.name == "output_array")
        dims = [(d.intervals[0][0], d.intervals[-1][1]) if d.intervals else (1, 0) for d in ann.args[0]]
        ranges = ",".join(f"{lo}..{hi}" for lo, hi in dims)
        lines.append(f"{item.name} = array{len(dims)}d({ranges},[{','.join(map(show, flat(value)))}]);")
    return "\n".join(lines + ["----------"]) + "\n"


def solve_text(text: str, all_solutions: bool, limit: int, time_limit: float | None,
               stats: bool) -> str:
    """Run FlatZinc ``text`` and return what a FlatZinc solver prints."""
    start = time.monotonic()
    core = Core(parse(text))
    try:
        budget = Budget(None)
        if time_limit is not None:
            budget.deadline = time.monotonic() + time_limit
        goal = core.enc.goal
        out: list[str] = []
        if goal == "satisfy":
            for model in core.solutions([], 0 if all_solutions else limit, budget):
                out.append(_render(core, model))
        else:
            last = None
            for model in core.optimum(goal, budget):
                last = model
                if all_solutions:
                    out.append(_render(core, model))
            if last is not None and not all_solutions:
                out.append(_render(core, last))
        if core.finished:
            out.append("==========\n" if out else "=====UNSATISFIABLE=====\n")
        elif not out:
            out.append("=====UNKNOWN=====\n")
        if stats:
            out.append(f"%%%mzn-stat: failures={core.conflicts}\n"
                       f"%%%mzn-stat: solveTime={time.monotonic() - start:.4f}\n%%%mzn-stat-end\n")
        return "".join(out)
    finally:
        core.close()


def run_args(args: Sequence[str]) -> tuple[str, str, int]:
    """Run what a FlatZinc solver's command line asks (flags and one file, ``-`` for
    standard input): ``(stdout, stderr, exit code)``."""
    label = "sat"
    try:
        opts, rest = parse_flags(args, runner=NAME, flags=STD_FLAGS)
        if len(rest) != 1:
            raise FznError("usage: python -m puzzle_engine.solving.sat [flags] MODEL.fzn")
        label = rest[0]
        text = sys.stdin.read() if label == "-" else Path(label).read_text()
        return solve_text(text, opts.all_solutions, opts.limit, opts.time_limit, opts.stats), "", 0
    except FznError as exc:  # (the file is a temporary one MiniZinc wrote: not named)
        return "", f"Error: the flattened model, {exc}\n", 1
    except OSError as exc:
        return "", f"Error: {label}: {exc}\n", 1


def main(argv: Sequence[str] | None = None) -> int:
    processes.handle_signals()
    try:
        out, err, code = run_args(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt as exc:
        return processes.exit_code(exc)
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code


# -- registering with MiniZinc and the engine ----------------------------------------------

def solver_config() -> dict[str, Any]:
    return registration.solver_config(
        SOLVER_ID, NAME,
        "CaDiCaL through python-sat, on puzzle-engine's CNF encoding of FlatZinc",
        "python-sat", "sat", ["sat", "cdcl", "int"], list(STD_FLAGS))


def register() -> Path | None:
    """Register the SAT back end as a MiniZinc solver (``registration.register``); None
    when python-sat is missing or no directory can be written."""
    if not available():
        return None
    return registration.register(solver_config(), "puzzle_engine.solving.sat", "sat")


if __name__ == "__main__":
    sys.exit(main())
