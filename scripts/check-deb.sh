#!/bin/bash
# check-deb.sh [BUILD] -- the Debian package from build to purge, on this Debian host, as
# root; PID 1 need not be systemd (the units' processes are started by this script as
# systemd would start them). Run by `make deb-check`, which `make test` runs.
#  1. `make deb`; lintian on the package: no error (its warnings and notes, none at the
#     time of writing, are printed).
#  2. dpkg -i: the programs, the configuration as conffiles, the units, the generator; the
#     system user and group rcssserver; /var/lib/rcssserver owned by it.
#  3. The installed units: `systemd-analyze verify`, and `systemd-analyze security
#     --offline=true` gives each service an exposure of 2.0 or less.
#  4. A match in the systemd layout from the installed files: RCSS_ARGS in the installed
#     /etc/rcssserver/rcssserver.env asks for 2 player gateways and free ports; the
#     installed generator, run with a temporary directory, makes rcssserver.target want
#     netgw@0 and netgw@1; each unit's ExecStart runs as the unit says (its User= and
#     Group=, UMask=, WorkingDirectory=, Environment= and EnvironmentFile=, no
#     capabilities, no new privileges; run_unit below). The sim reports ready with both
#     gateways, /status lists them, every process runs as rcssserver, a player connects
#     over UDP and gets its init reply, the recorder writes the logs into
#     /var/lib/rcssserver as rcssserver. SIGTERM to the sim (systemctl stop) ends the
#     match: every process exits, the logs get their final names, the region is gone.
#     Where strace is installed the programs run under it, and every system call and
#     socket family they used must be one the units allow (SystemCallFilter=,
#     RestrictAddressFamilies=).
# 4b. The same under systemd itself, PID 1 of namespaces of its own that see only the
#     rcssserver units: every unit active with its sandbox (seccomp, no capabilities, as
#     rcssserver), the generator's two gateways, a player and a monitor; the sim killed
#     with SIGKILL is restarted by its unit and takes the match over, the gateways and the
#     player staying; stopping the sim ends the match with its logs named.
#  5. dpkg -i again (an upgrade to the same version): the changed rcssserver.env is kept,
#     the user is the same.
#  6. dpkg -r, then dpkg -P: after the purge no file of the package, no /etc/rcssserver,
#     no /var/lib/rcssserver, no user or group rcssserver is left.
# A package rcssserver installed before, or a user rcssserver that an earlier run of this
# check did not leave, stops the check with a message rather than being touched.
# RCSS_CHECK_DEB_VERBOSE=1 also prints the system calls the programs made.
set -euo pipefail
build=${1:-build}
t0=$(date +%s)
say() { echo "check-deb: $*"; }
fail() { echo "check-deb: FAIL: $*" >&2; exit 1; }

if [ "$(id -u)" -ne 0 ]; then
    say "skipped: needs root (dpkg -i, a system user)"
    exit 0
fi
for c in dpkg-buildpackage dh lintian systemd-analyze setpriv; do
    command -v "$c" >/dev/null 2>&1 || fail "$c is missing (scripts/install-deps.sh installs it)"
done

ours_maint=$(sed -n 's/^Maintainer: //p' conf/debian/control)
if dpkg-query -W -f='${Status}' rcssserver 2>/dev/null | grep -q 'installed\|config-files'; then
    if [ "$(dpkg-query -W -f='${Maintainer}' rcssserver)" = "$ours_maint" ]; then
        say "an earlier run left the package installed: purging it"
        dpkg -P rcssserver >/dev/null
    else
        fail "a package rcssserver of someone else is installed; not touching it"
    fi
fi
if getent passwd rcssserver >/dev/null; then
    # one the package made (its sysusers line) and an earlier run could not remove goes;
    # any other stays
    if [ "$(getent passwd rcssserver | cut -d: -f5,6)" = "RoboCup soccer simulation server:/var/lib/rcssserver" ] &&
       ! dpkg-query -W rcssserver >/dev/null 2>&1 && userdel rcssserver 2>/dev/null; then
        say "an earlier run left the user rcssserver: removed"
        ! getent group rcssserver >/dev/null || groupdel rcssserver
    else
        fail "a user rcssserver exists that this package did not make (or still in use); not touching it"
    fi
fi

tmp=$(mktemp -d)
chmod 755 "$tmp"
pids=()
sd_pid=""
sd_unshare=""
cleanup() {
    local p
    # systemd of stage 4b: PID 1 of its namespace, so everything in it goes too
    if [ -n "$sd_pid" ]; then kill -KILL "$sd_pid" 2>/dev/null || true; sleep 0.5; fi
    for p in "${pids[@]}"; do kill -KILL -- "-$p" 2>/dev/null || true; done
    # the purge removes the user only once none of its processes is left
    for _ in $(seq 1 50); do
        alive=0
        for p in "${pids[@]}"; do kill -0 -- "-$p" 2>/dev/null && alive=1; done
        [ "$alive" -eq 0 ] && break
        sleep 0.1
    done
    if dpkg-query -W -f='${Status}' rcssserver 2>/dev/null | grep -q 'installed\|config-files'; then
        dpkg -P rcssserver >/dev/null 2>&1 || true
    fi
    # the region of a match killed here
    [ -z "${shm:-}" ] || rm -f "/dev/shm$shm"
    rm -rf "$tmp"
}
trap cleanup EXIT

# ---- 1. build, lintian ---------------------------------------------------------------
say "make deb"
make -s deb BUILD="$build" >"$tmp/deb.log" 2>&1 || { tail -30 "$tmp/deb.log"; fail "make deb"; }
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' conf/debian/changelog)
deb=$(ls "$build"/deb/rcssserver_"$version"_*.deb)
[ -f "$deb" ] || fail "no package in $build/deb"
lintian "$deb" >"$tmp/lintian.log" 2>&1 || true
if grep -q '^E:' "$tmp/lintian.log"; then
    cat "$tmp/lintian.log"
    fail "lintian reported errors"
fi
lint="$(grep -c '^W:' "$tmp/lintian.log" || true) warnings, $(grep -c '^I:' "$tmp/lintian.log" || true) notes"
grep -E '^[WI]:' "$tmp/lintian.log" || true
say "lintian: no errors, $lint"

# ---- 2. install ------------------------------------------------------------------------
dpkg -i "$deb" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "dpkg -i"; }
for f in /usr/bin/rcssserver /usr/bin/rcss-netgw /usr/bin/rcss-monitorgw /usr/bin/rcss-recorder \
         /usr/bin/rcss-logplayer /usr/bin/rcssclient /usr/bin/rcss-tournament /usr/bin/rcssserver3d; do
    [ -x "$f" ] || fail "$f not installed"
done
for f in server.conf player.conf rcssserver.env; do
    dpkg-query -W -f='${Conffiles}\n' rcssserver | grep -q " /etc/rcssserver/$f " ||
        fail "/etc/rcssserver/$f is not a conffile"
done
units=/lib/systemd/system
for u in rcssserver.target rcssserver-sim.service rcssserver-netgw@.service \
         rcssserver-monitorgw.service rcssserver-recorder.service; do
    [ -f "$units/$u" ] || fail "$units/$u not installed"
    if [ "$u" != rcssserver.target ]; then
        grep -q '^User=rcssserver$' "$units/$u" || fail "$u does not run as rcssserver"
    fi
done
grep -q '^ExecStart=/usr/bin/rcssserver ' "$units/rcssserver-sim.service" ||
    fail "rcssserver-sim.service does not start /usr/bin/rcssserver"
grep -q '^Environment=RCSS_CONF_DIR=/etc/rcssserver$' "$units/rcssserver-sim.service" ||
    fail "rcssserver-sim.service does not read /etc/rcssserver"
generator=/lib/systemd/system-generators/rcssserver-generator
[ -x "$generator" ] || fail "$generator not installed"
IFS=: read -r _ _ uid gid _ home shell < <(getent passwd rcssserver) || fail "no user rcssserver"
[ "$uid" -lt 1000 ] || fail "rcssserver has uid $uid, not a system uid"
getent group rcssserver >/dev/null || fail "no group rcssserver"
[ "$home" = /var/lib/rcssserver ] || fail "rcssserver's home is $home"
case "$shell" in */nologin|*/false) ;; *) fail "rcssserver's shell is $shell" ;; esac
[ "$(stat -c '%U:%G %a' /var/lib/rcssserver)" = "rcssserver:rcssserver 750" ] ||
    fail "/var/lib/rcssserver is $(stat -c '%U:%G %a' /var/lib/rcssserver)"
say "installed: programs, conffiles, units, generator; user rcssserver (uid $uid)"

# ---- 3. the installed units ------------------------------------------------------------
services="rcssserver-sim.service rcssserver-monitorgw.service rcssserver-recorder.service rcssserver-netgw@0.service"
# shellcheck disable=SC2086
v=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no rcssserver.target $services 2>&1 |
    grep rcssserver || true)
[ -z "$v" ] || { echo "$v"; fail "systemd-analyze verify on the installed units"; }
levels=""
for s in $services; do
    out=$(systemd-analyze security --offline=true --threshold=20 "$s" 2>&1) ||
        { echo "$out" | grep -E '✗|Overall'; fail "$s: exposure above 2.0"; }
    levels="$levels ${s%.service} $(echo "$out" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')"
done
say "units verified; exposure:$levels"

# ---- 4. a match as the units run it ----------------------------------------------------
shm=/rcssserver-debcheck-$$
cat >>/etc/rcssserver/rcssserver.env <<EOF
# check-deb
RCSS_ARGS="server::netgw_processes=2 server::port=0 server::coach_port=0 server::olcoach_port=0 server::http_port=-1"
RCSS_SHM=$shm
EOF
mkdir -p "$tmp/gen"
RCSS_ENV_FILE=/etc/rcssserver/rcssserver.env "$generator" "$tmp/gen" "$tmp/gen.early" "$tmp/gen.late"
gws=()
for l in "$tmp/gen/rcssserver.target.wants/"rcssserver-netgw@*.service; do
    [ "$(readlink "$l")" = "$units/rcssserver-netgw@.service" ] || fail "generator: $l -> $(readlink "$l")"
    i=${l##*@}
    gws+=("${i%.service}")
done
[ "${gws[*]}" = "0 1" ] || fail "the generator made gateways '${gws[*]}', not '0 1'"

# The environment file as systemd reads it: KEY=VALUE lines, comments, quotes around a
# whole value removed.
read_env_file() { # FILE -> lines KEY=VALUE
    local line key val
    while IFS= read -r line || [ -n "$line" ]; do
        line="${line#"${line%%[![:space:]]*}"}"
        case "$line" in ''|'#'*|';'*) continue ;; *=*) ;; *) continue ;; esac
        key=${line%%=*}; val=${line#*=}
        case "$val" in \"*\") val=${val#\"}; val=${val%\"} ;; \'*\') val=${val#\'}; val=${val%\'} ;; esac
        printf '%s=%s\n' "$key" "$val"
    done < "$1"
}
unit_value() { sed -n "s/^$2=//p" "$1"; }

strace_ok=0
if command -v strace >/dev/null 2>&1; then strace_ok=1; fi
mkdir "$tmp/trace"
chown rcssserver:rcssserver "$tmp/trace"

# run_unit UNIT_FILE INSTANCE LOG: start the unit's ExecStart in the background as systemd
# would, with its User=, Group=, UMask=, WorkingDirectory=, Environment= and
# EnvironmentFile=, no capabilities (CapabilityBoundingSet=), NoNewPrivileges=; $! is its
# pid (strace's where it traces) and its process group (setsid), which the cleanup kills
run_unit() {
    local file=$1 inst=$2 log=$3 name
    name=$(basename "$file" .service)
    name=${name%@}${inst:+@$inst}
    local -A env=()
    local kv f word w
    while IFS= read -r kv; do env[${kv%%=*}]=${kv#*=}; done < <(unit_value "$file" Environment)
    while IFS= read -r f; do
        f=${f#-}
        [ -r "$f" ] || continue
        while IFS= read -r kv; do env[${kv%%=*}]=${kv#*=}; done < <(read_env_file "$f")
    done < <(unit_value "$file" EnvironmentFile)
    local exec_start user group umask wd
    exec_start=$(unit_value "$file" ExecStart)
    exec_start=${exec_start//%i/$inst}
    user=$(unit_value "$file" User); group=$(unit_value "$file" Group)
    umask=$(unit_value "$file" UMask); wd=$(unit_value "$file" WorkingDirectory)
    # ${NAME}: the value as one word; $NAME alone: the value split at blanks
    local -a argv=()
    for word in $exec_start; do
        if [[ $word =~ ^\$([A-Za-z_][A-Za-z0-9_]*)$ ]]; then
            # shellcheck disable=SC2206
            argv+=(${env[${BASH_REMATCH[1]}]:-})
        else
            while [[ $word =~ \$\{([A-Za-z_][A-Za-z0-9_]*)\} ]]; do
                w=${BASH_REMATCH[1]}
                word=${word//\$\{$w\}/${env[$w]:-}}
            done
            argv+=("$word")
        fi
    done
    local -a envv=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
                   HOME="$home" USER="$user" LOGNAME="$user" SHELL="$shell")
    for kv in "${!env[@]}"; do envv+=("$kv=${env[$kv]}"); done
    local -a tracer=()
    [ "$strace_ok" -eq 0 ] || tracer=(strace -f -qq -o "$tmp/trace/$name")
    (
        umask "${umask:-0022}"
        cd "${wd:-/}"
        exec setsid setpriv --reuid="$user" --regid="$group" --clear-groups --no-new-privs \
            --inh-caps=-all --bounding-set=-all \
            env -i "${envv[@]}" "${tracer[@]}" "${argv[@]}"
    ) >"$log" 2>&1 &
    # not a job of this shell: no "Killed" line when the cleanup ends it
    disown "$!"
}

# the order of rcssserver.target: the sim, then what is After= it
run_unit "$units/rcssserver-sim.service" "" "$tmp/sim.log"
sim_runner=$!
pids+=("$sim_runner")
for i in "${gws[@]}"; do
    run_unit "$units/rcssserver-netgw@.service" "$i" "$tmp/netgw$i.log"
    pids+=("$!")
done
run_unit "$units/rcssserver-monitorgw.service" "" "$tmp/monitorgw.log"; pids+=("$!")
run_unit "$units/rcssserver-recorder.service" "" "$tmp/recorder.log"; pids+=("$!")

ready=""
for _ in $(seq 1 100); do
    ready=$(grep -m1 '^READY ' "$tmp/sim.log" || true)
    [ -n "$ready" ] && break
    sleep 0.1
done
if [ -z "$ready" ]; then
    for f in "$tmp"/*.log; do echo "== $f"; cat "$f"; done
    fail "the sim did not report ready within 10 s"
fi
port=$(sed -n 's/.* port=\([0-9]*\).*/\1/p' <<<"$ready")
http=$(sed -n 's/.* http_port=\([0-9]*\).*/\1/p' <<<"$ready")
sim_pid=$(sed -n 's/.* pid=\([0-9]*\).*/\1/p' <<<"$ready")

# /status over HTTP, by bash alone; every gateway listed with its pid (and "up", where
# /status gives a state; the recorder may attach a moment after the READY line)
get_status() {
    exec 3<>"/dev/tcp/127.0.0.1/$http" || return 0
    printf 'GET /status HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
    timeout 5 cat <&3 || true
    exec 3<&-
}
for _ in $(seq 1 50); do
    status=$(get_status)
    procs=$(grep -o '"name":"[a-z0-9]*",\("state":"up",\)\{0,1\}"pid":[1-9][0-9]*' <<<"$status" || true)
    [ "$(wc -l <<<"$procs")" -ge 4 ] && break
    sleep 0.2
done
grep -q '"ready":true' <<<"$status" || fail "/status: not ready: $status"
for n in netgw0 netgw1 monitorgw recorder; do
    grep -q "\"name\":\"$n\"" <<<"$procs" || fail "/status lists no running $n: $status"
done
! grep -q '"name":"netgw2"' <<<"$status" || fail "/status lists a third player gateway"
for p in $sim_pid $(sed 's/.*"pid"://' <<<"$procs"); do
    [ -r "/proc/$p/status" ] || fail "process $p of /status is not running"
    u=$(awk '/^Uid:/ { print $2 }' "/proc/$p/status")
    [ "$u" = "$uid" ] || fail "process $p runs as uid $u, not rcssserver ($uid)"
    grep -q '^CapEff:[[:space:]]*0*$' "/proc/$p/status" || fail "process $p has capabilities"
    grep -q '^NoNewPrivs:[[:space:]]*1$' "/proc/$p/status" || fail "process $p may gain privileges"
done

# a player: the init reply from the server
reply=$( (printf '(turn 10)\n'; sleep 0.5) | timeout 10 rcssclient 127.0.0.1 "$port" --team DebCheck 2>&1 | head -n 1 || true)
[[ $reply == "(init l 1 before_kick_off)"* ]] || fail "the player got '$reply', not its init reply"

# a monitor (protocol 5): the frames of the monitor gateway's fan-out
frames=$(printf '(dispinit version 5)\n' | timeout 10 rcssclient 127.0.0.1 "$port" --linger 1500 2>&1 |
         grep -c '^(show ' || true)
[ "$frames" -ge 3 ] || fail "the monitor got $frames frames in 1.5 s"

# the logs, written as rcssserver with the units' umask
for f in incomplete.rcg incomplete.rcl; do
    [ -f "/var/lib/rcssserver/$f" ] || fail "no /var/lib/rcssserver/$f"
    [ "$(stat -c '%U %a' "/var/lib/rcssserver/$f")" = "rcssserver 640" ] ||
        fail "/var/lib/rcssserver/$f is $(stat -c '%U %a' "/var/lib/rcssserver/$f")"
done
say "a match as the units run it: ready with gateways ${gws[*]}, every process as rcssserver without capabilities, a player answered, a monitor got $frames frames, logs in /var/lib/rcssserver"

# systemctl stop: SIGTERM to the sim; the gateways leave with it
kill -TERM "$sim_pid"
for _ in $(seq 1 100); do
    alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" -eq 0 ] && break
    sleep 0.1
done
[ "$alive" -eq 0 ] || fail "processes left 10 s after SIGTERM to the sim"
# (strace has ended with its program, so the process groups are empty too)
pids=()
[ ! -e "/dev/shm$shm" ] || fail "the region /dev/shm$shm is left"
ls /var/lib/rcssserver/*DebCheck*.rcg >/dev/null 2>&1 || fail "the game log was not renamed: $(ls /var/lib/rcssserver)"

if [ "$strace_ok" -eq 1 ]; then
    # the calls the units allow: SystemCallFilter= lines, ~ for a deny list
    expand() { # a group or a call -> calls
        case "$1" in
            @*) systemd-analyze syscall-filter --no-pager "$1" | sed -n '2,$p' |
                  sed 's/^[[:space:]]*//; /^#/d; /^$/d' | while read -r x; do expand "$x"; done ;;
            *) echo "$1" ;;
        esac
    }
    : >"$tmp/allow"; : >"$tmp/deny"
    for w in $(unit_value "$units/rcssserver-sim.service" SystemCallFilter); do
        case "$w" in ~*) expand "${w#\~}" >>"$tmp/deny" ;; *) expand "$w" >>"$tmp/allow" ;; esac
    done
    sort -u "$tmp/allow" >"$tmp/allow.s"; sort -u "$tmp/deny" >"$tmp/deny.s"
    comm -23 "$tmp/allow.s" "$tmp/deny.s" >"$tmp/allowed"
    # each program's own calls, from its execve on (not setpriv's nor env's before it)
    for f in "$tmp"/trace/*; do
        awk '/ execve\(/ { seen = 1 } seen' "$f"
    done | sed -n 's/^[0-9]* *\([a-z_0-9]*\)(.*/\1/p' | sort -u >"$tmp/used"
    bad=$(comm -23 "$tmp/used" "$tmp/allowed" | tr '\n' ' ')
    [ -z "${RCSS_CHECK_DEB_VERBOSE:-}" ] || { echo "system calls used:"; tr '\n' ' ' <"$tmp/used"; echo; }
    [ -z "$bad" ] || fail "system calls outside the units' SystemCallFilter: $bad"
    # socket families: RestrictAddressFamilies=; glibc's address probe (getaddrinfo with
    # AI_ADDRCONFIG opens a netlink socket) goes on without it when it is refused
    fams=$(unit_value "$units/rcssserver-sim.service" RestrictAddressFamilies)
    used_fams=$(cat "$tmp"/trace/* | sed -n 's/^[0-9]* *socket(\([A-Z_0-9]*\), .*/\1/p' | sort -u)
    for fam in $used_fams; do
        case " $fams AF_NETLINK " in *" $fam "*) ;; *) fail "socket family $fam outside RestrictAddressFamilies=" ;; esac
    done
    say "system calls: $(wc -l <"$tmp/used") different ones, all within the units' filter; socket families: $(echo $used_fams)"
fi

# ---- 4b. the same under systemd ----------------------------------------------------------
# systemd itself as PID 1 of new pid, mount, uts and cgroup namespaces: it sees only the
# installed rcssserver units, journald and the targets they need (a private
# /usr/lib/systemd/system), with /run, /tmp, /etc/systemd/system and /var/log/journal of
# its own, and shares with the host the rest of the files, /dev/shm and the network. So
# the units run with their whole sandbox (mounts, seccomp filter, address families) and
# the installed generator picks the gateways. Skipped with a message where systemd cannot
# start so (set RCSS_CHECK_DEB_SYSTEMD=0 to skip it).
sd_stage() {
    local U=$tmp/sd-units src=/usr/lib/systemd/system f
    mkdir -p "$U/sockets.target.wants"
    for f in sysinit.target basic.target sockets.target paths.target timers.target slices.target \
             local-fs.target local-fs-pre.target swap.target shutdown.target multi-user.target \
             default.target final.target exit.target umount.target \
             systemd-journald.service systemd-journald.socket systemd-journald-dev-log.socket \
             rcssserver.target rcssserver-sim.service rcssserver-netgw@.service \
             rcssserver-monitorgw.service rcssserver-recorder.service; do
        [ -e "$src/$f" ] && cp "$src/$f" "$U/"
    done
    printf '[Unit]\nDescription=check-deb\nWants=systemd-journald.socket rcssserver.target\n' \
        >"$U/rcss-check.target"
    unshare --pid --fork --mount --uts --cgroup --mount-proc --propagation private bash -c '
        set -e
        mount --bind "$1" /usr/lib/systemd/system
        mount -t tmpfs tmpfs /run
        mkdir -p /run/lock
        mount -t tmpfs tmpfs /tmp
        mount -t tmpfs tmpfs /etc/systemd/system
        [ ! -d /var/log/journal ] || mount -t tmpfs tmpfs /var/log/journal
        mount -o bind /sys /sys
        mount -o remount,bind,ro /sys
        mount -t cgroup2 cgroup2 /sys/fs/cgroup
        hostname rcss-check-deb
        export container=check-deb
        exec /lib/systemd/systemd --system --unit=rcss-check.target --log-target=console --show-status=no
    ' bash "$U" >"$tmp/systemd.log" 2>&1 &
    sd_unshare=$!
    disown "$sd_unshare"
    local st=""
    for _ in $(seq 1 100); do
        sd_pid=$(pgrep -P "$sd_unshare" 2>/dev/null | head -n 1 || true)
        if [ -n "$sd_pid" ]; then
            st=$(nsenter -t "$sd_pid" -m -p -- systemctl is-system-running 2>/dev/null || true)
            case "$st" in running|degraded) break ;; esac
        fi
        kill -0 "$sd_unshare" 2>/dev/null || break
        sleep 0.1
    done
    case "$st" in
        running|degraded) ;;
        *) say "under systemd: skipped, systemd did not start in namespaces of its own ($st)"
           tail -5 "$tmp/systemd.log" | sed 's/^/  /'
           sd_stop; return 0 ;;
    esac
    local E=(nsenter -t "$sd_pid" -m -p --)
    sctl() { "${E[@]}" systemctl "$@"; }
    local u want="rcssserver-sim rcssserver-netgw@0 rcssserver-netgw@1 rcssserver-monitorgw rcssserver-recorder"
    local ready=""
    for _ in $(seq 1 100); do
        ready=$("${E[@]}" journalctl -q -o cat -u rcssserver-sim.service 2>/dev/null | grep -m1 '^READY ' || true)
        [ -n "$ready" ] && break
        sleep 0.1
    done
    if [ -z "$ready" ]; then
        sctl list-units --all --no-pager 'rcssserver*' || true
        "${E[@]}" journalctl -q --no-pager -n 40 || true
        fail "under systemd: the sim did not report ready within 10 s"
    fi
    for u in $want; do
        [ "$(sctl show -p ActiveState --value "$u.service")" = active ] ||
            fail "under systemd: $u is $(sctl show -p ActiveState --value "$u.service")"
    done
    [ "$(sctl show -p ActiveState --value rcssserver-netgw@2.service)" != active ] ||
        fail "under systemd: a third player gateway runs"
    local port http
    port=$(sed -n 's/.* port=\([0-9]*\).*/\1/p' <<<"$ready")
    http=$(sed -n 's/.* http_port=\([0-9]*\).*/\1/p' <<<"$ready")
    # every process: the user, no capabilities, no new privileges, a seccomp filter
    local pid line
    declare -A main=()
    for u in $want; do
        pid=$(sctl show -p MainPID --value "$u.service")
        main[$u]=$pid
        line=$("${E[@]}" cat "/proc/$pid/status" | grep -E '^(Uid|CapEff|NoNewPrivs|Seccomp):' | tr -s '\t\n' '  ')
        [[ $line == *"Uid: $uid $uid $uid $uid "*"CapEff: 0000000000000000 NoNewPrivs: 1 Seccomp: 2 "* ]] ||
            fail "under systemd: $u: $line"
    done
    # a player for the whole stage, a monitor
    (printf '(turn 10)\n'; sleep 8) | timeout 15 rcssclient 127.0.0.1 "$port" --team SdCheck --linger 200 \
        >"$tmp/sd-player.out" 2>&1 &
    local player=$!
    frames=$(printf '(dispinit version 5)\n' | timeout 10 rcssclient 127.0.0.1 "$port" --linger 1500 2>&1 |
             grep -c '^(show ' || true)
    [ "$frames" -ge 3 ] || fail "under systemd: the monitor got $frames frames in 1.5 s"
    head -n 1 "$tmp/sd-player.out" | grep -q '^(init l 1 before_kick_off)' ||
        fail "under systemd: the player got '$(head -n 1 "$tmp/sd-player.out")'"
    # the sim killed: its unit starts a new one, which takes the match over; the gateways
    # and the player stay
    local before after
    before=$(grep -c '^(sense_body' "$tmp/sd-player.out" || true)
    "${E[@]}" kill -KILL "${main[rcssserver-sim]}"
    local took=""
    for _ in $(seq 1 50); do
        sleep 0.1
        took=$("${E[@]}" journalctl -q -o cat -u rcssserver-sim.service | grep -m1 'takes the match over' || true)
        [ -n "$took" ] && break
    done
    [ -n "$took" ] || fail "under systemd: no new sim took the match over after a kill -9"
    sleep 1.5
    [ "$(sctl show -p NRestarts --value rcssserver-sim.service)" = 1 ] || fail "under systemd: the sim was not restarted once"
    for u in rcssserver-netgw@0 rcssserver-netgw@1 rcssserver-monitorgw rcssserver-recorder; do
        [ "$(sctl show -p MainPID --value "$u.service")" = "${main[$u]}" ] ||
            fail "under systemd: $u was restarted with the sim"
    done
    after=$(grep -c '^(sense_body' "$tmp/sd-player.out" || true)
    [ "$after" -gt $((before + 5)) ] || fail "under systemd: the player got $before then $after sense_body"
    wait "$player" 2>/dev/null || true
    # the sim stopped: the match ends, the logs get their names, the gateways leave
    sctl stop rcssserver-sim.service
    for _ in $(seq 1 100); do
        local up=0
        for u in $want; do [ "$(sctl show -p ActiveState --value "$u.service")" = inactive ] || up=1; done
        [ "$up" -eq 0 ] && break
        sleep 0.1
    done
    [ "$up" -eq 0 ] || fail "under systemd: units still active 10 s after stopping the sim"
    ls /var/lib/rcssserver/*SdCheck*.rcg >/dev/null 2>&1 || fail "under systemd: the game log was not renamed"
    say "under systemd: the units with their sandbox (seccomp on, no capabilities, as rcssserver), gateways 0 1 from the generator, a player and a monitor ($frames frames), the sim killed and taken over ($before then $after sense_body at the player), stopped with its logs named"
    sd_stop
}
sd_stop() {
    if [ -n "${sd_pid:-}" ]; then kill -KILL "$sd_pid" 2>/dev/null || true; fi
    if [ -n "${sd_unshare:-}" ]; then
        for _ in $(seq 1 50); do kill -0 "$sd_unshare" 2>/dev/null || break; sleep 0.1; done
    fi
    sd_pid=""; sd_unshare=""
}
if [ "${RCSS_CHECK_DEB_SYSTEMD:-1}" = 0 ]; then
    say "under systemd: skipped (RCSS_CHECK_DEB_SYSTEMD=0)"
elif ! command -v unshare >/dev/null 2>&1 || ! command -v nsenter >/dev/null 2>&1 || [ ! -x /lib/systemd/systemd ]; then
    say "under systemd: skipped (no unshare, nsenter or /lib/systemd/systemd)"
else
    sd_stage
fi

# ---- 5. again over itself --------------------------------------------------------------
dpkg -i "$deb" >"$tmp/install2.log" 2>&1 || { cat "$tmp/install2.log"; fail "dpkg -i over the installed package"; }
grep -q '^RCSS_SHM=/rcssserver-debcheck-' /etc/rcssserver/rcssserver.env ||
    fail "the reinstall replaced the changed /etc/rcssserver/rcssserver.env"
[ "$(id -u rcssserver)" = "$uid" ] || fail "the reinstall changed the user's uid"
say "reinstalled over itself: the changed conffile kept, the same user"

# ---- 6. remove, purge --------------------------------------------------------------------
dpkg -L rcssserver >"$tmp/files"
dpkg -r rcssserver >"$tmp/remove.log" 2>&1 || { cat "$tmp/remove.log"; fail "dpkg -r"; }
[ ! -e /usr/bin/rcssserver ] || fail "dpkg -r left /usr/bin/rcssserver"
[ -f /etc/rcssserver/rcssserver.env ] || fail "dpkg -r removed the configuration (purge does)"
dpkg -P rcssserver >"$tmp/purge.log" 2>&1 || { cat "$tmp/purge.log"; fail "dpkg -P"; }
left=""
while IFS= read -r f; do
    [ -e "$f" ] || continue
    case "$f" in
        # directories other packages share
        /.|/etc|/lib|/lib/systemd|/lib/systemd/system|/lib/systemd/system-generators|/usr|\
        /usr/bin|/usr/lib|/usr/lib/sysusers.d|/usr/lib/tmpfiles.d|/usr/share|/usr/share/doc|\
        /usr/share/man|/usr/share/man/man1) ;;
        *) left="$left $f" ;;
    esac
done <"$tmp/files"
[ -z "$left" ] || fail "left after the purge:$left"
for d in /etc/rcssserver /var/lib/rcssserver /usr/share/rcssserver /usr/share/doc/rcssserver; do
    [ ! -e "$d" ] || fail "$d left after the purge"
done
! getent passwd rcssserver >/dev/null || fail "the user rcssserver is left after the purge"
! getent group rcssserver >/dev/null || fail "the group rcssserver is left after the purge"
ls /var/lib/systemd/deb-systemd-helper-enabled 2>/dev/null | grep -q rcssserver &&
    fail "deb-systemd-helper state left after the purge"
say "removed, then purged: no file, directory, user or group left"
say "passed in $(( $(date +%s) - t0 )) s"
