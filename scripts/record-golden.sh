#!/usr/bin/env bash
# Records the golden CSV checksums: every bundled scenario (scenarios/*.json, and the embedded
# default), every bundled sweep (scenarios/sweeps/*.json) and every bundled robustness study
# (scenarios/uncertainty/*.json) run at small sizes with a fixed seed, and the SHA-256 of
# every CSV each writes. GoldenChecksumTests reruns the very commands
# listed in the fixture and compares, so a change to the engine that alters any figure fails.
#
#   bash scripts/record-golden.sh          # rebuild, rerun and rewrite the fixture
#   bash scripts/record-golden.sh --check  # rerun and compare with the fixture (no rewrite)
#
# Regenerate after a change that is MEANT to change results (a policy reworked, a model
# changed), and say so in the commit. The sweep copies (small users and replications) are
# regenerated from scenarios/sweeps/ too, and the study copies (small users, replications and
# worlds) from scenarios/uncertainty/. Extra engine options for every case, such as
# --no-shared-trunk, can be given in GOLDEN_EXTRA (they are not written to the fixture).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-record}
fixture=Tests/Fixtures/golden
checksums=$fixture/checksums.txt
bin=${GOLDEN_BIN:-.build/debug/deferral-sim}
if [[ -z ${GOLDEN_BIN:-} ]]; then swift build --product deferral-sim >/dev/null; fi

users=100
replications=2
seed=20261201
common="--users $users --replications $replications --seed $seed --jobs 2 --no-report --quiet"

studyWorlds=8

mkdir -p "$fixture/sweeps" "$fixture/studies"
if [[ $mode == record ]]; then
  rm -f "$fixture"/sweeps/*.json
  for sweep in scenarios/sweeps/*.json; do
    # The same sweep with small sizes; its scenario path made relative to the fixture folder.
    sed -E -e 's#"scenario": "\.\./#"scenario": "../../../../scenarios/#' \
      -e "s#\"users\": [0-9]+#\"users\": $users#" \
      -e "s#\"replications\": [0-9]+#\"replications\": $replications#" \
      "$sweep" >"$fixture/sweeps/$(basename "$sweep")"
  done
  rm -f "$fixture"/studies/*.json
  for study in scenarios/uncertainty/*.json; do
    # The same study with small sizes; its scenario path made relative to the fixture folder.
    sed -E -e 's#"scenario": "\.\./#"scenario": "../../../../scenarios/#' \
      -e "s#\"users\": [0-9]+#\"users\": $users#" \
      -e "s#\"replications\": [0-9]+#\"replications\": $replications#" \
      -e "s#\"worlds\": [0-9]+#\"worlds\": $studyWorlds#" \
      "$study" >"$fixture/studies/$(basename "$study")"
  done
fi

cases=()
cases+=("run-default|run $common --messages-log --events-log")
for scenario in scenarios/*.json; do
  name=$(basename "$scenario" .json)
  [[ $name == schema ]] && continue
  cases+=("run-$name|run $scenario $common --messages-log --events-log")
done
cases+=("run-precision|run $common --precision 0.5 --max-replications 4")
for sweep in "$fixture"/sweeps/*.json; do
  cases+=("sweep-$(basename "$sweep" .json)|sweep $sweep --jobs 2 --no-report --quiet")
done
for study in "$fixture"/studies/*.json; do
  cases+=("study-$(basename "$study" .json)|robust $study --jobs 2 --no-report --quiet")
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
output=$work/checksums.txt
{
  echo "# Golden CSV checksums: deferral-sim on every bundled scenario and sweep, small sizes."
  echo "# Regenerate (only after a change meant to change results): bash scripts/record-golden.sh"
  echo "# Each case: 'case NAME: ARGUMENTS' (run from the repository root, with --out added),"
  echo "# then one line per CSV it writes: 'SHA256  FILE'. Checked by GoldenChecksumTests."
} >"$output"
for entry in "${cases[@]}"; do
  name=${entry%%|*}
  arguments=${entry#*|}
  out=$work/$name
  # shellcheck disable=SC2086 # the arguments are words without spaces
  "$bin" $arguments ${GOLDEN_EXTRA:-} --out "$out" >/dev/null
  echo "case $name: $arguments" >>"$output"
  (cd "$out" && find . -name '*.csv' -printf '%P\n' | LC_ALL=C sort | xargs sha256sum) \
    >>"$output"
done

if [[ $mode == --check ]]; then
  if diff -u "$checksums" "$output"; then
    echo "golden checksums: all match"
  else
    echo "golden checksums differ (see above)" >&2
    exit 1
  fi
else
  cp "$output" "$checksums"
  echo "wrote $checksums ($(grep -c '^case ' "$checksums") cases, $(grep -vc '^#\|^case ' "$checksums") files)"
fi
