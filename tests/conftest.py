import pytest

from puzzle_engine.backend import Backend
from puzzle_engine.genpuzzles import Engine
from puzzle_engine.plugins import get_host

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
