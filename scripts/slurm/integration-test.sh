#!/usr/bin/env bash
# Integration test of the Slurm recipe on a real single-node cluster (local-cluster.sh):
# one run of BINARY without shards, the same run as a 4-task job array plus a two-level
# merge through submit.sh --fan-in 2 (an array of 2 merges of 2 partials, --partial-out, then
# the merge of those), and the six CSVs compared byte for byte.
#   bash scripts/slurm/integration-test.sh BINARY WORKDIR [SHARDS [run options...]]
# Defaults: 4 shards, --users 400 --replications 4 --seed 7 (the default scenario); the fan-in
# is DEFERRAL_SIM_SLURM_FAN_IN (default 2; 0 for one flat merge).
# Starts the cluster if it is not running and then stops it again at the end (set
# DEFERRAL_SIM_KEEP_CLUSTER=1 to keep it); a cluster found running is reused and left up.
# Prints the wall times: the run without shards, the sharded run through Slurm end to end
# (submission to merged files), and the merge (the merge job's run time, and the same merge
# run again here, timed to the millisecond).
# With DEFERRAL_SIM_SLURM_SWEEP=SWEEP (a sweep file), it then does the same for a sweep:
# the sweep run whole, the sweep as a 2-task array (submit.sh --sweep) plus its merge, and
# sweep.csv, pareto.csv and report.html compared byte for byte.
# Exit status: 0 identical; 1 a difference or a failed job; 2 bad usage;
# 77 skipped, with the reason on standard error: slurm-wlm or munge is not installed, this is
# not root, or the cluster could not start (its logs are printed).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 2 ]; then
  echo "usage: $0 BINARY WORKDIR [SHARDS [run options...]]" >&2
  exit 2
fi
bin=$(realpath "$1")
mkdir -p "$2"
work=$(realpath "$2")
shards=${3:-4}
shift $(($# < 3 ? $# : 3))
options=("$@")
[ ${#options[@]} -gt 0 ] || options=(--users 400 --replications 4 --seed 7)
timeout_s=${DEFERRAL_SIM_SLURM_TIMEOUT:-600}
fan_in=${DEFERRAL_SIM_SLURM_FAN_IN:-2}
fan_args=()
[ "$fan_in" -eq 0 ] || fan_args=(--fan-in "$fan_in")
files=(summary.csv paired.csv by-screen.csv by-reason.csv by-segment.csv replications.csv)

say() { echo "slurm-integration: $*" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

if [ ! -x "$bin" ]; then
  say "not an executable: $bin"
  exit 2
fi

# The cluster: reuse a running one, or start one and stop it on the way out.
set +e
bash "$here/local-cluster.sh" status >/dev/null 2>&1
running=$?
set -e
if [ $running -eq 77 ]; then
  bash "$here/local-cluster.sh" status || exit 77 # prints the reason
fi
eval "$(bash "$here/local-cluster.sh" env)"
export SLURM_CONF
if [ $running -ne 0 ]; then
  set +e
  bash "$here/local-cluster.sh" start >/dev/null
  started=$?
  set -e
  if [ $started -ne 0 ]; then
    say "skip: the local Slurm cluster could not start (exit $started; logs above)"
    bash "$here/local-cluster.sh" stop || true
    exit 77
  fi
  if [ "${DEFERRAL_SIM_KEEP_CLUSTER:-0}" != 1 ]; then
    trap 'bash "$here/local-cluster.sh" stop >/dev/null 2>&1 || true' EXIT
  fi
fi

job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort -u; }
# Waits for the jobs that submit.sh printed ($1: its output) to leave the queue; fails unless
# the merge job completed. Sets merge_job.
wait_for_jobs() {
  local array merge deadline shard_states merge_state log
  array=$(sed -n 's/^shards: job \([0-9]*\).*/\1/p' <<<"$1")
  merge=$(sed -n 's/.*merge: job \([0-9]*\).*/\1/p' <<<"$1")
  if [ -z "$array" ] || [ -z "$merge" ]; then
    say "could not read the job ids from submit.sh's output"
    exit 1
  fi
  deadline=$(($(date +%s) + timeout_s))
  while [ -n "$(squeue -h -j "$array,$merge" -o %i 2>/dev/null)" ]; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      say "the jobs did not finish within ${timeout_s} s:"
      squeue -j "$array,$merge" >&2 || true
      scancel "$array" "$merge" 2>/dev/null || true
      exit 1
    fi
    sleep 0.2
  done
  shard_states=$(job_state "$array" | tr '\n' ' ')
  merge_state=$(job_state "$merge")
  if [ "$merge_state" != COMPLETED ]; then
    say "the merge job $merge ended $merge_state (shards: $shard_states); job logs:"
    for log in "$work"/deferral-sim-*.log; do
      [ -f "$log" ] || continue
      echo "----- $log" >&2
      cat "$log" >&2
    done
    scontrol show job "$array" "$merge" >&2 2>&1 || true
    exit 1
  fi
  merge_job=$merge
}

rm -rf "$work/single" "$work/sharded" "$work/remerge" "$work/sweep-single" "$work/sweep-sharded"
say "binary $bin; run options: ${options[*]}; $shards shards"

# 1. The run without shards, on every core.
t0=$(now)
"$bin" run "${options[@]}" --out "$work/single" --quiet >"$work/single.log" 2>&1 || {
  say "the run without shards failed:"
  cat "$work/single.log" >&2
  exit 1
}
single_s=$(since "$t0")

# 2. The same run through Slurm: the array and a two-level merge, as the README's recipe
#    submits them.
t0=$(now)
submitted=$(cd "$work" && DEFERRAL_SIM=$bin bash "$here/submit.sh" default sharded "$shards" \
  "${fan_args[@]}" "${options[@]}")
say "$submitted"
wait_for_jobs "$submitted"
sharded_s=$(since "$t0")
merge_runtime=$(scontrol show job "$merge_job" | sed -n 's/.*RunTime=\([0-9:-]*\).*/\1/p')

# 3. The merge's own cost, timed here on the same partials.
parts=()
for ((k = 0; k < shards; k++)); do parts+=("$work/sharded/parts/partial-$k-of-$shards.json"); done
t0=$(now)
"$bin" merge "${parts[@]}" --out "$work/remerge" >/dev/null
merge_s=$(since "$t0")

# 4. Byte for byte.
status=0
for file in "${files[@]}"; do
  if cmp "$work/single/$file" "$work/sharded/$file"; then
    echo "identical: $file"
  else
    say "DIFFERS: $file (single run vs Slurm merge)"
    diff <(head -n 20 "$work/single/$file") <(head -n 20 "$work/sharded/$file") >&2 || true
    status=1
  fi
done
[ -s "$work/sharded/manifest.json" ] || {
  say "the merge wrote no manifest.json"
  status=1
}

# 5. A sweep, when asked for: whole, then 2 shards through Slurm and the merge.
if [ -n "${DEFERRAL_SIM_SLURM_SWEEP:-}" ]; then
  sweep_file=$(realpath "$DEFERRAL_SIM_SLURM_SWEEP")
  "$bin" sweep "$sweep_file" --out "$work/sweep-single" --quiet >"$work/sweep-single.log" 2>&1 || {
    say "the sweep without shards failed:"
    cat "$work/sweep-single.log" >&2
    exit 1
  }
  t0=$(now)
  submitted=$(cd "$work" && DEFERRAL_SIM=$bin bash "$here/submit.sh" --sweep "$sweep_file" \
    sweep-sharded 2)
  say "sweep: $submitted"
  wait_for_jobs "$submitted"
  sweep_s=$(since "$t0")
  for file in sweep.csv pareto.csv report.html; do
    if cmp "$work/sweep-single/$file" "$work/sweep-sharded/$file"; then
      echo "identical: sweep $file"
    else
      say "DIFFERS: sweep $file (sweep run whole vs Slurm merge)"
      status=1
    fi
  done
  echo "wall time, the sweep as 2 shards through Slurm, submission to merged files: ${sweep_s} s"
fi

parts_size=$(du -ch "${parts[@]}" | tail -n 1 | cut -f 1)
echo "wall time, run without shards (--jobs $(nproc)): ${single_s} s"
if [ -d "$work/sharded/tree" ]; then
  echo "two-level merge (fan-in $fan_in): $(ls "$work/sharded/tree" | tr '\n' ' ')"
fi
echo "wall time, $shards shards through Slurm, submission to merged files: ${sharded_s} s"
echo "merge: job run time ${merge_runtime}; the same merge timed here: ${merge_s} s" \
  "(${shards} partials, ${parts_size})"
if [ $status -eq 0 ]; then
  echo "slurm integration: the merged files equal the unsharded ones, byte for byte"
fi
exit $status
