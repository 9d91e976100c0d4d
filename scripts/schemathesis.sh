#!/usr/bin/env bash
# Property-based API testing: schemathesis generates requests from the live
# OpenAPI document and checks every response (no 5xx, status documented,
# response matches the schema, content type, ...).
#
#   scripts/schemathesis.sh            # debug build, 300 examples per operation
#   MAX_EXAMPLES=2000 scripts/schemathesis.sh
#
# Installs its pinned schemathesis with pip when missing. Starts the service on
# a free loopback port, with an API key (`gin-referee keys new`) that every
# request carries as the document's bearer token, and stops it when done;
# schemathesis's `ignored_auth` check also sends requests without it, which
# must be refused.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/server.sh

SCHEMATHESIS_VERSION=4.32.5
MAX_EXAMPLES=${MAX_EXAMPLES:-300}
BINARY=${BINARY:-target/debug/gin-referee}

if ! schemathesis --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
    python3 -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
mkdir -p target/schemathesis
make_api_key target/schemathesis schemathesis
start_service

# The batch endpoints' NDJSON bodies (scripts/schemathesis_hooks.py).
PYTHONPATH="scripts${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=schemathesis_hooks \
schemathesis run "$service_url/api-docs/openapi.json" \
    --checks all \
    --header "Authorization: Bearer $api_key" \
    --max-examples "$MAX_EXAMPLES" \
    --seed 20261121 \
    --workers 2 \
    --report-dir target/schemathesis

if ! kill -0 "$service_pid" 2>/dev/null; then
    echo "the service died during the run:" >&2
    cat "$service_log" >&2
    exit 1
fi
# The service's own errors (an internal error logs its cause under the
# gin_referee target). actix-http also logs malformed requests it refused
# itself (bad header bytes) at ERROR: those are the client's, not ours.
if grep '"level":"ERROR"' "$service_log" | grep -q '"target":"gin_referee'; then
    echo "the service logged errors during the run:" >&2
    grep '"level":"ERROR"' "$service_log" | grep '"target":"gin_referee' >&2
    exit 1
fi
