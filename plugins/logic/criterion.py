"""The criterion ``logic-answer``: the engine's ``unique-answer`` (one option holds in every
solution, every other in none), and the option the solver proves must be the one the
puzzle's key names.

A puzzle read from a record (``check logic``) is first derived again from its spec and
seed with the solver (every solution enumerated, the optimum found again), and every
field the record states (``problem``, ``key``, ``answer``, ``checked``, ``parameters``,
each field of ``config``) must be the one derived: nothing the record says is trusted.
A difference is an input error naming the field; a time-out is unknown."""
from __future__ import annotations

import os
import sys

from puzzle_engine import PuzzleInputError, Status
from puzzle_engine.criteria import UniqueAnswer, Verdict

from .puzzle import TRACE


class LogicAnswer(UniqueAnswer):
    name = "logic-answer"
    description = ("unique-answer, on the puzzle derived again from its spec and seed, and "
                   "the proven option is the key's")

    def judge(self, engine, ptype, params, instance, limit: int = 1) -> Verdict:
        from_record = instance.record is not None
        if from_record:
            instance = ptype.derive_again(engine, params, instance)
            if instance is None:  # the solver timed out deriving it
                return Verdict(None, 0, Status.UNKNOWN)
        verdict = super().judge(engine, ptype, params, instance, limit)
        if verdict.accepted and verdict.value != instance.answer_index:
            if from_record:
                raise PuzzleInputError(
                    f"the record's answer {instance.answer_index} (key {instance.key!r}) is "
                    f"not the option the solver proves, {verdict.value}")
            if os.environ.get(TRACE):
                print(f"puzzle-engine: logic: the solver proves option {verdict.value}, the key "
                      f"names {instance.answer_index}: refused", file=sys.stderr)
            return Verdict(False, verdict.solutions, verdict.status, verdict.solution,
                           fields={"answer": verdict.value, "key_names": instance.answer_index})
        return verdict
