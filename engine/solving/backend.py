"""The solver backend: the only module that talks to MiniZinc.

Two paths:

* ``Backend.solve`` runs a whole model through the minizinc Python API (compile + solve).
* ``Backend.compile`` flattens a model to FlatZinc once; ``CompiledModel.count`` then
  fixes the givens by appending ``int_eq`` constraints and runs the solver's FlatZinc
  executable directly. GenPuzzles asks many questions of one puzzle that differ only
  in the givens, so this avoids re-flattening the model for each of them.

A solver time-out is reported as incomplete (*unknown*), never as an answer.
"""
from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import re
import shutil
import subprocess
import threading
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from .. import processes
from . import cpsat
from ..cache import cache_root, replace_atomically
from ..errors import ModelError, SolverError
from ..types import Board, Status

INSTALL_HINT = ("run 'bash scripts/setup.sh' from the puzzle-engine checkout, "
                "or 'apt-get install minizinc flatzinc' for MiniZinc and Gecode")


@dataclass(frozen=True)
class SolverInfo:
    id: str
    name: str
    version: str
    tags: tuple[str, ...]
    executable: str | None
    std_flags: tuple[str, ...]


@dataclass(frozen=True)
class SolveResult:
    """A whole solve: its ``Status``, the statistics, and for an optimisation model the
    best objective value found (``objective``)."""

    status: Status
    stats: Mapping[str, Any] = field(default_factory=dict)
    objective: Any = None

    @property
    def complete(self) -> bool:
        """The search finished: every solution, the proven optimum, or none."""
        return self.status in (Status.ALL, Status.OPTIMAL, Status.UNSAT)


def _minizinc_binary() -> str:
    path = shutil.which("minizinc")
    if path is None:
        raise SolverError(f"MiniZinc is not installed (no 'minizinc' on PATH): {INSTALL_HINT}")
    return path


@functools.lru_cache(maxsize=1)
def installed_solvers() -> tuple[SolverInfo, ...]:
    """The solvers MiniZinc reports (``minizinc --solvers-json``), CP-SAT among them when
    OR-Tools is installed (``cpsat.register`` puts its configuration on MiniZinc's path)."""
    cpsat.register()
    proc = processes.run_minizinc([_minizinc_binary(), "--solvers-json"])
    if proc.returncode != 0:
        raise SolverError(f"'minizinc --solvers-json' failed: {_first_line(proc.stderr)}")
    infos = []
    for s in json.loads(proc.stdout):
        extra = s.get("extraInfo") or {}
        infos.append(SolverInfo(id=s["id"], name=s.get("name", s["id"]), version=s.get("version", "?"),
                                tags=tuple(s.get("tags", ())),
                                executable=extra.get("executable") or s.get("executable"),
                                std_flags=tuple(s.get("stdFlags", ()))))
    return tuple(infos)


def find_solver(name: str) -> SolverInfo:
    """A solver by full id (``org.gecode.gecode``), last id part (``gecode``) or tag."""
    solvers = installed_solvers()
    key = name.lower()
    for match in (lambda s: s.id.lower() == key,
                  lambda s: s.id.lower().rsplit(".", 1)[-1] == key,
                  lambda s: key in s.tags):
        found = [s for s in solvers if match(s)]
        if found:
            return found[0]
    hint = INSTALL_HINT if key == "gecode" else (
        "run 'bash scripts/setup.sh', which builds Chuffed" if key == "chuffed"
        else "install it as a MiniZinc solver configuration")
    raise SolverError(f"solver '{name}' is not installed ('puzzle-engine solvers' lists the "
                      f"installed ones; {hint})")


def _first_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("Warning")]
    errors = [ln for ln in lines if "rror" in ln]
    return (errors or lines or ["no message"])[0]


_STATUS = {"SATISFIED": Status.SAT, "ALL_SOLUTIONS": Status.ALL,
           "OPTIMAL_SOLUTION": Status.OPTIMAL, "UNSATISFIABLE": Status.UNSAT,
           "UNKNOWN": Status.UNKNOWN}
GOALS = ("satisfy", "maximize", "minimize")


def default_check_flags(info: SolverInfo) -> tuple[str, ...]:
    """The flags a solver's uniqueness checks run with unless configured: free search
    (``-f``) on a solver that learns (tag ``lcg``: Chuffed, which alternates the model's
    search with activity-based search, and CP-SAT, which uses its own search); else none
    (Gecode's checks keep the model's search: its ``-f`` and restarts did not help).
    Chuffed's other searches measured worse: ``--vsids`` took 150 s, against 0.16 s, to
    find a second solution of an empty 6x6 board of one built-in type, and
    ``--switch-to-vsids-after`` answered "unique" for a 16x16 board that is not
    (docs/solvers.md)."""
    return ("-f",) if "lcg" in info.tags and "-f" in info.std_flags else ()


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
        """
        import minizinc
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
        goal = goal or (ptype.sense if ptype.objective else None)
        if goal not in (None, *GOALS):
            raise ValueError(f"goal {goal!r}")
        optimising = ptype.objective is not None and goal != "satisfy"
        if ptype.objective is not None:  # the type's model has no solve item
            extra = [*extra, f"solve {goal} {ptype.objective};" if optimising
                     else "solve satisfy;"]
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
            raise ModelError(_model_error(ptype, exc, labels)) from None
        finally:
            folder.cleanup()
        status = _STATUS.get(result.status.name, Status.UNKNOWN)
        sols = result.solution or []
        if not isinstance(sols, list):
            sols = [sols]
        raw = [{k: v for k, v in vars(s).items() if not k.startswith("_")} for s in sols]
        objective = None
        if optimising and raw:
            objective = raw[-1].get("objective", raw[-1].get(ptype.objective))
            raw = raw[-1:]  # the best one
        return SolveResult(status=status, stats=dict(result.statistics), objective=objective), raw

    # -- compile once, then check many times -------------------------------------------
    def compile(self, ptype, data: Mapping[str, Any], extra: Sequence[str] = (),
                flags: Sequence[str] = (), cache: bool = True) -> CompiledModel:
        """Flatten once. ``flags`` go to the MiniZinc compiler, e.g. ``("-O5",)`` for
        singleton-arc-consistency probing of the root while flattening. ``cache=False``
        keeps the FlatZinc out of the cache between processes: for data that is seldom
        met again (a growing level's random board), which would only fill the disk."""
        return CompiledModel(self, ptype, data, extra, flags, cache)


@functools.lru_cache(maxsize=1)
def _driver():
    """minizinc-python's driver, on a ``minizinc`` that is signalled to stop (and to stop
    its solver) when this process dies."""
    import minizinc
    return minizinc.Driver(processes.guarded_executable(_minizinc_binary()))


def model_files(ptype, extra: Sequence[str], folder: Path) -> tuple[list[str], dict[str, str]]:
    """The model's files, inline parts written into ``folder``, and a label for each file
    an error may name: a plugin's file by its path, an inline part by what it is, never by
    a temporary path the user cannot open."""
    files, labels = [], {}
    for i, part in enumerate(list(ptype.models) + list(extra)):
        if isinstance(part, str):
            path = folder / f"part{i}.mzn"
            path.write_text(part)
            labels[str(path)] = (f"the inline model of puzzle '{ptype.name}' (part {i + 1})"
                                 if i < len(ptype.models) else "the engine's added constraints")
        else:
            path = part
            labels[str(path)] = str(path)
        files.append(str(path))
    labels[str(folder / "data.json")] = f"the data of puzzle '{ptype.name}'"
    return files, labels


def _model_error(ptype, exc: Exception, labels: Mapping[str, str]) -> str:
    loc = getattr(exc, "location", None)
    where = ""
    if loc is not None and getattr(loc, "file", None):
        line = loc.lines[0] if getattr(loc, "lines", None) else "?"
        where = f" at {labels.get(str(loc.file), 'a generated file')}, line {line}"
    message = " ".join(str(getattr(exc, "message", exc)).split())
    return f"model error in puzzle '{ptype.name}'{where}: {message}"


def _compile_error(ptype, stderr: str, labels: Mapping[str, str]) -> str:
    """MiniZinc's compile error as one line, its place named by ``labels``."""
    where = ""
    for line in stderr.splitlines():
        m = re.match(r"^(/\S+?):(\d+)(?:\.\d+(?:-\d+)?)?\b", line.strip())
        if m:
            where = f" at {labels.get(m.group(1), 'a generated file')}, line {m.group(2)}"
            break
    message = _first_line(stderr)
    for path, label in labels.items():
        message = message.replace(path, label)
    return f"model error in puzzle '{ptype.name}'{where}: {message}"


_MARKERS = ("==========", "=====UNSATISFIABLE=====")


@dataclass(frozen=True)
class Run:
    """One run of a compiled model: solutions found (up to the limit), whether that count
    is definite (False on a time-out), the solver's statistics (``nodes``, ``failures``,
    ``propagations``, ``peakDepth``... as numbers) and the first solution's board."""

    found: int
    complete: bool
    stats: Mapping[str, float]
    first: Board | None = None
    stage: int | None = None  # with ``stages``: the least stage with a solution (None: none)
    every: tuple[Board, ...] = ()  # with ``every``: each solution's decision array


def _stats(stdout: str) -> dict[str, float]:
    stats = {}
    for line in stdout.splitlines():
        if line.startswith("%%%mzn-stat:") and "=" in line:
            key, _, value = line[12:].strip().partition("=")
            try:
                stats[key] = float(value)
            except ValueError:
                pass
    return stats


class CompiledModel:
    """A model flattened to FlatZinc once, with the decision array's FlatZinc names."""

    def __init__(self, backend: Backend, ptype, data: Mapping[str, Any],
                 extra: Sequence[str], flags: Sequence[str] = (), cache: bool = True):
        self.backend = backend
        self._dir = processes.temp_dir()
        tmp = Path(self._dir.name)
        files, labels = model_files(ptype, extra, tmp)
        (tmp / "data.json").write_text(json.dumps(dict(data)))
        fzn = tmp / "model.fzn"
        cached = _fzn_cache_path(backend, files, data, flags) if cache else None
        if cached is not None and cached.is_file():
            shutil.copyfile(cached, fzn)
            stdout = ""
        else:
            proc = processes.run_minizinc([_minizinc_binary(), "--solver", backend.info.id,
                                           *flags, "-c", *files, str(tmp / "data.json"),
                                           "--fzn", str(fzn), "--ozn", os.devnull])
            if proc.returncode != 0:
                raise ModelError(_compile_error(ptype, proc.stderr, labels))
            stdout = proc.stdout
            if cached is not None and "=====UNSATISFIABLE=====" not in stdout:
                _store(fzn, cached)
        lines = fzn.read_text().splitlines()
        self._decision = ptype.decision
        self._ptype_name = ptype.name
        # A name per square: a FlatZinc variable, or a literal where flattening fixed it.
        self._names = _decision_names(lines, ptype.decision, ptype.name)
        self._shape = _output_shape(lines, ptype.decision)
        solve_at = next(i for i, ln in enumerate(lines) if ln.startswith("solve"))
        # FlatZinc declares every variable before the first constraint; run() adds its own
        # variables at that point.
        cons_at = next((i for i, ln in enumerate(lines[:solve_at]) if ln.startswith("constraint")),
                       solve_at)
        self._decls = lines[:cons_at]
        # The declarations of the decision variables with an interval domain: a given in
        # that interval narrows the declaration (var v..v), which the solvers read faster
        # than an extra int_eq constraint (Chuffed: about 15% per 9x9 check).
        decl = re.compile(r"^var (-?\d+)\.\.(-?\d+): ([A-Za-z_][A-Za-z0-9_]*)(.*)$")
        wanted = set(self._names)
        self._domains: dict[str, tuple[int, int, int, str]] = {}
        for k, ln in enumerate(self._decls):
            m = decl.match(ln)
            if m and m.group(3) in wanted:
                self._domains[m.group(3)] = (k, int(m.group(1)), int(m.group(2)), m.group(4))
        self._head = "\n".join(lines[cons_at:solve_at]) + "\n"
        self._solve = lines[solve_at]
        self._tail = "\n".join(lines[solve_at + 1:]) + "\n"
        self._ids = itertools.count()  # a file per run, so that threads may share the model
        self._arrays: dict[str, list[str]] = {}  # FlatZinc names of arrays that runs fix
        # The flattened model fails outright (e.g. SAC probing refuted it).
        self.failed = any(ln.strip() == "constraint bool_eq(false,true);" for ln in lines) or \
            "=====UNSATISFIABLE=====" in stdout

    @property
    def squares(self) -> int:
        return len(self._names)

    def unfixed(self) -> list[int]:
        """The squares that flattening left as variables (the rest are literals)."""
        return [i for i, name in enumerate(self._names) if not _literal(name)]

    def count(self, board: Board, limit: int, differs: Board | None = None,
              differs_at: Sequence[int] | None = None) -> tuple[int, bool]:
        """Solutions of the compiled model with ``board``'s givens fixed, up to ``limit``
        (the other parameters as in ``run``). Returns ``(count, complete)``; ``complete``
        is False on a time-out."""
        run = self.run(board, limit, differs=differs, differs_at=differs_at)
        return run.found, run.complete

    def run(self, board: Board, limit: int = 1, order: Sequence[int] | None = None,
            stats: bool = False, solution: bool = False, differs: Board | None = None,
            differs_at: Sequence[int] | None = None, stages: Mapping[int, int] | None = None,
            arrays: Mapping[str, Sequence[int]] | None = None, every: bool = False) -> Run:
        """Run the solver with ``board``'s givens fixed.

        :param order: when given, the search branches on these squares in this order
            (``input_order``, smallest value first) instead of the model's annotation.
        :param stats: ask the solver for its statistics (``-s``).
        :param solution: parse the first solution's board.
        :param differs: a full board that agrees with ``board``'s givens; only solutions
            that differ from it on some empty square count (the paper's S' != P_I).
        :param differs_at: with ``differs``, the empty squares where a solution must
            differ (default: all of them). The caller's to justify: see ``Checker``.
        :param stages: with ``differs``, instead of ``differs_at``: a stage (0, 1, ...) per
            empty square where a solution may differ. The solver minimises the latest stage
            of a square where the solution differs from ``differs``; ``Run.stage`` is that
            least stage, or None when no solution differs. The squares of stages up to s
            are the empty squares of the s-th of a run of nested boards, so this finds the
            first of them with a second solution in one call.
        :param arrays: values for other integer arrays of the model, by name: the open
            data of a type's ``split_data``, fixed for this run only.
        :param every: parse every solution's decision array (``Run.every``).
        """
        if len(board) != len(self._names):
            raise ValueError(f"board has {len(board)} squares, model has {len(self._names)}")
        decl_lines = list(self._decls)
        fixed: dict[str, int] = {}
        fixes = ""
        for i, v in enumerate(board):
            name = self._names[i]
            if not v:
                continue
            if _literal(name):  # flattening fixed this square: a different given fails
                if int(name) != v:
                    fixes += "constraint bool_eq(false,true);\n"
                continue
            dom = self._domains.get(name)
            if dom is not None and dom[1] <= v <= dom[2] and fixed.setdefault(name, v) == v:
                decl_lines[dom[0]] = f"var {v}..{v}: {name}{dom[3]}"
            else:  # outside the domain, or a second value for the same variable: fails
                fixes += f"constraint int_eq({name},{v});\n"
        for name, values in (arrays or {}).items():
            fixes += self._fixes(name, values)
        decls = ""
        solve = self._solve
        if stages is not None:
            if differs is None or not solve.rstrip().endswith("satisfy;"):
                raise ValueError("stages need differs and a satisfaction model")
            free = [i for i in stages if not board[i] and not _literal(self._names[i])]
            top = max([stages[i] for i in free], default=0)
            decls = f"var 0..{top}: PE_STAGE:: output_var;\n" + "".join(
                f"var bool: PE_DIFF_{i}:: var_is_introduced;\nvar bool: PE_LATE_{i}:: var_is_introduced;\n"
                for i in free)
            for i in free:
                fixes += (f"constraint int_ne_reif({self._names[i]},{differs[i]},PE_DIFF_{i});\n"
                          f"constraint int_le_reif({stages[i]},PE_STAGE,PE_LATE_{i});\n"
                          f"constraint bool_clause([PE_LATE_{i}],[PE_DIFF_{i}]);\n")
            fixes += (f"constraint array_bool_or([{','.join(f'PE_DIFF_{i}' for i in free)}],true);\n"
                      if free else "constraint bool_eq(false,true);\n")
            solve = solve.rstrip()[:-len("satisfy;")] + "minimize PE_STAGE;"
        elif differs is not None:
            at = range(len(board)) if differs_at is None else differs_at
            free = [i for i in at if not board[i] and not _literal(self._names[i])]
            if len(free) == 1:  # the common case in GenPuzzles: a plain disequality
                fixes += f"constraint int_ne({self._names[free[0]]},{differs[free[0]]});\n"
            elif free:
                decls = "".join(f"var bool: PE_DIFF_{i}:: var_is_introduced;\n" for i in free)
                fixes += "".join(f"constraint int_ne_reif({self._names[i]},{differs[i]},PE_DIFF_{i});\n"
                                 for i in free)
                fixes += f"constraint array_bool_or([{','.join(f'PE_DIFF_{i}' for i in free)}],true);\n"
            else:
                fixes += "constraint bool_eq(false,true);\n"
        if order is not None:
            names = [self._names[i] for i in order if not _literal(self._names[i])]
            solve = (f"solve :: int_search([{','.join(names)}],input_order,indomain_min,complete) "
                     "satisfy;" if names else "solve satisfy;")
        path = Path(self._dir.name) / f"run{next(self._ids)}.fzn"
        path.write_text("\n".join(decl_lines) + "\n" + decls + self._head + fixes + solve + "\n"
                        + self._tail)
        backend = self.backend
        backend.count_call()
        flags = ["-f"] if backend.free_search and order is None else []
        if differs is not None and order is None and backend.check_flags:
            flags = list(backend.check_flags)  # a check's own search, in place of -f
        if stats:
            flags.append("-s")
        count = ["-a"] if stages is not None else ["-n", str(limit)]
        try:
            done = backend.run_fzn([*flags, *count], path)
        finally:
            path.unlink(missing_ok=True)
        if done is None:
            return Run(0, False, {})
        stdout, stderr, code = done
        found = sum(1 for ln in stdout.splitlines() if ln == "----------")
        if code != 0 and found == 0 and not any(m in stdout for m in _MARKERS):
            message = _first_line(stderr + stdout).replace(str(path), "the flattened model") \
                .replace(self._dir.name, "a temporary folder")
            raise SolverError(f"{backend.info.name} failed on puzzle '{self._ptype_name}': {message}")
        if stages is not None:
            values = [ln for ln in stdout.splitlines() if ln.startswith("PE_STAGE = ")]
            stage = int(values[-1][len("PE_STAGE = "):].rstrip(";")) if values else None
            return Run(found, any(m in stdout for m in _MARKERS), {}, None, stage)
        complete = found >= limit or any(m in stdout for m in _MARKERS)
        first = _first_solution(stdout, self._decision) if solution and found else None
        boards = tuple(_solutions(stdout, self._decision)) if every else ()
        return Run(found, complete, _stats(stdout) if stats else {}, first, every=boards)

    def _fixes(self, name: str, values: Sequence[int]) -> str:
        """FlatZinc constraints that fix the model's integer array ``name`` to ``values``."""
        names = self._arrays.get(name)
        if names is None:
            names = self._arrays[name] = _decision_names(self._decls, name, self._ptype_name)
        if len(values) != len(names):
            raise ValueError(f"array '{name}' has {len(names)} elements, not {len(values)}")
        out = []
        for var, v in zip(names, values):
            if _literal(var):  # flattening fixed it already: another value fails
                if int(var) != v:
                    out.append("constraint bool_eq(false,true);")
            else:
                out.append(f"constraint int_eq({var},{int(v)});")
        return "".join(line + "\n" for line in out)

    def shaped(self, board: Board) -> Any:
        """A decision array as MiniZinc writes it: nested lists for 2-D and more."""
        return _reshape(list(board), self._shape)

    def close(self) -> None:
        self._dir.cleanup()


CACHE_ENV = "PUZZLE_ENGINE_FZN_CACHE"


def _fzn_cache_path(backend: Backend, files: Sequence[str], data: Mapping[str, Any],
                    flags: Sequence[str]) -> Path | None:
    """Where the FlatZinc of this compile is kept between processes, or None when the
    cache is off (``PUZZLE_ENGINE_FZN_CACHE=off``). The key covers the model files'
    text, the data, the flags, the solver (id, version, executable) and the MiniZinc
    binary (path, size, modification time), so any change compiles afresh."""
    where = os.environ.get(CACHE_ENV, "")
    if where.lower() == "off":
        return None
    root = Path(where) if where else cache_root() / "fzn"
    binary = _minizinc_binary()
    st = os.stat(binary)
    info = backend.info
    key = json.dumps([[Path(f).read_text() for f in files], dict(data), list(flags), info.id,
                      info.version, info.executable, binary, st.st_size, st.st_mtime_ns],
                     sort_keys=True, default=str)
    return root / f"{hashlib.sha256(key.encode()).hexdigest()}.fzn"


def _store(fzn: Path, cached: Path) -> None:
    """Copy ``fzn`` into the cache atomically; a cache that cannot be written is skipped."""
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        replace_atomically(cached, lambda part: shutil.copyfile(fzn, part))
    except OSError:
        pass


def _literal(name: str) -> bool:
    return name.lstrip("-").isdigit()


def _first_solution(stdout: str, decision: str) -> Board | None:
    return next(_solutions(stdout, decision), None)


def _solutions(stdout: str, decision: str):
    """Each solution's ``decision`` array, in the order the solver printed them."""
    prefix = f"{decision} = "
    for line in stdout.splitlines():
        if line.startswith(prefix) and "[" in line:
            inside = line[line.index("[") + 1:line.rindex("]")]
            yield tuple(int(v) for v in inside.split(",") if v.strip())


def _output_shape(lines: list[str], decision: str) -> tuple[int, ...]:
    """The index set sizes of the ``decision`` array's ``output_array`` annotation."""
    pattern = re.compile(rf"^array \[[^\]]*\] of var [^:]*: {re.escape(decision)}\s*::"
                         r".*?output_array\(\[([^\]]*)\]\)")
    for ln in lines:
        m = pattern.match(ln)
        if m:
            sizes = []
            for part in m.group(1).split(","):
                lo, _, hi = part.strip().partition("..")
                sizes.append(int(hi) - int(lo) + 1)
            return tuple(sizes)
    return ()


def _reshape(flat: list[Any], shape: tuple[int, ...]) -> Any:
    if len(shape) <= 1:
        return flat
    step = len(flat) // shape[0]
    return [_reshape(flat[i:i + step], shape[1:]) for i in range(0, len(flat), step)]


def _decision_names(lines: list[str], decision: str, ptype: str) -> list[str]:
    pattern = re.compile(rf"^array \[[^\]]*\] of var [^:]*: {re.escape(decision)}\s*::.*= \[(.*)\];$")
    for ln in lines:
        m = pattern.match(ln)
        if m:
            return [x.strip() for x in m.group(1).split(",")]
    raise ModelError(f"model error in puzzle '{ptype}': decision array '{decision}' "
                     "is not an output array of the model")
