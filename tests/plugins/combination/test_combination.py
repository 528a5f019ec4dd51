"""The built-in Combination plugin (paper 002) on the real solvers.

Every verdict here is checked against a brute-force enumerator written with no code of
the plugin (tests/combination_brute.py).
"""
import json
import os
import random
import subprocess
import sys

import pytest

from puzzle_engine.engine import Engine
from puzzle_engine.solving.backend import Backend
from puzzle_engine_plugins.combination import tidy

from combination_brute import classes, placements, read_pieces, read_solution, representatives

NAME = "combination"


def cli(tmp_path, *args):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PUZZLE_ENGINE_PLUGINS", "PUZZLE_ENGINE_SOLVER", "PUZZLE_ENGINE_DEBUG")}
    return subprocess.run([sys.executable, "-c", "from puzzle_engine.cli import main; main()",
                           *map(str, args)], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=1800)


def ok(proc, code=0):
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    return proc.stdout


@pytest.fixture(scope="module")
def combo(host):
    engines = {"gecode": Engine(host, Backend("gecode")),
               "chuffed": Engine(host, Backend("chuffed")),
               "cp-sat": Engine(host, Backend("cp-sat"))}  # in-process session, arrays
    try:
        yield host.get_type(NAME), engines
    finally:
        for engine in engines.values():
            engine.close()


def judge(combo, solver, text):
    ptype, engines = combo
    engine = engines[solver]
    parsed = ptype.parse({}, text)
    return engine.criterion(ptype).judge(engine, ptype, parsed.params, parsed.instance)


def solutions(combo, solver, text, whole=False):
    """Every solution the solver finds, as tuples like ``placements`` gives: through the
    board flattened once with the counts fixed per run (``split_data``, what growth and
    the criterion use), or with ``whole`` through a full MiniZinc solve of ``to_data``."""
    ptype, engines = combo
    engine = engines[solver]
    parsed = ptype.parse({}, text)
    params = parsed.params
    if whole:
        _, raw = engine.backend.solve(ptype, engine.data(ptype, params, parsed.instance), 0)
        found = [engine.solution_of(ptype, params, r) for r in raw]
    else:
        assert ptype.split_data(params, parsed.instance, engine.backend.info) is not None
        _, found = engine.solve(ptype, params, parsed.instance, nr_solutions=0)
    return sorted((read_solution(ptype.format_solution(params, s, "text").splitlines())
                  for s in found), key=repr)


# -- the rules ------------------------------------------------------------------------------
RULES = [
    # two enemy rooks on a line: a wall between them stops the rays, a hole does not
    ("1 rook a, 1 rook b", (".#.", "###"), 2),
    ("1 rook a, 1 rook b", (".o.", "###"), 0),
    # a rook and an enemy bishop on a line: the rook attacks it ...
    ("1 rook a, 1 bishop b", ("...", "###"), 0),
    # ... unless a piece stands between them (a bishop of the rook's colour, not attacked
    # by the enemy bishop along a row): it blocks the rook's ray
    ("1 rook a, 1 bishop a, 1 bishop b", ("...", "###"), 2),
    # bishops and queens attack along diagonals, over holes, up to a wall
    ("1 bishop a, 1 queen b", (".#", "#."), 0),
    ("1 bishop a, 1 rook b", (".o.", "o.o", "..#"), None),
]


@pytest.mark.parametrize("pieces, board, expected", RULES)
@pytest.mark.parametrize("solver", ["gecode", "chuffed", "cp-sat"])
def test_rules_match_brute_force(combo, solver, pieces, board, expected):
    """The model's placements are the brute-force placements, one per class of swapped
    colours, on both solvers, whole and split."""
    found = placements(board, read_pieces(pieces))
    if expected is not None:
        assert len(found) == expected
    kept = sorted(representatives(found, read_pieces(pieces)), key=repr)
    assert len(kept) == len(classes(found, read_pieces(pieces)))
    text = f"{pieces}: {'/'.join(board)}"
    assert solutions(combo, solver, text) == kept
    assert solutions(combo, solver, text, whole=True) == kept


def test_a_piece_between_two_enemies_blocks(combo):
    """With the bishop of colour a between them, the rook a and the bishop b stand on one
    row: in both placements the bishop a is in the middle."""
    found = solutions(combo, "gecode", "1 rook a, 1 bishop a, 1 bishop b: .../###")
    assert [f[:3] for f in found] == [(("a", "R"), ("a", "B"), ("b", "B")),
                                      (("b", "B"), ("a", "B"), ("a", "R"))]


@pytest.mark.parametrize("text", ["1 rook a, 1 bishop a, 1 bishop b: .../###",
                                  "2 queen a, 1 bishop b, 2 rook b: ..o./.#../...."])
def test_the_implied_gcc_keeps_the_solutions(combo, text):
    """The grader's implied constraint (the global cardinality constraint) leaves the
    solutions as they are; the text and one-line formats read back to the same level."""
    ptype, engines = combo
    parsed = ptype.parse({}, text)
    params, level = parsed.params, parsed.instance
    gcc = ptype.implied_constraints(params)
    assert "global_cardinality" in gcc
    _, plain = engines["gecode"].solve(ptype, params, level, nr_solutions=0)
    _, strengthened = engines["gecode"].solve(ptype, params, level, nr_solutions=0, extra=(gcc,))
    assert plain and sorted(plain) == sorted(strengthened)
    for fmt in ("text", "line"):
        again = ptype.parse({}, ptype.format(params, level, fmt))
        assert (again.params, again.instance) == (params, level)


def test_a_growing_board_is_flattened_once_and_not_cached_on_disk(host, tmp_path, monkeypatch):
    """While a level grows, its board is flattened once and the counts are fixed per run:
    judging five growing levels compiles one model, and its FlatZinc stays out of the
    cache between processes (a random board is seldom met again)."""
    monkeypatch.setenv("PUZZLE_ENGINE_FZN_CACHE", str(tmp_path))
    engine = Engine(host, Backend("chuffed"))
    ptype = host.get_type(NAME)
    try:
        compiles = []
        real = engine.backend.compile
        monkeypatch.setattr(engine.backend, "compile",
                            lambda *a, **k: compiles.append(k) or real(*a, **k))
        pieces = ["1 rook a", "1 rook b", "1 bishop a", "1 queen b", "1 rook a"]
        for n in range(1, len(pieces) + 1):
            parsed = ptype.parse({}, f"{', '.join(pieces[:n])}: ..../.#../..o./....")
            engine.criterion(ptype).judge(engine, ptype, parsed.params, parsed.instance)
        assert compiles == [{"cache": False}]
        assert list(tmp_path.iterdir()) == []
    finally:
        engine.close()


@pytest.mark.parametrize("seed", range(8))
def test_extensions_are_true_placements(combo, seed):
    """The placements the plugin builds for a grown level from its parent's (which let
    growth skip the solver) are placements of the grown level by brute force, and the
    brute force's placements that extend the parent's with the new piece are all built
    (up to the plugin's cap)."""
    ptype, engines = combo
    rng = random.Random(seed)
    board, text = random_level(rng)
    parent = ptype.parse({}, f"{text}: {'/'.join(board)}")
    params = parent.params
    found = placements(board, read_pieces(text))
    if not found:
        return
    start = found[rng.randrange(len(found))]
    solution = tuple(-1 if ch == "#" else -2 if ch == "o" else 0 for row in board for ch in row)
    solution = tuple(4 * (ord(v[0]) - 96) + "RBQ".index(v[1]) + 1 if v else s
                     for v, s in zip(start, solution))
    for candidate in ptype.grow(params, parent.instance, rng):
        built = ptype.extensions(params, parent.instance, solution, candidate)
        rows = [ptype.format_solution(params, b, "text").splitlines() for b in built]
        grown = read_pieces(ptype.format(params, candidate, "text").splitlines()[0])
        truth = placements(board, grown)
        extending = [p for p in truth if sum(a != b for a, b in zip(p, start)) == 1]
        assert all(read_solution(r) in truth for r in rows)
        assert len(rows) == min(len(extending), 4)


# -- uniqueness modulo the symmetry ---------------------------------------------------------
def test_a_swap_of_identical_colours_is_one_solution(combo):
    """Two solutions that differ only by swapping colours a and b (both hold one rook):
    unique. The same board with a rook and a bishop: two different solutions."""
    for solver in ("gecode", "chuffed"):
        verdict = judge(combo, solver, "1 rook a, 1 rook b: .#./###")
        # the model keeps one of the two (never counted twice), the criterion accepts it
        assert verdict.accepted is True and verdict.fields == {"solutions": 1, "classes": 1}
        verdict = judge(combo, solver, "1 rook a, 1 bishop b: .#./###")
        assert verdict.accepted is False and verdict.fields["classes"] == 2


def test_swapping_identical_pieces_and_colours_together(combo):
    """Two rooks of each colour: the pieces of one colour are interchangeable and the
    colours may be swapped; a truly different placement is still told apart."""
    text = "2 rook a, 2 rook b: ..#../#####"
    found = placements(("..#..", "#####"), read_pieces("2 rook a, 2 rook b"))
    assert len(found) == 2 and len(classes(found, read_pieces("2 rook a, 2 rook b"))) == 1
    assert judge(combo, "gecode", text).accepted is True
    text = "1 rook a, 1 rook b: .#..#/#####"
    found = placements((".#..#", "#####"), read_pieces("1 rook a, 1 rook b"))
    assert len(classes(found, read_pieces("1 rook a, 1 rook b"))) == 2
    assert judge(combo, "gecode", text).accepted is False


def random_level(rng):
    """A small random level: a 3x3 or 3x4 board of empty squares, walls and holes, and
    three to five pieces of two or three colours."""
    h, w = 3, rng.choice((3, 4))
    board = ["".join(rng.choice("....#o") for _ in range(w)) for _ in range(h)]
    colours = "abc"[:rng.choice((2, 3))]
    pieces = {}
    for _ in range(rng.randint(3, min(5, sum(r.count(".") for r in board)))):
        kind = (rng.choice(colours), rng.choice(("rook", "bishop", "queen")))
        pieces[kind] = pieces.get(kind, 0) + 1
    text = ", ".join(f"{n} {attack} {colour}" for (colour, attack), n in pieces.items())
    return board, text


SEEDS = range(20)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_levels_count_as_brute_force(combo, seed):
    """On random small levels (some with colours of identical piece sets, as the seeds
    below include), the model has one solution per class modulo the symmetry that brute
    force counts, and the criterion accepts exactly the levels with one class, having
    looked at two solutions at most."""
    board, text = random_level(random.Random(seed))
    pieces = read_pieces(text)
    found = placements(board, pieces)
    solver = ("gecode", "chuffed")[seed % 2]
    level = f"{text}: {'/'.join(board)}"
    verdict = judge(combo, solver, level)
    n = len(classes(found, pieces))
    assert len(solutions(combo, solver, level)) == n
    assert verdict.fields == {"solutions": min(n, 2), "classes": min(n, 2)}
    assert verdict.accepted is (n == 1)


def test_random_levels_include_swappable_colours():
    """The seeds of the test above include levels where a swap of colours merges
    solutions (one of them unique only thanks to the swap) and unsolvable levels, so the
    symmetry is exercised and not only plain counting."""
    counts = []
    for seed in SEEDS:
        board, text = random_level(random.Random(seed))
        found = placements(board, read_pieces(text))
        counts.append((len(found), len(classes(found, read_pieces(text)))))
    assert sum(n > k for n, k in counts) >= 2
    assert any(n > 1 and k == 1 for n, k in counts)
    assert any(n == 0 for n, k in counts)


# -- generation -----------------------------------------------------------------------------
GEN = ("--width", 4, "--height", 3)


def check_level(record, colours="ab"):
    """The level of a record is unique modulo the symmetry by brute force, and its
    solution is one of the placements."""
    pieces = read_pieces(record["pieces"])
    found = placements(record["board"], pieces)
    assert len(classes(found, pieces)) == 1
    assert [read_solution(record["solution"])] == representatives(found, pieces)
    assert record["classes"] == 1 and record["solutions"] == 1
    assert {colour for _, colour, _ in pieces} == set(colours)  # every colour placed
    # post-processed already (paper 002, section 4.1): tidying changes nothing
    board = record["board"]
    flat = tuple(".#o".index(ch) for row in board for ch in row)
    assert tidy.tidy(len(board[0]), len(board), flat) == (len(board[0]), len(board), flat)


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    proc = cli(tmp_path_factory.mktemp("combo"), "gen", NAME, *GEN, "--seed", 2,
               "--format", "json")
    (line,) = ok(proc).splitlines()
    return json.loads(line)


def test_gen_is_unique_and_reproducible(combo, record):
    """gen makes a level unique modulo the symmetry (by brute force); the API makes the
    same record from the same seed (on Chuffed, the type's solver); another seed, on
    Gecode, too."""
    check_level(record)
    ptype, engines = combo
    engine = engines["chuffed"]
    params = engine.check_params(ptype, {"width": 4, "height": 3})
    again = engine.generate(ptype, params, 2).puzzle.to_json(ptype)
    record, again = dict(record), dict(again)
    record.pop("seconds"), again.pop("seconds")
    assert record == again
    other = engines["gecode"].generate(ptype, params, 3).puzzle.to_json(ptype)
    assert other["board"] != record["board"] or other["pieces"] != record["pieces"]
    check_level(other)


def test_gen_three_colours_count_two(tmp_path):
    """gen --colours 3 --count 2 makes two levels (seeds 1 and 2), each unique modulo
    the symmetry by brute force, with all three colours on the board."""
    out = ok(cli(tmp_path, "gen", NAME, *GEN, "--colours", 3, "--count", 2, "--seed", 1,
                 "--format", "json"))
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["seed"] for r in records] == [1, 2]
    for r in records:
        check_level(r, "abc")


def test_gen_pieces_names_the_kinds_grown(tmp_path):
    """--pieces limits the kinds of piece a level grows; an unknown kind is one line."""
    out = ok(cli(tmp_path, "gen", NAME, *GEN, "--pieces", "queen,rook", "--seed", 3,
                 "--format", "json"))
    record = json.loads(out)
    check_level(record)
    assert {attack for _, _, attack in read_pieces(record["pieces"])} <= {"Q", "R"}
    assert record["params"]["pieces"] == "rook,queen"
    proc = cli(tmp_path, "gen", NAME, "--pieces", "rook,king")
    assert proc.returncode == 2 and proc.stderr.strip() == (
        "puzzle-engine: error: bad --pieces: unknown piece 'king' (expected rook, bishop, queen)")


def test_check_solve_grade_on_gen_output(tmp_path, record):
    """check accepts the generated record; solve places its pieces as brute force does;
    grade measures it; the text and one-line formats read back to the same level."""
    path = tmp_path / "level.json"
    path.write_text(json.dumps(record) + "\n")
    verdict = json.loads(ok(cli(tmp_path, "check", NAME, path, "--format", "json")))
    assert (verdict["accepted"], verdict["classes"]) == (True, 1)

    line = f"{record['pieces']}: {'/'.join(record['board'])}"
    text = "\n".join([record["pieces"], *record["board"]])
    pieces = read_pieces(record["pieces"])
    for given in (line, text):
        solved = ok(cli(tmp_path, "solve", NAME, given)).splitlines()
        assert read_solution(solved) in placements(record["board"], pieces)
    assert ok(cli(tmp_path, "gen", NAME, *GEN, "--seed", 2, "--format", "line")).strip() == line
    grade = json.loads(ok(cli(tmp_path, "grade", NAME, path, "--runs", 3, "--format", "json")))
    # the strengthened pass (with the global cardinality constraint) ran first
    assert grade["runs"] == 3 and grade["strengthened"]["runs"] == 3
    assert grade["strengthened"]["mean_nodes"] >= 1


@pytest.mark.parametrize("bias", ["harder", "easier"])
def test_bias_keeps_levels_in_order_of_their_search(combo, tmp_path, bias):
    """gen --bias harder (easier) --keep all: every kept level carries its measure (the
    grader's mean search nodes, recomputed here through the API), and within a growth
    the kept levels' measures only rise (fall)."""
    # seed 11 keeps two levels under --bias harder (most growths keep one)
    out = ok(cli(tmp_path, "gen", NAME, *GEN, "--seed", 10, "--count", 2, "--keep", "all",
                 "--bias", bias, "--format", "json"))
    records = [json.loads(line) for line in out.splitlines()]
    ptype, engines = combo
    engine = engines["chuffed"]  # the solver the type asks for, which gen used
    params = engine.check_params(ptype, {"width": 4, "height": 3})
    with engine.host.get("graders", ptype.grader).grader(engine, ptype, params) as grader:
        for r in records:
            check_level(r)
            level = ptype.from_json(params, r)
            assert r["bias_nodes"] == round(grader.nodes(level, 10), 2)
    for seed in {r["seed"] for r in records}:
        measures = [r["bias_nodes"] for r in records if r["seed"] == seed]
        assert measures == sorted(set(measures), reverse=bias == "easier")
    if bias == "harder":
        assert [r["seed"] for r in records].count(11) == 2


# -- bad levels -----------------------------------------------------------------------------
BAD = [
    ("1 rook a, 1 rook b: ..x./....", "row 1, column 3: unknown square 'x'"),
    ("5 rook a, 4 rook b: ..../....", "9 pieces cannot stand on 8 empty squares"),
    ("1 knight a, 1 rook b: ..../....", "piece type 1: unknown attack 'knight'"),
    ("1 rook a, 1 rook z: ..../....", "piece type 2: unknown colour 'z'"),
    ("1 rook a, 1 rook b: ..../...", "row 2 has 3 squares, expected 4"),
    ('{"board": ["..", ".x"], "pieces": "1 rook a, 1 rook b", "params": {"width": 2, '
     '"height": 2}}', "row 2, column 2: unknown square 'x'"),
    ('{"board": ["..", ".."], "pieces": 3}', "field 'pieces' must be a string"),
]


@pytest.mark.parametrize("text, message", BAD)
def test_bad_levels_are_one_line_errors(tmp_path, text, message):
    proc = cli(tmp_path, "check", NAME, text)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in proc.stderr
