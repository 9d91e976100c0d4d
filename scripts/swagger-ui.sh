#!/usr/bin/env bash
# Swagger UI renders offline: headless Chromium loads /docs/ from the running
# service, lets its JavaScript run, and the rendered page must list every
# operation of the OpenAPI document. The machine has no route to the internet,
# so a page that needed a CDN would render nothing.
#
#   scripts/swagger-ui.sh                       # check only
#   SCREENSHOT=docs/swagger-ui.png scripts/swagger-ui.sh
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

if [ -n "${SCREENSHOT:-}" ]; then
    browse --window-size=1280,1600 --screenshot="$PWD/$SCREENSHOT" "http://127.0.0.1:$port/docs/"
    echo "screenshot: $SCREENSHOT"
fi
