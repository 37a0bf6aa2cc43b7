#!/usr/bin/env bash
# Quick start, first command: installs what is missing, builds in release and runs the main
# job on the bundled default scenario. Extra arguments go to `deferral-sim run`
# (for example: bash scripts/quickstart.sh --users 2000). Idempotent.
# Each phase prints a line on standard error with the seconds it took, so a first build
# (about 3 minutes on 2 free cores, longer on a busy machine; seconds once built) is never
# silent.
set -euo pipefail
cd "$(dirname "$0")/.."
phase() { echo "quickstart: $*" >&2; }
started=$SECONDS
phase "1/3 GSL (libgsl-dev): checking, installing with apt-get if missing"
bash scripts/ensure-gsl.sh
if [[ -x .build/release/deferral-sim ]]; then
  phase "2/3 building deferral-sim (release): already built once, only what changed is compiled"
else
  phase "2/3 building deferral-sim (release) for the first time: about 3 minutes on 2 free" \
    "cores, longer when the machine is busy"
fi
build_started=$SECONDS
swift build -c release --product deferral-sim >&2
phase "    built in $((SECONDS - build_started)) s"
phase "3/3 running the default scenario ($((SECONDS - started)) s so far)"
exec .build/release/deferral-sim run "$@"
