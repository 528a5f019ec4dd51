import atexit
import os
import shutil
import tempfile

import pytest

from puzzle_engine.solving.backend import CACHE_ENV, Backend
from puzzle_engine.engine import Engine
from puzzle_engine.plugins import get_host

# The FlatZinc cache of this test session (the CLI tests' subprocesses inherit it), never
# the user's.
os.environ[CACHE_ENV] = tempfile.mkdtemp(prefix="puzzle-engine-test-fzn-")
atexit.register(shutil.rmtree, os.environ[CACHE_ENV], ignore_errors=True)

SOLVERS = ("gecode", "chuffed")
OTHER = {"gecode": "chuffed", "chuffed": "gecode"}


@pytest.fixture(scope="session")
def host():
    return get_host()


@pytest.fixture(scope="session")
def engines(host):
    """One engine per real solver, with no time limit (tests must not depend on speed)."""
    return {s: Engine(host, Backend(s, time_limit=None)) for s in SOLVERS}


@pytest.fixture(scope="session")
def sudoku(host):
    return host.get_type("sudoku")


def check_unique_and_minimal(engines, ptype, params, puzzle, solver):
    """The puzzle agrees with its solution, is unique by an independent check (the other
    solver, a full MiniZinc run asked for 2 solutions) and minimal (every given is needed,
    checked with the other solver)."""
    other = engines[OTHER[solver]]
    assert all(puzzle.solution)
    assert all(g == 0 or g == s for g, s in zip(puzzle.grid, puzzle.solution))
    result, boards = other.solve(ptype, params, puzzle.grid, nr_solutions=2)
    assert result.complete
    assert boards == [puzzle.solution]
    assert puzzle.minimal
    checker = other.checker(ptype, params, puzzle.solution)
    try:
        for i, v in enumerate(puzzle.grid):
            if v:
                weaker = puzzle.grid[:i] + (0,) + puzzle.grid[i + 1:]
                found, definite = checker.count_other(weaker, 1)
                assert definite and found == 1, f"given at {i} is not needed"
    finally:
        checker.close()
