"""Issue 41: Combination's steps in a player's words (its ``technique_name`` and
``step_words``); its real sentences are checked in test_explain_combination.py."""
from __future__ import annotations

import pytest

from puzzle_engine import ExplainedStep, StepFact
from puzzle_engine.explain.words import Words

#: Every class id the explainer's words and the step rating give (ladder.COSTS, and the
#: chain ids the rating adds above 4.0).
CLASSES = ("elimination", "full house", "hidden single", "naked single", "intersection",
           "direct intersection", "naked subset", "hidden subset", "direct hidden subset",
           "fish", "chain", "deduction", "x-chain", "xy-chain", "aic", "nice loop",
           "cell forcing chain", "region forcing chain", "contradiction forcing chain",
           "nishio", "dynamic forcing chain", "xy-wing", "xyz-wing", "wing 4", "wing 5",
           "unique rectangle", "bug", "strong links 2", "strong links 6", "x-loop", "xy-loop",
           "double forcing chain", "dynamic cell forcing chain",
           "dynamic+ contradiction forcing chain")


def _step(technique, equal=False, **more):
    fields = dict(groups=("row 1", "column 2", "box 1,1", "row 5"),
                  kinds=("row", "column", "box", "row"), holding=("column 2",),
                  facts=(StepFact("r1c1", "3", True), StepFact("r5c7", "4", False)))
    fields.update(more)
    return ExplainedStep(technique, StepFact("r3c2", "4", equal), **fields)


@pytest.mark.fast
def test_combination_names_the_classes_its_way(host):
    words = Words(host.get_type("combination"), {})
    names = {"hidden single": "Only square left", "full house": "All placed",
             "fish": "Counting pieces", "naked single": "Only choice left"}
    for technique, name in names.items():
        assert words.name(technique) == name
    for technique in CLASSES:
        text = words.text(_step(technique))
        assert text.startswith(words.name(technique) + ": ") and "\n" not in text
