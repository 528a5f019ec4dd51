"""The solver back end: one solver chosen by configuration, with a time limit, and the two
ways the engine asks it questions.

* ``Backend.solve`` runs a whole model through the minizinc Python API (compile + solve).
* ``Backend.compile`` flattens a model once (``compiled``, through the FlatZinc cache) and
  opens a ``Session`` on it (``session``): the back end's own session when it solves in
  this process, else a ``ProcessSession`` that runs the solver's FlatZinc executable per
  question.

A solver time-out is reported as incomplete (*unknown*), never as an answer.
"""
from __future__ import annotations

import functools
import subprocess
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

from .. import processes
from ..errors import ModelError, SolverError
from ..types import Status
from . import cpsat, flatzinc, sat
from .compiled import FlatModel, flatten, model_error, model_files
from .discovery import default_check_flags, find_solver, minizinc_binary
from .process import ProcessSession
from .results import GOALS, STATUS, SolveResult
from .session import Session, WholeSession

#: The back ends that answer a session's questions in this process, by solver id: each
#: opens its session on a flattened model. Any other solver gets a ``ProcessSession``.
IN_PROCESS: dict[str, Callable[[Backend, FlatModel], Session]] = {}


def _cpsat_session(backend: Backend, flat: FlatModel) -> Session:
    from .cpsat_session import CpsatSession  # (imports OR-Tools: only when used)
    return CpsatSession(backend, flat)


def _sat_session(backend: Backend, flat: FlatModel) -> Session:
    from .sat import SatSession  # (imports python-sat and the encoder: only when used)
    return SatSession(backend, flat)


IN_PROCESS[cpsat.SOLVER_ID] = _cpsat_session
IN_PROCESS[sat.SOLVER_ID] = _sat_session


class Backend:
    """One solver, with an optional time limit per call (seconds)."""

    def __init__(self, solver: str = "gecode", time_limit: float | None = None,
                 free_search: bool = False, check_flags: Sequence[str] | None = None):
        self.info = find_solver(solver)
        if not self.info.executable or "-n" not in self.info.std_flags:
            raise SolverError(f"solver '{solver}' ({self.info.id}) cannot run puzzle models "
                              "(it needs a FlatZinc executable that supports -n)")
        self.time_limit = time_limit
        # Free search (-f), where the solver supports it; ignored where it does not.
        self.free_search = bool(free_search) and "-f" in self.info.std_flags
        # Extra flags for uniqueness checks (runs with ``differs``): the configured ones
        # (``check_flags`` in the config file), else the solver's default below. A check's
        # answer does not depend on the search, only its time does.
        self.check_flags = tuple(check_flags) if check_flags is not None else \
            default_check_flags(self.info)
        self.calls = 0
        self._calls_lock = threading.Lock()  # checks may run in threads (--probes, grade --jobs)

    def count_call(self) -> None:
        with self._calls_lock:
            self.calls += 1

    @property
    def solver_id(self) -> str:
        return self.info.id

    def run_fzn(self, args: Sequence[str], path: Path) -> tuple[str, str, int] | None:
        """Run the solver's FlatZinc executable on ``path`` with ``args``: ``(stdout,
        stderr, exit code)``, or None on a time-out. CP-SAT runs in this process (starting
        it as a program costs half a second, more than most checks), with the same
        output; its time limit is its own ``-t``."""
        if self.info.id == cpsat.SOLVER_ID:
            processes.check_stopping()  # (run_solver checks for the others)
            limit = ["-t", str(max(1, round(self.time_limit * 1000)))] if self.time_limit else []
            return cpsat.run_file(path, [*args, *limit])
        try:
            proc = processes.run_solver([self.info.executable, *args, str(path)],
                                        timeout=self.time_limit)
        except subprocess.TimeoutExpired:
            return None
        return proc.stdout, proc.stderr, proc.returncode

    # -- whole solves through the Python API -----------------------------------------
    def solve(self, ptype, data: Mapping[str, Any], nr_solutions: int = 1,
              extra: Sequence[str] = (), goal: str | None = None
              ) -> tuple[SolveResult, list[dict[str, Any]]]:
        """Solve ``ptype``'s model with ``data``; return the result and the raw solutions
        (dicts of output variable to value).

        :param nr_solutions: solutions wanted (0: all) of a satisfaction model.
        :param goal: for a type that declares an ``objective``, ``"satisfy"`` drops it;
            by default the type's ``sense`` (``maximize``/``minimize``) is solved, and
            the status is ``OPTIMAL`` once the optimum is proven.

        A back end that solves in this process (``IN_PROCESS``, with ``outputs``) solves
        the model flattened through the FlatZinc cache, in a session: no ``minizinc``
        process once the compile is cached. The others run through minizinc-python.
        """
        goal = goal or (ptype.sense if ptype.objective else None)
        if goal not in (None, *GOALS):
            raise ValueError(f"goal {goal!r}")
        optimising = ptype.objective is not None and goal != "satisfy"
        if ptype.objective is not None:  # the type's model has no solve item
            extra = [*extra, f"solve {goal} {ptype.objective};" if optimising
                     else "solve satisfy;"]
        if self.info.id in IN_PROCESS and ptype.decision:
            json_data = _json_data(data)
            done = None if json_data is None else \
                self._solve_in_process(ptype, json_data, nr_solutions, extra, optimising)
            if done is not None:
                return done
        import minizinc  # lazy: minizinc-python loads only when a model goes through MiniZinc
        from minizinc.error import MiniZincError, MiniZincWarning

        # Debian's Gecode library redefines some globals the old way; MiniZinc warns on
        # every compile. It is packaging noise, not something a user can act on. So is
        # "model inconsistency detected": the compiler found the model unsatisfiable,
        # which the status says (UNSAT), and which some checks expect (a criterion asking
        # whether any solution keeps an added constraint).
        warnings.filterwarnings("ignore", message=".*(overrides a global constraint"
                                "|all_different_int. was deprecated|model inconsistency detected)",
                                category=MiniZincWarning)
        self.count_call()
        folder = processes.temp_dir()
        files, labels = model_files(ptype, extra, Path(folder.name))
        try:
            model = minizinc.Model()
            for path in files:
                model.add_file(Path(path), parse_data=False)
            driver = _driver()
            instance = minizinc.Instance(minizinc.Solver.lookup(self.info.id, driver=driver),
                                         model, driver=driver)
            for key, value in data.items():
                instance[key] = value
            # At least 1 ms: MiniZinc reads a limit that rounds to 0 ms as no limit at all.
            limit = timedelta(milliseconds=max(1, round(self.time_limit * 1000))) \
                if self.time_limit else None
            many = {} if optimising else (
                {"all_solutions": True} if nr_solutions == 0 else {"nr_solutions": nr_solutions})
            result = instance.solve(time_limit=limit, free_search=self.free_search, **many)
        except MiniZincError as exc:
            raise ModelError(model_error(ptype, exc, labels)) from None
        finally:
            folder.cleanup()
        status = STATUS.get(result.status.name, Status.UNKNOWN)
        sols = result.solution or []
        if not isinstance(sols, list):
            sols = [sols]
        raw = [{k: v for k, v in vars(s).items() if not k.startswith("_")} for s in sols]
        objective = None
        if optimising and raw:
            objective = raw[-1].get("objective", raw[-1].get(ptype.objective))
            raw = raw[-1:]  # the best one
        return SolveResult(status=status, stats=dict(result.statistics), objective=objective), raw

    def _solve_in_process(self, ptype, data: Mapping[str, Any], nr_solutions: int,
                          extra: Sequence[str], optimising: bool
                          ) -> tuple[SolveResult, list[dict[str, Any]]] | None:
        """The whole solve in a session, or None when the FlatZinc does not hold the
        type's decision array (MiniZinc's output model computes it: only minizinc-python
        gives it)."""
        flat = flatten(self.info, ptype, data, extra)
        if flat.failed:  # the compiler proved it unsatisfiable
            return SolveResult(Status.UNSAT), []
        if flatzinc.output_array(flat.declarations, ptype.decision) is None:
            return None
        session = IN_PROCESS[self.info.id](self, flat)
        if not isinstance(session, WholeSession):  # (outputs is optional)
            session.close()
            return None
        try:
            goal = "satisfy"
            if optimising:
                goal = next(item.goal for item in flat.items if item.kind == "solve")
            return session.outputs(nr_solutions, goal)
        finally:
            session.close()

    # -- compile once, then check many times -------------------------------------------
    def compile(self, ptype, data: Mapping[str, Any], extra: Sequence[str] = (),
                flags: Sequence[str] = (), cache: bool = True) -> Session:
        """Flatten once and open a session on the flattened model. ``flags`` go to the
        MiniZinc compiler, e.g. ``("-O5",)`` for singleton-arc-consistency probing of the
        root while flattening. ``cache=False`` keeps the FlatZinc out of the cache between
        processes: for data that is seldom met again (a growing level's random board),
        which would only fill the disk."""
        opener = IN_PROCESS.get(self.info.id, ProcessSession)
        return opener(self, flatten(self.info, ptype, data, extra, flags, cache))


def _json_data(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """``data`` as MiniZinc's JSON data (Python sets as ``{"set": [...]}``), or None when
    it holds what JSON cannot say (then minizinc-python, which reads more, solves)."""
    def convert(v: Any) -> Any:
        if isinstance(v, (set, frozenset, range)):
            return {"set": sorted(v)}
        if isinstance(v, (list, tuple)):
            return [convert(x) for x in v]
        if isinstance(v, dict):
            return {str(k): convert(x) for k, x in v.items()}
        if v is None or isinstance(v, (bool, int, str)):
            return v
        raise TypeError(type(v).__name__)
    try:
        return {str(k): convert(v) for k, v in data.items()}
    except TypeError:
        return None


@functools.lru_cache(maxsize=1)
def _driver():
    """minizinc-python's driver, on a ``minizinc`` that is signalled to stop (and to stop
    its solver) when this process dies."""
    import minizinc  # lazy: as in Backend.solve
    return minizinc.Driver(processes.guarded_executable(minizinc_binary()))
