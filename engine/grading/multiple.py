"""Difficulty grading: the multiple method of paper 002 (section 5), generic over plugins.

A puzzle is solved ``runs`` times. Each run branches on the search variables the type
declares (``search_variables``: for a grid, its empty squares) in a different seeded
random order (``int_search(order, input_order, indomain_min)``), and the grader
averages the solver's search nodes. The puzzle is flattened once per pass; runs change only
the search annotation of the FlatZinc.

Pass 1 (strengthened): the model plus the plugin's implied constraints, flattened with
singleton-arc-consistency probing at the root (MiniZinc ``-O5``). If its mean is below the
cut-off (500 nodes), pass 2 (plain) runs the model as it is, without either, for a finer
figure, as paper 002 does. The grade records which pass produced it.

The grader also solves the puzzle once at each of the plugin's propagation levels and
records whether propagation alone solved it. ``levels.py`` turns all of this into levels.
"""
from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from .. import calls
from ..errors import PuzzleInputError, SolverError
from ..hookspecs import FlatBoard, PuzzleType
from ..types import Board, PropagationLevel

if TYPE_CHECKING:  # the solver backend is loaded by whoever makes the engine
    from ..solving.results import Run
    from ..solving.session import Session

STRENGTHENED, PLAIN = "strengthened", "plain"


@dataclass(frozen=True)
class GradeOptions:
    runs: int = 50          # R: solves per pass, each in its own random order
    cutoff: float = 500.0   # below this mean (pass 1), re-run without strengthening
    seed: int = 0           # the random orders come from random.Random(seed)
    strengthen: bool = True  # False: skip pass 1, grade on the plain model only
    jobs: int = 1           # solver processes at once
    steps: bool = False     # also explain the puzzle and add the step rating's features

    def check(self) -> None:
        if not 1 <= self.runs <= MAX_RUNS:
            raise PuzzleInputError(f"--runs must be from 1 to {MAX_RUNS}, not {self.runs}")
        if not 0 <= self.cutoff < math.inf:  # nan fails both
            raise PuzzleInputError(f"--cutoff must be a number of at least 0, not {self.cutoff}")
        if not 1 <= self.jobs <= MAX_JOBS:
            raise PuzzleInputError(f"--jobs must be from 1 to {MAX_JOBS}, not {self.jobs}")


#: Solver processes at once, and solves per pass; more is surely a slip.
MAX_JOBS = 64
MAX_RUNS = 10_000


@dataclass(frozen=True)
class PassStats:
    """The statistics of one pass over ``runs`` random orders."""

    runs: int
    mean_nodes: float
    sd_nodes: float
    se_nodes: float
    mean_failures: float
    mean_propagations: float
    mean_depth: float
    solved_by_flattening: bool = False  # SAC fixed every square: no search at all

    @classmethod
    def of(cls, runs: Sequence[Run], by_flattening: bool = False) -> PassStats:
        def col(key: str) -> list[float]:
            return [r.stats.get(key, 0.0) for r in runs]
        nodes = col("nodes")
        sd = statistics.stdev(nodes) if len(nodes) > 1 else 0.0
        return cls(runs=len(runs), mean_nodes=statistics.fmean(nodes), sd_nodes=sd,
                   se_nodes=sd / math.sqrt(len(nodes)), mean_failures=statistics.fmean(col("failures")),
                   mean_propagations=statistics.fmean(col("propagations")),
                   mean_depth=statistics.fmean(col("peakDepth")), solved_by_flattening=by_flattening)


@dataclass(frozen=True)
class LevelStats:
    """One solve at a propagation level, branching in board order."""

    root: bool      # propagation alone solved it (no branching)
    nodes: float
    failures: float


@dataclass
class Grade:
    """What the grader measured for one puzzle. ``mode`` names the pass whose figure is
    the grade (``mean_nodes`` ...)."""

    puzzle: str
    mode: str
    figure: PassStats
    strengthened: PassStats | None
    plain: PassStats | None
    levels: dict[str, LevelStats]
    solutions: int
    solution: Board
    plugin_features: dict[str, float]
    solver: str
    solver_version: str
    options: GradeOptions
    step_features: dict[str, float] = field(default_factory=dict)  # with GradeOptions.steps

    @property
    def mean_nodes(self) -> float:
        return self.figure.mean_nodes

    @property
    def ln_nodes(self) -> float:
        return math.log(max(self.figure.mean_nodes, 1.0))

    def solver_features(self) -> dict[str, float]:
        """The grader's measurements as features (logs of counts, which span decades)."""
        f = self.figure
        s = self.strengthened
        feats = {
            "ln_mean_nodes": self.ln_nodes,
            "ln_sd_nodes": math.log1p(f.sd_nodes),
            "ln_mean_failures": math.log1p(f.mean_failures),
            "ln_mean_propagations": math.log1p(f.mean_propagations),
            "mean_depth": f.mean_depth,
            "mode_strengthened": float(self.mode == STRENGTHENED),
            "ln_strengthened_nodes": math.log1p(s.mean_nodes) if s else float("nan"),
        }
        for name, lv in self.levels.items():
            feats[f"level_{name}_root"] = float(lv.root)
            feats[f"level_{name}_ln_nodes"] = math.log1p(lv.nodes)
        return feats

    def features(self) -> dict[str, float]:
        return {"solutions": float(self.solutions), **self.plugin_features, **self.solver_features(),
                **self.step_features}

    def to_json(self) -> dict[str, Any]:
        def stats(p: PassStats | None):
            return None if p is None else {k: round(v, 4) if isinstance(v, float) else v
                                           for k, v in asdict(p).items()}
        return {"puzzle": self.puzzle, "mode": self.mode, "runs": self.figure.runs,
                "mean_nodes": round(self.figure.mean_nodes, 4),
                "sd_nodes": round(self.figure.sd_nodes, 4), "se_nodes": round(self.figure.se_nodes, 4),
                "strengthened": stats(self.strengthened), "plain": stats(self.plain),
                "levels": {k: asdict(v) for k, v in self.levels.items()},
                "solver": self.solver, "solver_version": self.solver_version,
                "options": {"runs": self.options.runs, "cutoff": self.options.cutoff,
                            "seed": self.options.seed, "strengthen": self.options.strengthen,
                            "steps": self.options.steps},
                **({"steps": self.step_features} if self.step_features else {})}


class Grader:
    """Grades puzzles of one type and parameters. The plain model and the levels are
    flattened once (``Engine.compiled``) and shared by every puzzle graded."""

    def __init__(self, engine, ptype: PuzzleType, params: Mapping[str, Any],
                 options: GradeOptions = GradeOptions(),
                 rate_steps: Callable[[Any], dict[str, float]] | None = None):
        """``rate_steps``: the step rating's features of an instance, for ``options.steps``
        (``puzzle_engine.explain.rating.step_rater``; the caller passes it in)."""
        options.check()
        if options.steps and rate_steps is None:
            raise ValueError("GradeOptions.steps needs rate_steps, the step rating's features "
                             "of an instance (puzzle_engine.explain.rating.step_rater)")
        self.engine = engine
        self.ptype = ptype
        self.params = dict(params)
        self.options = options
        #: A grid's givens are fixed in a model flattened once for every puzzle; another
        #: type's instance is all in its data.
        self.grid = isinstance(ptype, FlatBoard)
        self.n = engine.board_size(ptype, params) if self.grid else None
        levels = calls.call(ptype, "propagation_levels", params=self.params)
        if not isinstance(levels, (list, tuple)) or not all(
                isinstance(lv, PropagationLevel) for lv in levels):
            raise calls.bad_result("propagation_levels", ptype, levels, "a list of PropagationLevel")
        self.levels: tuple[PropagationLevel, ...] = tuple(levels)
        self.implied = calls.call(ptype, "implied_constraints", params=self.params)
        if self.implied is not None and not isinstance(self.implied, str):
            raise calls.bad_result("implied_constraints", ptype, self.implied, "MiniZinc code or None")
        self._pool = ThreadPoolExecutor(options.jobs) if options.jobs > 1 else None
        self._rate_steps = rate_steps

    # -- models ---------------------------------------------------------------------------
    def _model(self, instance, extra_data: Mapping[str, Any] | None) -> Session:
        """A grid's model without givens (they are fixed per run), flattened once per
        engine and data: the plain pass and the levels of every puzzle share it."""
        base = (self.engine.checker_data(self.ptype, self.params, instance) if self.grid
                else self.engine.data(self.ptype, self.params, instance))
        return self.engine.compiled(self.ptype, {**base, **(extra_data or {})})

    def _fixed(self, instance, model: Session) -> Board:
        """What a run fixes: a grid's givens, nothing for another type."""
        return tuple(instance) if self.grid else (0,) * model.squares

    def _variables(self, instance, squares: int) -> list[int]:
        found = calls.call(self.ptype, "search_variables", params=self.params, instance=instance)
        if not isinstance(found, (list, tuple)) or not all(
                isinstance(i, int) and not isinstance(i, bool) and 0 <= i < squares for i in found):
            raise calls.bad_result("search_variables", self.ptype, found,
                                   f"a list of positions 0..{squares - 1}")
        return list(found)

    def _map(self, fn, items):
        return list(self._pool.map(fn, items)) if self._pool else [fn(x) for x in items]

    # -- grading --------------------------------------------------------------------------
    def grade(self, instance, label: str = "") -> Grade:
        if self.grid:
            instance = tuple(instance)
            if len(instance) != self.n:
                raise PuzzleInputError(f"the puzzle has {len(instance)} squares, not {self.n}")
        opts = self.options
        base = self._model(instance, None)
        board = self._fixed(instance, base)
        what = label or "the puzzle"
        if self.ptype.criterion == "unique":
            check = base.run(board, limit=2, solution=True)
            if not check.complete:
                raise SolverError(f"solver timed out checking that {what} has one solution "
                                  "(unknown; raise --time-limit)")
            if check.found != 1:
                found = "no solution" if check.found == 0 else "2 or more solutions"
                raise PuzzleInputError(f"{what} has {found}; only puzzles with exactly "
                                       "one solution can be graded")
            solution = check.first if self.grid else self.engine.unique_solution(
                self.ptype, self.params, instance, what)
        else:  # the type's own criterion (unique modulo a symmetry...) must accept it
            criterion = self.engine.criterion(self.ptype)
            verdict = criterion.judge(self.engine, self.ptype, self.params, instance)
            if verdict.accepted is None:
                raise SolverError(f"solver timed out judging {what} (unknown; raise --time-limit)")
            if not verdict.accepted:
                raise PuzzleInputError(f"{what} is refused by its criterion '{criterion.name}'; "
                                       "only accepted puzzles can be graded")
            solution = verdict.solution
        empty = self._variables(instance, base.squares)
        rng = random.Random(opts.seed)
        orders = [rng.sample(empty, len(empty)) for _ in range(opts.runs)]

        strengthened = plain = None
        if opts.strengthen:
            strengthened = self._strengthened(instance, orders, label)
        if strengthened is None or strengthened.mean_nodes < opts.cutoff:
            plain = self._runs(base, board, orders, label)
        mode = PLAIN if plain is not None else STRENGTHENED

        levels = {}
        for level in self.levels:
            run = self._model(instance, level.data).run(board, order=empty, stats=True)
            self._need_complete(run, f"propagation level '{level.name}'", label)
            depth = run.stats.get("peakDepth")
            root = depth == 0 if depth is not None else run.stats.get("nodes", 0) <= 1
            levels[level.name] = LevelStats(root=root, nodes=run.stats.get("nodes", 0.0),
                                            failures=run.stats.get("failures", 0.0))

        feats = self.engine.features(self.ptype, self.params, instance, solution=solution)
        info = self.engine.backend.info
        return Grade(puzzle=label, mode=mode, figure=plain or strengthened, strengthened=strengthened,
                     plain=plain, levels=levels, solutions=1, solution=solution,
                     plugin_features=dict(feats), solver=info.id, solver_version=info.version,
                     options=opts, step_features=self._rate_steps(instance) if opts.steps else {})

    def nodes(self, instance, runs: int) -> float:
        """The mean search nodes to a first solution over ``runs`` random orders, on the
        plain model: the multiple method's figure for a level that need not be unique
        (the growing strategy's ``--bias`` measures candidates by it). A type with
        ``split_data`` runs on its shared flattened model, with no compile per level."""
        split = None if self.grid else calls.split_data(self.ptype, self.params, instance,
                                                        self.engine.backend.info)
        if split is None:
            model, arrays = self._model(instance, None), None
        else:
            model, arrays = self.engine.split_model(self.ptype, split[0], split[2]), split[1]
        empty = self._variables(instance, model.squares)
        rng = random.Random(self.options.seed)
        orders = [rng.sample(empty, len(empty)) for _ in range(runs)]
        return self._runs(model, self._fixed(instance, model), orders, "", arrays).mean_nodes

    def _strengthened(self, instance, orders: list[list[int]], label: str) -> PassStats:
        """Pass 1: givens and implied constraints flattened with SAC probing (-O5)."""
        data = self.engine.data(self.ptype, self.params, instance)
        extra = [self.implied] if self.implied else []
        model = self.engine.backend.compile(self.ptype, data, extra, flags=("-O5",))
        board = self._fixed(instance, model)
        try:
            if not model.unfixed():
                # SAC fixed every square: every order is the same empty search, so one run
                # stands for all of them.
                run = model.run(board, order=[], stats=True)
                self._need_complete(run, "the strengthened pass", label)
                return PassStats.of([run] * len(orders), by_flattening=True)
            return self._runs(model, board, orders, label)
        finally:
            model.close()

    def _runs(self, model: Session, board: Board, orders: list[list[int]],
              label: str, arrays: Mapping[str, Sequence[int]] | None = None) -> PassStats:
        runs = self._map(lambda order: model.run(board, order=order, stats=True, arrays=arrays),
                         orders)
        for run in runs:
            self._need_complete(run, "a graded run", label)
        return PassStats.of(runs)

    @staticmethod
    def _need_complete(run: Run, what: str, label: str) -> None:
        if not run.complete or run.found == 0:
            if not run.complete:
                raise SolverError(f"solver timed out in {what} of {label or 'the puzzle'} "
                                  "(unknown; raise --time-limit)")
            raise SolverError(f"{what} of {label or 'the puzzle'} found no solution "
                              "(a propagation level or implied constraint removes solutions)")

    def close(self) -> None:
        if self._pool:
            self._pool.shutdown()

    def __enter__(self) -> Grader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class MultipleMethod:
    """The grader ``multiple`` (paper 002's multiple method), as registered."""

    name = "multiple"
    description = "mean search nodes over random orders, with SAC + implied constraints first"

    def grader(self, engine, ptype, params, options: GradeOptions | None = None,
               rate_steps: Callable[[Any], dict[str, float]] | None = None) -> Grader:
        """``options`` None: the defaults (``GradeOptions()``); ``rate_steps``: the step
        rating, passed in by ``difficulty.make_grader`` for ``grade --steps``."""
        return Grader(engine, ptype, params, GradeOptions() if options is None else options,
                      rate_steps)


MULTIPLE = MultipleMethod()

__all__ = ["MULTIPLE", "Grade", "GradeOptions", "Grader", "LevelStats", "PassStats", "PLAIN", "STRENGTHENED"]
