"""Issue 41: Fillomino's steps in a player's words (its ``technique_name`` and ``step_words``)."""
from __future__ import annotations

import pytest

from puzzle_engine import ExplainedStep, StepFact
from puzzle_engine.explain.words import Words

from support import run

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
def test_fillomino_names_the_classes_its_way(host):
    words = Words(host.get_type("fillomino"), {})
    names = {"hidden single": "Only one way to grow", "intersection": "Region complete",
             "naked single": "Only one number left", "full house": "Region must grow"}
    for technique, name in names.items():
        assert words.name(technique) == name
    for technique in CLASSES:
        text = words.text(_step(technique))
        assert text.startswith(words.name(technique) + ": ") and "\n" not in text


def test_hint_on_a_fillomino_says_the_region_is_complete():
    out = run("hint", "fillomino", ". . 2/3 1 ./2 . 1")
    assert out.exit_code == 0, out.output
    assert out.stdout == ("Region complete: if r1c2 were 1 it would join the region of 1 at "
                          "r2c2, which has no room for it, so r1c2 can't be 1\n")


@pytest.mark.fast
def test_a_region_complete_names_the_region_the_square_would_join(host):
    """Two regions' rules, one number: the region joined is the neighbour's, never the
    square's own, whichever of the two the engine saw the step in."""
    words = Words(host.get_type("fillomino"), {})
    for house in ("the region at r2c3", "the region of 1 at r2c2"):
        step = ExplainedStep("intersection", StepFact("r2c3", "1", False),
                             ("the region of 1 at r2c2", "the region at r2c3"), house=house)
        assert words.text(step) == ("Region complete: if r2c3 were 1 it would join the "
                                    "region of 1 at r2c2, which has no room for it, so r2c3 "
                                    "can't be 1")
