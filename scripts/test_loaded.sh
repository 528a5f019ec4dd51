#!/usr/bin/env bash
# The timing-sensitive tests (signals, processes, batches) under a synthetic load: 4 busy
# processes on 2 cores (LOAD=N for another number), as on a laptop that does other things
# (issue 38). Arguments go to pytest; without a tests/ path among them, the files are
# tests/test_processes.py and tests/test_batch.py. The busy processes are this script's children, ended by their pids
# when it ends, however it ends.
#
#   bash scripts/test_loaded.sh -q
#   LOAD=8 bash scripts/test_loaded.sh -q -k ctrl_c
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
load="${LOAD:-4}"
busy=()
stop_busy() {
  if [ ${#busy[@]} -gt 0 ]; then
    kill "${busy[@]}" 2>/dev/null || true
    wait "${busy[@]}" 2>/dev/null || true
  fi
}
trap stop_busy EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for _ in $(seq "$load"); do
  # a process that only burns CPU (no file, no child of its own)
  python3 -c 'while True: pass' &
  busy+=("$!")
done
printf '[test_loaded] %s busy processes (pids %s) on %s cores\n' "$load" "${busy[*]}" \
  "$(nproc)" >&2
files=(tests/test_processes.py tests/test_batch.py)
for arg in "$@"; do
  case "$arg" in tests/*) files=() ;; esac
done
status=0
bash "$here/scripts/test.sh" ${files[@]+"${files[@]}"} "$@" || status=$?
printf '[test_loaded] load average at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >&2
exit "$status"
