#!/usr/bin/env bash
# The main job: set up what is missing, then run puzzle-engine with the given arguments.
#   bash scripts/run.sh gen sudoku --size 16
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$here/scripts/setup.sh"
if [ "$#" -eq 0 ]; then set -- gen sudoku --size 16; fi
exec "$here/.venv/bin/puzzle-engine" "$@"
