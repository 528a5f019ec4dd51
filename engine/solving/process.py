"""The process back end's session: Gecode, Chuffed or any MiniZinc solver with a FlatZinc
executable, asked one question per run of that executable."""
from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path

from .. import processes
from ..errors import SolverError
from ..types import Board
from .compiled import FlatModel
from .discovery import first_line
from .results import MARKERS, Run, read_stats
from .session import SessionBase, literal


class ProcessSession(SessionBase):
    """A session on a solver run as a process (Gecode, Chuffed): the model flattened once;
    each question writes the FlatZinc with its givens and added constraints to a file and
    runs the solver's FlatZinc executable on it. Nothing is learnt between questions; a
    question costs a process start (docs/solvers.md)."""

    def __init__(self, backend, flat: FlatModel):
        self.backend = backend
        self._dir = processes.temp_dir()
        lines = flat.lines
        self._decision = flat.decision
        self._ptype_name = flat.ptype
        self._flat = flat
        # A name per square: a FlatZinc variable, or a literal where flattening fixed it.
        self._names = flat.names()
        self._shape = flat.shape
        solve_at = next(i for i, ln in enumerate(lines) if ln.startswith("solve"))
        # FlatZinc declares every variable before the first constraint; run() adds its own
        # variables at that point.
        cons_at = next((i for i, ln in enumerate(lines[:solve_at]) if ln.startswith("constraint")),
                       solve_at)
        self._decls = lines[:cons_at]
        # The declarations of the decision variables with an interval domain: a given in
        # that interval narrows the declaration (var v..v), which the solvers read faster
        # than an extra int_eq constraint (Chuffed: about 15% per 9x9 check).
        wanted = set(self._names)
        self._domains: dict[str, tuple[int, int, int, str]] = {}
        for item in flat.declarations:
            dom = item.type[1] if item.kind == "var" and not item.array else None
            if item.name in wanted and dom is not None and len(dom.intervals) == 1:
                k = item.line - 1
                rest = lines[k].partition(f": {item.name}")[2]
                self._domains[item.name] = (k, *dom.intervals[0], rest)
        self._head = "\n".join(lines[cons_at:solve_at]) + "\n"
        self._solve = lines[solve_at]
        self._tail = "\n".join(lines[solve_at + 1:]) + "\n"
        self._ids = itertools.count()  # a file per run, so that threads may share the model
        self._arrays: dict[str, list[str]] = {}  # FlatZinc names of arrays that runs fix
        # The flattened model fails outright (e.g. SAC probing refuted it).
        self.failed = flat.failed

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
            if literal(name):  # flattening fixed this square: a different given fails
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
            free = [i for i in stages if not board[i] and not literal(self._names[i])]
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
            free = [i for i in at if not board[i] and not literal(self._names[i])]
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
            names = [self._names[i] for i in order if not literal(self._names[i])]
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
        if code != 0 and found == 0 and not any(m in stdout for m in MARKERS):
            message = first_line(stderr + stdout).replace(str(path), "the flattened model") \
                .replace(self._dir.name, "a temporary folder")
            raise SolverError(f"{backend.info.name} failed on puzzle '{self._ptype_name}': {message}")
        if stages is not None:
            values = [ln for ln in stdout.splitlines() if ln.startswith("PE_STAGE = ")]
            stage = int(values[-1][len("PE_STAGE = "):].rstrip(";")) if values else None
            return Run(found, any(m in stdout for m in MARKERS), {}, None, stage)
        complete = found >= limit or any(m in stdout for m in MARKERS)
        first = _first_solution(stdout, self._decision) if solution and found else None
        boards = tuple(_solutions(stdout, self._decision)) if every else ()
        return Run(found, complete, read_stats(stdout) if stats else {}, first, every=boards)

    def _fixes(self, name: str, values: Sequence[int]) -> str:
        """FlatZinc constraints that fix the model's integer array ``name`` to ``values``."""
        names = self._arrays.get(name)
        if names is None:
            names = self._arrays[name] = self._flat.names(name)
        if len(values) != len(names):
            raise ValueError(f"array '{name}' has {len(names)} elements, not {len(values)}")
        out = []
        for var, v in zip(names, values):
            if literal(var):  # flattening fixed it already: another value fails
                if int(var) != v:
                    out.append("constraint bool_eq(false,true);")
            else:
                out.append(f"constraint int_eq({var},{int(v)});")
        return "".join(line + "\n" for line in out)

    def close(self) -> None:
        self._dir.cleanup()





def _first_solution(stdout: str, decision: str) -> Board | None:
    return next(_solutions(stdout, decision), None)


def _solutions(stdout: str, decision: str):
    """Each solution's ``decision`` array, in the order the solver printed them."""
    prefix = f"{decision} = "
    for line in stdout.splitlines():
        if line.startswith(prefix) and "[" in line:
            inside = line[line.index("[") + 1:line.rindex("]")]
            yield tuple(int(v) for v in inside.split(",") if v.strip())
