#!/usr/bin/env bash
# User-space instructions per request, counted by callgrind: unlike requests
# per second, the count does not depend on what else the machine is doing, so
# two builds can be compared to within 0.1% on a shared machine.
#
#   scripts/instructions.sh            # healthz and analyze, access log on and off,
#                                      # and with an API key required and sent
#   REQUESTS=5000 scripts/instructions.sh
#   WRK=10 scripts/instructions.sh     # also wrk, 10 s per line, natively
#   PROFILES=target/callgrind scripts/instructions.sh   # keep the profiles
#   callgrind_annotate --inclusive=yes target/callgrind/on-analyze.out.1
#
# The release server runs under callgrind with one worker; one keep-alive
# connection sends WARMUP requests, the counters are zeroed, REQUESTS more are
# sent, and the counters are dumped. The kernel's share (reading and writing
# the socket) is not counted. Needs valgrind (apt-get install valgrind).
#
# The "key" lines run the server with --api-keys (one key, every operation,
# no rate) and send `Authorization: Bearer <key>` on every request, access log
# on: their cost over the "on" lines is the admission's (the constant-time
# comparison with the key the worker remembers, the scope, the slot, the
# counter) and the key's id on the access line. With WRK=<seconds>, each line is
# also measured with wrk (one thread, 8 connections) against the same binary
# run natively, right after its callgrind run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/server.sh

REQUESTS=${REQUESTS:-2000}
WARMUP=${WARMUP:-300}
BINARY=${BINARY:-target/release/gin-referee}
command -v valgrind >/dev/null || { echo "valgrind is required (apt-get install valgrind)" >&2; exit 2; }
[ -x "$BINARY" ] || cargo build --release --locked

work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"' EXIT

# Sends requests on one keep-alive connection: "send N" sends N requests and
# waits for every answer, checking each status is 200.
cat > "$work/client.py" <<'PY'
import socket, sys
port, method, path, body, count = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
key = sys.argv[6] if len(sys.argv) > 6 else ""
payload = body.encode()
head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\n"
if key:
    head += f"Authorization: Bearer {key}\r\n"
if payload:
    head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
request = (head + "\r\n").encode() + payload
sock = socket.create_connection(("127.0.0.1", int(port)))
buffer = b""
for _ in range(count):
    sock.sendall(request)
    while b"\r\n\r\n" not in buffer:
        buffer += sock.recv(65536)
    header, buffer = buffer.split(b"\r\n\r\n", 1)
    status = header.split(b" ", 2)[1]
    if status != b"200":
        sys.exit(f"{path}: status {status.decode()}")
    length = next(int(line.split(b":")[1]) for line in header.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(buffer) < length:
        buffer += sock.recv(65536)
    buffer = buffer[length:]
PY

hand='{"hand":["7S","7H","7D","7C","8H","9H","KS","QD","2C","3D"]}'
# The key lines' key (only when they run: a build from before API keys has
# no `keys new`, and its "on" and "off" lines are still worth measuring).
key=""
if [[ " ${MODES:-on off key} " == *" key "* ]]; then
    made=$("$BINARY" keys new --id bench --scope '*' 2>/dev/null)
    key=$(sed -n 1p <<<"$made")
    printf '[%s]\n' "$(sed -n 2p <<<"$made")" > "$work/keys.json"
fi

# wrk's request: the analyze body, and the key where one is sent.
cat > "$work/wrk.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"hand":["7S","7H","7D","7C","8H","9H","KS","QD","2C","3D"]}'
local key = os.getenv("BENCH_KEY")
if key and key ~= "" then wrk.headers["Authorization"] = "Bearer " .. key end
not_ok = 0
function response(status) if status ~= 200 then not_ok = not_ok + 1 end end
function done() if not_ok > 0 then io.stderr:write(not_ok .. " answers were not 200\n"); os.exit(1) end end
LUA

# Requests per second with wrk, the binary run natively with one worker.
wrk_rate() {
    local flags=$1 sent_key=$2 filter=$3 endpoint=$4 port pid rate
    port=$(free_port)
    # shellcheck disable=SC2086
    RUST_LOG="$filter" "$BINARY" --listen "127.0.0.1:$port" --workers 1 $flags > /dev/null 2>&1 &
    pid=$!
    wait_ready "http://127.0.0.1:$port" 10
    if [ "$endpoint" = /healthz ]; then
        rate=$(wrk -t1 -c8 -d"${WRK}s" "http://127.0.0.1:$port/healthz" | awk '/Requests\/sec/ {print $2}')
    else
        rate=$(BENCH_KEY="$sent_key" wrk -t1 -c8 -d"${WRK}s" -s "$work/wrk.lua" "http://127.0.0.1:$port$endpoint" | awk '/Requests\/sec/ {print $2}')
    fi
    kill "$pid"; wait "$pid" 2>/dev/null || true
    echo "$rate"
}

printf '%-10s %-18s %14s %12s\n' "access log" endpoint "instr/request" "wrk req/s"
for mode in ${MODES:-on off key}; do
    filter=info flags="" sent_key=""
    [ "$mode" = off ] && filter="info,gin_referee::access=warn"
    [ "$mode" = key ] && flags="--api-keys $work/keys.json" sent_key=$key
    port=$(free_port)
    out="$work/callgrind.out"
    # shellcheck disable=SC2086
    RUST_LOG="$filter" valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$BINARY" --listen "127.0.0.1:$port" --workers 1 $flags > /dev/null 2>&1 &
    server=$!
    wait_ready "http://127.0.0.1:$port" 30  # valgrind starts slowly
    for endpoint in "GET /healthz" "POST /v1/hands/analyze"; do
        read -r method path <<<"$endpoint"
        body=""
        [ "$method" = POST ] && body=$hand
        python3 "$work/client.py" "$port" "$method" "$path" "$body" "$WARMUP" "$sent_key"
        callgrind_control -z "$server" > /dev/null 2>&1
        python3 "$work/client.py" "$port" "$method" "$path" "$body" "$REQUESTS" "$sent_key"
        rm -f "$out"*
        callgrind_control -d "$server" > /dev/null 2>&1
        total=$(for f in "$out"*; do callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'; done | awk '{s += $1} END {print s}')
        rate="-"
        if [ -n "${WRK:-}" ]; then
            rate=$(wrk_rate "$flags" "$sent_key" "$filter" "$path")
        fi
        printf '%-10s %-18s %14d %12s\n' "$mode" "$path" $((total / REQUESTS)) "$rate"
        if [ -n "${PROFILES:-}" ]; then
            mkdir -p "$PROFILES"
            for f in "$out"*; do cp "$f" "$PROFILES/$mode-${path##*/}.out.${f##*.}"; done
        fi
    done
    kill "$server"; wait "$server" 2>/dev/null || true; server=""
done
