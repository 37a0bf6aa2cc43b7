#!/usr/bin/env bash
# Runs the same battery of deferral-sim commands with two binaries and compares every file they
# write and everything they print, byte for byte: the check that a refactor moved no output.
#
#   bash scripts/compare-outputs.sh OLD_BINARY NEW_BINARY
#
# The battery, at small sizes: `run` on the embedded default and every bundled scenario (CSVs,
# logs, report.html, manifest.json), `run --precision`, every bundled sweep (with its report),
# the bundled robustness study (4 worlds), shards and `merge` for a run, a sweep and a study,
# `fit` on the bundled samples (scenario and fit-report.html), `validate` and `policies`; then
# scripts/compare-cli.sh for what is only printed (every `--help`, the man page, completions,
# traces, and about 60 refused command lines with their messages and exit codes).
#
# Both binaries run as `./deferral-sim` from a folder of their own with the same relative paths,
# so command lines written into manifests agree. Only fields that hold the time of day or a
# duration are masked (`started`, `finished`, `wall_seconds` in manifest.json; the date and the
# wall time in the reports' provenance; the seconds in one-line summaries); everything else must
# match. Prints "outputs: all match (N files)" and exits 0, or lists the differing files and
# exits 1. KEEP=1 keeps the two folders for a closer look.
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: bash scripts/compare-outputs.sh OLD_BINARY NEW_BINARY" >&2
  exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
old=$(realpath "$1")
new=$(realpath "$2")
work=$(mktemp -d)
if [[ -z ${KEEP:-} ]]; then trap 'rm -rf "$work"' EXIT; else echo "keeping $work" >&2; fi

small="--users 120 --replications 2 --seed 7 --jobs 2 --quiet"

battery() {
  local root=$1
  cd "$root"
  local sim=./deferral-sim
  # Each step's printed output and exit code go to a file of its own, so they are compared too.
  step() {
    local name=$1
    shift
    local status=0
    "$@" >"printed/$name.out" 2>"printed/$name.err" || status=$?
    echo "$status" >"printed/$name.status"
  }
  mkdir -p printed
  local study=scenarios/uncertainty/study.json
  step run-default $sim run $small --messages-log --events-log -o out/run-default
  for scenario in scenarios/*.json; do
    local name
    name=$(basename "$scenario" .json)
    [[ $name == schema ]] && continue
    step "run-$name" $sim run "$scenario" $small -o "out/run-$name"
  done
  step run-precision $sim run $small --precision 0.5 --max-replications 4 -o out/run-precision
  for sweep in scenarios/sweeps/*.json; do
    step "sweep-$(basename "$sweep" .json)" $sim sweep "$sweep" --jobs 2 --quiet \
      -o "out/sweep-$(basename "$sweep" .json)"
  done
  step robust $sim robust "$study" --jobs 2 --quiet -o out/robust
  # Shards and merge: a run, a sweep, a study.
  step run-shard1 $sim run $small --shard 0/2 -o out/run-shard1
  step run-shard2 $sim run $small --shard 1/2 -o out/run-shard2
  step run-merge $sim merge out/run-shard1 out/run-shard2 --quiet -o out/run-merged
  local sweep
  sweep=$(ls scenarios/sweeps/*.json | head -1)
  step sweep-shard1 $sim sweep "$sweep" --jobs 2 --quiet --shard 0/2 -o out/sweep-shard1
  step sweep-shard2 $sim sweep "$sweep" --jobs 2 --quiet --shard 1/2 -o out/sweep-shard2
  step sweep-merge $sim merge out/sweep-shard1 out/sweep-shard2 --quiet -o out/sweep-merged
  step robust-shard1 $sim robust "$study" --jobs 2 --quiet --shard 0/2 -o out/robust-shard1
  step robust-shard2 $sim robust "$study" --jobs 2 --quiet --shard 1/2 -o out/robust-shard2
  step robust-merge $sim merge out/robust-shard1 out/robust-shard2 --quiet -o out/robust-merged
  # Fit on the bundled samples.
  for source in generic.csv firebase.jsonl amplitude.jsonl; do
    local map=${source%%.*}-map.json
    step "fit-$source" $sim fit "fit-samples/$source" --map "fit-samples/$map" \
      --out "out/fit-$source/scenario.json"
  done
  step validate $sim validate scenarios/indie-subscription.json
  step policies $sim policies
}

setup() {
  local root=$1 binary=$2
  mkdir -p "$root/scenarios/sweeps" "$root/scenarios/uncertainty"
  ln -s "$binary" "$root/deferral-sim"
  cp "$repo"/scenarios/*.json "$root/scenarios/"
  cp -r "$repo/scenarios/fit-samples" "$root/fit-samples"
  # The bundled sweeps at small sizes, their scenario paths made to point at the copies.
  for sweep in "$repo"/scenarios/sweeps/*.json; do
    sed -E -e 's#"users": [0-9]+#"users": 100#' -e 's#"replications": [0-9]+#"replications": 2#' \
      "$sweep" >"$root/scenarios/sweeps/$(basename "$sweep")"
  done
  # The bundled study at 4 worlds and small sizes.
  sed -E -e 's#"worlds": [0-9]+#"worlds": 4#' -e 's#"users": [0-9]+#"users": 100#' \
    -e 's#"replications": [0-9]+#"replications": 2#' \
    "$repo/scenarios/uncertainty/indie-subscription.json" >"$root/scenarios/uncertainty/study.json"
}

mask() {
  # Masks the time of day and durations; nothing else.
  find "$1" -type f \( -name 'manifest.json' -o -name '*.html' -o -name '*.out' -o -name '*.err' \) \
    -print0 | xargs -0 -r sed -i -E \
    -e 's/"(started|finished)": "[^"]*"/"\1": "TIME"/g' \
    -e 's/"wall_seconds": [0-9.e+-]+/"wall_seconds": SECONDS/g' \
    -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z/TIME/g' \
    -e 's/[0-9]+(\.[0-9]+)? ?(s|ms|min) (wall|elapsed)/DURATION \3/g' \
    -e 's/, [0-9]+(\.[0-9]+)? s$/, DURATION/g' \
    -e 's/in [0-9]+(\.[0-9]+)? ?s\b/in DURATION/g' \
    -e 's/, [0-9]+(\.[0-9]+)? (s|ms|min), /, DURATION, /g' \
    -e 's#<dt>Wall time</dt><dd>[^<]*</dd>#<dt>Wall time</dt><dd>DURATION</dd>#g' \
    -e 's#<dt>Date</dt><dd>[^<]*</dd>#<dt>Date</dt><dd>TIME</dd>#g' \
    -e 's/ [0-9]+(\.[0-9]+)? (s|ms|min)\. Wrote/ DURATION. Wrote/g'
}

setup "$work/old" "$old"
setup "$work/new" "$new"
(battery "$work/old")
(battery "$work/new")
mask "$work/old"
mask "$work/new"

rm -f "$work"/{old,new}/deferral-sim
differing=$(diff -rq "$work/old" "$work/new" || true)
count=$(find "$work/old" -type f | wc -l)
status=0
if [[ -z $differing ]]; then
  echo "outputs: all match ($count files)"
else
  echo "$differing" | sed "s#$work/##g"
  echo "outputs differ: $(wc -l <<<"$differing") of $count files (see above)" >&2
  status=1
fi
bash "$repo/scripts/compare-cli.sh" "$old" "$new" || status=1
exit "$status"
