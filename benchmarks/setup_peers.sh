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
#   - benchmarks/.peers/sukaku-explainer: Sukaku Explainer's classes, built by the project's
#     shared peers folder's build_se.sh (SE_BUILD=path/to/build_se.sh, or found at
#     ../shared/peers or ../../shared/peers from the checkout) when a JDK (javac) is there;
#     skipped otherwise. bench_sessions.py's explain row runs it beside ours.
#   - PuzzleClone (only with PUZZLECLONE=SNAPSHOT, a folder or the bare git directory the
#     fetch tool gives): its tree extracted into benchmarks/.puzzleclone and its
#     requirements.txt installed into benchmarks/.peers-venv (PuzzleClone exec's its specs:
#     never into the project's .venv). bench_sessions.py's logic row runs it.
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

# --- Sukaku Explainer (benchmark only) ---------------------------------------------
se_out=.peers/sukaku-explainer
se_build="${SE_BUILD:-}"
if [ -z "$se_build" ]; then
  for cand in "$here/../../shared/peers/build_se.sh" "$here/../../../shared/peers/build_se.sh"; do
    if [ -f "$cand" ]; then se_build="$cand"; break; fi
  done
fi
if [ -f "$se_out/diuf/sudoku/test/serate.class" ]; then
  :
elif ! command -v javac >/dev/null 2>&1; then
  log "no JDK (javac): Sukaku Explainer not built (apt-get install default-jdk-headless, then run again)"
elif [ -z "$se_build" ]; then
  log "build_se.sh not found: Sukaku Explainer not built (set SE_BUILD=path/to/build_se.sh)"
else
  log "building Sukaku Explainer into benchmarks/$se_out"
  mkdir -p "$se_out"
  bash "$se_build" "$here/$se_out" >/dev/null
fi

# --- PuzzleClone (only when PUZZLECLONE names a snapshot) ---------------------------
if [ -n "${PUZZLECLONE:-}" ]; then
  pc=.puzzleclone
  if [ ! -f "$pc/translator.py" ]; then
    log "extracting PuzzleClone from $PUZZLECLONE into benchmarks/$pc"
    rm -rf "$pc" && mkdir -p "$pc"
    if [ -f "$PUZZLECLONE/HEAD" ] && [ -d "$PUZZLECLONE/objects" ]; then   # a bare git dir
      git --git-dir "$PUZZLECLONE" archive HEAD | tar -x -C "$pc"
    else
      cp -a "$PUZZLECLONE"/. "$pc"/
    fi
  fi
  if ! "$venv/bin/python" -c 'import faker, jsonpickle, pydantic, yaml, numpy, z3' >/dev/null 2>&1; then
    log "installing PuzzleClone's requirements into benchmarks/$venv"
    if ! "$venv/bin/python" -m pip install -q -r "$pc/requirements.txt" > "$venv/install-pc.log" 2>&1; then
      cat "$venv/install-pc.log" >&2
      echo "setup_peers: installing PuzzleClone's requirements failed (log above)" >&2
      exit 1
    fi
  fi
fi

log "peers ready: sgt-puzzles $(dpkg-query -W -f='${Version}' sgt-puzzles 2>/dev/null || echo '?')," \
    "$(qqwing --version 2>/dev/null || echo '?')," \
    "z3 $("$venv/bin/python" -c 'import z3; print(z3.get_version_string())')," \
    "Sukaku Explainer: $([ -f "$se_out/diuf/sudoku/test/serate.class" ] && echo built || echo absent)," \
    "PuzzleClone: $([ -f .puzzleclone/translator.py ] && echo extracted || echo absent)"
