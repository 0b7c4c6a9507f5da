#!/bin/bash
# bench-clock.sh BINDIR [CYCLES] -- real time under load: a server in real-time mode with
# 22 players (rcss-benchplayers) and 50 UDP monitors (rcss-benchmon, text v5) after an
# auto-mode kick-off, over CYCLES cycles of game time (default 600 = 60 s): when player 1
# receives each sense_body against the ideal grid first + n x 100 ms (mean period, drift,
# p50/p99/max deviation), the CPU per cycle of each server process, whether every monitor
# got every frame; for this server also when the sim published each snapshot
# (rcss-clockbench reads the region). Then the see phases of the 22 players with a busy
# core while the server is stopped 5 times for 60 ms: how many sees stayed within 7 ms of
# where they were. REF=path/to/rcssserver measures the reference the same way (client
# side only). Figures are printed, never checked.
set -euo pipefail
BINDIR=$(cd "${1:-build/bin}" && pwd)
cycles=${2:-600}
REF=${REF:-}
NMON=${NMON:-50}
# STALLS=0: the real-time figures only, not the see phases around stalls
# VIEWERS=N: this server also serves N browser viewers of its own (server::http_port,
# rcss-viewload reading the server-sent events) during the window
VIEWERS=${VIEWERS:-0}
# RT_PRIORITY=P: this server with server::rt_priority=P (the sim and netgw on SCHED_FIFO)
RT_PRIORITY=${RT_PRIORITY:-0}
. "$(dirname "$0")/bench-lib.sh"
from=10
to=$((from + cycles))
works=()
trap 'bench_stop; rm -rf "${works[@]}"' EXIT

# a real-time server with an auto-mode kick-off and no logs; for this server, until its
# netgw and monitorgw are up
start_real_time() {
    local http=()
    [ "$1" = ours ] && [ "$VIEWERS" -gt 0 ] && http=(server::http_port=-1)
    [ "$1" = ours ] && http+=(server::rt_priority="$RT_PRIORITY")
    bench_start "$1" "$2" "$3" server::auto_mode=true server::kick_off_wait=1 \
        server::game_logging=false server::text_logging=false "${http[@]}"
    if [ "$1" = ours ]; then
        for _ in $(seq 100); do
            [ "$(bench_gateway_pids | wc -w)" -ge 2 ] && break
            sleep 0.05
        done
    fi
}

clock_case() {
    local kind=$1 label=$2 work port clock="" viewload=""
    work=$(mktemp -d /tmp/rcss-bench-XXXXXX)
    works+=("$work")
    port=$(bench_free_ports)
    start_real_time "$kind" "$work" "$port"
    "$BINDIR/rcss-benchmon" "$port" "$NMON" --from "$from" --to "$to" --timeout 20 \
        >"$work/mon.log" 2>&1 &
    local mon=$!
    bench_track "$mon"
    for _ in $(seq 100); do grep -q connected "$work/mon.log" && break; sleep 0.05; done
    # shellcheck disable=SC2046
    "$BINDIR/rcss-benchplayers" "$port" 22 --period --from "$from" --to "$to" \
        $(bench_pids "$kind") >"$work/players.log" 2>&1 &
    bench_track "$!"
    if [ "$kind" = ours ] && [ "$VIEWERS" -gt 0 ]; then
        local http mgw=""
        http=$(sed -n 's/.*READY .*http_port=\([0-9]*\).*/\1/p' "$work/server.log" | head -1)
        for c in $(bench_gateway_pids); do
            [ "$(cat "/proc/$c/comm" 2>/dev/null)" = rcss-monitorgw ] && mgw=$c
        done
        [ -n "${MGW_CPUS:-}" ] && [ -n "$mgw" ] && taskset -pc "$MGW_CPUS" "$mgw" >/dev/null
        "$BINDIR/rcss-viewload" --url "http://127.0.0.1:$http/events" --viewers "$VIEWERS" \
            ${MGW_CPUS:+--cpus "$MGW_CPUS"} --mode sse --seconds $((cycles / 10 + 5)) ${mgw:+--pids monitorgw=$mgw} \
            >"$work/viewers.log" 2>&1 &
        viewload=$!
        bench_track "$viewload"
    fi
    if [ "$kind" = ours ]; then
        for _ in $(seq 600); do grep -q "window start" "$work/players.log" 2>/dev/null && break; sleep 0.05; done
        "$BINDIR/rcss-clockbench" "/rcss-bench-$$-$port" "$cycles" >"$work/clock.log" 2>&1 &
        clock=$!
        bench_track "$clock"
    fi
    for _ in $(seq $((cycles * 2 + 600))); do
        grep -q "deviation" "$work/players.log" 2>/dev/null && break
        kill -0 "$BENCH_SRV" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$clock" ] && { wait "$clock" 2>/dev/null || true; }
    [ -n "$viewload" ] && { wait "$viewload" 2>/dev/null || true; }
    # the monitors' counter ends once every monitor saw the window's last cycle; one that
    # never does (a server that dropped its frames) is given 30 s, then stopped
    for _ in $(seq 300); do kill -0 "$mon" 2>/dev/null || break; sleep 0.1; done
    kill -INT "$mon" 2>/dev/null || true
    wait "$mon" 2>/dev/null || true
    bench_stop
    echo "-- $label"
    if ! grep -q "deviation" "$work/players.log"; then
        echo "   no figures; the server's and the players' logs:"
        tail -5 "$work/server.log" "$work/players.log" | sed 's/^/   /'
        return
    fi
    echo "  client: sense_body arrivals at player 1"
    grep -E "^  (sense_body|deviation)" "$work/players.log" | sed 's/^/  /'
    if [ -n "$clock" ]; then
        echo "  sim: snapshot publish times"
        grep -E "mean period|deviation|drift" "$work/clock.log" | sed 's/^/  /'
    fi
    grep -E "^  (cpu|client)" "$work/players.log"
    sed -n 's/^rcss-benchmon: \(.*frames.*\)/  \1/p' "$work/mon.log"
    if [ "$kind" = ours ] && [ "$VIEWERS" -gt 0 ]; then
        echo "  $VIEWERS browser viewers (monitorgw's own stream):"
        sed 's/^/    /' "$work/viewers.log"
    fi
    # what each watcher costs monitorgw: its CPU per cycle (one frame) over the watchers
    local mgw_ms
    mgw_ms=$(sed -n 's/^  cpu monitorgw *\([0-9.]*\) ms per cycle.*/\1/p' "$work/players.log")
    if [ "$kind" = ours ] && [ -n "$mgw_ms" ] && [ $((NMON + VIEWERS)) -gt 0 ]; then
        awk -v ms="$mgw_ms" -v m="$NMON" -v v="$VIEWERS" 'BEGIN {
            printf "  cost per watcher  monitorgw %.2f us of CPU per frame for each of the %d monitors and %d viewers\n",
                   ms * 1000 / (m + v), m, v }'
    fi
}

# see phases when the server stalls: the same load plus a busy core; rcss-benchplayers
# stops the server's processes 5 times for 60 ms and counts the sees that stayed in place
stall_case() {
    local kind=$1 label=$2 work port busy
    work=$(mktemp -d /tmp/rcss-bench-XXXXXX)
    works+=("$work")
    port=$(bench_free_ports)
    start_real_time "$kind" "$work" "$port"
    (while :; do :; done) &
    busy=$!
    bench_track "$busy"
    "$BINDIR/rcss-benchmon" "$port" "$NMON" --from 10 --to 200 --timeout 20 \
        >"$work/mon.log" 2>&1 &
    bench_track "$!"
    for _ in $(seq 100); do grep -q connected "$work/mon.log" && break; sleep 0.05; done
    # shellcheck disable=SC2046
    "$BINDIR/rcss-benchplayers" "$port" 22 --stalls 5 --from 10 --to 200 \
        $(bench_pids "$kind") >"$work/players.log" 2>&1 &
    bench_track "$!"
    for _ in $(seq 900); do
        grep -q "sees in place\|stalls done" "$work/players.log" 2>/dev/null && break
        kill -0 "$BENCH_SRV" 2>/dev/null || break
        sleep 0.1
    done
    bench_stop
    echo "-- $label"
    if ! grep -q "sees in place" "$work/players.log"; then
        echo "   no figures; the server's and the players' logs:"
        tail -5 "$work/server.log" "$work/players.log" | sed 's/^/   /'
        return
    fi
    grep -E "^  (see phases|sees in place|  before)" "$work/players.log"
}

viewers_said=""
[ "$VIEWERS" -gt 0 ] && viewers_said=" and $VIEWERS browser viewers"
echo "== real time, 22 players and $NMON monitors$viewers_said, game cycles $from..$to"
bench_machine
clock_case ours "this server"
[ -n "$REF" ] && clock_case ref "reference"
if [ "${STALLS:-1}" != 0 ]; then
    echo "== see phases, 22 players, $NMON monitors, a busy core, the server stopped 5 x 60 ms"
    stall_case ours "this server"
    [ -n "$REF" ] && stall_case ref "reference"
fi
bench_machine
