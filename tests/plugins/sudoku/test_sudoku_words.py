"""Issue 41: Sudoku's steps in a player's words (its ``technique_name`` and ``step_words``)."""
from __future__ import annotations

import pytest

from puzzle_engine import ExplainedStep, StepFact
from puzzle_engine.explain.words import Words
from puzzle_engine_plugins.sudoku import words as sudoku_words

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
def test_sudoku_phrases_every_class_and_falls_back_on_an_unknown_one(host):
    sudoku = host.get_type("sudoku")
    words = Words(sudoku, {})
    for technique in CLASSES:
        name = words.name(technique)
        assert name == sudoku_words.technique_name(technique) is not None
        text = words.text(_step(technique))
        assert text.startswith(name.split()[0]) or text.startswith(("Pointing", "Claiming",
                                                                    "Naked", "Hidden",
                                                                    "X-wing", "Fish")), text
        assert "\n" not in text
    assert words.name("xy-chain") == "XY-chain" and words.name("aic") == \
        "Alternating inference chain"
    assert words.text(_step("xy-chain")) == \
        "XY-chain: following row 1, column 2, box 1,1 and row 5 from r1c1 = 3 and " \
        "r5c7 != 4, r3c2 can't be 4"
    # The patterns a player knows, from the step's pattern fields.
    assert words.text(_step("hidden single", True, house="box 1,3")) == \
        "Hidden single: in box 1,3, only r3c2 can hold 4"
    assert words.text(_step("intersection", house="box 1,1", groups=("box 1,1", "column 2"),
                            also=(StepFact("r7c2", "4", False),))) == \
        "Pointing: in box 1,1, 4 can only go in column 2, so r3c2 and r7c2 can't be 4"
    assert words.text(_step("naked subset", house="row 3", squares=("r3c1", "r3c5"),
                            values=("2", "7"), also=(StepFact("r3c2", "7", False),))) == \
        "Naked pair: in row 3, r3c1 and r3c5 hold only 2 and 7, so r3c2 can't be 4 or 7"
    assert words.text(_step("fish", groups=("row 1", "row 5", "column 2", "column 7"),
                            holding=("column 2",))) == \
        "X-wing: in row 1 and row 5, 4 can only go in column 2 and column 7, so r3c2 " \
        "can't be 4"
    # A class Sudoku does not know: the engine's name and sentence.
    assert words.name("bent almost locked set") == "Bent almost locked set"
    assert words.text(_step("bent almost locked set")).startswith("Bent almost locked set: by ")
