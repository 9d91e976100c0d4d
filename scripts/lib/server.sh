# Helpers for the scripts that start the service on loopback; source it.

# A TCP port free on 127.0.0.1 right now.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits until GET <base url>/readyz answers 2xx, for up to $2 seconds (default
# 10); fails with a message if it never does.
wait_ready() {
    local url=$1 tries=$(( ${2:-10} * 10 ))
    for _ in $(seq 1 "$tries"); do
        curl -fsS "$url/readyz" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "the service at $url was not ready within ${2:-10} s" >&2
    return 1
}

# Starts $BINARY (built in debug when missing) on a free loopback port, its log
# in a temporary file, stopped and cleaned up when the script exits; waits for
# it to be ready. Sets `service_url`, `service_pid` and `service_log`. With
# `make_api_key` called first, the service requires that key.
start_service() {
    [ -x "$BINARY" ] || cargo build --locked --quiet
    local port
    port=$(free_port)
    service_url="http://127.0.0.1:$port"
    service_log=$(mktemp)
    local keys=()
    [ -n "${api_keys_file:-}" ] && keys=("GIN_REFEREE_API_KEYS=$api_keys_file")
    GIN_REFEREE_LISTEN="127.0.0.1:$port" GIN_REFEREE_LOG_LEVEL=warn \
        env "${keys[@]}" "$BINARY" >"$service_log" 2>&1 &
    service_pid=$!
    trap 'kill "$service_pid" 2>/dev/null || true; rm -f "$service_log"' EXIT
    wait_ready "$service_url"
}

# Makes an API key with every operation and `sign` (gin-referee keys new), and
# a keys file holding it for start_service. Sets `api_key` and
# `api_keys_file` (in $1, a directory that outlives the service).
make_api_key() {
    [ -x "$BINARY" ] || cargo build --locked --quiet
    local made
    made=$("$BINARY" keys new --id "${2:-ci}" --scope '*' --scope sign 2>/dev/null)
    api_key=$(sed -n 1p <<<"$made")
    api_keys_file="$1/api-keys.json"
    printf '[%s]\n' "$(sed -n 2p <<<"$made")" > "$api_keys_file"
}
