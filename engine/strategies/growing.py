"""The ``growing`` strategy (paper 002, section 4): a level starts from a random base and
grows one element at a time (``grow``: a piece more), as long as it stays solvable. Every
level on the way that the type's criterion accepts is kept; the last one is the puzzle.

Solvability is not monotone: an element more can make an unsolvable level solvable again
(a piece that blocks a ray). With ``--carry K``, when no candidate of a step is solvable,
the growth goes on from a proven unsolvable one for up to K steps in a row.

With ``--bias harder`` (``easier``), once a level has been kept, a candidate is taken only
if its search is harder (easier) than the current level's: the mean search nodes of the
type's grader over ``--bias-runs`` random orders (``Grader.nodes``). The paper biased its
search this way to find harder or easier levels.

With ``--start full`` the level goes the other way: on one random base, the type draws
``--fills`` random full levels, each with a solution it built itself (``random_full``:
for pieces on a board, the board filled until no square takes one more); each one
the criterion accepts is kept, and from it one element is taken away at a time
(``shrink``: each candidate comes with a solution of its own) while the criterion still
accepts it. One base serves every fill, so a type with ``split_data`` flattens it once.
With ``--keep last`` the first fill accepted ends the seed.

A full level that has another solution is repaired first, up to ``--repairs`` times
(``repairable``, ``repair``: for pieces on a board, a hole where another placement has a
piece): each repair keeps the type's own solution and rules out others, told a fact of the
model (the first square, in the type's order, on which another solution differs; see
``_repaired``), never the solver's choice of a solution.
Only the criterion's acceptance decides (never the solver's solution), so a seed gives
the same levels on every exact solver; under ``--bias`` a level must beat the last one
kept, measured on Gecode (``BIAS_SOLVER``) whatever the engine's solver.
"""
from __future__ import annotations

import random
import time
from typing import Any

from .. import calls
from ..errors import NothingFound, PluginError, PuzzleInputError
from ..criteria import Verdict
from ..hookspecs import GradingSession, Growing
from ..types import Param, Status
from ..record import Puzzle, stamped
from .base import GenResult, Strategy, check_range

MAX_RESTARTS = 100
MAX_BIAS_RUNS = 1000
MAX_FILLS = 100_000
MAX_REPAIRS = 10_000
#: The solver whose search nodes measure candidates under --bias with --start full.
BIAS_SOLVER = "gecode"


class GrowingStrategy(Strategy):
    name = "growing"
    description = "grow a random base one element at a time while it stays solvable"
    hooks = Growing
    options = (
        Param("max_steps", int, 100, "Elements added at most."),
        Param("tries", int, 8, "Candidates judged per step before the growth stops."),
        Param("keep", str, "last", "'last': emit the last accepted level; 'all': every "
              "accepted level on the way."),
        Param("bias", str, "none", "'harder' ('easier'): once a level is kept, take only "
              "candidates whose search is harder (easier) than the current level's."),
        Param("bias_runs", int, 10, "Random orders that measure a candidate under --bias."),
        Param("carry", int, 1, "Unsolvable levels grown through in a row when no candidate "
              "of a step is solvable (0: stop there)."),
        Param("restarts", int, 20, "New bases drawn when a growth ends with no accepted level."),
        Param("fills", int, 25, "With --start full: random full levels drawn on one base."),
        Param("repairs", int, 60, "With --start full: changes made to a full level while "
              "it has another solution (the type's repair), at most; 0: none."),
        Param("start", str, "base", "'base': grow from a random base (the paper's method); "
              "'full': keep the accepted ones of --fills random full levels on one base, each "
              "then made smaller while it stays accepted."),
    )

    def make_options(self, values, workers: int = 1) -> dict[str, Any]:
        options = super().make_options(values)
        check_range("max_steps", options["max_steps"], 1)
        check_range("tries", options["tries"], 1)
        check_range("restarts", options["restarts"], 1, MAX_RESTARTS)
        check_range("fills", options["fills"], 1, MAX_FILLS)
        check_range("repairs", options["repairs"], 0, MAX_REPAIRS)
        check_range("bias_runs", options["bias_runs"], 1, MAX_BIAS_RUNS)
        check_range("carry", options["carry"], 0, options["max_steps"])
        for name, allowed in (("keep", ("last", "all")), ("bias", ("none", "harder", "easier")),
                              ("start", ("base", "full"))):
            if options[name] not in allowed:
                raise PuzzleInputError(f"bad --{name} '{options[name]}': expected "
                                       f"{' or '.join(allowed)}")
        return options

    def record_options(self, options) -> dict[str, Any]:
        # --start base leaves --start, --fills and --repairs out of the record (it uses
        # none of them), so records made before --start existed resume as they are.
        if options["start"] == "base":
            return {k: v for k, v in options.items()
                    if k not in ("start", "fills", "repairs")}
        return dict(options)

    def generate(self, engine, ptype, params, seed: int, options) -> GenResult:
        graders = []  # the grader of --bias, made when first needed

        def hardness(instance) -> float:
            if not graders:
                # --start full measures on Gecode whatever the engine's solver, so that a
                # seed's levels do not depend on the solver that judges them (the SAT
                # back end reports no nodes at all).
                graders.append(_grader(engine if options["start"] == "base"
                                       else engine.on(BIAS_SOLVER), ptype, params))
            return graders[0].nodes(instance, options["bias_runs"])
        try:
            if options["start"] == "full":
                return self._shrink(engine, ptype, params, seed, options, hardness)
            return self._grow(engine, ptype, params, seed, options, hardness)
        finally:
            for grader in graders:
                grader.close()

    def _grow(self, engine, ptype, params, seed: int, options, hardness) -> GenResult:
        start, calls0 = time.perf_counter(), engine.backend.calls
        rng = random.Random(seed)
        criterion = engine.criterion(ptype)
        bias = options["bias"]
        extended = 0  # candidates refused on the type's extensions, with no solver call
        for restart in range(options["restarts"]):
            kept = []  # (instance, verdict, step, fields)
            current = calls.call(ptype, "random_base", params=params, rng=rng)
            measure = None  # the current level's search nodes, under --bias once one is kept
            carried = 0     # unsolvable levels grown through in a row
            solution = None  # one solution of the current level (None: none known)
            for step in range(1, options["max_steps"] + 1):
                candidates = calls.call(ptype, "grow", params=params, instance=current, rng=rng)
                if not isinstance(candidates, (list, tuple)):
                    raise calls.bad_result("grow", ptype, candidates, "a list of instances")
                chosen = unsolvable = None
                for candidate in candidates[:options["tries"]]:
                    verdict = self._judge(engine, ptype, params, criterion, current, solution,
                                          candidate)
                    extended += "extended" in verdict.fields
                    if not verdict.solvable:  # unsolvable, or unknown: not taken now
                        if unsolvable is None and verdict.solvable is False:
                            unsolvable = candidate
                        continue
                    nodes = None
                    if bias != "none" and kept:
                        nodes = hardness(candidate)
                        if not (nodes > measure if bias == "harder" else nodes < measure):
                            continue
                    chosen = (candidate, verdict, nodes)
                    break
                if chosen is None:
                    if unsolvable is None or carried >= options["carry"]:
                        break
                    current, carried, solution = unsolvable, carried + 1, None
                    continue
                current, verdict, nodes = chosen
                solution = verdict.solution
                if verdict.accepted and calls.flag(ptype, "complete", params=params,
                                                   instance=current) and \
                        calls.flag(ptype, "accept_puzzle", params=params, instance=current,
                                   solution=verdict.solution):
                    if bias != "none" and measure is None:
                        nodes = hardness(current)
                    fields = {"carried": carried} if carried else {}
                    fields["extended"] = extended
                    if nodes is not None:
                        measure = nodes
                        fields["bias_nodes"] = round(nodes, 2)
                    kept.append((current, verdict, step, fields))
                elif nodes is not None:
                    measure = nodes
                carried = 0
            if kept:
                break
        else:
            raise NothingFound(f"growing {calls.owner(ptype)} found no accepted level in "
                              f"{options['restarts']} bases (seed {seed}); raise --restarts")
        backend = engine.backend
        puzzles = [Puzzle(**stamped(ptype, params, seed, backend, calls0, start),
                          instance=inst, solution=verdict.solution,
                          options=self.record_options(options),
                          extra={"step": step, "restarts": restart, **fields,
                                 **verdict.fields})
                   for inst, verdict, step, fields in kept]
        return GenResult(puzzles[-1], [], kept=puzzles if options["keep"] == "all" else [])


    def _shrink(self, engine, ptype, params, seed: int, options, hardness) -> GenResult:
        """``--start full``: on one random base, ``--fills`` random full levels; from each
        one accepted, one element fewer at a time while the criterion accepts it (see the
        module's docstring)."""
        start, calls0 = time.perf_counter(), engine.backend.calls
        rng = random.Random(seed)
        criterion = engine.criterion(ptype)
        bias = options["bias"]

        def accepted(instance, solution) -> bool:
            verdict = criterion.judge(engine, ptype, params, instance)
            return bool(verdict.accepted) and \
                calls.flag(ptype, "complete", params=params, instance=instance) and \
                calls.flag(ptype, "accept_puzzle", params=params, instance=instance,
                           solution=solution)

        kept: list = []  # (instance, solution, step, fields)
        seen: set = set()
        measure = None  # under --bias, the search nodes of the last level kept
        for restart in range(options["restarts"]):
            base = calls.call(ptype, "random_base", params=params, rng=rng)
            for fill in range(options["fills"]):
                drawn = calls.call(ptype, "random_full", params=params, base=base, rng=rng)
                if drawn is None:
                    continue
                if not isinstance(drawn, (list, tuple)) or len(drawn) != 2:
                    raise calls.bad_result("random_full", ptype, drawn,
                                           "(instance, solution) or None")
                current, solution = drawn
                repairs = 0
                if options["repairs"] and current not in seen:
                    current, solution, repairs = self._repaired(
                        engine, ptype, params, current, solution, rng, options["repairs"])
                if current in seen or not accepted(current, solution):
                    continue
                seen.add(current)
                fields = {"fill": fill, "repairs": repairs}
                if bias != "none":  # a full level too must beat the last one kept
                    nodes = hardness(current)
                    if kept and not (nodes > measure if bias == "harder" else nodes < measure):
                        continue
                    measure = nodes
                    fields["bias_nodes"] = round(nodes, 2)
                kept.append((current, solution, 0, fields))
                for step in range(1, options["max_steps"] + 1):
                    candidates = calls.call(ptype, "shrink", params=params, instance=current,
                                            solution=solution, rng=rng)
                    if not isinstance(candidates, (list, tuple)) or not all(
                            isinstance(c, (list, tuple)) and len(c) == 2 for c in candidates):
                        raise calls.bad_result("shrink", ptype, candidates,
                                               "a list of (instance, solution)")
                    chosen = None
                    for candidate, known in candidates[:options["tries"]]:
                        if candidate in seen or not accepted(candidate, known):
                            continue
                        nodes = None
                        if bias != "none":
                            nodes = hardness(candidate)
                            if not (nodes > measure if bias == "harder" else nodes < measure):
                                continue
                        chosen = (candidate, known, nodes)
                        break
                    if chosen is None:
                        break
                    current, solution, nodes = chosen
                    seen.add(current)
                    fields = {"fill": fill}
                    if nodes is not None:
                        measure = nodes
                        fields["bias_nodes"] = round(nodes, 2)
                    kept.append((current, solution, step, fields))
                if kept and options["keep"] == "last":
                    break  # the level emitted is this fill's last: no other fill is needed
            if kept:
                break
        else:
            raise NothingFound(f"growing {calls.owner(ptype)} --start full found no accepted "
                              f"level in {options['restarts']} bases of {options['fills']} "
                              f"full levels each (seed {seed}); raise --restarts or --fills")
        backend = engine.backend
        puzzles = [Puzzle(**stamped(ptype, params, seed, backend, calls0, start),
                          instance=inst, solution=solution,
                          options=self.record_options(options),
                          extra={"step": step, "restarts": restart, **fields})
                   for inst, solution, step, fields in kept]
        return GenResult(puzzles[-1], [], kept=puzzles if options["keep"] == "all" else [])

    @staticmethod
    def _repaired(engine, ptype, params, level, solution, rng, limit: int):
        """``level`` repaired while another solution than ``solution`` exists, up to
        ``limit`` times (the type's ``repair``): ``(level, solution, repairs made)``.

        Each repair is told a fact of the model, not of the solver: the first
        ``repairable`` square, in the type's order, on which another solution differs (a
        binary search over prefixes of that order, each step one question, the solution
        found bounding it), or else the least other solution in a seeded order of all
        squares. A repair only removes solutions, so a square found clean stays clean
        and is not asked about again. The first question of each round is whether any
        other solution is left: the proof that none is, the costly one, is asked once;
        a type that puts first the squares most likely to differ spares the proofs that
        a prefix is clean."""
        order = list(range(len(solution)))
        rng.shuffle(order)
        clean: set = set()  # squares on which no other solution differs

        def first_differing(ranked, found):
            # the index in ranked of the first square where ``found`` differs, or None
            return next((k for k, i in enumerate(ranked) if found[i] != solution[i]), None)

        for made in range(limit):
            run = engine.others(ptype, params, level, solution)
            if not run.found:
                return level, solution, made  # no other solution, or unknown
            ranked = calls.call(ptype, "repairable", params=params, instance=level,
                                solution=solution)
            if not isinstance(ranked, (list, tuple)):
                raise calls.bad_result("repairable", ptype, ranked, "a list of squares")
            ranked = [i for i in ranked if i not in clean]
            hi = first_differing(ranked, run.first)
            if hi is None and ranked:
                run = engine.others(ptype, params, level, solution, at=ranked)
                if not run.complete:
                    return level, solution, made
                if not run.found:
                    clean.update(ranked)
                hi = first_differing(ranked, run.first) if run.found else None
            square = other = None
            if hi is not None:
                lo, hi = 1, hi + 1  # the least prefix of ranked that a solution differs on
                while lo < hi:
                    mid = (lo + hi) // 2
                    run = engine.others(ptype, params, level, solution, at=ranked[:mid])
                    if not run.complete:
                        return level, solution, made
                    if run.found:
                        hi = first_differing(ranked, run.first) + 1
                    else:
                        lo = mid + 1
                square = ranked[lo - 1]
                clean.update(ranked[:lo - 1])
            else:
                run = engine.others(ptype, params, level, solution, order=order)
                if not run.found:
                    return level, solution, made  # unknown
                other = run.first
            repaired = calls.call(ptype, "repair", params=params, instance=level,
                                  solution=solution, square=square, other=other)
            if repaired is None:
                return level, solution, made
            if not isinstance(repaired, (list, tuple)) or len(repaired) != 2:
                raise calls.bad_result("repair", ptype, repaired, "(instance, solution) or None")
            level, solution = repaired
        return level, solution, limit

    @staticmethod
    def _judge(engine, ptype, params, criterion, parent, solution, candidate):
        """The criterion's verdict on ``candidate``; none of the solver's when the type's
        ``extensions`` of the parent's solution already show it refused."""
        found = calls.call(ptype, "extensions", params=params, parent=parent,
                           solution=solution, candidate=candidate)
        if not isinstance(found, (list, tuple)):
            raise calls.bad_result("extensions", ptype, found, "a list of solutions")
        if found and criterion.refuted_by(engine, ptype, params, list(found)):
            return Verdict(False, len(found), Status.SAT, found[0], fields={"extended": True})
        return criterion.judge(engine, ptype, params, candidate)


def _grader(engine, ptype, params):
    """The type's grader's ``GradingSession`` at its own default options (``None``: a strategy
    knows no grader's options class), which must measure ``nodes``."""
    maker = engine.host.get("graders", ptype.grader, f" (named by {calls.owner(ptype)})")
    grading = engine.host.made("graders", ptype.grader, maker.grader(engine, ptype, params, None),
                               GradingSession, "grading")
    if not callable(getattr(grading, "nodes", None)):
        grading.close()
        raise PluginError(f"plugin '{engine.host.owner('graders', ptype.grader)}' grader "
                          f"'{ptype.grader}' makes a grading without 'nodes(instance, runs)', "
                          f"which --bias needs to measure candidates (see "
                          "docs/plugin-authoring.md#graders)")
    return grading
