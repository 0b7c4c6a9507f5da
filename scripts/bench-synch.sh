#!/bin/bash
# bench-synch.sh BINDIR [CYCLES] -- start a synch-mode server on free local ports, connect
# 22 trivial players (rcss-benchplayers: they only answer (think) with (done)) and measure
# with rcss-clockbench how fast the server steps a full field: the mean cycle period over
# CYCLES cycles (default 3000) and the cycles per second it makes.
set -euo pipefail
bindir=$(cd "${1:-build/bin}" && pwd)
cycles=${2:-3000}
work=$(mktemp -d /tmp/rcss-bench-XXXXXX)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
port=$("$bindir/rcss-clockbench" --free-port)
shm="/rcss-bench-$$"
mkdir -p "$work/conf"
(cd "$work" && RCSS_CONF_DIR="$work/conf" exec "$bindir/rcssserver" \
    server::port="$port" server::coach_port=0 server::olcoach_port=0 \
    server::bind_address=127.0.0.1 server::shm_name="$shm" server::synch_mode=true \
    server::game_logging=false server::text_logging=false >"$work/server.log" 2>&1) &
pids+=("$!")
for _ in $(seq 100); do [ -e "/dev/shm${shm}" ] && break; sleep 0.05; done
sleep 0.5
"$bindir/rcss-benchplayers" "$port" 22 >"$work/players.log" 2>&1 &
pids+=("$!")
for _ in $(seq 100); do grep -q connected "$work/players.log" && break; sleep 0.05; done
echo "== synch mode, 22 players answering (think) with (done), $cycles cycles"
if ! "$bindir/rcss-clockbench" "$shm" "$cycles" | grep -E "mean period|cycles measured" |
        awk '{print} /mean period/ {printf "  cycles per second      %.0f\n", 1000 / $3}'; then
    echo "bench-synch: the server did not run; its log:" >&2
    cat "$work/server.log" "$work/players.log" >&2
    exit 1
fi
