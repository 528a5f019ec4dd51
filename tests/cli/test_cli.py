"""The CLI end to end: formats, piping, bad input (one line, exit 2), resume."""
import json

import pytest

from puzzle_engine_plugins.sudoku import logic
from support import fast, one_line_error, run

PUZZLE = "..6...9.8...4..76....25....9....73...........63...2..9....7..3.8..1..6.5..1..98.."
SOLUTION = "246731958315498762798256413952617384187943526634582179469875231873124695521369847"


def test_gen_formats_and_check_roundtrip(tmp_path):
    line = run("gen", "sudoku", "--seed", "5", "--format", "line")
    assert line.exit_code == 0 and len(line.stdout.strip()) == 81
    text = run("gen", "sudoku", "--seed", "5")
    assert text.exit_code == 0
    assert "|" in text.stdout and "-+-" in text.stdout
    js = run("gen", "sudoku", "--seed", "5", "--format", "json")
    record = json.loads(js.stdout)
    for key in ("type", "params", "grid", "solution", "givens", "seed", "solver", "solver_calls",
                "seconds", "plugin", "plugin_version", "solver_version"):
        assert key in record
    assert logic.format_line(tuple(v for row in record["grid"] for v in row)) == line.stdout.strip()
    for source in (line.stdout.strip(), text.stdout, js.stdout):
        path = tmp_path / "p.txt"
        path.write_text(source)
        for arg, inp in ((str(path), None), ("-", source)):
            result = run("check", "sudoku", arg, input=inp)
            assert result.exit_code == 0 and result.stdout.strip() == "1 solution (unique)"


def test_solve_and_check_counts():
    solved = run("solve", "sudoku", PUZZLE, "--format", "line", "--solver", "chuffed")
    assert solved.exit_code == 0 and solved.stdout.strip() == SOLUTION
    few = PUZZLE[:9] + "." * 72
    result = run("check", "sudoku", few)
    assert result.exit_code == 1 and result.stdout.strip() == "2 or more solutions"
    result = run("check", "sudoku", few, "--format", "json")
    assert json.loads(result.stdout)["solutions"] == "2 or more"
    # no solution: consistent givens that cannot be completed (row 1 lacks 1; column 9 rules 1 out)
    none = "23456789." + "........1" + "." * 63
    result = run("check", "sudoku", none)
    assert result.exit_code == 1 and result.stdout.strip() == "0 solutions"
    result = run("solve", "sudoku", none)
    assert result.exit_code == 1 and "no solution" in result.stderr


def test_sizes_and_alphabet():
    result = run("gen", "sudoku", "--size", "16", "--seed", "2", "--format", "line",
                 "--target-empty", "20")
    assert result.exit_code == 0
    line = result.stdout.strip()
    assert len(line) == 256 and line.count(".") == 20 and set(line) <= set("123456789ABCDEFG.")
    assert run("check", "sudoku", line).exit_code == 0
    result = run("gen", "sudoku", "--box", "2x3", "--seed", "2", "--format", "json")
    assert json.loads(result.stdout)["params"]["box"] == "2x3"


@pytest.mark.parametrize("args,words", [
    fast(["gen", "nosuch"], ["unknown puzzle 'nosuch'"]),
    (["gen", "sudoku", "--solver", "nosuch"], ["solver 'nosuch' is not installed"]),
    fast(["gen", "sudoku", "--size", "7"], ["bad size 7"]),
    fast(["gen", "sudoku", "--size", "3"], ["bad size 3"]),
    fast(["gen", "sudoku", "--size", "99"], ["bad size 99"]),
    fast(["gen", "sudoku", "--size", "abc"], ["bad --size 'abc'"]),
    fast(["gen", "sudoku", "--box", "3y3"], ["bad --box '3y3'"]),
    fast(["gen", "sudoku", "--size", "9", "--box", "2x3"], ["does not match --box"]),
    fast(["gen", "sudoku", "--frobnicate", "1"], ["unknown option --frobnicate"]),
    fast(["gen", "sudoku", "--format", "xml"], ["bad --format 'xml'"]),
    (["gen", "sudoku", "--complexity", "vibes"], ["unknown complexity function 'vibes'"]),
    fast(["gen", "sudoku", "--config", "/nonexistent.toml"], ["/nonexistent.toml does not exist"]),
    (["check", "sudoku", PUZZLE[:80]], ["wrong length: 80 cells"]),
    (["check", "sudoku", PUZZLE, "--size", "16"], ["wrong length: 81 cells, expected 256"]),
    (["check", "sudoku", "x" + PUZZLE[1:]], ["bad symbol 'x' at row 1, column 1"]),
    (["check", "sudoku", PUZZLE[:40] + "A" + PUZZLE[41:]], ["bad symbol 'A' at row 5, column 5"]),
    (["check", "sudoku", "66" + PUZZLE[2:]], ["conflicting givens: 6 appears twice in row 1"]),
    (["check", "sudoku", "5" + PUZZLE[1:9] + "5" + PUZZLE[10:]], ["5 appears twice in column 1"]),
    (["check", "sudoku", ""], ["empty input"]),
    (["check", "sudoku", '{"grid": [[1, 2], [3]]}'], ["line 1", "expected 81"]),
    (["check", "sudoku", '{"grid": "abc"'], ["line 1", "not a puzzle record"]),
    fast(["check", "nosuch", PUZZLE], ["unknown puzzle 'nosuch'"]),
    (["check", "sudoku", "/nonexistent/p.txt"], ["no such file: /nonexistent/p.txt"]),
    (["grade", "sudoku", "missing.jsonl"], ["no such file: missing.jsonl"]),
])
def test_bad_input_is_one_line_and_exit_2(args, words):
    one_line_error(run(*args), *words)


def test_missing_minizinc_says_how_to_install(monkeypatch):
    from puzzle_engine.solving import discovery
    discovery.installed_solvers.cache_clear()
    monkeypatch.setenv("PATH", "/nonexistent")
    try:
        one_line_error(run("gen", "sudoku", "--seed", "1"), "MiniZinc is not installed",
                       "apt-get install minizinc")
    finally:
        monkeypatch.undo()
        discovery.installed_solvers.cache_clear()


def test_model_error_is_reported(host, monkeypatch):
    sudoku = host.get_type("sudoku")

    class Broken(type(sudoku)):
        models = ("int: r; int: c; array[1..4] of var 1..4: grid;\n"
                  "constraint grid[1] = nosuchname;\n",)
    broken = Broken()
    broken.plugin = sudoku.plugin
    monkeypatch.setitem(host._registries, "types", {**host.types, "sudoku": broken})
    from puzzle_engine.solving.backend import Backend
    from puzzle_engine.errors import ModelError
    from puzzle_engine.engine import Engine
    engine = Engine(host, Backend("gecode"))
    params = engine.check_params(broken, {"size": 4})
    # The place is the plugin's own model, never a temporary file the user cannot open.
    where = r"at the inline model of puzzle 'sudoku' \(part 1\), line 2: .*nosuchname"
    with pytest.raises(ModelError, match="model error in puzzle 'sudoku' " + where) as exc:
        engine.solve(broken, params, (0,) * 16)
    assert "/tmp" not in str(exc.value) and "puzzle-engine-" not in str(exc.value)
    checker = engine.checker(broken, params, (1,) * 16)  # compiles at its first check
    with pytest.raises(ModelError, match="model error in puzzle 'sudoku' " + where) as exc:
        checker.count_other((0,) * 16, 1)
    assert "/tmp" not in str(exc.value) and "puzzle-engine-" not in str(exc.value)
    checker.close()


def test_count_reproducible_batch_and_resume(tmp_path):
    out = tmp_path / "batch.jsonl"
    full = run("gen", "sudoku", "--size", "4", "--count", "4", "--seed", "10", "--format", "json")
    assert full.exit_code == 0
    records = [json.loads(x) for x in full.stdout.splitlines()]
    assert [r["seed"] for r in records] == [10, 11, 12, 13]
    # an interrupted batch: two whole records and half of a third
    out.write_text(full.stdout.splitlines(keepends=True)[0] + full.stdout.splitlines(keepends=True)[1]
                   + full.stdout.splitlines()[2][:30])
    result = run("gen", "sudoku", "--size", "4", "--count", "4", "--format", "json",
                 "--out", str(out), "--resume")
    assert result.exit_code == 0 and result.stdout == ""
    resumed = [json.loads(x) for x in out.read_text().splitlines()]
    assert [(r["seed"], r["grid"]) for r in resumed] == [(r["seed"], r["grid"]) for r in records]
    # a finished batch resumes to nothing, and a seed clash is refused
    assert run("gen", "sudoku", "--size", "4", "--count", "4", "--format", "json",
               "--out", str(out), "--resume").exit_code == 0
    assert len(out.read_text().splitlines()) == 4
    one_line_error(run("gen", "sudoku", "--size", "4", "--count", "5", "--seed", "99",
                       "--format", "json", "--out", str(out), "--resume"), "--seed 10, not 99")
    one_line_error(run("gen", "sudoku", "--out", str(out), "--resume"), "--resume needs")
    # without --resume an existing batch is never overwritten
    one_line_error(run("gen", "sudoku", "--size", "4", "--format", "json", "--out", str(out)),
                   "already exists and is not empty")
    assert len(out.read_text().splitlines()) == 4
    # --force replaces it (and cannot be given with --resume)
    one_line_error(run("gen", "sudoku", "--size", "4", "--format", "json", "--out", str(out),
                       "--force", "--resume"), "give one of them")
    forced = run("gen", "sudoku", "--size", "4", "--seed", "3", "--format", "json", "--out",
                 str(out), "--force")
    assert forced.exit_code == 0, forced.output
    assert [json.loads(x)["seed"] for x in out.read_text().splitlines()] == [3]


@pytest.mark.parametrize("failure", ["error", "interrupt"])
def test_gen_force_keeps_the_file_when_the_run_ends_before_its_first_puzzle(tmp_path,
                                                                            monkeypatch, failure):
    """``gen --out F --force`` emptied F before any work: a run that then failed (a solver
    time-out, a model error) or was interrupted before its first puzzle, exit 2 or 130,
    had lost the user's file for nothing. F is replaced at the first puzzle written."""
    from puzzle_engine.engine import Engine
    from puzzle_engine.errors import SolverError
    out = tmp_path / "mine.txt"
    out.write_text("precious\n")

    def fail(*args, **kwargs):
        if failure == "interrupt":
            raise KeyboardInterrupt
        raise SolverError("solver timed out completing a 'sudoku' board (raise --time-limit)")
    monkeypatch.setattr(Engine, "generate", fail)
    result = run("gen", "sudoku", "--size", "4", "--seed", "3", "--count", "2", "--out",
                 str(out), "--force")
    assert result.exit_code == (2 if failure == "error" else 130), result.output
    assert out.read_text() == "precious\n"


def test_line_format_input_is_one_puzzle_per_line(tmp_path):
    """`gen --format line --count N` piped into check reads N puzzles, even where the lines
    would also read as one board: four 4x4 Sudoku lines are 64 cells (an 8x8 board), and
    Fillomino lines of one width stack into a taller board. A grid in the text format is
    still one puzzle, and a bad line is named."""
    for args in (["sudoku", "--size", "4", "--count", "4"], ["fillomino", "--size", "4", "--count", "2"],
                 ["sudoku", "--size", "16", "--count", "2"]):
        lines = run("gen", *args, "--seed", "1", "--format", "line").stdout
        count = int(args[-1])
        assert len(lines.splitlines()) == count
        checked = run("check", args[0], "-", "--format", "json", input=lines)
        assert checked.exit_code == 0, checked.output
        records = [json.loads(x) for x in checked.stdout.splitlines()]
        assert len(records) == count and all(r["unique"] for r in records)
        side = "size" if args[0] == "sudoku" else "rows"
        assert {r["params"][side] for r in records} == {int(args[2])}
        path = tmp_path / f"{args[0]}.txt"
        path.write_text(lines)
        solved = run("solve", args[0], str(path), "--format", "line")
        assert solved.exit_code == 0 and len(solved.stdout.splitlines()) == count
    full = "1234341221434321"  # a solved 4x4: four of them on one line are one 8x8 board
    checked = run("check", "sudoku", "-", input=f"{full}\n" * 4)
    assert checked.exit_code == 0 and checked.stdout.splitlines() == ["1 solution (unique)"] * 4
    one_line_error(run("check", "sudoku", full * 4), "conflicting givens", "row 1")
    grids = run("solve", "sudoku", "-", input=f"{full}\n" * 4).stdout.strip().split("\n\n")
    assert len(grids) == 4 and all(len(g.splitlines()) == 5 for g in grids)  # a blank line between
    text = run("gen", "sudoku", "--size", "16", "--seed", "5").stdout
    assert run("check", "sudoku", "-", input=text).stdout.strip() == "1 solution (unique)"
    one_line_error(run("check", "sudoku", "-", input=f"{full}\n123\n"),
                   "stdin, line 2: wrong length: 3 cells")


def test_variants_in_output():
    result = run("gen", "sudoku", "--size", "6", "--seed", "3", "--variants", "2", "--format", "json")
    records = [json.loads(x) for x in result.stdout.splitlines()]
    assert [r["variant"] for r in records] == [None, 1, 2]
    assert len({json.dumps(r["grid"]) for r in records}) == 3
    assert len({r["givens"] for r in records}) == 1


def test_solvers_and_plugins_commands(monkeypatch):
    monkeypatch.setenv("PUZZLE_ENGINE_SOLVER", "chuffed")
    result = run("solvers")
    assert result.exit_code == 0
    assert "org.chuffed.chuffed" in result.stdout and "org.gecode.gecode" in result.stdout
    assert "in effect: chuffed (from environment (PUZZLE_ENGINE_SOLVER))" in result.stdout
    marked = [ln for ln in result.stdout.splitlines() if "*" in ln]
    assert len(marked) == 1 and "chuffed" in marked[0]
    result = run("solvers", "--solver", "gecode")
    assert [ln for ln in result.stdout.splitlines() if "*" in ln][0].count("gecode")
    result = run("plugins")
    assert result.exit_code == 0 and "sudoku" in result.stdout and "--size" in result.stdout


@pytest.mark.fast
def test_help_on_every_command():
    for command in ("gen", "solve", "check", "plugins", "solvers"):
        result = run(command, "--help")
        assert result.exit_code == 0 and "Usage" in result.stdout


def test_fillomino_gen_solve_check_and_options():
    """gen writes the record with the solver the type prefers (Chuffed, free search);
    solve and check read every format back."""
    rec = json.loads(run("gen", "fillomino", "--rows", "4", "--cols", "5", "--seed", "3",
                         "--format", "json").stdout.splitlines()[0])
    assert rec["type"] == "fillomino" and rec["params"]["rows"] == 4 and rec["params"]["cols"] == 5
    assert rec["solver"] == "org.chuffed.chuffed" and rec["options"]["free_search"] is True
    assert rec["options"]["check_flags"] == ["-f"]
    grid = "/".join(" ".join(str(v) if v else "." for v in row) for row in rec["grid"])
    line = run("gen", "fillomino", "--rows", "4", "--cols", "5", "--seed", "3", "--format", "line")
    assert line.stdout.strip() == grid
    text = run("gen", "fillomino", "--rows", "4", "--cols", "5", "--seed", "3").stdout
    assert len(text.strip().splitlines()) == 4
    solution = "\n".join(" ".join(str(v) for v in row) for row in rec["solution"])
    for source in (grid, text, json.dumps(rec)):
        solved = run("solve", "fillomino", source)
        assert solved.exit_code == 0 and solved.stdout.split() == solution.split()
        checked = run("check", "fillomino", "-", input=source)
        assert checked.exit_code == 0 and checked.stdout.strip() == "1 solution (unique)"
    gecode = json.loads(run("gen", "fillomino", "--size", "4", "--seed", "1", "--solver", "gecode",
                            "--format", "json").stdout)
    assert gecode["solver"] == "org.gecode.gecode" and gecode["options"]["free_search"] is False
    assert gecode["options"]["check_flags"] == []
    several = run("check", "fillomino", ". 3/. .")
    assert several.exit_code == 1 and several.stdout.strip() == "2 or more solutions"
    assert run("check", "fillomino", "2 2/1 .").stdout.strip() == "0 solutions"
    # a one-column board reads like a path, and is still a puzzle when no such file exists
    assert run("check", "fillomino", "./.").stdout.strip() == "1 solution (unique)"


@pytest.mark.parametrize("args, words", [
    (["check", "fillomino", "1 . 2/. 3"], ["wrong row length: row 2 has 2 cells"]),
    (["check", "fillomino", ". 10/. ."], ["bad value 10 at row 1, column 2", "larger than the board"]),
    (["check", "fillomino", ". 0/. ."], ["bad value 0 at row 1, column 2"]),
    (["check", "fillomino", ". -1/. ."], ["bad value -1"]),
    (["check", "fillomino", ". ./. .", "--size", "3"], ["wrong number of rows: 2, expected 3"]),
    fast(["gen", "fillomino", "--size", "31"], ["bad rows 31", "30x30"]),
    fast(["gen", "fillomino", "--size", "5", "--max-region", "0"], ["bad --max-region 0"]),
    fast(["gen", "fillomino", "--seeding", "z3"], ["bad --seeding 'z3'"]),
])
def test_fillomino_bad_input_is_one_line_and_exit_2(args, words):
    one_line_error(run(*args), *words)


def test_batch_option_gives_the_same_puzzle_in_fewer_calls():
    recs = [json.loads(run("gen", "sudoku", "--seed", "8", "--format", "json", *extra).stdout)
            for extra in ([], ["--batch", "1"], ["--bisect"])]
    assert recs[0]["grid"] == recs[1]["grid"] == recs[2]["grid"]
    assert recs[0]["options"]["batch"] == 16 and recs[1]["options"]["batch"] == 1
    # One by one: a completion of the seed board, its verification, and a check per square.
    assert recs[0]["solver_calls"] < recs[2]["solver_calls"] < recs[1]["solver_calls"] == 83
    for option, value in (("--batch", "0"), ("--count", "0"), ("--target-empty", "-1"),
                          ("--max-solutions", "0"), ("--variants", "-2"), ("--workers", "0")):
        one_line_error(run("gen", "sudoku", option, value), f"bad {option} {value}: must be at least")


def test_workers_give_the_same_batch_in_seed_order(tmp_path):
    """--workers 2 makes the puzzles in two processes; the output is the same, in the same
    order, as with one, and --resume goes on from what is in the file."""
    args = ["gen", "sudoku", "--size", "4", "--count", "5", "--seed", "40", "--format", "json",
            "--variants", "1"]
    one = run(*args).stdout
    two = run(*args, "--workers", "2").stdout
    # One process bisects with 2 probes at once, workers with 1: other solver_calls, same puzzles.
    strip = lambda text: [{k: v for k, v in json.loads(ln).items() if k not in ("seconds", "solver_calls")}
                          for ln in text.splitlines()]
    assert strip(two) == strip(one) and len(strip(one)) == 10
    out = tmp_path / "batch.jsonl"
    out.write_text("".join(ln + "\n" for ln in one.splitlines()[:4]))  # 2 puzzles + variants
    resumed = run(*args, "--workers", "2", "--out", str(out), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert strip(out.read_text()) == strip(one)


def test_workers_are_waited_for_after_the_last_puzzle(host, monkeypatch):
    """A finished batch waits for its idle workers: not waiting let Python's exit handler
    print a traceback now and then. An interrupted one kills them first, then waits."""
    from concurrent.futures import ProcessPoolExecutor

    from puzzle_engine import calls as calls_module
    from puzzle_engine.run.executors import LocalPool
    from puzzle_engine.run.factory import SolverSettings
    from puzzle_engine.run.job import Job
    from puzzle_engine.solving.backend import Backend
    from puzzle_engine.strategies import GenOptions
    calls = []
    shutdown = ProcessPoolExecutor.shutdown

    def spy(self, wait=True, cancel_futures=False):
        workers = list((self._processes or {}).values())
        shutdown(self, wait, cancel_futures=cancel_futures)
        calls.append((wait, cancel_futures, [p.exitcode for p in workers]))
    monkeypatch.setattr(ProcessPoolExecutor, "shutdown", spy)
    params = calls_module.canonical_params(host.get_type("sudoku"), {"size": 4})
    job = Job("sudoku", params, GenOptions(), SolverSettings.of(Backend("gecode")))
    results = list(LocalPool(2).results(job, range(1, 4)))
    assert [r.result.puzzle.seed for r in results] == [1, 2, 3]
    assert calls[0] == (True, False, [0, 0])  # idle workers, ended by the pool
    batch = LocalPool(2).results(job, range(1, 40))
    next(batch)
    batch.close()
    assert calls[-1] == (True, True, [-9, -9])  # killed (SIGKILL), then waited for


def test_workers_are_pinned_one_per_cpu_only_when_they_fill_the_cpus(host, monkeypatch):
    """With as many workers as CPUs, each worker (and the solvers it starts) runs on a CPU
    of its own; with fewer or more, or PUZZLE_ENGINE_PIN_WORKERS=off, none is pinned."""
    import os
    import queue

    from puzzle_engine.run import pool as workers
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3, 5})
    assert workers.cpus_to_pin(2) == [3, 5]
    assert workers.cpus_to_pin(1) is None and workers.cpus_to_pin(3) is None
    monkeypatch.setenv(workers.PIN_ENV, "off")
    assert workers.cpus_to_pin(2) is None
    monkeypatch.undo()
    mine = os.sched_getaffinity(0)
    cpus = queue.Queue()
    cpus.put(max(mine))
    try:
        workers._join(cpus)
        assert os.sched_getaffinity(0) == {max(mine)}
    finally:
        os.sched_setaffinity(0, mine)


def test_check_flags_change_the_search_not_the_puzzle(tmp_path):
    """Operators set the solver's flags for uniqueness checks in the config file; the
    puzzles stay those of the default flags. A flag the solver rejects is a one-line error."""
    args = ["gen", "sudoku", "--seed", "4", "--solver", "chuffed", "--format", "line"]
    default = run(*args)
    assert default.exit_code == 0, default.output
    for flags in ('["-f"]', "[]"):
        config = tmp_path / "pe.toml"
        config.write_text(f"[plugins.sudoku]\ncheck_flags = {flags}\n")
        same = run(*args, "--config", str(config))
        assert same.exit_code == 0 and same.stdout == default.stdout, flags
    config.write_text('[plugins.sudoku]\ncheck_flags = ["--no-such-flag"]\n')
    one_line_error(run(*args, "--config", str(config)), "Chuffed", "--no-such-flag")


@pytest.mark.parametrize("options", [[], ["--size", "4"]])
def test_solvers_names_the_solver_gen_runs_on(options):
    """'solvers --puzzle sudoku' without a size named Gecode while 'gen sudoku' (size 9 by
    default) ran on Chuffed: both now take the type's parameters at their defaults."""
    shown = run("solvers", "--puzzle", "sudoku", *options)
    assert shown.exit_code == 0, shown.output
    in_effect = shown.output.rsplit("in effect: ", 1)[1].split()[0]
    made = run("gen", "sudoku", "--seed", "1", "--format", "json", *options)
    assert made.exit_code == 0, made.output
    record = json.loads(made.stdout)
    from puzzle_engine.solving.discovery import find_solver
    assert find_solver(in_effect).id == record["solver"]


def test_gen_count_says_nothing_on_stderr_that_is_not_a_terminal(tmp_path):
    """The progress bar's last frame was an empty line on stderr when stderr was a file
    or a pipe: the bar is now shown on a terminal only."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "puzzle_engine", "gen", "sudoku", "--size", "4",
                           "--count", "2", "--seed", "1"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("+") >= 2 and done.stderr == ""


def test_gen_variants_in_text_say_which_is_the_original():
    made = run("gen", "sudoku", "--size", "4", "--seed", "1", "--variants", "2")
    assert made.exit_code == 0, made.output
    heads = [block.splitlines()[0] for block in made.stdout.strip().split("\n\n")]
    assert heads == ["original (seed 1)", "variant 1 of 2", "variant 2 of 2"]
    plain = run("gen", "sudoku", "--size", "4", "--seed", "1")
    assert "original" not in plain.stdout and "variant" not in plain.stdout


@pytest.mark.fast
def test_counts_are_said_in_the_singular_for_one():
    from puzzle_engine.cli.common import counted
    assert [counted(n, "group") for n in (0, 1, 1.0, 2, 2.4)] == \
        ["0 groups", "1 group", "1 group", "2 groups", "2 groups"]


def test_explain_says_one_group_not_one_groups(tmp_path):
    puzzle = tmp_path / "p4.txt"
    puzzle.write_text("...4.32.....2.4.\n")
    done = run("explain", "sudoku", str(puzzle))
    assert done.exit_code == 0, done.output
    last = done.stdout.strip().splitlines()[-1]
    assert "largest reason 1 group," in last and "1 groups" not in last


def test_the_wine_merchant_says_1_gallon():
    """Seed 1 draws a barrel of 1 gallon among the options (the spec said '1 gallons')."""
    made = run("gen", "logic", "--spec", "wine-merchant", "--seed", "1")
    assert made.exit_code == 0, made.output
    options = [ln for ln in made.stdout.splitlines() if ln[:3] in ("A. ", "B. ", "C. ", "D. ")]
    assert len(options) == 4 and all(ln.endswith(("gallon", "gallons")) for ln in options)
    assert any(ln.endswith(" 1 gallon") for ln in options)
    assert not any(" 1 gallons" in ln for ln in options)


@pytest.mark.fast
@pytest.mark.parametrize("command", [["gen"], ["batch"], ["check"], ["solve"], ["grade"],
                                     ["train"], ["explain"], ["hint"], ["render"], ["specs"],
                                     ["plugins"], ["solvers"], ["db", "stats"], ["db", "export"],
                                     ["db", "query"]])
def test_help_is_plain_paragraphs(command):
    """The usage line named arguments in braces ({puzzle} {INPUT}). A command's help
    showed its docstring's own line breaks (sentences broken mid-line at the terminal's
    width) and reStructuredText's ``quotes``: now each paragraph is one line on a wide
    terminal, and no double backquote is shown."""
    shown = run(*command, "--help", env={"COLUMNS": "400", "TERM": "dumb"})
    assert shown.exit_code == 0, shown.output
    assert "``" not in shown.output
    usage = shown.output.split("Usage:", 1)[1].splitlines()[0]
    assert "{" not in usage and "}" not in usage, usage  # typer's {puzzle}: PUZZLE
    text = shown.output.split("Usage:", 1)[1].split("╭", 1)[0]
    text = "\n".join(line.strip() for line in text.splitlines())
    paragraphs = [p for p in text.split("\n\n")[1:] if p.strip()]
    assert paragraphs and all(len(p.strip().splitlines()) == 1 for p in paragraphs), paragraphs


@pytest.mark.fast
def test_batch_eta_follows_the_rate_it_shows():
    """batch showed rich's ETA (from the last 30 s) beside its own rate over the run: 9:27
    where the rate said 13.4 minutes. Both now come from the same rate."""
    from rich.progress import Progress
    from puzzle_engine.run.progress import EtaColumn, RateColumn
    now = [0.0]
    bar = Progress(RateColumn(), EtaColumn(), get_time=lambda: now[0], disable=True)
    task = bar.add_task("sudoku", total=100, completed=10, held=10)
    shown = lambda: [str(column.render(bar.tasks[task])) for column in bar.columns]  # noqa: E731
    assert shown() == ["-/min", "ETA -:--:--"]
    now[0] = 60.0
    bar.update(task, completed=40)  # 30 of this run's puzzles in a minute
    assert shown() == ["30.0/min", "ETA 0:02:00"]
    now[0] = 7260.0
    bar.update(task, completed=41)  # 31 in 121 minutes: 59 left take 230.3 minutes
    assert shown() == ["0.3/min", "ETA 3:50:17"]
