"""The engine still makes the puzzles it made: each record of tests/data/golden.jsonl
(written by scripts/make_golden.py) is generated again with the same command, and must
give the same grid and the same solution. Timings and solver calls may differ."""
import json
from pathlib import Path

import pytest

from test_cli import run

GOLDEN = [json.loads(line) for line in
          (Path(__file__).parent / "data" / "golden.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("golden", GOLDEN, ids=lambda g: " ".join(g["args"]))
def test_the_same_command_makes_the_same_puzzle(golden):
    result = run("gen", *golden["args"], "--format", "json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["solver"] == golden["solver"]
    assert (record["grid"], record["solution"]) == (golden["grid"], golden["solution"])
