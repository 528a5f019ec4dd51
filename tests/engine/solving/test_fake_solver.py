"""The fake solver (tests/fake_solver.py) answers as the real one does: the same statuses,
solutions and counts as Gecode on random 4x4 boards, through the engine's own calls. Those
comparisons run Gecode (full suite); the fake's own parts are fast."""
import os
import random

import pytest

from puzzle_engine import Status
from puzzle_engine.engine import Engine
from puzzle_engine.plugins import get_host
from puzzle_engine.solving.backend import Backend

from fake_solver import (LATIN, SUDOKU, FakeBackend, constraints, holds, latin_squares,
                         sudoku_boards)
from support import TESTS, ToyLatin, TYPE


@pytest.mark.fast
def test_the_oracles_enumerate_every_board():
    """576 Latin squares and 288 Sudoku boards of order 4 (known counts), all distinct and
    all valid."""
    for boards, count in ((latin_squares(4), 576), (sudoku_boards(2, 2), 288)):
        assert len(boards) == len(set(boards)) == count
        for b in boards:
            rows = [b[i:i + 4] for i in range(0, 16, 4)]
            assert all(sorted(r) == [1, 2, 3, 4] for r in rows + list(zip(*rows)))
    boxes = [[b[r * 4 + c] for r in rows for c in cols]
             for b in sudoku_boards(2, 2) for rows in ((0, 1), (2, 3)) for cols in ((0, 1), (2, 3))]
    assert all(sorted(box) == [1, 2, 3, 4] for box in boxes)


@pytest.mark.fast
def test_the_constraints_the_engine_adds_are_read():
    solution = {"grid": [[1, 2], [2, 1]], "value": 4, "take": [0, 1, 1]}
    assert constraints(["constraint value = 4;", "constraint a; constraint b;"]) == \
        ["value = 4", "a", "b"]
    for expression, expected in (("value = 4", True), ("value != 4", False),
                                 ("grid[2,1] = 2 /\\ take[3] = 1", True),
                                 ("not (grid[1,1] = 1)", False), ("(take[1] = 1)", False),
                                 ("take[1] = 1 \\/ value >= 4", True), ("value + 1 > 4 * 1", True)):
        assert holds(expression, solution) is expected, expression
    for bad in ("solve satisfy;", "include \"x.mzn\";"):
        with pytest.raises(ValueError, match="reads only 'constraint"):
            constraints([bad])
    with pytest.raises(ValueError, match="names 'nosuch'"):
        holds("nosuch = 1", solution)
    with pytest.raises(ValueError, match="cannot read"):
        holds("value in 1..4", solution)


@pytest.mark.fast
def test_a_fast_test_that_starts_a_solver_fails(pytester, monkeypatch):
    """The guard of tests/conftest.py: in a test marked fast, starting MiniZinc, a FlatZinc
    solver or CP-SAT fails the test, even when the test swallows the error; other
    programs run."""
    pytester.makeconftest((TESTS / "conftest.py").read_text())
    # The conftest imports tests/support.py: the session of its own finds it on PYTHONPATH.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS),
                                                                  os.environ.get("PYTHONPATH")])))
    pytester.makeini("[pytest]\nmarkers =\n    fast: no solver\n")
    pytester.makefile(".fzn", model="var 1..2: x:: output_var;\nsolve satisfy;\n")
    solver = pytester.path / "fzn-nothing"  # a FlatZinc solver by its name, that does nothing
    solver.write_text("#!/bin/sh\nexit 0\n")
    solver.chmod(0o755)
    pytester.makepyfile(test_guarded="""
        import subprocess, sys
        import pytest
        from puzzle_engine.solving import cpsat
        from puzzle_engine.solving.backend import Backend

        @pytest.mark.fast
        def test_backend():
            Backend("gecode")

        @pytest.mark.fast
        def test_swallowed():
            try:
                subprocess.run(["./fzn-nothing", "--help"])
            except AssertionError:
                pass

        @pytest.mark.fast
        def test_cp_sat():
            cpsat.run_args(["-a", "model.fzn"])  # a FlatZinc file CP-SAT can solve

        @pytest.mark.fast
        def test_python():
            subprocess.run([sys.executable, "-c", "pass"], check=True)

        def test_not_fast():
            subprocess.run(["./fzn-nothing", "--help"], check=True)
    """)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, failed=2, errors=3)
    result.stdout.fnmatch_lines(["FAILED test_guarded.py::test_backend*",
                                 "FAILED test_guarded.py::test_cp_sat*",
                                 "ERROR test_guarded.py::test_backend*",
                                 "ERROR test_guarded.py::test_swallowed*",
                                 "ERROR test_guarded.py::test_cp_sat*"], consecutive=True)


def random_boards(boards, rng, count):
    """Boards with a random share of a random full board's squares given, a few with a
    clash (no solution)."""
    found = []
    for k in range(count):
        full = rng.choice(boards)
        board = [v if rng.random() < rng.choice((0.2, 0.4, 0.6)) else 0 for v in full]
        if k % 5 == 4:
            board[0], board[1] = 1, 1
        found.append(tuple(board))
    return found


@pytest.fixture(scope="module")
def engines():
    host = get_host()
    host.register(ToyLatin(), name="toy_latin", version="0.0.test")
    return {"fake": Engine(host, FakeBackend({TYPE: LATIN, "sudoku": SUDOKU})),
            "gecode": Engine(host, Backend("gecode"))}


@pytest.mark.parametrize("name, boards", [(TYPE, latin_squares(4)), ("sudoku", sudoku_boards(2, 2))])
def test_whole_solves_agree_with_gecode(engines, name, boards):
    """Statuses and solutions of Engine.solve, for 1, 2 and all solutions."""
    ptype = engines["fake"].host.get_type(name)
    params = engines["fake"].check_params(ptype, {"size": 4})
    for board in random_boards(boards, random.Random(1), 6):
        for wanted in (1, 2, 0):
            (fr, fs), (gr, gs) = (e.solve(ptype, params, board, nr_solutions=wanted)
                                  for e in (engines["fake"], engines["gecode"]))
            assert fr.status == gr.status and len(fs) == len(gs), (board, wanted)
            if gr.status in (Status.ALL, Status.UNSAT):
                assert sorted(fs) == sorted(gs)


@pytest.mark.parametrize("name, boards", [(TYPE, latin_squares(4)), ("sudoku", sudoku_boards(2, 2))])
def test_compiled_checks_agree_with_gecode(engines, name, boards):
    """The Checker's counts (differs from the full board) and its one-call search for the
    first of nested boards with another solution, on both solvers."""
    ptype = engines["fake"].host.get_type(name)
    params = engines["fake"].check_params(ptype, {"size": 4})
    rng = random.Random(2)
    for _ in range(4):
        full = rng.choice(boards)
        order = rng.sample(range(16), 16)
        nested = [tuple(0 if i in order[:k] else v for i, v in enumerate(full))
                  for k in range(2, 12, 2)]
        answers = {}
        for solver, engine in engines.items():
            checker = engine.checker(ptype, params, full)
            counts = [checker.count_other(b, 2) for b in nested]
            fresh = engine.checker(ptype, params, full)
            answers[solver] = (counts, fresh.first_with_other(nested))
            run = engine.compiled(ptype, engine.checker_data(ptype, params, full)).run(
                nested[-1], limit=3, solution=True)
            answers[solver] += ((run.found, run.complete, run.first is not None),)
        assert answers["fake"] == answers["gecode"]
