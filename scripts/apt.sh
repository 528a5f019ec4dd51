# Sourced by scripts/setup.sh and benchmarks/setup_peers.sh: $SUDO (empty when root) and
# apt_install PACKAGE..., which runs 'apt-get update' once, before the first install.
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then
    $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq >&2
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "$@" >&2
}
