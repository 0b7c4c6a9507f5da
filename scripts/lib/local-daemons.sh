# local-daemons.sh -- the shell helpers of the scripts that run daemons of their own on
# this machine, under a directory of the user's and on free ports, and stop them by pid
# (scripts/slurm/slurm-local.sh, scripts/broadcast/tier-local.sh). Sourced after the
# script has set `me` (its name in messages) and `run` (its pid-file directory) and
# defined `pid_of NAME` (the pid of daemon NAME started from its directory, if alive).
# A script may define `daemon_signal NAME` (the stop signal of NAME; default TERM).

say() { echo "$me: $*" >&2; }
die() {
    echo "$me: error: $*" >&2
    exit 1
}

# a TCP port from 20000-32767 (under the kernel's ephemeral range) that no local socket
# uses and that is none of the arguments (ports handed out already)
free_port() {
    local p hex used
    used=$(awk '{print $2}' /proc/net/tcp /proc/net/tcp6 2>/dev/null)
    for _ in $(seq 1 200); do
        p=$((20000 + (RANDOM * 32768 + RANDOM) % 12768))
        [[ " $* " == *" $p "* ]] && continue
        hex=$(printf '%04X' "$p")
        if [[ $'\n'$used$'\n' != *":$hex"$'\n'* ]]; then
            echo "$p"
            return 0
        fi
    done
    die "no free TCP port found in 20000-32767"
}

# wait up to $2 tenths of a second for pid $1 to exit
wait_gone() {
    local i=0
    while [ -d "/proc/$1" ] && [ $i -lt "$2" ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ ! -d "/proc/$1" ]
}

# 0 once something accepts TCP connections on 127.0.0.1:$1, within $2 tenths of a second
wait_port() {
    local i=0
    while [ $i -lt "$2" ]; do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# stop_daemons GRACE NAME...: the stop signal to every daemon named at once, then wait
# for each; one still there after GRACE tenths of a second gets SIGKILL. Pid files of
# daemons that are gone are removed.
stop_daemons() {
    local grace=$1 n pid sig pids=() names=() i
    shift
    for n in "$@"; do
        if pid=$(pid_of "$n"); then
            sig=TERM
            declare -F daemon_signal >/dev/null && sig=$(daemon_signal "$n")
            kill -"$sig" "$pid" 2>/dev/null || true
            pids+=("$pid")
            names+=("$n")
        else
            rm -f "$run/$n.pid"
        fi
    done
    for i in "${!pids[@]}"; do
        pid=${pids[$i]}
        n=${names[$i]}
        if ! wait_gone "$pid" "$grace"; then
            say "$n (pid $pid) still there $((grace / 10)) s after its stop signal, sending SIGKILL"
            kill -KILL "$pid" 2>/dev/null || true
            wait_gone "$pid" 50 || die "$n (pid $pid) does not exit"
        fi
        rm -f "$run/$n.pid"
        say "stopped $n (pid $pid)"
    done
}
