"""Solver precedence: --solver, then PUZZLE_ENGINE_SOLVER, then the config file
(per-plugin section over [solver]), then gecode."""
import json

import pytest

from puzzle_engine.config import ENV_SOLVER, resolve
from puzzle_engine.errors import ConfigError


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(ENV_SOLVER, raising=False)
    return tmp_path


def write(path, text):
    path.write_text(text)
    return path


@pytest.mark.fast
def test_default_is_gecode(in_tmp):
    s = resolve(puzzle="sudoku")
    assert (s.solver, s.solver_from, s.time_limit) == ("gecode", "default", 60.0)


@pytest.mark.fast
def test_precedence_order(in_tmp, monkeypatch):
    write(in_tmp / "puzzle-engine.toml",
          '[solver]\nid = "chuffed"\ntime_limit = 5\n[plugins.sudoku]\nid = "gecode"\ntime_limit = 7\n')
    assert resolve(puzzle="other").solver == "chuffed"            # [solver]
    assert resolve(puzzle="other").time_limit == 5
    assert resolve(puzzle="sudoku").solver == "gecode"            # per-plugin beats [solver]
    assert resolve(puzzle="sudoku").time_limit == 7
    assert resolve(puzzle="x", plugin="sudoku").solver == "gecode"  # by plugin name too
    monkeypatch.setenv(ENV_SOLVER, "org.chuffed.chuffed")         # env beats the file
    s = resolve(puzzle="sudoku")
    assert (s.solver, s.solver_from) == ("org.chuffed.chuffed", f"environment ({ENV_SOLVER})")
    s = resolve(puzzle="sudoku", cli_solver="gecode", cli_time_limit=2)  # CLI beats everything
    assert (s.solver, s.solver_from, s.time_limit) == ("gecode", "command line", 2.0)


@pytest.mark.fast
def test_explicit_config_file(in_tmp):
    cfg = write(in_tmp / "other.toml", '[solver]\nid = "chuffed"\n')
    assert resolve(config_path=cfg).solver == "chuffed"
    with pytest.raises(ConfigError, match="does not exist"):
        resolve(config_path=in_tmp / "missing.toml")


@pytest.mark.fast
@pytest.mark.parametrize("text,message", [
    ('[solver\nid = "x"\n', r"puzzle-engine.toml: malformed TOML: .*line 1"),
    ('[solver]\nname = "x"\n', r"unknown field solver.name"),
    ('[solver]\ntime_limit = -1\n', r"solver.time_limit must be a positive number"),
    ('[plugins.sudoku]\nid = 3\n', r"plugins.sudoku.id must be a non-empty string"),
    ('[backend]\nid = "x"\n', r"unknown section \[backend\]"),
])
def test_bad_config_is_one_line_error(in_tmp, text, message):
    write(in_tmp / "puzzle-engine.toml", text)
    with pytest.raises(ConfigError, match=message) as info:
        resolve(puzzle="sudoku")
    assert "\n" not in str(info.value)


@pytest.mark.fast
def test_puzzle_type_preference_sits_below_the_config_file(in_tmp, monkeypatch):
    s = resolve(puzzle="fillomino", type_solver="chuffed")
    assert (s.solver, s.solver_from) == ("chuffed", "puzzle type 'fillomino'")
    write(in_tmp / "puzzle-engine.toml", '[solver]\nid = "gecode"\n')
    assert resolve(puzzle="fillomino", type_solver="chuffed").solver == "gecode"
    (in_tmp / "puzzle-engine.toml").unlink()
    monkeypatch.setenv(ENV_SOLVER, "gecode")
    assert resolve(puzzle="fillomino", type_solver="chuffed").solver == "gecode"
    assert resolve(puzzle="fillomino", type_solver="chuffed", cli_solver="gecode").solver == "gecode"


@pytest.mark.fast
def test_free_search_from_the_config_file(in_tmp):
    assert resolve(puzzle="fillomino").free_search is None      # the type decides
    write(in_tmp / "puzzle-engine.toml",
          '[solver]\nfree_search = true\n[plugins.fillomino]\nfree_search = false\n')
    s = resolve(puzzle="fillomino")
    assert (s.free_search, s.free_search_from) == (False, f"{in_tmp / 'puzzle-engine.toml'} [plugins.fillomino]")
    assert resolve(puzzle="sudoku").free_search is True
    write(in_tmp / "puzzle-engine.toml", '[solver]\nfree_search = "yes"\n')
    with pytest.raises(ConfigError, match="solver.free_search must be true or false"):
        resolve(puzzle="sudoku")


@pytest.mark.fast
def test_check_flags_from_the_config_file(in_tmp):
    s = resolve(puzzle="sudoku")
    assert (s.check_flags, s.check_flags_from) == (None, "solver default")
    write(in_tmp / "puzzle-engine.toml",
          '[solver]\ncheck_flags = ["-f"]\n[plugins.fillomino]\ncheck_flags = []\n')
    assert resolve(puzzle="sudoku").check_flags == ("-f",)
    s = resolve(puzzle="fillomino")
    assert (s.check_flags, s.check_flags_from) == ((), f"{in_tmp / 'puzzle-engine.toml'} [plugins.fillomino]")
    for bad in ('"-f"', '[1]', '[""]'):
        write(in_tmp / "puzzle-engine.toml", f'[solver]\ncheck_flags = {bad}\n')
        with pytest.raises(ConfigError, match="solver.check_flags must be a list of solver flags"):
            resolve(puzzle="sudoku")


def test_sudoku_prefers_sat_up_to_16x16_cp_sat_above_below_the_config_file(in_tmp):
    """The type's preference is a function of the size; gen records the solver used."""
    from support import run

    def solver_of(*args):
        result = run("gen", "sudoku", "--seed", "1", "--format", "json", *args)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)["solver"]
    assert solver_of("--size", "9") == "org.puzzle-engine.sat"
    assert solver_of("--size", "16", "--target-empty", "5") == "org.puzzle-engine.sat"
    assert solver_of("--size", "25", "--target-empty", "5") == "org.puzzle-engine.cp-sat"
    write(in_tmp / "puzzle-engine.toml", '[solver]\nid = "chuffed"\n')
    assert solver_of("--size", "25", "--target-empty", "5") == "org.chuffed.chuffed"
    assert solver_of("--size", "9", "--solver", "gecode") == "org.gecode.gecode"
    assert solver_of("--size", "25", "--target-empty", "5", "--solver", "gecode") == "org.gecode.gecode"


@pytest.mark.fast
def test_solver_preference_that_raises_is_a_plugin_error():
    """A third party's buggy preference function is a one-line error, not a traceback."""
    from puzzle_engine import PuzzleType, calls
    from puzzle_engine.errors import PluginError

    class X(PuzzleType):
        name = "x"

        def preferred_solver(self, params):
            return None if params is None else params["missing"]
    ptype = X()
    ptype.plugin = "third"
    assert calls.preferred_solver(ptype, None) is None  # params not known yet: no preference
    with pytest.raises(PluginError, match=r"preferred_solver \(puzzle 'x', plugin 'third'\).*KeyError"):
        calls.preferred_solver(ptype, {})


def _pattern_record(box: int, empty: int) -> str:
    """A JSON Lines record of a box*box Sudoku: the classic shifted-pattern full board with
    ``empty`` squares emptied, each in its own row, column and box (so the puzzle is unique)."""
    n = box * box
    grid = [[(box * (r % box) + r // box + c) % n + 1 for c in range(n)] for r in range(n)]
    for k in range(empty):
        grid[k * (box + 1)][k * (box + 1)] = 0
    return json.dumps({"type": "sudoku", "params": {"size": n}, "grid": grid})


def test_check_and_solve_run_each_puzzle_on_the_solver_its_size_prefers(in_tmp):
    """One input with a 9x9 and a 25x25 Sudoku: the 25x25 runs on CP-SAT, the 9x9 on
    the SAT back end, unless --solver or the config file says otherwise; `solvers` shows
    the choice for the size given."""
    from support import run
    write(in_tmp / "mixed.jsonl", _pattern_record(3, 3) + "\n" + _pattern_record(5, 4) + "\n")

    def solvers_of(command, *args):
        result = run(command, "sudoku", "mixed.jsonl", "--format", "json", *args)
        assert result.exit_code == 0, result.output
        records = [json.loads(line) for line in result.stdout.splitlines()]
        assert [r["params"]["size"] for r in records] == [9, 25]
        if command == "check":
            assert [r["solutions"] for r in records] == ["1", "1"]
        return [r["solver"] for r in records]
    assert solvers_of("check") == ["org.puzzle-engine.sat", "org.puzzle-engine.cp-sat"]
    assert solvers_of("solve") == ["org.puzzle-engine.sat", "org.puzzle-engine.cp-sat"]
    assert solvers_of("check", "--solver", "gecode") == ["org.gecode.gecode"] * 2
    write(in_tmp / "puzzle-engine.toml", '[solver]\nid = "gecode"\n')
    assert solvers_of("check") == ["org.gecode.gecode"] * 2
    (in_tmp / "puzzle-engine.toml").unlink()

    def in_effect(*args):
        result = run("solvers", *args)
        assert result.exit_code == 0, result.output
        return next(line for line in result.stdout.splitlines() if line.startswith("in effect:"))
    assert in_effect("--puzzle", "sudoku", "--size", "25").startswith(
        "in effect: cp-sat (from puzzle type 'sudoku')")
    assert in_effect("--puzzle", "sudoku", "--size", "9").startswith(
        "in effect: sat (from puzzle type 'sudoku')")
    # no size: the default size's (9), the solver 'gen sudoku' runs on
    assert in_effect("--puzzle", "sudoku").startswith("in effect: sat (from puzzle type 'sudoku')")
    result = run("solvers", "--size", "25")
    assert result.exit_code != 0 and "puzzle options need --puzzle" in result.output


@pytest.mark.fast
def test_a_config_file_is_a_regular_file_of_at_most_1_mb_checked_before_it_is_read(tmp_path):
    """A FIFO blocked the command forever and /dev/zero filled the memory: both are refused
    unread, in one line, as is a file over 1 MB. A run in a child process, with its memory
    capped, so that the old behaviour fails the test instead of the machine (the timeout
    is only a safety net)."""
    import os
    import resource
    import subprocess
    import sys
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " * 600_000)

    def capped():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    for path, says in ((fifo, f"cannot read config file {fifo}: not a regular file"),
                       ("/dev/zero", "cannot read config file /dev/zero: not a regular file"),
                       (big, f"{big}: the config file is larger than 1000000 bytes")):
        proc = subprocess.run([sys.executable, "-c", "from puzzle_engine.cli import main; main()",
                               "solvers", "--config", str(path)], capture_output=True, text=True,
                              timeout=300, preexec_fn=capped)
        assert (proc.returncode, proc.stderr) == (2, f"puzzle-engine: error: {says}\n")
