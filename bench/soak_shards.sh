#!/usr/bin/env bash
# Run the invariant soak (bench/soak.py) in shards of 20,000 games at idle CPU priority, two at a time,
# round-robin over the five groups, each shard's output in LOGDIR; bench/soak_ledger.py adds them up.
#   bench/soak_shards.sh LOGDIR [FIRST_GAME] [LAST_GAME] [JOBS]
# e.g. bench/soak_shards.sh soak-logs 260000 1000000 2   (games 260,000 to 999,999 of every group)
# SHARD=N sets the shard size (default 20000). Shards already in LOGDIR with "rc=0" are skipped, so a stopped run picks up where it was.
set -euo pipefail
logdir=$1; first=${2:-0}; last=${3:-1000000}; jobs=${4:-2}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$logdir"
for ((s = first; s < last; s += ${SHARD:-20000})); do
  for g in beer classic lunch lunch+beer,beer+lunch; do echo "$g $s"; done
done | xargs -P "$jobs" -L 1 bash -c '
  out="$0/shard-${2//,/_}-$3.txt"
  grep -qs "^rc=0" "$out" && exit 0
  rc=0; chrt --idle 0 python "$1/bench/soak.py" --games "${SHARD:-20000}" --start "$3" --groups "$2" > "$out.tmp" 2>/dev/null || rc=$?
  echo "rc=$rc" >> "$out.tmp" && mv "$out.tmp" "$out"' "$logdir" "$here"
