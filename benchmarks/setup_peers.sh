#!/usr/bin/env bash
# Idempotent set-up of the peers that benchmarks/bench_generate.py compares against.
# Benchmark-only: nothing here is a dependency of puzzle-engine, its tests or its CLI.
#
#   bash benchmarks/setup_peers.sh
#
#   - sgt-puzzles (Debian): Simon Tatham's Solo and Filling, /usr/games/sgt-solo and
#     /usr/games/sgt-filling, used with --generate
#   - qqwing (Debian): the QQWing Sudoku generator, 9x9 only
#   - benchmarks/.peers-venv: a separate virtual environment with z3-solver, for the z3
#     re-implementation of paper 000 (benchmarks/peers/z3_genpuzzles.py), which runs as a
#     subprocess with that venv's python. z3 never enters the project's .venv.
# Each step is skipped when its result is already there.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

. "$here/../scripts/apt.sh"
log() { printf '[setup-peers] %s\n' "$*" >&2; }

# --- Tatham's Solo and Filling ----------------------------------------------
if [ ! -x /usr/games/sgt-solo ] || [ ! -x /usr/games/sgt-filling ]; then
  log "installing sgt-puzzles from Debian (Solo, Filling)"
  apt_install sgt-puzzles
fi

# --- QQWing -------------------------------------------------------------------
if ! command -v qqwing >/dev/null 2>&1; then
  log "installing qqwing from Debian"
  apt_install qqwing
fi

# --- z3 in its own virtual environment ------------------------------------------
PY="${PYTHON:-python3}"
venv=.peers-venv
if [ ! -x "$venv/bin/python" ]; then
  if ! "$PY" -c 'import ensurepip, venv' >/dev/null 2>&1; then
    log "installing python3-venv (Debian's python3 ships without it)"
    apt_install python3-venv
  fi
  log "creating benchmarks/$venv"
  "$PY" -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import z3' >/dev/null 2>&1; then
  log "installing z3-solver into benchmarks/$venv"
  if ! "$venv/bin/python" -m pip install -q z3-solver > "$venv/install.log" 2>&1; then
    cat "$venv/install.log" >&2
    echo "setup_peers: installing z3-solver failed (log above)" >&2
    exit 1
  fi
fi

log "peers ready: sgt-puzzles $(dpkg-query -W -f='${Version}' sgt-puzzles 2>/dev/null || echo '?')," \
    "$(qqwing --version 2>/dev/null || echo '?')," \
    "z3 $("$venv/bin/python" -c 'import z3; print(z3.get_version_string())')"
