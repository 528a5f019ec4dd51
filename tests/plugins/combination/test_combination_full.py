"""Combination levels from full placements (issue 42: the growing strategy's ``--start
full``). The placements the plugin builds are checked against the brute-force enumerator
written with no code of the plugin (tests/combination_brute.py), and so is every level
generated here: unique modulo the symmetry, with its record's solution."""
import json
import os
import random
import subprocess
import sys

import pytest

from puzzle_engine.errors import PuzzleInputError
from puzzle_engine_plugins.combination import placements, tidy
from puzzle_engine_plugins.combination.level import Level
from puzzle_engine_plugins.combination.rules import safe

from combination_brute import classes, placements as brute_placements, read_pieces, \
    read_solution, representatives
from support import open_engines

NAME = "combination"
FULL = {"start": "full", "keep": "all", "fills": 6}


def as_rows(board, width):
    return ["".join(".#o"[v] for v in board[r:r + width]) for r in range(0, len(board), width)]


def as_brute(placement):
    """A placement as the brute-force enumerator writes one."""
    return tuple(None if v <= 0 else ("abcdefgh"[v // 4 - 1], "RBQ"[v % 4 - 1])
                 for v in placement)


def check_level(record):
    """Unique modulo the symmetry by brute force, the record's solution the one the
    model keeps, every colour placed, post-processed."""
    pieces = read_pieces(record["pieces"])
    found = brute_placements(record["board"], pieces)
    assert len(classes(found, pieces)) == 1, record
    assert [read_solution(record["solution"])] == representatives(found, pieces)
    assert {colour for _, colour, _ in pieces} == {"a", "b"}
    board = record["board"]
    flat = tuple(".#o".index(ch) for row in board for ch in row)
    assert tidy.tidy(len(board[0]), len(board), flat) == (len(board[0]), len(board), flat)


@pytest.mark.fast
@pytest.mark.parametrize("seed", range(6))
def test_a_fill_is_a_maximal_valid_placement(seed):
    """A fill is one of the brute-force placements of its own pieces, one kind of piece a
    colour, and no empty square takes one more piece of a kind it holds."""
    rng = random.Random(seed)
    board = tuple(rng.choice((0, 0, 0, 0, 1, 2)) for _ in range(16))
    placement = placements.fill(board, 4, 2, ["rook", "bishop", "queen"], rng)
    level = Level(4, 4, board, placements.pieces_of(placement))
    text = ", ".join(f"{p.count} {p.attack} {'abcdefgh'[p.colour - 1]}" for p in level.pieces)
    assert as_brute(placement) in brute_placements(as_rows(board, 4), read_pieces(text))
    codes = {v for v in placement if v > 0}
    assert len({v // 4 for v in codes}) == len(codes)
    for i, v in enumerate(placement):
        if v == 0:
            assert not any(safe(placement, 4, i, code) for code in codes)


@pytest.mark.fast
@pytest.mark.parametrize("seed", range(20))
def test_opens_is_the_rules_seen_again(seed):
    """Taking a piece away opens an attack exactly when the smaller placement has a piece
    that is no longer safe (every square checked again)."""
    rng = random.Random(seed)
    board = tuple(rng.choice((0, 0, 0, 0, 0, 1, 2)) for _ in range(25))
    placement = placements.fill(board, 5, 3, ["rook", "bishop", "queen"], rng)
    for i, v in enumerate(placement):
        if v > 0:
            smaller = placement[:i] + (0,) + placement[i + 1:]
            valid = all(safe(smaller[:j] + (0,) + smaller[j + 1:], 5, j, u)
                        for j, u in enumerate(smaller) if u > 0)
            assert placements.opens(placement, 5, i) == (not valid)


def mixed_placement(rng, board, width):
    """A random valid placement of pieces of every kind (a fill has one kind a colour)."""
    placement = [-v for v in board]
    for i in rng.sample(range(len(board)), len(board)):
        code = 4 * rng.choice((1, 2)) + rng.choice((1, 2, 3))
        if placement[i] == 0 and safe(placement, width, i, code):
            placement[i] = code
    return tuple(placement)


@pytest.mark.fast
def test_removals_keep_a_valid_placement_of_the_smaller_level():
    """Each removal's placement holds the smaller level's pieces and is valid (one of the
    brute-force placements); only a type with one removable piece is offered (with two,
    either removal would be a second solution of the smaller level)."""
    offered = 0
    for seed in range(30):
        rng = random.Random(seed)
        board = tuple(rng.choice((0, 0, 0, 1)) for _ in range(12))
        placement = mixed_placement(rng, board, 4)
        level = Level(4, 4, board, placements.pieces_of(placement))
        for smaller, known in placements.removals(level, placement, rng):
            offered += 1
            gone = [i for i, (u, v) in enumerate(zip(placement, known)) if u != v]
            assert len(gone) == 1 and known[gone[0]] == 0
            removable = [i for i, v in enumerate(placement) if v == placement[gone[0]]
                         and not placements.opens(placement, 4, i)]
            assert removable == gone
            assert placements.pieces_of(known) == smaller.pieces
            text = ", ".join(f"{p.count} {p.attack} {'abcdefgh'[p.colour - 1]}"
                             for p in smaller.pieces)
            assert as_brute(known) in brute_placements(as_rows(board, 4), read_pieces(text))
    assert offered >= 5  # the checks above ran  # the check above ran


@pytest.fixture(scope="module")
def engines(host):
    with open_engines(host, ("sat", "chuffed", "gecode", "cp-sat")) as made:
        yield host.get_type(NAME), made


def generated(engines, solver, seed, **params):
    ptype, made = engines
    engine = made[solver]
    params = engine.check_params(ptype, {"width": 4, "height": 4, **params})
    result = engine.generate(ptype, params, seed, FULL)
    out = []
    for puzzle in result.kept:
        record = puzzle.to_json(ptype)
        out.append({k: record[k] for k in ("board", "pieces", "solution", "step", "fill")})
    return out


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1])
def test_full_start_levels_are_unique_and_alike_on_every_solver(engines, seed):
    """--start full keeps several levels of one seed, each unique by brute force, and
    the same levels, with the same solutions, whichever exact solver judges them."""
    levels = generated(engines, "sat", seed, walls=3, holes=1)
    assert levels
    for record in levels:
        check_level(record)
    for solver in ("chuffed", "gecode", "cp-sat"):
        assert generated(engines, solver, seed, walls=3, holes=1) == levels


def test_gen_start_full_on_the_command_line(tmp_path):
    """gen --start full --keep all writes levels unique by brute force, records --start
    in their options, and refuses a bad --start with a one-line error."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PUZZLE_ENGINE_PLUGINS", "PUZZLE_ENGINE_SOLVER", "PUZZLE_ENGINE_DEBUG")}
    base = [sys.executable, "-c", "from puzzle_engine.cli import main; main()", "gen", NAME,
            "--width", "5", "--height", "4", "--walls", "4", "--holes", "1", "--keep", "all",
            "--seed", "3", "--solver", "sat", "--format", "json"]
    proc = subprocess.run([*base, "--start", "full", "--fills", "8"], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert records
    for record in records:
        check_level(record)
        assert record["options"]["start"] == "full"
    bad = subprocess.run([*base, "--start", "empty"], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=600)
    assert bad.returncode == 2
    assert bad.stderr.strip() == "puzzle-engine: error: bad --start 'empty': expected base or full"


def test_start_base_keeps_records_as_they_were(engines):
    """--start base (the default) records neither --start nor --fills, as before."""
    ptype, made = engines
    strategy = made["sat"].strategy(ptype)
    assert "start" not in strategy.record_options(strategy.default_options())
    assert strategy.record_options(strategy.make_options({"start": "full"}))["fills"] == 25
    with pytest.raises(PuzzleInputError, match="--fills"):
        strategy.make_options({"fills": 0})
