"""Evaluate the graders on a feature table written by 'puzzle-engine train' and draw the
plot in docs/grading.md. Prints Markdown.

    bash scripts/evaluate_grading.sh      # installs matplotlib (the 'eval' extra), then runs this

Everything is 5-fold stratified cross-validation with a fixed seed, so the figures repeat
exactly. Nothing is graded again: the table holds the measurements.
"""
from __future__ import annotations

import argparse
import csv
import math
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr
from sklearn.model_selection import StratifiedKFold

from puzzle_engine.grading.levels import LevelModel, cross_validate, fit_svm, fit_thresholds, make_svm

GROUPS = {
    "board (paper 000)": lambda f: not (f.startswith("level_") or f in SOLVER),
    "multiple method": lambda f: f in SOLVER,
    "propagation levels": lambda f: f.startswith("level_"),
}
SOLVER = {"ln_mean_nodes", "ln_sd_nodes", "ln_mean_failures", "ln_mean_propagations",
          "mean_depth", "mode_strengthened", "ln_strengthened_nodes"}


def read(path: Path, keep: set[str] | None = None):
    """The feature table's rows (only the puzzles in ``keep``, when given), in table order."""
    lines = path.read_text().splitlines()
    reader = csv.DictReader(lines[1:])  # line 1 is '# grading: {...}'
    names = [f for f in reader.fieldnames if f not in ("puzzle", "label", "rating")]
    rows = [r for r in reader if keep is None or r["puzzle"] in keep]
    X = np.array([[float(r[f]) for f in names] for r in rows])
    y = np.array([r["label"] for r in rows])
    rating = np.array([float(r["rating"]) if r["rating"] else math.nan for r in rows])
    return names, X, y, rating


def cv_accuracy(X, y, svm_params, folds=5, seed=0) -> float:
    """5-fold accuracy of the SVM on a subset of the features, with C and gamma fixed (the
    values the full model chose), so that the ablations take a minute, not an hour."""
    hits = 0
    for train, test in StratifiedKFold(folds, shuffle=True, random_state=seed).split(X, y):
        model = make_svm(seed, 0, **svm_params).fit(X[train], y[train])
        hits += int(np.sum(model.predict(X[test]) == y[test]))
    return hits / len(y)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--features", type=Path,
                    default=Path("plugins/sudoku/data/sudoku_rated_train.features.csv"))
    ap.add_argument("--plot", type=Path, default=Path("docs/grading_nodes_vs_rating.png"))
    ap.add_argument("--model", type=Path, default=Path("plugins/sudoku/grading/sudoku-9x9.skops"))
    ap.add_argument("--recompute", action="store_true",
                    help="repeat the nested cross-validation instead of reading it from --model")
    ap.add_argument("--data", type=Path, default=Path("plugins/sudoku/data/sudoku_rated_train.csv"),
                    help="the labelled file the model was trained on: the table may hold more "
                         "puzzles than the model used (--per-label), and only those are evaluated")
    args = ap.parse_args()
    model = LevelModel.load(args.model)
    trained_on = model.trained_on
    keep = None
    if trained_on.get("per_label"):
        with open(args.data, newline="") as handle:
            rows = list(csv.DictReader(handle))
        seen: dict[str, int] = {}
        keep = set()
        for r in rows:
            seen[r["label"]] = seen.get(r["label"], 0) + 1
            if seen[r["label"]] <= trained_on["per_label"]:
                keep.add(r["puzzle"])
    names, X, y, rating = read(args.features, keep)
    ln = X[:, names.index("ln_mean_nodes")]
    labels = fit_thresholds(ln.tolist(), y.tolist())["labels"]
    counts = ", ".join(f"{label} {int(np.sum(y == label))}" for label in labels)
    print(f"{len(y)} puzzles ({counts}), {len(names)} features, from {args.features}\n")

    # The nested 5-fold evaluation 'puzzle-engine train' made and stored in the model (it
    # takes minutes on 8,000 puzzles); --recompute repeats it here on the table's rows.
    ev = (cross_validate(X, y, ln, rating.tolist()) if args.recompute
          else model.evaluation)
    print(f"Graders' figures from {'this table' if args.recompute else args.model} "
          f"({ev['rows']} puzzles, {ev['folds']}-fold, C and gamma chosen inside each fold):\n")
    print("| grader | 5-fold accuracy |\n| --- | --- |")
    print(f"| thresholds on ln(mean nodes) | {ev['thresholds']['accuracy']:.3f} |")
    print(f"| SVM, all features | {ev['svm']['accuracy']:.3f} |\n")

    _, chosen = fit_svm(X, y)
    print(f"Contribution of each feature group (SVM with C = {chosen['C']}, gamma = "
          f"{chosen['gamma']}, the values chosen on all features; 5-fold accuracy):\n")
    print("| features | accuracy |\n| --- | --- |")
    for title, keep in [*GROUPS.items(),
                        ("board + multiple method", lambda f: not f.startswith("level_")),
                        ("all but the multiple method", lambda f: f not in SOLVER),
                        ("all but board", lambda f: f.startswith("level_") or f in SOLVER)]:
        cols = [i for i, f in enumerate(names) if keep(f)]
        print(f"| {title} ({len(cols)}) | {cv_accuracy(X[:, cols], y, chosen):.3f} |")
    level_names = [f for f in names if f.startswith("level_") and f.endswith("_root")]
    for k in range(1, len(level_names) + 1):  # the levels added one by one, weakest first
        used = [n[len("level_"):-len("_root")] for n in level_names[:k]]
        cols = [i for i, f in enumerate(names) if any(f.startswith(f"level_{u}_") for u in used)]
        print(f"| levels {', '.join(used)} only ({len(cols)}) | {cv_accuracy(X[:, cols], y, chosen):.3f} |")
    print()

    for name in ("svm", "thresholds"):
        print(f"Confusion matrix, {name} (rows: true label, columns: predicted):\n")
        print("| | " + " | ".join(ev["labels"]) + " |\n|" + " --- |" * (len(ev["labels"]) + 1))
        for label, row in zip(ev["labels"], ev[name]["confusion"]):
            print(f"| {label} | " + " | ".join(str(v) for v in row) + " |")
        print()

    print("Spearman's rho against the source's rating (Sukaku Explainer):\n")
    print("| quantity | rho |\n| --- | --- |")
    for key, value in ev["spearman"].items():
        print(f"| {key} | {value:.3f} |")
    ok = ~np.isnan(rating)
    for f in level_names:
        print(f"| {f} (1 = solved by propagation) | "
              f"{spearmanr(X[ok, names.index(f)], rating[ok])[0]:.3f} |")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rng = np.random.default_rng(0)
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=110)
    colours = dict(zip(labels, ("tab:green", "tab:blue", "tab:orange", "tab:red", "tab:purple")))
    for label in reversed(labels):  # the easiest on top: they pile up at ln = 0
        m = (y == label) & ok
        ax.scatter(rating[m] + rng.uniform(-0.04, 0.04, m.sum()),
                   ln[m] + rng.uniform(-0.06, 0.06, m.sum()), s=7, alpha=0.5,
                   color=colours[label], label=f"{label} ({m.sum()})")
    ax.set_xlabel("source rating (Sukaku Explainer)")
    ax.set_ylabel("ln(mean search nodes), R = 50, Gecode")
    ax.set_title("Multiple-method grade against the source's rating (points jittered)")
    handles, names_ = ax.get_legend_handles_labels()
    ax.legend(handles[::-1], names_[::-1], title="QQWing label", markerscale=2, loc="upper left")
    fig.tight_layout()
    args.plot.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.plot)
    print(f"\nplot: {args.plot}")


if __name__ == "__main__":
    main()
