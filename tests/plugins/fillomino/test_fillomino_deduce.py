"""Fillomino's own deductions and search (plugins/fillomino/deduce.py): never an unsound
step (against a brute-force enumeration and against the real solvers), every removal
they decide agrees with the exact solver, and --logic-only puzzles are solved by the
deductions alone."""
import random

import pytest

from puzzle_engine.engine import Engine
from puzzle_engine.solving.backend import Backend
from puzzle_engine.strategies import GenOptions
from puzzle_engine_plugins.fillomino import deduce, exact, local, logic

from support import brute_force_solutions, params_for, watching


def random_boards(solutions, rng, count, size):
    """Partial boards of random full boards, some with a wrong value (often unsolvable)."""
    for _ in range(count):
        full = rng.choice(solutions)
        keep = rng.random()
        board = [v if rng.random() < keep else 0 for v in full]
        if rng.random() < 0.25:
            board[rng.randrange(len(board))] = rng.randint(1, size)
        yield tuple(board)


def assert_sound(board, rows, cols, solutions):
    """What the deductions keep admits every solution; what they fix, every solution has;
    a contradiction means there is none."""
    cands = deduce.candidates(board, rows, cols)
    filled = deduce.deduce(board, rows, cols)
    if cands is None:
        assert filled is None and not solutions, board
        return
    for s in solutions:
        assert all(v in c for v, c in zip(s, cands)), (board, s, cands)
        assert all(f in (0, v) for f, v in zip(filled, s)), (board, s, filled)


# -- against a brute-force enumeration (no solver) ------------------------------------------
@pytest.mark.fast
@pytest.mark.parametrize("rows, cols", [(3, 3), (2, 4), (2, 5)])
def test_deductions_and_search_agree_with_brute_force(rows, cols):
    """Every Fillomino solution of small boards, by enumerating set partitions: on random
    partial boards the search (with a budget large enough to finish) finds exactly the
    solutions that agree with the givens, and no deduction loses one."""
    solutions = sorted(brute_force_solutions(rows, cols))
    everything = deduce.solve((0,) * (rows * cols), rows, cols, limit=10 ** 6, budget=10 ** 6)
    assert everything.complete and set(everything.solutions) == set(solutions)
    rng = random.Random(rows * 10 + cols)
    for board in random_boards(solutions, rng, 400, rows * cols):
        expected = {s for s in solutions if all(g in (0, v) for g, v in zip(board, s))}
        found = deduce.solve(board, rows, cols, limit=10 ** 6, budget=10 ** 6)
        assert found.complete and set(found.solutions) == expected, board
        assert_sound(board, rows, cols, expected)
        if found.by_logic:
            assert len(expected) == 1


@pytest.mark.fast
def test_exclude_and_budget():
    """``exclude`` drops the solutions with that value in that cell; a search cut short by
    its budget says so (not complete), and never claims uniqueness."""
    rows, cols = 2, 4
    solutions = sorted(brute_force_solutions(rows, cols))
    full = next(s for s in solutions if len(set(s)) > 2)
    board = tuple(v if c % 3 == 0 else 0 for c, v in enumerate(full))
    expected = {s for s in solutions if all(g in (0, v) for g, v in zip(board, s))}
    cell = next(c for c, v in enumerate(board) if v == 0)
    found = deduce.solve(board, rows, cols, limit=100, budget=10 ** 6,
                         exclude=(cell, full[cell]))
    assert found.complete
    assert set(found.solutions) == {s for s in expected if s[cell] != full[cell]}
    empty = deduce.solve((0,) * 16, 4, 4, limit=2, budget=0)
    assert not empty.complete and empty.solutions == () and not empty.by_logic


# -- fuzzed against the real solver ----------------------------------------------------------
def test_deductions_never_contradict_the_solver(fillomino, gecode):
    """Random partial 5x5 and 4x6 boards (some unsolvable): every solution Gecode finds
    (all of them, up to 30) keeps every value the deductions fixed and every value they
    left possible; the search's count agrees with Gecode's."""
    rng = random.Random(31)
    checked = 0
    for rows, cols in [(5, 5), (4, 6)]:
        params = params_for(gecode, fillomino, rows, cols)
        fulls = [logic.random_partition(rows, cols, range(1, 6), rng) for _ in range(6)]
        for board in random_boards(fulls, rng, 7, 6):
            if board.count(0) > 15:  # keep the enumeration small
                continue
            result, boards = gecode.solve(fillomino, params, board, nr_solutions=30)
            assert result.complete or len(boards) == 30
            assert_sound(board, rows, cols, boards)
            found = deduce.solve(board, rows, cols, limit=31, budget=10 ** 5)
            if len(boards) < 30:
                assert found.complete and set(found.solutions) == set(boards), board
            checked += 1
    assert checked >= 6


def test_every_removal_the_fast_path_decides_agrees_with_the_solver(fillomino, chuffed, gecode):
    """GenPuzzles on 6x6 with the fast path on: each removal it decided without the solver
    (deduced or searched), kept or refused, is judged again by a full Gecode run, which
    must find exactly one solution for a kept one and two for a refused one."""
    watched, decided = watching(fillomino, ("deduced", "searched"))
    params = params_for(chuffed, fillomino, 6, 6)
    puzzle = chuffed.generate(watched, params, 5, GenOptions(batch=1)).puzzle
    assert decided and any(v for *_, v in decided) and not all(v for *_, v in decided)
    for board, verdict in {board: verdict for _, board, verdict in decided}.items():
        result, boards = gecode.solve(fillomino, params, board, nr_solutions=2)
        assert result.complete or len(boards) == 2
        assert len(boards) == (1 if verdict else 2), board
    result, boards = gecode.solve(fillomino, params, puzzle.grid, nr_solutions=2)
    assert boards == [puzzle.solution]


# -- GenPuzzles with the fast path -------------------------------------------------------------
def test_fast_path_gives_the_same_puzzle_and_records_its_paths(fillomino, chuffed, gecode):
    """The default mode: the same puzzle one square at a time and batched, unique by a full
    Gecode run; the record counts the removals each path decided, and the deductions
    decided most of them."""
    params = params_for(chuffed, fillomino, 6, 6)
    a, b = (chuffed.generate(fillomino, params, 3, GenOptions(batch=batch)).puzzle
            for batch in (1, 16))
    assert a.grid == b.grid and a.extra["removals"] == b.extra["removals"]
    removals = a.to_json(fillomino)["removals"]
    assert sum(p["kept"] + p["refused"] for p in removals.values()) == 36
    assert removals["type"]["kept"] == 0          # the paper's region rule only refuses
    assert sum(removals["deduced"].values()) > 36 // 2
    assert a.minimal and a.params["logic_only"] is False
    result, boards = gecode.solve(fillomino, params, a.grid, nr_solutions=2)
    assert result.complete and boards == [a.solution]


@pytest.mark.parametrize("size, seeds", [(7, (1, 2)), (9, (1, 2))])
def test_logic_only_puzzles_are_solved_by_the_deductions_alone(fillomino, chuffed, size, seeds):
    """--logic-only: every output is filled in by the deductions with no search, is unique
    by a full Chuffed run, and needs no solver call at all (the random board is verified
    by the type's verify_solution); the same seed gives the same puzzle."""
    params = params_for(chuffed, fillomino, size, size, logic_only=True)
    for seed in seeds:
        puzzle = chuffed.generate(fillomino, params, seed).puzzle
        assert deduce.deduce(puzzle.grid, size, size) == puzzle.solution
        assert deduce.solve(puzzle.grid, size, size, budget=0).by_logic
        assert puzzle.solver_calls == 0
        assert set(puzzle.extra["removals"]) <= {"deduced", "not deduced", "type"}
        result, boards = chuffed.solve(fillomino, params, puzzle.grid, nr_solutions=2)
        assert result.complete and boards == [puzzle.solution]
        # Logic-minimal: no given can go with the deductions still solving it.
        region_of = logic.regions(puzzle.solution, size, size)
        for c, v in enumerate(puzzle.grid):
            if v and logic.keeps_a_given(puzzle.grid[:c] + (0,) + puzzle.grid[c + 1:], c,
                                         region_of):
                weaker = puzzle.grid[:c] + (0,) + puzzle.grid[c + 1:]
                assert not deduce.solve(weaker, size, size, budget=0).by_logic
    again = chuffed.generate(fillomino, params, seeds[0]).puzzle
    first = chuffed.generate(fillomino, params, seeds[0]).puzzle
    assert again.grid == first.grid


def test_a_search_that_gives_up_and_a_check_that_times_out_never_keep_a_removal(
        fillomino, gecode, monkeypatch):
    """The search stopped at once (no nodes) and every solver check timing out: the
    removals the deductions could not decide are refused and counted unknown, and the
    puzzle is still unique by a full Gecode run. (A guard: this held before review too.)"""
    monkeypatch.setattr(deduce, "DEFAULT_BUDGET", 0)
    monkeypatch.setattr(local, "NODES", 0)
    monkeypatch.setattr(deduce, "DEEP_BUDGET", 0)
    monkeypatch.setattr(exact, "other_solution", lambda *args: None)  # out of its limits
    deduce.solve.cache_clear()
    try:
        hasty = Engine(gecode.host, Backend("gecode", time_limit=1e-6))
        params = params_for(hasty, fillomino, 6, 6)
        puzzle = hasty.generate(fillomino, params, 5, GenOptions(batch=1)).puzzle
    finally:
        deduce.solve.cache_clear()  # no outcome cut short by the patch stays remembered
    removals = puzzle.extra["removals"]
    assert removals["checker"]["kept"] == 0 and removals["checker"]["refused"] > 0
    assert puzzle.unknown >= removals["checker"]["refused"] and not puzzle.minimal
    result, boards = gecode.solve(fillomino, params, puzzle.grid, nr_solutions=2)
    assert result.complete and boards == [puzzle.solution]
