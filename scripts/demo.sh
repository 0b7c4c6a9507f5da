#!/bin/bash
# demo.sh BINDIR -- start a server and two demo teams on it; the second team kicks off by
# sending (dispstart) as a monitor. Attach a monitor to UDP $PORT (rcssmonitor, default
# 6000) to watch. Ctrl-C stops everything. Extra server arguments: DEMO_ARGS="...".
set -euo pipefail
bindir=${1:-build/bin}
port=${PORT:-6000}
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

# shellcheck disable=SC2086
"$bindir/rcssserver" server::port="$port" server::coach_port=$((port + 1)) \
    server::olcoach_port=$((port + 2)) ${DEMO_ARGS:-} &
server=$!
pids+=("$server")
for _ in $(seq 100); do [ -e "/dev/shm/rcssserver-$port" ] && break; sleep 0.05; done
sleep 0.5
"$bindir/rcss-demoteam" "$port" DemoLeft &
pids+=("$!")
sleep 0.5
"$bindir/rcss-demoteam" "$port" DemoRight --start &
pids+=("$!")
echo "demo: server pid $server on UDP $port; monitors: rcssmonitor --server-port $port; Ctrl-C stops"
wait "$server"
