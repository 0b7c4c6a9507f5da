#!/bin/bash
# bench-monitors.sh BINDIR [CYCLES] -- the monitor fan-out: a server on free local ports,
# then 0, 10, 100 and 1,000 v3 monitors (rcss-monbench), each over CYCLES cycles:
# monitorgw's CPU time per cycle and the frames every monitor got.
set -euo pipefail
bindir=$(cd "${1:-build/bin}" && pwd)
cycles=${2:-100}
work=$(mktemp -d /tmp/rcss-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "== monitor fan-out, $cycles cycles each (text v3 frames)"
for n in 0 10 100 1000; do
    port=$("$bindir/rcss-clockbench" --free-port)
    shm="/rcss-monbench-$$-$n"
    mkdir -p "$work/conf"
    (cd "$work" && RCSS_CONF_DIR="$work/conf" exec "$bindir/rcssserver" \
        server::port="$port" server::coach_port=0 server::olcoach_port=0 \
        server::bind_address=127.0.0.1 server::shm_name="$shm" \
        server::game_logging=false server::text_logging=false >"$work/server.log" 2>&1) &
    srv=$!
    for _ in $(seq 100); do [ -e "/dev/shm${shm}" ] && break; sleep 0.05; done
    sleep 0.5
    if ! "$bindir/rcss-monbench" "$shm" "$port" "$n" "$cycles"; then
        cat "$work/server.log" >&2
        kill -TERM "$srv" 2>/dev/null || true
        exit 1
    fi
    kill -TERM "$srv"
    wait "$srv" || true
done
