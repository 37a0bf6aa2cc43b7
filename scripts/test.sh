#!/usr/bin/env bash
# Quick start, second command: installs what is missing and runs the whole test suite.
# Extra arguments go to `swift test` (for example: bash scripts/test.sh --filter Queue).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-gsl.sh
swift build --build-tests
exec swift test --skip-build "$@"
