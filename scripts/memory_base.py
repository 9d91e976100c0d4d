#!/usr/bin/env python3
"""Measures the process's memory base: what it holds outside the memory budget.

    scripts/memory_base.py [BINARY] [--workers N] [--connections N]
        [--budget BYTES] [--batches N] [--batch-items N]
        [--client socket|urllib|requests]

Starts BINARY (default target/release/gin-referee) with a 1 GiB budget, so
that nothing waits (or --budget), and reports, from /proc/PID/status:

1. the resident memory once warm (a few hundred requests): the fixed base;
2. with CONNECTIONS connections each holding half of a 64 KiB body: the
   memory per connection beyond the bodies' reservations (64 KiB each, the
   budget's share);
3. after a burst of BATCHES JSON-array batches (32 of 10,000 hands, 620 KB,
   by default) sent at once, each answered or refused: the peak, and what
   the allocator keeps once every request is gone (a refused client sends
   its whole batch before it reads, as Python's requests does: one whose
   connection was reset is counted as "reset").

The allocator's environment (MALLOC_ARENA_MAX, MIMALLOC_PURGE_DELAY, ...)
is passed on to the server.

docs/DEPLOY.md, "Sizing memory", has the figures.
"""

import argparse
import collections
import socket
import subprocess
import threading
import time

HAND = b'{"hand": ["7S","7H","7D","3C","4C","5C","6C","KH","QD","2S"]}'


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def request(port, path, body, content_type="application/json"):
    with socket.create_connection(("127.0.0.1", port)) as sock:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: m\r\nConnection: close\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        sock.sendall(head.encode() + body)
        answer = b""
        while chunk := sock.recv(1 << 16):
            answer += chunk
    return int(answer[9:12])


def request_with(client, port, path, body, items):
    """The batch sent by a user's library, which sends the whole body before
    it reads: the status ("... incomplete" unless a 200 holds an answer for
    every item and a 503 is `overloaded`), or raises OSError (urllib's
    URLError included) when the connection was reset."""
    url = f"http://127.0.0.1:{port}{path}"
    headers = {"Content-Type": "application/json"}
    if client == "requests":
        import requests  # only for --client requests
        try:
            answer = requests.post(url, data=body, headers=headers, timeout=600)
        except requests.exceptions.ConnectionError as error:
            raise OSError(error) from error
        status, text = answer.status_code, answer.content
    else:
        import urllib.error
        import urllib.request
        try:
            with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers),
                                        timeout=600) as answer:
                status, text = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
    whole = {200: text.count(b'{"line":') == items and text.rstrip().endswith(b"]"),
             503: b'"code":"overloaded"' in text}.get(status, True)
    return status if whole else f"{status} incomplete"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default="target/release/gin-referee")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--budget", type=int, default=1 << 30)
    parser.add_argument("--batches", type=int, default=32)
    parser.add_argument("--batch-items", type=int, default=10000)
    parser.add_argument("--client", choices=["socket", "urllib", "requests"], default="socket",
                        help="what sends the batches (all send the whole body before reading)")
    args = parser.parse_args()
    server = subprocess.Popen(
        [args.binary, "--listen", "127.0.0.1:0", "--workers", str(args.workers),
         "--memory-budget", str(args.budget), "--log-format", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = None
        for line in server.stdout:
            if '"gin-referee listening"' in line:
                port = int(line.split('"addr":"')[1].split('"')[0].rsplit(":", 1)[1])
                break
        threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
        for _ in range(300):
            assert request(port, "/v1/hands/analyze", HAND) == 200
        warm = status_kib(server.pid, "VmRSS")
        print(f"workers {args.workers}: warm and idle {warm} KiB")

        whole = HAND + b" " * (65536 - len(HAND))
        head = (
            "POST /v1/hands/analyze HTTP/1.1\r\nHost: m\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(whole)}\r\n\r\n"
        ).encode()
        held = []
        for _ in range(args.connections):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(head + whole[:32768])
            held.append(sock)
        time.sleep(2)
        holding = status_kib(server.pid, "VmRSS")
        per_connection = (holding - warm) / args.connections - 64
        print(f"{args.connections} connections holding half a 64 KiB body: {holding} KiB, "
              f"{per_connection:.1f} KiB a connection beyond its 64 KiB reservation")
        for sock in held:
            sock.sendall(whole[32768:])
        for sock in held:
            while sock.recv(1 << 16):
                pass
            sock.close()
        time.sleep(1)
        print(f"after the connections closed: RSS {status_kib(server.pid, 'VmRSS')} KiB")

        batch = b"[" + b",".join([HAND] * args.batch_items) + b"]"
        statuses = []

        def send_batch():
            try:
                path = "/v1/hands/analyze/batch"
                statuses.append(request(port, path, batch) if args.client == "socket"
                                else request_with(args.client, port, path, batch,
                                                  args.batch_items))
            except OSError:
                statuses.append("reset")

        burst = [threading.Thread(target=send_batch) for _ in range(args.batches)]
        with open(f"/proc/{server.pid}/clear_refs", "w") as clear:
            clear.write("5")
        for thread in burst:
            thread.start()
        for thread in burst:
            thread.join()
        time.sleep(1)
        outcomes = ", ".join(f"{n} x {status}" for status, n in sorted(
            collections.Counter(map(str, statuses)).items()))
        print(f"{args.batches} JSON batches of {len(batch)} bytes at once: {outcomes}; peak {status_kib(server.pid, 'VmHWM')} KiB, "
              f"RSS after {status_kib(server.pid, 'VmRSS')} KiB")
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
