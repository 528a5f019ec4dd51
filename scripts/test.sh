#!/usr/bin/env bash
# The whole test suite: set up what is missing, then run pytest (extra arguments go to pytest).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$here/scripts/setup.sh"
cd "$here"
exec .venv/bin/python -m pytest "$@"
