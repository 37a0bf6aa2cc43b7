#!/usr/bin/env bash
# Submits a sharded run (or sweep) and its merge to Slurm: N array tasks, then a merge that
# waits for all of them (afterok; if a shard fails, the merge never runs). Prints the job ids.
#   bash scripts/slurm/submit.sh SCENARIO OUT N [--fan-in F] [run options...]
#   bash scripts/slurm/submit.sh --sweep SWEEP OUT N [--fan-in F] [sweep options...]
# With --fan-in F (< N), the merge is a tree of two levels: an array of ceil(N/F) merges of F
# partials each (merge-level.sbatch, --partial-out) after the shards, then one merge of those
# (merge.sbatch OUT N F); the files are the same as the flat merge's, byte for byte.
# Example: bash scripts/slurm/submit.sh default results/big 16 --users 1000000 --replications 20
# Example: bash scripts/slurm/submit.sh --sweep scenarios/sweeps/consent-ceiling.json \
#            results/sweep-consent-ceiling 8
#   bash scripts/slurm/submit.sh --tune TUNE OUT N [--ahead B] [tune options...]
# With --tune, a tune over shards: stage 0 as an array of N tune-shard.sbatch tasks, then
# tune-merge.sbatch after them (afterok), which merges the stage and queues the next one the
# same way, until it writes the tune's files into OUT (the stages' files go in OUT/stages;
# --ahead B: selection replications a stage, default 10). Example:
#   bash scripts/slurm/submit.sh --tune scenarios/tunes/indie-subscription.json \
#            results/tune-indie-subscription 8
# SCENARIO is a scenario file or "default"; SWEEP a sweep file; OUT a folder every node can
# reach. The jobs run
# $DEFERRAL_SIM (default .build/release/deferral-sim, from the folder this is called in);
# their logs go to that folder too. Extra sbatch options (partition, account, time limit)
# go in SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT and the like, which sbatch reads.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --tune ]; then
  shift
  if [ $# -lt 3 ] || ! [[ $3 =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 --tune TUNE OUT N [--ahead B] [tune options...]   (N >= 1 shards)" >&2
    exit 2
  fi
  tune=$1
  out=$2
  shards=$3
  shift 3
  ahead=()
  if [ "${1:-}" = --ahead ]; then
    if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then
      echo "$0: --ahead needs a number of selection replications a stage, 1 or more" >&2
      exit 2
    fi
    ahead=(--ahead "$2")
    shift 2
  fi
  for option in "$@"; do
    case $option in
      --fan-in | --state | --shard | --out | -o)
        echo "$0: $option is not for --tune (the stages' states and parts go in OUT/stages)" >&2
        exit 2
        ;;
    esac
  done
  mkdir -p "$out/stages"
  export DEFERRAL_SIM_SLURM_SCRIPTS=$here
  array=$(sbatch --parsable --array="0-$((shards - 1))" "$here/tune-shard.sbatch" "$tune" "$out" 0 "$@")
  array=${array%%;*}
  merge=$(sbatch --parsable --dependency="afterok:$array" "$here/tune-merge.sbatch" \
    "$tune" "$out" "$shards" 0 "${ahead[@]}" "$@")
  merge=${merge%%;*}
  echo "stage 0: shards job $array (array 0-$((shards - 1))); merge: job $merge (queues the next stage until the tune is done)"
  exit 0
fi
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
fan_in=0
options=()
while [ $# -gt 0 ]; do
  case $1 in
    --fan-in)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]] || [ "$2" -lt 2 ]; then
        echo "$0: --fan-in needs a number of partials per merge, 2 or more" >&2
        exit 2
      fi
      fan_in=$2
      shift 2
      ;;
    *)
      options+=("$1")
      shift
      ;;
  esac
done
mkdir -p "$out/parts"
array=$(sbatch --parsable --array="0-$((shards - 1))" "$here/shard.sbatch" "${sweep[@]}" "$scenario" "$out" "${options[@]}")
array=${array%%;*}
if [ "$fan_in" -gt 0 ] && [ "$shards" -gt "$fan_in" ]; then
  groups=$(((shards + fan_in - 1) / fan_in))
  level=$(sbatch --parsable --array="0-$((groups - 1))" --dependency="afterok:$array" \
    "$here/merge-level.sbatch" "$out" "$shards" "$fan_in")
  level=${level%%;*}
  merge=$(sbatch --parsable --dependency="afterok:$level" "$here/merge.sbatch" "$out" "$shards" "$fan_in")
  merge=${merge%%;*}
  echo "shards: job $array (array 0-$((shards - 1))); tree: job $level (array 0-$((groups - 1)), fan-in $fan_in); merge: job $merge"
else
  merge=$(sbatch --parsable --dependency="afterok:$array" "$here/merge.sbatch" "$out" "$shards")
  merge=${merge%%;*}
  echo "shards: job $array (array 0-$((shards - 1))); merge: job $merge"
fi
