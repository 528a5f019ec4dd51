"""The logic plugin on the real solver: every shipped spec generates a puzzle whose
answer the criterion proves; records replay exactly and ``check`` catches a wrong
answer; the CLI's errors are one line."""
import json
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from puzzle_engine.engine import Engine
from puzzle_engine.plugins import get_host
from puzzle_engine.solving.backend import Backend
from puzzle_engine_plugins.logic import symbolic
from puzzle_engine_plugins.logic.generator import Generator
from puzzle_engine_plugins.logic.puzzle import shipped_specs
from support import ROOT, TESTS

SPECS = sorted(shipped_specs())
DATA = TESTS / "data"
#: A spec of several statement templates, `total` of them, one per person (`names[_index]`).
WEEKDAY = DATA / "logic-weekday.yaml"


def assert_key_readable(problem: str, key: str):
    """Every name or word the key gives is in the problem's text (an option letter is one
    of its options); a number may be computed (an optimum, a house number)."""
    if re.fullmatch(r"[A-Z]", key):
        assert f"\n{key}. " in problem, (key, problem)
        return
    for answer in key.split("===="):
        for part in re.split(r"\s*,\s*", answer):
            if re.search(r"[^\W\d_]", part):
                assert part in problem, (part, key, problem)


def speakers(problem: str) -> list[str]:
    return re.findall(r"^(\w+) says:", problem, re.M)


@pytest.fixture(scope="module")
def engine():
    host = get_host()
    engine = Engine(host, Backend("chuffed"))  # the type's solver
    try:
        yield host.get_type("logic"), engine
    finally:
        engine.close()


def cli(tmp_path, *args):
    command = [sys.executable, "-c", "from puzzle_engine.cli import main; main()"]
    return subprocess.run([*command, *map(str, args)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=1800)


@pytest.mark.parametrize("name", SPECS)
def test_each_shipped_spec_gives_a_proven_answer(engine, name):
    ptype, eng = engine
    params = eng.check_params(ptype, {"spec": name})
    puzzle = eng.generate(ptype, params, seed=5).puzzle
    inst = puzzle.instance
    verdict = eng.criterion(ptype).judge(eng, ptype, params, inst)
    assert verdict.accepted is True
    if inst.check == "options":  # the letter the generator wrote is the one the solver proves
        assert inst.key == "ABCDEFGH"[verdict.value]
        assert f"\n{inst.key}. " in inst.problem
    # every recorded solution keeps every constraint, evaluated in Python
    gen = Generator(ptype.spec(name), None)
    replayed = gen.draw(random.Random(inst.config["draw"]), replay=inst.config)
    assert (replayed.problem, replayed.key) == (inst.problem, inst.key)
    assert all(symbolic.value(c, a) is True for c in gen.scn.constraints
               for a in inst.config["_solutions"])
    svg = ptype.render_svg(params, inst, solution=verdict.solution)
    assert ET.fromstring(svg).tag.endswith("svg") and "Answer:" in svg
    assert ptype.canonical_form(params, inst)["answer"] == inst.key
    assert_key_readable(inst.problem, inst.key)
    if name == "knights-knaves":  # the four islanders met, each speaks once
        met = re.search(r"You meet (.*)\.", inst.problem).group(1).split(", ")
        assert sorted(speakers(inst.problem)) == sorted(met) and len(met) == 4


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_templates_with_a_total_number_their_items_across_templates(engine, seed):
    """`_index` counts the items of all templates (PuzzleClone's translator), so with
    `names[_index]` each of the `p_num` people speaks once, and the answer's names are
    among the speakers (they used to restart at 0 for each template)."""
    ptype, eng = engine
    params = eng.check_params(ptype, {"spec": str(WEEKDAY)})
    inst = eng.generate(ptype, params, seed=seed).puzzle.instance
    names, p_num = inst.config["names"], inst.config["p_num"]
    assert speakers(inst.problem) == names and len(names) == p_num
    assert f"Only {inst.config['correct_num']} of the {p_num} are right" in inst.problem
    assert_key_readable(inst.problem, inst.key)
    assert set(inst.key.split(",")) <= set(names)


def test_house_number_answer_by_brute_force(engine):
    ptype, eng = engine
    params = eng.check_params(ptype, {"spec": "house-number"})
    inst = eng.generate(ptype, params, seed=2).puzzle.instance
    import re
    rules = re.findall(r"If the number is (not )?a multiple of (\d), then it is between (\d+) and (\d+)",
                       inst.problem)
    assert len(rules) >= 3

    def ok(n):
        return all(not ((n % int(d) == 0) != bool(neg)) or int(lo) <= n <= int(hi)
                   for neg, d, lo, hi in rules)
    assert [n for n in range(10, 100) if ok(n)] == [int(inst.key)]


def test_cli_gen_check_and_a_wrong_answer(tmp_path):
    out = cli(tmp_path, "gen", "logic", "--spec", "house-number", "--count", "1", "--seed", "3",
              "--format", "json")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 1
    for line in lines:
        record = json.loads(line)
        assert {"problem", "key", "parameters", "config", "seed", "plugin_version",
                "solver", "solver_version"} <= set(record)
    (tmp_path / "p.jsonl").write_text(out.stdout)
    checked = cli(tmp_path, "check", "logic", "p.jsonl")
    assert checked.returncode == 0 and checked.stdout.count("accepted") == 1, checked.stderr
    record = json.loads(lines[0])
    record["key"] = str(int(record["key"]) + 1)
    (tmp_path / "bad.jsonl").write_text(json.dumps(record) + "\n")
    bad = cli(tmp_path, "check", "logic", "bad.jsonl")
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and "answer" in bad.stderr and "wrong" in bad.stderr


def test_a_shipped_spec_that_accepts_one_draw_in_ten_is_made_by_default(tmp_path):
    # the house number keeps about one draw in ten; seed 304105101 needed more than the old
    # default of 50 draws (CI, 2026-11-28), so the guide's example failed now and then
    out = cli(tmp_path, "gen", "logic", "--spec", "house-number", "--seed", "304105101",
              "--format", "json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["draws"] > 50


def test_cli_specs_and_a_bad_spec_file(tmp_path):
    listed = cli(tmp_path, "specs")
    assert listed.returncode == 0 and all(s in listed.stdout for s in SPECS)
    (tmp_path / "evil.yaml").write_text(
        "desc: x\nconditions:\n  c:\n    formula: \"__import__('os').system('touch pwned')\"\n"
        "queries:\n  q:\n    ans_formula: '1'\n")
    bad = cli(tmp_path, "gen", "logic", "--spec", "evil.yaml")
    assert bad.returncode == 2 and not (tmp_path / "pwned").exists()
    errors = [line for line in bad.stderr.splitlines() if "error" in line]
    assert len(errors) == 1 and "Traceback" not in bad.stderr
    assert errors[0].startswith("puzzle-engine: error: evil.yaml, line 4, field 'conditions.c.formula'")


SAME_CLAIMS = """
variables:
  names:
    formula: get_faker(4, 'name')
symbols:
  vars:
    source: ["['day']"]
    type: int
  claims:
    total: 4
    templates:
    - source: ["range(1, 20)"]
      formula: vars['day'] == 1
      desc: "{names[_index]} says: \\"It is day 1, as sure as {_sym[0]} is {_sym[0]}.\\"\\n"
    - source: ["range(1, 20)"]
      formula: vars['day'] == 1
      desc: "{names[_index]} says: \\"I bet {_sym[0]} coins it is day 1.\\"\\n"
conditions:
  week:
    formula: And(vars['day'] >= 0, vars['day'] < 7, And(claims))
queries:
  q1:
    desc: Which day is it?
    ans_formula: "[get_value(m, vars['day']) for m in _solutions]"
    ans_text: "_ans[0]"
    ans_assertion: len(_ans) == 1
desc: "{''.join(get_desc(claims))}{q1}"
"""


def test_items_that_are_the_same_formula_keep_their_own_text(engine, tmp_path):
    """Four people say the same thing (one formula) in two templates' words: each keeps
    their own sentence (get_desc of the symbol gives its texts in order, as PuzzleClone's;
    a text per formula gave the last one four times)."""
    ptype, eng = engine
    (tmp_path / "same.yaml").write_text(SAME_CLAIMS)
    params = eng.check_params(ptype, {"spec": str(tmp_path / "same.yaml")})
    inst = eng.generate(ptype, params, seed=1).puzzle.instance
    assert speakers(inst.problem) == inst.config["names"], inst.problem
    assert inst.key == "1"


# -- check logic trusts no field of the record ---------------------------------------------------
def _lighter(record):
    """The issue's forgery of an optimising record: one item fewer (still within the
    limit, worth less), stated as the optimum, with its key."""
    config = record["config"]
    packing = dict(config["_solutions"][0])
    name = next(n for n, v in packing.items() if v)
    packing[name] = False
    taken = [it for it in config["items"] if packing[next(n for n in packing if n.endswith("_" + it))]]
    config["_solutions"] = [packing]
    config["_optimum"] = sum(v for it, v in zip(config["items"], config["values"]) if it in taken)
    record["key"] = ", ".join(taken)


def _set(path, value):
    def forge(record):
        *outer, last = path
        target = record
        for p in outer:
            target = target[p]
        target[last] = value(target[last]) if callable(value) else value
    return forge


FORGERIES = [  # (spec, forgery, the field the one-line error names)
    ("knapsack", _lighter, "key"),
    ("knapsack", _set(("config", "_optimum"), lambda v: v + 1), "config._optimum"),
    ("knapsack", _set(("answer",), 1), "answer"),
    ("knapsack", _set(("key",), "tent"), "key"),
    ("knapsack", _set(("problem",), lambda t: t.replace("at most", "at least")), "problem"),
    ("knapsack", _set(("parameters", "solutions"), 2), "parameters"),
    ("knapsack", _set(("config", "limit"), lambda v: v + 1), "config.limit"),
    ("knapsack", _set(("config", "_queries"), {}), "config._queries"),
    ("knapsack", _set(("checked",), "options"), "checked"),
    ("wine-merchant", _set(("answer",), lambda a: (a + 1) % 4), "answer"),
    ("wine-merchant", _set(("key",), lambda k: "ABCD"[("ABCD".index(k) + 1) % 4]), "key"),
    ("wine-merchant", _set(("config", "_solutions"), lambda s: s[:-1]), "config._solutions"),
    ("wine-merchant", _set(("config", "_queries"), {}), "config._queries"),
    ("wine-merchant", _set(("config", "wines"), lambda w: w[::-1]), "config.wines"),
]


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    out = {}
    for name in ("knapsack", "wine-merchant"):
        made = cli(folder, "gen", "logic", "--spec", name, "--seed", "5", "--format", "json")
        assert made.returncode == 0, made.stderr
        out[name] = made.stdout
    return out


@pytest.mark.parametrize("spec, forge, field", FORGERIES,
                         ids=[f"{s}-{f}-{i}" for i, (s, _, f) in enumerate(FORGERIES)])
def test_check_refuses_every_forged_field(tmp_path, records, spec, forge, field):
    """Each field of a record changed alone (or, for the optimum, the solutions, optimum
    and key together, as the issue forged them): one line naming the field, exit 2."""
    (tmp_path / "good.jsonl").write_text(records[spec])
    good = cli(tmp_path, "check", "logic", "good.jsonl")
    assert good.returncode == 0 and "logic-answer: accepted" in good.stdout, good.stderr
    record = json.loads(records[spec])
    forge(record)
    (tmp_path / "bad.jsonl").write_text(json.dumps(record) + "\n")
    bad = cli(tmp_path, "check", "logic", "bad.jsonl")
    lines = [ln for ln in bad.stderr.splitlines() if ln.strip()]
    assert bad.returncode == 2 and len(lines) == 1, bad.stderr
    assert lines[0].startswith("puzzle-engine: error: ") and field in lines[0], lines[0]
    assert "Traceback" not in bad.stderr and bad.stdout == ""


def test_the_benchmarks_brute_force_answers_records_without_the_solver(records):
    """benchmarks/bench_puzzleclone_specs.py answers a record by brute force over its
    unknowns (no MiniZinc): it agrees with genuine records, and finds the true optimum
    of the issue's forged knapsack record (so it does not just echo the record)."""
    import importlib.util
    import pathlib
    root = ROOT / "benchmarks"
    sys.path.insert(0, str(root))
    try:
        spec = importlib.util.spec_from_file_location("bench_pc", root / "bench_puzzleclone_specs.py")
        bench = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench)
    finally:
        sys.path.remove(str(root))
    folder = pathlib.Path(shipped_specs()["knapsack"]).parent
    for name in ("knapsack", "wine-merchant"):
        record = json.loads(records[name])
        got = bench.answer_again(folder / f"{name}.yaml", record, 2_000_000)
        assert got["agrees"] and got["key"] == record["key"], (name, got)
    forged = json.loads(records["knapsack"])
    _lighter(forged)
    got = bench.answer_again(folder / "knapsack.yaml", forged, 2_000_000)
    assert not got["same_solutions"] and not got["agrees"]
    assert got["key"] == json.loads(records["knapsack"])["key"]
