#!/usr/bin/env bash
# Submits a sharded run (or sweep) and its merge to Slurm: N array tasks, then a merge that
# waits for all of them (afterok; if a shard fails, the merge never runs). Prints the two job
# ids.
#   bash scripts/slurm/submit.sh SCENARIO OUT N [run options...]
#   bash scripts/slurm/submit.sh --sweep SWEEP OUT N [sweep options...]
# Example: bash scripts/slurm/submit.sh default results/big 16 --users 1000000 --replications 20
# Example: bash scripts/slurm/submit.sh --sweep scenarios/sweeps/consent-ceiling.json \
#            results/sweep-consent-ceiling 8
# SCENARIO is a scenario file or "default"; SWEEP a sweep file; OUT a folder every node can
# reach. The jobs run
# $DEFERRAL_SIM (default .build/release/deferral-sim, from the folder this is called in);
# their logs go to that folder too. Extra sbatch options (partition, account, time limit)
# go in SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT and the like, which sbatch reads.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sweep=()
if [ "${1:-}" = --sweep ]; then
  sweep=(--sweep)
  shift
fi
if [ $# -lt 3 ] || ! [[ $3 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [--sweep] SCENARIO|SWEEP OUT N [options...]   (N >= 1 shards)" >&2
  exit 2
fi
scenario=$1
out=$2
shards=$3
shift 3
mkdir -p "$out/parts"
array=$(sbatch --parsable --array="0-$((shards - 1))" "$here/shard.sbatch" "${sweep[@]}" "$scenario" "$out" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" "$here/merge.sbatch" "$out" "$shards")
merge=${merge%%;*}
echo "shards: job $array (array 0-$((shards - 1))); merge: job $merge"
