"""The multiple-method grader and its propagation levels, on the real solvers."""
import csv
import math

import pytest

import puzzle_engine
from puzzle_engine import hookimpl
from puzzle_engine.solving.backend import Backend
from puzzle_engine.errors import PuzzleInputError, SolverError
from puzzle_engine.engine import Engine
from puzzle_engine.grading import PLAIN, STRENGTHENED, GradeOptions, Grader
from support import ROOT, ToyLatin

DATA = ROOT / "plugins" / "sudoku" / "data" / "sudoku_rated_train.csv"


def board_of(text: str):
    return tuple(0 if ch == "." else int(ch) for ch in text)


def first_of(label: str, skip: int = 0) -> str:
    with open(DATA, newline="") as handle:
        rows = [r["puzzle"] for r in csv.DictReader(handle) if r["label"] == label]
    return rows[skip]


@pytest.fixture(scope="module")
def graders(engines, sudoku):
    params = engines["gecode"].check_params(sudoku, {"size": 9})
    made = {}

    def make(solver="gecode", **options):
        key = (solver, tuple(sorted(options.items())))
        if key not in made:
            made[key] = Grader(engines[solver], sudoku, params, GradeOptions(**options))
        return made[key]
    yield make
    for g in made.values():
        g.close()


def test_a_simple_puzzle_needs_no_search_and_an_expert_one_does(graders):
    grader = graders(runs=50)
    simple = grader.grade(board_of(first_of("simple")))
    expert = grader.grade(board_of(first_of("expert")))

    # SAC probing at the root solves these 9x9 puzzles outright, so the figure is the plain pass
    for g in (simple, expert):
        assert g.strengthened.solved_by_flattening and g.strengthened.mean_nodes <= 1
        assert g.mode == PLAIN and g.figure is g.plain and g.plain.runs == 50
        assert g.solutions == 1 and all(g.solution)
    assert simple.mean_nodes == 1 and simple.figure.sd_nodes == 0
    assert all(lv.root for lv in simple.levels.values())
    assert expert.mean_nodes > 1 and expert.figure.sd_nodes > 0  # the orders differ
    assert expert.figure.se_nodes == pytest.approx(expert.figure.sd_nodes / math.sqrt(50))
    assert not any(lv.root for lv in expert.levels.values())
    # levels are ordered by strength: a level that needs search implies all weaker ones do
    roots = [lv.root for lv in expert.levels.values()]
    assert roots == sorted(roots)


def test_the_solution_is_the_puzzles_and_the_plugin_features_are_in(graders):
    text = first_of("easy")
    g = graders(runs=5).grade(board_of(text))
    assert all(s == v for s, v in zip(g.solution, board_of(text)) if v)
    feats = g.features()
    assert feats["solutions"] == 1 and feats["empties"] == text.count(".")
    assert feats["ln_mean_nodes"] == pytest.approx(math.log(g.mean_nodes))
    assert {f"level_{n}_root" for n in ("singles", "hidden", "subsets", "lines")} <= set(feats)


def test_every_level_keeps_every_solution(engines, sudoku):
    """The levels change propagation only: the empty 4x4 board has its 288 solutions at
    each of them, and a 9x9 puzzle its one."""
    engine = engines["gecode"]
    for size, board, expected in ((4, (0,) * 16, 288), (9, board_of(first_of("expert", 3)), 1)):
        params = engine.check_params(sudoku, {"size": size})
        for level in (0, 1, 2, 3, 4):
            data = {**engine.data(sudoku, params, board), "level": level}
            result, sols = engine.backend.solve(sudoku, data, nr_solutions=expected + 1)
            assert result.status == "all" and len(sols) == expected, (size, level, result.status)


def test_models_are_flattened_once_per_pass_not_per_run(host, sudoku, monkeypatch):
    engine = Engine(host, Backend("gecode"))  # its own cache of flattened models
    params = engine.check_params(sudoku, {"size": 9})
    compiles = []
    real = engine.backend.compile
    monkeypatch.setattr(engine.backend, "compile",
                        lambda *a, **k: compiles.append(k.get("flags", ())) or real(*a, **k))
    with Grader(engine, sudoku, params, GradeOptions(runs=20)) as grader:
        calls0 = engine.backend.calls
        for label in ("intermediate", "expert"):
            grader.grade(board_of(first_of(label)))
    # the plain model and the 4 levels once for both puzzles; one SAC flattening per puzzle
    assert compiles.count(()) == 5 and compiles.count(("-O5",)) == 2
    # per puzzle: the uniqueness check, 20 plain runs, 4 levels, and 1 run (SAC solved it)
    assert engine.backend.calls - calls0 == 2 * (1 + 20 + 4 + 1)


def test_cutoff_decides_which_pass_gives_the_figure(graders):
    board = board_of(first_of("expert"))
    low = graders(runs=5, cutoff=0.0).grade(board)
    assert low.mode == STRENGTHENED and low.plain is None and low.figure is low.strengthened
    assert low.to_json()["mode"] == STRENGTHENED
    off = graders(runs=5, strengthen=False).grade(board)
    assert off.mode == PLAIN and off.strengthened is None
    assert math.isnan(off.features()["ln_strengthened_nodes"])


def test_the_same_seed_gives_the_same_figures_and_another_seed_other_orders(graders):
    board = board_of(first_of("expert", 1))
    a, b = graders(runs=30).grade(board), graders(runs=30).grade(board)
    c = graders(runs=30, seed=7).grade(board)
    assert a.figure == b.figure
    assert a.figure != c.figure


def test_chuffed_can_grade_too(graders):
    g = graders("chuffed", runs=10).grade(board_of(first_of("expert")))
    assert g.solver == "org.chuffed.chuffed" and g.figure.runs == 10 and g.mean_nodes >= 0


def test_a_puzzle_without_exactly_one_solution_is_refused(graders):
    text = first_of("simple")
    board = board_of(text)
    grader = graders(runs=5)
    emptier = tuple(0 if i < 40 else v for i, v in enumerate(board))
    with pytest.raises(PuzzleInputError, match="2 or more solutions"):
        grader.grade(emptier, "row 7")
    # no two givens clash, but square (0, 0) has no value left: 1..8 in its row, 9 in its column
    dead = tuple([0, 1, 2, 3, 4, 5, 6, 7, 8] + [0] * 27 + [9] + [0] * 44)
    with pytest.raises(PuzzleInputError, match="no solution"):
        grader.grade(dead)
    with pytest.raises(PuzzleInputError, match="81"):
        grader.grade(board[:80])


def test_a_time_out_is_unknown_not_a_grade(host, sudoku):
    engine = Engine(host, Backend("gecode", time_limit=0.0001))
    params = engine.check_params(sudoku, {"size": 9})
    with Grader(engine, sudoku, params, GradeOptions(runs=3)) as grader:
        with pytest.raises(SolverError, match="timed out.*unknown"):
            grader.grade(board_of(first_of("expert")))


def test_bad_options_are_refused(engines, sudoku):
    params = engines["gecode"].check_params(sudoku, {"size": 9})
    for bad, word in ((dict(runs=0), "--runs"), (dict(cutoff=-1), "--cutoff"), (dict(jobs=0), "--jobs")):
        with pytest.raises(PuzzleInputError, match=word):
            Grader(engines["gecode"], sudoku, params, GradeOptions(**bad))


class ImpliedLatinType(puzzle_engine.GridPuzzle):
    """A type that offers implied constraints, to see them reach the strengthened pass."""

    name = "implied_latin"
    models = (ToyLatin.MODEL,)  # Latin squares, from the inline-plugin test
    params = (puzzle_engine.Param("size", int, 4),)
    IMPLIED = "constraint forall(i in 1..n)(sum(j in 1..n)(grid[i, j]) = n * (n + 1) div 2);\n"

    def shape(self, params):
        return 4, 4

    def to_data(self, params, instance, solver):
        return {"n": 4, "givens": self.rows(instance, 4)}

    def implied_constraints(self, params):
        return self.IMPLIED


class ImpliedLatin:
    NAME = ImpliedLatinType.name
    IMPLIED = ImpliedLatinType.IMPLIED
    PUZZLE_ENGINE_CONTRACT = 3

    @hookimpl
    def register_puzzle_types(self, register):
        register(ImpliedLatinType())


def test_implied_constraints_go_to_the_strengthened_pass_only(host, monkeypatch):
    host.register(ImpliedLatin(), name="implied_latin", version="0.0.test")
    try:
        ptype = host.get_type(ImpliedLatin.NAME)
        engine = Engine(host, Backend("gecode"))
        extras = []
        real = engine.backend.compile
        monkeypatch.setattr(engine.backend, "compile",
                            lambda p, d, extra=(), flags=(): extras.append((tuple(extra), flags))
                            or real(p, d, extra, flags))
        board = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 0, 0, 0, 0)
        with Grader(engine, ptype, {"size": 4}, GradeOptions(runs=5)) as grader:
            g = grader.grade(board)
        assert ((ImpliedLatin.IMPLIED,), ("-O5",)) in extras
        assert all(flags != ("-O5",) for extra, flags in extras if not extra)
        assert g.levels == {} and g.solutions == 1
    finally:
        host.unregister("implied_latin")


def test_fillomino_is_graded_by_the_same_code(engines, host):
    """A second plugin, with no levels and no implied constraints: only the generic path."""
    fillomino = host.get_type("fillomino")
    engine = engines["gecode"]
    params = engine.check_params(fillomino, {"size": 5})
    puzzle = engine.generate(fillomino, params, 3).puzzle
    with Grader(engine, fillomino, params, GradeOptions(runs=5)) as grader:
        g = grader.grade(puzzle.grid)
    assert g.solution == puzzle.solution and g.levels == {}
    assert g.figure.runs == 5 and g.mean_nodes >= 1
    assert {"cells", "empty", "regions", "optimal", "ln_mean_nodes"} <= set(g.features())
