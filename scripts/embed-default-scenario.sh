#!/usr/bin/env bash
# Copies scenarios/indie-subscription.json, byte for byte, into the Swift string literal that
# `deferral-sim run` uses when no scenario is given (Sources/Simulation/Scenario/EmbeddedScenarios.swift).
# Run it after editing the default scenario; the test "embedded default equals the file"
# fails until you do.
set -euo pipefail
cd "$(dirname "$0")/.."
source=scenarios/indie-subscription.json
target=Sources/Simulation/Scenario/EmbeddedScenarios.swift
if grep -q '"""#' "$source"; then
  echo "error: $source contains '\"\"\"#', which cannot go into a raw string literal" >&2
  exit 1
fi
{
  cat <<'HEADER'
// The default scenario, embedded so that `deferral-sim run` works from any folder.
// A byte-for-byte copy of scenarios/indie-subscription.json, written by
// `bash scripts/embed-default-scenario.sh`: run it after editing that file (a test fails while
// the two differ). Do not edit the literal by hand.

extension ScenarioLoader {
  /// The text of `scenarios/indie-subscription.json`, byte for byte.
  public static let embeddedDefaultJSON = _indieSubscriptionJSON
}

// swift-format-ignore
let _indieSubscriptionJSON = #"""
HEADER
  cat "$source"
  # The line break just before the closing delimiter is not part of the literal: this one
  # keeps the file's own final line break.
  printf '\n"""#\n'
} >"$target"
echo "wrote $target"
