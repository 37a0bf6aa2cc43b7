#!/usr/bin/env bash
# Fuzzes scenario loading (decode + validate, policy definitions included) with libFuzzer
# and AddressSanitizer. See CONTRIBUTING.md, "Fuzzing".
#
#   bash scripts/fuzz.sh [SECONDS] [extra libFuzzer flags...]   # default 600 s
#   bash scripts/fuzz.sh --build                                # build only
#   bash scripts/fuzz.sh --replay FILE...                       # run inputs once, no fuzzing
#   bash scripts/fuzz.sh --minimize FILE                        # shrink a crashing input
#
# Builds MessageDeferral and Simulation from source (every .swift file under Sources/<module>,
# subfolders included) with swiftc (-sanitize=fuzzer,address),
# links Fuzz/ScenarioFuzzer against them and GSL, then runs it on a working copy of the
# committed seed corpus (Fuzz/corpus/, never modified) with the JSON-key dictionary
# (Fuzz/scenario.dict, plus the catalog's preset names, which the fuzzer prints itself, in
# .build/fuzz/scenario.dict). New interesting inputs go to .build/fuzz/corpus/; crashes, timeouts
# and out-of-memory inputs to Fuzz/artifacts/ (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
# Let libFuzzer, not Swift's runtime backtracer, handle traps: the backtracer trips ASan and
# can stall for its 30 s timeout before libFuzzer gets to save the crashing input.
export SWIFT_BACKTRACE=enable=no
bash scripts/ensure-gsl.sh

out=.build/fuzz
artifacts=Fuzz/artifacts
mkdir -p "$out/corpus" "$artifacts"

# Release optimization (preconditions still trap), coverage for libFuzzer, ASan for memory
# errors. Whole-module, one object per module.
flags=(-O -wmo -num-threads 0 -parse-as-library -package-name deferral_sim -sanitize=fuzzer,address -I "$out" -I Sources/CGSL)
build_module() {
  local name=$1
  swiftc "${flags[@]}" -module-name "$name" -emit-module \
    -emit-module-path "$out/$name.swiftmodule" -emit-object -o "$out/$name.o" \
    $(find Sources/"$name" -name '*.swift' | sort)
}
echo "fuzz.sh: building with -sanitize=fuzzer,address (about 2 minutes)..." >&2
build_module MessageDeferral
build_module Simulation
swiftc "${flags[@]}" -module-name ScenarioFuzzer Fuzz/ScenarioFuzzer/*.swift \
  "$out/MessageDeferral.o" "$out/Simulation.o" $(pkg-config --libs gsl) -use-ld=lld -o "$out/scenario-fuzzer"
# The dictionary: the committed keys and values, then one line per preset of the catalog
# (PolicyCatalog.presetNames, printed by the fuzzer), so a new preset needs no edit here.
{
  cat Fuzz/scenario.dict
  SCENARIO_FUZZER_PRESET_DICT=1 "$out/scenario-fuzzer"
} >"$out/scenario.dict.tmp"
mv "$out/scenario.dict.tmp" "$out/scenario.dict"

if [ "${1:-}" = "--build" ]; then
  echo "fuzz.sh: built $out/scenario-fuzzer" >&2
  exit 0
fi
if [ "${1:-}" = "--replay" ]; then
  shift
  exec "$out/scenario-fuzzer" -runs=1 -timeout=5 -rss_limit_mb=2048 "$@"
fi
if [ "${1:-}" = "--minimize" ]; then
  # Repeats until no smaller input crashes (at most 10 s a step; minutes for a whole
  # scenario, and it can be interrupted): the smallest minimized-from-* file is the result.
  exec "$out/scenario-fuzzer" -minimize_crash=1 -max_total_time=10 -timeout=5 \
    -artifact_prefix="$artifacts/" "$2"
fi

seconds=${1:-600}
shift || true
# Limits: scenario files are a few KiB; 5 s or 2 GiB for one input is a hang or a leak.
exec "$out/scenario-fuzzer" "$out/corpus" Fuzz/corpus \
  -dict="$out/scenario.dict" -max_len=8192 -timeout=5 -rss_limit_mb=2048 \
  -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$artifacts/" "$@"
