"""The SAT runner (Glucose 4 on a CNF encoding of the FlatZinc): the same solutions and
optimum as Chuffed on models of its fragment, through MiniZinc and in-process; the
Sudoku puzzles it generates are unique and minimal by an independent solver, and the fast
path gives the one-by-one puzzle; what it cannot encode is a one-line error, and a
time-out is unknown."""
import os
import subprocess
from pathlib import Path

import pytest

from puzzle_engine import satrun
from puzzle_engine.backend import Backend, find_solver, installed_solvers
from puzzle_engine.errors import SolverError
from puzzle_engine.genpuzzles import Engine, GenOptions

from conftest import check_unique_and_minimal

# What the encoding can get wrong: the all-different (with and without all the values
# taken), reified comparisons of a variable with a constant and of two variables, linear
# relations of two variables, Boolean connectives, element over constants, set
# membership, bool2int, and a table (which MiniZinc decomposes for this solver).
FRAGMENT = """
include "alldifferent.mzn";
include "table.mzn";
array[1..4] of var 0..4: x;
var -3..3: y;
var bool: b;
var bool: c;
constraint alldifferent([x[1], x[2], x[3]]);
constraint b <-> (x[1] + 2 * x[2] <= 4);
constraint c -> (x[3] != x[4]);
constraint (b xor c) \\/ y = 0;
constraint y = x[4] - 3 \\/ y < x[2] - 3;
constraint x[4] = [3, 1, 4, 1, 0][x[1] + 1] \\/ x[4] = x[2];
constraint not (x[2] in {1, 3}) \\/ c;
constraint bool2int(b) + x[3] <= 3 \\/ y > 0;
constraint table([x[1], x[2]], [| 0, 1 | 1, 0 | 2, 3 | 3, 2 | 4, 4 | 0, 4 |]);
solve satisfy;
output [show(x), " ", show(y), " ", show(b), " ", show(c), "\\n"];
"""

OPTIMISE = """
include "alldifferent.mzn";
array[1..5] of var 1..9: x;
constraint alldifferent(x);
constraint forall(i in 1..4)(x[i] < x[i + 1] \\/ x[i] - x[i + 1] = 3);
constraint x[1] + x[5] >= 11 /\\ x[2] != 4;
solve minimize x[4];
output [show(x), " ", show(x[4]), "\\n"];
"""


def _minizinc(solver, model, *flags, tmp_path):
    satrun.register()  # what the engine does before it runs MiniZinc
    path = tmp_path / "m.mzn"
    path.write_text(model)
    proc = subprocess.run(["minizinc", "--solver", solver, *flags, str(path)], capture_output=True,
                          text=True, env=os.environ.copy())
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _solutions(stdout):
    return sorted(ln for ln in stdout.splitlines() if ln and not ln.startswith(("-", "=", "%")))


def test_registered_with_minizinc():
    info = find_solver("sat")
    assert info.id == satrun.SOLVER_ID and info.id in {s.id for s in installed_solvers()}
    assert "-n" in info.std_flags and Path(info.executable).is_file()


def test_all_solutions_match_chuffed_through_minizinc(tmp_path):
    ours = _solutions(_minizinc("sat", FRAGMENT, "-a", tmp_path=tmp_path))
    chuffed = _solutions(_minizinc("chuffed", FRAGMENT, "-a", tmp_path=tmp_path))
    assert len(ours) > 5 and ours == chuffed


def test_optimum_matches_chuffed(tmp_path):
    ours = _minizinc("sat", OPTIMISE, tmp_path=tmp_path)
    chuffed = _minizinc("chuffed", OPTIMISE, tmp_path=tmp_path)
    assert "==========" in ours

    def best(out):
        return min(int(line.split()[-1]) for line in _solutions(out))
    assert best(ours) == best(chuffed)
    # Every improving solution with -a, each better than the one before.
    steps = [int(line.split()[-1]) for line in _minizinc("sat", OPTIMISE, "-a", tmp_path=tmp_path)
             .splitlines() if line and line[0] == "["]
    assert steps[-1] == best(chuffed) and steps == sorted(steps, reverse=True)


def test_counts_and_limits_in_process(host, sudoku):
    """The empty 4x4 board has 288 solutions: all of them with a larger limit (and the
    search says it is complete), exactly the limit otherwise."""
    engine = Engine(host, Backend("sat"))
    params = engine.check_params(sudoku, {"size": 4})
    model = engine.compiled(sudoku, engine.checker_data(sudoku, params, (0,) * 16))
    assert model.count((0,) * 16, 1000) == (288, True)
    assert model.count((0,) * 16, 5) == (5, True)
    assert model.count((1, 2, 0, 0) + (0,) * 12, 1000) == (288 // 12, True)
    assert model.count((1, 1) + (0,) * 14, 3) == (0, True)  # a contradiction in the givens


@pytest.mark.parametrize("size", [4, 9])
def test_sudoku_generated_on_sat_is_unique_and_minimal(host, engines, sudoku, size):
    engine = Engine(host, Backend("sat"))
    params = engine.check_params(sudoku, {"size": size})
    puzzle = engine.generate(sudoku, params, 3, GenOptions(batch=16, probes=2, optimise=True)).puzzle
    assert puzzle.solver == satrun.SOLVER_ID
    check_unique_and_minimal(engines, sudoku, params, puzzle, "gecode")


def test_fast_path_gives_the_one_by_one_puzzle(host, sudoku):
    engine = Engine(host, Backend("sat"))
    params = engine.check_params(sudoku, {"size": 9})
    plain = engine.generate(sudoku, params, 5, GenOptions(batch=1)).puzzle
    for options in (GenOptions(batch=16, probes=2, optimise=True),
                    GenOptions(batch=16, probes=1, optimise=False)):
        fast = engine.generate(sudoku, params, 5, options).puzzle
        assert fast.grid == plain.grid and fast.solver_calls < plain.solver_calls


def test_same_seed_same_puzzle_in_a_new_engine(host, sudoku):
    grids = []
    for _ in range(2):
        engine = Engine(host, Backend("sat"))
        params = engine.check_params(sudoku, {"size": 9})
        grids.append(engine.generate(sudoku, params, 11).puzzle.grid)
    assert grids[0] == grids[1]


def test_what_it_cannot_encode_is_a_one_line_error_naming_the_line(tmp_path):
    fzn = tmp_path / "f.fzn"
    fzn.write_text("var 0..3: x :: output_var;\nvar 0..3: y;\nvar 0..9: z;\n"
                   "constraint int_times(x,y,z);\nsolve satisfy;\n")
    out, err, code = satrun.run_file(fzn, ["-n", "1"])
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "line 4" in err and "int_times" in err and "cp-sat" in err
    fzn.write_text("var 0..3: x :: output_var;\nvar 0..3: y;\nvar 0..9: z;\n"
                   "constraint int_lin_le([1,1,1],[x,y,z],4);\nsolve satisfy;\n")
    out, err, code = satrun.run_file(fzn, [])
    assert code == 1 and "line 4" in err and "3 variables" in err
    fzn.write_text("var int: x :: output_var;\nsolve satisfy;\n")
    _, err, code = satrun.run_file(fzn, [])
    assert code == 1 and "line 1" in err and "no bounds" in err
    proc = subprocess.run([find_solver("sat").executable, "-n", "1", str(fzn)],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "no bounds" in proc.stderr and "Traceback" not in proc.stderr
    _, err, code = satrun.run_file(fzn, ["--bogus"])
    assert code == 1 and "unknown flag '--bogus'" in err


def test_a_model_outside_the_fragment_is_an_error_not_an_answer(host):
    """Fillomino's model sums counts, which the SAT runner does not encode: the check
    raises SolverError, never a count."""
    fillomino = host.get_type("fillomino")
    engine = Engine(host, Backend("sat"))
    params = engine.check_params(fillomino, {"rows": 4, "cols": 4})
    compiled = engine.compiled(fillomino, engine.checker_data(fillomino, params, (0,) * 16))
    with pytest.raises(SolverError, match="cp-sat"):
        compiled.count((0,) * 16, 2)


def test_time_out_is_unknown(host, sudoku):
    engine = Engine(host, Backend("sat", time_limit=1e-3))
    params = engine.check_params(sudoku, {"size": 25})
    model = engine.compiled(sudoku, engine.checker_data(sudoku, params, (0,) * 625))
    run = model.run((0,) * 625, limit=10 ** 6)
    assert run.found < 10 ** 6 and not run.complete
