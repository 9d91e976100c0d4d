#!/usr/bin/env bash
# Load test: the release binary on a free loopback port, driven by wrk with a
# realistic mix of every endpoint for a set time.
#
#   scripts/load.sh [DURATION]          # default 30s; wrk syntax: 30s, 10m
#
# The mix (scripts/load/requests.py): analyse 34 %, score 14 %, layoffs 10 %,
# validate 10 %, match 8 %, audit 7 %, profiles 5 %, probes 6 %, metrics 1 %,
# and 5 % invalid requests that must get their 4xx (400, 404, 415, 422). Every
# distinct request is checked once against the server before the run; during
# the run wrk counts, per expected status, what was sent and what came back.
#
# Prints requests/s, latency p50/p90/p99/p99.9, socket errors, the status
# counts and the server's RSS (VmRSS) at start and end. Exits non-zero on any
# 5xx, any socket error, any status that was not expected (a status received
# more often than sent, or more responses missing than can be in flight at the
# end), an ERROR logged by the service, or the server dying.
#
# Settings (environment):
#   WORKERS=1          server worker threads (--workers)
#   CONNECTIONS=32     wrk connections; THREADS=1 wrk threads
#   PIN=auto           on 2+ CPUs: server on CPU 0 (one worker), wrk on the
#                      last CPU, so they do not compete; PIN=0 to let them float
#   ACCESS_LOG=on      the production default (one JSON line per request to
#                      stdout, kept here only from WARN up); off: RUST_LOG
#                      turns gin_referee::access down to warn
#   RSS_SAMPLE_SECS=0  also sample RSS every N seconds during the run
#   RSS_GROWTH_LIMIT_KIB=  fail if the last sample exceeds the sample taken
#                      after 60 s of load by more than this (soak.sh sets it)
#   BINARY=target/release/gin-referee (built with --locked when missing)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/server.sh

DURATION=${1:-${DURATION:-30s}}
WORKERS=${WORKERS:-1}
CONNECTIONS=${CONNECTIONS:-32}
THREADS=${THREADS:-1}
PIN=${PIN:-auto}
ACCESS_LOG=${ACCESS_LOG:-on}
RSS_SAMPLE_SECS=${RSS_SAMPLE_SECS:-0}
RSS_GROWTH_LIMIT_KIB=${RSS_GROWTH_LIMIT_KIB:-}
BINARY=${BINARY:-target/release/gin-referee}

command -v wrk >/dev/null || { echo "wrk is required (apt-get install wrk)" >&2; exit 2; }
[ -x "$BINARY" ] || cargo build --release --locked

work=$(mktemp -d)
server=""
sampler=""
cleanup() {
    [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
    [ -n "$server" ] && kill "$server" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

cpus=$(nproc)
server_cpus="" wrk_cpus=""
if [ "$PIN" != 0 ] && [ "$cpus" -ge 2 ] && command -v taskset >/dev/null; then
    wrk_cpus="taskset -c $((cpus - 1))"
    [ "$WORKERS" = 1 ] && server_cpus="taskset -c 0"
fi

filter="info"
[ "$ACCESS_LOG" = off ] && filter="info,gin_referee::access=warn"

port=$(free_port)
url="http://127.0.0.1:$port"
# stdout is the JSON log; INFO lines (the access log) are dropped here rather
# than written to disk, after the server has formatted and written them.
RUST_LOG="$filter" $server_cpus "$BINARY" --listen "127.0.0.1:$port" --workers "$WORKERS" \
    > >(grep --line-buffered -v '"level":"INFO"' > "$work/server.log") 2>&1 &
server=$!
wait_ready "$url"
rss_boot=$(rss_kib "$server")

python3 scripts/load/requests.py "$work/pool.tsv" "$url"
rss_start=$(rss_kib "$server")

if [ "$RSS_SAMPLE_SECS" -gt 0 ]; then
    (
        started=$SECONDS
        while sleep "$RSS_SAMPLE_SECS"; do
            echo "$((SECONDS - started)) $(rss_kib "$server")" >> "$work/rss.txt"
            echo "rss after $((SECONDS - started))s: $(tail -1 "$work/rss.txt" | cut -d' ' -f2) KiB"
        done
    ) &
    sampler=$!
fi

echo "wrk: $DURATION, $THREADS thread(s), $CONNECTIONS connections; server: $WORKERS worker(s), access log $ACCESS_LOG${server_cpus:+, pinned: server CPU 0, wrk CPU $((cpus - 1))}"
$wrk_cpus wrk -t "$THREADS" -c "$CONNECTIONS" -d "$DURATION" --timeout 5s --latency \
    -s scripts/load/mix.lua "$url" -- "$work/pool.tsv" | tee "$work/wrk.txt"
rss_end=$(rss_kib "$server")
[ -n "$sampler" ] && kill "$sampler" 2>/dev/null && wait "$sampler" 2>/dev/null || true
sampler=""

value() { awk -v k="$1" '$1 == "LOAD" && $2 == k {print $3}' "$work/wrk.txt"; }
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

echo
echo "=== summary"
echo "requests      $(value requests) in $(value seconds) s: $(value rps) req/s"
echo "latency       p50 $(value p50_ms) ms, p90 $(value p90_ms) ms, p99 $(value p99_ms) ms, p99.9 $(value p99.9_ms) ms, max $(value max_ms) ms"
echo "socket errors $(value socket_errors) ($(value errors_detail))"
echo "5xx           $(value server_errors)"
awk '$1 == "LOAD" && $2 ~ /^status_/ {sub("status_", "", $2); printf "status %s     %s %s\n", $2, $3, $4}' "$work/wrk.txt" | sort
echo "rss           boot $rss_boot KiB, start $rss_start KiB, end $rss_end KiB"

[ "$(value socket_errors)" = 0 ] || fail "socket errors"
[ "$(value server_errors)" = 0 ] || fail "5xx responses"
# Every response had the status its request expects: no status came back more
# often than it was sent (a wrong status would show as an excess of another),
# and all came back but the requests still in flight when wrk stopped: one per
# connection, plus one per thread as slack (both 10-minute soaks ended exactly
# 33 short, with 32 connections and one thread).
missing=0
while read -r status sent got; do
    [ "$got" -le "$sent" ] || fail "status $status: sent $sent, got $got"
    missing=$((missing + sent - got))
done < <(awk '$1 == "LOAD" && $2 ~ /^status_/ {sub("status_", "", $2); sub("sent=", "", $3); sub("got=", "", $4); print $2, $3, $4}' "$work/wrk.txt")
[ "$missing" -le $((CONNECTIONS + THREADS)) ] \
    || fail "$missing responses missing, more than the $((CONNECTIONS + THREADS)) that can be in flight"
kill -0 "$server" 2>/dev/null || fail "the server died"
if grep '"level":"ERROR"' "$work/server.log" | grep -q '"target":"gin_referee'; then
    fail "the service logged errors:"
    grep '"level":"ERROR"' "$work/server.log" | grep '"target":"gin_referee' | head -5 >&2
fi

if [ -s "$work/rss.txt" ]; then
    echo "rss samples   $(awk '{printf "%s:%s ", $1, $2}' "$work/rss.txt")"
    if [ -n "$RSS_GROWTH_LIMIT_KIB" ]; then
        # Baseline: the first sample at or after 60 s (allocator warm-up).
        baseline=$(awk '$1 >= 60 {print $2; exit}' "$work/rss.txt")
        last=$(tail -1 "$work/rss.txt" | cut -d' ' -f2)
        if [ -n "$baseline" ]; then
            growth=$((last - baseline))
            echo "rss growth    $growth KiB from $baseline KiB (60 s) to $last KiB (end); limit $RSS_GROWTH_LIMIT_KIB KiB"
            [ "$growth" -le "$RSS_GROWTH_LIMIT_KIB" ] || fail "RSS grew by $growth KiB"
        else
            fail "the run was too short for a baseline RSS sample at 60 s"
        fi
    fi
fi

if [ "$failed" = 0 ]; then echo "PASS"; else echo "FAILED"; exit 1; fi
