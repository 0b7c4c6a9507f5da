# bench-lib.sh -- sourced by scripts/bench-*.sh: start this server or the reference on
# free local ports with the same settings, list its processes, stop everything by PID.
#   bench_start KIND WORK PORT [server::x=y ...]   KIND ours|ref; sets BENCH_SRV
#   bench_pids KIND                                "--pid NAME=PID ..." of the server's processes
#   bench_stop                                     stops every process started here
# BINDIR (this server's programs) and REF (the reference rcssserver, may be empty) must be set.

BENCH_ALL=()

bench_free_port() {
    "$BINDIR/rcss-clockbench" --free-port
}

# three consecutive free ports P, P+1, P+2 (the reference binds all three)
bench_free_ports() {
    local p
    for _ in $(seq 50); do
        p=$(bench_free_port)
        if [ "$p" -lt 65000 ] && ! ss -uln 2>/dev/null | grep -qE ":($((p + 1))|$((p + 2)))\b"; then
            echo "$p"
            return
        fi
    done
    echo "$p"
}

bench_start() {
    local kind=$1 work=$2 port=$3
    shift 3
    mkdir -p "$work/conf" "$work/home"
    if [ "$kind" = ref ]; then
        (cd "$work" && HOME="$work/home" exec "$REF" server::port="$port" \
            server::coach_port=$((port + 1)) server::olcoach_port=$((port + 2)) "$@" \
            >"$work/server.log" 2>&1) &
    else
        (cd "$work" && HOME="$work/home" RCSS_CONF_DIR="$work/conf" exec "$BINDIR/rcssserver" \
            server::port="$port" server::coach_port=$((port + 1)) \
            server::olcoach_port=$((port + 2)) server::bind_address=127.0.0.1 \
            server::shm_name="/rcss-bench-$$-$port" "$@" >"$work/server.log" 2>&1) &
    fi
    BENCH_SRV=$!
    BENCH_ALL+=("$BENCH_SRV")
    for _ in $(seq 100); do
        ss -uln 2>/dev/null | grep -q ":$port\b" && break
        sleep 0.05
    done
    sleep 0.3
}

# the sim's pid: the first child of the server started (its supervisor), or the server
# itself with server::resume_match=false
bench_sim_pid() {
    local sim
    sim=$(awk '{print $1}' "/proc/$BENCH_SRV/task/$BENCH_SRV/children" 2>/dev/null)
    echo "${sim:-$BENCH_SRV}"
}

# the sim's children (netgw, monitorgw, recorder), one line
bench_gateway_pids() {
    local sim
    sim=$(bench_sim_pid)
    cat "/proc/$sim/task/$sim/children" 2>/dev/null
}

# the server's processes for rcss-benchplayers --pid: the reference is one process; this
# server is the supervisor started, its child the sim and the sim's children (netgw,
# monitorgw, recorder)
bench_pids() {
    local kind=$1 sim c name out
    if [ "$kind" = ref ]; then
        echo "--pid rcssserver=$BENCH_SRV"
        return
    fi
    sim=$(bench_sim_pid)
    out="--pid sim=$sim"
    [ "$sim" != "$BENCH_SRV" ] && out="$out --pid supervisor=$BENCH_SRV"
    for c in $(cat "/proc/$sim/task/$sim/children" 2>/dev/null); do
        name=$(cat "/proc/$c/comm" 2>/dev/null || echo "?")
        [ "$name" = rcss-netgw ] && name="netgw.$(tr '\0' ' ' <"/proc/$c/cmdline" | awk '{print $NF}')"
        out="$out --pid ${name#rcss-}=$c"
    done
    echo "$out"
}

bench_track() {
    BENCH_ALL+=("$1")
}

bench_stop() {
    local p
    for p in "${BENCH_ALL[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${BENCH_ALL[@]}"; do wait "$p" 2>/dev/null || true; done
    BENCH_ALL=()
}

# the load average and the machine, for the record
bench_machine() {
    echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"\
         "$(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)"
}
