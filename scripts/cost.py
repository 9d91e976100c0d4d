#!/usr/bin/env python3
"""What one request can cost the service: for each hostile request below, the
answer's status and size, its ratio to the request's size, and the server's CPU
time and peak resident memory while answering it.

    scripts/cost.py [BINARY]        # default target/release/gin-referee

Each request gets a fresh server with one worker (so one request's cost is not
spread over threads, nor hidden by memory an earlier one left behind) and the
default limits. Before the request the script reads the server's resident set
and CPU time (/proc/PID/status, /proc/PID/stat); after the answer it reads its
peak resident set (VmHWM) and CPU time again. "+peak" is the peak minus the
resident set before. Each request is sent REPEAT times (default 3), each to its
own server, and the largest figures are kept.
"""
import json
import os
import socket
import subprocess
import sys
import time

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/gin-referee"
REPEAT = int(os.environ.get("REPEAT", "3"))
BODY_LIMIT = 64 * 1024
TICKS = os.sysconf("SC_CLK_TCK")

RANKS = "A23456789TJQK"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def post(port, path, body, headers=()):
    """Sends one request on a fresh connection; returns (status, answer bytes)."""
    head = f"POST {path} HTTP/1.1\r\nHost: cost\r\nContent-Type: application/json\r\n"
    head += f"Content-Length: {len(body)}\r\nConnection: close\r\n"
    for name, value in headers:
        head += f"{name}: {value}\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(head.encode() + b"\r\n" + body)
        data = b""
        while chunk := sock.recv(1 << 20):
            data += chunk
    header, _, payload = data.partition(b"\r\n\r\n")
    status = int(header.split()[1])
    if b"transfer-encoding: chunked" in header.lower():
        payload = dechunk(payload)
    return status, payload


def dechunk(data):
    out = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out += data[:size]
        data = data[size + 2 :]
    return out


def fill(prefix, item, suffix, limit=BODY_LIMIT - 64):
    """prefix + item, item, ... + suffix, as many items as fit under `limit`."""
    count = max(0, (limit - len(prefix) - len(suffix)) // (len(item) + 1))
    return (prefix + ",".join([item] * count) + suffix).encode()


def attacks():
    long_name = "x" * 16000
    players = json.dumps([long_name, long_name + "y"])
    yield "matches/score: 16,000-char names, void hands, standard", "/v1/matches/score", fill(
        f'{{"players":{players},"hands":[', '{"void":true}', "]}"
    )
    yield "matches/score: 16,000-char names, void hands, hollywood", "/v1/matches/score", fill(
        f'{{"profile":"hollywood","players":{players},"hands":[', '{"void":true}', "]}"
    )
    yield "matches/score: short names, void hands, hollywood", "/v1/matches/score", fill(
        '{"profile":"hollywood","players":["a","b"],"hands":[', '{"void":true}', "]}"
    )
    # At the default ceilings: 500 hands, names of 40 four-byte characters.
    wide = ["\U0001D11E" * 40, "\U0001D11F" * 40]
    wide_players = json.dumps(wide, ensure_ascii=False)
    yield "matches/score: 500 void hands, widest names, hollywood", "/v1/matches/score", (
        f'{{"profile":"hollywood","players":{wide_players},"hands":['
        + ",".join(['{"void":true}'] * 500) + "]}"
    ).encode()
    yield "melds/validate: one-card melds", "/v1/melds/validate", fill(
        '{"melds":[', '["AS"]', "]}"
    )
    yield "melds/validate: the same meld repeated", "/v1/melds/validate", fill(
        '{"melds":[', '["AS","2S","3S"]', "]}"
    )
    yield "melds/validate: repeated melds with a hand", "/v1/melds/validate", fill(
        '{"hand":["AS","2S","3S","4S","5S","6S","7S","8S","9S","TS"],"melds":[',
        '["AS","2S","3S"]',
        "]}",
    )
    yield "melds/validate: 64 one-card melds (the ceiling)", "/v1/melds/validate", (
        '{"melds":[' + ",".join(['["AS"]'] * 64) + "]}"
    ).encode()
    yield "melds/validate: 64 whole decks (the ceilings)", "/v1/melds/validate", json.dumps(
        {"melds": [DECK] * 64}
    ).encode()
    yield "melds/validate: a 52-card meld", "/v1/melds/validate", json.dumps(
        {"melds": [DECK]}
    ).encode()
    eleven = ["AS", "2S", "3S", "AH", "2H", "3H", "AD", "2D", "3D", "AC", "2C"]
    yield "hands/analyze: 11 low cards, all arrangements", "/v1/hands/analyze", json.dumps(
        {"hand": eleven, "all_arrangements": True}
    ).encode()
    yield "hands/audit: many passes", "/v1/hands/audit", fill(
        '{"deal":{"dealer":["AS","2S","3S","4S","5S","6S","7S","8S","9S","TS"],'
        '"non_dealer":["AH","2H","3H","4H","5H","6H","7H","8H","9H","TH"],"upcard":"JS",'
        '"stock":["QS","KS","JH","QH","KH","AD","2D","3D","4D","5D","6D","7D","8D","9D",'
        '"TD","JD","QD","KD","AC","2C","3C","4C","5C","6C","7C","8C","9C","TC","JC","QC","KC"]},'
        '"actions":[',
        '{"action":"pass","player":"non_dealer"}',
        "]}",
    )


def measure(path, body):
    """Starts a server, warms it with one small request, sends `body` once;
    returns (status, answer size, CPU seconds, +peak KiB, RSS after KiB)."""
    port = free_port()
    server = subprocess.Popen(
        [BINARY, "--listen", f"127.0.0.1:{port}", "--workers", "1"],
        env=dict(os.environ, RUST_LOG="warn"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        post(port, "/v1/hands/analyze", b'{"hand":["AS","2S","3S","4S","5S","6S","7S","8S","9S","TS"]}')
        rss_before = status_kib(server.pid, "VmRSS")
        with open(f"/proc/{server.pid}/clear_refs", "w") as f:
            f.write("5")
        cpu_before = cpu_seconds(server.pid)
        status, answer = post(port, path, body)
        cpu = cpu_seconds(server.pid) - cpu_before
        peak = status_kib(server.pid, "VmHWM") - rss_before
        return status, len(answer), cpu, peak, status_kib(server.pid, "VmRSS")
    finally:
        server.terminate()
        server.wait()


def main():
    print(f"{'request':58} {'bytes':>7} {'status':>6} {'answer':>11} {'ratio':>8} "
          f"{'cpu ms':>7} {'+peak MiB':>9} {'RSS after':>9}")
    for name, path, body in attacks():
        runs = [measure(path, body) for _ in range(REPEAT)]
        status, size, cpu, peak, after = (max(column) for column in zip(*runs))
        print(f"{name:58} {len(body):7} {status:6} {size:11,} {size / len(body):7.1f}x "
              f"{cpu * 1000:7.0f} {peak / 1024:9.1f} {after / 1024:8.1f}M")


if __name__ == "__main__":
    main()
