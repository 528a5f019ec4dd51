"""Issue 41: steps in a player's words. The phrasing hooks (``Explanation.technique_name``
and ``step_words``), the engine's generic words for a type that says nothing or a class it
does not know, and a plugin's wrong answers as one line naming it. No solver runs here."""
from __future__ import annotations

import pytest

from puzzle_engine import Explanation, ExplainedStep, StepFact
from puzzle_engine.errors import PluginError
from puzzle_engine.explain.words import Words, generic_name

pytestmark = pytest.mark.fast

def _step(technique, equal=False, **more):
    fields = dict(groups=("row 1", "column 2", "box 1,1", "row 5"),
                  kinds=("row", "column", "box", "row"), holding=("column 2",),
                  facts=(StepFact("r1c1", "3", True), StepFact("r5c7", "4", False)))
    fields.update(more)
    return ExplainedStep(technique, StepFact("r3c2", "4", equal), **fields)


class Plain:
    """A type without the Explanation facet (the engine asks nothing of it)."""

    name, plugin = "plain", "toy"


class Wrong(Explanation):
    name, plugin = "wrong", "toy"

    def __init__(self, name=None, words=None):
        self._name, self._words = name, words

    def technique_name(self, params, technique):
        return self._name(technique) if callable(self._name) else self._name

    def step_words(self, params, step):
        return self._words(step) if callable(self._words) else self._words


def test_a_type_that_says_nothing_gets_the_engines_words():
    for ptype in (Plain(), Wrong()):
        words = Words(ptype, {})
        assert words.name("hidden single") == "Hidden single"
        assert words.name("x-chain") == "X-chain" == generic_name("x-chain")
        text = words.text(_step("hidden single", equal=True, groups=("box 1,1",),
                                facts=(StepFact("r1c1", "4", False),)))
        assert text == "Hidden single: by box 1,1, with r1c1 != 4, r3c2 is 4"
        text = words.text(_step("naked single", equal=True, groups=(), facts=(),
                                via=("row 3", "column 2")))
        assert text == "Naked single: r3c2 is 4 (every other value is ruled out by row 3 " \
            "and column 2)"
        many = tuple(StepFact(f"r9c{k}", "1", False) for k in range(1, 8))
        text = words.text(_step("some new chain", facts=many))
        assert text.startswith("Some new chain: by row 1, column 2, box 1,1 and row 5, with "
                               "r9c1 != 1, r9c2 != 1, r9c3 != 1 and 4 more known facts, ")
        assert text.endswith("r3c2 is not 4")


def test_the_plugins_name_and_sentence_are_used_and_none_falls_back():
    words = Words(Wrong(lambda t: "Mine" if t == "fish" else None,
                        lambda s: "Said my way" if s.technique == "fish" else None), {})
    assert words.name("fish") == "Mine" and words.text(_step("fish")) == "Said my way"
    assert words.name("chain") == "Chain"
    assert words.text(_step("chain")).startswith("Chain: by row 1, column 2")


@pytest.mark.parametrize("method, answer, wanted", [
    ("name", 3, "returned 3, not a name on one line or None"),
    ("name", "two\nlines", "not a name on one line or None"),
    ("text", "", "returned '', not a sentence on one line or None"),
    ("text", b"bytes", "not a sentence on one line or None"),
    ("text", ValueError("oops"), "step_words (puzzle 'wrong', plugin 'toy') raised ValueError: oops"),
    ("name", KeyError("x"), "technique_name (puzzle 'wrong', plugin 'toy') raised KeyError"),
])
def test_a_wrong_answer_or_an_exception_is_one_line_naming_the_plugin(method, answer, wanted):
    def give(_):
        if isinstance(answer, Exception):
            raise answer
        return answer
    ptype = Wrong(give, None) if method == "name" else Wrong(None, give)
    with pytest.raises(PluginError) as caught:
        Words(ptype, {}).name("fish") if method == "name" else Words(ptype, {}).text(_step("fish"))
    message = str(caught.value)
    assert wanted in message and "plugin 'toy'" in message and "\n" not in message
