#!/bin/bash
# valgrind-match.sh BINDIR OUTDIR -- the memory check of the README: a full match
# (auto mode: two halves of 3000 cycles, kick-offs and the end by the server) between two
# 11-player demo teams with a monitor attached (rcss-monbench, one v3 monitor for the
# whole match) and both logs on, with rcssserver and every child it starts (netgw,
# monitorgw, recorder) under valgrind (--trace-children=yes --leak-check=full; the teams
# run outside valgrind, started once the gateways are up). Prints each process's ERROR
# SUMMARY and leak summary from OUTDIR/vg.PID.log. PORT picks the ports (default 25600).
# The watchdog gets 20 s: under valgrind a gateway's first heartbeat can take seconds.
set -euo pipefail
bindir=$(cd "${1:-build/bin}" && pwd)
out=${2:-/tmp/rcss-valgrind}
port=${PORT:-25600}
rm -rf "$out"
mkdir -p "$out"
cd "$out"
valgrind --trace-children=yes --trace-children-skip='/bin/sh,*/rcss-demoteam' \
    --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=definite,indirect \
    --log-file="$out/vg.%p.log" \
    "$bindir/rcssserver" server::port="$port" server::coach_port=$((port + 1)) \
    server::olcoach_port=$((port + 2)) server::shm_name=/rcss-valgrind-$port \
    server::auto_mode=true server::gateway_timeout_ms=20000 \
    server::game_log_dir="$out" server::text_log_dir="$out" > "$out/server.out" 2>&1 &
server=$!
for _ in $(seq 600); do [ -e "/dev/shm/rcss-valgrind-$port" ] && break; sleep 0.1; done
sleep 10 # the gateways start slowly under valgrind
"$bindir/rcss-demoteam" "$port" DemoLeft > "$out/left.out" 2>&1 &
sleep 2
"$bindir/rcss-demoteam" "$port" DemoRight > "$out/right.out" 2>&1 &
"$bindir/rcss-monbench" "/rcss-valgrind-$port" "$port" 1 6000 > "$out/monitor.out" 2>&1 &
wait "$server" || echo "rcssserver exit status $?"
wait || true
for f in "$out"/vg.*.log; do
    cmd=$(sed -n 's/^==[0-9]*== Command: //p' "$f" | head -n 1)
    echo "== $cmd"
    grep -E "ERROR SUMMARY|definitely lost|indirectly lost|possibly lost|still reachable|in use at exit" "$f" \
        | sed 's/^==[0-9]*== */   /' || echo "   no summary (killed)"
done
grep -E "Score|Game Over" "$out/server.out" || true
