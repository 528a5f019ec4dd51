"""A solver time-out is unknown, never unique."""
import pytest

from puzzle_engine.solving.backend import Backend
from puzzle_engine.engine import Engine
from puzzle_engine.strategies import GenOptions
from support import run

# A 25x25 board with 3 givens: hopeless to prove unique in a millisecond.
SPARSE = "1" + "." * 311 + "2" + "." * 311 + "3"


@pytest.mark.parametrize("limit", ["0.001", "0.0001"])
def test_check_reports_unknown_on_time_out(limit):
    # the minizinc driver starts no faster than this, so the call is cut short; a limit
    # under a millisecond is one millisecond (MiniZinc would read 0 ms as no limit)
    result = run("check", "sudoku", SPARSE, "--time-limit", limit)
    assert result.exit_code == 1
    assert result.stdout.strip().startswith("unknown")


def test_removal_check_time_out_is_not_unique(host, engines):
    sudoku = host.get_type("sudoku")
    slow = Engine(host, Backend("gecode", time_limit=1e-4))
    params = slow.check_params(sudoku, {"size": 9})
    solution = engines["gecode"].complete(sudoku, params, (0,) * 81)
    checker = slow.checker(sudoku, params, solution)
    try:
        assert checker.count_other((0,) * 81, 1) == (0, False)
        assert checker.at_most((0,) * 81, 1) is False
        assert checker.unknown == 1
    finally:
        checker.close()


@pytest.mark.parametrize("batch, probes", [(1, 1), (16, 1), (16, 2)])
def test_generation_with_time_outs_is_marked(host, engines, monkeypatch, batch, probes):
    """Every check times out: nothing is removed, and the puzzle says why, one by one or
    speculating (each square counted once)."""
    sudoku = host.get_type("sudoku")
    engine = Engine(host, Backend("gecode", time_limit=None))
    params = engine.check_params(sudoku, {"size": 4})
    from puzzle_engine.solving import process

    def timed_out(self, board, limit, differs=None, differs_at=None):
        return 0, False
    monkeypatch.setattr(process.ProcessSession, "count", timed_out)
    p = engine.generate(sudoku, params, 1, GenOptions(batch=batch, probes=probes)).puzzle
    assert p.grid == p.solution and p.unknown == 16 and not p.minimal


def test_time_out_while_making_the_full_board_is_an_error(host):
    """GetRandomPuzzle that times out cannot silently give a board: a one-line error."""
    from puzzle_engine.errors import SolverError
    sudoku = host.get_type("sudoku")
    engine = Engine(host, Backend("gecode", time_limit=0.001))
    params = engine.check_params(sudoku, {"size": 25})
    with pytest.raises(SolverError, match="timed out completing"):
        engine.generate(sudoku, params, 1)
