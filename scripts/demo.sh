#!/bin/bash
# demo.sh BINDIR -- `make run`: start a server and two demo teams (eleven players and an
# online coach each) and let them play a match, watched in a browser: the server runs
# with auto_mode (it kicks off each half itself and exits after the match) and serves
# the browser monitor on HTTP_PORT. Real time by default (two halves of 5 minutes);
# SYNCH=1 plays in synch mode, as fast as the clients answer. Ctrl-C stops everything
# (by PID); the demo also ends by itself when the match is over. Environment: PORT
# (players, default 6000; trainer PORT+1, online coach PORT+2), HTTP_PORT (default
# PORT+80), SYNCH=1, DEMO_ARGS="server::half_time=60 ..." (more server options),
# LOG_DIR (default ./logs: the game log and text log of the match are kept there, named
# after the teams and the score once the server has stopped; printed at the end).
set -euo pipefail
bindir=$(cd "${1:-build/bin}" && pwd)
port=${PORT:-6000}
http_port=${HTTP_PORT:-$((port + 80))}
mkdir -p "${LOG_DIR:-logs}"
logdir=$(cd "${LOG_DIR:-logs}" && pwd)
work=$(mktemp -d /tmp/rcss-demo-XXXXXX)
touch "$work/start"     # logs newer than this are this match's
pids=()
server=
playing=
cleanup() {
    trap - EXIT INT TERM
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    [ -n "$server" ] && kill -TERM "$server" 2>/dev/null || true
    wait 2>/dev/null || true
    if [ -n "$playing" ]; then
        cat "$work"/DemoLeft.out "$work"/DemoRight.out | grep -v ': ready' || true
        show_logs
    else    # no match: the logs of a server no team joined say nothing
        find "$logdir" -maxdepth 1 -type f -newer "$work/start" -name '*-null-vs-null.*' -delete
    fi
    rm -rf "$work"
}
# a path as the user typed it: relative to the current directory when under it
rel() { case $1 in "$PWD"/*) echo "${1#"$PWD"/}" ;; *) echo "$1" ;; esac; }
# the log files this match left in $logdir, and how to replay the game log
show_logs() {
    local files f rcg
    files=$(find "$logdir" -maxdepth 1 -type f -newer "$work/start" | sort)
    [ -n "$files" ] || return 0
    echo "demo: this match's logs in $(rel "$logdir")/:"
    for f in $files; do echo "      ${f##*/}"; done
    rcg=$(echo "$files" | grep -E '\.rcg(\.gz)?$' | head -n 1) || return 0
    echo "      replay: $(rel "$bindir")/rcss-logplayer --port $port --play $(rel "$rcg")"
    echo "              (then a monitor on UDP $port: rcssmonitor --server-port $port)"
}
trap cleanup EXIT
trap 'echo; echo "demo: stopping"; exit 130' INT TERM

args=(server::port="$port" server::coach_port=$((port + 1)) server::olcoach_port=$((port + 2))
      server::auto_mode=true server::http_port="$http_port"
      server::game_log_dir="$logdir" server::text_log_dir="$logdir")
[ "${SYNCH:-0}" = 1 ] && args+=(server::synch_mode=true)
# shellcheck disable=SC2206
args+=(${DEMO_ARGS:-})
(cd "$work" && exec "$bindir/rcssserver" "${args[@]}" >"$work/server.log" 2>&1) &
server=$!
# up when its region is there and its browser monitor listens; a taken HTTP port makes
# the monitor gateway fail (and be restarted) forever: say so instead of a dead URL
up=
for _ in $(seq 200); do
    kill -0 "$server" 2>/dev/null || break
    if grep -q "cannot serve http on port $http_port" "$work/server.log"; then
        echo "demo: HTTP port $http_port is taken (another demo or program?): stop it," \
             "or pick another port with HTTP_PORT=N (or PORT=N)" >&2
        exit 1
    fi
    if [ -e "/dev/shm/rcssserver-$port" ] &&
       grep -q "browser monitor on http port $http_port" "$work/server.log"; then
        up=1
        break
    fi
    sleep 0.05
done
sleep 0.3
if [ -z "$up" ] || ! kill -0 "$server" 2>/dev/null; then
    echo "demo: the server did not start; its output:" >&2
    cat "$work/server.log" >&2
    echo "demo: (another demo on port $port? PORT=N uses N, N+1, N+2 and HTTP N+80)" >&2
    exit 1
fi

# one team, its output in a file; wait until its players and coach are in place
team() {
    "$bindir/rcss-demoteam" --port "$port" --team "$1" "${@:2}" >"$work/$1.out" 2>"$work/$1.err" &
    pids+=("$!")
    for _ in $(seq 100); do grep -q ': ready' "$work/$1.out" && return 0; sleep 0.1; done
    echo "demo: team $1 did not get ready:" >&2
    cat "$work/$1.err" >&2
    exit 1
}
team DemoLeft
team DemoRight
playing=1

cat <<EOF
demo: a match between DemoLeft and DemoRight on UDP $port (server pid $server, teams ${pids[*]})
      watch it:  http://localhost:$http_port/   (or: rcssmonitor --server-port $port)
      logs:      $(rel "$logdir")/ (the game log .rcg and the text log .rcl, kept after the demo)
      Ctrl-C stops everything
EOF
# the teams leave after time_over: then the demo is over
for p in "${pids[@]}"; do wait "$p" || true; done
