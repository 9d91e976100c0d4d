#!/usr/bin/env bash
# The time of a bot's move over HTTP, less the state's, on the release build
# with one worker (scripts/bots-http-time.py says what is measured):
#
#   bash scripts/bots-http-time.sh [HANDS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/server.sh
cargo build --release --locked -p gin-referee
BINARY=target/release/gin-referee
export GIN_REFEREE_WORKERS=1
start_service
python3 scripts/bots-http-time.py "$service_url" "${1:-40}"
