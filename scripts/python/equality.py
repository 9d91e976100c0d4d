#!/usr/bin/env python3
"""The module answers what the service answers: at least 2,000 generated
requests per operation (valid and invalid; every preset, jokers, three
players, partnership), each sent to a running gin-referee and given to the
gin_referee module, as the same bytes and, where the body is JSON, as the
parsed dict too.

    scripts/python/equality.py SERVICE_BINARY [PER_OPERATION]

A 200 must come back from the module as the same JSON (`json.loads` of the
service's body == the module's return value); a 4xx must raise
`gin_referee.Problem` with the same `.status`, `.code`, and `.problem` equal
to the service's problem+json body. Receipts are signed by both with the same
key (the service's `--signing-key`, the module's `signing_key(pem)`), so each
answer carries one or neither; the receipts themselves differ only by their
`iat` and are compared without it. The request generators are the replay
corpus's (scripts/replay/corpus.py); the live state's requests are audit
transcripts cut at a random action, with a seat or without.

Exits 1 on any difference (the first ones printed), 2 on a setup failure.
EQUALITY_SERVICE_ARGS adds flags to the service (a check of the checker:
`--max-melds 3` must make validate_melds differ).
"""

import base64
import http.client
import importlib.util
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPLAY = os.path.join(HERE, "..", "replay")
sys.path.insert(0, REPLAY)
spec = importlib.util.spec_from_file_location("corpus", os.path.join(REPLAY, "corpus.py"))
corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corpus)

import gin_referee  # noqa: E402

OPERATIONS = {
    "analyze_hand": ("/v1/hands/analyze", "analyze"),
    "validate_melds": ("/v1/melds/validate", "validate"),
    "layoffs": ("/v1/layoffs", "layoffs"),
    "score_hand": ("/v1/hands/score", "score"),
    "score_match": ("/v1/matches/score", "matches"),
    "audit_hand": ("/v1/hands/audit", "audit"),
    "audit_match": ("/v1/matches/audit", "match_audit"),
    "hand_state": ("/v1/hands/state", "audit"),
    "match_state": ("/v1/matches/state", "match_audit"),
    "deal_from_seeds": ("/v1/deals", "deals"),
    "move_hand": ("/v1/hands/move", "audit"),
    "move_match": ("/v1/matches/move", "match_audit"),
}


def makers(rng):
    """One request maker per operation: (body, tag)."""
    def audit():
        body, tag, *_ = corpus.audit_record(rng, jokers=2 if rng.random() < 0.2 else 0)
        return body, tag

    def state():
        body, tag, *_ = corpus.audit_record(rng, jokers=2 if rng.random() < 0.2 else 0)
        body = dict(body)
        body.pop("receipt", None)
        body["actions"] = body["actions"][: rng.randrange(len(body["actions"]) + 1)]
        if rng.random() < 0.5:
            body["seat"] = rng.choice(["dealer", "non_dealer"])
        return body, "state_" + tag

    def match_state():
        body, tag = corpus.match_audit_body(rng)
        body = dict(body)
        body.pop("claimed", None)
        body.pop("receipt", None)
        hands = body.get("hands") or []
        if hands and rng.random() < 0.6:
            # Stop the last hand (or a table of the last deal) part way.
            last = dict(hands[-1])
            if "tables" in last:
                tables = [dict(t) for t in last["tables"]]
                table = tables[rng.randrange(len(tables))]
                table["actions"] = table["actions"][: rng.randrange(len(table["actions"]) + 1)]
                last["tables"] = [table if t is table else t for t in tables]
            else:
                last["actions"] = last["actions"][: rng.randrange(len(last["actions"]) + 1)]
            body["hands"] = hands[:-1] + [last]
        names = body.get("players") or [p for t in body.get("teams", []) for p in t["players"]]
        view = rng.random()
        if view < 0.4 and names:
            body["seat"] = rng.choice(names)
        elif view < 0.6:
            body["spectator"] = True
        if rng.random() < 0.3:
            body["openspiel"] = True
        return body, "state_" + tag

    def bot():
        name = rng.choice(["random", "simple", "strong"])
        bot = {"name": name}
        if rng.random() < 0.7:
            bot["seed"] = rng.randrange(2**32)
        if name == "strong":
            bot["samples"] = rng.randrange(1, 17)
        return bot

    def move_hand():
        # A state's body with the seat and the bot: the seat to act, often
        # (a move), the other, sometimes (not_to_act).
        body, tag = state()
        body["seat"] = body.get("seat") or rng.choice(["dealer", "non_dealer"])
        body["bot"] = bot()
        return body, "move_" + tag

    def move_match():
        body, tag = match_state()
        body.pop("spectator", None)
        names = body.get("players") or [p for t in body.get("teams", []) for p in t["players"]]
        body["seat"] = body.get("seat") or (rng.choice(names) if names else "Ann")
        body["bot"] = bot()
        return body, "move_" + tag

    return {
        "move_hand": move_hand,
        "move_match": move_match,
        "match_state": match_state,
        "analyze_hand": lambda: corpus.analyze_body(rng),
        "validate_melds": lambda: corpus.validate_body(rng),
        "layoffs": lambda: corpus.knock_body(rng, for_layoffs=True),
        "score_hand": lambda: corpus.knock_body(rng),
        "score_match": lambda: corpus.match_score_body(rng),
        "audit_hand": audit,
        "audit_match": lambda: corpus.match_audit_body(rng),
        "hand_state": state,
        "deal_from_seeds": lambda: corpus.deal_body(rng),
    }


def requests(rng, operation, maker, count):
    """`count` bodies (bytes), about a quarter of them refused one way or another."""
    key = OPERATIONS[operation][1]
    for _ in range(count):
        x = rng.random()
        if x < 0.08:
            good, _ = maker()
            body, _ = corpus.malformed(rng, good)
        elif x < 0.18:
            good, _ = maker()
            body, _ = corpus.invalid_shape(rng, good, key)
        elif x < 0.25 and key not in ("match_audit",):
            body, _ = (corpus.rule_errors_audit(rng) if key == "audit"
                       else corpus.rule_errors(rng, key))
        else:
            body, _ = maker()
        if not isinstance(body, (bytes, str)):
            body = json.dumps(body, separators=(",", ":") if rng.random() < 0.5 else None)
        if isinstance(body, str):
            body = body.encode()
        yield body


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def signing_key(directory):
    """A fresh Ed25519 key in PKCS#8 PEM: by the `cryptography` package where
    it is installed, else by `openssl genpkey -algorithm ed25519`."""
    path = os.path.join(directory, "signing.pem")
    try:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    except ImportError:
        subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", path],
                       check=True, capture_output=True)
        return path
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())
    with open(path, "wb") as f:
        f.write(pem)
    return path


def start(binary, key):
    port = free_port()
    proc = subprocess.Popen(
        [binary, "--listen", f"127.0.0.1:{port}", "--workers", "1", "--signing-key", key,
         *os.environ.get("EQUALITY_SERVICE_ARGS", "").split()],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/readyz")
            if conn.getresponse().status == 200:
                return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit("the service did not start")


def without_receipt(answer):
    """The answer and whether it carried a receipt (compared apart)."""
    if isinstance(answer, dict) and "receipt" in answer:
        answer = dict(answer)
        receipt = answer.pop("receipt")
        return answer, receipt is not None
    return answer, False


def claims(jws, same_bytes):
    """A receipt's claims but the time; and but the request's digest when the
    module was given the parsed dict (it signs the bytes it dumped)."""
    payload = jws.split(".")[1]
    payload += "=" * (-len(payload) % 4)
    claims = json.loads(base64.urlsafe_b64decode(payload))
    claims.pop("iat", None)
    if not same_bytes:
        claims.pop("request", None)
    return claims


def module_answer(function, body):
    try:
        return 200, function(body)
    except gin_referee.Problem as problem:
        return problem.status, problem


def compare(same_bytes, status, served, got_status, got):
    """None when equal, else what differs."""
    if status != got_status:
        return f"status {status} != module {got_status}"
    if status == 200:
        a, a_receipt = without_receipt(served)
        b, b_receipt = without_receipt(got)
        if a != b:
            return "answers differ"
        if a_receipt != b_receipt:
            return f"receipt: service {a_receipt}, module {b_receipt}"
        if a_receipt and claims(served["receipt"], same_bytes) != claims(got["receipt"], same_bytes):
            return "receipt claims differ"
        return None
    if got.code != served.get("code"):
        return f"code {served.get('code')} != module {got.code}"
    if got.problem != served:
        return "problem documents differ"
    return None


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    binary = sys.argv[1]
    per_operation = int(sys.argv[2]) if len(sys.argv) == 3 else 2000
    rng = random.Random(20261126)
    with tempfile.TemporaryDirectory() as directory:
        key = signing_key(directory)
        with open(key) as f:
            gin_referee.signing_key(f.read())
        proc, port = start(binary, key)
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            failures, summary = [], {}
            for operation, maker in makers(rng).items():
                path = OPERATIONS[operation][0]
                function = getattr(gin_referee, operation)
                counts = {"requests": 0, "200": 0, "4xx": 0, "as dict": 0}
                for body in requests(rng, operation, maker, per_operation):
                    conn.request("POST", path, body=body,
                                 headers={"content-type": "application/json"})
                    response = conn.getresponse()
                    status, served = response.status, json.loads(response.read())
                    if response.getheader("connection", "").lower() == "close":
                        conn.close()
                        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                    counts["requests"] += 1
                    counts["200" if status == 200 else "4xx"] += 1
                    inputs = [body]
                    try:
                        inputs.append(json.loads(body))
                        counts["as dict"] += 1
                    except (ValueError, RecursionError):
                        # Not JSON, or nested past Python's own parser.
                        pass
                    for given in inputs:
                        got_status, got = module_answer(function, given)
                        why = compare(given is body, status, served, got_status, got)
                        # A dict is dumped again by the module: a body the service
                        # refused for its bytes alone (a duplicate key, a number
                        # spelt past a double) may read otherwise once parsed.
                        if why and given is not body and status != 200:
                            continue
                        if why:
                            failures.append((operation, why, body[:300]))
                summary[operation] = counts
        finally:
            proc.terminate()
            proc.wait()
    for operation, counts in summary.items():
        print(f"{operation:16} {counts}")
    if failures:
        for operation, why, body in failures[:20]:
            print(f"DIFFERS {operation}: {why}\n  {body!r}")
        print(f"{len(failures)} differences")
        sys.exit(1)
    total = sum(c["requests"] for c in summary.values())
    print(f"{total} requests: the module answered every one as the service did")


if __name__ == "__main__":
    main()
