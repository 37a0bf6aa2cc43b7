#!/usr/bin/env bash
# The figures of docs/scaling-out.md: one large run on 1 process, as 2 local
# shards one after the other plus their merge, and as 4 shards through the local Slurm
# cluster (integration-test.sh, which also runs it once more on 1 process).
#   bash scripts/slurm/measure.sh BINARY WORKDIR [run options...]
# Default options: --users 20000 --replications 10 --seed 7 (the default scenario).
# Prints one line per step with its wall time and the load average when it ended.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$(realpath "$1")
mkdir -p "$2"
work=$(realpath "$2")
shift 2
options=("$@")
[ ${#options[@]} -gt 0 ] || options=(--users 20000 --replications 10 --seed 7)
cores=$(nproc)
rm -rf "$work/single" "$work/two" "$work/slurm"

step() { # step NAME COMMAND...: runs it, prints its wall and CPU (user + system) times
  local name=$1 times
  shift
  times=$(
    TIMEFORMAT='%R %U %S'
    { time "$@" >"$work/$(tr -c 'a-z0-9\n' - <<<"$name").log" 2>&1; } 2>&1
  )
  awk -v n="$name" -v t="$times" -v l="$(cut -d' ' -f1-3 /proc/loadavg)" \
    'BEGIN { split(t, x, " "); printf "%-26s wall %7.2f s, CPU %7.2f s   (load average %s)\n", n, x[1], x[2] + x[3], l }'
}

echo "options: ${options[*]}; $cores cores; binary $bin"
step "1 process (--jobs $cores)" "$bin" run "${options[@]}" --jobs "$cores" --out "$work/single" --quiet
step "shard 0/2 (--jobs $cores)" "$bin" run "${options[@]}" --shard 0/2 --jobs "$cores" --out "$work/two/parts" --quiet
step "shard 1/2 (--jobs $cores)" "$bin" run "${options[@]}" --shard 1/2 --jobs "$cores" --out "$work/two/parts" --quiet
step "merge of 2" "$bin" merge "$work/two/parts/partial-0-of-2.json" "$work/two/parts/partial-1-of-2.json" --out "$work/two"
for file in summary.csv paired.csv by-screen.csv by-reason.csv by-segment.csv replications.csv; do
  cmp "$work/single/$file" "$work/two/$file"
done
echo "2 local shards: the six CSVs equal the 1-process run's"
du -ch "$work"/two/parts/*.json | tail -n 1 | awk '{ print "partials of 2 shards: " $1 }'
echo "--- 4 shards through the local Slurm cluster (integration-test.sh):"
bash "$here/integration-test.sh" "$bin" "$work/slurm" 4 "${options[@]}"
