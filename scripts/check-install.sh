#!/bin/bash
# check-install.sh [BUILD] -- `make install` into a scratch DESTDIR and check what lands:
# every program of the 2D and 3D servers, the clients users run (rcssclient, the demo
# team, the 3D sample agent, the tournament runner), the configuration files and presets, the
# systemd units pointing at the installed programs, the generator pointing at the installed
# sim and units, the sysusers file of the units' user, the manual page under every
# program's name.
set -euo pipefail
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s install BUILD="$build" DESTDIR="$tmp" PREFIX=/usr/local >/dev/null
bin="$tmp/usr/local/bin"
missing=0
for p in rcssserver rcss-netgw rcss-monitorgw rcss-recorder rcss-logplayer \
         rcssserver3d rcss3d-agentgw rcss3d-monitorgw rcss3d-logplayer \
         rcssclient rcss-demoteam rcss3d-agent rcss-tournament; do
    if [ ! -x "$bin/$p" ]; then
        echo "check-install: $p not installed in $bin"
        missing=1
    fi
done
share="$tmp/usr/local/share/rcssserver/conf"
for f in server.conf player.conf presets/manual-v7.conf; do
    [ -f "$share/$f" ] || { echo "check-install: conf/$f not installed"; missing=1; }
done
units="$tmp/usr/local/lib/systemd/system"
if ! grep -q "ExecStart=/usr/local/bin/rcssserver " "$units/rcssserver-sim.service"; then
    echo "check-install: rcssserver-sim.service does not start /usr/local/bin/rcssserver"
    missing=1
fi
gen="$tmp/usr/local/lib/systemd/system-generators/rcssserver-generator"
if [ ! -x "$gen" ] || ! grep -q "^server=\${RCSS_SERVER:-/usr/local/bin/rcssserver}" "$gen" ||
   ! grep -q "^template=/usr/local/lib/systemd/system/rcssserver-netgw@.service" "$gen"; then
    echo "check-install: the generator is not installed or does not name the installed sim and units"
    missing=1
fi
if ! grep -q "^u rcssserver " "$tmp/usr/local/lib/sysusers.d/rcssserver.conf" 2>/dev/null; then
    echo "check-install: the sysusers file of the user rcssserver is not installed"
    missing=1
fi
man="$tmp/usr/local/share/man/man1"
for p in rcssserver rcss-netgw rcss-logplayer rcssclient rcss-tournament rcss3d-agent; do
    [ -e "$man/$p.1" ] || { echo "check-install: no manual page $p.1"; missing=1; }
done
[ "$missing" -eq 0 ] || exit 1
echo "check-install: $(ls "$bin" | wc -l) programs, configuration and units installed"
