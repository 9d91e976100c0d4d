#!/usr/bin/env bash
# Receipts verified by a second, independent implementation: the service
# signs with ed25519-dalek and canonicalises in Rust; scripts/verify_receipt.py
# checks with OpenSSL's Ed25519 (`cryptography`) and Trail of Bits' RFC 8785
# (`rfc8785`). Every signing operation is checked, then one byte of the
# request, of the answer and of the signature is changed: each must fail.
#
#   scripts/receipts.sh        # debug build
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/server.sh

BINARY=${BINARY:-target/debug/gin-referee}
python3 -c 'import cryptography, rfc8785' 2>/dev/null ||
    python3 -m pip install --quiet --disable-pip-version-check "cryptography>=42" "rfc8785==0.1.4"
[ -x "$BINARY" ] || cargo build --locked --quiet

work=$(mktemp -d)
port=$(free_port)
python3 - "$work/key.pem" <<'PY'
import sys
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
pem = Ed25519PrivateKey.generate().private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
open(sys.argv[1], "wb").write(pem)
PY
GIN_REFEREE_LISTEN="127.0.0.1:$port" GIN_REFEREE_LOG_LEVEL=warn \
    GIN_REFEREE_SIGNING_KEY="$work/key.pem" "$BINARY" >"$work/log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
wait_ready "http://127.0.0.1:$port"
base="http://127.0.0.1:$port"
curl -sf "$base/v1/keys" >"$work/keys.json"

deal='"deal": {"seeds": {"server_seed": "4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99887766554433221100ffeeddccbbaa00", "client_seed": "table-7", "nonce": 1}, "commitment": "COMMITMENT"}'
commitment=$(curl -sf "$base/v1/deals" -H 'Content-Type: application/json' \
    -d '{"server_seed": "4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99887766554433221100ffeeddccbbaa00", "client_seed": "table-7", "nonce": 1}' |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["commitment"])')
deal=${deal/COMMITMENT/$commitment}

check() {
    local name=$1 path=$2 body=$3
    printf '%s' "$body" >"$work/request.json"
    curl -sf "$base$path" -H 'Content-Type: application/json' --data-binary @"$work/request.json" \
        >"$work/answer.json"
    python3 scripts/verify_receipt.py "$work/request.json" "$work/answer.json" "$work/keys.json" \
        >/dev/null
    # One character of the request (the first 5 becomes 6), of the answer and of
    # the signature: each must fail.
    sed 's/5/6/' "$work/request.json" >"$work/request-changed.json"
    python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
answer = json.load(open(f"{work}/answer.json"))
changed = dict(answer)
changed["legal" if "legal" in changed else "complete" if "complete" in changed else "points"] = 0
json.dump(changed, open(f"{work}/answer-changed.json", "w"))
receipt = answer["receipt"]
flipped = receipt[:-2] + ("A" if receipt[-2] != "A" else "B") + receipt[-1]
json.dump(dict(answer, receipt=flipped), open(f"{work}/signature-changed.json", "w"))
PY
    for tampered in "request-changed.json answer.json" "request.json answer-changed.json" \
        "request.json signature-changed.json"; do
        set -- $tampered
        if python3 scripts/verify_receipt.py "$work/$1" "$work/$2" "$work/keys.json" 2>/dev/null; then
            echo "$name: a receipt verified after $1 / $2 was changed" >&2
            return 1
        fi
    done
    echo "$name: receipt verified; tampered request, answer and signature refused"
}

check hand-score /v1/hands/score '{"receipt": true, "knocker": {"hand": ["3H","4H","5H","9S","9H","9D","3C","4C","5C","AH"]}, "defender": {"hand": ["6H","2H","JS","JH","JD","7S","7H","7C","4D","5S"]}}'
check match-score /v1/matches/score '{"receipt": true, "players": ["Mom", "Dad"], "hands": [{"knocker": "Mom", "knocker_deadwood": 5, "defender_deadwood": 15}]}'
check hand-audit /v1/hands/audit "{\"receipt\": true, $deal, \"actions\": [{\"player\": \"non_dealer\", \"action\": \"pass\"}]}"
check match-audit /v1/matches/audit "{\"players\": [\"Ann\", \"Bob\"], \"hands\": [{\"dealer\": \"Ann\", $deal, \"actions\": []}], \"claimed\": {\"complete\": false}}"
