"""The step rating on real 9x9 Sudoku against Sukaku Explainer's rating of each, measured
with its serate (benchmarks/setup_peers.sh's build; benchmarks/bench_rating.py): the
explainer's real groups (MiniZinc flattening), the candidate path (``ladder.rate``)."""
from __future__ import annotations

import pytest

from puzzle_engine.engine import Engine
from puzzle_engine.explain import Explainer
from puzzle_engine.explain.ladder import rate
from puzzle_engine.explain.rating import effort, score
from puzzle_engine.solving.backend import Backend

# (puzzle, SE's rating, the technique it needs), from benchmarks/data/se_rated/sample.csv:
# the first from plugins/sudoku/data/sudoku_rated_train.csv (QQWing "expert", public
# domain), the others from Sudoku Exchange's puzzle bank, diabolical.txt (public domain,
# github.com/grantm/sudoku-exchange-puzzle-bank). SE's ratings measured 2026-11-28.
PUZZLES = [
    (".......7..5......8..7..54.6....1.....38..271.5..7.3.4..8...4.3..74.....1..32..6..", 4.0,
     "strong links 2"),   # SE: Skyscraper
    ("....4.....2.6.9.1...63.87...5..9..2...8...3..93.....74.8.5.2.4..43...26.5.......3", 5.5,
     "wing 4"),           # SE: WXYZ-Wing
    ("2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...21.......5.6.9.2.1...3.6.2..", 7.1,
     "aic"),              # SE: Forcing Chain
]


@pytest.fixture(scope="module")
def cpsat_engine(host):
    return Engine(host, Backend("cp-sat"))


@pytest.mark.parametrize("text, se, technique", PUZZLES)
def test_known_puzzles_get_SEs_rating(cpsat_engine, sudoku, text, se, technique):
    parsed = sudoku.parse({"size": None, "box": None, "choose": None}, text)
    ex = Explainer(cpsat_engine, sudoku, parsed.params, parsed.instance)
    ladder = rate(ex)
    assert ladder.solved
    hardest = max(ladder.steps, key=lambda s: s.cost)
    assert abs(ladder.features()["effort_max"] - se) <= 0.1
    assert hardest.technique == technique
    # every step is sound: the puzzle's solution keeps every fact
    for step in ladder.steps:
        for f in step.facts:
            assert (ex.solution[f.square] == f.value) == f.equal


def test_the_effort_alone_and_a_ceiling(cpsat_engine, sudoku):
    text, se, _ = PUZZLES[2]
    parsed = sudoku.parse({"size": None, "box": None, "choose": None}, text)
    ex = Explainer(cpsat_engine, sudoku, parsed.params, parsed.instance)
    assert abs(score(effort(ex)) - se) <= 0.1
    # below the puzzle's hardest step: the path stops there, rated above the ceiling
    capped = effort(ex, ceiling=5.0)
    assert 5.0 < capped["effort_max"] <= se + 0.1
