#!/usr/bin/env bash
# Figures and plot of docs/grading.md from the shipped feature table. Installs matplotlib
# (the package's 'eval' extra) into .venv the first time. Arguments go to
# scripts/evaluate_grading.py (--features TABLE, --plot PNG).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >&2
if ! .venv/bin/python -c 'import matplotlib' 2>/dev/null; then
  echo "[evaluate] installing matplotlib into .venv" >&2
  .venv/bin/python -m pip install -q -e ".[eval]" >&2
fi
exec .venv/bin/python scripts/evaluate_grading.py "$@"
