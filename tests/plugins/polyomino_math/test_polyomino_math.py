"""Polyomino Math (paper 001): piece sets, the exact optimum and its type, Lemma 1, the
evolutionary grader, and the command line.

The optimum found through MiniZinc on CP-SAT (the type's solver) is confirmed by another
solver: on 5x6 boards by an exact dynamic programme in plain Python
(``polyomino_brute``), on smaller boards also by Gecode and Chuffed, which take 20 s to
over a minute to prove a 5x6 optimum."""
import itertools
import json
import os
import random
import subprocess
import sys

import pytest

from puzzle_engine.engine import Engine
from puzzle_engine.solving.backend import Backend
from puzzle_engine.types import Status
from puzzle_engine_plugins.polyomino_math import board as boards
from puzzle_engine_plugins.polyomino_math import scoring, shapes, tiling
from puzzle_engine_plugins.polyomino_math.evolution import Decoder, evolve, hardness

from polyomino_brute import best_score

NAME = "polyomino-math"
# Hand-made boards of two L3 on 2x3. Type II: the L on the three 9s scores 729 and
# leaves three squares no L fits; placing both pieces scores at most 92. Type I: the L on
# the three 9s leaves an L on the three 2s, 729 + 8; no other L scores as much.
TYPE_II = "2xL3: 991/191"
TYPE_I = "2xL3: 992/922"
BOARD_5X6 = "3xL4 6xL3: 221341/334321/232433/122131/412441"


def cli(tmp_path, *args, stdin=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PUZZLE_ENGINE_PLUGINS", "PUZZLE_ENGINE_SOLVER", "PUZZLE_ENGINE_DEBUG")}
    return subprocess.run([sys.executable, "-c", "from puzzle_engine.cli import main; main()",
                           *map(str, args)], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=1800, input=stdin)


def ok(proc, code=0):
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    return proc.stdout


@pytest.fixture(scope="module")
def poly(host):
    engines = {s: Engine(host, Backend(s)) for s in ("cp-sat", "gecode", "chuffed")}
    try:
        yield host.get_type(NAME), engines
    finally:
        for engine in engines.values():
            engine.close()


# == pieces and piece sets (no solver) ====================================================
@pytest.mark.fast
def test_free_polyominoes_and_names():
    assert [len(shapes.of_size(n)) for n in range(1, 9)] == [1, 1, 2, 5, 12, 35, 108, 369]
    assert [shapes.text_of(s) for s in shapes.of_size(4)] == ["I4", "L4", "O4", "S4", "T4"]
    # every orientation of a piece is the same piece; the S and its mirror image too
    s4 = shapes.read_piece("S4", "p")
    assert len(shapes.orientations(s4)) == 4
    assert shapes.read_piece("##.|.##", "p") == s4
    assert shapes.pieces_text(shapes.read_pieces("t4,2xL3 ###|.#.")) == "2xT4 2xL3"


@pytest.mark.fast
def test_placements_are_every_distinct_rotation_reflection_and_shift():
    """Checked against a count made here, independent of ``orientations``: the model and
    the brute-force check both rest on ``placements``, so a lost orientation would go
    unseen by their agreement."""
    rows, cols = 4, 5
    for shape in shapes.of_size(4) + shapes.of_size(5):
        masks = set()
        for a, b, c, d in ((1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
                           (-1, 0, 0, 1), (1, 0, 0, -1), (0, 1, 1, 0), (0, -1, -1, 0)):
            image = [(a * r + b * c_, c * r + d * c_) for r, c_ in shape]
            for dr in range(-10, 10):
                for dc in range(-10, 10):
                    cells = [(r + dr, c_ + dc) for r, c_ in image]
                    if all(0 <= r < rows and 0 <= c_ < cols for r, c_ in cells):
                        masks.add(sum(1 << (r * cols + c_) for r, c_ in cells))
        found = [mask for _, mask in tiling.placements(shape, rows, cols)]
        assert len(found) == len(set(found)) and set(found) == masks, shapes.text_of(shape)


@pytest.mark.fast
def test_enumeration_of_5x6_sets_is_stable():
    """The paper's brute force listed 827 sets of 3- and 4-ominoes that tile 5x6."""
    found = list(tiling.tileable_sets((3, 4), 5, 6))
    assert len(found) == 827
    assert len(list(tiling.multisets((3, 4), 30))) == 886
    for pieces, layout in found[::50]:  # each comes with a true tiling
        assert sorted(len(p) for p in pieces) == sorted(len(s) for s, _ in layout)
        assert tiling.pieces_of(layout) == pieces
        union = 0
        for _, mask in layout:
            assert not union & mask
            union |= mask
        assert union == (1 << 30) - 1


@pytest.mark.fast
def test_10x10_composed_of_four_5x5_sets_and_a_fused_8_omino():
    rng = random.Random(4)
    quarters = [tiling.random_tiling((3, 4), 5, 5, rng) for _ in range(4)]
    layout = tiling.compose(quarters, 5, 5)
    pieces = tiling.pieces_of(layout)
    assert sum(map(len, pieces)) == 100
    # the composed set tiles 10x10 in several ways: each quarter's tiling can be turned
    tilings = itertools.islice(tiling.tilings(pieces, 10, 10), 3)
    assert len(list(tilings)) == 3
    fused = tiling.fuse(layout, 10, rng)
    assert sorted(map(len, tiling.pieces_of(fused)))[-1] == 8
    assert len(fused) == len(layout) - 1
    eight = next(mask for shape, mask in fused if len(shape) == 8)
    assert shapes.connected([divmod(i, 10) for i in tiling.cells(eight)])


# == Lemma 1 and the greedy rule (no solver) ===============================================
def covering_score(layout, arrangement, rule):
    return sum(rule([arrangement[i] for i in tiling.cells(mask)]) for _, mask in layout)


@pytest.mark.fast
def test_lemma_1_every_covering_has_the_same_best_arrangement():
    """With every piece placed, the best score over the arrangements of a fixed multiset
    of numbers does not depend on the covering (checked over every arrangement, for every
    covering of a 2x4 board by an L4, an L3 and a monomino), and is the best way to deal
    the numbers into groups of the pieces' sizes."""
    pieces = shapes.read_pieces("L4 L3 1")
    layouts = list(tiling.tilings(pieces, 2, 4))
    assert len(layouts) >= 4
    numbers = (1, 1, 2, 2, 3, 3, 4, 1)
    arrangements = set(itertools.permutations(numbers))
    for rule in (scoring.best_of, scoring.product):
        best = {max(covering_score(layout, a, rule) for a in arrangements) for layout in layouts}
        assert best == {scoring.best_split((4, 3, 1), numbers, rule)}


@pytest.mark.fast
def test_greedy_fails_under_max_of_sum_and_product():
    """Sizes 4, 2, 1 and the numbers 1,1,1,1,1,3,3: greedy puts 3,3,1,1 under the
    4-omino (9 + 2 + 1 = 12); the best puts the 3s under the domino (4 + 9 + 1 = 14).
    Under products alone greedy is right here."""
    numbers = (1, 1, 1, 1, 1, 3, 3)
    assert scoring.greedy((4, 2, 1), numbers) == 12
    assert scoring.best_split((4, 2, 1), numbers) == 14
    assert scoring.greedy((4, 2, 1), numbers, scoring.product) == \
        scoring.best_split((4, 2, 1), numbers, scoring.product) == 11


# == the evolutionary measure (no solver) ==================================================
@pytest.mark.fast
def test_decoder_places_greedily_and_the_ea_improves():
    board = boards.parse_board(BOARD_5X6)
    decoder = Decoder(board)
    rng = random.Random(1)
    genes = [rng.random() for _ in range(decoder.genes)]
    placed, score = decoder.place(genes)
    union = 0
    for _, mask in placed:
        assert not union & mask
        union |= mask
    curves = [evolve(decoder, 300, random.Random(f"0:{run}")) for run in range(3)]
    for curve in curves:
        assert len(curve) == 301 and curve == sorted(curve)  # the best never falls
        assert curve[-1] <= 389  # the proven optimum (test_optimum_... below)
    h = hardness(curves)
    assert all(0 <= x < 1 for x in h)
    assert curves == [evolve(decoder, 300, random.Random(f"0:{run}")) for run in range(3)]


@pytest.mark.fast
def test_a_board_of_zeros_has_hardness_zero():
    # Every placement scores 0: the best any run finds is 0 (was a division by zero).
    decoder = Decoder(boards.parse_board("2xL3: 000/000"))
    curves = [evolve(decoder, 20, random.Random(f"0:{run}")) for run in range(2)]
    assert curves == [[0] * 21] * 2 and hardness(curves) == [0.0, 0.0]


# == reading, writing, symmetry, drawing (no solver) =======================================
@pytest.mark.fast
def test_formats_canonical_form_and_drawing(host):
    ptype = host.get_type(NAME)
    parsed = ptype.parse({}, BOARD_5X6)
    assert parsed.params["numbers"] == "1:8,2:8,3:8,4:6"
    assert ptype.format(parsed.params, parsed.instance, "line") == BOARD_5X6
    text = ptype.format(parsed.params, parsed.instance, "text")
    assert ptype.parse({}, text).instance == parsed.instance
    form = ptype.canonical_form(parsed.params, parsed.instance)
    turned = boards.Board(6, 5, tuple(v for row in zip(*boards.rows_of(parsed.instance)[::-1])
                                      for v in row), parsed.instance.pieces)
    assert ptype.canonical_form(parsed.params, turned) == form
    json.dumps(form)
    solution = tuple([1, 1, 1, 1] + [0] * 26)  # an I4 on 2, 2, 1, 3: 12
    svg = ptype.render_svg(parsed.params, parsed.instance, solution)
    assert svg.startswith("<svg") and svg.endswith("</svg>") and "score 12" in svg


@pytest.mark.fast
@pytest.mark.parametrize("args, message", [
    (["gen", NAME, "--pieces", "9xI3 L3"], "the pieces (9xI3 L3) cannot tile the 5x6 board"),
    (["gen", NAME, "--numbers", "1:8,2:8,3:8,4:5"],
     "bad --numbers: 29 numbers do not fill the 5x6 board's 30 squares"),
    (["gen", NAME, "--pieces", "2xQ4 7xL3"], "--pieces: piece 1: unknown piece 'Q4'"),
    (["check", NAME, "9xI3 L3: 123123/123123/123123/123123/123123"],
     "the pieces (9xI3 L3) cannot tile the 5x6 board"),
    (["check", NAME, "2xL3: 12/34"], "cover 6 squares, the 2x2 board has 4"),
    (["solve", NAME, "2xL3: 991/19"], "row 2 has 2 numbers, row 1 has 3"),
    (["gen", NAME, "--type", "3"], "bad --type '3': expected I or II"),
    (["gen", NAME, "--compose", "--pieces", "10xI3", "--rows", 6, "--cols", 5],
     "--compose draws a random set; it cannot be used with --pieces"),
    (["gen", NAME, "--rows", 4, "--cols", 4, "--sizes", 2, "--compose", "--seed", 1],
     "gave fewer than four distinct sets of pieces of sizes 2"),
    # '²' passes str.isdigit but not int(): the user's input, not a broken plugin
    (["gen", NAME, "--pieces", "\u00b2xL3"], "--pieces: piece 1: unknown piece"),
    (["gen", NAME, "--numbers", "1:\u00b2"], "bad --numbers part '1:\u00b2'"),
    (["gen", NAME, "--sizes", "\u00b2"], "bad --sizes '\u00b2'"),
    (["check", NAME, "2xL3: 99\u00b2/191"], "row 1, column 3: '\u00b2' is not a number"),
    # the board's own size, not a --rows the user never gave
    (["check", NAME, "I3: 1/1/1"], "the board has 1 cols; expected 2 to 12"),
    # no pieces of size 7 add up to 30: the generator searched for minutes before
    (["gen", NAME, "--sizes", 7], "bad --sizes '7': no pieces of these sizes cover the 30"),
    (["gen", NAME, "--sizes", 3, "--rows", 4, "--cols", 4, "--compose"],
     "cover the 4 squares of the board quarter"),
    # a product above the solvers' integers was a FlatZinc syntax error
    (["solve", NAME, "2xI3: 2000 2000 2000/1 1 1"],
     "the numbers are too large: the pieces could score up to 16,000,000,000"),
])
def test_bad_input_is_one_line(tmp_path, args, message):
    proc = cli(tmp_path, *args)
    assert proc.returncode != 0 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and message in proc.stderr
    assert "Traceback" not in proc.stderr


# == the exact optimum =====================================================================
@pytest.mark.parametrize("text, optimum, kind", [(TYPE_II, 729, "II"), (TYPE_I, 737, "I")])
def test_type_on_hand_made_boards(poly, text, optimum, kind):
    ptype, engines = poly
    for solver in ("gecode", "chuffed"):  # (CP-SAT: the 5x6 and 3x6 tests below)
        engine = engines[solver]
        parsed = ptype.parse({}, text)
        verdict = engine.criterion(ptype).judge(engine, ptype, parsed.params, parsed.instance)
        assert (verdict.value, verdict.fields["board_type"]) == (optimum, kind), solver
        assert verdict.fields["unique_optimum"] is True
    assert best_score(parsed.instance) == (optimum, 1)
    placed_all = best_score(parsed.instance, every_piece=True)[0]
    assert (placed_all == optimum) == (kind == "I")


def test_optimum_agrees_across_solvers_on_a_small_board(poly):
    """A 3x6 board: CP-SAT, Gecode, Chuffed and the Python programme agree."""
    ptype, engines = poly
    parsed = ptype.parse({}, "I4 2xL4 I3 L3: 231114/413322/433212")
    found = set()
    for engine in engines.values():
        result, solutions = engine.solve(ptype, parsed.params, parsed.instance)
        assert result.status == Status.OPTIMAL
        found.add(result.objective)
    assert found == {best_score(parsed.instance)[0]}


def test_gen_check_solve_grade_5x6(tmp_path, poly):
    """gen --type II --unique-optimum writes a 5x6 record whose optimum, type and
    uniqueness the Python programme confirms; check and solve agree with it; grade runs
    the evolutionary measure and knows the optimum."""
    ptype, _ = poly
    out = ok(cli(tmp_path, "gen", NAME, "--seed", 3, "--type", "II", "--unique-optimum",
                 "--format", "json"))
    record = json.loads(out)
    instance = ptype.from_json({}, record)
    best, ways = best_score(instance)
    every = best_score(instance, every_piece=True)[0]
    assert (record["optimum"], record["board_type"], record["unique_optimum"]) == (best, "II", True)
    assert ways == 1 and every < best
    assert record["seed"] == 3 and record["solver"] == "org.puzzle-engine.cp-sat"
    path = tmp_path / "p.jsonl"
    path.write_text(out)
    solved = json.loads(ok(cli(tmp_path, "solve", NAME, path, "--format", "json")))
    assert (solved["optimum"], solved["score"], solved["status"]) == (best, best, "optimal")
    assert (solved["board_type"], solved["all_pieces_used"]) == ("II", False)
    covered = [tuple(s) for p in solved["placement"] for s in p["squares"]]
    assert len(covered) == len(set(covered))
    grade = json.loads(ok(cli(tmp_path, "grade", NAME, path, "--format", "json",
                              "--runs", 3, "--tournaments", 200)))
    assert grade["grader"] == "evolutionary" and len(grade["hardness_runs"]) == 3
    assert grade["optimum"] == best and max(grade["best_runs"]) <= best


def test_check_text(tmp_path):
    assert ok(cli(tmp_path, "check", NAME, TYPE_II)) == \
        "polyomino-optimum: accepted, optimum 729, board_type II, unique_optimum True\n"
    proc = cli(tmp_path, "check", NAME, TYPE_II, "--type", "I")
    assert ok(proc, 1) == "polyomino-optimum: refused, optimum 729, board_type II\n"


HARD_12X12 = "12xT4 12xL4 12xI4: 331421213424/121243242124/221122223322/224313422313/313133343244/213134143414/122124333413/314123323313/332123421141/233442114322/241243214324/244343344214"


def test_solve_out_of_time_never_calls_its_best_an_optimum(tmp_path):
    """A 12x12 board whose optimum CP-SAT proves in about a second, given half of one: the
    best placement found is printed as such, not proven optimal (or nothing, when none
    was found in time). Before, it was printed as the optimum."""
    path = tmp_path / "board.txt"
    path.write_text(HARD_12X12 + "\n")
    proc = cli(tmp_path, "solve", NAME, path, "--time-limit", 0.5, "--format", "json")
    if proc.returncode == 1:
        assert proc.stderr == "puzzle-engine: unknown: the solver timed out\n"
        return
    record = json.loads(ok(proc))
    if record["status"] == "optimal":
        assert record["optimum"] == record["best"] == record["score"] and not proc.stderr
    else:
        assert record["status"] == "sat" and record["optimum"] is None
        assert record["best"] == record["score"]
        assert proc.stderr == (f"puzzle-engine: the solver ran out of time: the best solution "
                               f"found (score {record['score']}) is not proven optimal\n")
