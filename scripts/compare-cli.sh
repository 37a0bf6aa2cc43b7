#!/usr/bin/env bash
# Compares what two deferral-sim binaries print: every command's --help, the man page, the
# completion scripts, traces (text, CSV, JSON; --diff; --find) of the embedded default and two
# bundled scenarios, and about 60 refused command lines (message and exit status). Standard
# output, standard error and the exit status must be the same byte for byte.
#
#   bash scripts/compare-cli.sh OLD_BINARY NEW_BINARY
#
# For example, against a release build of an older commit in a temporary clone:
#   git clone -q . /tmp/base && (cd /tmp/base && git checkout -q 3c71374 && swift build -c release)
#   bash scripts/compare-cli.sh /tmp/base/.build/release/deferral-sim .build/debug/deferral-sim
set -uo pipefail
cd "$(dirname "$0")/.."
old=$1
new=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '{"name": "x", "users": -1}' >"$work/bad.json"
printf '{"version":1' >"$work/broken.json"
mkdir -p "$work/notours" && echo hi >"$work/notours/x.txt"
count=0
same=0
check() {
  count=$((count + 1))
  "$old" "$@" >"$work/old.out" 2>"$work/old.err"
  local old_status=$?
  "$new" "$@" >"$work/new.out" 2>"$work/new.err"
  local new_status=$?
  if cmp -s "$work/old.out" "$work/new.out" && cmp -s "$work/old.err" "$work/new.err" \
    && [[ $old_status == "$new_status" ]]; then
    same=$((same + 1))
  else
    echo "DIFFERS: $* (exit $old_status, now $new_status)"
    diff "$work/old.out" "$work/new.out" | head -5
    diff "$work/old.err" "$work/new.err" | head -5
  fi
}
check --help
for command in run trace sweep robust merge fit validate policies completions; do
  check "$command" --help
  check help "$command"
done
check help --man
for shell in bash zsh fish; do check completions "$shell"; done
for scenario in "" scenarios/paywall-heavy.json scenarios/mobile-game.json; do
  for user in 0 3 7; do
    for format in text csv json; do
      check trace $scenario --policy storekit-auto --policy deadline-aware --user "$user" \
        --format "$format"
      check trace $scenario --policy screen-gate --user "$user" --format "$format"
    done
    check trace $scenario --policy storekit-auto --policy deadline-aware --user "$user" --diff
  done
  for outcome in interrupted forced missed failed; do
    check trace $scenario --find "$outcome" --limit 5
  done
  check trace $scenario --find differ --policy storekit-auto --policy deadline-aware --limit 5
done
refused=(
  "run --jobs 0" "run --jobs many" "sweep $work/none.json --jobs 2000" "run --shard 4/4"
  "run --shard x" "robust $work/none.json --shard 1/0" "run --format xml" "run --users 0"
  "run --replications abc" "run --seed -1" "run --policies ,," "run --policies storekit-autoo"
  "run --baseline nope" "run --precision 2" "run --max-replications 5"
  "run --precision 0.1 --shard 0/2" "run --messages-log --shard 0/2" "run --out ''"
  "run $work/none.json" "run $work/bad.json" "run $work/broken.json" "run $work"
  "run --users 10 --replications 2 --out $work/notours -q"
  "run --users 10 --replications 2 --out README.md -q"
  "trace --user 5" "trace --policy never --user 99999999"
  "trace --policy never --replication 9999 --user 1" "trace --policy a --policy b --policy c"
  "trace --policy nevr --user 1" "trace --find nope" "trace --find differ --policy never"
  "trace --find forced --user 1" "trace --policy never" "trace --policy never --user 1 --diff"
  "trace --policy never --user 1 --context 5000" "trace --find forced --limit 0"
  "trace --format xml" "fit x.csv" "fit x.csv --map $work/none.json" "merge $work/none"
  "merge --out a --partial-out b x" "merge $work/bad.json" "sweep $work/bad.json"
  "robust $work/bad.json" "sweep" "validate $work/bad.json $work/broken.json"
  "validate scenarios/mobile-game.json scenarios/sweeps/*.json scenarios/uncertainty/*.json"
  "run --usrs 5" "run -x" "run --quiet=yes" "run --users" "run --users 1 --users 2"
  "frobnicate" "help frob" "--version x" "run a b" "policies --json" "policies"
)
for arguments in "${refused[@]}"; do eval "check $arguments"; done
echo "identical: $same of $count invocations"
[[ $same == "$count" ]]
