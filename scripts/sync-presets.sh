#!/usr/bin/env bash
# Rewrites the copies of the preset list that live outside Swift from the one declaration,
# PolicyCatalog.presets (Sources/MessageDeferral/PolicyCatalog.swift), through the built tool:
#   - README.md's policy table            (deferral-sim policies --markdown)
#   - scenarios/schema.json's preset enums (both: a preset name, a custom policy's `preset`)
#   - Fuzz/scenario.dict's preset names
# Run it after adding or renaming a preset; PresetDeclarationTests, SchemaAgreementTests and
# the fuzz dictionary check fail until you do. Idempotent: a second run changes nothing.
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
start = lines.index("| name | what it reproduces |")
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

path = "Fuzz/scenario.dict"
kept = [line for line in open(path, encoding="utf-8").read().split("\n")
        if not line.startswith("value_preset_")]
kept = [line for line in kept if not re.match(r'value_[a-z0-9_]+="\\"(%s)\\""$' % "|".join(map(re.escape, names)), line)]
while kept and kept[-1] == "":
    kept.pop()
kept += ['value_preset_%s="\\"%s\\""' % (name.replace("-", "_"), name) for name in names]
open(path, "w", encoding="utf-8").write("\n".join(kept) + "\n")
PY
echo "synced README.md, scenarios/schema.json and Fuzz/scenario.dict with $(wc -w <<<"$names") presets"
