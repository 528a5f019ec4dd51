"""What the tests share: helpers, constants and a throwaway plugin that more than one test
module uses. No test module imports another: they import from here, and take the shared
fixtures from tests/conftest.py."""
from __future__ import annotations

import contextlib
import functools
import io
import itertools
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzle_engine import GridPuzzle, Param, PuzzleInputError, Symmetry, Transformation, hookimpl
from puzzle_engine.cli import app, main
from puzzle_engine.engine import Engine
from puzzle_engine.explain.board import board_of
from puzzle_engine.explain.flatten import groups_of
from puzzle_engine.plugins import get_host
from puzzle_engine.solving.backend import Backend
from puzzle_engine.types import Status
from puzzle_engine_plugins.fillomino import logic as fillomino_logic
from puzzle_engine_plugins.sudoku import Sudoku, logic as sudoku_logic

from fake_solver import LATIN, SUDOKU, FakeBackend

#: The tests' folder, and the repository's root.
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


# -- The real solvers the tests run on, and the independent check of a generated puzzle ----
SOLVERS = ("gecode", "chuffed")
OTHER = {"gecode": "chuffed", "chuffed": "gecode"}
#: The exact solvers (complete search; uniqueness and the least completion do not depend on
#: which one answers). ``sat`` is the in-process SAT back end: tests parametrized by
#: ``exact_solver`` run on it once ``puzzle-engine solvers`` lists it.
EXACT_SOLVERS = ("gecode", "chuffed", "cp-sat", "sat")


def installed(solver: str) -> bool:
    """Whether ``puzzle-engine solvers`` lists ``solver`` (by id, id part or tag)."""
    from puzzle_engine.errors import SolverError
    from puzzle_engine.solving.discovery import find_solver
    try:
        find_solver(solver)
    except SolverError:
        return False
    return True


def check_unique_and_minimal(engines, ptype, params, puzzle, solver):
    """The puzzle agrees with its solution, is unique by an independent check (the other
    solver, a full MiniZinc run asked for 2 solutions) and minimal (every given is needed,
    checked with the other solver)."""
    other = engines[OTHER[solver]]
    assert all(puzzle.solution)
    assert all(g == 0 or g == s for g, s in zip(puzzle.grid, puzzle.solution))
    result, boards = other.solve(ptype, params, puzzle.grid, nr_solutions=2)
    assert result.complete
    assert boards == [puzzle.solution]
    assert puzzle.minimal
    checker = other.checker(ptype, params, puzzle.solution)
    try:
        for i, v in enumerate(puzzle.grid):
            if v:
                weaker = puzzle.grid[:i] + (0,) + puzzle.grid[i + 1:]
                found, definite = checker.count_other(weaker, 1)
                assert definite and found == 1, f"given at {i} is not needed"
    finally:
        checker.close()


# -- A throwaway plugin: Latin squares, its model inline (tests/engine/test_inline_plugin.py) --
#: The solvers of the tests of the host: the fake one (they are about plugins and
#: registries, so they run in the fast tier) and Gecode.
#: Builtins a translation can get wrong: linear (in)equalities and their reifications,
#: Boolean connectives, element, arithmetic functions, set membership, table, all_different.
ARITHMETIC = """
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
constraint y = x[4] - x[1] \\/ y = abs(x[2] - x[3]) - 2;
constraint x[4] = [3, 1, 4, 1, 0][x[1] + 1] \\/ x[4] = x[2] mod 3;
constraint y * x[3] >= -4 /\\ min(x[1], x[2]) + max(y, 0) != 3;
constraint x[3] div 2 + bool2int(b) <= 2;
constraint not (x[2] in {1, 3}) \\/ c;
constraint table([x[1], x[2]], [| 0, 1 | 1, 0 | 2, 3 | 3, 2 | 4, 4 | 0, 4 |]);
solve satisfy;
output [show(x), " ", show(y), " ", show(b), " ", show(c), "\\n"];
"""

HOST_SOLVERS = [pytest.param("fake", marks=pytest.mark.fast), "gecode"]
TYPE = "toy_latin"

MODEL = """
include "all_different_int.mzn";
int: n;
array[1..n, 1..n] of 0..n: givens;
array[1..n, 1..n] of var 1..n: grid;
constraint forall(i, j in 1..n where givens[i, j] > 0)(grid[i, j] = givens[i, j]);
constraint forall(i in 1..n)(all_different_int([grid[i, j] | j in 1..n]));
constraint forall(j in 1..n)(all_different_int([grid[i, j] | i in 1..n]));
"""


class ToyLatinType(GridPuzzle, Symmetry):
    """Latin squares of order n: check_params, shape, to_data and transformations; the
    rest is GridPuzzle's."""

    name = TYPE
    models = (MODEL,)
    decision = "grid"
    params = (Param("size", int, 4),)

    def check_params(self, params):
        n = params["size"]
        if isinstance(n, bool) or not isinstance(n, int) or not 3 <= n <= 9:
            raise PuzzleInputError(f"bad size {n!r}")
        return {"size": n}

    def shape(self, params):
        return params["size"], params["size"]

    def to_data(self, params, instance, solver):
        n = params["size"]
        return {"n": n, "givens": self.rows(instance, n)}

    def transformations(self, params):
        n = params["size"]

        def relabel(rng):
            perm = [0] + rng.sample(range(1, n + 1), n)
            return lambda b: tuple(perm[v] for v in b)

        def rows(rng):
            p = rng.sample(range(n), n)
            return lambda b: tuple(b[p[i] * n + j] for i in range(n) for j in range(n))

        def columns(rng):
            p = rng.sample(range(n), n)
            return lambda b: tuple(b[i * n + p[j]] for i in range(n) for j in range(n))

        return [Transformation("relabel", relabel), Transformation("rows", rows),
                Transformation("columns", columns)]


class ToyLatin:
    """The plugin: it declares its contract and registers one type."""

    PUZZLE_ENGINE_CONTRACT = 3
    MODEL = MODEL

    @hookimpl
    def register_puzzle_types(self, register):
        register(ToyLatinType())


def plugin(hook_function, contract=3, **attrs):
    """A plugin object whose ``register_puzzle_types`` is ``hook_function(register)``."""
    namespace = {"register_puzzle_types": hookimpl(lambda self, register: hook_function(register)),
                 **attrs}
    if contract is not None:
        namespace["PUZZLE_ENGINE_CONTRACT"] = contract
    return type("Plugin", (), namespace)()


def backend(solver):
    """A real solver's backend, or (``"fake"``) the fake solver's, which knows the toy
    type and 4x4 Sudoku."""
    return FakeBackend({TYPE: LATIN, "sudoku": SUDOKU}) if solver == "fake" else Backend(solver)


def sudoku_puzzle(host, solver="gecode"):
    """The 4x4 Sudoku of seed 1 that ``host`` makes with ``solver``: (grid, solution)."""
    engine = Engine(host, backend(solver))
    try:
        ptype = host.get_type("sudoku")
        assert ptype.plugin == "sudoku" and type(ptype).__module__ == "puzzle_engine_plugins.sudoku"
        p = engine.generate(ptype, engine.check_params(ptype, {"size": 4}), 1).puzzle
        return p.grid, p.solution
    finally:
        engine.close()


@functools.cache
def clean_sudoku(solver):
    """``sudoku_puzzle`` in a host with the built-in plugins alone."""
    return sudoku_puzzle(get_host(), solver)


def is_latin(board, n):
    rows = [board[i * n:(i + 1) * n] for i in range(n)]
    want = list(range(1, n + 1))
    return (len(board) == n * n and all(sorted(r) == want for r in rows)
            and all(sorted(c) == want for c in zip(*rows)))


def without(board, i):
    return board[:i] + (0,) + board[i + 1:]


# -- The CLI in this process (typer's runner) ----------------------------------------------
runner = CliRunner()


def fast(*row):
    """A row caught before any solver is asked for anything (marker ``fast``)."""
    return pytest.param(*row, marks=pytest.mark.fast)


def run(*args, input=None, env=None):
    return runner.invoke(app, list(args), input=input, env=env)


def one_line_error(result, *words):
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("puzzle-engine: error: "), result.stderr
    for w in words:
        assert w in lines[0]
    assert "Traceback" not in result.output


# -- Explanations checked by an independent path (MiniZinc and Gecode) ---------------------
def _parse(ptype, text):
    return ptype.parse({p.name: None for p in ptype.params}, text)


def _forced(engine, ptype, params, board, groups, facts, step) -> bool:
    """Whether the groups and facts leave no solution with ``step`` negated, by MiniZinc
    and Gecode on the type's model (its own rules off), with the data the explainer had
    (its ``board_of``, for CP-SAT: a type may state its rules differently per solver, as
    Fillomino does its implied constraints). ``board`` is the instance."""
    declared = groups_of(ptype, params, board)
    cpsat = Engine(engine.host, Backend("cp-sat"))
    data = {**board_of(cpsat, ptype, params, board).data, **declared.data}
    x = f"array1d({ptype.decision})"
    extra = [f"constraint {declared.groups[g].constraint};" for g in groups]
    extra += [f"constraint {x}[{f.square + 1}] {'=' if f.equal else '!='} {f.value};" for f in facts]
    extra.append(f"constraint {x}[{step.square + 1}] {'!=' if step.equal else '='} {step.value};")
    result, _ = engine.backend.solve(ptype, data, extra=extra)
    assert result.status in (Status.UNSAT, Status.SAT, Status.ALL)
    return result.status == Status.UNSAT


def _check_reason(engine, ptype, params, board, step, minimal=True):
    groups, facts = list(step.groups), list(step.facts)
    assert _forced(engine, ptype, params, board, groups, facts, step.fact), step
    if not minimal:
        return
    for k in range(len(groups)):
        assert not _forced(engine, ptype, params, board, groups[:k] + groups[k + 1:], facts,
                           step.fact), f"{step}: group {step.names[k]} is not needed"
    for k in range(len(facts)):
        assert not _forced(engine, ptype, params, board, groups, facts[:k] + facts[k + 1:],
                           step.fact), f"{step}: fact {facts[k]} is not needed"


def _cli(*args):
    result = CliRunner().invoke(app, list(args))
    result.returncode = result.exit_code
    return result


# -- Fillomino -----------------------------------------------------------------------------
def params_for(engine, ptype, rows, cols, **extra):
    return engine.check_params(ptype, {"rows": rows, "cols": cols, **extra})


def brute_force_solutions(rows, cols):
    """Every Fillomino solution of an empty rows x cols board, without a solver: every
    set partition of the cells into connected regions, kept when no two touching regions
    have the same size."""
    n = rows * cols
    nbs = [fillomino_logic.neighbours(c, rows, cols) for c in range(n)]

    def partitions(cells):
        if not cells:
            yield []
            return
        first, rest = cells[0], cells[1:]
        for k in range(len(rest) + 1):
            for others in itertools.combinations(rest, k):
                block = (first,) + others
                remaining = [c for c in rest if c not in others]
                for tail in partitions(remaining):
                    yield [block] + tail

    def connected(block):
        seen, stack = {block[0]}, [block[0]]
        while stack:
            for d in nbs[stack.pop()]:
                if d in block and d not in seen:
                    seen.add(d)
                    stack.append(d)
        return len(seen) == len(block)

    found = set()
    for part in partitions(list(range(n))):
        if all(connected(b) for b in part):
            board = [0] * n
            for b in part:
                for c in b:
                    board[c] = len(b)
            if fillomino_logic.is_valid_solution(board, rows, cols):
                found.add(tuple(board))
    return found


def watching(fillomino, labels):
    """The Fillomino type, recording ``(label, board, verdict)`` in the returned list for
    every removal whose last ``checker.note`` is one of ``labels``."""
    decided = []

    class Watched(type(fillomino)):
        def is_remove_valid(self, params, board, index, solution, checker, max_solutions):
            notes = []

            class Noting:
                def note(self, label):
                    notes.append(label)
                    checker.note(label)  # the strategy learns from a noted decision

                def at_most(self, board, k):
                    return checker.at_most(board, k)

                def session(self, data, solver=None):
                    return checker.session(data, solver)

            verdict = super().is_remove_valid(params, board, index, solution, Noting(),
                                              max_solutions)
            if notes and notes[-1] in labels:
                decided.append((notes[-1], board, verdict))
            return verdict

    watched = Watched()
    watched.plugin, watched.plugin_version = fillomino.plugin, fillomino.plugin_version
    return watched, decided


# -- Test distributions built into wheels and the console script run on them ---------------
CLI = Path(sys.executable).with_name("puzzle-engine")


def _run(args, **kwargs):
    proc = subprocess.run(args, capture_output=True, text=True, **kwargs)
    assert proc.returncode == 0, f"{' '.join(map(str, args))}\n{proc.stdout}\n{proc.stderr}"
    return proc


def _project(pkg):
    return tomllib.loads((TESTS / pkg / "pyproject.toml").read_text())["project"]


def install_site(tmp: Path, packages) -> tuple[Path, list[str]]:
    """Wheels of the test distributions in tests/``packages``, built from copies (building
    leaves build/ and egg-info behind) and installed into ``tmp``/site, a target directory
    (not the venv): the site and the wheels' file names."""
    sources = []
    for pkg in packages:
        src = tmp / "src" / pkg
        shutil.copytree(TESTS / pkg, src, ignore=shutil.ignore_patterns(
            "build", "*.egg-info", "__pycache__"))
        sources.append(str(src))
    wheels_dir = tmp / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
          "-w", str(wheels_dir), *sources])
    wheels = sorted(str(p) for p in wheels_dir.glob("*.whl"))
    _run([sys.executable, "-m", "pip", "install", "--no-deps", "--target", str(tmp / "site"),
          *wheels])
    return tmp / "site", [Path(w).name for w in wheels]


def site_cli(site, *args, plugins=None):
    """Run the console script with the plugins' site on PYTHONPATH, in an empty directory
    (no puzzle-engine.toml), with a wide terminal so rich tables do not wrap."""
    env = {**os.environ, "PYTHONPATH": str(site), "COLUMNS": "250"}
    for var in ("PUZZLE_ENGINE_PLUGINS", "PUZZLE_ENGINE_SOLVER"):
        env.pop(var, None)
    if plugins is not None:
        env["PUZZLE_ENGINE_PLUGINS"] = plugins
    return subprocess.run([str(CLI), *args], capture_output=True, text=True, env=env,
                          cwd=site.parent, timeout=1800)


def table_row(stdout, first_cell):
    """The cells of the table row whose first cell is ``first_cell``, or None."""
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.strip().strip("│").split("│")]
        if len(cells) > 1 and cells[0] == first_cell:
            return cells
    return None


def type_rows(stdout):
    """The rows of the "Puzzle types" table (type, plugin, strategy, options, description),
    by type name."""
    _, _, types = stdout.partition("Puzzle types")
    rows = {}
    for line in types.splitlines():
        cells = [c.strip() for c in line.strip().strip("│").split("│")]
        if len(cells) > 1 and cells[0]:
            rows.setdefault(cells[0], cells)
    return rows


# -- A type registered by a plugin of a given name -----------------------------------------
def registered(ptype, plugin: str):
    """``ptype`` as the host holds it, registered by a plugin named ``plugin``."""
    host = get_host()

    class Plugin:
        PUZZLE_ENGINE_CONTRACT = 3

        @hookimpl
        def register_puzzle_types(self, register):
            register(ptype)

    host.register(Plugin(), name=plugin, version="1")
    return host.get_type(ptype.name)


@contextlib.contextmanager
def open_engines(host, solvers):
    """An engine per solver (by name), each closed at the end."""
    made = {name: Engine(host, Backend(name)) for name in solvers}
    try:
        yield made
    finally:
        for engine in made.values():
            engine.close()


def any_board(name: str, plugin: str):
    """A Sudoku type called ``name``, registered by a plugin named ``plugin``, whose play
    board is whatever the test puts in its ``board``."""

    class AnyBoard(Sudoku):
        board = None

        def play_grid(self, params, instance, solution):
            return self.board

    AnyBoard.name = name
    return registered(AnyBoard(), plugin)


# -- A Combination level, as a record ------------------------------------------------------
#: A Combination level with its walls, hole and pieces (paper 002's notation).
COMBINATION_LEVEL = {
    "type": "combination", "params": {"width": 4, "height": 4, "colours": 2, "walls": 2,
                                      "holes": 1, "pieces": "rook,bishop,queen"},
    "board": ["....", "o...", "#..o", "...."],
    "pieces": "2 bishop b, 1 queen b, 2 queen a, 1 rook b, 1 rook a, 3 bishop a",
    "seed": 1, "plugin": "combination", "plugin_version": "0.1.0"}


# -- The command in a child process, and a store's distinct puzzles ------------------------
def batch_cli(*args, check=True, timeout=1800):
    proc = subprocess.run([sys.executable, "-c", "from puzzle_engine.cli import main; main()",
                           *map(str, args)], capture_output=True, text=True, timeout=timeout)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def stored(db: Path) -> list[tuple[int, str]]:
    """(seed, key) of the distinct puzzles in ``db``, in the order they were stored."""
    with sqlite3.connect(db) as conn:
        return list(conn.execute("SELECT seed, key FROM puzzles WHERE variant_of IS NULL "
                                 "ORDER BY id"))


# -- The golden puzzles, and random images of a board --------------------------------------
GOLDEN = TESTS / "data" / "golden.jsonl"


def golden(kind: str) -> list[tuple[dict, tuple[int, ...]]]:
    """The golden puzzles of ``kind`` as (canonical params, board)."""
    host = get_host()
    ptype = host.get_type(kind)
    out = []
    for line in GOLDEN.read_text().splitlines():
        record = json.loads(line)
        if record["args"][0] != kind:
            continue
        board = tuple(v for row in record["grid"] for v in row)
        parsed = ptype.parse({}, "/".join(" ".join(str(v or ".") for v in row)
                                           for row in record["grid"])
                             ) if kind == "fillomino" else None
        params = (parsed.params if parsed
                  else sudoku_logic.check_params({"size": len(record["grid"])}))
        out.append((params, board))
    return out


def random_image(ptype, params, board, rng):
    for t in ptype.transformations(params):
        board = t.draw(rng)(board)
    return board


# -- Sudoku --------------------------------------------------------------------------------
def assert_valid_full(board, n, r, c):
    assert all(1 <= v <= n for v in board)
    assert sudoku_logic.find_conflict(board, n, r, c) is None
    for _, cells in sudoku_logic.units(n, r, c):
        assert sorted(board[i] for i in cells) == list(range(1, n + 1))


def assert_unique_and_minimal(engines, sudoku, params, puzzle, solver):
    n, r, c = sudoku_logic.dims(params)
    assert_valid_full(puzzle.solution, n, r, c)
    check_unique_and_minimal(engines, sudoku, params, puzzle, solver)


# -- main() as the console script runs it --------------------------------------------------
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


# -- the Sudoku variants (tests/plugins/sudoku_x, jigsaw, killer) ---------------------------
def variant_end_to_end(host, name, raw, seed, explain, says):
    """A puzzle of the variant ``name`` generated from ``seed`` on the SAT back end (the
    variants' own), minimal, unique by Chuffed, then checked and solved through the
    command line; the small puzzle ``explain`` explained in full there, naming ``says``.
    Returns (type, params, puzzle)."""
    ptype = host.get_type(name)
    engine = Engine(host, Backend("sat", time_limit=None))
    params = engine.check_params(ptype, raw)
    puzzle = engine.generate(ptype, params, seed).puzzle
    assert puzzle.minimal and puzzle.unknown == 0
    chuffed = Engine(host, Backend("chuffed", time_limit=None))
    _, boards = chuffed.solve(ptype, params, puzzle.grid, nr_solutions=2)
    assert boards == [puzzle.solution]
    line = ptype.format(params, puzzle.grid, "line")
    assert run("check", name, line).output.strip() == "1 solution (unique)"
    assert run("solve", name, line).exit_code == 0
    explained = run("explain", name, explain)
    assert explained.exit_code == 0 and "solved in" in explained.output
    assert says in explained.output, explained.output
    return ptype, params, puzzle
