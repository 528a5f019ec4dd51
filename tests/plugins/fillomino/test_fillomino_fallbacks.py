"""Fillomino's exact paths after the first search gives up (plugins/fillomino/local.py, the
deeper search of deduce.solve, plugins/fillomino/exact.py's questions to a session): a
second solution found near the emptied square is a real one, the searches and the exact
question with an excluded value agree with Gecode on random partial boards, and every
removal these paths decide in GenPuzzles agrees with a full Gecode run."""
import random

from puzzle_engine.strategies import GenOptions
from puzzle_engine_plugins.fillomino import deduce, exact, local, logic

from support import params_for, watching


def test_second_solutions_near_a_square_and_excluded_values_agree_with_gecode(fillomino, gecode):
    """Random partial 5x5 and 4x6 boards of a random full board S, one empty square i:
    every solution ``other_nearby`` returns keeps the givens, is a Fillomino solution and
    differs from S at i; the complete search and the exact question (a session on the
    type's model, exact.SOLVER), with S's value excluded at i, find such a solution
    exactly when Gecode's enumeration of all solutions has one."""
    rng = random.Random(3107)
    found = checked = 0
    for rows, cols in [(5, 5), (4, 6)]:
        params = params_for(gecode, fillomino, rows, cols)
        for _ in range(16):
            full = logic.random_partition(rows, cols, range(1, 6), rng)
            keep = rng.uniform(0.3, 0.8)
            board = tuple(v if rng.random() < keep else 0 for v in full)
            empty = [c for c, v in enumerate(board) if not v]
            if not empty or len(empty) > 14:  # keep Gecode's enumeration small
                continue
            i = rng.choice(empty)
            result, boards = gecode.solve(fillomino, params, board, nr_solutions=200)
            if not result.complete:
                continue  # too many to enumerate
            assert full in boards
            others = [b for b in boards if b[i] != full[i]]
            near = local.other_nearby(board, rows, cols, full, i)
            if near is not None:
                assert near in boards and near[i] != full[i], (board, i, near)
                found += 1
            outcome = deduce.solve(board, rows, cols, limit=1, budget=10 ** 5, avoid=full,
                                   exclude=(i, full[i]))
            assert bool(outcome.solutions) == bool(others), (board, i)
            assert outcome.complete or outcome.solutions
            assert all(s in others for s in outcome.solutions)
            session = gecode.session(fillomino, fillomino._exact_data(params, board),
                                     exact.SOLVER)
            assert exact.other_solution(session, board, rows, cols, full, i) is bool(others)
            assert exact.other_solution(session, board, rows, cols, full) is True
            checked += 1
    assert checked >= 10 and found >= 3


def test_every_removal_the_fallback_paths_decide_agrees_with_gecode(fillomino, chuffed,
                                                                      gecode, monkeypatch):
    """GenPuzzles on 7x7 with the searches cut to 1 and 4 nodes, so that the fallbacks
    ("nearby": a second solution around the square, "searched deep": the deeper search,
    "exact": the questions to a session) decide many removals: each one, kept or refused, is judged
    again by a full Gecode run; the puzzle is the one the normal budgets give (every path
    is exact) and Gecode finds it unique."""
    params = params_for(chuffed, fillomino, 7, 7)
    normal = chuffed.generate(fillomino, params, 2, GenOptions(batch=1)).puzzle
    watched, decided = watching(fillomino, ("nearby", "searched deep", "exact"))
    monkeypatch.setattr(deduce, "DEFAULT_BUDGET", 1)
    monkeypatch.setattr(deduce, "DEEP_BUDGET", 4)
    deduce.solve.cache_clear()
    try:
        puzzle = chuffed.generate(watched, params, 2, GenOptions(batch=1)).puzzle
    finally:
        deduce.solve.cache_clear()  # no outcome of the cut budget stays remembered
    paths = {label for label, _, _ in decided}
    assert paths == {"nearby", "searched deep", "exact"}, paths
    assert any(v for *_, v in decided) and not all(v for *_, v in decided)
    for _, board, verdict in decided:
        result, boards = gecode.solve(fillomino, params, board, nr_solutions=2)
        assert result.complete or len(boards) == 2
        assert len(boards) == (1 if verdict else 2), board
    assert puzzle.grid == normal.grid
    assert puzzle.extra["removals"]["nearby"]["refused"] > 0
    result, boards = gecode.solve(fillomino, params, puzzle.grid, nr_solutions=2)
    assert result.complete and boards == [puzzle.solution]


#: A 9x9 board on which GenPuzzles (seed 1) asked the exact fallback, with its full
#: board, and the answers the CP-SAT model of exact.py before sessions (git 1b59d4d)
#: gave: (cell emptied, given back or not, another value there?).
RECORDED = ("005000010102000903300907100000900014900900190101008900020006200040010000006000000",
            "555999913152299993359977193339977714999977194191888994228886294448816299446666999",
            [(65, False, False), (0, False, False), (13, False, False), (28, False, False),
             (44, False, False), (58, False, False), (71, False, False), (2, True, True),
             (15, True, True), (23, True, True), (35, True, True), (43, True, True),
             (51, True, True), (64, True, True)])


def test_the_exact_questions_asked_of_a_session_give_the_old_models_answers(fillomino,
                                                                             chuffed):
    """The board of RECORDED, asked of one session (exact.SOLVER) with the cell's value
    excluded (the cell emptied first when ``given back`` says it was a given): every
    answer is the one the old CP-SAT model gave, and any solution exists."""
    board, full = (tuple(int(c) for c in text) for text in RECORDED[:2])
    params = params_for(chuffed, fillomino, 9, 9)
    sessions = set()
    for cell, emptied, other in RECORDED[2]:
        asked = board[:cell] + (0,) + board[cell + 1:] if emptied else board
        assert not asked[cell]
        session = chuffed.session(fillomino, fillomino._exact_data(params, asked), exact.SOLVER)
        sessions.add(id(session))
        assert exact.other_solution(session, asked, 9, 9, full, cell) is other, cell
    assert exact.other_solution(session, board, 9, 9, full) is True
    assert len(sessions) <= 3  # one per value bound (rounded up to a multiple of 4)
