#!/bin/bash
# slurm-local.sh start|stop|env DIR -- a real single-node Slurm cluster on this machine
# (Debian's slurmctld, slurmd and munged), for the tournament runner's tests and for a
# user trying the slurm backend. Everything lives under DIR: the config (DIR/etc), the
# munge key and socket (DIR/munge), the controller's state (DIR/state), slurmd's spool
# (DIR/spool), the pid files (DIR/run) and the logs (DIR/log). /etc/slurm and the
# system munge are never touched; clients only need SLURM_CONF=DIR/etc/slurm.conf.
#
#   start DIR   generate the munge key (kept across restarts), start munged on a private
#               socket, write slurm.conf with free TCP ports, start slurmctld and slurmd,
#               wait until the node is idle, print the export lines on stdout:
#               eval "$(scripts/slurm/slurm-local.sh start /tmp/cl)"
#               A DIR that was stopped starts again with its jobs' history and job ids.
#   stop DIR    cancel the cluster's jobs, stop slurmd, slurmctld and munged by the pids
#               in DIR/run (never by name) and wait until they are gone.
#   env DIR     print the export lines again.
#
# Environment: SLURM_LOCAL_CONF_EXTRA, lines appended to slurm.conf (a later line wins,
# e.g. "SlurmdTimeout=10"). Needs root (slurmd runs the jobs as their users) and the
# packages slurm-wlm and munge (scripts/install-deps.sh). scripts/slurm/README.md says
# which commands report job states and how.
set -euo pipefail

me=slurm-local
usage() {
    echo "usage: $0 start|stop|env DIR" >&2
    exit 2
}
# say, die, free_port, wait_gone, stop_daemons
. "$(cd "$(dirname "$0")" && pwd)/../lib/local-daemons.sh"
[ $# -eq 2 ] || usage
cmd=$1
case $cmd in start | stop | env) ;; *) usage ;; esac
if [ "$cmd" = start ]; then
    # unix socket paths are limited to 107 bytes: the munge socket and slurmd's step
    # sockets (DIR/spool/HOST_JOBID.STEPID, up to 29 bytes more than HOST) live under DIR
    case $2 in /*) abs=$2 ;; *) abs=$PWD/$2 ;; esac
    h=$(uname -n)
    h=${h%%.*}
    [ $((${#abs} + 29 + ${#h})) -le 107 ] ||
        die "$abs: path too long for unix sockets (at most $((107 - 29 - ${#h})) characters here)"
    mkdir -p "$2"
fi
[ -d "$2" ] || die "$2: no such directory"
dir=$(cd "$2" && pwd)
conf=$dir/etc/slurm.conf
sock=$dir/munge/munge.socket
key=$dir/munge/munge.key
run=$dir/run
logd=$dir/log
export SLURM_CONF=$conf

# the pid of daemon $1 (munged, slurmctld, slurmd) started from this DIR, if alive: the
# pid file's process must still have this DIR in its command line
pid_of() {
    local f=$run/$1.pid pid args
    [ -s "$f" ] || return 1
    pid=$(tr -dc 0-9 <"$f")
    [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
    args=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
    case $args in *"$dir/"*) echo "$pid" ;; *) return 1 ;; esac
}

# the last lines of a log, indented, on stderr (nothing if it is empty)
log_tail() {
    [ -s "$1" ] || return 0
    echo "$me: last lines of $1:" >&2
    tail -n "${2:-15}" "$1" | sed 's/^/    /' >&2
}

print_env() {
    echo "export SLURM_CONF=$conf"
    echo "# munge's own tools need: munge --socket=$sock (slurm commands read it from SLURM_CONF)"
}



# the session of process $1 (the 4th field after the command name in /proc/PID/stat)
sid_of() {
    local l
    read -r l <"/proc/$1/stat" 2>/dev/null || return 1
    l=${l##*) }
    # shellcheck disable=SC2086
    set -- $l
    echo "$4"
}

# job steps left after slurmd is gone (it was killed, or a job would not end): a
# slurmstepd of this DIR is one that keeps DIR/log/slurmd.log open; its job's processes
# are in its session
kill_stepds() {
    local p c sids="" s fds
    for p in /proc/[0-9]*; do
        c=""
        read -r -d '' c <"$p/cmdline" 2>/dev/null || true
        [[ $c == slurmstepd* ]] || continue
        fds=$(ls -l "$p/fd" 2>/dev/null) || continue
        if [[ $fds == *"-> $logd/slurmd.log"* ]]; then
            s=$(sid_of "${p#/proc/}") && sids="$sids $s"
            kill -KILL "${p#/proc/}" 2>/dev/null || true
            say "killed a left-over slurmstepd (pid ${p#/proc/})"
        fi
    done
    for s in $sids; do
        [ "$s" -gt 1 ] || continue
        for p in /proc/[0-9]*; do
            [ "$(sid_of "${p#/proc/}")" = "$s" ] && kill -KILL "${p#/proc/}" 2>/dev/null
        done
    done
    return 0
}

do_stop() {
    local ids n=0
    # active jobs (pending, running, suspended, completing) are cancelled; while slurmd
    # is there, it ends them (SIGTERM, SIGKILL after KillWait)
    if pid_of slurmctld >/dev/null; then
        ids=$(squeue -h -o %A 2>/dev/null) || ids=""
        ids=${ids//$'\n'/ }
        if [ -n "$ids" ]; then
            say "cancelling jobs $ids"
            # shellcheck disable=SC2086
            scancel $ids 2>/dev/null || true
            while pid_of slurmd >/dev/null && [ -n "$(squeue -h -o %A 2>/dev/null)" ] && [ $n -lt 300 ]; do
                sleep 0.1
                n=$((n + 1))
            done
        fi
    fi
    # all three at once: none needs another one to shut down (about 2 s)
    stop_daemons 200 slurmd slurmctld munged
    kill_stepds
}


write_conf() {
    cat >"$conf.tmp" <<EOF
# written by scripts/slurm/slurm-local.sh start $dir (rewritten at every start)
ClusterName=rcsslocal
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd.pid
SlurmctldLogFile=$logd/slurmctld.log
SlurmdLogFile=$logd/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$dir/etc/plugstack.conf
MailProg=/bin/true
MpiDefault=none
# no cgroups: they need a cgroup.conf fitting the host's mounts, and every cluster on
# this machine would use the same paths outside DIR (/sys/fs/cgroup/*/slurm_HOST/
# uid_U/job_N, job ids start at 1 in every DIR). A job's processes are tracked by its
# process group (proctrack/linuxproc would miss those whose parent exited: they would
# outlive the job); tasks are bound to their cores with sched_setaffinity
ProctrackType=proctrack/pgid
TaskPlugin=task/affinity
JobAcctGatherType=jobacct_gather/none
# no slurmdbd: finished jobs are read from memory (MinJobAge) and from the job
# completion file (sacct -c)
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$logd/jobcomp.txt
MinJobAge=86400
# each job gets the cores it asks for (--cpus-per-task); memory is not a consumable
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# a pending batch job starts at the controller's next 1 s tick, not up to 3 s later
SchedulerParameters=batch_sched_delay=0
# a job that can never run here (more CPUs than the node has) is refused by sbatch
# instead of pending for ever
EnforcePartLimits=ALL
# a node that stopped answering comes back when its slurmd registers again (after a
# stop and start); one set DOWN by hand stays down until "scontrol update
# nodename=NODE state=resume"
ReturnToService=1
KillWait=10
$nodeline NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    if [ -n "${SLURM_LOCAL_CONF_EXTRA:-}" ]; then
        printf '%s\n' "# SLURM_LOCAL_CONF_EXTRA" "$SLURM_LOCAL_CONF_EXTRA" >>"$conf.tmp"
    fi
    mv "$conf.tmp" "$conf"
}

# a start that failed: the error on one line, the last lines of the logs named after it,
# then whatever this start brought up is stopped again
fail() {
    local msg=$1 f
    shift
    echo "$me: error: $msg" >&2
    for f in "$@"; do log_tail "$f"; done
    do_stop 2>/dev/null || true
    exit 1
}

# start daemon $1 (its command line follows): the daemons fork themselves; their
# stdin/stdout/stderr must not hold the caller's pipes
spawn() {
    local name=$1
    shift
    : >"$logd/$name.out"
    "$@" </dev/null >>"$logd/$name.out" 2>&1 ||
        fail "$name exited with status $? at start (see $logd/$name.log)" "$logd/$name.out" "$logd/$name.log"
}

# wait up to $2 seconds for daemon $1's pid file; 1 when it is not there by then
wait_pid() {
    local i=0
    while [ $i -lt $(($2 * 10)) ]; do
        pid_of "$1" >/dev/null && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# remember where daemon $1's log ends before it starts (logs are kept across starts)
declare -A log_off
log_mark() { log_off[$1]=$(stat -c %s "$logd/$1.log" 2>/dev/null || echo 0); }

# 0 when daemon $1 could not bind its port since log_mark (another start took it)
port_taken() {
    local new
    new=$(tail -c +$((${log_off[$1]:-0} + 1)) "$logd/$1.log" 2>/dev/null; cat "$logd/$1.out" 2>/dev/null)
    [[ $new == *"Address already in use"* ]]
}

# the node's state as sinfo shows it ("idle", "idle*", "down*", "drained", ...)
node_state() {
    local s
    s=$(sinfo -h -n "$host" -o %T 2>/dev/null) || s=""
    echo "${s%%$'\n'*}"
}

do_start() {
    local n pid t ctld_port slurmd_port attempt st resumed
    for n in munged slurmctld slurmd; do
        if pid=$(pid_of $n); then
            die "$n of $dir is running (pid $pid): run '$0 stop $dir' first"
        fi
    done
    for n in slurmctld slurmd munged mungekey sbatch; do
        command -v $n >/dev/null ||
            die "$n missing: run scripts/install-deps.sh (packages slurm-wlm munge)"
    done
    [ "$(id -u)" -eq 0 ] || die "needs root: slurmd runs each job as its user"

    mkdir -p "$dir/etc" "$dir/state" "$dir/spool" "$logd" "$run" "$dir/munge"
    # munged wants its socket's directory searchable by all, its key private
    chmod 755 "$dir" "$dir/munge"
    : >"$dir/etc/plugstack.conf"

    # munge: a key of this DIR's own, a socket of its own
    if [ ! -s "$key" ]; then
        mungekey --create --keyfile="$key" 2>"$logd/mungekey.out" ||
            fail "mungekey could not create $key" "$logd/mungekey.out"
    fi
    chmod 600 "$key"
    # --force: munged refuses a socket under a directory others cannot search (mktemp -d
    # makes them 0700); root's clients reach it anyway, other users' would not
    spawn munged munged --force --socket="$sock" --key-file="$key" --log-file="$logd/munged.log" \
        --pid-file="$run/munged.pid" --seed-file="$dir/munge/munged.seed"
    wait_pid munged 10 || fail "munged did not come up (see $logd/munged.log)" "$logd/munged.log"
    if ! munge --socket="$sock" -n 2>"$logd/munge-check.out" |
        unmunge --socket="$sock" >/dev/null 2>>"$logd/munge-check.out"; then
        fail "munged does not answer on $sock" "$logd/munge-check.out" "$logd/munged.log"
    fi

    # this node as slurmd sees it: its short host name, CPUs, sockets, cores, memory
    nodeline=$(env -u SLURM_CONF slurmd -C 2>"$logd/slurmd-C.out") || nodeline=""
    nodeline=${nodeline%%$'\n'*}
    [[ $nodeline == NodeName=* ]] || fail "slurmd -C printed no NodeName line" "$logd/slurmd-C.out"
    host=${nodeline%% *}
    host=${host#NodeName=}

    # slurmctld and slurmd on free ports; a port taken between the choice and the bind
    # (another start at the same moment) means new ports and another try. Then the node
    # registers and becomes idle; one left DOWN or DRAINED by hand before the last stop
    # is resumed
    for attempt in 1 2 3; do
        if ! ctld_port=$(free_port) || ! slurmd_port=$(free_port "$ctld_port"); then
            fail "no free TCP port in 20000-32767"
        fi
        write_conf "$ctld_port" "$slurmd_port"
        log_mark slurmctld
        spawn slurmctld slurmctld -f "$conf"
        t=0
        # (its log first, and a short ping: one to a port held by a process that does not
        # answer waits MessageTimeout, 10 s)
        until ! port_taken slurmctld && [[ $(timeout 2 scontrol ping 2>/dev/null) == *"is UP"* ]]; do
            if port_taken slurmctld && [ $attempt -lt 3 ]; then
                say "port $ctld_port taken, trying other ports"
                stop_daemons 200 slurmctld 2>/dev/null
                continue 2
            fi
            if [ $t -ge 300 ] || { [ $t -ge 20 ] && ! pid_of slurmctld >/dev/null; }; then
                fail "slurmctld did not come up on port $ctld_port (see $logd/slurmctld.log)" \
                    "$logd/slurmctld.out" "$logd/slurmctld.log"
            fi
            sleep 0.1
            t=$((t + 1))
        done
        log_mark slurmd
        spawn slurmd slurmd -f "$conf"
        t=0
        resumed=""
        while st=$(node_state) && { [ "$st" != idle ] || ! pid_of slurmd >/dev/null; }; do
            case $st in
            down | drain*)
                if [ -z "$resumed" ]; then
                    say "node $host was $st ($(sinfo -h -n "$host" -o %E)): resuming it"
                    scontrol update nodename="$host" state=resume >&2 || true
                    resumed=1
                fi
                ;;
            esac
            if port_taken slurmd && [ $attempt -lt 3 ]; then
                say "port $slurmd_port taken, trying other ports"
                stop_daemons 200 slurmd slurmctld 2>/dev/null
                continue 2
            fi
            if [ $t -ge 20 ] && ! pid_of slurmd >/dev/null; then
                fail "slurmd did not come up on port $slurmd_port, node $host is '$st' (see $logd/slurmd.log)" \
                    "$logd/slurmd.out" "$logd/slurmd.log"
            fi
            pid_of slurmctld >/dev/null ||
                fail "slurmctld exited before node $host became idle (see $logd/slurmctld.log)" \
                    "$logd/slurmctld.log"
            if [ $t -ge 300 ]; then
                sinfo -h -R >"$logd/sinfo-R.out" 2>&1 || true
                fail "node $host is '${st:-unknown}', not idle, 30 s after slurmd started" \
                    "$logd/sinfo-R.out" "$logd/slurmd.log" "$logd/slurmctld.log"
            fi
            sleep 0.1
            t=$((t + 1))
        done
        break
    done
    say "cluster up in $dir: node $host idle, $(sinfo -h -n "$host" -o %c) CPUs, slurmctld port $ctld_port, slurmd port $slurmd_port"
    print_env
}

case $cmd in
start) do_start ;;
stop)
    do_stop
    say "stopped $dir"
    ;;
env)
    [ -f "$conf" ] || die "$conf missing: run '$0 start $dir' first"
    pid_of slurmctld >/dev/null || say "warning: slurmctld of $dir is not running"
    print_env
    ;;
esac
