#!/bin/bash
# run3d.sh BINDIR -- `make run3d`: rcssserver3d with two teams of eleven sample agents
# that the server starts itself from an agent list (the manual's pipe mode). Monitors and
# trainers connect to TCP $MONITOR_PORT (default 12001); the game is logged to
# Logfiles/monitor.log (replay: BINDIR/rcss3d-logplayer Logfiles/monitor.log).
# Extra server arguments: RUN3D_ARGS="soccer::RuleHalfTime=60 ...". Ctrl-C stops it.
set -euo pipefail
bindir=$(cd "${1:-build/bin}" && pwd)
port=${AGENT_PORT:-3100}
mport=${MONITOR_PORT:-12001}
list=$(mktemp /tmp/rcss3d-agents-XXXXXX)
trap 'rm -f "$list"' EXIT
for team in Blue Red; do
    for unum in $(seq 11); do
        echo "$bindir/rcss3d-agent --team $team --unum $unum" >> "$list"
    done
done
echo "run3d: agents on TCP $port, monitors on TCP $mport; Ctrl-C stops"
# shellcheck disable=SC2086
"$bindir/rcssserver3d" server::agent_port="$port" server::monitor_port="$mport" \
    server::agent_list="$list" ${RUN3D_ARGS:-}
