#!/usr/bin/env python3
"""A batch from a client that sends its whole body before it reads the answer,
as Python's urllib does (issue 26): posts LINES random ten-card hands to
/v1/hands/analyze/batch with urllib, then reads and checks every answer.

    scripts/bulk/send_first.py URL LINES [--pid PID] [--json]

- every answer line is read, numbered 1..LINES in order, each a `result`
  (the hands are valid), and none is a `problem`;
- with --pid, the server's CPU time (utime + stime from /proc/PID/stat) and
  peak resident set (VmHWM, reset first through /proc/PID/clear_refs) over the
  batch are printed too;
- with --json, one JSON object with the figures is printed instead of text.

Exit code 0 when every answer came back, 1 otherwise. Standard library only.
"""
import json
import os
import random
import sys
import time
import urllib.request

TICKS = os.sysconf("SC_CLK_TCK")
DECK = [r + s for s in "SHDC" for r in "A23456789TJQK"]


def body(lines, seed=26):
    rng = random.Random(seed)
    parts = []
    for _ in range(lines):
        parts.append('{"hand": ["' + '","'.join(rng.sample(DECK, 10)) + '"]}\n')
    return "".join(parts).encode()


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    url, lines = args[0].rstrip("/"), int(args[1])
    pid = None
    if "--pid" in sys.argv:
        pid = int(sys.argv[sys.argv.index("--pid") + 1])
        args = [a for a in args if a != str(pid)]
    data = body(lines)
    request = urllib.request.Request(
        url + "/v1/hands/analyze/batch",
        data=data,
        headers={"Content-Type": "application/x-ndjson"},
        method="POST",
    )
    if pid:
        rss_before = status_kib(pid, "VmRSS")
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        cpu_before = cpu_seconds(pid)
    started = time.monotonic()
    answered, problems, expected, faults = 0, 0, 1, []
    with urllib.request.urlopen(request, timeout=600) as response:
        if response.status != 200:
            faults.append(f"status {response.status}")
        for raw in response:
            answer = json.loads(raw)
            if answer.get("line") != expected:
                faults.append(f"answer {answered + 1} is {raw[:200]!r}, expected line {expected}")
                break
            if "result" not in answer:
                problems += 1
            answered += 1
            expected += 1
    wall = time.monotonic() - started
    figures = {
        "lines": lines,
        "body_bytes": len(data),
        "answered": answered,
        "problems": problems,
        "wall_s": round(wall, 3),
        "lines_per_s": round(answered / wall) if wall else None,
    }
    if pid:
        cpu = cpu_seconds(pid) - cpu_before
        figures.update(
            server_cpu_s=round(cpu, 3),
            server_cpu_us_per_line=round(cpu / max(answered, 1) * 1e6, 3),
            server_rss_before_kib=rss_before,
            server_peak_rss_kib=status_kib(pid, "VmHWM"),
        )
    if answered != lines:
        faults.append(f"{answered} answers to {lines} lines")
    if problems:
        faults.append(f"{problems} problems")
    if "--json" in sys.argv:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    for fault in faults:
        print("FAIL " + fault, file=sys.stderr)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
