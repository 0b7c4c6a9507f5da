#!/bin/bash
# tier-local.sh start|stop|env|pids DIR [NODES] -- a broadcast tier on this machine: one
# Redis and NODES (default 2) nginx nodes with the nchan module sharing their channels
# through it, all on 127.0.0.1 and free TCP ports, for the tests, the viewer bench and a
# user trying "Broadcasting a match" (README). Everything lives under DIR: the configs
# (DIR/node-K/nginx.conf from scripts/broadcast/nginx-node.conf, DIR/redis.conf), the page
# (DIR/www/index.html, monitorgw/web/mgw_page.html), the logs and the pid files (DIR/run).
# The system nginx and redis (their configs, services, ports 80 and 6379) are never used.
#
#   start DIR [NODES]  write the configs, start redis-server and the nodes, wait until
#                      each answers, print the lines of `env`
#   stop DIR           stop the nodes and Redis by the pids in DIR/run (never by name),
#                      wait until they are gone
#   env DIR            print the tier again, shell assignments:
#                        TIER_REDIS=127.0.0.1:PORT
#                        TIER_PUBLISH=http://127.0.0.1:PORT/pub/live   (server::broadcast_url)
#                        TIER_PAGES="http://127.0.0.1:P1/match/live/ ..."   (one per node)
#                        TIER_EVENTS="http://127.0.0.1:P1/match/live/events ..."
#   pids DIR           the pids of Redis, every nginx master and worker, comma-separated
#                      (for rcss-viewload --pids)
#
# Environment: TIER_CHANNEL (the channel, default live), TIER_WORKERS (nginx workers per
# node, default 1). Needs nginx, libnginx-mod-nchan and redis-server
# (scripts/install-deps.sh).
set -euo pipefail

me=tier-local
here=$(cd "$(dirname "$0")" && pwd)
usage() {
    echo "usage: $0 start|stop|env|pids DIR [NODES]" >&2
    exit 2
}
# say, die, free_port, wait_gone, wait_port, stop_daemons
. "$here/../lib/local-daemons.sh"
[ $# -ge 2 ] || usage
cmd=$1
case $cmd in start | stop | env | pids) ;; *) usage ;; esac
[ "$cmd" = start ] && mkdir -p "$2"
[ -d "$2" ] || die "$2: no such directory"
dir=$(cd "$2" && pwd)
run=$dir/run
channel=${TIER_CHANNEL:-live}
workers=${TIER_WORKERS:-1}

# the pid in DIR/run/$1.pid, if that process is alive and was started from this DIR
pid_of() {
    local f=$run/$1.pid pid args
    [ -s "$f" ] || return 1
    pid=$(tr -dc 0-9 <"$f")
    [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
    args=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
    # nginx has DIR in its command line; redis-server rewrites its own, but works in DIR
    case $args in *"$dir/"*) echo "$pid" ;; *)
        [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$dir" ] && echo "$pid" || return 1 ;;
    esac
}

# a TCP port from 20000-32767 (under the kernel's ephemeral range) that no local socket
# uses and that this start has not handed out yet



print_env() {
    [ -s "$dir/tier.env" ] || die "$dir: no tier started there"
    cat "$dir/tier.env"
}

# Redis, every nginx master and its workers (the masters' children)
print_pids() {
    local n out="" p c
    for n in redis $(cd "$run" 2>/dev/null && ls node-*.pid 2>/dev/null | sed 's/\.pid$//'); do
        p=$(pid_of "$n") || continue
        out="$out,$p"
        for c in $(cat "/proc/$p/task/$p/children" 2>/dev/null); do out="$out,$c"; done
    done
    echo "${out#,}"
}


# nginx stops gracefully on SIGQUIT (open connections are finished)
daemon_signal() {
    case $1 in node-*) echo QUIT ;; *) echo TERM ;; esac
}

do_stop() {
    local nodes
    nodes=$(cd "$run" 2>/dev/null && ls node-*.pid 2>/dev/null | sed 's/\.pid$//') || true
    # shellcheck disable=SC2086
    stop_daemons 100 $nodes
    stop_daemons 100 redis
}

node_conf() { # $1 node dir, $2 port, $3 redis port
    local main=""
    # started as root, nginx gives its workers another user ("nobody" unless told):
    # they stay root here, as they must read and write DIR
    [ "$(id -u)" -eq 0 ] && main="user root;"
    main="$main
pid $1/nginx.pid;
daemon off;"
    mkdir -p "$1"/tmp
    # the markers of the template (see its head) for this machine; the temp paths keep
    # nginx out of /var/lib/nginx
    awk -v main="$main" -v workers="$workers" -v elog="$1/error.log" -v listen="127.0.0.1:$2" \
        -v redis="redis://127.0.0.1:$3" -v www="$dir/www" -v tmp="$1/tmp" '
        /^[ \t]*#/ { print; next }
        { gsub(/@MAIN@/, main); gsub(/@WORKERS@/, workers); gsub(/@ERROR_LOG@/, elog)
          gsub(/@LISTEN@/, listen); gsub(/@REDIS@/, redis); gsub(/@PUBLISHER@/, "127.0.0.1")
          gsub(/@WWW@/, www) }
        /^http \{/ { print; print "    client_body_temp_path " tmp "/body;"; print "    proxy_temp_path " tmp "/proxy;";
                     print "    fastcgi_temp_path " tmp "/fastcgi;"; print "    uwsgi_temp_path " tmp "/uwsgi;";
                     print "    scgi_temp_path " tmp "/scgi;"; next }
        { print }' "$here/nginx-node.conf" >"$1/nginx.conf"
}

do_start() {
    local nodes=${1:-2} k rport port pid pages="" events="" pub=""
    [[ $nodes =~ ^[1-9][0-9]?$ ]] || die "NODES must be 1..99"
    command -v nginx >/dev/null || die "nginx is not installed (scripts/install-deps.sh)"
    command -v redis-server >/dev/null || die "redis-server is not installed (scripts/install-deps.sh)"
    [ -f /usr/lib/nginx/modules/ngx_nchan_module.so ] ||
        die "the nchan module is not installed (libnginx-mod-nchan; scripts/install-deps.sh)"
    pid_of redis >/dev/null && die "$dir: a tier runs there already ($0 stop $dir)"
    mkdir -p "$run" "$dir/www"
    rm -f "$dir/tier.env"
    cp "$here/../../monitorgw/web/mgw_page.html" "$dir/www/index.html"
    started=0
    trap '[ $started = 1 ] || do_stop' EXIT

    rport=$(free_port)
    ports=""
    cat >"$dir/redis.conf" <<EOF
# written by scripts/broadcast/tier-local.sh start $dir
bind 127.0.0.1
port $rport
protected-mode yes
daemonize no
dir $dir
logfile $dir/redis.log
save ""
appendonly no
maxclients 1000
EOF
    redis-server "$dir/redis.conf" >/dev/null 2>&1 &
    echo $! >"$run/redis.pid"
    wait_port "$rport" 50 || { tail -5 "$dir/redis.log" >&2 || true; die "redis-server did not come up on port $rport"; }

    for k in $(seq 1 "$nodes"); do
        # shellcheck disable=SC2086
        port=$(free_port "$rport" $ports)
        ports="$ports $port"
        node_conf "$dir/node-$k" "$port" "$rport"
        nginx -p "$dir/node-$k" -c "$dir/node-$k/nginx.conf" -e "$dir/node-$k/error.log" \
            >>"$dir/node-$k/error.log" 2>&1 &
        pid=$!
        echo "$pid" >"$run/node-$k.pid"
        if ! wait_port "$port" 50 || ! kill -0 "$pid" 2>/dev/null; then
            tail -5 "$dir/node-$k/error.log" >&2 || true
            die "nginx node $k did not come up on port $port"
        fi
        [ -z "$pub" ] && pub="http://127.0.0.1:$port/pub/$channel"
        pages="$pages http://127.0.0.1:$port/match/$channel/"
        events="$events http://127.0.0.1:$port/match/$channel/events"
    done
    started=1
    {
        echo "TIER_REDIS=127.0.0.1:$rport"
        echo "TIER_PUBLISH=$pub"
        echo "TIER_PAGES=\"${pages# }\""
        echo "TIER_EVENTS=\"${events# }\""
    } >"$dir/tier.env"
    say "redis on 127.0.0.1:$rport, $nodes nginx node(s); publish to $pub"
    print_env
}

case $cmd in
start) do_start "${3:-2}" ;;
stop) do_stop ;;
env) print_env ;;
pids) print_pids ;;
esac
