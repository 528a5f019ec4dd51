"""The step rating's path (puzzle_engine.explain.ladder): each step classed by the groups and
the facts its reason needs, on small hand-made 4x4 Sudoku positions, with the real
explainer (MiniZinc flattening, CP-SAT checks)."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from puzzle_engine import ConstraintGroup, ConstraintGroups
from puzzle_engine.cli import app
from puzzle_engine.engine import Engine
from puzzle_engine.errors import PluginError
from puzzle_engine.explain import Explainer, Fact
from puzzle_engine.explain import ladder as ladder_module
from puzzle_engine.explain.ladder import COSTS, Ladder, Rater, _forced_by, rate
from puzzle_engine.explain.rating import rated_path, score, step_features
from puzzle_engine.solving.backend import Backend
from support import ROOT

SUDOKU_4 = "...4.32.....2.4."  # unique (gen sudoku --size 4 --seed 1)
# 1 at r2c3 and r3c2: the box of r1c1 has one place left for 1 (a hidden single in a
# box), while r1c1 itself still has every value (no naked single there).
HIDDEN_IN_BOX = "......1..1......"
# r1c3 = 1, r2c2 = 3, r3c1 = 2: r1c1 has only 4 left (a naked single), and 4 has two or
# more places in each of r1c1's row, column and box (no hidden single there).
NAKED = "..1..3..2......."
# A 9x9: row 1 is 234567 then three empty squares; columns 7 and 8 hold a 1 lower down, so
# row 1 has one place left for 1, r1c9, and its box three (a line, not a box); r1c9 still
# has 1, 8 and 9 (no naked single), and row 1 has three squares empty (no full house).
HIDDEN_IN_ROW = "234567..." + "." * 18 + "......1.." + "." * 18 + ".......1." + "." * 18
# The last square of row 1: a full house, whatever else it is.
FULL_HOUSE = "234." + "." * 12
# Row 1 is 1 . . 4 and r2c2 = 3: r1c2 has only 2 left but is not placed, so r1c3 = 3 is a
# hidden single in row 1 (r1c2 cannot be 3), not a full house.
NOT_FULL = "1..4.3.........."


@pytest.fixture(scope="module")
def cpsat_engine(host):
    return Engine(host, Backend("cp-sat"))


def _explainer(engine, sudoku, text):
    parsed = sudoku.parse({"size": None, "box": None, "choose": None}, text)
    return Explainer(engine, sudoku, parsed.params, parsed.instance)


def _rater(engine, sudoku, text):
    rater = Rater(_explainer(engine, sudoku, text))
    rater._free()  # the pencil marks: what placed values rule out
    return rater


def test_a_hidden_single_in_a_box_is_not_a_naked_single(cpsat_engine, sudoku):
    rater = _rater(cpsat_engine, sudoku, HIDDEN_IN_BOX)
    hidden = {s.facts[0]: s for s in rater.hidden_singles()}
    step = hidden[Fact(0, 1, True)]
    assert step.technique == "hidden single" and step.cost == COSTS["hidden single"]
    assert [rater.ex.names[g] for g in step.groups] == ["box 1,1"]
    assert not rater.naked_singles()
    assert rater.ex.domains[0] == {1, 2, 3, 4}


def test_a_naked_single_is_not_a_hidden_single(cpsat_engine, sudoku):
    rater = _rater(cpsat_engine, sudoku, NAKED)
    assert rater.ex.domains[0] == {4}
    assert [s.facts for s in rater.naked_singles()] == [(Fact(0, 4, True),)]
    assert rater.naked_singles()[0].cost == COSTS["naked single"]
    assert all(s.facts[0].square != 0 for s in rater.hidden_singles())


def test_a_hidden_single_in_a_line_costs_the_lines_weight(cpsat_engine, sudoku):
    rater = _rater(cpsat_engine, sudoku, HIDDEN_IN_ROW)
    steps = [s for s in rater.hidden_singles() if s.facts == (Fact(8, 1, True),)]
    assert [(rater.ex.names[s.groups[0]], s.technique) for s in steps] == [("row 1", "hidden single")]
    assert steps[0].cost == pytest.approx(COSTS["hidden single"] + 0.3)
    assert rater.ex.domains[8] == {1, 8, 9}


def test_the_last_square_of_a_unit_is_a_full_house(cpsat_engine, sudoku):
    rater = _rater(cpsat_engine, sudoku, FULL_HOUSE)
    steps = [s for s in rater.hidden_singles() if s.facts == (Fact(3, 1, True),)]
    assert [(rater.ex.names[s.groups[0]], s.technique, s.cost) for s in steps] == \
        [("row 1", "full house", COSTS["full house"])]
    # The cheapest first: the full house (1.0) before the naked single it also is (2.3).
    first = rate(rater.ex).steps[0]
    assert first.facts == (Fact(3, 1, True),) and first.technique == "full house"


def test_a_square_with_one_value_left_is_not_placed(cpsat_engine, sudoku):
    rater = _rater(cpsat_engine, sudoku, NOT_FULL)
    assert rater.ex.domains[1] == {2} and not rater.ex.known[1]
    steps = [s for s in rater.hidden_singles() if s.facts == (Fact(2, 3, True),)]
    assert ("row 1", "hidden single") in [(rater.ex.names[s.groups[0]], s.technique) for s in steps]
    assert "full house" not in [s.technique for s in steps]


def test_the_rating_path_solves_and_rates_the_hardest_step(cpsat_engine, sudoku):
    ex = _explainer(cpsat_engine, sudoku, SUDOKU_4)
    ladder = rate(ex)
    assert ladder.solved and not any(ex.known[x] for x in range(16) if SUDOKU_4[x] == ".")
    feats = ladder.features()
    assert feats["effort_max"] == max(s.cost for s in ladder.steps)
    placed = [f for s in ladder.steps for f in s.facts if f.equal]
    assert len(placed) == SUDOKU_4.count(".")
    assert all(ex.solution[f.square] == f.value for s in ladder.steps for f in s.facts if f.equal)
    assert all(ex.solution[f.square] != f.value for s in ladder.steps for f in s.facts if not f.equal)


def test_explain_and_grade_report_the_step_rating():
    out = CliRunner().invoke(app, ["explain", "sudoku", SUDOKU_4, "--format", "json"])
    assert out.exit_code == 0, out.stderr
    rating = json.loads(out.stdout)["rating"]
    assert rating["score"] == rating["effort_max"] >= COSTS["full house"]
    out = CliRunner().invoke(app, ["explain", "sudoku", SUDOKU_4])
    assert out.exit_code == 0 and f"step rating {rating['score']:.2f} (hardest technique" in out.stdout
    out = CliRunner().invoke(app, ["grade", "sudoku", SUDOKU_4, "--steps", "--runs", "3",
                                   "--format", "json"])
    assert out.exit_code == 0, out.stderr
    assert json.loads(out.stdout)["steps"]["effort_max"] == rating["effort_max"]


def test_a_bad_group_weight_is_the_plugins_error(cpsat_engine, sudoku, monkeypatch):
    params = sudoku.check_params({"size": 4, "box": None, "choose": None})
    good = sudoku.constraint_groups(params, (0,) * 16)
    bad = ConstraintGroups(tuple(ConstraintGroup(g.name, g.constraint, -1.0) for g in good.groups),
                           good.data)
    monkeypatch.setattr(sudoku, "constraint_groups", lambda params, instance: bad)
    with pytest.raises(PluginError, match="weight"):
        rate(Explainer(cpsat_engine, sudoku, params, (0,) * 16))


def test_rules_in_one_group_get_no_technique_rating(cpsat_engine, sudoku, monkeypatch):
    """A type that declares no groups (the rules are one group) cannot have its steps
    classed: one group alone forces every value of a unique puzzle from the givens, so
    every square would be a "full house" and every puzzle rated 1.0. The rating falls back
    to the reason sizes instead."""
    monkeypatch.setattr(sudoku, "constraint_groups", lambda params, instance: None)
    ex = _explainer(cpsat_engine, sudoku, SUDOKU_4)
    assert list(ex.names) == ["the rules"]
    result, feats = rated_path(ex)
    assert result.solved and "effort_max" not in feats
    assert score(feats) == score(step_features(result.steps, result.solved))


@pytest.mark.parametrize("weight, kind", [(float("nan"), "box"), ("0.3", "box"), (0.3, 3)])
def test_a_bad_weight_or_kind_is_refused_with_the_groups(cpsat_engine, sudoku, monkeypatch,
                                                        weight, kind):
    """Checked where the groups are read, so a hint (which walks no rating path) refuses
    them too, and the one-line error names the group and the field."""
    params = sudoku.check_params({"size": 4, "box": None, "choose": None})
    good = sudoku.constraint_groups(params, (0,) * 16)
    bad = ConstraintGroups((ConstraintGroup(good.groups[0].name, good.groups[0].constraint,
                                            weight, kind), *good.groups[1:]), good.data)
    monkeypatch.setattr(sudoku, "constraint_groups", lambda params, instance: bad)
    field = "weight" if kind == "box" else "kind"
    with pytest.raises(PluginError, match=f"{field} of '{good.groups[0].name}'") as err:
        Explainer(cpsat_engine, sudoku, params, (0,) * 16)
    assert "\n" not in str(err.value)


# An expert puzzle of the rating table whose path takes eight classes of step (a chain,
# hidden, naked and direct hidden subsets, intersections, singles, full houses).
EIGHT_CLASSES = "..53..7........8.4....6...3.8.1.........596.....47...5......1.8..19..47.47..8..36"


class _Checked(Rater):
    """A rater that checks, before applying it, that each step follows from what its class
    says: its groups, and only the facts the class allows (a new solver check each)."""

    def _apply(self, facts) -> None:
        step, ex = self.taken[-1], self.ex
        assert step.facts == tuple(facts)
        groups, value = frozenset(step.groups), step.facts[0].value
        every = step.technique.removeprefix("direct ")
        keep = (lambda f: f.equal) if every == "full house" else \
            (lambda f: f.equal or f.value == value)
        for fact in facts:
            assert (ex.solution[fact.square] == fact.value) == fact.equal
            assert not ex.known[fact.square] and fact.value in ex.domains[fact.square]
            if every == "naked single":
                assert ex.domains[fact.square] == {fact.value} and not groups
                continue
            assert len(groups) == {"full house": 1, "hidden single": 1, "intersection": 2,
                                   "naked subset": 1, "hidden subset": 1}.get(every, len(groups))
            assert len(groups) >= 3 or every not in ("fish", "chain")
            if every in ("full house", "hidden single", "intersection", "fish"):
                assert _forced_by(ex, groups, fact, keep), (step, fact)
            else:  # any fact known now (a larger reason may use the square's own)
                alone = ex._model(groups, keep=False)  # the model of these groups alone
                assert ex._forces(groups, fact, within=alone) is not None, (step, fact)
        if every == "intersection":  # its source holds none of the squares it changes
            assert any(not {f.square for f in facts} & set(ex._scope[g]) for g in groups)
        self.seen.add(step.technique)
        super()._apply(facts)


@pytest.mark.slow
def test_every_step_of_the_rating_path_follows_from_its_class(cpsat_engine, sudoku, monkeypatch):
    """Soundness of the classes: each step of a 9x9 expert path is forced by its groups and
    the facts its class allows, is true in the solution, and changes the state. The
    explainer's ``max_size`` (``explain --max-size``, which its chains exceed) bounds the
    explanation, not the rating."""
    parsed = sudoku.parse({"size": None, "box": None, "choose": None}, EIGHT_CLASSES)
    rater = _Checked(Explainer(cpsat_engine, sudoku, parsed.params, parsed.instance, max_size=2))
    rater.seen, rater.taken = set(), []  # the path's steps: the last is the one applied
    monkeypatch.setattr(ladder_module, "Ladder", lambda: Ladder(rater.taken))
    path = rater.run()
    assert path.solved and path.steps is rater.taken
    assert rater.seen >= {"full house", "hidden single", "intersection", "naked single",
                          "naked subset", "hidden subset", "direct hidden subset", "chain"}


@pytest.mark.fast
def test_the_unseen_figure_is_reproduced_from_the_committed_tables():
    """docs/grading.md's rho 0.997 (SE) and 0.859 (QQWing) on puzzles 41-60 of each label
    come from the committed tables by scripts/evaluate_step_rating.py --skip 40
    --per-label 20 (its selection and reading, without the models it fits)."""
    import importlib.util

    from scipy.stats import spearmanr
    root = ROOT
    spec = importlib.util.spec_from_file_location("evaluate_step_rating",
                                                  root / "scripts" / "evaluate_step_rating.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    data = root / script.DATA
    only = script.chosen(data / "sudoku_rated_train.csv", 40, 20)
    _, rows, *_, y, rating, scores, _ = script.read(
        data / "sudoku_rated_train.features.csv", data / "sudoku_rated_train.steps.csv",
        data / "sudoku_rated_train.effort.csv", only)
    assert len(rows) == 80 and sorted(set(y)) == sorted(script.LABELS)
    qq = [script.LABELS.index(label) for label in y]
    assert round(spearmanr(scores, rating)[0], 3) == 0.997
    assert round(spearmanr(scores, qq)[0], 3) == 0.859
    docs = (root / "docs" / "grading.md").read_text()
    assert "evaluate_step_rating.py --skip 40 --per-label 20" in docs
    assert "rho 0.997 with the SE rating, 0.859 with QQWing's labels" in docs
