#!/usr/bin/env bash
# Trains the level model that ships with the Sudoku plugin
# (plugins/sudoku/grading/sudoku-9x9.skops) on the labelled data in plugins/sudoku/data.
# The measured features go to plugins/sudoku/data/sudoku_rated_train.features.csv as each
# puzzle is graded; an interrupted run picks up from there. Extra arguments go to
# 'puzzle-engine train' (e.g. --jobs 4).
# The first 1,000 puzzles of each label (4,000 in all): about 30 minutes on 2 idle cores.
# Add --per-label 2000 for all 8,000 (about an hour more; the table keeps what is done).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >&2
exec .venv/bin/puzzle-engine train sudoku --size 9 \
  --data plugins/sudoku/data/sudoku_rated_train.csv \
  --out plugins/sudoku/grading/sudoku-9x9.skops \
  --features plugins/sudoku/data/sudoku_rated_train.features.csv --per-label 1000 "$@"
