#!/usr/bin/env bash
# What a picture costs against the JSON answer of the same request, in
# user-space instructions per request counted by callgrind on the release
# server: unlike times, the counts do not depend on what else the machine is
# doing, so two builds can be compared in one run on a shared machine.
#
#   scripts/pictures-instructions.sh                     # target/release/gin-referee
#   scripts/pictures-instructions.sh BASE_BINARY NEW_BINARY
#   REQUESTS=500 PROFILES=target/callgrind scripts/pictures-instructions.sh
#   callgrind_annotate --inclusive=yes target/callgrind/<binary>-score_6-svg.out.1
#
# The requests are those of benches/pictures.rs: the match score of the
# OpenAPI example `source_s0` (six hands) and of 100 hands won by one point
# in turn, the match audit's `legal` example, the hand audit's `legal_knock`.
# Each is sent with `Accept: application/json`, `image/svg+xml` and
# `text/html`. Each binary runs under callgrind with one worker; one keep-alive
# connection sends WARMUP requests, the counters are zeroed, REQUESTS more are
# sent, and the counters are dumped. The kernel's share (reading and writing
# the socket) is not counted. Needs valgrind (apt-get install valgrind).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/server.sh

REQUESTS=${REQUESTS:-300}
WARMUP=${WARMUP:-50}
command -v valgrind >/dev/null || { echo "valgrind is required (apt-get install valgrind)" >&2; exit 2; }
if [ $# -eq 0 ]; then
    [ -x target/release/gin-referee ] || cargo build --release --locked
    set -- target/release/gin-referee
fi

work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"' EXIT

# The bodies, from the committed OpenAPI document's examples.
python3 - openapi/openapi.json "$work" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
def example(path, name):
    return doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["examples"][name]["value"]
hundred = {"players": ["Mom", "Dad"], "hands": [
    {"knocker": "Mom" if i % 2 == 0 else "Dad", "knocker_deadwood": 9, "defender_deadwood": 10}
    for i in range(100)]}
for name, path, body in [
    ("score_6", "/v1/matches/score", example("/v1/matches/score", "source_s0")),
    ("score_100", "/v1/matches/score", hundred),
    ("match_audit", "/v1/matches/audit", example("/v1/matches/audit", "legal")),
    ("hand_audit", "/v1/hands/audit", example("/v1/hands/audit", "legal_knock")),
]:
    open(f"{sys.argv[2]}/{name}.json", "w").write(json.dumps(body))
    open(f"{sys.argv[2]}/{name}.path", "w").write(path)
PY

# Sends COUNT requests on one keep-alive connection and waits for every
# answer, checking each is a 200 of the media type asked for.
cat > "$work/client.py" <<'PY'
import socket, sys
port, path, body_file, accept, count = sys.argv[1:6]
payload = open(body_file, "rb").read()
request = (f"POST {path} HTTP/1.1\r\nHost: bench\r\nAccept: {accept}\r\n"
           f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n").encode() + payload
sock = socket.create_connection(("127.0.0.1", int(port)))
buffer = b""
for _ in range(int(count)):
    sock.sendall(request)
    while b"\r\n\r\n" not in buffer:
        buffer += sock.recv(65536)
    header, buffer = buffer.split(b"\r\n\r\n", 1)
    lines = header.decode().split("\r\n")
    status = lines[0].split(" ", 2)[1]
    fields = {k.lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
    if status != "200" or not fields.get("content-type", "").startswith(accept):
        sys.exit(f"{path} as {accept}: {status} {fields.get('content-type')}")
    length = int(fields["content-length"])
    while len(buffer) < length:
        buffer += sock.recv(65536)
    buffer = buffer[length:]
PY

printf '%-28s %-12s %12s %12s %12s %9s %9s\n' binary request json svg html "svg/json" "html/json"
for binary in "$@"; do
    label=$(basename "$(dirname "$binary")")-$(basename "$binary")
    port=$(free_port)
    out="$work/callgrind.out"
    RUST_LOG=warn valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$binary" --listen "127.0.0.1:$port" --workers 1 > /dev/null 2>&1 &
    server=$!
    wait_ready "http://127.0.0.1:$port" 60  # valgrind starts slowly
    for name in score_6 score_100 match_audit hand_audit; do
        path=$(cat "$work/$name.path")
        declare -A count=()
        for accept in application/json image/svg+xml text/html; do
            python3 "$work/client.py" "$port" "$path" "$work/$name.json" "$accept" "$WARMUP"
            callgrind_control -z "$server" > /dev/null 2>&1
            python3 "$work/client.py" "$port" "$path" "$work/$name.json" "$accept" "$REQUESTS"
            rm -f "$out"*
            callgrind_control -d "$server" > /dev/null 2>&1
            total=$(for f in "$out"*; do callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'; done | awk '{s += $1} END {print s}')
            count[$accept]=$((total / REQUESTS))
            if [ -n "${PROFILES:-}" ]; then
                mkdir -p "$PROFILES"
                for f in "$out"*; do cp "$f" "$PROFILES/$label-$name-${accept#*/}.out.${f##*.}"; done
            fi
        done
        json=${count[application/json]} svg=${count[image/svg+xml]} html=${count[text/html]}
        printf '%-28s %-12s %12d %12d %12d %8.2fx %8.2fx\n' "$label" "$name" "$json" "$svg" "$html" \
            "$(bc -l <<<"$svg / $json")" "$(bc -l <<<"$html / $json")"
        unset count
    done
    kill "$server"; wait "$server" 2>/dev/null || true; server=""
done
