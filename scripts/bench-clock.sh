#!/bin/bash
# bench-clock.sh BINDIR [CYCLES] -- start a server on free local ports (no clients) and
# measure its real-time cycle period with rcss-clockbench over CYCLES cycles (600 = 60 s).
set -euo pipefail
bindir=$(cd "${1:-build/bin}" && pwd)
cycles=${2:-600}
work=$(mktemp -d /tmp/rcss-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT
port=$("$bindir/rcss-clockbench" --free-port)
shm="/rcss-bench-$$"
mkdir -p "$work/conf"
(cd "$work" && RCSS_CONF_DIR="$work/conf" exec "$bindir/rcssserver" \
    server::port="$port" server::coach_port=0 server::olcoach_port=0 \
    server::bind_address=127.0.0.1 server::shm_name="$shm" \
    server::game_logging=false server::text_logging=false >"$work/server.log" 2>&1) &
srv=$!
for _ in $(seq 100); do [ -e "/dev/shm${shm}" ] && break; sleep 0.05; done
sleep 0.5
echo "== real-time clock, $cycles cycles (server pid $srv)"
if ! "$bindir/rcss-clockbench" "$shm" "$cycles" --player "$port"; then
    echo "bench-clock: the server did not run; its log:" >&2
    cat "$work/server.log" >&2
    kill -TERM "$srv" 2>/dev/null || true
    exit 1
fi
kill -TERM "$srv"
wait "$srv"
