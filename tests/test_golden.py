"""The engine still makes the puzzles it made, whichever exact solver decides: each record
of tests/data/golden.jsonl (written by scripts/make_golden.py) is generated again with the
same command on every exact solver installed (the SAT back end too, once
``puzzle-engine solvers`` lists it), and must give the same grid and the same solution.
Timings and solver calls may differ."""
import json
from pathlib import Path

import pytest

from puzzle_engine.solving.discovery import find_solver
from support import EXACT_SOLVERS, run

GOLDEN = [json.loads(line) for line in
          (Path(__file__).parent / "data" / "golden.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("exact_solver", EXACT_SOLVERS, indirect=True)
@pytest.mark.parametrize("golden", GOLDEN, ids=lambda g: " ".join(g["args"]))
def test_the_same_command_makes_the_same_puzzle(golden, exact_solver):
    assert "--solver" not in golden["args"]  # one record for every exact solver
    result = run("gen", *golden["args"], "--solver", exact_solver, "--format", "json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["solver"] == find_solver(exact_solver).id
    assert (record["grid"], record["solution"]) == (golden["grid"], golden["solution"])
