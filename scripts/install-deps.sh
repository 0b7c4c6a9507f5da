#!/bin/sh
# install-deps.sh -- install the Debian packages the build and tests need, only those
# missing. Called by `make test`, `make run` and `make bench`; safe to run repeatedly.
# slurm-wlm (slurmctld, slurmd, the client commands) and munge are for the single-node
# Slurm cluster of scripts/slurm/ (the tournament runner's slurm backend). dpkg-dev,
# debhelper and lintian build and check the Debian package (make deb, make deb-check);
# strace lets deb-check hold the programs' system calls against the units' filter.
set -eu

PKGS="gcc make pkg-config libevent-dev libjansson-dev zlib1g-dev libcriterion-dev clang libclang-rt-dev systemd chromium slurm-wlm munge dpkg-dev debhelper lintian strace"

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "install-deps: need root (or sudo) to install:$missing" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
