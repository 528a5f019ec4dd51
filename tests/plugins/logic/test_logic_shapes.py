"""Logic specs compiled once per shape (plugins/logic/shape.py): a draw's values are
fixed per question of a session on the shape's flattened model, so a second instance of
the same shape compiles nothing and no question is a whole MiniZinc solve; the answers
are the whole solve's."""
import dataclasses

import pytest

from puzzle_engine.engine import Engine
from puzzle_engine.plugins import get_host
from puzzle_engine.solving import backend as backend_module
from puzzle_engine.solving.backend import Backend
from puzzle_engine_plugins.logic.puzzle import WHOLE
from support import TESTS


@pytest.fixture()
def counted(monkeypatch, tmp_path):
    """A fresh engine on Chuffed, with its compiles (``flatten``) and whole solves
    (``Backend.solve``) counted; the FlatZinc cache in a folder of its own."""
    monkeypatch.setenv("PUZZLE_ENGINE_FZN_CACHE", str(tmp_path / "fzn"))
    counts = {"compiles": [], "whole": 0}
    flatten = backend_module.flatten

    def counting_flatten(info, ptype, data, extra=(), flags=(), cache=True):
        counts["compiles"].append("".join(e for e in extra if isinstance(e, str)))
        return flatten(info, ptype, data, extra, flags, cache)

    whole = Backend.solve

    def counting_solve(self, *args, **kwargs):
        counts["whole"] += 1
        return whole(self, *args, **kwargs)

    monkeypatch.setattr(backend_module, "flatten", counting_flatten)
    monkeypatch.setattr(Backend, "solve", counting_solve)
    host = get_host()
    engine = Engine(host, Backend("chuffed"))
    try:
        yield host.get_type("logic"), engine, counts
    finally:
        engine.close()


def made(eng, ptype, params, seed):
    result = eng.generate(ptype, params, seed=seed)
    assert result is not None and result.puzzle is not None, seed
    return result.puzzle.instance


def test_a_second_instance_of_a_shape_compiles_nothing(counted):
    """Generating a puzzle (its draws, and the criterion's proof, which the strategy asks
    for) compiles each shape it meets once; a later puzzle whose shapes were all met
    compiles nothing, and no question is a whole MiniZinc solve."""
    ptype, eng, counts = counted
    params = eng.check_params(ptype, {"spec": "house-number"})
    judge = eng.criterion(ptype).judge
    seen: set[str] = set()
    none_compiled = 0
    for seed in range(1, 9):
        before = len(counts["compiles"])
        inst = made(eng, ptype, params, seed)
        compiled = counts["compiles"][before:]
        assert not set(compiled) & seen  # a shape met before is not compiled again
        if inst.template.text in seen:
            assert inst.template.text not in compiled
        seen |= set(compiled)
        assert inst.template.text in seen  # the criterion's questions, on its shape
        none_compiled += not compiled
        before = len(counts["compiles"])
        assert judge(eng, ptype, params, inst).accepted is True
        assert counts["compiles"][before:] == []  # judged again: its session is kept
    assert none_compiled >= 1  # some puzzle met only shapes met before
    assert counts["whole"] == 0
    assert len(counts["compiles"]) == len(set(counts["compiles"]))  # each shape once


def test_a_spec_whose_shape_changes_per_draw(counted):
    """The wine merchant draws its number of barrels (6 to 9): each number is a shape of
    its own (more unknowns), compiled once, and every puzzle is proven."""
    ptype, eng, counts = counted
    params = eng.check_params(ptype, {"spec": "wine-merchant"})
    barrels = set()
    for seed in range(1, 7):
        inst = made(eng, ptype, params, seed)
        barrels.add(len(inst.template.names))
        verdict = eng.criterion(ptype).judge(eng, ptype, params, inst)
        assert verdict.accepted is True and verdict.value == inst.answer_index
    assert len(barrels) >= 2
    assert counts["whole"] == 0
    assert len(counts["compiles"]) == len(set(counts["compiles"]))


@pytest.mark.parametrize("name", ["house-number", "knights-knaves", "wine-merchant", "zebra",
                                  "knapsack"])
def test_answers_are_the_whole_solves(counted, monkeypatch, name):
    """The criterion on the shape and on the model written with its values (a compile
    per question) proves the same answer; the house number, whose draws enumerate every
    solution, is the same puzzle either way."""
    ptype, eng, counts = counted
    params = eng.check_params(ptype, {"spec": name})
    judge = eng.criterion(ptype).judge
    for seed in (1, 2):
        inst = made(eng, ptype, params, seed)
        assert inst.template is not None
        shaped = judge(eng, ptype, params, inst)
        assert counts["whole"] == 0
        whole = judge(eng, ptype, params, dataclasses.replace(inst, template=None))
        assert counts["whole"] > 0
        counts["whole"] = 0
        assert (shaped.accepted, shaped.value, shaped.status) == \
            (whole.accepted, whole.value, whole.status) == (True, inst.answer_index, shaped.status)
        if name == "house-number":
            monkeypatch.setenv(WHOLE, "1")
            again = made(eng, ptype, params, seed)
            monkeypatch.delenv(WHOLE)
            assert counts["whole"] > 0
            counts["whole"] = 0
            assert (again.problem, again.key, again.config) == (inst.problem, inst.key, inst.config)


def test_a_refused_option_is_refused_on_the_shape_too(counted):
    """A key naming an option that is not the proven one is refused either way: the
    questions are asked, not assumed."""
    ptype, eng, counts = counted
    params = eng.check_params(ptype, {"spec": "wine-merchant"})
    inst = made(eng, ptype, params, 3)
    wrong = dataclasses.replace(inst, answer_index=(inst.answer_index + 1) % len(inst.options))
    for case in (wrong, dataclasses.replace(wrong, template=None)):
        verdict = eng.criterion(ptype).judge(eng, ptype, params, case)
        assert verdict.accepted is False
        assert verdict.fields == {"answer": inst.answer_index, "key_names": wrong.answer_index}


@pytest.mark.parametrize("name", ["house-number", "knapsack", "wine-merchant", "weekday"])
def test_every_complete_solve_has_the_whole_models_solutions(counted, name):
    """Each model a draw asks about, solved through its shape and written whole with its
    values: every complete answer (every solution, or none) is the same set. The weekday
    spec nests comparisons (a count of true statements compared to a number)."""
    import random

    from puzzle_engine_plugins.logic.generator import Generator
    from puzzle_engine_plugins.logic.puzzle import Candidate
    from puzzle_engine_plugins.logic.selection import Redraw

    ptype, eng, counts = counted
    spec = str(TESTS / "data" / "logic-weekday.yaml") \
        if name == "weekday" else name
    params = eng.check_params(ptype, {"spec": spec})
    compared = []

    def solve(model, n, template):
        assert template is not None
        shaped, s1 = eng.solve(ptype, params, Candidate(model, template), nr_solutions=n,
                               goal="satisfy")
        whole, s2 = eng.solve(ptype, params, Candidate(model), nr_solutions=n, goal="satisfy")
        if whole.complete:
            assert (shaped.status, sorted(s1)) == (whole.status, sorted(s2))
            compared.append(len(s2))
        return whole.status, [dict(s) for s in s2]

    gen = Generator(ptype.spec(params["spec"]), solve)
    for seed in range(3):
        try:
            gen.draw(random.Random(seed))
        except Redraw:
            pass
    assert compared and any(compared)  # some complete answers, some with solutions


def test_an_option_loop_ends_once_every_selection_was_met():
    """A plain selection (distinct items, fixed amounts, no conditions) has a known
    number of different options; once all were met, the loop's outcome is known. Any
    condition, duplicates or equal items: never counted as exhausted."""
    from puzzle_engine_plugins.logic.generator import Generator

    plain = {"source": ["range(0, 4)"], "amount": ["2"]}
    known = {("q",): ([[0, 1, 2, 3]], [2])}
    exhausted = Generator._exhausted
    assert exhausted([("q",)], [plain], known, [12]) is True   # 4 * 3 ordered pairs
    assert exhausted([("q",)], [plain], known, [11]) is False
    assert exhausted([("q",)], [{**plain, "order": [False]}], known, [6]) is True  # 4 choose 2
    assert exhausted([("q",)], [plain], {}, [12]) is False  # sources not fixed
    assert exhausted([("q",)], [{**plain, "duplicate": [True]}], known, [99]) is False
    assert exhausted([("q",)], [{**plain, "custom_cond": [{}]}], known, [99]) is False
    assert exhausted([("q",)], [plain], {("q",): ([[0, 0, 2, 3]], [2])}, [99]) is False
    two = [("q",), ("r",)]
    assert exhausted(two, [plain, plain], {**known, ("r",): ([[5]], [2])}, [12, 0]) is True
    assert exhausted(two, [plain, plain], known, [12, 0]) is False
