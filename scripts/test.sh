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
# The tests of 'batch --executor dask' need the optional extra [dask] (a Dask LocalCluster).
if ! .venv/bin/python -c "import distributed" >/dev/null 2>&1; then
  echo "[test] installing the optional extra [dask] into .venv" >&2
  if ! .venv/bin/python -m pip install -q -e ".[test,dask]" > .venv/install-dask.log 2>&1; then
    cat .venv/install-dask.log >&2
    echo "test: installing the extra [dask] failed (log above)" >&2
    exit 1
  fi
fi
exec .venv/bin/python -m pytest ${marker[@]+"${marker[@]}"} ${args[@]+"${args[@]}"}
