"""GenPuzzles with --batch: several squares per solver call, bisecting on failure, must
accept exactly the squares that one-by-one checking accepts."""
import random

import pytest

from puzzle_engine.strategies import emptying as genpuzzles
from puzzle_engine.solving.backend import Backend
from puzzle_engine.engine import Engine
from puzzle_engine.strategies import GenOptions

from fake_solver import FakeBackend

SOLUTION = tuple(int(c) for c in
                 "246731958315498762798256413952617384187943526634582179469875231873124695521369847")


class MonotoneOracle:
    """A stand-in checker with no solver: a board is "unique" unless its empty squares
    contain one of some random sets of squares. Like uniqueness, that is monotone: emptying
    more squares never makes a failing board pass."""

    def __init__(self, seed, n=81, sets=40, size=(2, 4)):
        rng = random.Random(seed)
        self.bad = [frozenset(rng.sample(range(n), rng.randint(*size))) for _ in range(sets)]
        self.calls = 0
        self.optimised = 0
        self.unknown = 0

    def count_other(self, board, limit):
        self.calls += 1
        empty = {i for i, v in enumerate(board) if v == 0}
        return (limit, True) if any(b <= empty for b in self.bad) else (0, True)

    def at_most(self, board, k=1):
        found, _ = self.count_other(board, k)
        return found < k

    def first_with_other(self, boards):
        self.calls += 1
        self.optimised += 1
        empties = [{i for i, v in enumerate(b) if v == 0} for b in boards]
        return next((j for j, e in enumerate(empties) if any(b <= e for b in self.bad)), None), True


@pytest.fixture(scope="module")
def unsolved(host):
    """An engine for the type's own methods only: its solver has no answers (the oracles
    stand in for the checker)."""
    return Engine(host, FakeBackend({}))


@pytest.mark.fast
@pytest.mark.parametrize("optimise", [False, True])
@pytest.mark.parametrize("probes", [1, 2, 3])
@pytest.mark.parametrize("choose", ["fill", "random"])
@pytest.mark.parametrize("batch", [2, 3, 8, 64])
def test_batched_emptying_equals_one_by_one_without_a_solver(unsolved, sudoku, choose, batch, probes,
                                                              optimise, monkeypatch):
    params = unsolved.check_params(sudoku, {"size": 9, "choose": choose})
    total = [0, 0]
    optimised = 0
    guesses = set()
    speculation = genpuzzles._Speculation

    def spy(known, guess=True, **sessions):
        guesses.add(guess)
        return speculation(known, guess, **sessions)
    monkeypatch.setattr(genpuzzles, "_Speculation", spy)
    for seed in range(15):
        results = []
        for b in (1, batch):
            oracle = MonotoneOracle(seed)
            run = genpuzzles._Run(unsolved)
            empty = run._empty_batched if b > 1 else run._empty
            accepted = []
            board, tested = empty(sudoku, params, SOLUTION, oracle, random.Random(seed),
                                  GenOptions(batch=b, target_empty=None if seed % 3 else 40,
                                             probes=probes, optimise=optimise),
                                  accepted.append)
            results.append((board, tested, accepted, oracle.calls))
            optimised += oracle.optimised
        (board1, tested1, acc1, calls1), (board2, tested2, acc2, calls2) = results
        assert board2 == board1 and tested2 == tested1 and acc2 == acc1
        assert 0 < len(acc1) < len(tested1)  # squares are both accepted and refused
        total[0] += calls1
        total[1] += calls2
    if probes == 1:  # more probes at once spend more calls to save rounds
        assert total[1] < total[0]  # one failing run can cost an extra call, but not overall
    # Runs of removals are speculated, and with more than one probe runs of refusals too.
    assert guesses == ({True, False} if probes > 1 else {True})
    assert (optimised > 0) == optimise


@pytest.mark.parametrize("solver", ["gecode", "chuffed"])
@pytest.mark.parametrize("size, seeds", [(4, 4), (6, 3), (9, 3)])
def test_batched_generation_gives_the_same_puzzles(host, sudoku, solver, size, seeds):
    engine = Engine(host, Backend(solver))
    params = engine.check_params(sudoku, {"size": size})
    for seed in range(1, seeds + 1):
        one = engine.generate(sudoku, params, seed, GenOptions(variants=2)).puzzle
        calls = engine.backend.calls
        batched = engine.generate(sudoku, params, seed, GenOptions(variants=2, batch=16))
        assert batched.puzzle.grid == one.grid and batched.puzzle.minimal
        assert batched.puzzle.solver_calls <= one.solver_calls
        assert engine.backend.calls - calls == batched.puzzle.solver_calls
        calls = engine.backend.calls
        probed = engine.generate(sudoku, params, seed, GenOptions(variants=2, batch=16, probes=2))
        assert probed.puzzle.grid == one.grid and probed.puzzle.minimal
        assert engine.backend.calls - calls == probed.puzzle.solver_calls
        optimised = engine.generate(sudoku, params, seed,
                                    GenOptions(variants=2, batch=16, probes=2, optimise=True))
        assert optimised.puzzle.grid == one.grid and optimised.puzzle.minimal
        assert optimised.puzzle.solver_calls <= probed.puzzle.solver_calls
        assert optimised.compl_dict == batched.compl_dict == probed.compl_dict


def test_batched_generation_with_a_plugin_rule_and_at_most_k(host, sudoku):
    """Fillomino refuses some squares without the solver (its region rule); --max-solutions
    2 makes the check "at most 2"."""
    fillomino = host.get_type("fillomino")
    engine = Engine(host, Backend("chuffed", free_search=True))
    params = engine.check_params(fillomino, {"size": 5})
    for seed in (1, 2, 3):
        for k in (1, 2):
            one = engine.generate(fillomino, params, seed, GenOptions(max_solutions=k)).puzzle
            batched = engine.generate(fillomino, params, seed,
                                      GenOptions(max_solutions=k, batch=8)).puzzle
            assert batched.grid == one.grid
            probed = engine.generate(fillomino, params, seed,
                                     GenOptions(max_solutions=k, batch=8, probes=3)).puzzle
            assert probed.grid == one.grid
            optimised = engine.generate(fillomino, params, seed,
                                        GenOptions(max_solutions=k, batch=8, optimise=True)).puzzle
            assert optimised.grid == one.grid


class SlowOracle(MonotoneOracle):
    """The oracle, with answers that take 0 to 4 ms (fixed per board), so that speculated
    refusals' checks finish out of order, as solver calls of very different lengths do."""

    def count_other(self, board, limit):
        import time
        time.sleep((hash(board) % 5) / 1000)
        return super().count_other(board, limit)


@pytest.mark.fast
@pytest.mark.parametrize("probes", [2, 3])
def test_refusals_pipelined_out_of_order_equal_one_by_one(unsolved, sudoku, probes, monkeypatch):
    """Refusals' checks start as they are speculated and the run grows while the next one
    waits; steps are committed in order, so the puzzle is the one-by-one one."""
    params = unsolved.check_params(sudoku, {"size": 9})
    grown = []
    resolve = genpuzzles._Run._resolve_refusals

    def spy(steps, *args):
        before = len(steps)
        wrong = resolve(steps, *args)
        grown.append(len(steps) > before)
        return wrong
    monkeypatch.setattr(genpuzzles._Run, "_resolve_refusals", staticmethod(spy))
    for seed in range(6):
        results = []
        for b in (1, 16):
            oracle = SlowOracle(seed, sets=60, size=(2, 3))
            run = genpuzzles._Run(unsolved)
            empty = run._empty_batched if b > 1 else run._empty
            accepted = []
            board, tested = empty(sudoku, params, SOLUTION, oracle, random.Random(seed),
                                  GenOptions(batch=b, probes=probes, optimise=True), accepted.append)
            results.append((board, tested, accepted))
        assert results[0] == results[1]
    assert any(grown)  # runs of refusals did grow while a check ran
