"""benchmarks/bench_sessions.py: its row registry and argument parsing, without running a
solver or a peer (the figures belong in docs/performance.md, not in tests)."""
import importlib.util
import sys

import pytest
from support import ROOT

pytestmark = pytest.mark.fast

SCRIPT = ROOT / "benchmarks" / "bench_sessions.py"
ROWS = ["sudoku9", "sudoku16", "sudoku25", "fillomino12", "logic", "polyomino", "explain",
        "regress"]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_sessions", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_sessions"] = module     # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules["bench_sessions"]


def test_list_prints_every_row_with_its_target(bench, capsys):
    assert list(bench.ROWS) == ROWS
    assert bench.main(["--list"]) == 0
    out = capsys.readouterr().out
    for name, row in bench.ROWS.items():
        assert f"{name} " in out and f"target: {row.target}" in out
    assert "(needs --base)" in out


def test_each_row_parses_its_own_and_the_common_options(bench):
    ap = bench.parser()
    args = ap.parse_args(["sudoku25", "--seeds", "5", "--solver", "cp-sat", "--base", "/b",
                          "--timeout", "60"])
    assert (args.row, args.seeds, args.solver, str(args.base), args.timeout) == \
        ("sudoku25", 5, "cp-sat", "/b", 60.0)
    assert ap.parse_args(["sudoku9"]).count == 50 and ap.parse_args(["all"]).row == "all"
    with pytest.raises(SystemExit):
        ap.parse_args(["sudoku9", "--seeds", "3"])     # not an option of that row


@pytest.mark.parametrize("argv, message", [
    (["regress"], "regress needs --base PATH"),
    ([], "name a row"),
    (["nonsense"], "invalid choice"),
])
def test_bad_command_lines_exit_2_with_one_message(bench, capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        bench.main(argv)
    assert exc.value.code == 2 and message in capsys.readouterr().err
