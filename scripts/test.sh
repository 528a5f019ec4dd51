#!/usr/bin/env bash
# The test suite: set up what is missing, then run pytest (other arguments go to pytest).
# With --fast, only the tests marked 'fast': they need no solver (a fake one at most) and
# take well under a minute.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
marker=()
# The full suite names its 25 slowest tests at the end (where CI's time goes).
report=(--durations=25)
args=()
for arg in "$@"; do
  if [ "$arg" = "--fast" ]; then
    marker=(-m fast)
    report=()
  else
    args+=("$arg")
  fi
done
bash "$here/scripts/setup.sh"
cd "$here"

# Test-only parts (not the user's run command): the pictures' tests rasterise with cairo
# (the [pdf] extra, Debian's libcairo2) and poppler's pdftoppm, draw text in a pinned
# font (DejaVu, the first family the drawings name), and play the HTML page in Debian's
# headless Chromium through its chromedriver. The tests of 'batch --executor dask' need
# the extra [dask] (a Dask LocalCluster).
. "$here/scripts/apt.sh"
missing=()
for pkg in libcairo2 poppler-utils fonts-dejavu-core chromium chromium-driver; do
  if [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)" != "install ok installed" ]; then
    missing+=("$pkg")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  printf '[test] installing %s from Debian\n' "${missing[*]}" >&2
  apt_install "${missing[@]}"
fi
stamp=.venv/.puzzle-engine-test-extras
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  printf '[test] installing the extras pdf, render-test and dask into .venv\n' >&2
  if ! .venv/bin/python -m pip install -q -e ".[test,pdf,render-test,dask]" > .venv/install-test.log 2>&1; then
    cat .venv/install-test.log >&2
    echo "test: installing the test extras into .venv failed (log above)" >&2
    exit 1
  fi
  touch "$stamp"
fi
# One pytest worker per core (pytest-xdist), each module's tests on one worker so that a
# module's fixtures (compiled models, engines) are made once: most tests wait on a solver
# or a command's start-up, so one worker would leave a core idle. PUZZLE_ENGINE_TEST_WORKERS
# sets the count (0: no workers, in this process).
parallel=(-n "${PUZZLE_ENGINE_TEST_WORKERS:-auto}" --dist loadscope)
exec .venv/bin/python -m pytest ${marker[@]+"${marker[@]}"} ${report[@]+"${report[@]}"} "${parallel[@]}" \
  ${args[@]+"${args[@]}"}
