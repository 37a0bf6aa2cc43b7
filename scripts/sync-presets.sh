#!/usr/bin/env bash
# Rewrites the copies of the preset list that live outside Swift from the one declaration,
# PolicyCatalog.presets (Sources/MessageDeferral/PolicyCatalog+ModelledPresets.swift and
# +OurPresets.swift), through the built tool:
#   - README.md's policy table            (deferral-sim policies --markdown)
#   - scenarios/schema.json's preset enums (both: a preset name, a custom policy's `preset`)
# (The fuzz dictionary's preset names are appended at fuzz time by scripts/fuzz.sh.)
# Run it after adding, renaming or changing a preset; PresetDeclarationTests and
# SchemaAgreementTests fail until you do. Idempotent: a second run changes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${DEFERRAL_SIM:-.build/debug/deferral-sim}
if [[ -z ${DEFERRAL_SIM:-} ]]; then swift build --product deferral-sim >/dev/null; fi
table=$("$bin" policies --markdown)
names=$("$bin" policies | cut -f1)
TABLE="$table" NAMES="$names" python3 - <<'PY'
import json, os, re

table = os.environ["TABLE"]
names = os.environ["NAMES"].split()

readme = open("README.md", encoding="utf-8").read()
lines = readme.split("\n")
start = next(i for i, line in enumerate(lines) if line.startswith("| name | what it reproduces |"))
end = start
while end < len(lines) and lines[end].startswith("|"):
    end += 1
lines[start:end] = table.split("\n")
open("README.md", "w", encoding="utf-8").write("\n".join(lines))

path = "scenarios/schema.json"
text = open(path, encoding="utf-8").read()
def preset_enum(match):
    indent = match.group(2)
    items = (",\n").join(indent + json.dumps(name) for name in names)
    return match.group(1) + "\n" + items + "\n" + match.group(3)
# The two preset enumerations: a preset name, and a custom policy's `preset`.
pattern = re.compile(
    r'("description": "A built-in preset\.",\s*"type": "string",\s*"enum": \[|'
    r'"preset": \{\s*"enum": \[)\n( +)"storekit-auto"[^\]]*?\n( *\])')
text, count = pattern.subn(preset_enum, text)
assert count == 2, "scenarios/schema.json: expected 2 preset enumerations, found %d" % count
json.loads(text)
open(path, "w", encoding="utf-8").write(text)

PY
echo "synced README.md and scenarios/schema.json with $(wc -w <<<"$names") presets"
