#!/bin/bash
# bench-synch.sh BINDIR [CYCLES] -- synch-mode throughput with 22 trivial players
# (rcss-benchplayers: they only answer (think) with (done)) after an auto-mode kick-off:
# cycles per second over CYCLES cycles of game time (default 2000), the CPU time each
# server process spends per cycle (/proc/PID/stat) and its RSS/PSS; with 0, 10, 100 and
# 1,000 UDP monitors (rcss-benchmon, text v5: every monitor must get every frame), 1,000
# browser viewers (SSE on server::http_port), and server::netgw_processes 1 and 2.
# REF=path/to/rcssserver runs the same loads against that server (no browser viewers:
# it has none) and prints the ratios. MONITORS="0 10 100 1000" and NETGW="1 2" choose
# the cases. Figures are printed, never checked.
set -euo pipefail
BINDIR=$(cd "${1:-build/bin}" && pwd)
cycles=${2:-2000}
REF=${REF:-}
MONITORS=${MONITORS:-0 10 100 1000}
NETGW=${NETGW:-1 2}
VIEWERS=${VIEWERS:-1000}
. "$(dirname "$0")/bench-lib.sh"
from=20
to=$((from + cycles))
works=()
trap 'bench_stop; rm -rf "${works[@]}"' EXIT
declare -A RATE MEM LOG FRAMES

# run_case KIND LABEL NMON NVIEW [server::x=y ...]: one server, its load, its figures
# (game cycles $from..$to; logs off unless LOGS=1)
run_case() {
    local kind=$1 label=$2 nmon=$3 nview=$4 logs=false
    shift 4
    [ "${LOGS:-0}" = 1 ] && logs=true
    local work port hport="" mon=""
    work=$(mktemp -d /tmp/rcss-bench-XXXXXX)
    works+=("$work")
    port=$(bench_free_ports)
    [ "$nview" -gt 0 ] && hport=$(bench_free_port) && set -- "$@" server::http_port="$hport"
    bench_start "$kind" "$work" "$port" server::synch_mode=true server::auto_mode=true \
        server::kick_off_wait=1 server::game_logging=$logs server::text_logging=$logs "$@"
    if [ "$kind" = ours ]; then # netgw and monitorgw up
        for _ in $(seq 100); do
            [ "$(bench_gateway_pids | wc -w)" -ge 2 ] && break
            sleep 0.05
        done
    fi
    if [ "$nmon" -gt 0 ] || [ "$nview" -gt 0 ]; then
        "$BINDIR/rcss-benchmon" "$port" "$nmon" ${hport:+--http "$hport" "$nview"} \
            --from "$from" --to "$to" --timeout 20 >"$work/mon.log" 2>&1 &
        mon=$!
        bench_track "$mon"
        for _ in $(seq 100); do grep -q connected "$work/mon.log" && break; sleep 0.05; done
        sleep 1 # registrations and init blocks
    fi
    # shellcheck disable=SC2046
    "$BINDIR/rcss-benchplayers" "$port" 22 --from "$from" --to "$to" $(bench_pids "$kind") \
        >"$work/players.log" 2>&1 &
    bench_track "$!"
    for _ in $(seq 6000); do
        grep -q "cycles/s" "$work/players.log" 2>/dev/null && break
        kill -0 "$BENCH_SRV" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$mon" ] && { wait "$mon" 2>/dev/null || true; }
    bench_stop
    echo "-- $label"
    if ! grep -q "cycles/s" "$work/players.log"; then
        echo "   no figures; the server's and the players' logs:"
        tail -5 "$work/server.log" "$work/players.log" | sed 's/^/   /'
        return
    fi
    grep -E "^  (cycles|cpu|client)" "$work/players.log"
    [ -n "$mon" ] && sed -n 's/^rcss-benchmon: \(.*frames.*\)/  \1/p' "$work/mon.log"
    RATE[$label]=$(sed -n 's/.* \([0-9.]*\) cycles\/s.*/\1/p' "$work/players.log")
    LOG[$label]=$work
    [ -n "$mon" ] && FRAMES[$label]=$(sed -n 's/.*per monitor of \([0-9]*\), fewest \([0-9]*\).*/\2 of \1/p' "$work/mon.log")
    case $label in *"full match"*)
        MEM[$kind]=$(awk '/^  cpu/ && !/server total/ { for (i = 1; i <= NF; i++) {
                if ($i == "rss") r += $(i + 1); if ($i == "pss") p += $(i + 1) } }
            END { print r, p }' "$work/players.log") ;;
    esac
}

echo "== synch mode, 22 players answering (think) with (done), game cycles $from..$to"
bench_machine
for n in $MONITORS; do
    run_case ours "this server, $n monitors" "$n" 0
    [ -n "$REF" ] && run_case ref "reference, $n monitors" "$n" 0
done
[ "$VIEWERS" -gt 0 ] && run_case ours "this server, $VIEWERS browser viewers" 0 "$VIEWERS"
for k in $NETGW; do
    [ "$k" = 1 ] && continue # the 0-monitor case above
    run_case ours "this server, netgw_processes=$k" 0 0 server::netgw_processes="$k"
done

# a full match (two halves of 3000 cycles, logs on as by default): memory near its end
if [ "${FULL:-1}" = 1 ]; then
    echo "== a full match, logs on (defaults): memory at cycle 5990"
    sfrom=$from sto=$to
    from=5900 to=5990
    LOGS=1 run_case ours "this server, full match" 0 0
    [ -n "$REF" ] && LOGS=1 run_case ref "reference, full match" 0 0
    from=$sfrom to=$sto
fi

echo "== synch throughput (cycles/s)"
base=${RATE["this server, 0 monitors"]:-}
for n in $MONITORS; do
    ours=${RATE["this server, $n monitors"]:-}
    ref=${RATE["reference, $n monitors"]:-}
    line=$(printf "  %5s monitors   this server %8s" "$n" "${ours:-?}")
    if [ -n "$base" ] && [ -n "$ours" ] && [ "$n" != 0 ]; then
        line="$line$(awk -v a="$ours" -v b="$base" 'BEGIN { printf " (%+.1f%% vs 0 monitors)", (a / b - 1) * 100 }')"
    fi
    if [ -n "$ref" ]; then
        line="$line$(awk -v a="${ours:-0}" -v b="$ref" 'BEGIN { printf "   reference %8s   ratio %.2fx", b, a / b }')"
    fi
    echo "$line"
done
v=${RATE["this server, $VIEWERS browser viewers"]:-}
[ -n "$v" ] && printf "  %5s viewers    this server %8s\n" "$VIEWERS" "$v"
for k in $NETGW; do
    r=${RATE["this server, netgw_processes=$k"]:-}
    [ "$k" = 1 ] && r=$base
    [ -n "$r" ] && printf "  netgw_processes=%s   this server %8s\n" "$k" "$r"
done
if [ -n "${MEM[ours]:-}" ]; then
    echo "== memory of a full match (sum over the server's processes at cycle 5990)"
    printf "  this server  RSS %6s kB  PSS %6s kB\n" ${MEM[ours]}
    if [ -n "${MEM[ref]:-}" ]; then
        printf "  reference    RSS %6s kB  PSS %6s kB\n" ${MEM[ref]}
        awk -v a="${MEM[ours]}" -v b="${MEM[ref]}" 'BEGIN { split(a, x, " "); split(b, y, " ");
            printf "  ratio        RSS %.2fx  PSS %.2fx\n", x[1] / y[1], x[2] / y[2] }'
    fi
fi
# the figures issue 14 asks for, with its targets in brackets
cpu_of() { # cpu_of LABEL PROCESS: ms per cycle
    [ -n "${LOG[$1]:-}" ] && awk -v p="$2" '$1 == "cpu" && $2 == p { print $3 }' "${LOG[$1]}/players.log"
}
echo "== summary [the targets of issue 14]"
ng=$(cpu_of "this server, 0 monitors" netgw.0)
[ -n "$ng" ] && echo "  netgw CPU per cycle, 22 players: $ng ms [<= 0.25]"
r0=${RATE["reference, 0 monitors"]:-}
[ -n "$base" ] && [ -n "$r0" ] &&
    awk -v a="$base" -v b="$r0" 'BEGIN { printf "  synch throughput: %.1f cycles/s, the reference %.1f: %.2fx [>= 2.5x]\n", a, b, a / b }'
for n in $MONITORS; do
    [ "$n" = 0 ] && continue
    ours=${RATE["this server, $n monitors"]:-}
    [ -n "$ours" ] && [ -n "$base" ] &&
        awk -v a="$ours" -v b="$base" -v n="$n" -v f="${FRAMES["this server, $n monitors"]:-?}" \
            'BEGIN { printf "  %d monitors: throughput %+.1f%%, fewest frames a monitor got %s [< 5%% at 1000, every frame]\n", n, (a / b - 1) * 100, f }'
done
if [ -n "${MEM[ours]:-}" ] && [ -n "${MEM[ref]:-}" ]; then
    awk -v a="${MEM[ours]}" -v b="${MEM[ref]}" 'BEGIN { split(a, x, " "); split(b, y, " ");
        printf "  full match memory: RSS summed %.2fx the reference, PSS summed %.2fx [<= 2x]\n", x[1] / y[1], x[2] / y[2] }'
fi
bench_machine
