#!/bin/sh
# fuzz-long.sh BUILD RUNS OUT [NAME...] -- the nightly-style fuzz run (make fuzz-long):
# every libFuzzer target in BUILD/fuzz (or only the NAMEs given, make FUZZ_TARGETS=...)
# for RUNS executions (-runs), on its corpus in BUILD/corpus/NAME plus test/fuzz/seeds,
# one after the other. Prints one markdown table row per target (executions, seconds,
# executions per second, coverage, features, new corpus units, peak RSS) and writes the
# table to OUT. A crash stops the run (status 1) with the reproducer libFuzzer wrote
# (crash-*) named. Not part of CI: 10 million runs of seven targets take three to five
# hours on a shared two-core machine.
set -eu
build=$1 runs=$2 out=$3
shift 3
# inputs up to 4 KB for every target: that reaches every reader path (a game log's
# every item kind, the longest configuration line), and the cost per input of the slow
# targets (fuzz_conf, fuzz_rcg) is in the work per input, not in its length
targets=""
if [ $# -gt 0 ]; then
  for n in "$@"; do targets="$targets $build/fuzz/$n"; done
else
  targets=$(echo "$build"/fuzz/fuzz_*)
fi
logdir=$build/fuzz-long
mkdir -p "$logdir"
{
  echo "| target | executions | seconds | exec/s | coverage | features | corpus | peak RSS MB |"
  echo "|---|---|---|---|---|---|---|---|"
} > "$out.tmp"
for f in $targets; do
  n=$(basename "$f")
  mkdir -p "$build/corpus/$n"
  seeds=""
  [ -d test/fuzz/seeds ] && seeds=test/fuzz/seeds
  start=$(date +%s)
  if ! "$f" -runs="$runs" -max_len=4096 -print_final_stats=1 -artifact_prefix="$logdir/$n-" \
        "$build/corpus/$n" $seeds > "$logdir/$n.log" 2>&1; then
    echo "$n: FAILED, see $logdir/$n.log and $logdir/$n-crash-*" >&2
    tail -n 30 "$logdir/$n.log" >&2
    exit 1
  fi
  secs=$(( $(date +%s) - start ))
  stat() { sed -n "s/^stat::$1: *//p" "$logdir/$n.log" | tail -n 1; }
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$logdir/$n.log" | tail -n 1)
  cov=$(echo "$done_line" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
  ft=$(echo "$done_line" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
  corp=$(echo "$done_line" | sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p')
  row="| $n | $(stat number_of_executed_units) | $secs | $(stat average_exec_per_sec) | $cov | $ft | $corp | $(stat peak_rss_mb) |"
  echo "$row"
  echo "$row" >> "$out.tmp"
done
mv "$out.tmp" "$out"
