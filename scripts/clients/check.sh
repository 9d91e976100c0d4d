#!/usr/bin/env bash
# Generated clients accept the document's own examples (a CI step):
#
# 1. TypeScript: openapi-typescript generates the types of openapi/openapi.json
#    and every example of the document, of the README and of the guides in
#    docs/ is type-checked against them under `tsc --strict` (typecheck.mjs);
#    one batch is sent through openapi-fetch typed by them (batch_call.mts).
# 2. Python: openapi-python-client generates a client from the same document,
#    with no schema or response left out and no machine-named class, and
#    every request of the README and the guides runs through it against the
#    live service (python_tour.py), the JSON batches through its typed batch
#    call.
#
# The service runs with an API key (`gin-referee keys new`), which both
# clients send as a bearer token (the document's security scheme); each also
# checks that a call without it is refused with 401.
#
#   scripts/clients/check.sh
#
# Both run, then the script fails if either did. Installs its pinned tools:
# npm ci here (package-lock.json), pip into target/clients-venv. Uses the
# debug binary (built when missing).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source scripts/lib/server.sh

OPENAPI_PYTHON_CLIENT_VERSION=0.29.1
BINARY=${BINARY:-target/debug/gin-referee}
DOCUMENT=openapi/openapi.json
out=target/clients
venv=target/clients-venv
status=0

# TypeScript.
(cd scripts/clients && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
# The pages whose examples are checked: the README and every guide.
pages=(README.md docs/*.md)
node scripts/clients/typecheck.mjs "$DOCUMENT" "$out/ts" "${pages[@]}" || status=1

# Python: the generator, pinned, in its own environment.
if ! "$venv/bin/openapi-python-client" --version 2>/dev/null | grep -q "$OPENAPI_PYTHON_CLIENT_VERSION"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check \
        "openapi-python-client==$OPENAPI_PYTHON_CLIENT_VERSION"
fi
rm -rf "$out/python"
mkdir -p "$out"
"$venv/bin/openapi-python-client" generate --path "$DOCUMENT" --meta setup \
    --config scripts/clients/python-client.yaml --output-path "$out/python" >"$out/python-generate.log" 2>&1 || {
    cat "$out/python-generate.log" >&2
    exit 1
}
# Every warning but the NDJSON operations' (openapi-python-client has no
# NDJSON; python_tour.py sends those bodies itself) is a piece of the document
# the client lost: a schema it could not read, a response it left out.
if python3 - "$out/python-generate.log" <<'EOF'
import re, sys
log = open(sys.argv[1]).read()
blocks = re.split(r"\n(?=WARNING |Unable to process schema )", log)
bad = [b.strip() for b in blocks
       if (b.startswith("WARNING") or b.startswith("Unable"))
       and "Unsupported content type application/x-ndjson" not in b]
for block in bad:
    print("FAIL openapi-python-client: " + block.split("\n\n")[0].replace("\n", " "))
    print("    " + "\n    ".join(line for line in block.split("\n")[1:] if line.strip())[:600])
sys.exit(1 if bad else 0)
EOF
then :; else status=1; fi
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --force-reinstall "$out/python"

# The service requires an API key, and both clients send it as a bearer token.
mkdir -p "$out"
make_api_key "$out" clients
start_service
GIN_REFEREE_KEY="$api_key" "$venv/bin/python" scripts/clients/python_tour.py "$service_url" "$DOCUMENT" "${pages[@]}" || status=1

# One batch through the TypeScript client: type-checked with the generated
# types, compiled, and run (openapi-fetch resolved from scripts/clients).
run=target/clients/ts-run
rm -rf "$run"
mkdir -p "$run"
ln -s "$PWD/scripts/clients/node_modules" "$run/node_modules"
if scripts/clients/node_modules/.bin/tsc --strict --skipLibCheck false --target es2022 \
    --module es2022 --moduleResolution bundler --rootDir . --outDir "$run" \
    scripts/clients/batch_call.mts; then
    node "$run/scripts/clients/batch_call.mjs" "$service_url" "$api_key" || status=1
else
    echo "FAIL typescript: the batch call does not type-check"
    status=1
fi

exit "$status"
