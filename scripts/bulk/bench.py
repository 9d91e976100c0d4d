#!/usr/bin/env python3
"""Bulk for every client, measured (issue 26; BENCHMARKS.md has the figures).

    scripts/bulk/bench.py [BINARY] [--lines N] [--requests N] [--rounds R] [--no-half]

Starts BINARY (default target/release/gin-referee) with one worker, pinned to
CPU 0 when taskset exists (this client then runs on CPU 1), and in each round
measures, from the server's own CPU time (utime + stime in /proc/PID/stat):

- single: REQUESTS single POST /v1/hands/analyze requests on 32 keep-alive
  connections: server CPU per request;
- full duplex: one batch of LINES hands from a client that reads while it
  sends (as Node's fetch and Java's HttpClient do): server CPU per line;
- half duplex: the same batch from a client that sends everything before it
  reads (Python's urllib, scripts/bulk/send_first.py): server CPU per line,
  wall time, and the server's peak resident set (VmHWM, reset first), which
  must stay under 96 MiB (the script fails otherwise);

then the ratio single / full-duplex per line (the issue asks >= 15) and the
cost of the half-duplex path against the full-duplex one. The median of the
rounds is printed with every round's figures. Standard library only.
"""
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import send_first  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def arg(name, default):
    if name in sys.argv:
        return int(sys.argv[sys.argv.index(name) + 1])
    return default


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def start(binary, port):
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIN_REFEREE_")}
    server = subprocess.Popen(
        pin + [binary, "--listen", f"127.0.0.1:{port}", "--workers", "1", "--log-level", "warn"],
        env=env,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port)).close()
            break
        except OSError:
            time.sleep(0.05)
    if pin:
        os.sched_setaffinity(0, {1})
    return server


async def singles(port, requests, connections=32):
    rng = random.Random(4)
    bodies = []
    for _ in range(1000):
        body = json.dumps({"hand": rng.sample(send_first.DECK, 10)}).encode()
        bodies.append(
            b"POST /v1/hands/analyze HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
            + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )
    per = requests // connections

    async def one(index):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for n in range(per):
            writer.write(bodies[(index * per + n) % len(bodies)])
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            await reader.readexactly(length)
        writer.close()

    await asyncio.gather(*(one(i) for i in range(connections)))
    return per * connections


def full_duplex(port, data):
    """Sends `data` from one thread while this one reads the answer; returns
    the number of answer lines."""
    sock = socket.create_connection(("127.0.0.1", port))
    head = (
        "POST /v1/hands/analyze/batch HTTP/1.1\r\nHost: bench\r\n"
        f"Content-Type: application/x-ndjson\r\nContent-Length: {len(data)}\r\n\r\n"
    ).encode()

    def send():
        sock.sendall(head)
        view = memoryview(data)
        for at in range(0, len(data), 1 << 20):
            sock.sendall(view[at : at + (1 << 20)])

    writer = threading.Thread(target=send)
    writer.start()
    buffer = b""
    while b"\r\n\r\n" not in buffer:
        buffer += sock.recv(1 << 16)
    buffer = buffer.split(b"\r\n\r\n", 1)[1]
    lines = 0
    while True:
        while b"\r\n" not in buffer:
            buffer += sock.recv(1 << 20)
        size, buffer = buffer.split(b"\r\n", 1)
        size = int(size, 16)
        if size == 0:
            break
        while len(buffer) < size + 2:
            buffer += sock.recv(1 << 20)
        lines += buffer[:size].count(b"\n")
        buffer = buffer[size + 2 :]
    writer.join()
    sock.close()
    return lines


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--") and not a.isdigit()]
    binary = args[0] if args else "target/release/gin-referee"
    lines, requests, rounds = arg("--lines", 1_000_000), arg("--requests", 100_000), arg("--rounds", 3)
    port = free_port()
    server = start(binary, port)
    pid = server.pid
    data = send_first.body(lines)
    url = f"http://127.0.0.1:{port}"
    results = []
    try:
        asyncio.run(singles(port, 2000))  # warm up
        for _ in range(rounds):
            before = cpu(pid)
            sent = asyncio.run(singles(port, requests))
            single = (cpu(pid) - before) / sent * 1e6
            before, started = cpu(pid), time.monotonic()
            answered = full_duplex(port, data)
            full_wall = time.monotonic() - started
            assert answered == lines, f"full duplex: {answered} answers to {lines} lines"
            full = (cpu(pid) - before) / lines * 1e6
            if "--no-half" in sys.argv:  # a server without a spool resets it
                results.append(dict(single_us=round(single, 2), full_us_per_line=round(full, 3),
                                    full_wall_s=round(full_wall, 2), ratio=round(single / full, 1)))
                print(json.dumps(results[-1]), flush=True)
                continue
            half = json.loads(
                subprocess.run(
                    [sys.executable, os.path.join(HERE, "send_first.py"), url, str(lines),
                     "--pid", str(pid), "--json"],
                    check=True, capture_output=True, text=True,
                ).stdout
            )
            results.append(
                dict(
                    single_us=round(single, 2),
                    full_us_per_line=round(full, 3),
                    full_wall_s=round(full_wall, 2),
                    ratio=round(single / full, 1),
                    half_us_per_line=half["server_cpu_us_per_line"],
                    half_wall_s=half["wall_s"],
                    half_lines_per_s=half["lines_per_s"],
                    half_peak_rss_mib=round(half["server_peak_rss_kib"] / 1024, 1),
                    half_vs_full=round(half["server_cpu_us_per_line"] / full, 3),
                )
            )
            print(json.dumps(results[-1]), flush=True)
            # The bound on the server while a client sends first.
            assert half["server_peak_rss_kib"] < 96 * 1024, f"peak RSS {half['server_peak_rss_kib']} KiB"
    finally:
        server.terminate()
        server.wait()
    print("median:", json.dumps({k: statistics.median(r[k] for r in results) for k in results[0]}))


if __name__ == "__main__":
    main()
