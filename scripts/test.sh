#!/usr/bin/env bash
# The test suite: set up what is missing, then run pytest (other arguments go to pytest).
# With --fast, only the tests marked 'fast': they need no solver (a fake one at most) and
# take well under a minute.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
marker=()
args=()
for arg in "$@"; do
  if [ "$arg" = "--fast" ]; then
    marker=(-m fast)
  else
    args+=("$arg")
  fi
done
bash "$here/scripts/setup.sh"
cd "$here"
exec .venv/bin/python -m pytest ${marker[@]+"${marker[@]}"} ${args[@]+"${args[@]}"}
