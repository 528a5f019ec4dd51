"""Issue 41: ``hint`` and ``explain`` say each step in a player's words, on a real Sudoku:
the technique and a sentence, plain eliminations folded into the step that uses them,
and the JSON keeping every machine field."""
from __future__ import annotations

import json

from support import one_line_error, run

#: A 9x9 whose first steps are hidden singles, a naked single, a full house, a hidden pair.
PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_hint_and_explain_sudoku_say_each_step_in_words():
    out = run("hint", "sudoku", PUZZLE)
    assert out.exit_code == 0, out.output
    assert out.stdout == "Hidden single: in column 7, only r2c7 can hold 8\n"
    out = run("explain", "sudoku", PUZZLE, "--steps", "5")
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines() == [
        "1. Hidden single: in column 7, only r2c7 can hold 8",
        "2. Hidden single: in column 3, only r5c3 can hold 9",
        "3. Naked single: r5c7 can only be 1 (row 5 and column 7 rule out the rest)",
        "4. Full house: r8c7 is the last empty square of column 7, so it holds 7",
        "5. Hidden pair: in box 1,1, 6 and 8 can only go in r1c2 and r2c2, so r1c2, which "
        "can't be 6, holds 8"]
    out = run("explain", "sudoku", PUZZLE, "--steps", "5", "--format", "json")
    assert out.exit_code == 0, out.output
    steps = json.loads(out.stdout)["steps"]
    # Every step the explainer took, with today's fields, its class and the sentence that
    # says it (the plain eliminations: that of the step they are folded into).
    assert all({"name", "relation", "value", "value_name", "size", "groups", "facts",
                "technique", "text", "said"} <= set(s) for s in steps)
    shown = [s for s in steps if s["technique"] != "elimination"]
    assert [(s["name"], s["relation"], s["value"], s["technique"], s["said"]) for s in shown] \
        == [("r2c7", "=", 8, "hidden single", 1), ("r5c3", "=", 9, "hidden single", 2),
            ("r5c7", "=", 1, "naked single", 3), ("r8c7", "=", 7, "full house", 4),
            ("r1c2", "=", 8, "hidden subset", 5)]
    folded = [s for s in steps if s["said"] == 5 and s["technique"] == "elimination"]
    assert folded and all(s["relation"] == "!=" and s["size"] == 1 for s in folded)
    assert len(steps) > 10


def test_explain_steps_and_hint_begin_as_the_whole_explanation_does():
    """``--steps N`` and ``hint`` run whole rounds of the explainer: a round cut short (the
    first version ran 100 steps at a time) left a different board for the next, so
    ``--steps 6`` listed other squares than ``explain`` (and the page) did."""
    whole = run("explain", "sudoku", PUZZLE)
    assert whole.exit_code == 0, whole.output
    lines = [line.split(". ", 1)[1] for line in whole.stdout.splitlines()
             if line.strip()[:1].isdigit()]
    for n in (1, 6, 17):
        first = run("explain", "sudoku", PUZZLE, "--steps", str(n))
        assert first.exit_code == 0, first.output
        assert [line.split(". ", 1)[1] for line in first.stdout.splitlines()] == lines[:n]
    assert run("hint", "sudoku", PUZZLE).stdout == lines[0] + "\n"


def test_a_plugin_whose_words_fail_stops_with_one_line(host, monkeypatch):
    sudoku = type(host.get_type("sudoku"))  # (each command loads the plugins afresh)

    def broken(self, params, step):
        raise RuntimeError("no words")
    monkeypatch.setattr(sudoku, "step_words", broken)
    one_line_error(run("hint", "sudoku", "...4.32.....2.4."), "step_words", "puzzle 'sudoku'",
                   "RuntimeError: no words")
    monkeypatch.setattr(sudoku, "step_words", lambda self, params, step: ["a list"])
    one_line_error(run("hint", "sudoku", "...4.32.....2.4."), "step_words",
                   "not a sentence on one line or None")
