#!/bin/bash
# check-units.sh [BINDIR] -- check the systemd units in conf/systemd:
#  - `systemd-analyze verify` on every unit. The units are copied to a temporary
#    directory with their ExecStart paths pointed at BINDIR (or /bin/true where a program
#    is not built), so the check is about the units themselves. Any message about our
#    units fails the check.
#  - `systemd-analyze security --offline=true`: every service's exposure is 2.0 or less.
#  - the generator (conf/systemd/rcssserver-generator), run by hand with temporary output
#    directories: as many rcssserver-netgw@I links in rcssserver.target.wants/ as
#    server::netgw_processes says, from RCSS_ARGS or from server.conf, 1 by default.
set -euo pipefail
bindir=$(cd "${1:-build/bin}" 2>/dev/null && pwd || echo /nonexistent)
if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "check-units: systemd-analyze not installed, skipped"
    exit 0
fi
src=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/units"
for u in conf/systemd/*.service conf/systemd/*.target; do
    out="$tmp/units/$(basename "$u")"
    cp "$u" "$out"
    for prog in rcssserver rcss-netgw rcss-monitorgw rcss-recorder; do
        target="$bindir/$prog"
        [ -x "$target" ] || target=/bin/true
        sed -i "s|/usr/local/bin/$prog |$target |" "$out"
    done
done
cd "$tmp/units"
services="rcssserver-sim.service rcssserver-monitorgw.service rcssserver-recorder.service rcssserver-netgw@0.service"
# shellcheck disable=SC2086
log=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no ./rcssserver.target $(printf './%s ' $services) 2>&1 \
      | grep -E 'rcssserver' || true)
if [ -n "$log" ]; then
    echo "check-units: systemd-analyze verify reported:"
    echo "$log"
    exit 1
fi

# exposure: "→ Overall exposure level for NAME: 1.4 OK"; --threshold is in tenths
levels=""
for s in $services; do
    if ! out=$(systemd-analyze security --offline=true --threshold=20 "./$s" 2>&1); then
        echo "check-units: $s is above an exposure of 2.0:"
        echo "$out" | grep -E '✗|Overall'
        exit 1
    fi
    levels="$levels ${s%.service} $(echo "$out" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')"
done

# the generator: a configuration directory and an environment file of the test's own
cd "$src"
gen() { # gen ENV_TEXT SERVER_CONF_TEXT -> the count of links made
    local d="$tmp/gen.$RANDOM"
    mkdir -p "$d/conf" "$d/out"
    printf '%s\n' "$1" > "$d/env"
    printf '%s\n' "$2" > "$d/conf/server.conf"
    sed -i "s|^RCSS_CONF_DIR=@|RCSS_CONF_DIR=$d/conf|" "$d/env"
    RCSS_ENV_FILE="$d/env" RCSS_SERVER="$bindir/rcssserver" \
        sh conf/systemd/rcssserver-generator "$d/out" "$d/early" "$d/late"
    local n=0 i
    for i in "$d/out/rcssserver.target.wants/"rcssserver-netgw@*.service; do
        [ -L "$i" ] || continue
        case "$(readlink "$i")" in
            */rcssserver-netgw@.service) n=$((n + 1)) ;;
        esac
    done
    echo "$n"
}
if [ -x "$bindir/rcssserver" ]; then
    fail=0
    expect() { # expect N ENV_TEXT SERVER_CONF_TEXT
        local got
        got=$(gen "$2" "$3")
        if [ "$got" != "$1" ]; then
            echo "check-units: the generator made $got gateway links, not $1, for"
            echo "  rcssserver.env: $2"
            echo "  server.conf:    $3"
            fail=1
        fi
    }
    expect 1 'RCSS_CONF_DIR=@' ''
    expect 3 'RCSS_CONF_DIR=@' 'server::netgw_processes = 3'
    expect 2 $'RCSS_CONF_DIR=@\nRCSS_ARGS="server::netgw_processes=2 server::half_time=60"' \
           'server::netgw_processes = 3'
    expect 4 $'RCSS_CONF_DIR=@\nRCSS_ARGS=server::netgw_processes = 4' ''
    expect 16 $'RCSS_CONF_DIR=@\nRCSS_ARGS=server::netgw_processes=40' ''
    # a configuration the sim refuses: one gateway (the sim's unit says what is wrong)
    expect 1 'RCSS_CONF_DIR=@' 'server::no_such_parameter = 3'
    [ "$fail" -eq 0 ] || exit 1
    gens="generator checked"
else
    gens="generator not checked (no rcssserver in $bindir)"
fi
echo "check-units: 5 units verified; exposure:$levels (2.0 at most); $gens"
