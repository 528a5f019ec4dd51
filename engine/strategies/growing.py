"""The ``growing`` strategy (paper 002, section 4): a level starts from a random base and
grows one element at a time (``grow``: a piece more), as long as it stays solvable. Every
level on the way that the type's criterion accepts is kept; the last one is the puzzle.

With ``--prefer harder``, the accepted candidates of a step are graded by the type's
grader and the hardest is taken, biasing the growth towards hard levels.
"""
from __future__ import annotations

import random
import time
from typing import Any

from .. import calls
from ..errors import PluginError
from ..hookspecs import Growing
from ..types import Param
from .base import GenResult, Puzzle, Strategy, check_range

MAX_RESTARTS = 100


class GrowingStrategy(Strategy):
    name = "growing"
    description = "grow a random base one element at a time while it stays solvable"
    hooks = Growing
    options = (
        Param("max_steps", int, 100, "Elements added at most."),
        Param("tries", int, 8, "Candidates judged per step before the growth stops."),
        Param("keep", str, "last", "'last': emit the last accepted level; 'all': every "
              "accepted level on the way."),
        Param("prefer", str, "first", "'first': take the first solvable candidate; "
              "'harder': grade the accepted candidates and take the hardest."),
        Param("restarts", int, 20, "New bases drawn when a growth ends with no accepted level."),
    )

    def make_options(self, values, workers: int = 1) -> dict[str, Any]:
        options = super().make_options(values)
        check_range("max_steps", options["max_steps"], 1)
        check_range("tries", options["tries"], 1)
        check_range("restarts", options["restarts"], 1, MAX_RESTARTS)
        for name, allowed in (("keep", ("last", "all")), ("prefer", ("first", "harder"))):
            if options[name] not in allowed:
                from ..errors import PuzzleInputError
                raise PuzzleInputError(f"bad --{name} '{options[name]}': expected "
                                       f"{' or '.join(allowed)}")
        return options

    def generate(self, engine, ptype, params, seed: int, options) -> GenResult:
        graders = []  # the grader of --prefer harder, made when first needed

        def hardness(instance) -> float:
            if not graders:
                graders.append(_grader(engine, ptype, params))
            return graders[0].grade(instance).mean_nodes
        try:
            return self._grow(engine, ptype, params, seed, options, hardness)
        finally:
            for grader in graders:
                grader.close()

    def _grow(self, engine, ptype, params, seed: int, options, hardness) -> GenResult:
        start, calls0 = time.perf_counter(), engine.backend.calls
        rng = random.Random(seed)
        criterion = engine.criterion(ptype)
        for restart in range(options["restarts"]):
            kept = []  # (instance, verdict, step)
            current = calls.call(ptype, "random_base", params=params, rng=rng)
            for step in range(1, options["max_steps"] + 1):
                candidates = calls.call(ptype, "grow", params=params, instance=current, rng=rng)
                if not isinstance(candidates, (list, tuple)):
                    raise calls.bad_result("grow", ptype, candidates, "a list of instances")
                chosen = None
                accepted = []
                for candidate in candidates[:options["tries"]]:
                    verdict = criterion.judge(engine, ptype, params, candidate)
                    if not verdict.solvable:  # unsolvable, or unknown: never grown from
                        continue
                    if verdict.accepted and calls.flag(ptype, "complete", params=params,
                                                       instance=candidate) and \
                            calls.flag(ptype, "accept_puzzle", params=params, instance=candidate,
                                       solution=verdict.solution):
                        accepted.append((candidate, verdict))
                    if chosen is None:
                        chosen = (candidate, verdict)
                    if options["prefer"] == "first":
                        break
                if chosen is None:
                    break
                if accepted and options["prefer"] == "harder":
                    chosen = max(accepted, key=lambda cv: hardness(cv[0]))
                current = chosen[0]
                if chosen in accepted:
                    kept.append((chosen[0], chosen[1], step))
            if kept:
                break
        else:
            raise PluginError(f"growing {calls.owner(ptype)} found no accepted level in "
                              f"{options['restarts']} bases (seed {seed}); raise --restarts")
        backend = engine.backend
        puzzles = [Puzzle(type=ptype.name, params=dict(params), instance=inst,
                          solution=verdict.solution, seed=seed, plugin=ptype.plugin,
                          plugin_version=ptype.plugin_version, solver=backend.solver_id,
                          solver_version=backend.info.version,
                          solver_calls=backend.calls - calls0,
                          seconds=time.perf_counter() - start,
                          options=self.record_options(options),
                          extra={"step": step, "restarts": restart, **verdict.fields})
                   for inst, verdict, step in kept]
        return GenResult(puzzles[-1], [], kept=puzzles if options["keep"] == "all" else [])


def _grader(engine, ptype, params):
    from ..grading import GradeOptions
    maker = engine.host.get("graders", ptype.grader)
    return maker.grader(engine, ptype, params, GradeOptions(runs=5))
