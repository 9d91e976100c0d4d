"""A client that sends its whole body before it reads, as Python's urllib does.

Driven by tests/api/keys/refusals.rs, which starts the service and checks what
this prints. Usage:

    python3 paced_upload.py URL SECONDS BODY_BYTES [KEY ...]

For each KEY (`-` for none) the body (NDJSON lines of /v1/hands/analyze/batch,
BODY_BYTES long, Content-Length declared) is sent paced to last SECONDS, then
the answer is read. One JSON line per KEY on stdout: the status and problem
code read, or the error that broke the exchange (a broken pipe, a reset).
"""

import json
import sys
import time
import urllib.error
import urllib.request

LINE = b'{"hand": ["7S","7H","7D","7C","8H","9H","KS","QD","2C","3D"]}\n'
STEPS = 30


def body(size):
    whole = LINE * (size // len(LINE))
    return whole + b" " * (size - len(whole))


def paced(data, seconds, sent):
    step = max(1, len(data) // STEPS)
    for start in range(0, len(data), step):
        chunk = data[start:start + step]
        yield chunk
        sent[0] += len(chunk)
        time.sleep(seconds / STEPS)


def one(url, seconds, data, key):
    headers = {"Content-Type": "application/x-ndjson", "Content-Length": str(len(data))}
    if key != "-":
        headers["Authorization"] = "Bearer " + key
    sent = [0]
    request = urllib.request.Request(url, data=paced(data, seconds, sent), headers=headers,
                                     method="POST")
    started = time.monotonic()
    outcome = {"key": key != "-", "bytes": len(data)}
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            outcome.update(status=response.status, code=None)
    except urllib.error.HTTPError as answer:
        problem = json.loads(answer.read() or b"{}")
        outcome.update(status=answer.code, code=problem.get("code"))
    except (OSError, urllib.error.URLError) as error:
        reason = getattr(error, "reason", error)
        outcome.update(status=None, error=type(reason).__name__ + ": " + str(reason))
    outcome.update(sent=sent[0], seconds=round(time.monotonic() - started, 2))
    return outcome


def main():
    url, seconds, size = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    data = body(size)
    for key in sys.argv[4:]:
        print(json.dumps(one(url, seconds, data, key)), flush=True)


if __name__ == "__main__":
    main()
