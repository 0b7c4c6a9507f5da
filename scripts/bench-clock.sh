#!/bin/bash
# bench-clock.sh BINDIR [CYCLES] -- start a server on free local ports (no clients) and
# measure its real-time cycle period with rcss-clockbench over CYCLES cycles (600 = 60 s).
set -euo pipefail
bindir=${1:-build/bin}
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
"$bindir/rcss-clockbench" "$shm" "$cycles" --player "$port"
kill -TERM "$srv"
wait "$srv"
