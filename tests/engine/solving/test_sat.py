"""The SAT back end (CaDiCaL in this process, on the CNF encoding): every question of the
session protocol answers as Gecode's process session does, on Sudoku and Fillomino
(counts, differs, differs_at, stages, every, the least solution in an order) and
Combination (arrays); a question whose conflict budget runs out is unknown; one session
answers many questions and is closed; the CLI generates unique puzzles with --solver sat
and lists the solver; Ctrl-C and SIGTERM stop a long solve at once."""
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from puzzle_engine.engine import Engine
from puzzle_engine.errors import SolverError
from puzzle_engine.solving import sat
from puzzle_engine.solving.backend import Backend
from puzzle_engine.solving.discovery import find_solver, installed_solvers
from puzzle_engine.solving.process import ProcessSession
from puzzle_engine import PuzzleType
from puzzle_engine.types import Status

CASES = [("sudoku", {"size": 4}), ("sudoku", {"size": 9}), ("fillomino", {"size": 4})]


@pytest.fixture(scope="module")
def pair(host):
    engines = {s: Engine(host, Backend(s, time_limit=None)) for s in ("gecode", "sat")}
    try:
        yield engines
    finally:
        for engine in engines.values():
            engine.close()


def models_for(pair, host, name, raw, squares):
    ptype = host.get_type(name)
    out = []
    for solver in ("gecode", "sat"):
        engine = pair[solver]
        params = engine.check_params(ptype, raw)
        empty = (0,) * squares
        out.append(engine.compiled(ptype, engine.checker_data(ptype, params, empty)))
    return out


SQUARES = {("sudoku", 4): 16, ("sudoku", 9): 81, ("fillomino", 4): 16}


@pytest.mark.parametrize("name, raw", CASES)
def test_every_question_agrees_with_gecode(pair, host, name, raw):
    gecode, cdcl = models_for(pair, host, name, raw, SQUARES[name, raw["size"]])
    assert isinstance(gecode, ProcessSession) and isinstance(cdcl, sat.SatSession)
    n = cdcl.squares
    assert n == gecode.squares and cdcl.unfixed() == gecode.unfixed()
    rnd = random.Random(f"{name}{raw}")
    empty = (0,) * n
    # the least solution in an order: the same values on the order's squares
    for order in (list(range(n)), rnd.sample(range(n), n // 2)):
        least = gecode.run(empty, order=order, solution=True).first
        mine = cdcl.run(empty, order=order, solution=True).first
        assert [mine[i] for i in order] == [least[i] for i in order]
    full = gecode.run(empty, order=list(range(n)), solution=True).first
    for fraction in (0.4, 0.8):
        board = tuple(0 if rnd.random() < fraction else v for v in full)
        holes = [i for i in range(n) if not board[i]]
        at = rnd.sample(holes, max(1, len(holes) // 4))
        for question in ({"limit": 3}, {"limit": 2, "differs": full},
                         {"limit": 2, "differs": full, "differs_at": at}):
            assert cdcl.count(board, **question) == gecode.count(board, **question), question
        mine, theirs = cdcl.run(board, 4, every=True), gecode.run(board, 4, every=True)
        assert (mine.found, mine.complete) == (theirs.found, theirs.complete)
        assert len(set(mine.every)) == mine.found
        if mine.found < 4:  # every solution: the same set
            assert set(mine.every) == set(theirs.every)
        for solution in mine.every:  # each a solution of the board
            assert all(not g or g == v for g, v in zip(board, solution))
        order = rnd.sample(range(n), n)
        assert cdcl.run(board, order=order, solution=True).first == \
            gecode.run(board, order=order, solution=True).first
        # the least solution counted first, then the others past it
        assert cdcl.run(board, 3, order=order).found == min(3, cdcl.count(board, 3)[0])
        for stages in ({i: k % 3 for k, i in enumerate(holes)}, {i: 0 for i in holes}):
            mine = cdcl.run(board, differs=full, stages=stages)
            theirs = gecode.run(board, differs=full, stages=stages)
            assert mine.complete and theirs.complete
            assert mine.stage == theirs.stage, stages
    # givens that contradict: none, for both
    wrong = (full[0] % max(full) + 1,) + full[1:]
    assert cdcl.count(wrong, 2) == gecode.count(wrong, 2) == (0, True)
    assert cdcl.count((99,) + empty[1:], 2) == (0, True)   # outside the domain


def test_arrays_fix_another_array_as_gecode_does(host):
    """Combination's growing levels fix the counts array per run (``arrays``): the same
    placements on SAT as on Gecode, through the board flattened once."""
    ptype = host.get_type("combination")
    found = {}
    for solver in ("gecode", "sat"):
        engine = Engine(host, Backend(solver, time_limit=None))
        try:
            for text in ("1 rook a, 1 rook b: .#./###", "1 rook a, 1 bishop a, 1 bishop b: .../###",
                         "1 bishop a, 1 rook b: .o./o.o/..#", "2 rook a, 1 queen b: ..../..../....",
                         "1 rook a, 1 rook b: .o./###"):
                parsed = ptype.parse({}, text)
                assert ptype.split_data(parsed.params, parsed.instance, engine.backend.info)
                result, solutions = engine.solve(ptype, parsed.params, parsed.instance, 0)
                found[solver, text] = (result.status, sorted(solutions))
            split = next(iter(engine._split.values()))
            assert isinstance(split, sat.SatSession if solver == "sat" else ProcessSession)
        finally:
            engine.close()
    for text in {t for _, t in found}:
        assert found["sat", text] == found["gecode", text], text


class Pigeons(PuzzleType):
    """n pigeons in n - 1 holes once the last square is given 2: hard for any CDCL solver
    (exponential in resolution); easy with it given 1."""
    name, decision = "pigeonhole_test", "grid"
    models = ("""
    include "alldifferent.mzn";
    int: n;
    array[1..n + 1] of var 1..n + 1: grid;
    constraint alldifferent(grid[1..n]) /\\ grid[n + 1] <= 2;
    constraint grid[n + 1] = 2 -> forall(i in 1..n)(grid[i] < n);
    solve satisfy;
    """,)


def pigeon_session(time_limit, n=11):
    return Backend("sat", time_limit=time_limit).compile(Pigeons(), {"n": n})


def test_a_spent_budget_is_unknown_and_the_session_goes_on():
    model = pigeon_session(0.01)   # 200 conflicts a question (and 30 ms of wall time)
    try:
        hard = (0,) * 11 + (2,)
        assert model.count(hard, 1) == (0, False)        # unknown: never "no solution"
        run = model.run(hard, 2, differs=(1,) * 12)
        assert (run.found, run.complete) == (0, False)
        assert model.count((0,) * 11 + (1,), 1) == (1, True)   # the next question answers
        assert model.count((1, 1) + (0,) * 10, 1) == (0, True)
    finally:
        model.close()


@pytest.mark.parametrize("text", ["many", "0", "-5"])
def test_a_bad_conflict_rate_is_one_line_naming_the_variable(text, tmp_path):
    env = {**os.environ, sat.WORK_ENV: text}
    proc = subprocess.run([sys.executable, "-c", "from puzzle_engine.cli import main; main()",
                           "gen", "sudoku", "--size", "4", "--seed", "1", "--solver", "sat",
                           "--time-limit", "5"], capture_output=True, text=True, env=env,
                          timeout=1800)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert f"bad {sat.WORK_ENV} {text!r}: expected a positive number" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_a_session_answers_many_questions_and_is_closed():
    """One solver for the session's life: 64 questions (givens, differs, counts) answer as
    Gecode's process session, what it learnt kept; closing deletes the solver."""
    model = pigeon_session(None, n=6)
    gecode = Backend("gecode").compile(Pigeons(), {"n": 6})
    try:
        full = model.run((0,) * 7, order=list(range(7)), solution=True).first
        assert full == (1, 2, 3, 4, 5, 6, 1)
        solver = model._core.solver()
        for k in range(0, 128, 4):
            board = tuple(v if (k >> i) & 1 else 0 for i, v in enumerate(full))
            assert model.count(board, 1, differs=full) == gecode.count(board, 1, differs=full)
            assert model.count(board, 3) == gecode.count(board, 3)
        assert model._core.solver() is solver   # the same solver throughout
        with pytest.raises(SolverError, match="does not report search nodes; grading needs "
                                              "a process back end"):
            model.run(full, stats=True)
    finally:
        model.close()
        gecode.close()
    assert model._core._solver is None       # deleted, not left to the collector
    with pytest.raises(SolverError, match="is closed"):
        model.count(full, 1)


class Small(PuzzleType):
    name, decision = "three_cells_test", "grid"
    models = ("""
    int: top;
    array[1..3] of var 1..top: grid;
    constraint grid[1] != grid[2] /\\ grid[2] != grid[3];
    """,)
    objective, sense = "grid[1] + 2 * grid[2] + 3 * grid[3]", "maximize"


def test_whole_solves_and_the_flatzinc_runner(tmp_path):
    """``outputs``: every solution, or the optimum by tightening the bound; the same
    through ``minizinc --solver sat`` (the registered wrapper)."""
    backend = Backend("sat", time_limit=None)
    model = backend.compile(Small(), {"top": 3}, extra=["solve satisfy;"])
    try:
        result, outs = model.outputs(0, "satisfy")
        assert result.status == Status.ALL and len({tuple(o["grid"]) for o in outs}) == 12
        result, outs = model.outputs(5, "satisfy")
        assert result.status == Status.SAT and len(outs) == 5
    finally:
        model.close()
    for goal, best, grid in (("maximize", 16, [3, 2, 3]), ("minimize", 8, [1, 2, 1])):
        model = backend.compile(Small(), {"top": 3}, extra=[f"solve {goal} {Small.objective};"])
        try:
            result, outs = model.outputs(1, goal)
            assert (result.status, result.objective) == (Status.OPTIMAL, best)
            assert outs[-1]["grid"] == grid
        finally:
            model.close()
    sat.register()
    path = tmp_path / "m.mzn"
    path.write_text("array[1..3] of var 1..3: x;\nconstraint x[1] != x[2] /\\ x[2] != x[3];\n"
                    "solve maximize x[1] + 2 * x[2] + 3 * x[3];\n")
    proc = subprocess.run(["minizinc", "--solver", "sat", str(path)], capture_output=True,
                          text=True, env=os.environ.copy(), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "x = [3, 2, 3];" in proc.stdout and "==========" in proc.stdout, proc.stdout


def cli(*args, **kwargs):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PUZZLE_ENGINE_PLUGINS", "PUZZLE_ENGINE_SOLVER", "PUZZLE_ENGINE_DEBUG")}
    return subprocess.run([sys.executable, "-c", "from puzzle_engine.cli import main; main()",
                           *map(str, args)], capture_output=True, text=True, env=env,
                          timeout=1800, **kwargs)


def test_solvers_lists_sat_and_the_name_finds_it():
    info = find_solver("sat")
    assert info.id == sat.SOLVER_ID and info.id in {s.id for s in installed_solvers()}
    assert info.name == "SAT (CaDiCaL)" and "sat" in info.tags
    proc = cli("solvers", "--solver", "sat")
    assert proc.returncode == 0, proc.stderr
    assert sat.SOLVER_ID in proc.stdout and "in effect: sat (from command line)" in proc.stdout


@pytest.mark.parametrize("args", [("sudoku", "--size", "9"), ("sudoku", "--size", "16"),
                                  ("fillomino", "--size", "5")])
def test_gen_with_sat_makes_a_unique_puzzle(host, engines, args, tmp_path):
    proc = cli("gen", *args, "--solver", "sat", "--seed", "4", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    import json
    record = json.loads(proc.stdout.splitlines()[0])
    assert record["solver"] == sat.SOLVER_ID
    ptype = host.get_type(args[0])
    engine = engines["gecode"]
    params = engine.check_params(ptype, {"size": int(args[2])})
    board = tuple(v for row in record["grid"] for v in row)
    solution = tuple(v for row in record["solution"] for v in row)
    model = engine.compiled(ptype, engine.checker_data(ptype, params, board))
    assert model.count(board, 2) == (1, True)              # unique, by Gecode
    assert model.count(board, 1, differs=solution) == (0, True)
    for i in [i for i, v in enumerate(board) if v][:12]:    # minimal: any given removed
        fewer = board[:i] + (0,) + board[i + 1:]
        assert model.count(fewer, 2)[0] == 2


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupt_stops_a_long_solve_at_once(signum, code):
    """A question that would run for minutes: the command's handlers stop it within 2 s
    (Ctrl-C: python-sat's own handler, handed on; SIGTERM: between chunks)."""
    script = (
        "import sys\n"
        "from puzzle_engine import processes\n"
        "from puzzle_engine.solving.backend import Backend\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from test_sat import Pigeons\n"
        "processes.handle_signals()\n"
        "model = Backend('sat', time_limit=None).compile(Pigeons(), {'n': 13})\n"
        "try:\n"
        "    print('asking', flush=True)\n"
        "    model.count((0,) * 13 + (2,), 1)\n"
        "except KeyboardInterrupt as exc:\n"
        "    model.close()\n"
        "    print('stopped', flush=True)\n"
        "    sys.exit(processes.exit_code(exc))\n")
    proc = subprocess.Popen([sys.executable, "-c", script, os.path.dirname(__file__)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "asking\n"
        proc.send_signal(signum)
        sent = time.monotonic()
        out, err = proc.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        proc.kill()
    assert (proc.returncode, out) == (code, "stopped\n"), err
    assert took < 30, took  # far less than the search's minutes, on a loaded machine too
