#!/usr/bin/env bash
# The pictures of docs/user-guide.md, made by the render command itself: a 9x9 and a
# 16x16 Sudoku, a Fillomino and a Combination level, each of the last two with its answer
# key, generated from fixed seeds and drawn
# as PNG (needs the extra 'pdf': scripts/test.sh installs it, or pip install -e '.[pdf]').
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pe="$here/.venv/bin/puzzle-engine"
out="$here/docs/images"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

"$pe" gen sudoku --seed 1 --format json --out "$work/sudoku-9x9.jsonl"
"$pe" gen sudoku --size 16 --seed 3 --format json --out "$work/sudoku-16x16.jsonl"
"$pe" gen fillomino --rows 7 --cols 7 --seed 2 --format json --out "$work/fillomino.jsonl"
for name in sudoku-9x9 sudoku-16x16; do
  "$pe" render "$work/$name.jsonl" --paper fit --per-page 1 --title "Sudoku" --force --out "$out/$name.png"
done
"$pe" render "$work/fillomino.jsonl" --paper fit --per-page 1 --title "Fillomino" --solutions --force \
  --out "$out/fillomino.png"
"$pe" gen combination --seed 1 --format json --out "$work/combination.jsonl"
"$pe" render "$work/combination.jsonl" --paper fit --per-page 1 --title "Combination" --solutions \
  --force --out "$out/combination.png"
