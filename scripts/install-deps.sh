#!/bin/sh
# install-deps.sh -- install the Debian packages the build and tests need, only those
# missing. Called by `make test`, `make run` and `make bench`; safe to run repeatedly.
# slurm-wlm (slurmctld, slurmd, the client commands) and munge are for the single-node
# Slurm cluster of scripts/slurm/ (the tournament runner's slurm backend). dpkg-dev,
# debhelper and lintian build and check the Debian package (make deb, make deb-check);
# strace lets deb-check hold the programs' system calls against the units' filter.
# nginx, libnginx-mod-nchan and redis-server make the local broadcast tier of
# scripts/broadcast/ (test_063, make bench); their own services are not used: the tier
# runs instances of its own on free ports, and the install keeps the packages' services
# from starting (a policy-rc.d for the time of the install, where none is in place), so
# nothing takes ports 80 and 6379.
set -eu

PKGS="gcc make pkg-config libevent-dev libjansson-dev zlib1g-dev libcriterion-dev clang libclang-rt-dev systemd chromium slurm-wlm munge dpkg-dev debhelper lintian strace nginx libnginx-mod-nchan redis-server"

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
# services of the packages installed now stay stopped (invoke-rc.d asks policy-rc.d; 101:
# not allowed); a policy-rc.d already there is left as it is
policy=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\n# install-deps.sh: no service starts while it installs\nexit 101\n' |
        $SUDO tee "$policy" >/dev/null
    $SUDO chmod 755 "$policy"
    trap '$SUDO rm -f "$policy"' EXIT
fi
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
