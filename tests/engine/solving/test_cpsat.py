"""CP-SAT through puzzle-engine's FlatZinc reader: the same solutions as Chuffed on models
that use the FlatZinc builtins, through MiniZinc and in-process; puzzles it generates are
unique and minimal by an independent solver; the fast path gives the one-by-one puzzles;
bad FlatZinc and time-outs are reported, never taken as answers."""
import os
import subprocess
from pathlib import Path

import pytest

from puzzle_engine.solving import cpsat
from puzzle_engine.solving.backend import Backend
from puzzle_engine.solving.discovery import find_solver, installed_solvers
from puzzle_engine.engine import Engine
from puzzle_engine.strategies import GenOptions

from support import ARITHMETIC, check_unique_and_minimal

OPTIMISE = """
array[1..5] of var 1..9: x;
constraint forall(i in 1..4)(x[i] < x[i + 1] \\/ x[i] - x[i + 1] = 3);
constraint sum(x) mod 4 = 1 /\\ x[3] * x[2] >= 12;
solve minimize sum(i in 1..5)(i * x[i]);
output [show(x), " ", show(sum(i in 1..5)(i * x[i])), "\\n"];
"""


def _minizinc(solver, model, *flags, tmp_path):
    cpsat.register()  # what the engine does before it runs MiniZinc
    path = tmp_path / "m.mzn"
    path.write_text(model)
    proc = subprocess.run(["minizinc", "--solver", solver, *flags, str(path)], capture_output=True,
                          text=True, env=os.environ.copy())
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _solutions(stdout):
    return sorted(ln for ln in stdout.splitlines() if ln and not ln.startswith(("-", "=", "%")))


def test_registered_with_minizinc():
    info = find_solver("cp-sat")
    assert info.id == cpsat.SOLVER_ID and info.id in {s.id for s in installed_solvers()}
    assert "-n" in info.std_flags and Path(info.executable).is_file()


def test_all_solutions_match_chuffed_through_minizinc(tmp_path):
    ours = _solutions(_minizinc("cp-sat", ARITHMETIC, "-a", tmp_path=tmp_path))
    chuffed = _solutions(_minizinc("chuffed", ARITHMETIC, "-a", tmp_path=tmp_path))
    assert len(ours) > 5 and ours == chuffed


def test_optimum_matches_chuffed(tmp_path):
    ours = _minizinc("cp-sat", OPTIMISE, tmp_path=tmp_path)
    chuffed = _minizinc("chuffed", OPTIMISE, tmp_path=tmp_path)
    assert "==========" in ours

    def best(out):
        return min(int(line.split()[-1]) for line in _solutions(out))
    assert best(ours) == best(chuffed)


def test_counts_and_limits_in_process(host, sudoku):
    """The empty 4x4 board has 288 solutions: all of them with a larger limit (and the
    search says it is complete), exactly the limit otherwise."""
    engine = Engine(host, Backend("cp-sat"))
    params = engine.check_params(sudoku, {"size": 4})
    model = engine.compiled(sudoku, engine.checker_data(sudoku, params, (0,) * 16))
    assert model.count((0,) * 16, 1000) == (288, True)
    assert model.count((0,) * 16, 5) == (5, True)
    given = (1, 2, 0, 0) + (0,) * 12
    assert model.count(given, 1000) == (288 // 12, True)
    assert model.count((1, 1) + (0,) * 14, 3) == (0, True)  # a contradiction in the givens


@pytest.mark.parametrize("size", [4, 9])
def test_sudoku_generated_on_cp_sat_is_unique_and_minimal(host, engines, sudoku, size):
    engine = Engine(host, Backend("cp-sat"))
    params = engine.check_params(sudoku, {"size": size})
    puzzle = engine.generate(sudoku, params, 3, GenOptions(batch=16, probes=2, optimise=True)).puzzle
    assert puzzle.solver == cpsat.SOLVER_ID
    check_unique_and_minimal(engines, sudoku, params, puzzle, "gecode")


def test_fast_path_gives_the_one_by_one_puzzle(host, sudoku):
    engine = Engine(host, Backend("cp-sat"))
    params = engine.check_params(sudoku, {"size": 9})
    plain = engine.generate(sudoku, params, 5, GenOptions(batch=1)).puzzle
    for options in (GenOptions(batch=16, probes=2, optimise=True),
                    GenOptions(batch=16, probes=1, optimise=False)):
        fast = engine.generate(sudoku, params, 5, options).puzzle
        assert fast.grid == plain.grid and fast.solver_calls < plain.solver_calls


def test_same_seed_same_puzzle_in_a_new_engine(host, sudoku):
    """Reproducible from seed and solver: one worker, a fixed random seed."""
    grids = []
    for _ in range(2):
        engine = Engine(host, Backend("cp-sat"))
        params = engine.check_params(sudoku, {"size": 9})
        grids.append(engine.generate(sudoku, params, 11).puzzle.grid)
    assert grids[0] == grids[1]


def test_fillomino_on_cp_sat_is_unique(host, engines):
    fillomino = host.get_type("fillomino")
    engine = Engine(host, Backend("cp-sat"))
    params = engine.check_params(fillomino, {"rows": 5, "cols": 5})
    puzzle = engine.generate(fillomino, params, 2, GenOptions(batch=16, probes=2, optimise=True)).puzzle
    result, boards = engines["chuffed"].solve(fillomino, params, puzzle.grid, nr_solutions=2)
    assert result.complete and boards == [puzzle.solution]
    # Fillomino's own deductions decide this puzzle's removals and it checks its random
    # board in Python (no CP-SAT call while generating): CP-SAT proves it unique too.
    result, boards = engine.solve(fillomino, params, puzzle.grid, nr_solutions=2)
    assert result.complete and boards == [puzzle.solution]


def test_unsupported_flatzinc_is_one_line_error_naming_the_line(tmp_path):
    fzn = tmp_path / "f.fzn"
    fzn.write_text("var 0..3: x :: output_var;\nvar 0.0..1.0: f;\nsolve satisfy;\n")
    out, err, code = cpsat.run_file(fzn, ["-n", "1"])
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "line 2" in err and "float" in err
    fzn.write_text("var 0..3: x :: output_var;\nconstraint int_lin_eq([1],[x],2);\n"
                   "constraint fzn_circuit([x]);\nsolve satisfy;\n")
    out, err, code = cpsat.run_file(fzn, [])
    assert code == 1 and "line 3" in err and "fzn_circuit" in err
    proc = subprocess.run([find_solver("cp-sat").executable, "-n", "1", str(fzn)],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "fzn_circuit" in proc.stderr and "Traceback" not in proc.stderr
    _, err, code = cpsat.run_file(fzn, ["--bogus"])
    assert code == 1 and "unknown flag '--bogus'" in err


def test_model_cp_sat_cannot_run_is_an_error_not_an_answer(host, tmp_path):
    """A check whose FlatZinc the reader refuses raises SolverError; it never counts."""
    from puzzle_engine import PuzzleType
    from puzzle_engine.errors import SolverError
    model = tmp_path / "floaty.mzn"
    model.write_text("int: n; array[1..n] of var 1..n: grid; var 0.0..1.0: f;\n"
                     "constraint grid[1] != grid[2] /\\ f >= 0.5;\nsolve satisfy;\n")
    ptype = type("Floaty", (PuzzleType,), {"name": "floaty", "models": (model,)})()
    engine = Engine(host, Backend("cp-sat"))
    with pytest.raises(SolverError, match="float"):  # (the session refuses it on opening)
        engine.compiled(ptype, {"n": 2}).count((0, 0), 2)


def test_time_out_is_unknown(host, sudoku):
    engine = Engine(host, Backend("cp-sat", time_limit=1e-3))
    params = engine.check_params(sudoku, {"size": 25})
    model = engine.compiled(sudoku, engine.checker_data(sudoku, params, (0,) * 625))
    run = model.run((0,) * 625, limit=10 ** 6)
    assert run.found < 10 ** 6 and not run.complete


def test_unbounded_int_gets_the_32_bit_range(tmp_path):
    fzn = tmp_path / "u.fzn"
    fzn.write_text("var int: x :: output_var;\nvar 0..5: y :: output_var;\n"
                   "constraint int_times(y,y,x);\nconstraint int_le(10,x);\nsolve minimize x;\n")
    out, err, code = cpsat.run_file(fzn, [])
    assert code == 0 and out == "x = 16;\ny = 4;\n----------\n==========\n", err


def test_division_by_a_variable_keeps_the_divisor_domain(tmp_path):
    """int_div and int_mod with a variable divisor: the divisor keeps its whole domain
    but zero. (OR-Tools 9.15's ``IntVar.Proto()`` is a temporary whose domain is freed
    memory once read, and its repeated fields read ``[-1]`` as 0: reading the divisor's
    bounds through it lost every positive divisor.)"""
    fzn = tmp_path / "d.fzn"
    fzn.write_text("var -3..3: d :: output_var;\nvar -9..9: q :: output_var;\n"
                   "var 1..5: m :: output_var;\n"
                   "constraint int_div(7,d,q);\nconstraint int_mod(7,m,2);\n"
                   "solve satisfy;\n")
    out, err, code = cpsat.run_file(fzn, ["-a"])
    assert code == 0, err
    found = sorted(s.strip() for s in out.split("----------") if s.strip() and "=====" not in s)
    # 7 div d for d in -3..3 but 0 (truncated), and 7 mod m = 2 only for m = 5.
    assert found == sorted(f"d = {d};\nq = {int(7 / d)};\nm = 5;" for d in (-3, -2, -1, 1, 2, 3))
