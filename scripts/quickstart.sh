#!/usr/bin/env bash
# Quick start, first command: installs what is missing, builds in release and runs the main
# job on the bundled default scenario. Extra arguments go to `deferral-sim run`
# (for example: bash scripts/quickstart.sh --users 2000). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-gsl.sh
swift build -c release --product deferral-sim
exec .build/release/deferral-sim run "$@"
