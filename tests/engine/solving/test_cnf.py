"""FlatZinc encoded as CNF (engine/solving/cnf.py), on real MiniZinc compiles with the SAT
back end's library (models_mzn/sat) and real CaDiCaL through python-sat.

Each model's solutions are enumerated on the CNF (a blocking clause per solution over the
output variables) and compared, as a set, with Gecode's (``minizinc --solver gecode -a``):
the same count, and every decoded solution is one Gecode finds, so it keeps the model."""
import json
import random
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from puzzle_engine import calls
from puzzle_engine.engine import Engine
from puzzle_engine.solving import cnf, flatzinc
from puzzle_engine.solving.backend import Backend
from puzzle_engine.solving.compiled import model_files
from puzzle_engine.solving.discovery import SolverInfo

from pysat.solvers import Cadical195

from support import ARITHMETIC


# -- compiling and solving --------------------------------------------------------------------
@pytest.fixture(scope="session")
def sat_lib(tmp_path_factory):
    """A solver configuration whose library is models_mzn/sat (compiles only: the SAT back
    end's registration is not needed to flatten for it)."""
    where = tmp_path_factory.mktemp("satlib") / "cnf-test.msc"
    where.write_text(json.dumps({
        "id": "org.puzzle-engine.cnf-test", "name": "cnf test", "version": "0",
        "mznlib": str(files("puzzle_engine_models") / "sat"), "executable": sys.executable,
        "tags": ["cp", "int"], "stdFlags": ["-a"], "supportsMzn": False, "supportsFzn": True,
        "needsSolns2Out": True}))
    return SolverInfo(str(where), "cnf test", "0", ("cp", "int"), None, ("-a",))


def _minizinc(*args, tmp_path):
    proc = subprocess.run(["minizinc", *map(str, args)], capture_output=True, text=True,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _inputs(tmp_path, models, data):
    paths = []
    for i, m in enumerate(models):
        if isinstance(m, str):
            p = tmp_path / f"part{i}.mzn"
            p.write_text(m)
            m = p
        paths.append(m)
    if data:
        (tmp_path / "data.json").write_text(json.dumps(data))
        paths.append(tmp_path / "data.json")
    return paths


def compile_sat(sat_lib, tmp_path, models, data=None) -> str:
    paths = _inputs(tmp_path, models, data)
    fzn = tmp_path / "model.fzn"
    _minizinc("--solver", sat_lib.id, "-c", "--output-mode", "json", *paths, "--fzn", fzn,
              "--ozn", tmp_path / "model.ozn", tmp_path=tmp_path)
    return fzn.read_text()


def gecode_solutions(tmp_path, models, data=None) -> set[str]:
    return _json_blocks(_minizinc("--solver", "gecode", "-a", "--output-mode", "json",
                                  *_inputs(tmp_path, models, data), tmp_path=tmp_path))


def _json_blocks(out: str) -> set[str]:
    found = set()
    for block in out.split("----------"):
        block = block.strip().replace("=====UNSATISFIABLE=====", "").replace("==========", "").strip()
        if block:
            found.add(json.dumps(json.loads(block), sort_keys=True))
    return found


def blocking(enc: cnf.Encoding, model) -> list[int]:
    """A clause that excludes this model's output values."""
    out = []
    for item in enc.outputs:
        elems = enc._array(flatzinc.Ident(item.name)) if item.array else [flatzinc.Ident(item.name)]
        for e in elems:
            if item.type[0] == "bool":
                lit = enc.lit(e)
                out.append(-lit if enc.value_of(lit, model) else lit)
            else:
                x = enc.int_of(e)
                out.append(-x.eq(enc._decode_int(x, model), enc.true))
    return out


def fzn_output(enc: cnf.Encoding, values: dict) -> str:
    """A solution as a FlatZinc solver prints it (what MiniZinc's output stage reads)."""
    def show(v):
        return ("true" if v else "false") if isinstance(v, bool) else str(v)

    def flat(v):
        return [x for e in v for x in flat(e)] if isinstance(v, list) else [v]
    lines = []
    for item in enc.outputs:
        value = values[item.name]
        if not item.array:
            lines.append(f"{item.name} = {show(value)};")
            continue
        ann = next(a for a in item.anns if isinstance(a, flatzinc.Call) and a.name == "output_array")
        dims = ",".join(f"{d.intervals[0][0]}..{d.intervals[-1][1]}" if d.intervals else "1..0"
                        for d in ann.args[0])
        body = ",".join(show(x) for x in flat(value))
        lines.append(f"{item.name} = array{len(ann.args[0])}d({dims},[{body}]);")
    return "\n".join(lines + ["----------"]) + "\n"


def sat_solutions(text: str, limit: int = 5000) -> tuple[cnf.Encoding, list[str]]:
    """The encoding and every solution, printed as a FlatZinc solver prints them."""
    enc = cnf.Encoding(flatzinc.parse(text))
    found = []
    with Cadical195(bootstrap_with=enc.clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            found.append(fzn_output(enc, enc.output_values(model)))
            assert len(found) <= limit
            clause = blocking(enc, model)
            if not clause:
                break
            solver.add_clause(clause)
    return enc, found


def printed(tmp_path, found: list[str]) -> set[str]:
    """The solutions through MiniZinc's output stage (the compile's .ozn), as JSON."""
    proc = subprocess.run(["minizinc", "--ozn-file", str(tmp_path / "model.ozn")],
                          input="".join(found) + "==========\n", capture_output=True,
                          text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return _json_blocks(proc.stdout)


def same_solutions(sat_lib, tmp_path, models, data=None, at_least=1) -> int:
    _, found = sat_solutions(compile_sat(sat_lib, tmp_path, models, data))
    ours = printed(tmp_path, found)
    assert len(ours) == len(found)
    theirs = gecode_solutions(tmp_path, models, data)
    assert len(ours) == len(theirs) and ours == theirs
    assert len(ours) >= at_least
    return len(ours)


# -- the built-in types' models ------------------------------------------------------------------
@pytest.fixture(scope="module")
def engine(host):
    engine = Engine(host, Backend("gecode"))
    try:
        yield engine
    finally:
        engine.close()


def type_model(host, sat_lib, tmp_path, name, params, instance):
    """The type's model files and data, as the engine flattens them for the SAT library."""
    ptype = host.get_type(name)
    extra = calls.instance_model(ptype, params, instance)
    paths, _ = model_files(ptype, extra, tmp_path)
    return [Path(p) for p in paths], calls.data(ptype, params, instance, sat_lib)


def parsed(host, name, text):
    p = host.get_type(name).parse({}, text)
    return p.params, p.instance


SUDOKU_9 = ("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
            .replace("8..79", "8...."))  # the last givens gone: several solutions


@pytest.mark.parametrize("size, givens, count", [
    (4, "." * 16, 288),
    (4, "1..." "..3." + "." * 8, None),
    (9, SUDOKU_9, None),
])
def test_sudoku_solutions_are_gecodes(host, engine, sat_lib, tmp_path, size, givens, count):
    sudoku = host.get_type("sudoku")
    params = engine.check_params(sudoku, {"size": size})
    board = tuple(0 if ch == "." else int(ch) for ch in givens)
    models, data = type_model(host, sat_lib, tmp_path, "sudoku", params, board)
    found = same_solutions(sat_lib, tmp_path, models, data, at_least=2)
    assert count is None or found == count


# -- builtins a translation can get wrong ----------------------------------------------------------
# Reified and half-reified linear constraints with negative coefficients and three or
# more terms (pindakaas), their negations, != on sums, element of variables, Booleans.
LINEAR = """
array[1..4] of var -2..3: x;
array[1..3] of var bool: p;
var 0..6: s;
constraint p[1] <-> (2 * x[1] - 3 * x[2] + x[3] <= 1);
constraint p[2] -> (x[1] - x[2] - x[3] + 2 * x[4] = 2);
constraint p[3] <-> (x[2] + x[3] + x[4] != 1);
constraint s = sum(i in 1..4)(bool2int(x[i] > 0)) + bool2int(p[1]);
constraint x[4] = [x[1], x[2], x[3]][1 + bool2int(p[1]) + bool2int(p[2])];
constraint (p[1] xor p[2]) \\/ (x[1] >= x[2] /\\ x[3] < x[4]);
constraint -x[1] + x[4] >= -1 \\/ not p[3];
constraint s >= 2;
solve satisfy;
"""

# Integer functions with negative arguments, a variable divisor, a maximum and minimum
# over arrays, and sets: set_in and its reification.
FUNCTIONS = """
var -4..4: a;
var -3..3: d;
var -20..20: q;
var -20..20: m;
var 0..16: sq;
var bool: inside;
constraint q = a div d /\\ m = a mod d;
constraint sq = a * a;
constraint inside <-> (a in {-3, 0, 2, 4});
constraint max([a, d, q]) >= 1 /\\ min([a, d, m]) <= 0;
constraint abs(a) + abs(d) != 3 \\/ inside;
solve satisfy;
"""


@pytest.mark.parametrize("model", [ARITHMETIC, LINEAR, FUNCTIONS],
                         ids=["arithmetic", "linear", "functions"])
def test_builtins_give_gecodes_solutions(sat_lib, tmp_path, model):
    same_solutions(sat_lib, tmp_path, [model], at_least=5)


def test_the_library_makes_all_different_and_table_native(sat_lib, tmp_path):
    text = compile_sat(sat_lib, tmp_path, [ARITHMETIC])
    names = {item.name for item in flatzinc.parse(text) if item.kind == "constraint"}
    assert {"fzn_all_different_int", "fzn_table_int"} <= names


@pytest.mark.parametrize("text", [". . ./. . .", ". 2 . ./. . . 3/1 . . ./. . 2 ."])
@pytest.mark.parametrize("implied", [True, False])
def test_fillomino_solutions_are_gecodes(host, sat_lib, tmp_path, text, implied):
    """Both forms of the model: with the implied constraints (a solver without learning)
    and without (one that learns)."""
    params, board = parsed(host, "fillomino", text)
    models, data = type_model(host, sat_lib, tmp_path, "fillomino", params, board)
    data["implied"] = implied
    same_solutions(sat_lib, tmp_path, models, data, at_least=2)


@pytest.mark.parametrize("text", ["1 queen a, 2 rook b, 1 bishop c: ..#../o..../.....",
                                  "2 rook a, 2 rook b: ..#../#####",
                                  "1 rook a, 1 bishop b, 1 queen c: ..../.o../...."])
def test_combination_solutions_are_gecodes(host, sat_lib, tmp_path, text):
    params, level = parsed(host, "combination", text)
    models, data = type_model(host, sat_lib, tmp_path, "combination", params, level)
    same_solutions(sat_lib, tmp_path, models, data)


def test_combination_with_open_counts(host, sat_lib, tmp_path):
    """A count of -1 leaves n[k] a variable (the board flattened once while a level grows)."""
    params, level = parsed(host, "combination", "1 rook a, 1 rook b: ..../.o../....")
    models, data = type_model(host, sat_lib, tmp_path, "combination", params, level)
    data["count"] = [-1, 1]
    same_solutions(sat_lib, tmp_path, models, data, at_least=3)


@pytest.mark.parametrize("text", ["2xI3: 123/321", "I3 3x2: 113/223/223", "I3 L3 2: 1234/4321"])
def test_polyomino_math_solutions_are_gecodes(host, sat_lib, tmp_path, text):
    params, board = parsed(host, "polyomino-math", text)
    models, data = type_model(host, sat_lib, tmp_path, "polyomino-math", params, board)
    # Gecode's enumeration branches on the placements, as the type's solvers do: its own
    # default branched on the covering array 'at' first, minutes on a 2x4 board.
    models.append("solve :: bool_search(x, input_order, indomain_min) satisfy;")
    same_solutions(sat_lib, tmp_path, models, data, at_least=2)


def test_polyomino_math_optimum_by_order_literals(host, sat_lib, tmp_path):
    """The objective's order literals, asked as assumptions, find Gecode's optimum."""
    params, board = parsed(host, "polyomino-math", "I3 L3 2: 1234/4321")
    models, data = type_model(host, sat_lib, tmp_path, "polyomino-math", params, board)
    models.append("solve maximize score;")
    enc = cnf.Encoding(flatzinc.parse(compile_sat(sat_lib, tmp_path, models, data)))
    assert enc.goal == "maximize" and isinstance(enc.objective, str)
    best = None
    with Cadical195(bootstrap_with=enc.clauses) as solver:
        while solver.solve(assumptions=[] if best is None else [enc.ge_lit(enc.objective, best + 1)]):
            best = enc.int_value(enc.objective, solver.get_model())
    out = _minizinc("--solver", "gecode", "--output-mode", "json", "--output-objective",
                    *_inputs(tmp_path, models, data), tmp_path=tmp_path)
    assert best == json.loads(out.split("----------")[0])["_objective"] > 0


class _Asked(Exception):
    pass


def logic_model(host, spec: str, seed: int) -> str:
    """The first model a spec's generator asks the solver about (its scenario, drawn with
    ``seed``), without running a solver."""
    from puzzle_engine_plugins.logic.generator import Generator
    asked = []

    def solve(model, n, *shape):  # (and the model's shape, which this test does not need)
        asked.append(model)
        raise _Asked
    try:
        Generator(host.get_type("logic").spec(spec), solve).draw(random.Random(seed))
    except _Asked:
        pass
    assert asked, f"{spec} asked no model"
    return asked[0]


@pytest.mark.parametrize("spec", ["wine-merchant", "house-number", "zebra", "knapsack",
                                  "scheduling", "mystery-ore", "knights-knaves"])
def test_logic_spec_solutions_are_gecodes(host, sat_lib, tmp_path, spec):
    """A spec's scenario model (wine-merchant's unknowns are declared on -10000..10000:
    their domains are narrowed from the clauses that state them). The unknowns of more
    than 10 values are fixed to a solution's (the drawn numbers, as the criterion gives
    them), so that the solutions can be counted."""
    model = logic_model(host, spec, 3)
    enc = cnf.Encoding(flatzinc.parse(compile_sat(sat_lib, tmp_path, [model])))
    out = _minizinc("--solver", "chuffed", "--output-mode", "json",  # any solution
                    *_inputs(tmp_path, [model], None), tmp_path=tmp_path)
    first = {} if "UNSATISFIABLE" in out else json.loads(out.split("----------")[0])
    fixed = [f"constraint {k} = {v};" for k, v in first.items()
             if not isinstance(v, bool) and k in enc.domains and len(enc.domain(k)) > 10]
    same_solutions(sat_lib, tmp_path, [model + "\n".join(fixed)], at_least=1 if first else 0)


# -- the interface and tricky cases, on FlatZinc written by hand ---------------------------------
def encoding(text: str) -> cnf.Encoding:
    return cnf.Encoding(flatzinc.parse(text))


def models(enc: cnf.Encoding, names: list[str]) -> set[tuple]:
    """Every assignment of ``names`` (ints, or bools for bool variables) the CNF allows."""
    found = set()
    with Cadical195(bootstrap_with=enc.clauses) as solver:
        while solver.solve():
            m = solver.get_model()
            values, block = [], []
            for name in names:
                if name in enc.bool_names:
                    lit = enc.bool_lit(name)
                    values.append(enc.value_of(lit, m))
                    block.append(-lit if values[-1] else lit)
                else:
                    values.append(enc.int_value(name, m))
                    block.append(-enc.eq_lit(name, values[-1]))
            found.add(tuple(values))
            solver.add_clause(block)
    return found


def test_literal_names_fixed_values_and_out_of_domain_values():
    enc = encoding("var 1..3: x;\nvar 2..6: y;\nvar bool: b;\n"
                   "constraint int_eq(y, 4);\nconstraint int_ne(x, 2);\nsolve satisfy;\n")
    t = enc.true
    assert (enc.eq_lit("5", 5), enc.eq_lit("5", 4), enc.ge_lit("5", 5), enc.ge_lit("5", 6)) == (t, -t, t, -t)
    assert enc.domain("-7") == [-7] and enc.bool_lit("true") == t and enc.bool_lit("false") == -t
    assert enc.domain("y") == [4] and enc.eq_lit("y", 4) == t and enc.ge_lit("y", 5) == -t
    assert enc.domain("x") == [1, 3] and enc.eq_lit("x", 2) == -t and enc.eq_lit("x", 9) == -t
    assert enc.ge_lit("x", 0) == t and enc.ge_lit("x", 2) == enc.ge_lit("x", 3) != t
    assert models(enc, ["x", "y", "b"]) == {(x, 4, b) for x in (1, 3) for b in (False, True)}
    top = enc.top
    assert enc.new_var() == top + 1 and enc.top == top + 1


@pytest.mark.parametrize("text", [
    "var 1..3: x;\nconstraint int_lin_eq([2], [x], 5);\nsolve satisfy;\n",
    "var 1..0: x;\nsolve satisfy;\n",
    "var 1..3: x;\nvar 1..3: y;\narray [1..3] of var int: a = [x, y, 2];\n"
    "constraint int_le(x, 1);\nconstraint fzn_all_different_int(a);\n"
    "constraint int_lin_le([1, -1], [y, x], -1);\nsolve satisfy;\n",
])
def test_empty_domains_and_unsatisfiable_models_have_no_model(text):
    enc = encoding(text)
    with Cadical195(bootstrap_with=enc.clauses) as solver:
        assert solver.solve() is False


RELATIONS = ["int_lin_eq", "int_lin_le", "int_lin_ne"]


@pytest.mark.parametrize("seed", range(12))
def test_linear_reified_and_half_reified_by_brute_force(seed):
    """Random linear constraints (1 to 4 terms, negative coefficients, a repeated
    variable, holes in domains) plain, reified and half-reified: exactly the assignments
    that brute force finds."""
    import itertools
    rng = random.Random(seed)
    n = rng.randint(1, 4)
    doms = [sorted(rng.sample(range(-3, 4), rng.randint(2, 5))) for _ in range(n)]
    names = [f"x{i}" for i in range(n)]
    terms = [rng.choice(names) for _ in range(rng.randint(1, 4))]
    coeffs = [rng.choice([-3, -2, -1, 1, 2, 3]) for _ in terms]
    c = rng.randint(-4, 4)
    rel = rng.choice(RELATIONS)
    mode = rng.choice(["", "_reif", "_imp"])
    decl = "".join(f"var {{{','.join(map(str, d))}}}: {x};\n" for x, d in zip(names, doms))
    r_arg = ", r" if mode else ""
    text = (f"{decl}var bool: r;\nconstraint {rel}{mode}([{','.join(map(str, coeffs))}], "
            f"[{','.join(terms)}], {c}{r_arg});\nsolve satisfy;\n")
    expected = set()
    for values in itertools.product(*doms):
        env = dict(zip(names, values))
        s = sum(a * env[x] for a, x in zip(coeffs, terms))
        holds = {"int_lin_eq": s == c, "int_lin_le": s <= c, "int_lin_ne": s != c}[rel]
        for r in (False, True):
            ok = holds if not mode else (r == holds if mode == "_reif" else (not r or holds))
            if ok:
                expected.add((*values, r))
    assert models(encoding(text), names + ["r"]) == expected, text


def test_search_goal_and_objective_are_read():
    enc = encoding("var 1..3: x;\nvar 1..3: y;\narray [1..2] of var int: a = [y, x];\n"
                   "solve :: seq_search([int_search(a, input_order, indomain_min, complete),"
                   "int_search([x], first_fail, indomain_max, complete)]) minimize x;\n")
    assert (enc.search, enc.goal, enc.objective) == (["y", "x", "x"], "minimize", "x")


@pytest.mark.parametrize("text, message", [
    ("var 1..3: x;\nvar 1..3: y;\nconstraint int_frobnicate(x, y);\nsolve satisfy;\n",
     "line 3: the SAT encoding does not support 'int_frobnicate'"),
    ("var 0.0..1.0: f;\nsolve satisfy;\n", "line 1: float variables are not supported"),
    ("var set of 1..3: s;\nsolve satisfy;\n", "line 1: set variables are not supported"),
    ("var int: x;\nsolve satisfy;\n", "line 1: variable 'x' has no bounds"),
    ("var 0..1000000: x;\nvar 0..5: y;\nconstraint int_le(y, x);\nsolve satisfy;\n",
     "line 1: variable 'x' has 1000001 values, too many"),
    ("var -30000..30000: x;\nconstraint int_ne(x, 0);\nsolve satisfy;\n",
     "line 1: variable 'x' has 60000 values, too many"),
    ("var 1..3: x;\nconstraint fzn_all_different_int_reif([x, x], true);\nsolve satisfy;\n",
     "line 2: the SAT encoding does not support 'fzn_all_different_int_reif'"),
])
def test_what_is_not_supported_is_an_error_naming_the_line(text, message):
    with pytest.raises(flatzinc.FznError) as err:
        encoding(text)
    assert message in str(err.value)


def test_set_parameters_and_set_in():
    enc = encoding("array [1..2] of set of int: S = [{1,3},2..3];\nset of int: T = {2,3};\n"
                   "var 1..3: x;\nvar bool: r;\nconstraint set_in(x, S[1]);\n"
                   "constraint set_in_reif(x, T, r);\nsolve satisfy;\n")
    assert models(enc, ["x", "r"]) == {(1, False), (3, True)}


def test_at_most_one_beyond_pairwise_is_exact():
    """Above ``PAIRWISE`` literals the sequential counter: no two may hold, any one may."""
    enc = encoding("solve satisfy;\n")
    lits = [enc.new_var() for _ in range(cnf.PAIRWISE + 5)]
    enc.at_most_one(lits)
    with Cadical195(bootstrap_with=enc.clauses) as solver:
        assert solver.solve(assumptions=[-x for x in lits])
        for i in (0, 17, len(lits) - 1):
            assert solver.solve(assumptions=[lits[i]])
            for j in (0, 1, 20, len(lits) - 1):
                if j != i:
                    assert not solver.solve(assumptions=[lits[i], lits[j]])


def test_table_and_all_different_natively(sat_lib, tmp_path):
    """table with repeated rows and rows outside the domains; all_different with more
    values than variables (no 'each value used') and with as many."""
    model = """
include "table.mzn"; include "alldifferent.mzn";
array[1..3] of var 1..4: x;
array[1..3] of var 1..3: y;
constraint table([x[1], x[2]], [| 1, 2 | 1, 2 | 2, 5 | 3, 1 | 4, 4 | 2, 3 |]);
constraint alldifferent(x) /\\ alldifferent(y) /\\ y[1] != x[3];
solve satisfy;
"""
    same_solutions(sat_lib, tmp_path, [model], at_least=10)


BOOLS = "var bool: a;\nvar bool: b;\nvar bool: c;\nvar bool: r;\nvar -2..3: x;\nvar 0..2: y;\n"


@pytest.mark.parametrize("constraint, holds", [
    ("bool_and(a, b, r)", lambda a, b, c, r, x, y: r == (a and b)),
    ("bool_or(a, b, r)", lambda a, b, c, r, x, y: r == (a or b)),
    ("bool_xor(a, b, r)", lambda a, b, c, r, x, y: r == (a != b)),
    ("bool_xor(a, b)", lambda a, b, c, r, x, y: a != b),
    ("bool_not(a, b)", lambda a, b, c, r, x, y: a != b),
    ("bool_eq_reif(a, b, r)", lambda a, b, c, r, x, y: r == (a == b)),
    ("bool_le_reif(a, b, r)", lambda a, b, c, r, x, y: r == (a <= b)),
    ("bool_lt_reif(a, b, r)", lambda a, b, c, r, x, y: r == (a < b)),
    ("bool_le_imp(a, b, r)", lambda a, b, c, r, x, y: not r or a <= b),
    ("array_bool_xor([a, b, c])", lambda a, b, c, r, x, y: (a + b + c) % 2 == 1),
    ("array_bool_and([a, b, c], r)", lambda a, b, c, r, x, y: r == (a and b and c)),
    ("array_bool_or([a, b, c], r)", lambda a, b, c, r, x, y: r == (a or b or c)),
    ("bool_clause([a, b], [c, r])", lambda a, b, c, r, x, y: a or b or not c or not r),
    ("bool_clause_reif([a], [b], r)", lambda a, b, c, r, x, y: r == (a or not b)),
    ("bool_lin_eq([2, -1, 1], [a, b, c], y)", lambda a, b, c, r, x, y: 2 * a - b + c == y),
    ("bool_lin_le([2, -1, 3], [a, b, c], 2)", lambda a, b, c, r, x, y: 2 * a - b + 3 * c <= 2),
    ("bool2int(a, y)", lambda a, b, c, r, x, y: y == a),
    ("array_bool_element(y, [true, false, true], a)", lambda a, b, c, r, x, y: y >= 1 and a == (y != 2)),
    ("array_var_bool_element(y, [a, b, c], r)", lambda a, b, c, r, x, y: y >= 1 and r == [a, b, c][y - 1]),
    ("array_int_element(y, [3, -2], x)", lambda a, b, c, r, x, y: y >= 1 and x == [3, -2][y - 1]),
    ("array_var_int_element(y, [x, 1], 1)", lambda a, b, c, r, x, y: y >= 1 and [x, 1][y - 1] == 1),
    ("int_pow(x, y, 4)", lambda a, b, c, r, x, y: x ** y == 4),
    ("int_times(x, y, -2)", lambda a, b, c, r, x, y: x * y == -2),
    ("int_div(x, y, -1)", lambda a, b, c, r, x, y: y != 0 and int(x / y) == -1),
    ("int_mod(x, y, -1)", lambda a, b, c, r, x, y: y != 0 and x - int(x / y) * y == -1),
    ("int_plus(x, y, 1)", lambda a, b, c, r, x, y: x + y == 1),
    ("int_minus(x, y, 1)", lambda a, b, c, r, x, y: x - y == 1),
    ("array_int_maximum(x, [y, 1])", lambda a, b, c, r, x, y: x == max(y, 1)),
    ("array_int_minimum(x, [y, 1])", lambda a, b, c, r, x, y: x == min(y, 1)),
    ("int_le_reif(y, x, r)", lambda a, b, c, r, x, y: r == (y <= x)),
    ("int_lt_imp(x, y, r)", lambda a, b, c, r, x, y: not r or x < y),
    ("int_ne_reif(x, y, r)", lambda a, b, c, r, x, y: r == (x != y)),
    ("int_eq_reif(x, 2, r)", lambda a, b, c, r, x, y: r == (x == 2)),
    ("int_lt_reif(1, x, r)", lambda a, b, c, r, x, y: r == (1 < x)),
    ("set_in_reif(x, {-2, 0, 3}, r)", lambda a, b, c, r, x, y: r == (x in (-2, 0, 3))),
    ("set_in_imp(x, 1..2, r)", lambda a, b, c, r, x, y: not r or x in (1, 2)),
])
def test_builtins_by_brute_force(constraint, holds):
    import itertools
    enc = encoding(f"{BOOLS}constraint {constraint};\nsolve satisfy;\n")
    expected = {v for v in itertools.product((False, True), (False, True), (False, True),
                                             (False, True), range(-2, 4), range(0, 3))
                if holds(*v)}
    assert models(enc, ["a", "b", "c", "r", "x", "y"]) == expected


@pytest.mark.parametrize("amo", [True, False])
def test_a_sum_over_a_group_of_which_at_most_one_holds(amo):
    """z = c - sum(ci * bi) over 0/1 terms that another constraint keeps to at most one
    (a placement's number on a square) is encoded as a selection: the same solutions."""
    import itertools
    names = ["b1", "b2", "b3", "b4"]
    text = "".join(f"var bool: {b};\nvar 0..1: i{b};\n" for b in names) + "var -9..9: z;\n" + \
        "".join(f"constraint bool2int({b}, i{b});\n" for b in names) + \
        ("constraint int_lin_le([1,1,1,1], [ib1,ib2,ib3,ib4], 1);\n" if amo else "") + \
        "constraint int_lin_eq([3,-2,5,4,2], [ib1,ib2,ib3,ib4,z], 2);\nsolve satisfy;\n"
    expected = set()
    for bs in itertools.product((False, True), repeat=4):
        if amo and sum(bs) > 1:
            continue
        rest = 2 - (3 * bs[0] - 2 * bs[1] + 5 * bs[2] + 4 * bs[3])
        if rest % 2 == 0 and -9 <= rest // 2 <= 9:
            expected.add((*bs, rest // 2))
    enc = encoding(text)
    assert bool(enc.amo_groups) == amo
    assert models(enc, names + ["z"]) == expected
