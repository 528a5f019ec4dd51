"""FlatZinc encoded as CNF (engine/solving/cnf.py), on real MiniZinc compiles with the SAT
back end's library (models_mzn/sat) and real CaDiCaL through python-sat.

Each model's solutions are enumerated on the CNF (a blocking clause per solution over the
output variables) and compared, as a set, with Gecode's (``minizinc --solver gecode -a``):
the same count, and every decoded solution is one Gecode finds, so it keeps the model."""
import json
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
    out = _minizinc("--solver", "gecode", "-a", "--output-mode", "json",
                    *_inputs(tmp_path, models, data), tmp_path=tmp_path)
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


def sat_solutions(text: str, limit: int = 5000) -> set[str]:
    enc = cnf.Encoding(flatzinc.parse(text))
    found = set()
    with Cadical195(bootstrap_with=enc.clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            found.add(json.dumps(enc.output_values(model), sort_keys=True))
            assert len(found) <= limit
            clause = blocking(enc, model)
            if not clause:
                break
            solver.add_clause(clause)
    return found


def same_solutions(sat_lib, tmp_path, models, data=None, at_least=1) -> int:
    ours = sat_solutions(compile_sat(sat_lib, tmp_path, models, data))
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
