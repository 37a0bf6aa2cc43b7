#!/usr/bin/env bash
# Quick start, second command: installs what is missing and runs the whole test suite.
#   bash scripts/test.sh                 # everything (what CI runs); the suites that run
#                                        # the binary run the release build
#   bash scripts/test.sh --fast          # the fast tier: unit, property and oracle tests, no
#                                        # suite that runs the built binary, a browser or a
#                                        # memory measurement (CONTRIBUTING.md, "Test tiers")
#   bash scripts/test.sh --filter Queue  # extra arguments go to `swift test`
# Skipped tests are listed again after the summary line, with their reasons, so that a skip
# is never lost in the middle of the log.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-gsl.sh
tier=()
build=()
if [[ ${1:-} == --fast ]]; then
  shift
  # The slow tier, by suite: DeferralSimTests runs the built binary (end to end, golden
  # checksums, scale-out, Slurm); the browser and memory suites need Chromium and a quiet
  # machine.
  tier=(--skip DeferralSimTests --skip HTMLReportBrowser --skip PartialMemory)
  # Optimized, in a build folder of its own (so it never invalidates the debug build): the
  # oracle tests simulate, and the debug engine is about 3x slower (CONTRIBUTING.md, "Test
  # tiers"). Still a debug configuration: assertions and @testable imports stay.
  build=(--scratch-path .build/fast -Xswiftc -O)
else
  # The suites that run the binary run the release build (ToolRunner reads
  # DEFERRAL_SIM_BINARY): DeferralSimTests took 74 s with it against 188 s with the debug
  # build (CONTRIBUTING.md, "Test tiers"). A DEFERRAL_SIM_BINARY already set is kept.
  if [[ -z ${DEFERRAL_SIM_BINARY:-} ]]; then
    swift build -c release --product deferral-sim
    DEFERRAL_SIM_BINARY="$(swift build -c release --show-bin-path)/deferral-sim"
  fi
  export DEFERRAL_SIM_BINARY
fi
swift build --build-tests ${build[@]+"${build[@]}"}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build ${build[@]+"${build[@]}"} ${tier[@]+"${tier[@]}"} "$@" 2>&1 | tee "$log" \
  || status=$?
skipped=$(grep -E "Test .* skipped" "$log" || true)
if [[ -n $skipped ]]; then
  echo "Skipped tests ($(wc -l <<<"$skipped")):"
  echo "$skipped"
fi
exit "$status"
