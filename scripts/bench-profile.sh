#!/bin/bash
# bench-profile.sh BINDIR [CYCLES] -- where a synch-mode cycle's time goes, counted
# reproducibly: the 22-player case of bench-synch.sh with every gateway run under
# valgrind --tool=callgrind. The counters are zeroed when the players' window starts and
# dumped when it ends; the report gives each process's instructions per cycle (the
# total over the window's cycles) and its top functions (TOP=15).
# STRACE=1 instead counts each process's system calls per cycle (strace -c -f);
# MONITORS=N attaches N text v5 monitors (rcss-benchmon).
# Not part of `make bench` (valgrind runs the processes ~50x slower); used to compare
# changes (docs/ARCHITECTURE.md, Performance).
set -euo pipefail
BINDIR=$(cd "${1:-build/bin}" && pwd)
cycles=${2:-300}
REF=""
. "$(dirname "$0")/bench-lib.sh"
from=20
to=$((from + cycles))
work=$(mktemp -d /tmp/rcss-prof-XXXXXX)
trap 'bench_stop; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
gwdir="$work/gw"
mkdir -p "$gwdir" "$work/out"
for b in rcss-netgw rcss-monitorgw rcss-recorder; do
    if [ "${STRACE:-0}" = 1 ]; then
        printf '#!/bin/sh\nexec strace -c -f -o %s/out/%s.$$ %s/%s "$@"\n' \
            "$work" "$b" "$BINDIR" "$b" >"$gwdir/$b"
    else
        printf '#!/bin/sh\nexec valgrind -q --tool=callgrind --callgrind-out-file=%s/out/%s.%%p %s/%s "$@"\n' \
            "$work" "$b" "$BINDIR" "$b" >"$gwdir/$b"
    fi
    chmod +x "$gwdir/$b"
done
port=$(bench_free_ports)
bench_start ours "$work" "$port" server::synch_mode=true server::auto_mode=true \
    server::kick_off_wait=1 server::game_logging=false server::text_logging=false \
    server::synch_timeout=60000 server::gateway_dir="$gwdir" ${PROFILE_ARGS:-}
sleep 3 # the gateways start slowly under valgrind
if [ "${MONITORS:-0}" -gt 0 ]; then # the fan-out too: N text v5 monitors
    "$BINDIR/rcss-benchmon" "$port" "$MONITORS" --timeout 30 >"$work/mon.log" 2>&1 &
    bench_track "$!"
    sleep 2
fi
"$BINDIR/rcss-benchplayers" "$port" 22 --from "$from" --to "$to" >"$work/players.log" 2>&1 &
bench_track "$!"
for _ in $(seq 3000); do grep -q "window start" "$work/players.log" 2>/dev/null && break; sleep 0.1; done
gws="$(bench_sim_pid) $(bench_gateway_pids)"
# only our own processes (other callgrind runs on the machine are left alone)
if [ "${STRACE:-0}" != 1 ]; then
    for p in $gws; do callgrind_control -z "$p" >/dev/null 2>&1 || true; done
fi
for _ in $(seq 30000); do grep -q "cycles/s" "$work/players.log" && break; sleep 0.1; done
if [ "${STRACE:-0}" = 1 ]; then
    bench_stop
    for f in "$work"/out/*; do
        echo "== $(basename "$f" | cut -d. -f1): system calls per cycle (over $cycles cycles and the start-up)"
        awk -v c="$cycles" '$NF ~ /^[a-z_0-9]+$/ && $4 ~ /^[0-9]+$/ { printf "  %-16s %8.2f\n", $NF, $4 / c }' "$f" |
            sort -k2 -nr | head -12
    done
    exit 0
fi
for p in $gws; do callgrind_control -d "$p" >/dev/null 2>&1 || true; done
sleep 1
bench_stop
echo "== instructions per cycle (callgrind, game cycles $from..$to)"
for f in "$work"/out/*.*; do
    case $f in *.*.*) ;; *) continue ;; esac # the dumps: NAME.PID.N
    name=$(basename "$f" | cut -d. -f1)
    callgrind_annotate --auto=no --inclusive=yes "$f" >"$work/ann.txt" 2>/dev/null || continue
    total=$(sed -n 's/^\([0-9,]*\) (100.0%).*PROGRAM TOTALS.*/\1/p' "$work/ann.txt" | tr -d ,)
    per=$((total / cycles))
    echo "-- $name: $per instructions per cycle ($total over $cycles cycles)"
    callgrind_annotate --auto=no --threshold=100 "$f" 2>/dev/null | grep -E '^ *[0-9,]+ \(' | grep -v 'PROGRAM TOTALS' |
        awk '{ p = $2; gsub(/[()%]/, "", p); if (p + 0 < 90) print }' | head -${TOP:-15} | sed "s/^/   /"
done
