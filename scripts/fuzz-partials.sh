#!/usr/bin/env bash
# Fuzzes partial result files (decoding, merge's checks, the merge and a whole merge's
# reports) with libFuzzer and AddressSanitizer: Fuzz/PartialFuzzer. See CONTRIBUTING.md,
# "Fuzzing"; scripts/fuzz.sh does the same for scenario files.
#
#   bash scripts/fuzz-partials.sh [SECONDS] [extra libFuzzer flags...]   # default 600 s
#   bash scripts/fuzz-partials.sh --build                                # build only
#   bash scripts/fuzz-partials.sh --replay FILE...                       # run inputs once
#
# Builds MessageDeferral, Simulation, Reports and Experiments from source with swiftc
# (-sanitize=fuzzer,address), links Fuzz/PartialFuzzer against them and GSL, then runs it on
# a working copy of the committed seed corpus (Fuzz/partial-corpus/: a run's partial, a
# sweep's, and a merge of merges; never modified). New inputs go to
# .build/fuzz-partials/corpus/; crashes, timeouts and out-of-memory inputs to Fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
export SWIFT_BACKTRACE=enable=no
bash scripts/ensure-gsl.sh

out=.build/fuzz-partials
artifacts=Fuzz/artifacts
mkdir -p "$out/corpus" "$artifacts"

flags=(-O -wmo -num-threads 0 -parse-as-library -sanitize=fuzzer,address -I "$out" -I Sources/CGSL)
build_module() {
  local name=$1
  swiftc "${flags[@]}" -module-name "$name" -emit-module \
    -emit-module-path "$out/$name.swiftmodule" -emit-object -o "$out/$name.o" \
    $(find Sources/"$name" -name '*.swift' | sort)
}
echo "fuzz-partials.sh: building with -sanitize=fuzzer,address (a few minutes)..." >&2
build_module MessageDeferral
build_module Simulation
build_module Reports
build_module Experiments
swiftc "${flags[@]}" -module-name PartialFuzzer Fuzz/PartialFuzzer/*.swift \
  "$out/MessageDeferral.o" "$out/Simulation.o" "$out/Reports.o" "$out/Experiments.o" \
  $(pkg-config --libs gsl) \
  -use-ld=lld -o "$out/partial-fuzzer"

if [ "${1:-}" = "--build" ]; then
  echo "fuzz-partials.sh: built $out/partial-fuzzer" >&2
  exit 0
fi
if [ "${1:-}" = "--replay" ]; then
  shift
  exec "$out/partial-fuzzer" -runs=1 -timeout=10 -rss_limit_mb=2048 "$@"
fi

seconds=${1:-600}
shift || true
# Limits: the seed partials are 10-40 KiB; 10 s or 2 GiB for one input is a hang or a leak.
exec "$out/partial-fuzzer" "$out/corpus" Fuzz/partial-corpus \
  -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
  -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$artifacts/" "$@"
