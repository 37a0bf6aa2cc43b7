#!/usr/bin/env bash
# Opens a report.html in headless Chromium (Debian package `chromium`) and checks that it
# loads cleanly and draws something:
#   1. the page loaded once, with the browser's console logged: any console message fails
#      (the page has no script, so a message means a blocked or failed load or a
#      Content-Security-Policy violation). Its screenshot, OUT.png, shows a 1200x2400 window
#      drawn at scale $BROWSER_CHECK_SCALE (default 0.5: 600x1200 pixels, a quick pixel check;
#      1 for full size);
#   2. the DOM after load (--dump-dom): it must hold the report (data-report="deferral-sim"),
#      at least four SVG charts ($BROWSER_CHECK_MIN_CHARTS if set: a robustness report has 2),
#      and an element with each id in IDS (comma-separated, optional: the key charts, e.g.
#      tradeoff-chart,consent-chart for a run's report, sweep-tradeoff,axis-0-x for a sweep's);
#   3. the screenshot's pixels (decoded with python3's zlib): the expected size (the window
#      times the scale), not blank, not one colour;
#   4. the layout, measured by scripts/browser-layout.js in a second load of a copy of the page
#      (the report has no script; the copy has the measuring one and no Content-Security-Policy):
#      each policy drawn in one colour and no two policies sharing one; one precision per
#      panel for the value labels; no chart text clipped at its chart's edge, cut with an
#      ellipsis, or overlapping another. Each problem is printed; any fails the check.
# Usage: scripts/browser-check.sh REPORT.html OUT.png [IDS]
# The browser: $CHROMIUM if set, else the first of chromium, chromium-headless-shell,
# headless_shell, chromium-browser, google-chrome on the PATH.
# Exit: 0 all checks passed; 1 a check failed; 2 bad usage; 77 no browser found (a skip: the
# reason is printed on standard error).
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 REPORT.html OUT.png [IDS]" >&2
  exit 2
fi
report=$1
out=$2
ids=${3:-}
if [ ! -f "$report" ]; then
  echo "browser-check: no such file: $report" >&2
  exit 2
fi

browser=${CHROMIUM:-}
if [ -z "$browser" ]; then
  for name in chromium chromium-headless-shell headless_shell chromium-browser google-chrome; do
    if command -v "$name" > /dev/null 2>&1; then
      browser=$(command -v "$name")
      break
    fi
  done
fi
if [ -z "$browser" ]; then
  echo "browser-check: skipped: no headless Chromium on the PATH (Debian: apt-get install -y chromium)" >&2
  exit 77
fi
if ! command -v python3 > /dev/null 2>&1; then
  echo "browser-check: python3 is needed to check the screenshot's pixels (apt-get install -y python3)" >&2
  exit 1
fi

url=$(python3 -c 'import pathlib, sys; print(pathlib.Path(sys.argv[1]).resolve().as_uri())' "$report")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# A fresh profile and config home per call: concurrent checks do not share state, and nothing
# is written to the user's own Chromium profile.
export XDG_CONFIG_HOME="$scratch/config" XDG_CACHE_HOME="$scratch/cache"
scale=${BROWSER_CHECK_SCALE:-0.5}
flags=(
  --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
  --no-default-browser-check --disable-extensions --disable-background-networking
  --disable-component-update --disable-sync --mute-audio
  --force-device-scale-factor="$scale"
  --user-data-dir="$scratch/profile" --enable-logging=stderr --v=0 --window-size=1200,2400
)
failed=0

rm -f "$out"
# One load: the screenshot to OUT.png, the DOM after load to standard output, the console to
# standard error.
if ! timeout 120 "$browser" "${flags[@]}" --screenshot="$out" --dump-dom "$url" \
  > "$scratch/dom.html" 2> "$scratch/browser.log"; then
  echo "browser-check: $browser failed to load the page:" >&2
  tail -20 "$scratch/browser.log" >&2
  exit 1
fi
if [ ! -s "$out" ]; then
  echo "browser-check: no screenshot written to $out" >&2
  tail -20 "$scratch/browser.log" >&2
  exit 1
fi

if grep ':CONSOLE' "$scratch/browser.log" > "$scratch/console.txt"; then
  echo "browser-check: the page logged console messages (load errors, blocked requests):" >&2
  sort -u "$scratch/console.txt" | head -20 >&2
  failed=1
fi

if ! grep -q 'data-report="deferral-sim"' "$scratch/dom.html"; then
  echo "browser-check: the loaded DOM does not hold the report (data-report=\"deferral-sim\")" >&2
  failed=1
fi
charts=$({ grep -o '<svg' "$scratch/dom.html" || true; } | wc -l)
min_charts=${BROWSER_CHECK_MIN_CHARTS:-4}
if [ "$charts" -lt "$min_charts" ]; then
  echo "browser-check: the loaded DOM has $charts SVG charts, expected at least $min_charts" >&2
  failed=1
fi

for id in ${ids//,/ }; do
  if ! grep -q "id=\"$id\"" "$scratch/dom.html"; then
    echo "browser-check: the loaded DOM has no element with id \"$id\"" >&2
    failed=1
  fi
done

if ! python3 - "$out" "$scale" <<'PY'
# Decodes an 8-bit RGB or RGBA PNG (non-interlaced, as Chromium writes) with zlib only, and
# checks the picture is not blank: many rows must not be one colour, many colours must occur,
# and at least 2% of the sampled pixels must differ from the most common (background) colour.
import collections, struct, sys, zlib

path = sys.argv[1]
data = open(path, "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit(f"browser-check: {path} is not a PNG")
position, idat, header = 8, [], None
while position < len(data):
    length, kind = struct.unpack(">I4s", data[position:position + 8])
    chunk = data[position + 8:position + 8 + length]
    position += 12 + length
    if kind == b"IHDR":
        header = struct.unpack(">IIBBBBB", chunk)
    elif kind == b"IDAT":
        idat.append(chunk)
width, height, depth, colour, _, _, interlace = header
scale = float(sys.argv[2])
expected = (round(1200 * scale), round(2400 * scale))
if abs(width - expected[0]) > 1 or abs(height - expected[1]) > 1:
    sys.exit(f"browser-check: screenshot is {width}x{height}, expected {expected[0]}x{expected[1]}")
channels = {2: 3, 6: 4}.get(colour)
if depth != 8 or channels is None or interlace != 0:
    sys.exit(f"browser-check: unsupported PNG (depth {depth}, colour type {colour}, interlace {interlace})")
raw = zlib.decompress(b"".join(idat))
stride = width * channels
low7, high1 = int.from_bytes(b"\x7f" * stride, "big"), int.from_bytes(b"\x80" * stride, "big")

def add_bytes(a, b):
    # Bytewise (a + b) mod 256 over whole rows at once, carries kept inside each byte.
    x, y = int.from_bytes(a, "big"), int.from_bytes(b, "big")
    return (((x & low7) + (y & low7)) ^ ((x ^ y) & high1)).to_bytes(stride, "big")

previous = bytes(stride)
rows = []
for row in range(height):
    start = row * (stride + 1)
    kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
    if kind == 1:
        for i in range(channels, stride):
            line[i] = (line[i] + line[i - channels]) & 255
    elif kind == 2:
        line = bytearray(add_bytes(bytes(line), previous))
    elif kind == 3:
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            line[i] = (line[i] + ((left + previous[i]) >> 1)) & 255
    elif kind == 4:
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            predictor = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[i] = (line[i] + predictor) & 255
    elif kind != 0:
        sys.exit(f"browser-check: bad PNG filter {kind} in row {row}")
    previous = bytes(line)
    rows.append(previous)

varied = sum(1 for line in rows if line != line[:channels] * width)
samples = collections.Counter(
    line[i:i + 3] for line in rows[::8] for i in range(0, stride, channels * 5))
background, count = samples.most_common(1)[0]
ink = 1 - count / sum(samples.values())
print(f"browser-check: {width}x{height} screenshot, {varied} of {height} rows not uniform, "
      f"{len(samples)} colours sampled, {ink:.1%} of samples off the background")
if varied < height * 0.05 or len(samples) < 16 or ink < 0.02:
    sys.exit("browser-check: the screenshot looks blank")
PY
then
  failed=1
fi

# 4. The layout, in a copy of the page with the measuring script.
python3 - "$report" "$(dirname "$0")/browser-layout.js" "$scratch/layout.html" <<'PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
script = open(sys.argv[2], encoding="utf-8").read()
page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page)
if "</body>" not in page:
    sys.exit("browser-check: the page has no </body> to put the layout check before")
page = page.replace("</body>", "<script>\n" + script + "\n</script>\n</body>", 1)
open(sys.argv[3], "w", encoding="utf-8").write(page)
PY
layout_url=$(python3 -c 'import pathlib, sys; print(pathlib.Path(sys.argv[1]).resolve().as_uri())' "$scratch/layout.html")
if ! timeout 120 "$browser" "${flags[@]}" --dump-dom "$layout_url" \
  > "$scratch/layout-dom.html" 2> "$scratch/layout.log"; then
  echo "browser-check: $browser failed to load the layout copy:" >&2
  tail -20 "$scratch/layout.log" >&2
  exit 1
fi
if ! python3 - "$scratch/layout-dom.html" <<'PY'
import html, json, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
found = re.findall(r'<pre id="browser-layout">(.*?)</pre>', dom, re.S)
if not found:
    sys.exit("browser-check: layout: the measuring script left no result (did it run?)")
result = json.loads(html.unescape(found[-1]))
print(f"browser-check: layout: {result['charts']} charts, {result['texts']} texts, "
      f"{result['panels']} panels with value labels, {result['policies']} policies coloured")
for problem in result["problems"]:
    print(f"browser-check: layout: {problem}")
if result["problems"]:
    sys.exit(f"browser-check: layout: {len(result['problems'])} problem(s)")
print("browser-check: layout ok: one colour per policy, none shared; one precision per panel; "
      "no label clipped, cut or overlapping")
PY
then
  failed=1
fi

if [ "$failed" -ne 0 ]; then
  exit 1
fi
echo "browser-check: ok: $report loaded without console messages, $charts charts${ids:+ (ids $ids present)}, screenshot $out"
