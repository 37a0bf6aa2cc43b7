#!/usr/bin/env bash
# Submits a sharded run and its merge to Slurm: N array tasks, then a merge that waits for
# all of them (afterok). Prints the two job ids.
#   bash scripts/slurm/submit.sh SCENARIO OUT N [run options...]
# Example: bash scripts/slurm/submit.sh default results/big 16 --users 1000000 --replications 20
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
scenario=$1
out=$2
shards=$3
shift 3
mkdir -p "$out/parts"
array=$(sbatch --parsable --array="0-$((shards - 1))" "$here/shard.sbatch" "$scenario" "$out" "$@")
merge=$(sbatch --parsable --dependency="afterok:${array%%;*}" "$here/merge.sbatch" "$out" "$shards")
echo "shards: job ${array%%;*} (array 0-$((shards - 1))); merge: job ${merge%%;*}"
