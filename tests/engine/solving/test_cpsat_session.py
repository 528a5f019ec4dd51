"""CP-SAT's session in this process (``CpsatSession``) against Gecode's process session:
the same answer to every kind of question; ``order`` gives the least solution in that
order (brute force); whole solves give minizinc-python's outputs and start no
``minizinc`` once the compile is cached; an exhausted deterministic-time budget is
unknown, never an answer."""
import itertools
import json
import random
import subprocess
from dataclasses import replace

import pytest

from puzzle_engine import Status
from puzzle_engine.engine import Engine
from puzzle_engine.errors import SolverError
from puzzle_engine.solving import backend as backend_module
from puzzle_engine.solving import cpsat
from puzzle_engine.solving.backend import Backend
from puzzle_engine.solving.cpsat_session import WORK_ENV, CpsatSession
from puzzle_engine.solving.session import Session, WholeSession

from puzzle_engine_plugins.fillomino import logic as fillomino_logic


@pytest.fixture(scope="module")
def pair(host):
    engines = {"gecode": Engine(host, Backend("gecode")), "cp-sat": Engine(host, Backend("cp-sat"))}
    try:
        yield engines
    finally:
        for engine in engines.values():
            engine.close()


def sessions(pair, ptype, params, board):
    return {name: engine.compiled(ptype, engine.checker_data(ptype, params, board))
            for name, engine in pair.items()}


def solved_sudoku(pair, host, size, seed):
    ptype = host.get_type("sudoku")
    engine = pair["gecode"]
    params = engine.check_params(ptype, {"size": size})
    full = engine.complete(ptype, params, (0,) * size ** 2)
    return ptype, params, full


def holes(full, k, seed):
    rng = random.Random(seed)
    board = list(full)
    for i in rng.sample(range(len(full)), k):
        board[i] = 0
    return tuple(board)


def questions(full, board, rng):
    """Every kind of question, as keyword arguments of ``run``."""
    empty = [i for i, v in enumerate(board) if not v]
    order = list(range(len(board)))
    rng.shuffle(order)
    return [
        {"limit": 1},
        {"limit": 2},
        {"limit": 50, "every": True},
        {"limit": 1, "solution": True, "order": order},
        {"limit": 2, "differs": full},
        {"limit": 2, "differs": full, "differs_at": empty[:3]},
        {"limit": 1, "differs": full, "stages": {i: k % 3 for k, i in enumerate(empty)}},
    ]


def same_answers(pair_sessions, boards, full, seed):
    rng = random.Random(seed)
    gecode, cp = pair_sessions["gecode"], pair_sessions["cp-sat"]
    assert isinstance(cp, CpsatSession) and isinstance(cp, Session)
    assert cp.squares == gecode.squares and cp.unfixed() == gecode.unfixed()
    assert cp.shaped(full) == gecode.shaped(full)
    for board in boards:
        for kwargs in questions(full, board, rng):
            a, b = gecode.run(board, **kwargs), cp.run(board, **kwargs)
            if "stages" in kwargs:  # (a process counts the improving solutions it printed)
                a, b = (replace(r, found=min(r.found, 1)) for r in (a, b))
            assert (a.found, a.complete, a.first, a.stage) == (b.found, b.complete, b.first, b.stage), \
                (board, kwargs)
            if a.found < kwargs["limit"]:  # every solution: the same ones (else any 50)
                assert sorted(a.every) == sorted(b.every)
            assert len(a.every) == len(b.every)
        assert gecode.count(board, 3) == cp.count(board, 3)


@pytest.mark.parametrize("size", [4, 9])
def test_sudoku_questions_agree_with_gecode(pair, host, size):
    ptype, params, full = solved_sudoku(pair, host, size, 1)
    boards = [full, holes(full, size ** 2 // 2, 1), holes(full, size ** 2 - 3, 2),
              (0,) * size ** 2] if size == 4 else \
        [full, holes(full, 50, 1), holes(full, 58, 2), holes(full, 64, 3)]
    bad = list(full)
    bad[0], bad[1] = bad[1], bad[0]  # two givens that break a row's rule: no solution
    boards.append(tuple(bad))
    same_answers(sessions(pair, ptype, params, full), boards, full, size)


def test_fillomino_questions_agree_with_gecode(pair, host):
    ptype = host.get_type("fillomino")
    engine = pair["gecode"]
    params = engine.check_params(ptype, {"rows": 4, "cols": 4})
    full = fillomino_logic.random_partition(4, 4, range(1, 5), random.Random(3))
    boards = [full, holes(full, 8, 1), holes(full, 12, 2)]
    for board in boards:  # the check model depends on the board's data: one pair each
        same_answers(sessions(pair, ptype, params, board), [board], full, 7)


def test_order_gives_the_least_solution_in_that_order(pair, host):
    """Brute force: every solution of a 4x4 board with few givens, and the least of them
    under random orders, on both back ends."""
    ptype, params, full = solved_sudoku(pair, host, 4, 1)
    both = sessions(pair, ptype, params, full)
    rng = random.Random(5)
    for k in (12, 14, 16):
        board = holes(full, k, k)
        every = both["gecode"].run(board, limit=10 ** 4, every=True)
        assert every.complete and every.found == len(every.every) > 1
        assert sorted(both["cp-sat"].run(board, limit=10 ** 4, every=True).every) == sorted(every.every)
        for _ in range(6):
            order = rng.sample(range(16), rng.randint(1, 16))
            least = min(every.every, key=lambda s: [s[i] for i in order])
            for name, session in both.items():
                got = session.run(board, order=order, solution=True).first
                assert [got[i] for i in order] == [least[i] for i in order], (name, order)


def test_stats_are_refused_on_cp_sat(pair, host):
    ptype, params, full = solved_sudoku(pair, host, 4, 1)
    cp = sessions(pair, ptype, params, full)["cp-sat"]
    with pytest.raises(SolverError, match="grade on gecode or chuffed"):
        cp.run(full, stats=True)


def test_deterministic_budget_exhausted_is_unknown(host, sudoku, monkeypatch):
    """A budget of almost no deterministic time, under a wall limit of minutes: the
    count stops at once and is incomplete, the optimum is not claimed."""
    monkeypatch.setenv(WORK_ENV, "1e-7")
    engine = Engine(host, Backend("cp-sat", time_limit=100))
    try:
        params = engine.check_params(sudoku, {"size": 25})
        model = engine.compiled(sudoku, engine.checker_data(sudoku, params, (0,) * 625))
        run = model.run((0,) * 625, limit=10 ** 6)
        assert run.found < 10 ** 6 and not run.complete
        ptype = host.get_type("polyomino-math")
        pparams = engine.check_params(ptype, {"rows": 10, "cols": 10})
        board = None
        rng = random.Random(2)
        while board is None:
            board = ptype.generate(pparams, rng, engine)
        result, _ = engine.solve(ptype, pparams, board)
        assert result.status in (Status.SAT, Status.UNKNOWN)
    finally:
        engine.close()
    monkeypatch.setenv(WORK_ENV, "many")
    engine = Engine(host, Backend("cp-sat", time_limit=1))
    try:
        params = engine.check_params(sudoku, {"size": 4})
        with pytest.raises(SolverError, match=WORK_ENV):
            engine.compiled(sudoku, engine.checker_data(sudoku, params, (0,) * 16)).run((0,) * 16)
    finally:
        engine.close()


# -- whole solves -----------------------------------------------------------------------------
def polyomino(host, engine, seed=1):
    ptype = host.get_type("polyomino-math")
    params = engine.check_params(ptype, {})
    rng = random.Random(seed)
    board = None
    while board is None:
        board = ptype.generate(params, rng, engine)
    return ptype, params, board


def whole(engine, ptype, params, board, monkeypatch, in_process, **kwargs):
    """``Backend.solve``'s answer, in this process or through minizinc-python."""
    with monkeypatch.context() as m:
        if not in_process:
            m.delitem(backend_module.IN_PROCESS, cpsat.SOLVER_ID)
        return engine.backend.solve(ptype, engine.data(ptype, params, board), **kwargs)


def canonical(raw):
    return sorted(json.dumps(r, sort_keys=True) for r in raw)


def test_whole_solves_give_minizinc_pythons_outputs(host, monkeypatch):
    engine = Engine(host, Backend("cp-sat"))
    try:
        ptype, params, board = polyomino(host, engine)
        ours, theirs = (whole(engine, ptype, params, board, monkeypatch, flag) for flag in (True, False))
        assert ours[0].status == theirs[0].status == Status.OPTIMAL
        assert ours[0].objective == theirs[0].objective
        assert [sorted(r) for r in ours[1]] == [sorted(r) for r in theirs[1]] == [["at", "objective"]]
        assert ours[1][0]["objective"] == theirs[1][0]["objective"]
        value = ours[0].objective
        for extra in ([f"constraint score = {value};"], [f"constraint score = {value + 1};"]):
            a, b = (whole(engine, ptype, params, board, monkeypatch, flag, nr_solutions=0,
                          goal="satisfy", extra=extra) for flag in (True, False))
            assert a[0].status == b[0].status and canonical(a[1]) == canonical(b[1])
        sudoku = host.get_type("sudoku")
        sparams = engine.check_params(sudoku, {"size": 4})
        empty = (0,) * 16
        for limit in (0, 1, 5):
            a, b = (whole(engine, sudoku, sparams, empty, monkeypatch, flag, nr_solutions=limit)
                    for flag in (True, False))
            assert a[0].status == b[0].status and len(a[1]) == len(b[1])
            assert [sorted(r) for r in a[1]] == [sorted(r) for r in b[1]]
            if limit == 0:
                assert a[0].status == Status.ALL and canonical(a[1]) == canonical(b[1])
    finally:
        engine.close()


def test_a_whole_solve_starts_no_minizinc_once_compiled(host, monkeypatch, tmp_path):
    """Every process the solves start, recorded where Python starts them (minizinc's
    compile through processes.run_minizinc; minizinc-python through asyncio, which uses
    subprocess.Popen too)."""
    monkeypatch.setenv("PUZZLE_ENGINE_FZN_CACHE", str(tmp_path / "fzn"))
    started = []
    popen = subprocess.Popen.__init__

    def record(self, args, *a, **k):
        started.append(" ".join(map(str, args)) if not isinstance(args, str) else args)
        popen(self, args, *a, **k)
    monkeypatch.setattr(subprocess.Popen, "__init__", record)
    engine = Engine(host, Backend("cp-sat"))
    try:
        ptype, params, board = polyomino(host, engine, 2)
        session_kind = backend_module.IN_PROCESS[cpsat.SOLVER_ID]
        assert session_kind is not None
        first = engine.solve(ptype, params, board)
        assert any("minizinc" in cmd for cmd in started)  # the compile, cold
        started.clear()
        again = engine.solve(ptype, params, board)
        assert started == []
        assert again[0].status == first[0].status == Status.OPTIMAL
        assert again[0].objective == first[0].objective
        verdict = engine.criterion(ptype).judge(engine, ptype, params, board)
        assert verdict.fields["optimum"] == first[0].objective
        started.clear()
        engine.criterion(ptype).judge(engine, ptype, params, board)
        assert started == []  # all three solves of the criterion: cached, in process
        with monkeypatch.context() as m:  # the process path does start one (the test sees it)
            m.delitem(backend_module.IN_PROCESS, cpsat.SOLVER_ID)
            engine.solve(ptype, params, board)
        assert any("minizinc" in cmd for cmd in started)
    finally:
        engine.close()


def test_cp_sat_session_answers_whole_solves(host):
    engine = Engine(host, Backend("cp-sat"))
    try:
        sudoku = host.get_type("sudoku")
        params = engine.check_params(sudoku, {"size": 4})
        session = engine.compiled(sudoku, engine.checker_data(sudoku, params, (0,) * 16))
        assert isinstance(session, WholeSession)
        result, raw = session.outputs(0)
        assert result.status == Status.ALL and len(raw) == 288  # the 4x4 grids
        assert len({json.dumps(r[sudoku.decision]) for r in raw}) == 288
        assert all(sorted(itertools.chain(*r[sudoku.decision][:2])) == [1, 1, 2, 2, 3, 3, 4, 4]
                   for r in raw)  # the top-left box: nested lists, as minizinc-python
        with pytest.raises(ValueError, match="objective"):
            session.outputs(1, "maximize")
    finally:
        engine.close()


def test_a_model_without_data_compiles_and_solves(host):
    """MiniZinc 2.6 cannot read an empty JSON object: a model with no data is flattened
    without a data file (a session's compile, and a whole solve on CP-SAT)."""
    from puzzle_engine import PuzzleType
    ptype = type("NoData", (PuzzleType,), {
        "name": "no-data", "decision": "x",
        "models": ("array[1..3] of var 1..3: x :: add_to_output;\n"
                   "constraint x[1] < x[2] /\\ x[2] < x[3];\nsolve satisfy;\n",)})()
    for solver in ("gecode", "cp-sat"):
        engine = Engine(host, Backend(solver))
        try:
            assert engine.compiled(ptype, {}).run((0, 0, 0), solution=True).first == (1, 2, 3)
            result, raw = engine.backend.solve(ptype, {}, 0)
            assert result.status == Status.ALL and raw == [{"x": [1, 2, 3]}]
        finally:
            engine.close()
