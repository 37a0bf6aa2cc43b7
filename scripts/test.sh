#!/usr/bin/env bash
# Quick start, second command: installs what is missing and runs the whole test suite.
# Extra arguments go to `swift test` (for example: bash scripts/test.sh --filter Queue).
# Skipped tests are listed again after the summary line, with their reasons, so that a skip
# is never lost in the middle of the log.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-gsl.sh
swift build --build-tests
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build "$@" 2>&1 | tee "$log" || status=$?
skipped=$(grep -E "Test .* skipped" "$log" || true)
if [[ -n $skipped ]]; then
  echo "Skipped tests ($(wc -l <<<"$skipped")):"
  echo "$skipped"
fi
exit "$status"
