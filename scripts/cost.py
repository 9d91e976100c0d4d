#!/usr/bin/env python3
"""What an attack on the HTTP edge costs the service: for each attack below, what
the client sees (status, answer size, whether and when the connection closes)
and what the server pays (CPU time, peak resident memory, log lines at ERROR,
whether /healthz still answers).

    scripts/cost.py [BINARY] [ATTACK ...]   # default target/release/gin-referee

Each attack gets a fresh server with the default limits and two workers, as
deployed (the amplification requests: one worker and a fresh server each) (one request's cost is then spread over two threads, but the figures
are per process). Before the attack the script reads the server's resident set
and CPU time (/proc/PID/status, /proc/PID/stat) and resets its peak
(/proc/PID/clear_refs); afterwards it reads the peak (VmHWM) and CPU time
again. "+peak" is the peak minus the resident set before. Run as a user that
may write /proc/PID/clear_refs of its own children (any user can).

Attacks run one after another; the slow ones (stalled connections) wait at
most STALL_WAIT seconds (default 20) for the server to close them.
"""
import gzip
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import threading
import time
import zlib

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/gin-referee"
ONLY = set(sys.argv[2:])
STALL_WAIT = float(os.environ.get("STALL_WAIT", "20"))
TICKS = os.sysconf("SC_CLK_TCK")
HAND = b'{"hand":["7S","7H","7D","3C","4C","5C","6C","KH","QD","2S"]}'
BODY_LIMIT = 64 * 1024
RANKS = "A23456789TJQK"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The binary on a free port, two workers, its log lines counted by level."""

    def __init__(self, open_files=None, workers=2):
        self.port = free_port()
        command = [BINARY, "--listen", f"127.0.0.1:{self.port}", "--workers", str(workers)]
        if open_files:
            command = ["sh", "-c", f'ulimit -n {open_files} && exec "$0" "$@"', *command]
        self.process = subprocess.Popen(
            command,
            env={k: v for k, v in os.environ.items() if not k.startswith("GIN_REFEREE_")
                 and k != "RUST_LOG"},
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.errors = 0
        self.warnings = 0
        self.lines = 0
        threading.Thread(target=self._count_logs, daemon=True).start()
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        # Warm up: the first request allocates what every later one reuses.
        request(self.port, "POST", "/v1/hands/analyze", HAND)

    def _count_logs(self):
        for line in self.process.stdout:
            self.lines += 1
            if b'"level":"ERROR"' in line:
                self.errors += 1
            elif b'"level":"WARN"' in line:
                self.warnings += 1

    def status_kib(self, field):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
        raise KeyError(field)

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def start_measuring(self):
        self.rss_before = self.status_kib("VmRSS")
        with open(f"/proc/{self.process.pid}/clear_refs", "w") as f:
            f.write("5")
        self.cpu_before = self.cpu_seconds()
        self.errors_before = self.errors

    def measured(self):
        return {
            "cpu_ms": (self.cpu_seconds() - self.cpu_before) * 1000,
            "peak_mib": (self.status_kib("VmHWM") - self.rss_before) / 1024,
            "error_lines": self.errors - self.errors_before,
        }

    def metrics(self):
        return request(self.port, "GET", "/metrics")[2].decode(errors="replace")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def read_response(sock):
    """Reads one Content-Length-framed response; returns (status, head, body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None, data, b""
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(head.split()[1]), head.decode(errors="replace"), body


def request(port, method, path, body=b"", headers=(), timeout=30):
    head = f"{method} {path} HTTP/1.1\r\nHost: cost\r\nConnection: close\r\n"
    if body or method == "POST":
        head += f"Content-Length: {len(body)}\r\n"
    for name, value in headers:
        head += f"{name}: {value}\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        try:
            sock.sendall(head.encode() + b"\r\n" + body)
        except OSError:
            pass
        return read_response(sock)


def raw(port, data, timeout=10):
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        try:
            sock.sendall(data)
        except OSError:
            pass
        try:
            return read_response(sock)
        except OSError:
            return None, "", b""


def healthz_ms(port, timeout=5):
    started = time.monotonic()
    try:
        status, _, _ = request(port, "GET", "/healthz", timeout=timeout)
    except OSError:
        return None
    return (time.monotonic() - started) * 1000 if status == 200 else None


def closed_within(sock, seconds):
    """Seconds until the server closes `sock` (EOF or reset), or None."""
    started = time.monotonic()
    sock.settimeout(0.2)
    while time.monotonic() - started < seconds:
        try:
            if not sock.recv(65536):
                return time.monotonic() - started
        except socket.timeout:
            continue
        except OSError:
            return time.monotonic() - started
    return None


def row(name, **figures):
    cells = [f"{name:44}"]
    for key, value in figures.items():
        if isinstance(value, float):
            value = f"{value:.1f}"
        cells.append(f"{key}={value}")
    print("  ".join(cells), flush=True)


def bomb(inflated):
    return gzip.compress(b" " * inflated, 9)


def attack_gzip_bomb():
    body = bomb(63 * 1024 * 1024)
    server = Server()
    try:
        server.start_measuring()
        status, head, answer = request(server.port, "POST", "/v1/hands/analyze", body,
                                       [("Content-Encoding", "gzip"),
                                        ("Content-Type", "application/json")])
        row("gzip bomb, 63 MiB in %d bytes" % len(body), status=status,
            answer=len(answer), **server.measured())
    finally:
        server.stop()


def attack_gzip_bombs_at_once(count):
    body = bomb(63 * 1024 * 1024)
    server = Server()
    try:
        server.start_measuring()
        latencies = []
        statuses = []
        done = threading.Event()

        def probe():
            while not done.is_set():
                ms = healthz_ms(server.port, timeout=10)
                latencies.append(ms if ms is not None else 10_000)
                time.sleep(0.02)

        def one():
            try:
                statuses.append(request(server.port, "POST", "/v1/hands/analyze", body,
                                        [("Content-Encoding", "gzip")], timeout=60)[0])
            except OSError as err:
                statuses.append(type(err).__name__)

        prober = threading.Thread(target=probe)
        prober.start()
        threads = [threading.Thread(target=one) for _ in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        done.set()
        prober.join()
        summary = {s: statuses.count(s) for s in set(statuses)}
        row(f"{count} gzip bombs at once", statuses=summary,
            healthz_median_ms=statistics.median(latencies) if latencies else None,
            **server.measured())
    finally:
        server.stop()


def attack_chunked_gzip_bomb():
    # 1 MiB of gzip sent chunked: no Content-Length to refuse it early.
    body = bomb(1024 * 1024 * 1024)[: 1024 * 1024]
    server = Server()
    try:
        server.start_measuring()
        head = ("POST /v1/hands/analyze HTTP/1.1\r\nHost: cost\r\nConnection: close\r\n"
                "Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n").encode()
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
            sock.sendall(head)
            try:
                for start in range(0, len(body), 131072):
                    piece = body[start:start + 131072]
                    sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
                sock.sendall(b"0\r\n\r\n")
            except OSError:
                pass
            status, _, answer = read_response(sock)
        row("chunked gzip bomb, 1 MiB of gzip in 128 KiB chunks", status=status, answer=len(answer),
            **server.measured())
    finally:
        server.stop()


def attack_stalled_chunked_body():
    server = Server()
    try:
        head = ("POST /v1/hands/analyze HTTP/1.1\r\nHost: cost\r\n"
                "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n")
        sock = socket.create_connection(("127.0.0.1", server.port))
        started = time.monotonic()
        sock.sendall(head.encode())
        sock.settimeout(STALL_WAIT)
        status, response_head, _ = read_response(sock)
        answered = time.monotonic() - started
        closed = closed_within(sock, STALL_WAIT)
        row("stalled chunked body", status=status, answered_s=answered,
            connection_close="connection: close" in response_head.lower(),
            closed_after_s=None if closed is None else answered + closed)
        sock.close()
    finally:
        server.stop()


def attack_dribbled_second_head():
    server = Server()
    try:
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: cost\r\n\r\n")
        status, _, _ = read_response(sock)
        started = time.monotonic()
        closed_at = None
        for byte in b"GET /healthz HTTP/1.1\r\nHost: cost\r\nX-Dribble: " + b"a" * 10_000:
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                closed_at = time.monotonic() - started
                break
            sock.settimeout(0.5)
            try:
                if not sock.recv(65536):
                    closed_at = time.monotonic() - started
                    break
            except socket.timeout:
                pass
            except OSError:
                closed_at = time.monotonic() - started
                break
            if time.monotonic() - started > STALL_WAIT:
                break
        row("dribbled second request head", first=status, closed_after_s=closed_at)
        sock.close()
    finally:
        server.stop()


def attack_stalled_connections(count=1100, open_files=1024):
    server = Server(open_files=open_files)
    try:
        server.start_measuring()
        head = ("POST /v1/hands/analyze HTTP/1.1\r\nHost: cost\r\n"
                "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n")
        socks = []
        started = time.monotonic()
        for _ in range(count):
            try:
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=2)
                sock.sendall(head.encode())
                socks.append(sock)
            except OSError:
                break
        opened_s = time.monotonic() - started
        first = healthz_ms(server.port, timeout=20)
        time.sleep(8)  # past the 5 s body timeout and the 1 s linger of the last ones
        later = [healthz_ms(server.port, timeout=5) for _ in range(5)]
        still_open = 0
        for sock in socks:
            sock.settimeout(0)
            try:
                while True:
                    if not sock.recv(65536):
                        break
            except BlockingIOError:
                still_open += 1
            except OSError:
                pass
        row(f"{count} stalled chunked bodies, ulimit -n {open_files}", opened=len(socks),
            opened_in_s=opened_s, healthz_after_ms=first,
            healthz_ok_8s_later=sum(a is not None for a in later),
            still_open=still_open, **server.measured())
        for sock in socks:
            sock.close()
    finally:
        server.stop()


def attack_numbers():
    server = Server()
    try:
        for number in ["1e-400", "0.5", "1e400", "5.0"]:
            body = ('{"players":["Ann","Bob"],"hands":[{"knocker":"Ann",'
                    '"knocker_deadwood":%s,"defender_deadwood":30}]}' % number)
            status, _, answer = request(server.port, "POST", "/v1/matches/score", body.encode())
            row(f"knocker_deadwood: {number}", status=status, answer=answer[:90].decode())
    finally:
        server.stop()


def attack_encodings():
    server = Server()
    try:
        for encoding, body in [("br", HAND), ("gzip, gzip", gzip.compress(gzip.compress(HAND))),
                               ("deflate", zlib.compress(HAND)), ("gzip", gzip.compress(HAND)),
                               ("identity", HAND)]:
            status, _, answer = request(server.port, "POST", "/v1/hands/analyze", body,
                                        [("Content-Encoding", encoding)])
            row(f"Content-Encoding: {encoding}", status=status, answer=answer[:80].decode())
    finally:
        server.stop()


def attack_malformed_heads():
    server = Server()
    try:
        server.start_measuring()
        many = "".join(f"X-H{i}: v\r\n" for i in range(200))
        cases = {
            "CL+TE": "POST /v1/hands/analyze HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                     "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "two lengths": "POST /v1/hands/analyze HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                           "Content-Length: 6\r\n\r\n{}{}{}",
            "garbage line": "GARBAGE\r\n\r\n",
            "200 headers": f"GET /healthz HTTP/1.1\r\nHost: x\r\n{many}\r\n",
            "200 KB path": "GET /%s HTTP/1.1\r\nHost: x\r\n\r\n" % ("a" * 200_000),
        }
        for name, data in cases.items():
            status, head, body = raw(server.port, data.encode())
            problem = "problem+json" in head.lower()
            row(f"malformed head: {name}", status=status, body_bytes=len(body),
                problem_json=problem)
        time.sleep(0.5)
        counted = [line for line in server.metrics().splitlines()
                   if line.startswith("http_malformed_requests_total")]
        row("malformed heads: 5 sent", counted=counted or "not counted", **server.measured())
    finally:
        server.stop()


def attack_nosniff():
    server = Server()
    try:
        for method, path in [("GET", "/healthz"), ("GET", "/nope"), ("GET", "/metrics"),
                             ("GET", "/docs/"), ("POST", "/v1/hands/analyze")]:
            status, head, _ = request(server.port, method, path, b"{" if method == "POST" else b"")
            row(f"nosniff on {method} {path}", status=status,
                nosniff="x-content-type-options: nosniff" in head.lower())
    finally:
        server.stop()


def fill(prefix, item, suffix, limit=BODY_LIMIT - 64):
    """prefix + item, item, ... + suffix, as many items as fit under `limit`."""
    count = max(0, (limit - len(prefix) - len(suffix)) // (len(item) + 1))
    return (prefix + ",".join([item] * count) + suffix).encode()


def amplification_requests():
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


def attack_amplification():
    """Answer amplification: each request to a fresh one-worker server (so one
    request's cost is not spread over threads), its answer against its size."""
    for name, path, body in amplification_requests():
        server = Server(workers=1)
        try:
            server.start_measuring()
            status, _, answer = request(server.port, "POST", path, body)
            figures = server.measured()
        finally:
            server.stop()
        row(name, bytes=len(body), status=status, answer=len(answer),
            ratio=len(answer) / len(body), cpu_ms=figures["cpu_ms"],
            peak_mib=figures["peak_mib"])


ATTACKS = {
    "amplification": attack_amplification,
    "gzip-bomb": attack_gzip_bomb,
    "gzip-bombs-32": lambda: attack_gzip_bombs_at_once(32),
    "gzip-bombs-96": lambda: attack_gzip_bombs_at_once(96),
    "chunked-gzip-bomb": attack_chunked_gzip_bomb,
    "stalled-chunked": attack_stalled_chunked_body,
    "dribbled-second-head": attack_dribbled_second_head,
    "stalled-connections": attack_stalled_connections,
    "numbers": attack_numbers,
    "encodings": attack_encodings,
    "malformed-heads": attack_malformed_heads,
    "nosniff": attack_nosniff,
}


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4096 <= hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (4096, hard))
    print(f"binary: {BINARY}")
    for name, attack in ATTACKS.items():
        if not ONLY or name in ONLY:
            attack()


if __name__ == "__main__":
    main()
