"""The three new puzzle shapes of contract 3, end to end on the real solvers, each through
a small third-party style plugin of tests/shape_plugins:

* grown: peaceful rooks (strategy ``growing``, criterion ``unique-modulo-symmetry``);
* optimised: domino packing (``own``, ``unique-optimum``; the engine adds the solve item);
* templated: an arithmetic riddle (``own``, ``unique-answer``).

Every verdict is checked again here by brute force in Python over the tiny instances,
with no code of the plugins: every placement of the rooks, every packing of the
dominoes, every assignment of the riddle's unknowns. The command line runs as a child
process: this file, run as a script, is the ``puzzle-engine`` command with the three
plugins registered on the host it builds (``get_host()`` and ``Host.register``, as
test_inline_plugin does).

Also here: the emptying strategy's retries (a random full board refused, a finished
puzzle refused) stay reproducible from the seed and are counted in the record.
"""
import itertools
import json
import os
import random
import re
import subprocess
import sys

import pytest

import shape_plugins
from puzzle_engine import hookimpl
from puzzle_engine.engine import Engine
from puzzle_engine.errors import PluginError
from puzzle_engine.grading import GradeOptions
from puzzle_engine.plugins import get_host
from puzzle_engine.solving.backend import Backend
from shape_plugins.dominoes import DominoPacking
from support import is_latin, plugin, TESTS, ToyLatinType, without

SOLVERS = ("gecode", "chuffed")
ROOKS, DOMINOES, RIDDLE = "peaceful_rooks", "domino_packing", "arithmetic_riddle"


def with_shapes(host):
    shape_plugins.register_all(host)
    return host


@pytest.fixture(scope="module")
def shapes():
    """A host from get_host() with the three plugins registered, and one engine per
    solver (no time limit: the tests must not depend on speed)."""
    host = with_shapes(get_host())
    engines = {s: Engine(host, Backend(s)) for s in SOLVERS}
    try:
        yield host, engines
    finally:
        for engine in engines.values():
            engine.close()


def cli(tmp_path, *args, stdin=None):
    """The puzzle-engine command with the three plugins loaded (this file as a script)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PUZZLE_ENGINE_PLUGINS", "PUZZLE_ENGINE_SOLVER", "PUZZLE_ENGINE_DEBUG")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, __file__, *map(str, args)], input=stdin,
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=1800)


def ok(proc, code=0):
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    return proc.stdout


def gen_record(tmp_path, type_name, seed, *more):
    proc = cli(tmp_path, "gen", type_name, "--seed", seed, "--format", "json", *more)
    out = ok(proc)
    assert proc.stderr == ""
    (line,) = out.splitlines()
    return json.loads(line)


def judge_with(engine, ptype, params, instance):
    """The type's criterion, on the given engine's solver."""
    return engine.criterion(ptype).judge(engine, ptype, params, instance)


def same_apart_from_timing(a, b):
    a, b = dict(a), dict(b)
    a.pop("seconds"), b.pop("seconds")
    assert a == b


# -- brute force: peaceful rooks ------------------------------------------------------------
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def peaceful(grid):
    """No rook sees one of the other colour: each ray runs over empty squares until the
    edge, a wall or a piece."""
    n = len(grid)
    for r, c in itertools.product(range(n), repeat=2):
        if grid[r][c] not in "WB":
            continue
        for dr, dc in STEPS:
            i, j = r + dr, c + dc
            while 0 <= i < n and 0 <= j < n and grid[i][j] == ".":
                i, j = i + dr, j + dc
            if 0 <= i < n and 0 <= j < n and grid[i][j] in "WB" and grid[i][j] != grid[r][c]:
                return False
    return True


def placements(board, white, black):
    """Every peaceful placement of the rooks on ``board`` (rows of '.' and '#'), as rows."""
    free = [(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == "."]
    found = []
    for whites in itertools.combinations(free, white):
        rest = [s for s in free if s not in whites]
        for blacks in itertools.combinations(rest, black):
            grid = [list(row) for row in board]
            for (r, c), colour in [*((s, "W") for s in whites), *((s, "B") for s in blacks)]:
                grid[r][c] = colour
            if peaceful(grid):
                found.append(tuple("".join(row) for row in grid))
    return found


def swapped(rows):
    return tuple(row.translate(str.maketrans("WB", "BW")) for row in rows)


def classes(found, white, black):
    """The placements up to swapping the colours, which is a symmetry only for equal counts."""
    return {min(p, swapped(p)) if white == black else p for p in found}


# -- brute force: domino packings -----------------------------------------------------------
def packings(rows, cols):
    """Every set of non-overlapping dominoes on a rows x cols board, as a sorted tuple of
    ((r, c), (r, c)) pairs."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]

    def extend(k, used, chosen):
        while k < len(cells) and cells[k] in used:
            k += 1
        if k == len(cells):
            yield tuple(sorted(chosen))
            return
        r, c = cells[k]
        yield from extend(k + 1, used, chosen)  # the square stays uncovered
        for other in ((r, c + 1), (r + 1, c)):
            if other[0] < rows and other[1] < cols and other not in used:
                yield from extend(k + 1, used | {(r, c), other}, chosen + [((r, c), other)])
    return list(extend(0, frozenset(), []))


def best_packings(weights):
    """The best score and every packing that reaches it; a domino scores the product."""
    scored = [(sum(weights[a[0]][a[1]] * weights[b[0]][b[1]] for a, b in p), p)
              for p in packings(len(weights), len(weights[0]))]
    best = max(s for s, _ in scored)
    return best, [p for s, p in scored if s == best]


def as_pairs(dominoes):
    return tuple(sorted((tuple(a), tuple(b)) for a, b in dominoes))


# -- brute force: the riddle ----------------------------------------------------------------
def holds(statement, x, y, z):
    """A statement as the riddle shows it ('x + y = 7', 'x is even') or as MiniZinc
    ('x mod 2 = 0'), evaluated in Python."""
    text = re.sub(r"([xyz]) is even", r"\1 % 2 == 0", statement)
    text = re.sub(r"([xyz]) is odd", r"\1 % 2 == 1", text)
    text = re.sub(r"(?<![<>!=])=(?!=)", "==", text.replace(" mod ", " % "))
    assert re.fullmatch(r"[xyz0-9+\-<%= ]+", text), statement
    return eval(text, {"__builtins__": {}}, {"x": x, "y": y, "z": z})


def assignments(top, facts):
    return [v for v in itertools.product(range(1, top + 1), repeat=3)
            if all(holds(f, *v) for f in facts)]


# == grown: peaceful rooks ==================================================================
ROOK_SEED = 1


@pytest.fixture(scope="module")
def rook_record(tmp_path_factory):
    return gen_record(tmp_path_factory.mktemp("rooks"), ROOKS, ROOK_SEED)


def test_rooks_gen_is_reproducible_and_unique_modulo_swapping(shapes, rook_record):
    """gen through the CLI makes the record the API makes from the same seed; by brute
    force the level has one placement up to swapping the colours, the recorded one."""
    host, engines = shapes
    ptype = host.get_type(ROOKS)
    engine = engines["gecode"]
    params = engine.check_params(ptype, {})
    result = engine.generate(ptype, params, ROOK_SEED)
    same_apart_from_timing(rook_record, result.puzzle.to_json(ptype))

    r = rook_record
    assert (r["plugin"], r["plugin_version"]) == ("shape_rooks", shape_plugins.VERSION)
    assert r["white"] >= 1 and r["black"] >= 1  # complete: both colours on the board
    assert r["step"] == r["white"] + r["black"]  # grown one rook per step
    assert sum(row.count("#") for row in r["board"]) == params["walls"]
    found = placements(r["board"], r["white"], r["black"])
    assert len(classes(found, r["white"], r["black"])) == 1
    assert tuple(r["solution"]) in found
    assert (r["solutions"], r["classes"]) == (len(found), 1)
    if r["white"] == r["black"]:  # the recorded placement and its colours swapped
        assert sorted(found) == sorted({tuple(r["solution"]), swapped(r["solution"])})
    verdict = judge_with(engines["chuffed"], ptype, params, result.puzzle.instance)
    assert verdict.accepted is True and verdict.fields == {"solutions": len(found), "classes": 1}


def test_rooks_check_and_solve_through_the_cli(tmp_path, rook_record):
    """check accepts the generated level (read from its JSON record) and refuses it with
    one white rook fewer, counting what brute force counts; solve places the rooks."""
    path = tmp_path / "level.json"
    path.write_text(json.dumps(rook_record) + "\n")
    proc = cli(tmp_path, "check", ROOKS, path, "--format", "json")
    verdict = json.loads(ok(proc))
    assert proc.stderr == ""
    assert (verdict["criterion"], verdict["accepted"], verdict["classes"]) == (
        "unique-modulo-symmetry", True, 1)

    board, white, black = rook_record["board"], rook_record["white"] - 1, rook_record["black"]
    weaker = f"white {white}, black {black}: {'/'.join(board)}"
    found = placements(board, white, black)
    assert len(classes(found, white, black)) >= 2
    verdict = json.loads(ok(cli(tmp_path, "check", ROOKS, weaker, "--format", "json"), 1))
    assert verdict["accepted"] is False
    # the criterion stops at the first round of solutions that shows a second class
    assert 2 <= verdict["classes"] <= len(classes(found, white, black))
    assert verdict["classes"] <= verdict["solutions"] <= len(found)

    proc = cli(tmp_path, "solve", ROOKS, "\n".join([f"white {white}, black {black}", *board]))
    assert tuple(ok(proc).split()) in found and proc.stderr == ""


#: A level with exactly one placement (checked by brute force in the test): the grader
#: measures puzzles with one solution.
UNIQUE_ROOKS = ("..#.", "...#", "##..", "...."), 5, 6


def test_rooks_grade_through_search_variables(tmp_path, shapes, rook_record):
    """grade measures a rooks level (not a grid: its search variables are the free
    squares of the decision array) through the CLI and the API; a level that is unique
    only up to swapping the colours is graded too (the type's criterion accepts it); one
    that the criterion refuses is one line."""
    board, white, black = UNIQUE_ROOKS
    (only,) = placements(board, white, black)
    text = f"white {white}, black {black}: {'/'.join(board)}"
    proc = cli(tmp_path, "grade", ROOKS, text, "--runs", 3, "--format", "json")
    grade = json.loads(ok(proc))
    assert grade["runs"] == 3 and grade["mode"] in ("strengthened", "plain")
    assert grade["mean_nodes"] >= 1 and grade["levels_by"] is None
    assert "no level model" in proc.stderr

    host, engines = shapes
    ptype = host.get_type(ROOKS)
    parsed = ptype.parse({"size": None, "walls": None}, text)
    with host.get("graders", ptype.grader).grader(
            engines["gecode"], ptype, parsed.params, GradeOptions(runs=3, strengthen=False)) as g:
        measured = g.grade(parsed.instance)
    assert measured.mode == "plain" and measured.figure.runs == 3
    assert ptype.format_solution(parsed.params, measured.solution, "text").split() == list(only)
    assert measured.plugin_features == {"squares": 12.0, "rooks": 11.0}

    # A level unique only up to swapping the colours has two solutions: the grader asks
    # the type's criterion, which accepts it, and measures the search to the first.
    assert rook_record["white"] == rook_record["black"] and rook_record["solutions"] == 2
    path = tmp_path / "level.json"
    path.write_text(json.dumps(rook_record) + "\n")
    grade = json.loads(ok(cli(tmp_path, "grade", ROOKS, path, "--runs", 3, "--format", "json")))
    assert grade["runs"] == 3 and grade["mean_nodes"] >= 1
    # A level with two classes of placements is refused, in one line.
    assert len(placements(board, 1, 1)) > 2
    proc = cli(tmp_path, "grade", ROOKS, f"white 1, black 1: {'/'.join(board)}", "--runs", 3)
    ok(proc, 2)
    assert proc.stdout == "" and proc.stderr.splitlines() == [
        "puzzle-engine: error: the puzzle is refused by its criterion 'unique-modulo-symmetry'; "
        "only accepted puzzles can be graded"]


def test_gen_help_lists_only_the_types_strategy_options(tmp_path):
    rooks = ok(cli(tmp_path, "gen", ROOKS, "--help"))
    assert "Options of its strategy 'growing'" in rooks
    assert "--max-steps" in rooks and "--restarts" in rooks and "--walls" in rooks
    assert "--batch" not in rooks and "--draws" not in rooks
    dominoes = ok(cli(tmp_path, "gen", DOMINOES, "--help"))
    assert "Options of its strategy 'own'" in dominoes and "--draws" in dominoes
    assert "--max-steps" not in dominoes and "--batch" not in dominoes


# == optimised: domino packing ==============================================================
DOMINO_SEED = 6  # its first draw has two best packings: refused, and drawn again


def test_dominoes_gen_check_solve(tmp_path, shapes):
    """gen through the CLI and through the API: the same record. By brute force
    over every packing, the recorded optimum is the best score, reached by the recorded
    packing alone; every draw before it (drawn again from the seed) had two best
    packings or more. check agrees on both; solve gives the best packing."""
    host, engines = shapes
    ptype = host.get_type(DOMINOES)
    record = gen_record(tmp_path, DOMINOES, DOMINO_SEED)
    params = engines["gecode"].check_params(ptype, {})
    same_apart_from_timing(record, engines["gecode"].generate(ptype, params, DOMINO_SEED)
                           .puzzle.to_json(ptype))

    best, winners = best_packings(record["weights"])
    assert winners == [as_pairs(record["dominoes"])]
    assert (record["optimum"], record["optimal_solutions"]) == (best, 1)
    verdict = judge_with(engines["chuffed"], ptype, params, tuple(sum(record["weights"], [])))
    assert (verdict.accepted, verdict.value) == (True, best)

    rng = random.Random(DOMINO_SEED)  # the type's draws, replayed from the seed
    drawn = [ptype.generate(params, rng, engines["chuffed"]) for _ in range(record["draws"])]
    cols = params["cols"]
    boards = [[list(d[i:i + cols]) for i in range(0, len(d), cols)] for d in drawn]
    assert boards[-1] == record["weights"] and record["draws"] >= 2
    refused = boards[:-1]
    for weights in refused:
        assert len(best_packings(weights)[1]) >= 2

    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(record) + "\n")
    proc = cli(tmp_path, "check", DOMINOES, path)
    assert ok(proc) == f"unique-optimum: accepted, optimum {best}, optimal_solutions 1\n"
    line = "/".join("".join(map(str, row)) for row in refused[0])
    verdict = json.loads(ok(cli(tmp_path, "check", DOMINOES, line, "--format", "json"), 1))
    assert (verdict["accepted"], verdict["optimum"], verdict["optimal_solutions"]) == (
        False, best_packings(refused[0])[0], 2)

    proc = cli(tmp_path, "solve", DOMINOES, path, "--format", "json")
    solved = json.loads(ok(proc))
    assert proc.stderr == ""
    assert (solved["optimum"], solved["status"]) == (best, "optimal")
    assert as_pairs(solved["dominoes"]) == winners[0]


def test_a_batch_of_another_shape_resumes(tmp_path, shapes):
    """gen --out --resume goes on with a batch of a type whose records hold no 'grid'
    (the engine asked every record for one, and refused to resume)."""
    out = tmp_path / "batch.jsonl"
    ok(cli(tmp_path, "gen", DOMINOES, "--seed", 3, "--count", 2, "--format", "json", "--out", out))
    first = out.read_text().splitlines()
    proc = cli(tmp_path, "gen", DOMINOES, "--seed", 3, "--count", 3, "--format", "json", "--out",
               out, "--resume")
    ok(proc)
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and lines[:2] == first
    host, engines = shapes
    ptype = host.get_type(DOMINOES)
    third = engines["gecode"].generate(ptype, engines["gecode"].check_params(ptype, {}), 5)
    same_apart_from_timing(json.loads(lines[2]), third.puzzle.to_json(ptype))


class Clashing(DominoPacking):
    """A type whose record has a field the engine writes too."""

    name = "clashing_packing"

    def to_json(self, params, instance, solution):
        return {**super().to_json(params, instance, solution), "options": ["mine"]}


def test_a_type_field_the_engine_writes_is_an_error(shapes):
    """A type's record field that the engine's own would overwrite ('options') is one line
    naming the field, the type and its plugin, not a record that silently lost it."""
    host, engines = shapes

    class Plugin:
        PUZZLE_ENGINE_CONTRACT = 3

        @hookimpl
        def register_puzzle_types(self, register):
            register(Clashing())

    assert host.register(Plugin(), name="clashing")
    try:
        ptype = host.get_type("clashing_packing")
        engine = engines["gecode"]
        puzzle = engine.generate(ptype, engine.check_params(ptype, {}), 1).puzzle
        with pytest.raises(PluginError) as caught:
            puzzle.to_json(ptype)
        assert str(caught.value) == (
            "to_json (puzzle 'clashing_packing', plugin 'clashing') returned the field "
            "'options', which the engine writes into the same record; give it another name")
    finally:
        host.unregister("clashing")


# == templated: the arithmetic riddle =======================================================
RIDDLE_SEED = 2


def test_riddle_gen_check_solve(tmp_path, shapes):
    """gen through the CLI and the API: the same record. By brute force over every
    assignment of the unknowns that keeps the facts, the answer holds in all of them and
    every other option in none, read both from the record's text and from the MiniZinc
    expressions the engine judged. check reads the riddle back in its text format; a riddle
    with an option that holds only sometimes is refused; solve gives an assignment that
    keeps the facts."""
    host, engines = shapes
    ptype = host.get_type(RIDDLE)
    record = gen_record(tmp_path, RIDDLE, RIDDLE_SEED)
    params = engines["gecode"].check_params(ptype, {})
    result = engines["gecode"].generate(ptype, params, RIDDLE_SEED)
    same_apart_from_timing(record, result.puzzle.to_json(ptype))

    found = assignments(record["top"], record["facts"])
    assert found and tuple(record["example"].values()) in found
    answer, choices = record["answer"], record["choices"]
    assert len(choices) == params["choices"]
    for i, option in enumerate(choices):
        truth = [holds(option, *v) for v in found]
        assert all(truth) if i == answer else not any(truth), (option, i, answer)
    expressions = ptype.answer_options(params, result.puzzle.instance)
    for i, option in enumerate(expressions):
        assert [holds(option, *v) for v in found] == [holds(choices[i], *v) for v in found]
    verdict = judge_with(engines["chuffed"], ptype, params, result.puzzle.instance)
    assert (verdict.accepted, verdict.value) == (True, answer)

    text = ptype.format(params, result.puzzle.instance, "text")  # as gen writes it
    assert text.splitlines()[0] == f"x, y and z are whole numbers from 1 to {record['top']}."
    assert f"{chr(ord('a') + answer)}) {choices[answer]}" in text.splitlines()
    proc = cli(tmp_path, "check", RIDDLE, "-", stdin=text)
    assert ok(proc) == f"unique-answer: accepted, answer {answer}\n"
    assert proc.stderr == ""  # the refuted options' checks say nothing on stderr

    proc = cli(tmp_path, "solve", RIDDLE, "-", stdin=text)
    values = dict(re.findall(r"([xyz]) = (\d+)", ok(proc)))
    assert tuple(int(values[n]) for n in "xyz") in assignments(record["top"], record["facts"])


@pytest.mark.parametrize("line", [
    "1..9 | x + y = 10; x - y = 2 | x = 5; y = 4; x < y",  # one answer: y = 4
    "1..9 | x + y = 10 | x = 12; x < y",                    # x < y holds only sometimes
    "1..9 | x + y = 10; x - y = 2 | x = 6; y = 4",          # both hold always
    "1..9 | x + y = 10; x - y = 2 | x = 5; y = 5",          # neither ever holds
    "1..4 | x + y = 10 | x = 4; y = 4",                     # no solution at all
])
def test_riddle_verdicts_agree_with_brute_force(shapes, line):
    """The criterion on hand-written riddles: accepted exactly when brute force finds one
    option true in every solution and every other in none."""
    host, engines = shapes
    ptype = host.get_type(RIDDLE)
    top, facts, options = line.split("|")
    top = int(top.split("..")[1])
    facts, options = [s.strip() for s in facts.split(";")], [s.strip() for s in options.split(";")]
    found = assignments(top, facts)
    truth = [[holds(o, *v) for v in found] for o in options]
    sometimes = [i for i, t in enumerate(truth) if any(t) and not all(t)]
    always = [i for i, t in enumerate(truth) if found and all(t)]

    parsed = ptype.parse({"top": None, "choices": None}, line)
    engine = engines["chuffed"]
    calls = engine.backend.calls
    verdict = judge_with(engine, ptype, parsed.params, parsed.instance)
    assert verdict.accepted is (bool(found) and not sometimes and len(always) == 1)
    if verdict.accepted:
        assert verdict.value == always[0] and verdict.fields == {"answer": always[0]}
        # one solve, one call per option (a distractor is settled by it), one more for
        # the answer
        assert engine.backend.calls - calls == 1 + len(options) + 1
    elif not found:
        assert verdict.solutions == 0 and verdict.fields == {}
    elif sometimes:
        assert verdict.fields == {"ambiguous_option": sometimes[0]}
    else:
        assert verdict.fields == {"correct": always}


@pytest.mark.parametrize("args, says", [
    (("check", ROOKS, "white 2, black 2: ..x./..../..../...."),
     "row 1, column 3: unexpected 'x' (expected one of . #)"),
    (("check", ROOKS, "white 9, black 9: ..../..../..../...."),
     "18 rooks cannot stand on 16 free squares"),
    (("check", DOMINOES, "1203/3333"),
     "row 1, column 3: unexpected '0' (expected a number from 1 to 9)"),
    (("check", RIDDLE, "1..9 | x * y = 3 | x = 1; y = 2"),
     "'x * y = 3' is not a fact like 'x + y = 7', 'x - y = 2' or 'x < y'"),
    (("gen", RIDDLE, "--choices", "1"), "bad --choices 1: expected 2 to 6"),
], ids=["rooks-symbol", "rooks-crowded", "dominoes-zero", "riddle-fact", "riddle-choices"])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, says):
    proc = cli(tmp_path, *args)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.splitlines() == [f"puzzle-engine: error: {says}"]


# == emptying: retries stay reproducible =====================================================
class FussyLatin(ToyLatinType):
    """The toy Latin square, refusing about half of its random full boards and every
    finished puzzle with an even number of empty squares. It logs what it did."""

    name = "fussy_latin"

    def __init__(self):
        self.log = []

    def random_solution(self, params, rng, solve, transform):
        if rng.random() < 0.5:
            self.log.append("no board")
            return None
        board = super().random_solution(params, rng, solve, transform)
        self.log.append("board")
        return board

    def accept_puzzle(self, params, instance, solution):
        accepted = instance.count(0) % 2 == 1
        self.log.append(accepted)
        return accepted


LATIN_SEED = 3  # first a refused board, then a refused finished puzzle (asserted below)


def test_emptying_retries_are_reproducible_and_counted():
    host = get_host()
    fussy = FussyLatin()
    assert host.register(plugin(lambda register: register(fussy)), name="fussy")
    engines = {s: Engine(host, Backend(s)) for s in SOLVERS}
    try:
        ptype = host.get_type("fussy_latin")
        params = engines["gecode"].check_params(ptype, {"size": 4})
        runs = []
        for _ in range(2):
            fussy.log.clear()
            p = engines["gecode"].generate(ptype, params, LATIN_SEED).puzzle
            runs.append((p.grid, p.solution, p.extra, list(fussy.log)))
        assert runs[0] == runs[1]  # the same seed, the same puzzle, after the same retries
        grid, solution, extra, log = runs[0]
        verdicts = [entry for entry in log if isinstance(entry, bool)]
        assert log[0] == "no board" and verdicts[:-1] == [False] * (len(verdicts) - 1)
        assert len(verdicts) >= 2 and verdicts[-1] is True
        assert log.count("board") == len(verdicts)  # one finished puzzle per board
        assert extra["draws"] == len(verdicts)
        assert p.to_json(ptype)["draws"] == len(verdicts)

        # the puzzle kept is a good one, checked with the other solver
        assert is_latin(solution, 4) and grid.count(0) % 2 == 1 and p.minimal
        result, boards = engines["chuffed"].solve(ptype, params, grid, nr_solutions=2)
        assert result.complete and boards == [solution]
        for i, v in enumerate(grid):
            if v:
                assert len(engines["chuffed"].solve(ptype, params, without(grid, i),
                                                    nr_solutions=2)[1]) == 2
    finally:
        for engine in engines.values():
            engine.close()
        host.unregister("fussy")


if __name__ == "__main__":  # the puzzle-engine command, with the three plugins loaded
    import puzzle_engine.cli as cli_module
    import puzzle_engine.cli.common as common
    common.get_host = lambda: with_shapes(get_host())
    cli_module.main(sys.argv[1:])
