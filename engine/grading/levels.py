"""Difficulty levels learnt from labelled puzzles (``puzzle-engine train``).

Two graders come out of one labelled file:

* **thresholds** (paper 003): the median of ln(mean nodes) per label. The labels are
  ordered by that median, and a puzzle gets the label whose median is nearest (the
  boundaries are the midpoints between neighbouring medians).
* **an SVM** (paper 000): a scikit-learn ``Pipeline`` (impute, scale, ``SVC`` with class
  probabilities) over the plugin's features and the grader's measurements.

A level model is persisted with skops (``.skops``), with its feature names, the package
and scikit-learn versions, the grading options and the solver, and it is refused when any
of them does not match the grader at hand. skops, unlike pickle (joblib), loads only the
types it is told to trust, so a model file from elsewhere cannot run code when loaded.
"""
from __future__ import annotations

import csv
import io
import json
import math
import statistics
import threading
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..version import __version__
from ..cache import replace_atomically
from ..errors import PuzzleEngineError, PuzzleInputError
from ..files import read_text
from .multiple import Grade, GradeOptions
from ..types import Board

FORMAT = "puzzle-engine-levels/2"  # /1 was a joblib pickle, refused now
#: The types a level model holds beyond those skops trusts by default (the pipeline's
#: calibration parts); a file that holds any other type is refused unread.
TRUSTED_TYPES = ("numpy.dtype", "sklearn.calibration._CalibratedClassifier",
                 "sklearn.calibration._SigmoidCalibration")
#: How a pickle starts, bare or compressed as joblib writes it (zlib, gzip, bz2, xz, lzma).
_PICKLE_STARTS = (b"\x80", b"\x78\x01", b"\x78\x5e", b"\x78\x9c", b"\x78\xda", b"\x1f\x8b",
                  b"BZh", b"\xfd7zXZ", b"\x5d\x00\x00")
RATING_COLUMNS = ("rating", "source_rating")


class LevelModelError(PuzzleEngineError):
    """A level model file that cannot be used here."""


# -- labelled data ------------------------------------------------------------------------
@dataclass(frozen=True)
class Example:
    line: int
    text: str
    label: str
    rating: float | None
    board: Board


def read_labelled(path: Path, parse: Callable[[str], Board]) -> list[Example]:
    """Rows ``puzzle,label[,rating]`` (``source_rating`` is read as the rating). Any bad
    row is a one-line error naming the file and line."""
    text = read_text(path, encoding="utf-8-sig")  # a byte-order mark from a spreadsheet
    with io.StringIO(text, newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader, None)
        if header is None:
            raise PuzzleInputError(f"{path}: empty file (expected a header 'puzzle,label[,rating]')")
        header = [h.strip() for h in header]
        if header[:2] != ["puzzle", "label"]:
            raise PuzzleInputError(f"{path}, line 1: the header must start with 'puzzle,label', "
                                   f"not '{','.join(header[:2])}'")
        rating_at = next((i for i, h in enumerate(header) if h in RATING_COLUMNS), None)
        examples = []
        for row in reader:
            where = f"{path}, line {reader.line_num}"
            if not row or not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                raise PuzzleInputError(f"{where}: {len(row)} field{'s' * (len(row) != 1)}, expected {len(header)} "
                                       f"({','.join(header)})")
            text, label = row[0].strip(), row[1].strip()
            if not label:
                raise PuzzleInputError(f"{where}: field 'label' is empty")
            rating = None
            if rating_at is not None and row[rating_at].strip():
                try:
                    rating = float(row[rating_at])
                except ValueError:
                    raise PuzzleInputError(f"{where}: field '{header[rating_at]}' is not a number: "
                                           f"'{row[rating_at]}'") from None
            try:
                board = parse(text)
            except PuzzleInputError as exc:
                raise PuzzleInputError(f"{where}: field 'puzzle': {exc}") from None
            examples.append(Example(reader.line_num, text, label, rating, board))
    if not examples:
        raise PuzzleInputError(f"{path}: no puzzles")
    return examples


def first_per_label(examples: Sequence[Example], n: int) -> list[Example]:
    """The first ``n`` examples of each label, in file order."""
    seen: dict[str, int] = {}
    kept = []
    for e in examples:
        seen[e.label] = seen.get(e.label, 0) + 1
        if seen[e.label] <= n:
            kept.append(e)
    return kept


# -- the feature table (a resumable cache) ------------------------------------------------
def grading_signature(options: GradeOptions, solver: str, puzzle: str, params: Mapping) -> dict:
    signature = {"puzzle": puzzle, "params": dict(params), "solver": solver,
                 "runs": options.runs, "cutoff": options.cutoff, "seed": options.seed,
                 "strengthen": options.strengthen, "engine": __version__}
    if options.steps:  # only then: tables and models made before steps existed still match
        signature["steps"] = True
    return signature


class FeatureTable:
    """Measured features per puzzle, appended row by row as each is graded, so that an
    interrupted ``train`` keeps what it finished and resumes from there. The first line
    records the grading options; a table made with others is refused."""

    def __init__(self, path: Path, signature: dict):
        self.path = path
        self.signature = signature
        self.rows: dict[str, dict[str, Any]] = {}
        self.names: list[str] | None = None
        self._lock = threading.Lock()
        if path.exists() and path.stat().st_size > 0:
            self._load()

    def _load(self) -> None:
        text = read_text(self.path, ", so not a feature table of puzzle-engine")
        lines = text.split("\n")
        lines = [ln + "\n" for ln in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
        head = lines[0]
        try:
            found = json.loads(head[len("# grading: "):]) if head.startswith("# grading: ") else None
        except json.JSONDecodeError:
            found = None
        if found is None:
            raise PuzzleInputError(f"{self.path}, line 1: not a feature table of puzzle-engine")
        if found != self.signature:
            diff = ", ".join(f"{k} {found.get(k)!r} (now {v!r})" for k, v in self.signature.items()
                             if found.get(k) != v)
            raise PuzzleInputError(f"{self.path} was measured with other grading options: {diff}; "
                                   "use those options or remove the file")
        complete = [ln for ln in lines[1:] if ln.endswith("\n")]  # drop a line cut short
        reader = csv.DictReader(complete)
        self.names = [f for f in (reader.fieldnames or []) if f not in ("puzzle", "label", "rating")]
        for row in reader:
            try:
                self.rows[row["puzzle"]] = {
                    "label": row["label"], "rating": float(row["rating"]) if row["rating"] else None,
                    "features": {k: float(row[k]) for k in self.names}}
            except (KeyError, TypeError, ValueError):
                raise PuzzleInputError(f"{self.path}, line {reader.line_num + 1}: not a row of "
                                       "this feature table; remove the file to measure "
                                       "afresh") from None
        if len(complete) != len(lines) - 1:
            replace_atomically(self.path, lambda part: part.write_text(head + "".join(complete)))

    def add(self, example: Example, features: Mapping[str, float]) -> None:
        with self._lock:
            names = list(features)
            new = not self.path.exists() or self.path.stat().st_size == 0
            if self.names is None:
                self.names = names
            elif names != self.names:
                raise PuzzleInputError(f"{self.path}: the grader's features changed "
                                       f"({', '.join(names)}); remove the file")
            with open(self.path, "a", newline="") as handle:
                writer = csv.writer(handle, lineterminator="\n")
                if new:
                    handle.write("# grading: " + json.dumps(self.signature, sort_keys=False) + "\n")
                    writer.writerow(["puzzle", "label", "rating", *names])
                rating = "" if example.rating is None else repr(example.rating)
                writer.writerow([example.text, example.label, rating,
                                 *(repr(float(features[k])) for k in names)])
            self.rows[example.text] = {"label": example.label, "rating": example.rating,
                                       "features": dict(features)}


def measure(examples: Sequence[Example], table: FeatureTable, grade: Callable[[Example], Grade],
            jobs: int = 1, progress: Callable[[], None] = lambda: None) -> None:
    """Grade every example not yet in ``table``, ``jobs`` at a time, appending each."""
    todo = [e for e in examples if e.text not in table.rows]

    def one(example: Example) -> None:
        table.add(example, grade(example).features())  # grade's errors name the line

    if jobs <= 1:
        for e in todo:
            one(e)
            progress()
        return
    with ThreadPoolExecutor(jobs) as pool:
        futures = [pool.submit(one, e) for e in todo]
        try:
            for future in as_completed(futures):
                future.result()
                progress()
        except BaseException:
            for f in futures:
                f.cancel()
            raise


# -- the two graders ------------------------------------------------------------------------
def fit_thresholds(ln_nodes: Sequence[float], labels: Sequence[str]) -> dict[str, Any]:
    by = {}
    for x, y in zip(ln_nodes, labels):
        by.setdefault(y, []).append(x)
    first_seen = list(dict.fromkeys(labels))
    medians = {y: statistics.median(xs) for y, xs in by.items()}
    order = sorted(by, key=lambda y: (medians[y], first_seen.index(y)))
    return {"labels": order, "medians": [medians[y] for y in order]}


def predict_threshold(thresholds: Mapping[str, Any], ln_nodes: float) -> str:
    medians = thresholds["medians"]
    best = min(range(len(medians)), key=lambda i: (abs(ln_nodes - medians[i]), i))
    return thresholds["labels"][best]


SVM_GRID = {"C": (1.0, 10.0, 100.0), "gamma": (0.003, 0.01, "scale")}


def make_svm(seed: int = 0, calibration_folds: int = 5, C: float = 10.0, gamma: Any = "scale"):
    """Impute, scale, and an RBF ``SVC`` whose scores are calibrated into class
    probabilities (scikit-learn 1.9's replacement for ``SVC(probability=True)``)."""
    from sklearn.calibration import CalibratedClassifierCV  # lazy: scikit-learn loads only to train or grade by a level model
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC
    svc = SVC(C=C, gamma=gamma, random_state=seed)
    steps = [("impute", SimpleImputer(strategy="median", keep_empty_features=True)),
             ("scale", StandardScaler())]
    if calibration_folds:
        return Pipeline([*steps, ("svm", CalibratedClassifierCV(svc, ensemble=False, cv=calibration_folds))])
    return Pipeline([*steps, ("svm", svc)])


def fit_svm(X, y, seed: int = 0):
    """Pick C and gamma from ``SVM_GRID`` by 3-fold cross-validation on (X, y) alone, then
    fit the calibrated pipeline with them. Returns the pipeline and the chosen values."""
    import numpy as np  # lazy: scikit-learn loads only to train or grade by a level model
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    X, y = np.asarray(X, float), np.asarray(y)
    folds = _calibration_folds(y.tolist())
    grid = {f"svm__{k}": list(v) for k, v in SVM_GRID.items()}
    search = GridSearchCV(make_svm(seed, 0), grid, n_jobs=-1,
                          cv=StratifiedKFold(min(3, folds), shuffle=True, random_state=seed))
    search.fit(X, y)
    best = {k.removeprefix("svm__"): v for k, v in search.best_params_.items()}
    return make_svm(seed, folds, **best).fit(X, y), best


def _calibration_folds(labels: Sequence[str]) -> int:
    return max(2, min(5, min(list(labels).count(y) for y in set(labels))))


def cross_validate(X, y, ln_nodes, ratings, folds: int = 5, seed: int = 0) -> dict[str, Any]:
    """Stratified k-fold accuracy and confusion matrices of both graders, and Spearman's
    rho of ln(mean nodes) and of each grader's level against the rating."""
    import numpy as np  # lazy: scikit-learn loads only to train or grade by a level model
    from scipy.stats import spearmanr
    from sklearn.metrics import confusion_matrix
    from sklearn.model_selection import StratifiedKFold

    X, y, ln_nodes = np.asarray(X, float), np.asarray(y), np.asarray(ln_nodes, float)
    svm_pred = np.empty(len(y), dtype=object)
    thr_pred = np.empty(len(y), dtype=object)
    for train, test in StratifiedKFold(folds, shuffle=True, random_state=seed).split(X, y):
        model, _ = fit_svm(X[train], y[train], seed)
        svm_pred[test] = model.predict(X[test])
        th = fit_thresholds(ln_nodes[train].tolist(), y[train].tolist())
        thr_pred[test] = [predict_threshold(th, v) for v in ln_nodes[test]]
    order = fit_thresholds(ln_nodes.tolist(), y.tolist())["labels"]
    result: dict[str, Any] = {"folds": folds, "rows": int(len(y)), "labels": order}
    for name, pred in (("svm", svm_pred), ("thresholds", thr_pred)):
        result[name] = {"accuracy": float(np.mean(pred == y)),
                        "confusion": confusion_matrix(y, pred.astype(str), labels=order).tolist()}
    rated = [i for i, r in enumerate(ratings) if r is not None and not math.isnan(r)]
    if len(rated) > 2:
        r = np.asarray([ratings[i] for i in rated], float)
        rank = {label: k for k, label in enumerate(order)}
        result["spearman"] = {
            "ln_mean_nodes": float(spearmanr(ln_nodes[rated], r)[0]),
            "svm_level": float(spearmanr([rank[svm_pred[i]] for i in rated], r)[0]),
            "threshold_level": float(spearmanr([rank[thr_pred[i]] for i in rated], r)[0]),
            "label": float(spearmanr([rank[y[i]] for i in rated], r)[0]),
        }
    return result


# -- the persisted model ------------------------------------------------------------------
@dataclass
class LevelModel:
    puzzle: str
    params: dict[str, Any]
    grading: dict[str, Any]       # the grading signature the features were measured with
    feature_names: list[str]
    labels: list[str]             # ordered easiest first (by median ln nodes)
    thresholds: dict[str, Any]
    pipeline: Any
    engine_version: str
    sklearn_version: str
    trained_on: dict[str, Any]
    evaluation: dict[str, Any] | None = None
    source: str = "the level model"   # where it was loaded from, for messages

    @classmethod
    def fit(cls, table: FeatureTable, examples: Iterable[Example], trained_on: dict[str, Any],
            evaluate: bool = True) -> LevelModel:
        import sklearn  # lazy: scikit-learn loads only to train or grade by a level model
        rows = [table.rows[e.text] for e in examples]
        names = table.names or []
        X = [[r["features"][k] for k in names] for r in rows]
        y = [r["label"] for r in rows]
        ln = [r["features"]["ln_mean_nodes"] for r in rows]
        if len(set(y)) < 2:
            raise PuzzleInputError("training needs at least two labels")
        smallest = min(y.count(label) for label in set(y))
        if smallest < 2:
            few = sorted(label for label in set(y) if y.count(label) < 2)
            raise PuzzleInputError(f"training needs at least 2 puzzles of each label; "
                                   f"{', '.join(few)} {'has' if len(few) == 1 else 'have'} one")
        thresholds = fit_thresholds(ln, y)
        pipeline, chosen = fit_svm(X, y)
        evaluation = None
        if evaluate and smallest >= 5:
            evaluation = cross_validate(X, y, ln, [r["rating"] for r in rows])
        sig = table.signature
        return cls(puzzle=sig["puzzle"], params=sig["params"], grading=sig, feature_names=names,
                   labels=thresholds["labels"], thresholds=thresholds, pipeline=pipeline,
                   engine_version=__version__, sklearn_version=sklearn.__version__,
                   trained_on={**trained_on, "rows": len(rows), "svm": chosen},
                   evaluation=evaluation)

    def save(self, path: Path) -> None:
        import skops.io  # lazy: scikit-learn loads only to train or grade by a level model
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_atomically(path, lambda part: skops.io.dump(
            {"format": FORMAT, **self.__dict__}, part, compression=zipfile.ZIP_DEFLATED,
            compresslevel=9))

    @classmethod
    def load(cls, path) -> LevelModel:
        """The model in ``path`` (a file, or a plugin's package resource). A file that is
        not a skops level model, or holds a type a level model never holds, is refused
        before anything in it is built: nothing in it can run."""
        import skops.io  # lazy: scikit-learn loads only to train or grade by a level model
        import sklearn
        name = getattr(path, "name", str(path))
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise LevelModelError(f"level model {path} does not exist") from None
        except OSError as exc:
            raise LevelModelError(f"cannot read level model {path}: {exc.strerror}") from None
        if raw.startswith(_PICKLE_STARTS):
            raise LevelModelError(f"{name} is a pickle (joblib) file, which could run any code "
                                  "when loaded, so it is not read: level models are .skops "
                                  "files from 'puzzle-engine train'")
        try:
            untrusted = set(skops.io.get_untrusted_types(data=raw)) - set(TRUSTED_TYPES)
        except Exception as exc:  # noqa: BLE001 - not a skops file at all
            raise LevelModelError(f"{name} is not a level model of puzzle-engine "
                                  f"({type(exc).__name__})") from None
        if untrusted:
            raise LevelModelError(f"{name} is not a level model of puzzle-engine: it holds "
                                  f"{', '.join(sorted(untrusted))}, which is not read")
        try:
            data = skops.io.loads(raw, trusted=list(TRUSTED_TYPES))
        except Exception as exc:  # noqa: BLE001 - a corrupt file
            raise LevelModelError(f"{name} is not a level model of puzzle-engine "
                                  f"({type(exc).__name__})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise LevelModelError(f"{name} is not a level model of puzzle-engine ({FORMAT})")
        data.pop("format")
        try:
            model = cls(**{**data, "source": str(path)})
        except TypeError:  # fields of another kind of file
            raise LevelModelError(f"{name} is not a level model of puzzle-engine ({FORMAT})") from None
        if model.engine_version != __version__:
            raise LevelModelError(f"{name} was trained with puzzle-engine {model.engine_version}, "
                                  f"this is {__version__}: retrain it with 'puzzle-engine train'")
        if model.sklearn_version.split(".")[:2] != sklearn.__version__.split(".")[:2]:
            raise LevelModelError(f"{name} was written by scikit-learn {model.sklearn_version}, "
                                  f"this is {sklearn.__version__}: retrain it with 'puzzle-engine train'")
        return model

    def check_compatible(self, signature: Mapping[str, Any], feature_names: Sequence[str]) -> None:
        """Refuse a model whose puzzle, grading options, solver or features differ."""
        name = self.source
        for key in ("puzzle", "params", "solver", "runs", "cutoff", "seed", "strengthen", "steps"):
            if self.grading.get(key) != signature.get(key):
                raise LevelModelError(
                    f"{name} was trained with {key} {self.grading.get(key)!r}, not "
                    f"{signature.get(key)!r}: grade with the same settings or retrain it")
        if list(feature_names) != list(self.feature_names):
            missing = [f for f in self.feature_names if f not in feature_names]
            extra = [f for f in feature_names if f not in self.feature_names]
            raise LevelModelError(f"{name} expects other features (missing: {', '.join(missing) or '-'}; "
                                  f"new: {', '.join(extra) or '-'}): retrain it with 'puzzle-engine train'")

    def grade_options(self, jobs: int = 1) -> GradeOptions:
        """The grading options the model was trained with."""
        g = self.grading
        return GradeOptions(runs=g["runs"], cutoff=g["cutoff"], seed=g["seed"],
                            strengthen=g["strengthen"], jobs=jobs, steps=bool(g.get("steps")))

    def predict(self, grade: Grade) -> dict[str, Any]:
        import numpy as np  # lazy: scikit-learn loads only to train or grade by a level model
        feats = grade.features()
        x = np.asarray([[feats[k] for k in self.feature_names]], float)
        proba = self.pipeline.predict_proba(x)[0]
        classes = [str(c) for c in self.pipeline.classes_]
        probabilities = {label: round(float(proba[classes.index(label)]), 4) for label in self.labels}
        return {"svm": str(self.pipeline.predict(x)[0]),
                "thresholds": predict_threshold(self.thresholds, grade.ln_nodes),
                "probabilities": probabilities}
