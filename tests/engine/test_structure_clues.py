"""Structure squares may hold 0, "no clue here" (issue 38): a Skyscrapers type
(tests/skyscrapers.py) whose clues are structure squares and whose missing clues are 0.
Such a square is known from the start (the explainer), never branched on (the grader),
never a given nor an empty square (the record), never emptied (the generator), and may
be 0 in a full board. Every answer is checked again by brute force over the 576 Latin
squares of order 4, with no code of the plugin."""
import itertools

import pytest

import skyscrapers
from puzzle_engine.engine import Engine
from puzzle_engine.explain import report
from puzzle_engine.plugins import get_host
from puzzle_engine.solving.backend import Backend

N, M = 4, 6
NAME = skyscrapers.Skyscrapers.name
#: A unique puzzle with 4 clues of 16 and no given height; its only solution.
PUZZLE = "*..1.*3...........3...........*..2.*"
SOLUTION = [[1, 2, 4, 3], [3, 4, 2, 1], [2, 3, 1, 4], [4, 1, 3, 2]]
#: The issue's board: every height given, the clue above column 1 missing.
ISSUE = "*.242*142132234213321341313422*4212*"
BORDER = frozenset(i for i in range(M * M) if i // M in (0, M - 1) or i % M in (0, M - 1))


def latin_squares(n=N):
    rows = list(itertools.permutations(range(1, n + 1)))
    for square in itertools.product(rows, repeat=n):
        if all(len(set(col)) == n for col in zip(*square)):
            yield [list(r) for r in square]


def brute_solutions(board):
    """Every inner square that agrees with ``board``'s heights and clues (0: none)."""
    found = []
    for inner in latin_squares():
        if any(board[(i + 1) * M + j + 1] not in (0, inner[i][j])
               for i in range(N) for j in range(N)):
            continue
        clues = skyscrapers.clues_of(inner)
        if all(board[i * M + j] in (0, v) for (i, j), v in clues.items()):
            found.append(inner)
    return found


def board_of(text):
    return tuple(0 if c in ".*" else int(c) for c in text)


@pytest.fixture(scope="module")
def sky():
    host = get_host()
    host.register(skyscrapers, name="skyscrapers_test", version="0.0.test")
    engines = {s: Engine(host, Backend(s)) for s in ("gecode", "cp-sat")}
    try:
        yield host.get_type(NAME), engines
    finally:
        for engine in engines.values():
            engine.close()
        host.unregister("skyscrapers_test")


def test_the_puzzles_are_what_the_tests_say():
    assert brute_solutions(board_of(PUZZLE)) == [SOLUTION]
    assert len(brute_solutions(board_of(ISSUE))) == 1
    assert sum(1 for i in BORDER if not board_of(PUZZLE)[i]) == 16  # 12 missing clues, 4 corners


@pytest.mark.parametrize("text", [PUZZLE, ISSUE])
def test_the_explainer_knows_every_structure_square_even_an_empty_one(sky, text):
    """Before: a missing clue was a square to find, any number fitted, and the explainer
    stopped with "needs search ... more than one solution from here"."""
    ptype, engines = sky
    engine = engines["cp-sat"]
    parsed = ptype.parse({"size": None}, text)
    ex = report.explainer(engine, ptype, parsed.params, parsed.instance)
    assert all(ex.known[i] for i in BORDER)
    result = ex.run()
    assert result.stuck is None and result.solved
    (want,) = brute_solutions(parsed.instance)
    assert [[ex.solution[(i + 1) * M + j + 1] for j in range(N)] for i in range(N)] == want
    filled = {s.fact.square for s in result.steps if s.fact.equal}
    assert filled == {i for i in range(M * M) if i not in BORDER and not parsed.instance[i]}


def test_a_board_with_missing_clues_is_unique_and_graded_on_its_own_squares(sky):
    ptype, engines = sky
    engine = engines["gecode"]
    parsed = ptype.parse({"size": None}, PUZZLE)
    params, board = parsed.params, parsed.instance
    verdict = engine.criterion(ptype).judge(engine, ptype, params, board)
    assert verdict.accepted is True and verdict.solutions == 1
    solution = verdict.solution
    assert [list(solution[(i + 1) * M + 1:(i + 1) * M + 1 + N]) for i in range(N)] == SOLUTION
    assert all(solution[i] == board[i] for i in BORDER)  # 0 stays 0: a full board may hold it
    # the grader branches on the player's squares only, not on a missing clue
    assert sorted(ptype.search_variables(params, board)) == sorted(
        i for i in range(M * M) if i not in BORDER)
    record = ptype.to_json(params, board, solution)
    assert (record["givens"], record["empty"]) == (0, N * N)
    assert engine.features(ptype, params, board, solution)["squares"] == N * N


def test_a_generated_puzzle_keeps_its_structure_and_is_unique(sky):
    """The full board has 0 on its corners (structure); the clues are never emptied."""
    ptype, engines = sky
    engine = engines["gecode"]
    params = engine.check_params(ptype, {"size": N})
    p = engine.generate(ptype, params, 3).puzzle
    assert all(p.grid[i] == p.solution[i] for i in BORDER)
    assert all(p.solution[i] for i in range(M * M) if i not in BORDER)
    assert [p.grid[i] for i in (0, M - 1, M * (M - 1), M * M - 1)] == [0, 0, 0, 0]
    assert len(brute_solutions(p.grid)) == 1
    record = p.to_json(ptype)
    inner_givens = sum(1 for i in range(M * M) if i not in BORDER and p.grid[i])
    assert (record["givens"], record["empty"]) == (inner_givens, N * N - inner_givens)


def test_the_command_line_on_boards_with_missing_clues(monkeypatch):
    """The issue's command: ``hint`` on its board (every height given, a clue missing)
    said "needs search ... more than one solution from here", exit 1."""
    from typer.testing import CliRunner

    from puzzle_engine.cli import app, common

    def host_with_skyscrapers():
        host = get_host()
        host.register(skyscrapers, name="skyscrapers_test", version="0.0.test")
        return host
    monkeypatch.setattr(common, "get_host", host_with_skyscrapers)

    def run(*args):
        result = CliRunner().invoke(app, list(args))
        return result.exit_code, result.stdout

    assert run("hint", NAME, ISSUE) == (0, "already solved\n")
    assert run("check", NAME, PUZZLE) == (0, "1 solution (unique)\n")
    code, out = run("explain", NAME, PUZZLE)
    assert code == 0 and out.splitlines()[-1].startswith("solved in "), out
    solved = list(PUZZLE)
    for r, row in enumerate(SOLUTION):
        solved[(r + 1) * M + 1:(r + 1) * M + 1 + N] = map(str, row)
    assert run("solve", NAME, PUZZLE, "--format", "line") == (0, "".join(solved) + "\n")


def test_the_grader_grades_a_board_with_missing_clues(sky):
    from puzzle_engine.grading import GradeOptions
    ptype, engines = sky
    engine = engines["gecode"]
    parsed = ptype.parse({"size": None}, PUZZLE)
    with engine.host.get("graders", ptype.grader).grader(engine, ptype, parsed.params,
                                                          GradeOptions(runs=3)) as grader:
        g = grader.grade(parsed.instance)
    assert [list(g.solution[(i + 1) * M + 1:(i + 1) * M + 1 + N]) for i in range(N)] == SOLUTION
