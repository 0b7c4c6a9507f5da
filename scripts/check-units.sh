#!/bin/bash
# check-units.sh [BINDIR] -- verify the systemd units in conf/systemd with
# `systemd-analyze verify`. The units are copied to a temporary directory with their
# ExecStart paths pointed at BINDIR (or /bin/true where a program is not built), so the
# check is about the units themselves. Any message about our units fails the check.
set -euo pipefail
bindir=$(cd "${1:-build/bin}" 2>/dev/null && pwd || echo /nonexistent)
if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "check-units: systemd-analyze not installed, skipped"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for u in conf/systemd/*; do
    out="$tmp/$(basename "$u")"
    cp "$u" "$out"
    for prog in rcssserver rcss-netgw rcss-monitorgw rcss-recorder; do
        target="$bindir/$prog"
        [ -x "$target" ] || target=/bin/true
        sed -i "s|/usr/local/bin/$prog |$target |" "$out"
    done
done
cd "$tmp"
log=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no ./rcssserver.target ./rcssserver-sim.service \
      ./rcssserver-monitorgw.service ./rcssserver-recorder.service ./rcssserver-netgw@0.service 2>&1 \
      | grep -E 'rcssserver' || true)
if [ -n "$log" ]; then
    echo "check-units: systemd-analyze verify reported:"
    echo "$log"
    exit 1
fi
echo "check-units: 5 units verified"
