#!/bin/bash
# bench-viewers.sh BINDIR [COUNTS] -- browser viewers beyond the server (README
# "Broadcasting a match"): a real-time server with 22 players (rcss-benchplayers) after an
# auto-mode kick-off, monitorgw publishing every frame to a local broadcast tier of two
# nginx+nchan nodes sharing one Redis (scripts/broadcast/tier-local.sh), then for each
# viewer count in COUNTS (default "1000 2000 4000 6000 8000 10000") rcss-viewload with
# half server-sent-event and half WebSocket viewers over both nodes for SECONDS (default
# 6): frames per second per viewer (min, mean), latency from the sim's publish, the CPU
# of the nodes, Redis, monitorgw and the load tool itself, and the cost per viewer (CPU
# of the tier and the viewers divided by the count). The largest count whose slowest
# viewer got at least 10 frames a second is printed last. Everything shares this
# machine; figures are printed, never checked.
set -euo pipefail
BINDIR=$(cd "${1:-build/bin}" && pwd)
counts=${2:-1000 2000 4000 6000 8000 10000}
seconds=${SECONDS_PER_COUNT:-6}
REF=
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
work=$(mktemp -d /tmp/rcss-bench-XXXXXX)
tier=$work/tier
tier_up=0
cleanup() {
    bench_stop
    [ $tier_up = 1 ] && "$here/broadcast/tier-local.sh" stop "$tier" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

echo "== browser viewers through a broadcast tier (2 nginx+nchan nodes, Redis), real time, 22 players"
bench_machine
if ! command -v nginx >/dev/null || ! command -v redis-server >/dev/null ||
    [ ! -f /usr/lib/nginx/modules/ngx_nchan_module.so ]; then
    echo "   skipped: nginx, libnginx-mod-nchan or redis-server is not installed (make deps)"
    exit 0
fi
"$here/broadcast/tier-local.sh" start "$tier" 2 >"$work/tier.env" 2>"$work/tier.log"
tier_up=1
. "$work/tier.env"
# shellcheck disable=SC2086
urls=$(echo $TIER_EVENTS | tr ' ' ,)
tier_pids=$("$here/broadcast/tier-local.sh" pids "$tier")

port=$(bench_free_ports)
bench_start ours "$work" "$port" server::auto_mode=true server::kick_off_wait=1 \
    server::game_logging=false server::text_logging=false server::http_port=-1 \
    server::broadcast_url="$TIER_PUBLISH"
for _ in $(seq 100); do
    [ "$(bench_gateway_pids | wc -w)" -ge 2 ] && break
    sleep 0.05
done
"$BINDIR/rcss-benchplayers" "$port" 22 >"$work/players.log" 2>&1 &
bench_track "$!"
mgw=""
for c in $(bench_gateway_pids); do
    [ "$(cat "/proc/$c/comm" 2>/dev/null)" = rcss-monitorgw ] && mgw=$c
done
sleep 2 # the players join, the kick-off
"$BINDIR/rcss-viewload" --row-head
best=0
for n in $counts; do
    row=$("$BINDIR/rcss-viewload" --url "$urls" --viewers "$n" --mode mix --seconds "$seconds" \
        --pids "$tier_pids${mgw:+,monitorgw=$mgw}" --row 2>&1) || true
    echo "$row"
    [[ $row == *" ok" ]] && best=$n
done
echo "  (fps: frames a second per viewer, 10 = every frame; lat: sim publish -> viewer, ms;"
echo "   CPU in % of one core over the window; us/viewer/s: CPU of nginx, Redis and the"
echo "   viewers per viewer and second; ok: every viewer at >= 9.8 frames/s)"
echo "  largest count with every viewer at >= 10 frames/s: $best"
