"""train, grade and gen --difficulty end to end, on Gecode, with a small labelled file."""
import csv
import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzle_engine.grading import levels as levels_module
from puzzle_engine.cli import app
from support import ROOT

runner = CliRunner()
DATA = ROOT / "plugins" / "sudoku" / "data" / "sudoku_rated_train.csv"
LABELS = ("simple", "easy", "intermediate", "expert")
FAST = ("--runs", "5")


def run(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def one_line_error(result, *words):
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("puzzle-engine: error: "), result.stderr
    for w in words:
        assert w in lines[0], lines[0]
    assert "Traceback" not in result.output


def sample(per_label: int, skip: int = 0) -> list[dict]:
    with open(DATA, newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [r for label in LABELS for r in [x for x in rows if x["label"] == label][skip:skip + per_label]]


def write_csv(path: Path, rows, header=("puzzle", "label", "source_rating")) -> Path:
    with open(path, "w", newline="") as handle:
        w = csv.writer(handle)
        w.writerow(header)
        for r in rows:
            w.writerow([r[h] for h in header])
    return path


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A level model trained on 6 puzzles per label (R = 5)."""
    tmp = tmp_path_factory.mktemp("train")
    data = write_csv(tmp / "small.csv", sample(6))
    out = tmp / "small.skops"
    result = run("train", "sudoku", "--data", data, "--out", out, *FAST)
    assert result.exit_code == 0, result.output
    return tmp, data, out, result.stdout


def test_train_refuses_to_replace_a_model_and_names_a_late_write_failure(trained, tmp_path,
                                                                           monkeypatch):
    """The model file follows the overwrite rule of every --out, before any grading; a
    failure to write it after the work (a full disk) is one line naming it, exit 2."""
    import errno
    tmp, data, out, _ = trained
    features = out.with_suffix(".features.csv")  # every puzzle graded: nothing to do again
    before = out.read_bytes()
    one_line_error(run("train", "sudoku", "--data", data, "--out", out, "--features", features,
                       *FAST), f"{out} already exists and is not empty", "--force")
    assert out.read_bytes() == before

    def full(self, path):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(levels_module.LevelModel, "save", full)
    late = tmp_path / "late.skops"
    one_line_error(run("train", "sudoku", "--data", data, "--out", late, "--features", features,
                       *FAST), f"cannot write {late}: No space left on device")
    assert not late.exists()


def test_train_writes_a_model_with_its_features_and_an_evaluation(trained):
    tmp, data, out, stdout = trained
    assert "wrote" in stdout and "5-fold accuracy" in stdout and "Spearman" in stdout
    saved = levels_module.LevelModel.load(out).__dict__
    assert out.read_bytes()[:2] == b"PK"  # skops: a zip archive, never a pickle
    assert saved["labels"][0] == "simple" and set(saved["labels"]) == set(LABELS)
    assert saved["feature_names"][:2] == ["solutions", "empties"]
    assert "ln_mean_nodes" in saved["feature_names"] and "level_lines_root" in saved["feature_names"]
    assert saved["engine_version"] and saved["sklearn_version"]
    assert saved["grading"]["runs"] == 5 and saved["grading"]["solver"] == "org.gecode.gecode"
    ev = saved["evaluation"]
    assert ev["rows"] == 24 and sum(map(sum, ev["svm"]["confusion"])) == 24
    assert -1 <= ev["spearman"]["ln_mean_nodes"] <= 1
    table = (tmp / "small.features.csv").read_text().splitlines()
    assert table[0].startswith("# grading: ") and len(table) == 2 + 24


def test_grade_prints_nodes_mode_levels_and_probabilities(trained):
    _, _, model, _ = trained
    puzzle = sample(1, skip=10)[3]["puzzle"]  # an expert puzzle the model has not seen
    text = run("grade", "sudoku", puzzle, "--model", model, *FAST)
    assert text.exit_code == 0, text.output
    assert "mean nodes" in text.stdout and "mode plain" in text.stdout
    assert "level (thresholds on ln nodes):" in text.stdout and "level (SVM):" in text.stdout
    as_json = run("grade", "sudoku", puzzle, "--model", model, "--format", "json", *FAST)
    record = json.loads(as_json.stdout)
    assert record["runs"] == 5 and record["mode"] == "plain" and record["mean_nodes"] >= 1
    by = record["levels_by"]
    assert by["svm"] in LABELS and by["thresholds"] in LABELS
    assert sum(by["probabilities"].values()) == pytest.approx(1.0)
    assert set(record["levels"]) == {"singles", "hidden", "subsets", "lines"}


def test_grade_without_a_model_shows_the_measurements():
    """No model ships for 4x4: the measurements alone, and a note on stderr."""
    result = run("grade", "sudoku", "...4.32.....2.4.", "--format", "json",
                 "--runs", "3", "--no-strengthen")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["mode"] == "plain" and record["strengthened"] is None
    assert record["levels_by"] is None and "no level model" in result.stderr
    two = run("grade", "sudoku", "-", "--runs", "3", "--no-strengthen",
              input="...4.32.....2.4.\n..1.2....4.....3\n")
    assert two.exit_code == 0, two.output
    blocks = two.stdout.strip().split("\n\n")  # one block per puzzle, a blank line between
    assert len(blocks) == 2 and all(b.startswith("mean nodes") for b in blocks)


def test_a_model_made_with_other_settings_is_refused(trained, tmp_path, monkeypatch):
    _, _, model, _ = trained
    puzzle = sample(1)[0]["puzzle"]
    one_line_error(run("grade", "sudoku", puzzle, "--model", model, "--runs", "7"),
                   "trained with runs 5, not 7")
    one_line_error(run("grade", "sudoku", puzzle, "--model", model, "--solver", "chuffed", *FAST),
                   "trained with solver")
    saved = levels_module.LevelModel.load(model)
    saved.feature_names = saved.feature_names[:-1] + ["something_else"]
    saved.save(tmp_path / "features.skops")
    one_line_error(run("grade", "sudoku", puzzle, "--model", tmp_path / "features.skops", *FAST),
                   "expects other features", "something_else")
    monkeypatch.setattr(levels_module, "__version__", "9.9.9")
    one_line_error(run("grade", "sudoku", puzzle, "--model", model, *FAST),
                   "trained with puzzle-engine", "9.9.9")
    (tmp_path / "junk.skops").write_text("not a model")
    one_line_error(run("grade", "sudoku", puzzle, "--model", tmp_path / "junk.skops", *FAST),
                   "not a level model")


def test_a_pickled_model_is_never_loaded(tmp_path):
    """A --model file is data: a pickle that would run code when loaded is refused
    unread, and so is a skops file that holds a type a level model never holds."""
    import pickle
    import subprocess
    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (subprocess.call, (["touch", str(marker)],))
    evil = tmp_path / "evil.joblib"
    evil.write_bytes(pickle.dumps({"format": "puzzle-engine-levels/2", "x": Payload()}))
    puzzle = sample(1)[0]["puzzle"]
    one_line_error(run("grade", "sudoku", puzzle, "--model", evil, *FAST),
                   "evil.joblib is a pickle (joblib) file", "not read")
    import skops.io
    odd = tmp_path / "odd.skops"
    skops.io.dump({"format": "puzzle-engine-levels/2", "x": Fraction(1, 3)}, odd)
    one_line_error(run("grade", "sudoku", puzzle, "--model", odd, *FAST),
                   "odd.skops is not a level model", "fractions.Fraction", "not read")
    assert not marker.exists()


def test_train_resumes_from_its_feature_table(tmp_path, monkeypatch):
    rows = sample(3)
    data = write_csv(tmp_path / "d.csv", rows)
    table = tmp_path / "t.csv"
    # a first run over half of the rows, cut short in the middle of the last line
    first = run("train", "sudoku", "--data", write_csv(tmp_path / "half.csv", rows[:6]),
                "--out", tmp_path / "m.skops", "--features", table, *FAST)
    assert first.exit_code == 0, first.output
    table.write_text(table.read_text()[:-10])
    # rows are written as they finish (two at a time), so read which ones survived
    kept = {line.split(",")[0] for line in table.read_text().splitlines(keepends=True)[2:]
            if line.endswith("\n")}
    assert len(kept) == 5
    graded = []
    real = levels_module.FeatureTable.add
    monkeypatch.setattr(levels_module.FeatureTable, "add",
                        lambda self, e, f: graded.append(e.text) or real(self, e, f))
    second = run("train", "sudoku", "--data", data, "--out", tmp_path / "m.skops",
                 "--features", table, "--force", *FAST)
    assert second.exit_code == 0, second.output
    # the 5 complete rows are kept; the cut one and the 6 new ones are graded
    assert sorted(graded) == sorted(r["puzzle"] for r in rows if r["puzzle"] not in kept)
    assert len(table.read_text().splitlines()) == 2 + 12
    one_line_error(run("train", "sudoku", "--data", data, "--out", tmp_path / "m.skops",
                       "--features", table, "--runs", "6", "--force"),
                   "other grading options", "runs")


@pytest.mark.parametrize("content,words", [
    ("puzzle,label\n" + "." * 81 + "\n", ["line 2", "1 field, expected 2"]),
    ("puzzle,label\n" + "1" * 80 + ",easy\n", ["line 2", "field 'puzzle'"]),
    ("puzzle,label,rating\n" + "." * 81 + ",easy,hard\n", ["line 2", "'rating' is not a number"]),
    ("puzzle,label\n" + "." * 81 + ",\n", ["line 2", "'label' is empty"]),
    ("grid,level\n", ["line 1", "puzzle,label"]),
    ("", ["empty file"]),
])
def test_malformed_training_rows_are_one_line_errors(tmp_path, content, words):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    one_line_error(run("train", "sudoku", "--data", path, "--out", tmp_path / "m.skops"),
                   str(path), *words)


def test_a_non_unique_training_puzzle_names_its_line(tmp_path):
    rows = sample(2)
    rows[1] = {**rows[1], "puzzle": "." * 81}
    path = write_csv(tmp_path / "d.csv", rows)
    one_line_error(run("train", "sudoku", "--data", path, "--out", tmp_path / "m.skops", *FAST),
                   "line 3", "2 or more solutions")


def test_gen_difficulty_keeps_only_the_level_asked_for(trained, tmp_path):
    _, _, model, _ = trained
    out = tmp_path / "p.jsonl"
    first = run("gen", "sudoku", "--seed", "3", "--format", "json", "--model", model,
                "--difficulty", "expert", "--attempts", "10", "--out", out)
    assert first.exit_code == 0, first.output
    record = json.loads(out.read_text())
    got = record["difficulty"]
    assert got["level"] == "expert" and got["grader"] == "svm" and got["next_seed"] == record["seed"] + 1
    # grading that puzzle again gives the same level: the record is reproducible
    again = run("grade", "sudoku", out, "--model", model, "--format", "json", *FAST)
    assert json.loads(again.stdout)["levels_by"]["svm"] == "expert"
    # the same seed, asked for a level it does not have, with a single attempt: a clear error
    other = next(label for label in LABELS if label != "expert")
    missed = run("gen", "sudoku", "--seed", str(record["seed"]), "--model", model,
                 "--difficulty", other, "--attempts", "1")
    assert missed.exit_code == 3, missed.output  # nothing found, not bad input (#42.2)
    assert missed.stderr.count("\n") == 1 and f"no '{other}' puzzle in 1 attempts" in \
        missed.stderr, missed.stderr
    one_line_error(run("gen", "sudoku", "--model", model, "--difficulty", "hard"),
                   "unknown --difficulty 'hard'", "simple, easy, intermediate, expert")
    # in two worker processes: the same puzzle, the same note (#40)
    out2 = tmp_path / "w.jsonl"
    pooled = run("gen", "sudoku", "--seed", "3", "--format", "json", "--model", model,
                 "--difficulty", "expert", "--attempts", "10", "--out", out2, "--workers", "2")
    assert pooled.exit_code == 0, pooled.output
    timing = ("seconds", "solver_calls")
    assert ({k: v for k, v in json.loads(out2.read_text()).items() if k not in timing}
            == {k: v for k, v in record.items() if k not in timing})


def test_complexity_difficulty_bins_by_the_trained_levels(trained):
    _, _, model, _ = trained
    result = run("gen", "sudoku", "--seed", "5", "--format", "json", "--model", model,
                 "--complexity", "difficulty", "--target-empty", "30")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["complexity"]["name"] == "difficulty"
    assert record["complexity"]["level"] in LABELS


def test_the_shipped_sudoku_model_grades_without_options():
    puzzle = sample(1, skip=1999)[3]["puzzle"]
    result = run("grade", "sudoku", puzzle, "--format", "json")
    assert result.exit_code == 0, result.output
    by = json.loads(result.stdout)["levels_by"]
    assert by is not None and by["svm"] in LABELS and by["thresholds"] in LABELS


def test_training_on_one_puzzle_per_label_is_refused(tmp_path):
    """Cross-validation needs two puzzles of a label at least: a one-line error, not the
    scikit-learn exception."""
    data = write_csv(tmp_path / "one.csv", sample(1))
    one_line_error(run("train", "sudoku", "--data", data, "--out", tmp_path / "m.skops", *FAST),
                   "training needs at least 2 puzzles of each label")
