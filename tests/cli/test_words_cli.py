"""Issue 41: ``hint`` and ``explain`` say each step in a player's words, on a real Sudoku:
the technique and a sentence, plain eliminations folded into the step that uses them,
and the JSON keeping every machine field."""
from __future__ import annotations

import json

from support import one_line_error, run

#: A 9x9 whose first steps are a naked single, a hidden pair and hidden singles.
PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_hint_and_explain_sudoku_say_each_step_in_words():
    out = run("hint", "sudoku", PUZZLE)
    assert out.exit_code == 0, out.output
    assert out.stdout == "Naked single: r5c7 can only be 1 (row 5 and column 7 rule out the rest)\n"
    out = run("explain", "sudoku", PUZZLE, "--steps", "3")
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines() == [
        "1. Naked single: r5c7 can only be 1 (row 5 and column 7 rule out the rest)",
        "2. Hidden pair: in box 1,1, 6 and 8 can only go in r1c2 and r2c2, so r1c2, which "
        "can't be 6, holds 8",
        "3. Hidden single: in box 1,2, only r1c6 can hold 1"]
    out = run("explain", "sudoku", PUZZLE, "--steps", "3", "--format", "json")
    assert out.exit_code == 0, out.output
    steps = json.loads(out.stdout)["steps"]
    # Every step the explainer took, with today's fields, its class and the sentence that
    # says it (the plain eliminations: that of the step they are folded into).
    assert all({"name", "relation", "value", "value_name", "size", "groups", "facts",
                "technique", "text", "said"} <= set(s) for s in steps)
    shown = [s for s in steps if s["technique"] != "elimination"]
    assert [(s["name"], s["relation"], s["value"], s["technique"], s["said"]) for s in shown] \
        == [("r5c7", "=", 1, "naked single", 1), ("r1c2", "=", 8, "hidden subset", 2),
            ("r1c6", "=", 1, "hidden single", 3)]
    folded = [s for s in steps if s["said"] == 2 and s["technique"] == "elimination"]
    assert folded and all(s["relation"] == "!=" and s["size"] == 1 for s in folded)
    assert len(steps) > 10


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
