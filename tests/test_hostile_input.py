"""Hostile input, one row each: every bad input is one line on stderr that names the
problem, exit status 2, no traceback, and no file it did not write is changed.

A row is ``(args, words)``, or ``(args, words, stdin)``. In ``args``, ``{tmp}`` is a
folder holding the files of ``FILES``, a folder ``dir``, and a snapshot of each file is
compared after the run. The rows run ``puzzle_engine.cli.main`` in this process, as the
console script does, so the command line parser's own errors are covered too.
"""
import io
import json
import signal
import sys
from types import SimpleNamespace

import pytest

from puzzle_engine import __version__
from puzzle_engine import calls
from puzzle_engine.solving.backend import find_solver
from puzzle_engine.cli import main
from puzzle_engine.plugins import get_host

PUZZLE = "..6...9.8...4..76....25....9....73...........63...2..9....7..3.8..1..6.5..1..98.."
SUDOKU4 = "1234341221434321"


#: The options a 4x4 Sudoku batch records (the type's canonical params).
SUDOKU4_PARAMS = calls.canonical_params(get_host().get_type("sudoku"), {"size": 4})


def _record(type_, params, seed=1, variant=None):
    """A record as a 4x4 'gen' on the type's default solver (Chuffed) writes it."""
    chuffed = find_solver("chuffed")
    return json.dumps({"type": type_, "params": params, "grid": [[0]], "seed": seed,
                       "variant": variant, "plugin": type_, "engine_version": __version__,
                       "plugin_version": get_host().get_type(type_).plugin_version,
                       "solver": chuffed.id, "solver_version": chuffed.version,
                       "options": {"max_solutions": 1, "target_empty": None,
                                   "complexity": "givens", "batch": 16}})


def fast(*row):
    """A row caught before any solver is asked for anything (marker ``fast``)."""
    return pytest.param(row, marks=pytest.mark.fast)


FILES = {
    "notes.txt": b"my notes\nthe last line has no newline",
    "one-note.txt": b"a single line of notes",
    "formfeed.txt": b"page one\fpage two\n",
    "latin1.txt": b"caf\xe9\n",
    "latin1.toml": b'[solver]\nid = "g\xe9code"\n',
    "latin1.csv": b"puzzle,label\n" + PUZZLE.encode() + b",caf\xe9\n",
    "lines.txt": f"{SUDOKU4}\nnot a puzzle\n".encode(),
    "spaced.txt": (" ".join(SUDOKU4) + "\n").encode(),
    "good-lines.txt": f"{SUDOKU4}\n".encode(),
    "nan.toml": b"[solver]\ntime_limit = nan\n",
    "inf.toml": b"[solver]\ntime_limit = inf\n",
    "huge.toml": b"[plugins.sudoku]\ntime_limit = 1e308\n",
    "negative.toml": b"[solver]\ntime_limit = -1\n",
    "string.toml": b'[solver]\ntime_limit = "soon"\n',
    "bool.toml": b"[solver]\ntime_limit = true\n",
    "broken.toml": b"[solver\n",
    "model.skops": b"not a level model",
}
#: Batches as Chuffed writes them: made when a test needs them, since they ask MiniZinc
#: for Chuffed's version (rows marked fast never name one; see the last test).
RECORDS = {
    "fillomino.jsonl": lambda: (_record("fillomino", {"rows": 4, "cols": 4, "max_region": None,
                                                     "seeding": "solver"}) + "\n").encode(),
    "sudoku4.jsonl": lambda: (_record("sudoku", SUDOKU4_PARAMS) + "\n").encode(),
    "variants.jsonl": lambda: "".join(_record("sudoku", SUDOKU4_PARAMS, 1, v) + "\n"
                                      for v in (None, 1, 2)).encode(),
    "gap.jsonl": lambda: "".join(_record("sudoku", SUDOKU4_PARAMS, s) + "\n"
                                 for s in (1, 3)).encode(),
}
GEN4 = ["gen", "sudoku", "--size", "4", "--seed", "1"]

ROWS = [
    # -- numbers on the command line
    fast(["gen", "sudoku", "--time-limit", "nan"], ["bad --time-limit nan", "number of seconds"]),
    fast(["gen", "sudoku", "--time-limit", "inf"], ["bad --time-limit inf", "at most 604800"]),
    fast(["gen", "sudoku", "--time-limit", "1e308"], ["--time-limit 1e+308", "at most 604800"]),
    fast(["gen", "sudoku", "--time-limit", "-1"], ["--time-limit -1", "positive"]),
    fast(["gen", "sudoku", "--time-limit", "0"], ["--time-limit 0", "positive"]),
    fast(["check", "sudoku", PUZZLE, "--time-limit", "nan"], ["bad --time-limit nan"]),
    fast(["solve", "sudoku", "--time-limit", "-5", PUZZLE], ["bad --time-limit -5"]),
    fast(["grade", "sudoku", PUZZLE, "--time-limit", "inf"], ["bad --time-limit inf"]),
    fast(["gen", "sudoku", "--time-limit", "soon"], ["invalid value for '--time-limit'"]),
    fast(["gen", "sudoku", "--count", "0"], ["bad --count 0", "at least 1"]),
    fast(["gen", "sudoku", "--count", "-3"], ["bad --count -3"]),
    fast(["gen", "sudoku", "--count", "1e9999"], ["invalid value for '--count'"]),
    fast(["gen", "sudoku", "--count"], ["'--count' requires an argument"]),
    fast(["gen", "sudoku", "--seed", "abc"], ["invalid value for '--seed'"]),
    fast(["gen", "sudoku", "--workers", "100000"], ["bad --workers 100000", "at most"]),
    fast(["gen", "sudoku", "--probes", "100000"], ["bad --probes 100000", "at most 64"]),
    fast(["gen", "sudoku", "--variants", "10000000"], ["bad --variants 10000000", "at most 1000"]),
    fast(["gen", "sudoku", "--max-solutions", "10" * 10], ["bad --max-solutions", "at most"]),
    fast(["gen", "sudoku", "--target-empty", "0"], ["bad --target-empty 0"]),
    fast(["gen", "sudoku", "--attempts", "0"], ["bad --attempts 0"]),
    fast(["gen", "sudoku", "--size", "9" * 30], ["bad size"]),
    fast(["gen", "sudoku", "--size", "-4"], ["bad size -4"]),
    fast(["gen", "sudoku", "--size", "nan"], ["bad --size 'nan'"]),
    fast(["gen", "sudoku", "--box", "0x0"], ["box"]),
    fast(["gen", "sudoku", "--box", f"{'9' * 20}x{'9' * 20}"], ["bad size"]),
    fast(["gen", "fillomino", "--size", "0"], ["bad rows 0"]),
    fast(["gen", "fillomino", "--rows", "-3", "--cols", "4"], ["bad rows -3"]),
    fast(["gen", "fillomino", "--size", "4", "--max-region", "1e5"], ["bad --max-region '1e5'"]),
    (["grade", "sudoku", PUZZLE, "--runs", "0"], ["--runs must be from 1 to 10000, not 0"]),
    (["grade", "sudoku", PUZZLE, "--runs", "9" * 21], ["--runs must be from 1 to 10000"]),
    (["grade", "sudoku", PUZZLE, "--cutoff", "nan"], ["--cutoff must be a number"]),
    (["grade", "sudoku", PUZZLE, "--cutoff", "-1"], ["--cutoff must be a number"]),
    (["grade", "sudoku", PUZZLE, "--jobs", "0"], ["--jobs must be from 1 to 64, not 0"]),
    (["grade", "sudoku", PUZZLE, "--jobs", "100000"], ["--jobs must be from 1 to 64"]),
    (["train", "sudoku", "--data", "{tmp}/latin1.csv", "--per-label", "0"], ["--per-label 0"]),
    # -- words in the wrong place
    fast(["gen", "nosuch"], ["unknown puzzle 'nosuch'"]),
    fast(["gnu", "sudoku"], ["no such command 'gnu'"]),
    fast(["gen", "sudoku", "extra"], ["unexpected argument 'extra'"]),
    fast(["gen", "sudoku", "--format", "xml"], ["bad --format 'xml'"]),
    (["gen", "sudoku", "--complexity", "vibes"], ["unknown complexity function 'vibes'"]),
    (["gen", "sudoku", "--grader", "x", "--difficulty", "easy"], ["bad --grader 'x'"]),
    (["gen", "sudoku", "--difficulty", "impossible"], ["unknown --difficulty 'impossible'"]),
    fast(["check", "sudoku"], ["missing argument 'INPUT'"]),
    fast(["check", "sudoku", "--size", "9"], ["missing the puzzle to read"]),
    fast(["check", "sudoku", PUZZLE, "extra"], ["unexpected argument 'extra'"]),
    fast(["check", "sudoku", "--size"], ["option --size needs a value"]),
    fast(["check", "sudoku", PUZZLE, "--size"], ["option --size needs a value"]),
    fast(["solvers", "--puzzle", "nosuch"], ["unknown puzzle 'nosuch'"]),
    fast(["solvers", "--size", "9"], ["puzzle options need --puzzle"]),
    # -- puzzles
    (["check", "sudoku", '{"grid": null}'], ["line 1", "field 'grid' must be a list of rows"]),
    (["check", "sudoku", '{"grid": 5}'], ["line 1", "field 'grid' must be a list of rows"]),
    (["solve", "sudoku", '{"grid": true}'], ["line 1", "field 'grid' must be a list of rows"]),
    (["grade", "sudoku", '{"grid": null}'], ["line 1", "field 'grid' must be a list of rows"]),
    (["check", "fillomino", '{"grid": "1 2"}'], ["line 1", "field 'grid' must be a list"]),
    (["solve", "fillomino", '{"grid": null}'], ["line 1", "field 'grid' must be a list"]),
    (["check", "sudoku", '{"grid": [[true, 1]]}'], ["field 'grid' must hold non-negative"]),
    (["check", "sudoku", '{"grid": [[-1]]}'], ["field 'grid' must hold non-negative"]),
    (["check", "sudoku", '{"grid": [[1.5]]}'], ["field 'grid' must hold non-negative"]),
    (["check", "sudoku", '{"grid": [[1]], "params": 5}'], ["field 'params' must be an object"]),
    (["check", "sudoku", '{"grid": [[1]], "params": {"size": "x"}}'],
     ["line 1: field 'params.size' must be a whole number, not \"x\""]),
    (["check", "sudoku", '{"grid": [[1]], "params": {"size": "4"}}'], ["'params.size'", '"4"']),
    (["check", "sudoku", '{"grid": [[1]], "params": {"size": true}}'], ["'params.size'"]),
    (["check", "fillomino", '{"grid": [[1]], "params": {"rows": 2.5}}'], ["'params.rows'"]),
    (["check", "sudoku", '{"grid": [[1]], "type": "fillomino"}'], ["a 'fillomino' puzzle"]),
    (["check", "sudoku", '[1, 2, 3]'], ["wrong length"]),
    (["check", "sudoku", '{"grid": [[1, 2], [3]]}'], ["line 1", "expected 81"]),
    (["check", "sudoku", "-"], ["stdin: not UTF-8 text"], b"\xff\xfe"),
    (["check", "sudoku", "-"], ["empty input"], b""),
    (["check", "sudoku", "{tmp}/latin1.txt"], ["latin1.txt, line 1: not UTF-8 text"]),
    (["check", "sudoku", "{tmp}/dir"], ["dir is a folder, not a puzzle file"]),
    (["grade", "sudoku", "{tmp}/dir"], ["dir is a folder"]),
    (["check", "sudoku", "{tmp}/missing.txt"], ["no such file"]),
    (["check", "sudoku", "x" * 5000], ["wrong length"]),
    # -- output paths
    (GEN4 + ["--out", "{tmp}/missing/x.jsonl"], ["the folder", "missing does not exist"]),
    (GEN4 + ["--out", "{tmp}/dir"], ["bad --out", "dir: it is a folder"]),
    (GEN4 + ["--out", "{tmp}/dir", "--resume", "--format", "json"], ["it is a folder"]),
    (GEN4 + ["--out", "/proc/version"], ["cannot write /proc/version"]),
    (GEN4 + ["--out", "{tmp}/notes.txt"], ["notes.txt already exists and is not empty"]),
    (["train", "sudoku", "--data", "{tmp}/latin1.csv", "--out", "{tmp}/dir"],
     ["bad --out", "it is a folder"]),
    (["train", "sudoku", "--data", "{tmp}/latin1.csv", "--out", "{tmp}/missing/m.skops"],
     ["the folder", "does not exist"]),
    (["train", "sudoku", "--data", "{tmp}/latin1.csv", "--features", "{tmp}/dir"],
     ["bad --features", "it is a folder"]),
    # -- --resume never touches a file that is not its own batch
    (GEN4 + ["--format", "json", "--out", "{tmp}/notes.txt", "--resume"],
     ["notes.txt, line 1: not a JSON record", "untouched"]),
    (GEN4 + ["--format", "json", "--out", "{tmp}/one-note.txt", "--resume"],
     ["one-note.txt, line 1: ends without a newline", "untouched"]),
    (GEN4 + ["--format", "line", "--out", "{tmp}/one-note.txt", "--resume"],
     ["one-note.txt, line 1: ends without a newline"]),
    (GEN4 + ["--format", "json", "--out", "{tmp}/formfeed.txt", "--resume"],
     ["formfeed.txt, line 1: not a JSON record"]),
    (GEN4 + ["--format", "line", "--out", "{tmp}/formfeed.txt", "--resume"],
     ["formfeed.txt, line 1: not a puzzle of this batch"]),
    (GEN4 + ["--format", "json", "--out", "{tmp}/latin1.txt", "--resume"],
     ["latin1.txt, line 1: not UTF-8 text"]),
    (GEN4 + ["--format", "json", "--out", "{tmp}/fillomino.jsonl", "--resume"],
     ["line 1: a 'fillomino' puzzle, not 'sudoku'"]),
    (["gen", "sudoku", "--size", "6", "--format", "json", "--out", "{tmp}/sudoku4.jsonl",
      "--resume"], ["line 1: made with options --size 4 --box 2x2", "not --size 6 --box 2x3"]),
    (GEN4 + ["--format", "json", "--out", "{tmp}/variants.jsonl", "--resume"],
     ["line 2: seed 1 variant 1, expected seed 2 variant None"]),
    (GEN4 + ["--variants", "1", "--format", "json", "--out", "{tmp}/variants.jsonl",
             "--resume"], ["line 3", "not one batch of --variants 1"]),
    (GEN4 + ["--format", "json", "--out", "{tmp}/gap.jsonl", "--resume"],
     ["line 2: seed 3 variant None, expected seed 2"]),
    (GEN4 + ["--format", "json", "--solver", "gecode", "--out", "{tmp}/sudoku4.jsonl",
             "--resume"], ["line 1: made with solver \"org.chuffed.chuffed\"", "org.gecode"]),
    (GEN4 + ["--format", "json", "--max-solutions", "2", "--out", "{tmp}/sudoku4.jsonl",
             "--resume"], ["line 1: made with options.max_solutions 1, this run's is 2"]),
    (GEN4 + ["--format", "json", "--target-empty", "3", "--out", "{tmp}/sudoku4.jsonl",
             "--resume"], ["made with options.target_empty null, this run's is 3"]),
    (GEN4 + ["--format", "line", "--out", "{tmp}/spaced.txt", "--resume"],
     ["spaced.txt, line 1: not a puzzle of this batch", "not written as"]),
    (GEN4 + ["--format", "line", "--out", "{tmp}/lines.txt", "--resume"],
     ["lines.txt, line 2: not a puzzle of this batch"]),
    (["gen", "sudoku", "--size", "6", "--seed", "1", "--format", "line", "--out",
      "{tmp}/good-lines.txt", "--resume"], ["line 1: not a puzzle of this batch", "expected 36"]),
    (["gen", "sudoku", "--size", "4", "--format", "line", "--out", "{tmp}/good-lines.txt",
      "--resume"], ["does not record their seed", "--seed"]),
    (GEN4 + ["--format", "line", "--variants", "1", "--out", "{tmp}/good-lines.txt",
             "--resume"], ["holds 1 lines, not whole groups", "--variants"]),
    (GEN4 + ["--resume"], ["--resume needs --out FILE"]),
    (["gen", "sudoku", "--difficulty", "easy", "--format", "line", "--out", "{tmp}/new.txt",
      "--resume"], ["--resume with --difficulty needs", "--format json"]),
    (GEN4 + ["--out", "{tmp}/new.txt", "--resume"], ["--resume needs", "json or line"]),
    # -- config files and the environment
    fast(["gen", "sudoku", "--config", "{tmp}/latin1.toml"], ["latin1.toml, line 2: not UTF-8"]),
    fast(["solvers", "--config", "{tmp}/latin1.toml"], ["latin1.toml, line 2: not UTF-8"]),
    fast(["gen", "sudoku", "--config", "{tmp}/dir"], ["dir is a folder"]),
    fast(["gen", "sudoku", "--config", "{tmp}/missing.toml"], ["missing.toml does not exist"]),
    fast(["gen", "sudoku", "--config", "{tmp}/broken.toml"], ["broken.toml: malformed TOML"]),
    fast(["gen", "sudoku", "--config", "{tmp}/nan.toml"], ["solver.time_limit must be a number"]),
    fast(["gen", "sudoku", "--config", "{tmp}/inf.toml"], ["solver.time_limit must be at most"]),
    fast(["gen", "sudoku", "--config", "{tmp}/huge.toml"],
         ["plugins.sudoku.time_limit must be at"]),
    fast(["gen", "sudoku", "--config", "{tmp}/negative.toml"], ["time_limit must be a positive"]),
    fast(["gen", "sudoku", "--config", "{tmp}/string.toml"], ["time_limit must be a number"]),
    fast(["gen", "sudoku", "--config", "{tmp}/bool.toml"], ["time_limit must be a number"]),
    (["train", "sudoku", "--data", "{tmp}/latin1.csv"], ["latin1.csv, line 2: not UTF-8"]),
    (["train", "sudoku", "--data", "{tmp}/dir"], ["cannot read", "dir"]),
    (["train", "sudoku", "--data", "{tmp}/missing.csv"], ["cannot read", "missing.csv"]),
    (["grade", "sudoku", PUZZLE, "--model", "{tmp}/model.skops"],
     ["model.skops is not a level model"]),
    (["grade", "sudoku", PUZZLE, "--model", "{tmp}/dir"], ["dir"]),
    # -- round 3: logic (issue 44: check logic trusts no field of a record; the records
    # are tests/data/logic-forged-*.jsonl, a genuine gen record with one field forged)
    (["check", "logic", f"{__file__.rpartition('/')[0]}/data/logic-forged-answer.jsonl"],
     ["line 1: the record's answer 3 is wrong", "replays to 2 (key 'C')"]),
    (["check", "logic", f"{__file__.rpartition('/')[0]}/data/logic-forged-solutions.jsonl"],
     ["line 1: the record does not replay from its", "config._solutions"]),
    (["check", "logic", f"{__file__.rpartition('/')[0]}/data/logic-forged-optimum.jsonl"],
     ["the record's key (its answer) 'camera, rope' is wrong", "'stove, camera, rope'"]),
    (["check", "logic", f"{__file__.rpartition('/')[0]}/data/logic-forged-parameters.jsonl"],
     ["the record's parameters", "are wrong"]),
]
ENV_ROWS = [
    ({"PUZZLE_ENGINE_SOLVER": "nosuch"}, ["gen", "sudoku"], ["solver 'nosuch' is not installed"]),
    ({"PUZZLE_ENGINE_SOLVER": "nosuch"}, ["check", "sudoku", PUZZLE], ["solver 'nosuch'"]),
    pytest.param({"PUZZLE_ENGINE_PLUGINS": "nosuch"}, ["gen", "sudoku"],
                 ["unknown puzzle 'sudoku'"], marks=pytest.mark.fast),
    ({"PUZZLE_ENGINE_SOLVER": "gecode\udcff"}, ["gen", "sudoku"], ["is not installed"]),
]


@pytest.fixture
def tmp(tmp_path, request):
    """A folder with the files of ``FILES`` and ``RECORDS`` (not those of ``RECORDS`` for
    a test marked fast, which asks no solver for anything), and a folder ``dir``."""
    for name, data in FILES.items():
        (tmp_path / name).write_bytes(data)
    if request.node.get_closest_marker("fast") is None:
        for name, make in RECORDS.items():
            (tmp_path / name).write_bytes(make())
    (tmp_path / "dir").mkdir()
    return tmp_path


def run_main(argv, stdin=None):
    """``main(argv)`` as the console script runs it: ``(exit status, stdout, stderr)``."""
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8")
    sys.stdout, sys.stderr = out, err
    try:
        main(argv)
    except SystemExit as done:
        code = done.code
    else:
        code = 0
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        for s, handler in handlers.items():
            signal.signal(s, handler)
    return code, out.getvalue(), err.getvalue()


def assert_one_line_error(code, stdout, stderr, words):
    lines = [ln for ln in stderr.splitlines() if ln.strip() and "seed" not in ln[:30]]
    assert code == 2, (code, stdout, stderr)
    assert len(lines) == 1 and lines[0].startswith("puzzle-engine: error: "), stderr
    assert "Traceback" not in stdout + stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: " ".join(row[0])[:70])
def test_bad_input_is_one_line_and_leaves_files_alone(tmp, row):
    args, words, stdin = (*row, None)[:3]
    before = {p.name: p.read_bytes() for p in tmp.iterdir() if p.is_file()}
    argv = [a.replace("{tmp}", str(tmp)) for a in args]
    assert_one_line_error(*run_main(argv, stdin), [w.replace("{tmp}", str(tmp)) for w in words])
    after = {p.name: p.read_bytes() for p in tmp.iterdir() if p.is_file()}
    assert after == before


@pytest.mark.parametrize("env, args, words", ENV_ROWS, ids=lambda x: str(x)[:60])
def test_bad_environment_is_one_line(monkeypatch, env, args, words):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert_one_line_error(*run_main(args), words)


def test_puzzle_options_may_come_before_the_puzzle(tmp):
    """The user guide: options may come anywhere after the puzzle's name."""
    for args in (["check", "sudoku", "--size", "9", PUZZLE], ["check", "sudoku", PUZZLE, "--size", "9"],
                 ["check", "sudoku", "--size=9", "--solver", "gecode", PUZZLE]):
        code, out, err = run_main(args)
        assert (code, out.strip()) == (0, "1 solution (unique)"), (args, err)
    code, out, _ = run_main(["solve", "sudoku", "--size", "4", "-", "--format", "line"],
                            stdin=SUDOKU4[:-1].encode() + b".")
    assert (code, out.strip()) == (0, SUDOKU4)


@pytest.mark.fast
def test_a_bug_is_one_line_unless_debugging(monkeypatch):
    """The last guard: an unexpected exception in our code is one line, exit 1."""
    from puzzle_engine.cli import gen

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr(gen, "_host", broken)
    code, out, err = run_main(["gen", "sudoku"])
    assert code == 1 and err.strip() == ("puzzle-engine: internal error: ZeroDivisionError: "
                                         "a bug (a bug; PUZZLE_ENGINE_DEBUG=1 shows where)")
    monkeypatch.setenv("PUZZLE_ENGINE_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        run_main(["gen", "sudoku"])


def test_resume_drops_only_our_own_cut_short_line(tmp):
    """An interrupted JSON batch: whole records stay, the cut-short record is dropped and
    regenerated; the result is the uninterrupted batch."""
    args = GEN4 + ["--count", "3", "--format", "json"]
    code, whole, _ = run_main(args)
    assert code == 0
    lines = whole.splitlines(keepends=True)
    out = tmp / "batch.jsonl"
    out.write_text(lines[0] + lines[1][:25])
    code, _, err = run_main(args + ["--out", str(out), "--resume"])
    assert code == 0, err
    assert [json.loads(x)["seed"] for x in out.read_text().splitlines()] == [1, 2, 3]
    assert [json.loads(x)["grid"] for x in out.read_text().splitlines()] == \
        [json.loads(x)["grid"] for x in whole.splitlines()]


def test_all_checks_timing_out_is_flagged_and_warned(capsys, monkeypatch):
    """A time limit too short for any check: Fillomino's own searches give up at once (no
    nodes, no CP-SAT work allowed), so its removals go to the solver's checks, which all time out; the record
    says minimal false and counts them, and stderr warns. Without the patch the plugin
    decides every removal itself and checks its random board in Python: no check at all,
    none timed out. A puzzle where every check timed out (nothing removed) gets its own
    warning."""
    from puzzle_engine_plugins.fillomino import deduce, exact, local
    gen_args = ["gen", "fillomino", "--size", "5", "--seed", "1", "--format", "json",
                "--time-limit", "0.000001", "--solver", "gecode"]
    code, out, err = run_main(gen_args)
    assert code == 0 and err == "", err
    record = json.loads(out)
    assert record["minimal"] is True and record["unknown"] == 0 and record["solver_calls"] == 0
    assert "checker" not in record["removals"]
    for module, name, nothing in ((deduce, "DEFAULT_BUDGET", 0), (deduce, "DEEP_BUDGET", 0),
                                  (local, "NODES", 0), (exact, "DETERMINISTIC_LIMIT", 0.0)):
        monkeypatch.setattr(module, name, nothing)
    deduce.solve.cache_clear()
    try:
        code, out, err = run_main(gen_args)
    finally:
        deduce.solve.cache_clear()  # no outcome cut short by the patch stays remembered
    assert code == 0, err
    record = json.loads(out)
    refused = record["removals"]["checker"]["refused"]
    assert record["minimal"] is False and record["unknown"] >= refused > 0
    assert record["removals"]["checker"]["kept"] == 0 and record["empty"] > 0
    assert f"warning: {record['unknown']} checks of the puzzle with seed 1 timed out" in err
    assert "raise --time-limit" in err
    from puzzle_engine.cli import gen
    gen._warn_timeouts(SimpleNamespace(unknown=21, seed=1, instance=(1, 2), solution=(1, 2)))
    assert "warning: every check of the puzzle with seed 1 timed out (21)" in \
        capsys.readouterr().err.replace("\n", " ")


def test_two_commands_never_write_one_batch_at_once(tmp):
    """--out is locked while a command writes it: a second command is refused, and the
    file is left as it was."""
    import fcntl
    out = tmp / "sudoku4.jsonl"
    before = out.read_bytes()
    with open(out, "a") as holder:
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX)
        assert_one_line_error(*run_main(GEN4 + ["--format", "json", "--out", str(out),
                                                "--resume"]), ["is being written by another"])
    assert out.read_bytes() == before


def test_no_file_is_made_for_a_bad_option(tmp):
    """An option error found before any work leaves no new --out file behind."""
    code, _, _ = run_main(["gen", "sudoku", "--difficulty", "easy", "--format", "line",
                           "--out", str(tmp / "made.txt"), "--resume"])
    assert code == 2 and not (tmp / "made.txt").exists()


def test_devices_are_not_locked(tmp):
    """Only regular files are locked: two runs may both write /dev/null."""
    import fcntl
    with open("/dev/null", "a") as holder:
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX)
        code, _, err = run_main(GEN4 + ["--format", "json", "--out", "/dev/null"])
    assert code == 0, err


def test_a_record_cut_in_its_first_bytes_is_dropped(tmp):
    """After whole records of ours, even the first few bytes of one are ours."""
    args = GEN4 + ["--count", "2", "--format", "json"]
    code, whole, _ = run_main(args)
    out = tmp / "cut.jsonl"
    out.write_text(whole.splitlines(keepends=True)[0] + '{"ty')
    code, _, err = run_main(args + ["--out", str(out), "--resume"])
    assert code == 0, err
    assert [json.loads(x)["grid"] for x in out.read_text().splitlines()] == \
        [json.loads(x)["grid"] for x in whole.splitlines()]


@pytest.mark.fast
def test_no_arguments_show_the_help():
    """The bare command shows its help, as the parser does, and no traceback."""
    code, out, err = run_main([])
    assert "Usage: puzzle-engine" in out and "Traceback" not in out + err
    assert code == 2 and err == ""


@pytest.mark.fast
def test_rows_marked_fast_need_no_batch_file():
    """A fast row runs without the batches of ``RECORDS`` (writing them asks MiniZinc):
    none of them names one. Most rows of each kind of input before any solve are fast."""
    marked = [row.values[0] for row in ROWS
              if any(m.name == "fast" for m in getattr(row, "marks", ()))]
    assert len(marked) >= 40
    for args, *_ in marked:
        assert not [a for a in args if any(name in a for name in RECORDS)], args
