#!/usr/bin/env bash
# Swagger UI renders offline: headless Chromium loads /docs/ from the running
# service, lets its JavaScript run, and the rendered page must list every
# operation of the OpenAPI document. The machine has no route to the internet,
# so a page that needed a CDN would render nothing.
#
# Then the first screen, as a reader at 1280 x 1024 sees it: its screenshot is
# written to target/swagger-ui/swagger-ui.png (the run's artifact; no picture
# is committed, so none goes stale), and the first operation's method badge
# must be on it: a document description grown long again (an inline error
# table, say) pushes the operations off the first screen and fails the step.
#
#   scripts/swagger-ui.sh
#   SCREENSHOT=elsewhere.png scripts/swagger-ui.sh   # another place for the picture
#
# Installs Debian's chromium with apt-get when missing. Uses the debug binary.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/server.sh

BINARY=${BINARY:-target/debug/gin-referee}
CHROMIUM=${CHROMIUM:-chromium}

if ! command -v "$CHROMIUM" >/dev/null; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
[ -x "$BINARY" ] || cargo build --locked --quiet

work=$(mktemp -d)
port=$(free_port)
GIN_REFEREE_LISTEN="127.0.0.1:$port" GIN_REFEREE_LOG_LEVEL=warn "$BINARY" >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
wait_ready "http://127.0.0.1:$port"

# The flags keep Chromium from reaching for Google's services, which this
# machine refuses; --virtual-time-budget lets the page's scripts finish first.
browse() {
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$work/profile" --virtual-time-budget=15000 "$@" 2>/dev/null
}

# `/docs` must redirect to `/docs/`, the page Chromium then renders.
browse --dump-dom "http://127.0.0.1:$port/docs" > "$work/dom.html"

python3 - "$work/dom.html" openapi/openapi.json <<'PY'
import html, json, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
document = json.load(open(sys.argv[2], encoding="utf-8"))
shown = {
    (method.upper(), html.unescape(path))
    for method, path in re.findall(
        r'opblock-summary-method">(\w+)</span>.*?data-path="([^"]+)"', dom, re.S)
}
expected = {
    (method.upper(), path)
    for path, item in document["paths"].items()
    for method in item
    if method in {"get", "put", "post", "delete", "patch", "head", "options"}
}
missing = sorted(expected - shown)
title = document["info"]["title"]
if title not in dom:
    sys.exit(f"Swagger UI did not render the document's title {title!r}")
if missing:
    sys.exit(f"Swagger UI rendered {len(shown)} operations; missing: {missing}")
print(f"Swagger UI at /docs/ rendered all {len(expected)} operations of {title!r} offline")
PY

screenshot=${SCREENSHOT:-target/swagger-ui/swagger-ui.png}
mkdir -p "$(dirname "$screenshot")"
rm -f "$screenshot"
browse --window-size=1280,1024 --hide-scrollbars --screenshot="$PWD/$screenshot" \
    "http://127.0.0.1:$port/docs/"
echo "screenshot of the first screen: $screenshot"

# The screenshot, decoded with the standard library (PNG: zlib and the five
# row filters), must hold an operation's method badge: Swagger UI paints it in
# the method's colour (POST #49cc90, GET #61affe, ...), a solid block of
# thousands of pixels that nothing else on the page has.
python3 - "$screenshot" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
at, idat = 8, b""
while at < len(data):
    length, kind = struct.unpack(">I4s", data[at:at + 8])
    body = data[at + 8:at + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    at += 12 + length
assert depth == 8 and colour in (2, 6), f"unexpected PNG format {depth}/{colour}"
channels = 3 if colour == 2 else 4
stride = width * channels
raw, rows, previous = zlib.decompress(idat), [], bytearray(stride)
for y in range(height):
    kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        left = line[i - channels] if i >= channels else 0
        up, corner = previous[i], previous[i - channels] if i >= channels else 0
        if kind == 1:
            line[i] = (line[i] + left) & 255
        elif kind == 2:
            line[i] = (line[i] + up) & 255
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 255
        elif kind == 4:
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
    rows.append(line)
    previous = line
badges = {(0x49, 0xCC, 0x90): "POST", (0x61, 0xAF, 0xFE): "GET"}
found = {}
for y, line in enumerate(rows):
    for x in range(0, stride, channels):
        method = badges.get(tuple(line[x:x + 3]))
        if method:
            count, top = found.get(method, (0, y))
            found[method] = (count + 1, min(top, y))
shown = {method: top for method, (count, top) in found.items() if count >= 500}
if not shown:
    sys.exit(f"no operation on Swagger UI's first screen ({width} x {height} px): "
             "shorten the document's description (src/http/openapi.rs)")
print("first screen shows operations: " + ", ".join(
    f"{method} from {top} px" for method, top in sorted(shown.items(), key=lambda m: m[1])))
PY
