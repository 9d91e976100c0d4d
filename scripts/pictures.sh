#!/usr/bin/env bash
# The pictures in a real browser: headless Chromium, driven by Playwright
# (playwright-core, with the system's Chromium as its executablePath: its own
# browser download is not reachable here), loads GET /viewer from the running
# service, pastes a match, a match audit, a hand and a refused record, and
# checks what the page shows (the totals and net, the violations, the
# problem), that no request leaves the service and that no console error (a
# Content-Security-Policy violation among them) occurs.
#
# Then the same viewer against a second service started with --api-keys (a
# file with one key, made by `gin-referee keys new`): the page asks for the
# key on 401, refuses a wrong one with its problem shown, draws the sheet with
# the right one and keeps it in sessionStorage only; a second key that may only
# audit hands is answered 403 for a match, and the page shows the problem and
# asks for another key (scripts/pictures/keyed.mjs); neither key may appear in
# that service's log.
#
# Screenshots of the viewer, the sheet, the audit's sheet, the replay and the
# problem, at 1280 x 1024 and at a phone's width (390 x 844), and of the key
# prompt, the refused key and the keyed sheet, are written to target/pictures/
# (the run's artifacts; none is committed).
#
#   scripts/pictures.sh
#
# Installs Debian's chromium with apt-get when missing, and playwright-core
# with npm ci (scripts/pictures/package-lock.json). Uses the debug binary.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/server.sh

BINARY=${BINARY:-target/debug/gin-referee}
CHROMIUM_PATH=${CHROMIUM_PATH:-/usr/bin/chromium}
OUT=${OUT:-target/pictures}

if [ ! -x "$CHROMIUM_PATH" ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
(cd scripts/pictures && npm ci --no-audit --no-fund --loglevel=error >/dev/null)

start_service
rm -rf "$OUT"
CHROMIUM_PATH="$CHROMIUM_PATH" node scripts/pictures/viewer.mjs "$service_url" openapi/openapi.json "$OUT"
kill "$service_pid"
wait "$service_pid" 2>/dev/null || true
rm -f "$service_log"

# The second service, with a key required. The key goes to the page through
# the environment (not the command line, which other users can read).
keys_dir=$(mktemp -d)
make_api_key "$keys_dir" viewer
# A second key in the same file that may only audit hands: the page's 403 path.
scoped=$("$BINARY" keys new --id viewer-hands --scope audit_hand 2>/dev/null)
scoped_key=$(sed -n 1p <<<"$scoped")
printf '[%s,%s]\n' "$(sed 's/^\[//; s/\]$//' "$api_keys_file")" "$(sed -n 2p <<<"$scoped")" > "$keys_dir/both.json"
mv "$keys_dir/both.json" "$api_keys_file"
start_service
trap 'kill "$service_pid" 2>/dev/null || true; rm -f "$service_log"; rm -rf "$keys_dir"' EXIT
API_KEY="$api_key" SCOPED_KEY="$scoped_key" CHROMIUM_PATH="$CHROMIUM_PATH" \
    node scripts/pictures/keyed.mjs "$service_url" openapi/openapi.json "$OUT"
if grep -qF -e "$api_key" -e "$scoped_key" "$service_log"; then
    echo "FAIL an API key is in the service's log" >&2
    exit 1
fi
echo "ok   keyed: no key is in the service's log"
