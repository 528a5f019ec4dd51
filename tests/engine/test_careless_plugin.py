"""A careless plugin: a method of its puzzle type that raises, or returns the wrong kind of
value, is one line that names the method, the puzzle type and its plugin, never a
traceback and never a wrong puzzle (``is_remove_valid`` answering "yes" once emptied the
whole board and exited 0). The same host goes on serving every other type: ``sudoku``
makes the very puzzle it makes without the careless plugin.

A row is ``(method, behaviour, words)``: the toy Latin-square type of test_inline_plugin,
registered by the plugin 'careless' with ``method`` overridden to return ``behaviour``
(or raise it, for a ``Raise``), and the fragments the error must hold.

Run as a script (``python test_careless_plugin.py ROW ARGS...``), this file is the
``puzzle-engine`` command with the careless plugin of row ROW loaded, for the CLI tests.
"""
import os
import subprocess
import sys

import pytest

from puzzle_engine import CONTRACT_VERSION, Parsed, Transformation, calls, hookimpl
from puzzle_engine.hookspecs import facet_of
from puzzle_engine.engine import Engine
from puzzle_engine.errors import PluginError
from puzzle_engine.plugins import get_host
from puzzle_engine.strategies import GenOptions
from support import backend, clean_sudoku, HOST_SOLVERS, sudoku_puzzle, TESTS, ToyLatinType, TYPE

N = 16  # a 4x4 toy board
LATIN = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
OWNER = f"(puzzle '{TYPE}', plugin 'careless')"


class Raise:
    """A method that raises ``exc``."""

    def __init__(self, exc: BaseException):
        self.exc = exc

    def __repr__(self):
        return f"raise {self.exc!r}"


class Custom:
    """A method that is ``fn(self, *args, **kwargs)``."""

    def __init__(self, fn):
        self.fn = fn

    def __repr__(self):
        return self.fn.__name__


class With:
    """``behaviour`` for the row's method, and ``others`` (method -> behaviour) for more."""

    def __init__(self, behaviour, **others):
        self.behaviour, self.others = behaviour, others

    def __repr__(self):
        return f"{self.behaviour!r} with {self.others!r}"


def structure_fails_once_emptied(self, params, board):
    if 0 in board:
        raise ValueError("careless bug")
    return frozenset()


def bug(text="careless bug"):
    return Raise(RuntimeError(text))


def draw_raises(rng):
    raise RuntimeError("careless bug")


def apply_raises(rng):
    return lambda board: board[N]


def says(method, *rest):
    """The error's lead, ``method (puzzle 'toy_latin', plugin 'careless') ``, and more."""
    return (f"{method} {OWNER} ", *rest)


ROWS = {  # id -> (method, behaviour, fragments of the error)
    "random_solution-str": ("random_solution", ["1"] * N,
                            says("random_solution", "not a full board of 16 whole numbers from 1")),
    "random_solution-short": ("random_solution", [1] * 15, says("random_solution", "not a full board of 16")),
    "random_solution-zeros": ("random_solution", [0] * N, says("random_solution", "not a full board of 16")),
    "random_solution-bools": ("random_solution", [True] * N, says("random_solution", "not a full board of 16")),
    "random_solution-int": ("random_solution", 7, says("random_solution", "returned 7, not a full board")),
    "random_solution-wrong": ("random_solution", (1,) * N,
                              says("random_solution", "not a board that keeps the rules")),
    "random_solution-raises": ("random_solution", Raise(TypeError("careless bug")),
                               says("random_solution", "raised TypeError: careless bug")),
    "verify_solution-false": ("verify_solution", False,
                              says("random_solution", "the type's verify_solution refutes it")),
    # True for a board that breaks the rules: the solver, run for the puzzle anyway, refutes
    # it (it emitted a puzzle without a solution, exit 0)
    "verify_solution-lies": ("verify_solution", With(True, random_solution=(1,) * N),
                             says("verify_solution", "returned True for a board from "
                                  "random_solution that the solver refutes")),
    "verify_solution-yes": ("verify_solution", "yes",
                            says("verify_solution", "returned 'yes', not True, False or None")),
    "verify_solution-one": ("verify_solution", 1, says("verify_solution", "returned 1, not True")),
    "verify_solution-raises": ("verify_solution", Raise(ValueError("careless bug")),
                               says("verify_solution", "raised ValueError: careless bug")),
    "is_remove_valid-yes": ("is_remove_valid", "yes", says("is_remove_valid", "returned 'yes', not True or False")),
    "is_remove_valid-list": ("is_remove_valid", [], says("is_remove_valid", "returned [], not True or False")),
    "is_remove_valid-one": ("is_remove_valid", 1, says("is_remove_valid", "returned 1, not True or False")),
    "is_remove_valid-raises": ("is_remove_valid", Raise(ZeroDivisionError("division by zero")),
                               says("is_remove_valid", "raised ZeroDivisionError: division by zero")),
    "is_remove_valid-raises-lines": ("is_remove_valid", bug("careless bug\non two lines"),
                                     says("is_remove_valid", "raised RuntimeError: careless bug")),
    "to_data-list": ("to_data", ["n", 4], says("to_data", "not a mapping of MiniZinc data")),
    "to_data-raises": ("to_data", Raise(KeyError("n")), says("to_data", "raised KeyError: 'n'")),
    "to_data-missing": ("to_data", Raise(NotImplementedError()),
                        (f"to_data of puzzle '{TYPE}', plugin 'careless' is not implemented",
                         "docs/plugin-authoring.md")),
    "format-int": ("format", 42, says("format", "returned 42, not text")),
    "parse-tuple": ("parse", (("size", 4), (0,) * N), says("parse", "not a Parsed(params, instance)")),
    "parse-params": ("parse", Parsed(None, (0,) * N), says("parse", "not a Parsed(params, instance)")),
    "parse-board": ("parse", Parsed({"size": 4}, ("1",) * N), says("parse", "not a board of 16 whole numbers")),
    "parse-raises": ("parse", Raise(IndexError("string index out of range")),
                     says("parse", "raised IndexError: string index out of range")),
    # A flat board's from_solution is the contract's (tests/engine/test_facets.py: one that writes
    # its own is refused at registration), so no row overrides it.
    "to_json-set": ("to_json", {"grid": {1, 2}}, says("to_json", "not plain JSON values")),
    "to_json-list": ("to_json", ["grid"], says("to_json", "not a dict of JSON fields")),
    "transformations-str": ("transformations", [Transformation("rows", draw_raises), "columns"],
                            says("transformations", "not a list of Transformation")),
    "transformations-one": ("transformations", Transformation("rows", draw_raises),
                            says("transformations", "not a list of Transformation")),
    "transformations-draw": ("transformations", [Transformation("rows", draw_raises)],
                             (f"transformation 'rows' {OWNER} raised RuntimeError: careless bug",)),
    "transformations-apply": ("transformations", [Transformation("rows", apply_raises)],
                              (f"transformation 'rows' {OWNER} raised IndexError",)),
    "choose_square-99": ("choose_square", 99, says("choose_square", "returned 99, not one of the candidates")),
    "choose_square-bool": ("choose_square", True, says("choose_square", "returned True, not one of the candidates")),
    "choose_square-none": ("choose_square", None, says("choose_square", "returned None, not one of the candidates")),
    "structure-outside": ("structure", frozenset({99}), says("structure", "not a set of squares 0..15")),
    "structure-list": ("structure", [0], says("structure", "not a set of squares 0..15")),
    # fine on the full board, raises on an emptied one (GridPuzzle.givens asks it then)
    "structure-later": ("structure", Custom(structure_fails_once_emptied),
                        ("plugin 'careless'", "raised ValueError: careless bug")),
    "check_params-list": ("check_params", ["size", 4], says("check_params", "not a dict of parameters")),
    "check_params-none": ("check_params", None, says("check_params", "returned None, not a dict of parameters")),
    "features-str": ("features", {"givens": "3"}, says("features", "not a dict of name to number")),
    "features-list": ("features", [1.0, 2.0], says("features", "not a dict of name to number")),
    "board_size-zero": ("board_size", 0, says("board_size", "returned 0, not a positive whole number")),
    "preferred_solver-int": ("preferred_solver", 5, says("preferred_solver", "not a solver name or None")),
}


def careless(method, behaviour):
    """A plugin 'careless' whose toy Latin-square type's ``method`` answers ``behaviour``."""
    def answering(behaviour):
        def answer(self, *args, **kwargs):
            if isinstance(behaviour, Raise):
                raise behaviour.exc
            if isinstance(behaviour, Custom):
                return behaviour.fn(self, *args, **kwargs)
            return behaviour
        return answer

    methods = {}
    if isinstance(behaviour, With):
        methods = {name: answering(b) for name, b in behaviour.others.items()}
        behaviour = behaviour.behaviour
    # The facets of the methods it writes (contract 3: a type opts into a facet to be asked
    # its methods).
    facets = tuple(dict.fromkeys(f for f in map(facet_of, (method, *methods))
                                 if f is not None and not issubclass(ToyLatinType, f)))
    careless_type = type("CarelessLatin", (ToyLatinType, *facets),
                         {**methods, method: answering(behaviour)})

    class Careless:
        PUZZLE_ENGINE_CONTRACT = CONTRACT_VERSION

        @hookimpl
        def register_puzzle_types(self, register):
            register(careless_type())
    return Careless()


def careless_host(row_id):
    host = get_host()
    method, behaviour, _ = ROWS[row_id]
    assert host.register(careless(method, behaviour), name="careless", version="0.0.test")
    return host


def reach(engine, ptype, method):
    """Make the engine (as the CLI does) call ``method`` of ``ptype``."""
    from puzzle_engine.cli.common import _render
    from puzzle_engine.inputs import parse
    params = {"size": 4}
    if method == "check_params":
        engine.check_params(ptype, {"size": 4})
    elif method == "format":
        _render(ptype, params, LATIN, "line")
    elif method == "parse":
        parse(ptype, params, "." * N)
    elif method == "features":
        engine.features(ptype, params, LATIN, LATIN)
    elif method == "to_json":
        calls.record(ptype, params, LATIN, LATIN)
    elif method == "preferred_solver":
        calls.preferred_solver(ptype, params)
    else:  # random_solution, is_remove_valid, to_data, transformations, choose_square...
        engine.generate(ptype, params, 1, GenOptions(batch=1))


@pytest.mark.parametrize("solver", HOST_SOLVERS)
@pytest.mark.parametrize("row_id", list(ROWS))
def test_a_bad_method_result_is_one_line_naming_the_plugin(row_id, solver):
    method, _, words = ROWS[row_id]
    host = careless_host(row_id)
    engine = Engine(host, backend(solver))
    try:
        ptype = host.get_type(TYPE)
        assert ptype.plugin == "careless"
        with pytest.raises(PluginError) as caught:
            reach(engine, ptype, method)
    finally:
        engine.close()
    message = str(caught.value)
    assert "\n" not in message, message
    for fragment in words:
        assert fragment in message, message
    # The same host still serves the other plugins' types, unchanged.
    assert host.failures == []
    assert sudoku_puzzle(host, solver) == clean_sudoku(solver)


#: The CLI cases: row id -> the command (the toy type has no text format: gen writes JSON).
GEN = ("gen", TYPE, "--seed", "1", "--format", "json")
CLI_ROWS = {
    "is_remove_valid-yes": GEN,
    "is_remove_valid-raises-lines": GEN,
    "random_solution-str": GEN,
    "verify_solution-false": GEN,
    "verify_solution-lies": GEN,
    "to_data-list": GEN,
    "to_data-missing": GEN,
    "transformations-draw": GEN,
    "structure-outside": GEN,
    "structure-later": GEN,
    "check_params-none": GEN,
    "to_json-set": GEN,
    "format-int": ("gen", TYPE, "--seed", "1", "--format", "line"),
    "parse-tuple": ("check", TYPE, "." * N),
    "preferred_solver-int": GEN,
}


def run_cli(tmp_path, *args):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PUZZLE_ENGINE_PLUGINS", "PUZZLE_ENGINE_SOLVER", "PUZZLE_ENGINE_DEBUG")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=1800)


@pytest.fixture(scope="module")
def clean_cli_sudoku(tmp_path_factory):
    proc = run_cli(tmp_path_factory.mktemp("clean"), "-c", "from puzzle_engine.cli import main; main()",
                   "gen", "sudoku", "--size", "4", "--seed", "1")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout


@pytest.mark.parametrize("row_id", list(CLI_ROWS))
def test_through_the_cli_it_is_exit_2_and_one_line(row_id, tmp_path, clean_cli_sudoku):
    """The command exits 2 with one line on stderr and nothing on stdout; ``gen sudoku``
    with the same careless plugin loaded works as without it."""
    method, _, words = ROWS[row_id]
    proc = run_cli(tmp_path, __file__, row_id, *CLI_ROWS[row_id])
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr  # no traceback, no second line
    assert lines[0].startswith("puzzle-engine: error: "), lines
    for fragment in words:
        assert fragment in lines[0], lines[0]

    sudoku = run_cli(tmp_path, __file__, row_id, "gen", "sudoku", "--size", "4", "--seed", "1")
    assert sudoku.returncode == 0 and sudoku.stderr == "", sudoku.stderr
    assert sudoku.stdout == clean_cli_sudoku


@pytest.mark.fast
def test_every_cli_row_is_a_row():
    assert set(CLI_ROWS) <= set(ROWS)


if __name__ == "__main__":  # the puzzle-engine command, with row sys.argv[1]'s careless plugin
    import puzzle_engine.cli as cli
    import puzzle_engine.cli.common as common
    row = sys.argv[1]
    common.get_host = lambda: careless_host(row)
    cli.main(sys.argv[2:])
