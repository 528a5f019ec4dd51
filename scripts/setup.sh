#!/usr/bin/env bash
# Idempotent set-up: MiniZinc + Gecode (Debian), Chuffed (built from Debian's
# trixie source tarball), a virtual environment in .venv, and this package.
# Each step is skipped when its result is already there.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

. "$here/scripts/apt.sh"
log() { printf '[setup] %s\n' "$*" >&2; }

# --- MiniZinc and Gecode --------------------------------------------------
if ! command -v minizinc >/dev/null 2>&1 || ! command -v fzn-gecode >/dev/null 2>&1; then
  log "installing MiniZinc and Gecode from Debian"
  apt_install minizinc flatzinc
fi

# --- Chuffed --------------------------------------------------------------
# Not "minizinc --solvers | grep -q": grep -q exits at the first match, minizinc then
# dies of SIGPIPE, and pipefail turns that into a failure.
chuffed_listed() { [[ "$(minizinc --solvers 2>/dev/null)" == *org.chuffed.chuffed* ]]; }

debian_mirror() {
  # The URI the system's own Debian source uses (deb822 or one-line format).
  local uri=""
  if compgen -G "/etc/apt/sources.list.d/*.sources" >/dev/null; then
    uri=$(awk '/^URIs:/ {print $2}' /etc/apt/sources.list.d/*.sources 2>/dev/null \
          | grep -v -- '-security' | grep -i debian | head -n 1 || true)
  fi
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri=$(awk '$1=="deb" && $2 !~ /^\[/ {print $2} $1=="deb" && $2 ~ /^\[/ {print $3}' /etc/apt/sources.list \
          | grep -v -- '-security' | grep -i debian | head -n 1 || true)
  fi
  printf '%s' "$uri"
}

if ! chuffed_listed; then
  log "building Chuffed 0.13.1 from Debian's source tarball (about a minute)"
  apt_install cmake bison flex zlib1g-dev libmurmurhash-dev pkgconf g++ make xz-utils
  mirror="$(debian_mirror)"
  if [ -z "$mirror" ]; then
    echo "setup: cannot find the Debian mirror in the apt configuration" >&2; exit 1
  fi
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/lists/partial"
  echo "deb-src [trusted=yes] $mirror trixie main" > "$work/sources.list"
  aptopts=(-o "Dir::Etc::sourcelist=$work/sources.list" -o "Dir::Etc::sourceparts=-"
           -o "Dir::State::Lists=$work/lists" -o "APT::Get::List-Cleanup=0")
  $SUDO apt-get "${aptopts[@]}" update -qq >&2 || true
  (cd "$work" && $SUDO apt-get "${aptopts[@]}" source --download-only chuffed >&2 || true)
  tarball="$(ls "$work"/chuffed_*.orig.tar.* 2>/dev/null | head -n 1 || true)"
  if [ -z "$tarball" ]; then
    echo "setup: could not download Chuffed's source from $mirror (suite trixie)" >&2; exit 1
  fi
  mkdir -p "$work/src"
  tar -xf "$tarball" -C "$work/src" --strip-components=1
  cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release >&2
  cmake --build "$work/build" -j "$(nproc)" >&2
  $SUDO cmake --install "$work/build" >&2
  if ! chuffed_listed; then
    echo "setup: Chuffed was built but 'minizinc --solvers' does not list it" >&2; exit 1
  fi
fi

# --- Python environment ---------------------------------------------------
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  if ! "$PY" -c 'import ensurepip, venv' >/dev/null 2>&1; then
    log "installing python3-venv (Debian's python3 ships without it)"
    apt_install python3-venv
  fi
  log "creating .venv"
  "$PY" -m venv .venv
fi
stamp=.venv/.puzzle-engine-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  log "installing puzzle-engine into .venv"
  if ! { .venv/bin/python -m pip install -q --upgrade pip &&
         .venv/bin/python -m pip install -q -e ".[test]"; } > .venv/install.log 2>&1; then
    cat .venv/install.log >&2
    echo "setup: installing the package into .venv failed (log above)" >&2
    exit 1
  fi
  touch "$stamp"
fi
