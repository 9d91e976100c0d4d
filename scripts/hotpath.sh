#!/usr/bin/env bash
# Issue 4's hot-path measurement: throughput of POST /v1/hands/analyze (one
# 10-card hand) against GET /healthz of the same server in the same run, for a
# fixed worker count; the goal is analyze >= 0.9 x healthz. Both endpoints pay
# the same middleware (request id, span, access log, metrics), so the ratio
# shows what the JSON extractor, the solver and the response add.
#
#   scripts/hotpath.sh                 # 3 rounds of 10 s per endpoint and setting
#   ROUNDS=5 SECONDS_PER_RUN=20 scripts/hotpath.sh
#
# Settings measured: 1 worker pinned to CPU 0 with wrk on CPU 1, and 2
# workers floating (sharing both CPUs with wrk); each with the access log on
# (the default: one JSON line per request, written to /dev/null here) and off
# (RUST_LOG=info,gin_referee::access=warn). Rounds alternate the endpoints so
# that a busy neighbour on the machine hits both alike; the figure reported is
# the median round. RSS is the server's VmRSS at the end of each analyze run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/server.sh

ROUNDS=${ROUNDS:-3}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-10}
CONNECTIONS=${CONNECTIONS:-32}
BINARY=${BINARY:-target/release/gin-referee}
command -v wrk >/dev/null || { echo "wrk is required (apt-get install wrk)" >&2; exit 2; }
[ -x "$BINARY" ] || cargo build --release --locked

server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null || true' EXIT
out=$(mktemp)

median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

# wrk run: prints "rps p99_ms non_200"
run() {
    local url=$1 script=$2
    $wrk_cpus wrk -t 1 -c "$CONNECTIONS" -d "${SECONDS_PER_RUN}s" --latency ${script:+-s "$script"} "$url" > "$out"
    local rps p99 non2xx
    rps=$(awk '/^Requests\/sec:/ {print $2}' "$out")
    p99=$(awk '$1 == "99%" {v = $2; if (v ~ /us$/) {sub("us", "", v); v /= 1000} else if (v ~ /ms$/) {sub("ms", "", v)} else if (v ~ /s$/) {sub("s", "", v); v *= 1000}; print v}' "$out")
    non2xx=$(awk '/Non-2xx/ {print $NF}' "$out")
    errors=$(awk '/Socket errors/ {print $0}' "$out")
    [ -z "$errors" ] || { echo "socket errors: $errors" >&2; exit 1; }
    echo "$rps $p99 ${non2xx:-0}"
}

printf '%-34s %12s %12s %7s %12s %12s %10s\n' setting "healthz/s" "analyze/s" ratio "p99 health" "p99 analyze" "RSS KiB"
for workers in 1 2; do
    for log in on off; do
        filter=info
        [ "$log" = off ] && filter="info,gin_referee::access=warn"
        server_cpus="" wrk_cpus=""
        if [ "$(nproc)" -ge 2 ] && [ "$workers" = 1 ]; then
            server_cpus="taskset -c 0"
            wrk_cpus="taskset -c $(($(nproc) - 1))"
        fi
        port=$(free_port)
        RUST_LOG="$filter" $server_cpus "$BINARY" --listen "127.0.0.1:$port" --workers "$workers" > /dev/null 2>&1 &
        server=$!
        wait_ready "http://127.0.0.1:$port"
        # Warm-up: both endpoints, so allocator and caches are in steady state.
        SECONDS_PER_RUN=2 run "http://127.0.0.1:$port/healthz" "" > /dev/null
        SECONDS_PER_RUN=2 run "http://127.0.0.1:$port" scripts/load/analyze.lua > /dev/null
        h_rps=() h_p99=() a_rps=() a_p99=() rss=()
        for _ in $(seq 1 "$ROUNDS"); do
            read -r r p n < <(run "http://127.0.0.1:$port/healthz" "")
            [ "$n" = 0 ] || { echo "healthz: $n non-2xx" >&2; exit 1; }
            h_rps+=("$r"); h_p99+=("$p")
            read -r r p n < <(run "http://127.0.0.1:$port" scripts/load/analyze.lua)
            [ "$n" = 0 ] || { echo "analyze: $n non-2xx" >&2; exit 1; }
            a_rps+=("$r"); a_p99+=("$p")
            rss+=("$(awk '/^VmRSS:/ {print $2}' "/proc/$server/status")")
        done
        kill "$server"; wait "$server" 2>/dev/null || true; server=""
        h=$(printf '%s\n' "${h_rps[@]}" | median); a=$(printf '%s\n' "${a_rps[@]}" | median)
        printf '%-34s %12.0f %12.0f %7.2f %10s ms %10s ms %10s\n' \
            "$workers worker(s)$([ -n "$server_cpus" ] && echo ' pinned'), access log $log" \
            "$h" "$a" "$(echo "$a / $h" | bc -l)" \
            "$(printf '%s\n' "${h_p99[@]}" | median)" "$(printf '%s\n' "${a_p99[@]}" | median)" \
            "$(printf '%s\n' "${rss[@]}" | sort -n | tail -1)"
        echo "    rounds healthz: ${h_rps[*]}; analyze: ${a_rps[*]}"
    done
done
rm -f "$out"
