#!/bin/bash
# test-slurm-local.sh -- end-to-end check of slurm-local.sh on this machine, with the real
# daemons: two clusters started at the same moment, batch jobs that complete, run side by
# side on their own cores, fail with exit code 3 and are cancelled (running and pending),
# srun inside a batch job, the state of every finished job in squeue, scontrol and
# sacct -c, the history kept across stop and start, and nothing left running after stop.
# Prints what it checks; exit 0 when all passed, 1 otherwise. Needs root and the packages
# slurm-wlm and munge (scripts/install-deps.sh). KEEP=1 keeps the work directory.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
local_sh=$here/slurm-local.sh
work=$(mktemp -d /tmp/rcss-slurm-XXXXXX)
a=$work/a   # the cluster most checks use
b=$work/b   # a second one started at the same moment
fails=0
t_start=$(date +%s.%N)

ok() { echo "ok:   $*"; }
bad() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
check() { # check DESCRIPTION COMMAND...
    local d=$1
    shift
    if "$@"; then
        ok "$d"
    else
        bad "$d"
        return 1
    fi
}
elapsed() { printf '%.1f' "$(echo "$(date +%s.%N) - $1" | bc)"; }
cleanup() {
    # what a failed check on left-over job processes left behind
    for f in "$work"/out/bg*.pid; do [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
    "$local_sh" stop "$a" >/dev/null 2>&1
    "$local_sh" stop "$b" >/dev/null 2>&1
    if [ -n "${KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# the three views of job $1's state
st_squeue() { squeue -h -j "$1" -t all -o %T 2>/dev/null; }
st_sacct() { sacct -c -n -P -j "$1" -o State,ExitCode 2>/dev/null; }
st_scontrol() { # "STATE EXITCODE", from the one-line form
    local l
    l=$(scontrol -o show job "$1" 2>/dev/null) || return 1
    l=" $l "
    local s=${l#* JobState=} e=${l#* ExitCode=}
    echo "${s%% *} ${e%% *}"
}
# wait up to $2 seconds until job $1 has left the queue for good (a final state, not
# COMPLETING) and sacct -c knows it; 1 on timeout
wait_done() {
    local i=0 s
    while [ $i -lt $(($2 * 10)) ]; do
        s=$(st_squeue "$1")
        case $s in
        COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | PREEMPTED | BOOT_FAIL | DEADLINE)
            [ -n "$(st_sacct "$1")" ] && return 0 ;;
        esac
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
# wait up to $2 seconds until job $1 is RUNNING
wait_running() {
    local i=0
    while [ $i -lt $(($2 * 10)) ]; do
        [ "$(st_squeue "$1")" = RUNNING ] && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
same() { [ "$1" = "$2" ] || { echo "      got '$1', want '$2'" && return 1; }; }

echo "== two clusters started at the same moment ($work) [$(elapsed "$t_start") s]"
t=$(date +%s.%N)
"$local_sh" start "$a" >"$work/a.env" 2>"$work/a.err" &
pa=$!
"$local_sh" start "$b" >"$work/b.env" 2>"$work/b.err" &
pb=$!
wait $pa
ra=$?
wait $pb
rb=$?
echo "      both up in $(elapsed "$t") s"
check "start a exits 0" same "$ra" 0 || cat "$work/a.err"
check "start b exits 0" same "$rb" 0 || cat "$work/b.err"
[ "$ra" = 0 ] && [ "$rb" = 0 ] || exit 1
check "start prints the SLURM_CONF export line" grep -qx "export SLURM_CONF=$a/etc/slurm.conf" "$work/a.env"
"$local_sh" env "$a" >"$work/a.env2" 2>/dev/null
check "env prints the same lines again" cmp -s "$work/a.env" "$work/a.env2"
pa_ctld=$(sed -n 's/^SlurmctldPort=//p' "$a/etc/slurm.conf")
pb_ctld=$(sed -n 's/^SlurmctldPort=//p' "$b/etc/slurm.conf")
pa_d=$(sed -n 's/^SlurmdPort=//p' "$a/etc/slurm.conf")
pb_d=$(sed -n 's/^SlurmdPort=//p' "$b/etc/slurm.conf")
check "the clusters use four different ports ($pa_ctld $pa_d, $pb_ctld $pb_d)" \
    test "$(printf '%s\n' "$pa_ctld" "$pa_d" "$pb_ctld" "$pb_d" | sort -u | wc -l)" = 4
check "a second start of a running DIR is refused" \
    bash -c "! '$local_sh' start '$a' >/dev/null 2>&1"

echo "== a job on cluster b, then b stops [$(elapsed "$t_start") s]"
jb=$(SLURM_CONF=$b/etc/slurm.conf sbatch --parsable -c 1 -o "$work/b-%j.out" --wrap 'echo on-b')
SLURM_CONF=$b/etc/slurm.conf wait_done "$jb" 20
check "job $jb on b completed with its output" grep -qx on-b "$work/b-$jb.out"
check "b does not know a's jobs (separate controllers)" \
    bash -c "[ \"\$(SLURM_CONF=$a/etc/slurm.conf squeue -h -j $jb -t all -o %T 2>/dev/null)\" = '' ]"
b_pids=$(cat "$b"/run/*.pid)
"$local_sh" stop "$b" 2>/dev/null &
stop_b=$!   # checked at the end

eval "$(cat "$work/a.env")"
ncpu=$(sinfo -h -o %c)
echo "== cluster a: node $(sinfo -h -o %n), $ncpu CPUs, $(sinfo -h -o %T) [$(elapsed "$t_start") s]"
check "sinfo: one node, idle" same "$(sinfo -h -o '%D %T')" "1 idle"

echo "== a job that completes [$(elapsed "$t_start") s]"
mkdir -p "$work/out"
t=$(date +%s.%N)
j1=$(sbatch --parsable --cpus-per-task=1 -o "$work/out/%j.out" --wrap 'sleep 2; echo hi')
# runs meanwhile on the other core, checked below
j4=$(sbatch --parsable -c 1 -o "$work/out/%j.out" --wrap 'exit 3')
check "sbatch --parsable prints the job id ($j1)" test -n "$j1"
wait_done "$j1" 20
echo "      submitted to done: $(elapsed "$t") s"
check "its output file says hi" grep -qx hi "$work/out/$j1.out"
check "squeue -t all: COMPLETED" same "$(st_squeue "$j1")" COMPLETED
check "sacct -c: COMPLETED|0:0" same "$(st_sacct "$j1")" "COMPLETED|0:0"
check "scontrol: COMPLETED 0:0" same "$(st_scontrol "$j1")" "COMPLETED 0:0"
check "squeue without -t all: nothing for a finished job" same "$(squeue -h -j "$j1" -o %T)" ""

if [ "$ncpu" -ge 2 ]; then
    echo "== two 1-CPU jobs at once on the $ncpu-CPU node [$(elapsed "$t_start") s]"
    j2=$(sbatch --parsable -c 1 -o "$work/out/%j.out" --wrap 'grep Cpus_allowed_list /proc/self/status; sleep 3')
    j3=$(sbatch --parsable -c 1 -o "$work/out/%j.out" --wrap 'grep Cpus_allowed_list /proc/self/status; sleep 3')
    t=$(date +%s.%N)
    both=0
    while [ "$(elapsed "$t" | cut -d. -f1)" -lt 10 ]; do
        if [ "$(st_squeue "$j2")" = RUNNING ] && [ "$(st_squeue "$j3")" = RUNNING ]; then
            both=1
            break
        fi
        sleep 0.1
    done
    check "jobs $j2 and $j3 are RUNNING at the same time" same "$both" 1
    wait_done "$j2" 20
    wait_done "$j3" 20
    c2=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$work/out/$j2.out")
    c3=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$work/out/$j3.out")
    check "each is bound to one CPU of its own ($c2, $c3)" \
        bash -c "[ -n '$c2' ] && [ -n '$c3' ] && [ '$c2' != '$c3' ] && [[ '$c2' != *[-,]* ]]"
else
    echo "== skipped: two jobs at once (the node has $ncpu CPU)"
fi

echo "== a job that exits 3 [$(elapsed "$t_start") s]"
wait_done "$j4" 20
check "squeue -t all: FAILED" same "$(st_squeue "$j4")" FAILED
check "sacct -c: FAILED|3:0" same "$(st_sacct "$j4")" "FAILED|3:0"
check "scontrol: FAILED 3:0" same "$(st_scontrol "$j4")" "FAILED 3:0"

echo "== a running job cancelled with scancel [$(elapsed "$t_start") s]"
# runs meanwhile on the other core, checked below
j9=$(sbatch --parsable -c 1 -o "$work/out/%j.out" -D "$work/out" \
    --wrap '(sleep 191 & echo $! >bg1.pid); sleep 192 & echo $! >bg2.pid; exit 0')
j5=$(sbatch --parsable -c 1 -o "$work/out/%j.out" --wrap 'echo started; sleep 60')
wait_running "$j5" 20
check "it runs" same "$(st_squeue "$j5")" RUNNING
t=$(date +%s.%N)
scancel "$j5"
wait_done "$j5" 20
echo "      scancel to final state: $(elapsed "$t") s"
check "squeue -t all: CANCELLED" same "$(st_squeue "$j5")" CANCELLED
check "sacct -c: CANCELLED|0:0 (its exit code is not recorded)" same "$(st_sacct "$j5")" "CANCELLED|0:0"
check "scontrol: CANCELLED 0:15" same "$(st_scontrol "$j5")" "CANCELLED 0:15"

echo "== a pending (held) job cancelled [$(elapsed "$t_start") s]"
j6=$(sbatch --parsable -c 1 --hold -o "$work/out/%j.out" --wrap 'echo never')
check "it is PENDING" same "$(st_squeue "$j6")" PENDING
scancel "$j6"
wait_done "$j6" 20
check "squeue -t all: CANCELLED" same "$(st_squeue "$j6")" CANCELLED
check "sacct -c: CANCELLED|0:0" same "$(st_sacct "$j6")" "CANCELLED|0:0"
check "it never ran (no output file)" test ! -e "$work/out/$j6.out"

echo "== processes a job leaves in the background [$(elapsed "$t_start") s]"
wait_done "$j9" 20
p1=$(cat "$work/out/bg1.pid" 2>/dev/null)
p2=$(cat "$work/out/bg2.pid" 2>/dev/null)
check "the job completed" same "$(st_squeue "$j9")" COMPLETED
check "its orphan and its background child are gone (pids $p1 $p2)" \
    bash -c "[ -n '$p1' ] && [ -n '$p2' ] && [ ! -d /proc/$p1 ] && [ ! -d /proc/$p2 ]"

echo "== srun inside a batch job [$(elapsed "$t_start") s]"
j7=$(sbatch --parsable -c 2 -o "$work/out/%j.out" \
    --wrap 'srun -n 2 -c 1 --cpu-bind=cores grep Cpus_allowed_list /proc/self/status')
wait_done "$j7" 20
check "srun step completed" same "$(st_sacct "$j7")" "COMPLETED|0:0"
check "srun ran 2 tasks" same "$(grep -c Cpus_allowed_list "$work/out/$j7.out")" 2
if [ "$ncpu" -ge 2 ]; then
    check "--cpu-bind=cores put them on different CPUs" \
        same "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$work/out/$j7.out" | sort -u | wc -l)" 2
fi

echo "== an unknown job id [$(elapsed "$t_start") s]"
check "squeue -j 999999 -t all: exit status 1, nothing on stdout" \
    bash -c "out=\$(squeue -h -j 999999 -t all -o %T 2>/dev/null); [ \$? = 1 ] && [ -z \"\$out\" ]"

wait $stop_b
gone=1
for p in $b_pids; do [ -d "/proc/$p" ] && gone=0; done
check "stop b (in the background meanwhile): its munged, slurmctld and slurmd are gone" same "$gone" 1

echo "== stop, start again: the history is kept [$(elapsed "$t_start") s]"
a_pids=$(cat "$a"/run/*.pid)
t=$(date +%s.%N)
"$local_sh" stop "$a" 2>/dev/null
echo "      stop took $(elapsed "$t") s"
gone=1
for p in $a_pids; do [ -d "/proc/$p" ] && gone=0; done
check "stop a: its munged, slurmctld and slurmd are gone" same "$gone" 1
left=""
for f in /proc/[0-9]*/cmdline; do
    c=$(tr '\0' ' ' <"$f" 2>/dev/null) || continue
    [[ $c == *"$work/"* ]] && left="$left ${f#/proc/}"
done
check "no process with this test's directory in its command line is left" same "$left" ""
"$local_sh" start "$a" >/dev/null 2>"$work/a.err2" || cat "$work/a.err2"
check "scontrol still knows $j4 after the restart: FAILED 3:0" same "$(st_scontrol "$j4")" "FAILED 3:0"
check "sacct -c still knows $j5: CANCELLED|0:0" same "$(st_sacct "$j5")" "CANCELLED|0:0"
j8=$(sbatch --parsable -c 1 -o "$work/out/%j.out" --wrap 'echo again')
wait_done "$j8" 20
check "a new job runs, its id follows the old ones ($j8 > $j7)" \
    bash -c "[ '$j8' -gt '$j7' ] && grep -qx again '$work/out/$j8.out'"
"$local_sh" stop "$a" 2>/dev/null

echo "== $(elapsed "$t_start") s in all"
if [ $fails -ne 0 ]; then
    echo "$fails check(s) failed; logs in $work/{a,b}/log (KEEP=1 keeps them)"
    exit 1
fi
echo "all checks passed"
