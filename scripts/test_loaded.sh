#!/usr/bin/env bash
# The timing-sensitive tests (signals, child processes, batches and their resumption,
# time-outs, a store opened by two at once) through scripts/test.sh, under a synthetic
# load: 2 busy processes per CPU (4 on 2 cores; PUZZLE_ENGINE_TEST_LOAD=N for another
# number), started here and ended when this script ends, however it ends. They must pass
# as on an idle machine: a test waits for an event (a marker file, a line, a row in the
# store), never for a time. Arguments go to pytest; naming tests (tests/...) replaces the
# default set.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

tests=(
  tests/engine/test_processes.py
  tests/engine/test_batch.py
  tests/engine/strategies/test_batching.py
  tests/engine/test_timeouts.py
  tests/engine/store/test_store.py
  tests/engine/explain/test_explain_reproducible.py
  tests/cli/test_cli.py::test_count_reproducible_batch_and_resume
  tests/cli/test_cli.py::test_workers_give_the_same_batch_in_seed_order
  tests/cli/test_cli.py::test_workers_are_waited_for_after_the_last_puzzle
)
for arg in "$@"; do
  case "$arg" in tests/*) tests=() ;; esac
done

cpus="$(nproc)"
load="${PUZZLE_ENGINE_TEST_LOAD:-$((2 * cpus))}"
case "$load" in
  ''|*[!0-9]*) echo "test_loaded: PUZZLE_ENGINE_TEST_LOAD must be a whole number, not '$load'" >&2
               exit 2 ;;
esac

busy=()
stop_load() {
  local pid
  for pid in ${busy[@]+"${busy[@]}"}; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in ${busy[@]+"${busy[@]}"}; do
    wait "$pid" 2>/dev/null || true
  done
  busy=()
}
trap stop_load EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# Each busy process spins in the shell and stops by itself once this script is gone
# (even killed with SIGKILL, where no trap runs): 'kill -0' is a builtin, no process.
parent=$$
for _ in $(seq 1 "$load"); do
  ( trap - EXIT INT TERM HUP; while kill -0 "$parent" 2>/dev/null; do :; done ) &
  busy+=("$!")
done

printf '[test-loaded] %s busy processes on %s CPUs; load average now: %s\n' \
  "$load" "$cpus" "$(cut -d' ' -f1-3 /proc/loadavg)" >&2
status=0
bash "$here/scripts/test.sh" ${tests[@]+"${tests[@]}"} "$@" || status=$?
printf '[test-loaded] load average at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >&2
exit "$status"
