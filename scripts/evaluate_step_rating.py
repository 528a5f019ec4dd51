"""Evaluate the step rating (puzzle_engine.explain.rating) on labelled Sudoku, and fit the
level model that uses it. Prints Markdown for docs/grading.md.

    .venv/bin/python scripts/evaluate_step_rating.py            # figures only
    .venv/bin/python scripts/evaluate_step_rating.py --save     # and write the level model
    .venv/bin/python scripts/evaluate_step_rating.py --skip 40 --per-label 20  # puzzles 41-60

It joins the grader's feature table (plugins/sudoku/data/sudoku_rated_train.features.csv,
from 'puzzle-engine train'), the step table (…steps.csv, from scripts/sudoku_step_table.py)
and the rating path's table (…effort.csv, from scripts/sudoku_step_table.py --effort) on the
puzzle: the rows of the three are the features 'grade --steps' measures. Every figure is 5-fold stratified cross-validation with a
fixed seed: each puzzle is rated by a model that never saw it.
"""
from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr
from sklearn.model_selection import StratifiedKFold

from puzzle_engine.explain import Fact, Step
from puzzle_engine.explain.ladder import Ladder, Rated
from puzzle_engine.explain.rating import score, step_features
from puzzle_engine.grading.levels import Example, FeatureTable, LevelModel, make_svm

DATA = Path("plugins/sudoku/data")
LABELS = ("simple", "easy", "intermediate", "expert")


def steps_of(text: str) -> list[Step]:
    """The steps of a step-table row: ``SIZE=`` fills a square, ``SIZEx`` rules a value out."""
    return [Step(Fact(0, 0, tok[-1] == "="), tuple(range(int(tok[:-1]))), (), None)
            for tok in text.split(",") if tok]


def ladder_of(text: str, solved: bool) -> Ladder:
    """The rating's path of an effort-table row: ``COST:TECHNIQUE`` steps."""
    steps = [Rated((), tok.split(":", 1)[1], float(tok.split(":", 1)[0]), ())
             for tok in text.split(";") if tok]
    return Ladder(steps, solved)


def chosen(data: Path, skip: int, per_label: int | None) -> set[str]:
    """The puzzles ``skip`` to ``skip + per_label`` (0-based) of each label of ``data``, as
    scripts/sudoku_step_table.py takes them (all of them when ``per_label`` is None)."""
    taken: dict[str, int] = {}
    out = set()
    for r in csv.DictReader(data.open()):
        k = taken[r["label"]] = taken.get(r["label"], -1) + 1
        if skip <= k and (per_label is None or k < skip + per_label):
            out.add(r["puzzle"])
    return out


def read(features: Path, steps: Path, effort: Path, only: set[str] | None = None):
    lines = features.read_text().splitlines()
    head = lines[0]
    table = {r["puzzle"]: r for r in csv.DictReader(lines[1:])}
    names = [f for f in csv.DictReader(lines[1:]).fieldnames if f not in ("puzzle", "label", "rating")]
    ladders = {r["puzzle"]: r for r in csv.DictReader(effort.open())}
    rows, seen = [], set()
    for r in csv.DictReader(steps.open()):  # the first row of a puzzle (two runs may overlap)
        if r["puzzle"] in table and r["puzzle"] in ladders and r["puzzle"] not in seen \
                and (only is None or r["puzzle"] in only):
            seen.add(r["puzzle"])
            rows.append(r)
    G = np.array([[float(table[r["puzzle"]][n]) for n in names] for r in rows])
    step_rows = [step_features(steps_of(r["steps"]), r["solved"] == "1") for r in rows]
    old_scores = [score(f) for f in step_rows]
    step_rows = [step_features(steps_of(r["steps"]), r["solved"] == "1",
                               ladder_of(ladders[r["puzzle"]]["effort"],
                                         ladders[r["puzzle"]]["solved"] == "1")) for r in rows]
    step_names = list(step_rows[0])
    S = np.array([[f[n] for n in step_names] for f in step_rows])
    y = np.array([r["label"] for r in rows])
    rating = np.array([float(r["rating"]) for r in rows])
    return head, rows, names, G, step_names, S, y, rating, [score(f) for f in step_rows], old_scores


def cv_level(X, y, seed=0):
    """Cross-validated level (SVM, the defaults of make_svm) and expected level (the class
    probabilities weighted by the label's rank: a continuous rating)."""
    order = {label: k for k, label in enumerate(LABELS)}
    pred = np.empty(len(y), dtype=object)
    expected = np.zeros(len(y))
    for train, test in StratifiedKFold(5, shuffle=True, random_state=seed).split(X, y):
        model = make_svm(seed, 3).fit(X[train], y[train])
        pred[test] = model.predict(X[test])
        classes = [order[c] for c in model.classes_]
        expected[test] = model.predict_proba(X[test]) @ np.array(classes, float)
    return pred, expected


def cv_regression(X, rating, y, seed=0):
    """Cross-validated predictions of the rating (folds stratified by label)."""
    from sklearn.ensemble import HistGradientBoostingRegressor
    out = np.zeros(len(rating))
    for train, test in StratifiedKFold(5, shuffle=True, random_state=seed).split(X, y):
        model = HistGradientBoostingRegressor(random_state=seed).fit(X[train], rating[train])
        out[test] = model.predict(X[test])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--features", type=Path, default=DATA / "sudoku_rated_train.features.csv")
    ap.add_argument("--steps", type=Path, default=DATA / "sudoku_rated_train.steps.csv")
    ap.add_argument("--effort", type=Path, default=DATA / "sudoku_rated_train.effort.csv")
    ap.add_argument("--data", type=Path, default=DATA / "sudoku_rated_train.csv")
    ap.add_argument("--skip", type=int, default=0, help="start at this puzzle of each label")
    ap.add_argument("--per-label", type=int, help="this many puzzles of each label (default: all)")
    ap.add_argument("--save", type=Path, nargs="?", const=Path("plugins/sudoku/grading/sudoku-9x9-steps.skops"))
    args = ap.parse_args()
    only = chosen(args.data, args.skip, args.per_label) if args.skip or args.per_label else None
    head, rows, names, G, step_names, S, y, rating, scores, old = read(args.features, args.steps,
                                                                        args.effort, only)
    qq = np.array([LABELS.index(label) for label in y], float)
    counts = ", ".join(f"{label} {int(np.sum(y == label))}" for label in LABELS)
    print(f"{len(y)} puzzles ({counts})\n")
    print("Spearman's rho of single quantities (no fitting):\n")
    print("| quantity | rho with the SE rating | rho with QQWing's label |\n| --- | --- | --- |")
    for title, values in [("step rating (`score`: the hardest technique)", np.array(scores)),
                          ("the group-size rating (`score` before the rating's path)", np.array(old)),
                          *((f"`{n}`", S[:, k]) for k, n in enumerate(step_names)),
                          ("`ln_mean_nodes` (the multiple method)", G[:, names.index("ln_mean_nodes")])]:
        if np.ptp(values) == 0:
            print(f"| {title} | constant | constant |")
            continue
        print(f"| {title} | {spearmanr(values, rating)[0]:.3f} | {spearmanr(values, qq)[0]:.3f} |")
    print(f"| QQWing's label itself | {spearmanr(qq, rating)[0]:.3f} | 1 |")
    print("\nThe step rating by label (no fitting): rho within the label, and how often it is "
          "within 0.1 of the SE rating:\n")
    print("| label | puzzles | rho with the SE rating | within 0.1 | SE's range | the step rating's range |")
    print("| --- | ---: | ---: | ---: | --- | --- |")
    sc = np.array(scores)
    for label in LABELS:
        at = y == label
        if not at.any():
            continue
        rho = spearmanr(sc[at], rating[at])[0] if np.ptp(sc[at]) and np.ptp(rating[at]) else float("nan")
        print(f"| {label} | {int(at.sum())} | {rho:.3f} | {np.mean(np.abs(sc[at] - rating[at]) <= 0.1001):.2f} | "
              f"{rating[at].min():g}-{rating[at].max():g} | {sc[at].min():g}-{sc[at].max():g} |")
    print("\nLevels learnt from the labels (SVM, 5-fold; the expected level is the class "
          "probabilities weighted by rank 0-3):\n")
    print("| features | accuracy | rho, level vs SE | rho, expected level vs SE | "
          "rho, expected level vs QQWing |\n| --- | --- | --- | --- | --- |")
    both = np.hstack([G, S])
    sizes = np.hstack([G, S[:, [k for k, n in enumerate(step_names) if not n.startswith("effort")]]])
    for title, X in (("the grader's (30)", G), (f"steps only ({S.shape[1]})", S),
                     (f"the grader's + group sizes ({sizes.shape[1]})", sizes),
                     (f"the grader's + steps ({both.shape[1]})", both)):
        pred, expected = cv_level(X, y)
        level = np.array([LABELS.index(p) for p in pred], float)
        print(f"| {title} | {np.mean(pred == y):.3f} | {spearmanr(level, rating)[0]:.3f} | "
              f"{spearmanr(expected, rating)[0]:.3f} | {spearmanr(expected, qq)[0]:.3f} |")
    print("\nA rating learnt from the SE rating itself (gradient-boosted trees, 5-fold: each "
          "puzzle rated by a model that never saw it):\n")
    print("| features | rho with the SE rating | rho with QQWing's label |\n| --- | --- | --- |")
    for title, X in (("the grader's", G), ("steps only", S), ("the grader's + group sizes", sizes),
                     ("the grader's + steps", both)):
        rated = cv_regression(X, rating, y)
        print(f"| {title} | {spearmanr(rated, rating)[0]:.3f} | {spearmanr(rated, qq)[0]:.3f} |")
    if args.save:
        import json
        signature = {**json.loads(head[len("# grading: "):]), "steps": True}
        table = FeatureTable(Path("/nonexistent/steps-table.csv"), signature)
        table.names = names + step_names
        examples = []
        for k, r in enumerate(rows):
            table.rows[r["puzzle"]] = {"label": r["label"], "rating": float(r["rating"]),
                                       "features": dict(zip(table.names, both[k]))}
            examples.append(Example(k + 2, r["puzzle"], r["label"], float(r["rating"]), ()))
        model = LevelModel.fit(table, examples, {"file": args.steps.name, "per_label": None})
        model.save(args.save)
        print(f"\nwrote {args.save}: {model.trained_on['rows']} puzzles; nested 5-fold: SVM "
              f"{model.evaluation['svm']['accuracy']:.3f}, Spearman {model.evaluation['spearman']}")


if __name__ == "__main__":
    main()
