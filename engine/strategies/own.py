"""The ``own`` strategy: the type draws candidate puzzles itself (``generate``), for
instance by solving a random scenario and then constraining it; each is judged by the
type's criterion, and the first accepted one is the puzzle."""
from __future__ import annotations

import random
import time
from typing import Any

from .. import calls
from ..errors import NothingFound
from ..hookspecs import OwnGenerator
from ..types import Param
from ..record import Puzzle, stamped
from .base import GenResult, Strategy, check_range


class OwnStrategy(Strategy):
    name = "own"
    description = "the type draws candidates itself; the first its criterion accepts is kept"
    hooks = OwnGenerator
    # 500: shipped specs accept 1 draw in 10 or so (the house number, the wine merchant), and
    # 50 draws then miss about once in 100 puzzles; 500 miss about once in 10**20.
    options = (Param("draws", int, 500, "Candidates drawn at most for one puzzle."),)

    def make_options(self, values, workers: int = 1) -> dict[str, Any]:
        options = super().make_options(values)
        check_range("draws", options["draws"], 1)
        return options

    def generate(self, engine, ptype, params, seed: int, options) -> GenResult:
        start, calls0 = time.perf_counter(), engine.backend.calls
        rng = random.Random(seed)
        criterion = engine.criterion(ptype)
        unknown = 0
        for draw in range(1, options["draws"] + 1):
            instance = calls.call(ptype, "generate", params=params, rng=rng, engine=engine)
            if instance is None:
                continue
            verdict = criterion.judge(engine, ptype, params, instance)
            unknown += verdict.accepted is None
            if verdict.accepted and calls.flag(ptype, "accept_puzzle", params=params,
                                               instance=instance, solution=verdict.solution):
                break
        else:
            timed = f", {unknown} of them timed out" if unknown else ""
            raise NothingFound(f"{calls.owner(ptype)}: none of {options['draws']} drawn puzzles "
                              f"was accepted by '{criterion.name}' (seed {seed}{timed}); "
                              "raise --draws")
        backend = engine.backend
        puzzle = Puzzle(**stamped(ptype, params, seed, backend, calls0, start),
                        instance=instance, solution=verdict.solution, options=self.record_options(options),
                        extra={"draws": draw, **verdict.fields})
        return GenResult(puzzle, [])
