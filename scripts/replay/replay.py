#!/usr/bin/env python3
"""Replays a request corpus against two builds of gin-referee and compares
every answer: status, headers, content type and body, byte for byte.

    scripts/replay/replay.py OLD_BINARY NEW_BINARY [CORPUS.jsonl]

CORPUS defaults to scripts/replay/corpus.jsonl, written by corpus.py first when
it is missing. Both servers run on free loopback ports with one worker
(`--workers 1`) and the same signing key (a fresh Ed25519 key, and one retired
key, written to a temporary directory), so that GET /v1/keys and the receipts
can be compared. One thread per server sends the corpus in order on one
keep-alive connection (http.client), so both servers see the same sequence.

What may differ, and nothing else:
  * headers `date` and `x-request-id` (a fresh UUID; when the request sent its
    own id, the echo is compared), and the order of the headers (actix writes
    them from a hash map: the order changes from one answer to the next);
  * in a receipt (a compact JWS): the payload's `iat` (seconds since the epoch),
    and so the signature when the two `iat`s differ. The protected header and
    every other payload field (request and response hashes, op, version,
    profile) are compared; with equal `iat`s the whole JWS must be equal;
  * in GET /metrics: the values of the latency histograms
    (`http_request_duration_seconds_bucket` / `_sum`) and of the `process_*`
    gauges; every series name and label set, the request counters and the
    histogram `_count`s are compared (the answer's content-length follows the
    masked values and is not compared either);
  * the knock's unified messages (UNIFIED below), on the operations that
    score a knock: "7S at defender hand position 1 repeats a card already
    dealt to a hand" is now "7S is in both hands"; "7S is in meld 0 and meld
    1; a card belongs to at most one meld" (a knocker's declared melds) is now
    "7S is declared twice"; a layoff of a card the defender cannot lay off
    reads "is not in the defender's hand" or "is in one of the defender's
    declared melds" where it read either that or "is not among the defender's
    unmelded cards"; in an audit (hands, batches, matches), a knock over the
    limit is told in the scorer's words ("the non-dealer knocked at best: the
    knocker's deadwood is 63, over the knock limit of 10", where it read "the
    non-dealer knocked with 63 deadwood at best, but the knock limit is 10"),
    and a declaration at fault is pointed at its first fault's field
    (`/actions/3/melds/2/3` where it was `/actions/3/melds`); a receipt on
    such an answer is compared but for its `iat` and the answer's digest.
    Answers that needed it are counted and reported;
  * an allowed change of an earlier refactor: inside a 400 `invalid_body`
    problem (a whole answer, or one batch line's `problem`), serde's Rust type
    name after "expected struct|enum|..." (e.g. `WildKnockerHand` renamed
    `KnockerHand`). Answers that needed it are counted and reported.

Prints requests sent, per-operation counts (identical, identical after the
type-name normalisation, differing), and writes the first 20 differences with
both answers to REPLAY_DIFFS (default scripts/replay/differences.txt). Exits 1
on any difference, 2 on a setup failure.

Environment:
  REPLAY_OLD_ARGS / REPLAY_NEW_ARGS  extra flags for one server (e.g. to show
                                     that a changed limit is caught)
  REPLAY_TAMPER=N[,M...]             dry run of the checker: alter the NEW
                                     answer of request number N (0-based)
                                     before comparing; each must be reported
  REPLAY_LIMIT=N                     replay only the first N requests
  REPLAY_DIFFS=FILE                  where the differences go
  REPLAY_ALL_DIFFS=FILE              also every difference, one JSON line each
                                     (request number, path, body, old and new
                                     status and body), for sorting them out
"""
import base64
import http.client
import json
import os
import queue
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
HOST_HEADER = "replay.invalid"

# --- the allowed differences ---------------------------------------------------------
# serde's "expected ..." phrases that name a Rust type (serde::de::Unexpected /
# Expected for derived structs and enums): `struct Foo`, `struct Foo with 5
# elements`, `tuple struct Foo`, `enum Foo`, `internally tagged enum Foo`,
# `adjacently tagged enum Foo`, `untagged enum Foo`, `variant of enum Foo`.
TYPE_NAME = re.compile(
    r"((?:expected |of )(?:a )?(?:tuple struct|unit struct|struct variant|tuple variant|struct|"
    r"internally tagged enum|adjacently tagged enum|untagged enum|enum|variant of enum) )"
    r"[A-Z][A-Za-z0-9_]*(?:::[A-Za-z0-9_]+)*")
RECEIPT = re.compile(rb'"receipt":"([A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+)"')
METRIC_VARYING = re.compile(
    rb"^((?:http_request_duration_seconds_(?:bucket|sum)|process_[a-z_]+)(?:\{.*\})?) \S+$", re.M)
IGNORED_HEADERS = {"date"}


def normalise_type_names(body):
    """The body with serde type names masked inside invalid_body problems, or
    None when there is no such problem. Works on raw bytes, line by line (a
    batch answer's lines are problems or results of their own)."""
    if b'"invalid_body"' not in body:
        return None
    out = []
    for line in body.split(b"\n"):
        if b'"code":"invalid_body"' in line:
            line = TYPE_NAME.sub(r"\1<type>", line.decode("utf-8", "replace")).encode()
        out.append(line)
    return b"\n".join(out)


# The knock's unified messages (one knock pipeline, one message per fault):
# where the two builds word the same fault differently, both are masked to one
# form, on the operations that score a knock and nowhere else.
UNIFIED_PATHS = {"/v1/hands/score", "/v1/hands/score/batch", "/v1/layoffs", "/v1/layoffs/batch",
                 "/v1/hands/audit", "/v1/hands/audit/batch", "/v1/matches/audit"}
UNIFIED = [
    # A card of the defender's list that is the knocker's.
    (re.compile(rb"([2-9TJQKA][SHDC]) at defender hand position \d+ repeats a card already dealt to a hand"),
     rb"\1 is in both hands"),
    # A card declared in two of the knocker's melds.
    (re.compile(rb"([2-9TJQKA][SHDC]) is in meld \d+ and meld \d+; a card belongs to at most one meld"),
     rb"\1 is declared twice"),
    # A layoff of a card the defender cannot lay off: not held, or in its melds.
    (re.compile(rb"is not among the defender's unmelded cards|is not in the defender's hand|"
                rb"is in one of the defender's declared melds"),
     rb"<not the defender's to lay off>"),
    # An audited knock over the limit, in the scorer's words after whose knock.
    (re.compile(rb"knocked with (\d+) deadwood (at best|with the declared melds), but the knock limit is (\d+)"),
     rb"knocked \2: the knocker's deadwood is \1, over the knock limit of \3"),
    # An audited declaration at fault, pointed at its first fault's field as
    # the scorer points (a meld, a meld's card, a joker's card) where the
    # violation pointed at the action's melds.
    (re.compile(rb'("pointer":\s*"[^"]*/actions/\d+/)(?:melds(?:/\d+)+|jokers/X[12])"'),
     rb'\1melds"'),
]


def normalise_unified(path, body):
    """The body with the unified messages masked (in both builds' wording),
    or None on an operation that does not score a knock."""
    if path not in UNIFIED_PATHS:
        return None
    for pattern, replacement in UNIFIED:
        body = pattern.sub(replacement, body)
    # A unified message changes the answer, so a receipt's digest of it:
    # each receipt is compared by its header and its other claims.
    return RECEIPT.sub(lambda m: b'"receipt":"' + receipt_but_answer(m.group(1)) + b'"', body)


def receipt_but_answer(jws):
    """A receipt (a compact JWS) as its protected header and its claims but
    the time and the answer's digest, for comparing answers whose unified
    messages differ."""
    parts = jws.split(b".")
    if len(parts) != 3:
        return jws
    try:
        claims = json.loads(b64d(parts[1].decode()))
    except ValueError:
        return jws
    claims.pop("iat", None)
    claims.pop("response", None)
    return parts[0] + b"." + json.dumps(claims, sort_keys=True).encode().replace(b'"', b"'")


def b64d(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def compare_receipts(old, new):
    """(old, new, note): bodies with the receipts replaced by placeholders when
    the receipts agree as described above; the bodies unchanged otherwise."""
    a, b = RECEIPT.findall(old), RECEIPT.findall(new)
    if not a or len(a) != len(b):
        return old, new, None
    for x, y in zip(a, b):
        if x == y:
            continue
        hx, px, _ = x.split(b".")
        hy, py, _ = y.split(b".")
        if hx != hy:
            return old, new, None
        try:
            px, py = json.loads(b64d(px.decode())), json.loads(b64d(py.decode()))
        except ValueError:
            return old, new, None
        if px.get("iat") == py.get("iat"):
            return old, new, None  # same iat: the JWS must be the same
        px.pop("iat", None)
        py.pop("iat", None)
        if px != py:
            return old, new, None
    old = RECEIPT.sub(b'"receipt":"<receipt>"', old)
    new = RECEIPT.sub(b'"receipt":"<receipt>"', new)
    return old, new, "receipt iat"


# --- servers -------------------------------------------------------------------------------
def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start(binary, extra, keydir, name):
    port = free_port()
    log = open(os.path.join(keydir, f"{name}.log"), "w")
    args = [binary, "--listen", f"127.0.0.1:{port}", "--workers", "1",
            "--signing-key", os.path.join(keydir, "signing.pem"),
            "--retired-keys", os.path.join(keydir, "retired.pub.pem")] + shlex.split(extra)
    env = dict(os.environ, GIN_REFEREE_LOG_LEVEL="warn")
    env.pop("RUST_LOG", None)
    proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env)
    # Ready when it accepts a connection: no HTTP request, so that the
    # metrics of both servers count the corpus only.
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit(f"{name} ({binary}) exited at start; see {log.name}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit(f"{name} ({binary}) did not listen within 30 s")


def keys(keydir):
    for name in ("signing", "retired"):
        subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out",
                        os.path.join(keydir, f"{name}.pem")], check=True, capture_output=True)
    subprocess.run(["openssl", "pkey", "-in", os.path.join(keydir, "retired.pem"), "-pubout",
                    "-out", os.path.join(keydir, "retired.pub.pem")], check=True, capture_output=True)


# --- sending -------------------------------------------------------------------------------
def body_of(item):
    if "body_b64" in item:
        return base64.b64decode(item["body_b64"])
    if "body" in item:
        return item["body"].encode("utf-8")
    return None


def sender(port, corpus, out, limit):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    for i, item in enumerate(corpus):
        if i >= limit:
            break
        headers = dict(item["headers"])
        headers["Host"] = HOST_HEADER
        body = body_of(item)
        answer = None
        for attempt in range(2):
            try:
                conn.request(item["method"], item["path"], body=body, headers=headers)
                r = conn.getresponse()
                data = r.read()
                answer = (r.status, [(k.lower(), v) for k, v in r.getheaders()], data)
                if r.will_close:
                    conn.close()
                break
            except (http.client.HTTPException, OSError) as e:
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                answer = ("error", [], f"{type(e).__name__}: {e}".encode())
        out.put((i, answer))
    out.put(None)


def header_view(item, headers):
    """The headers compared: all but `date`, and `x-request-id` only when the
    request sent one (otherwise it is a fresh UUID)."""
    sent_id = any(k.lower() == "x-request-id" for k in item["headers"])
    ignored = IGNORED_HEADERS
    if item["path"] == "/metrics":
        ignored = ignored | {"content-length"}  # follows the masked values
    # sorted: the server writes its headers in no fixed order (a hash map)
    return sorted((k, v) for k, v in headers
                  if k not in ignored and (k != "x-request-id" or sent_id))


def self_test():
    """`replay.py --self-test`: the narrow normalisation on made-up answers."""
    old = (b'{"type":"/problems/invalid_body","title":"Invalid body","status":400,"detail":"the body does '
           b'not match the request schema at /knocker: invalid type: integer `5`, expected struct '
           b'WildKnockerHand","code":"invalid_body","errors":[{"pointer":"/knocker","code":"invalid_type",'
           b'"message":"invalid type: integer `5`, expected struct WildKnockerHand"}]}')
    renamed = old.replace(b"WildKnockerHand", b"KnockerHand")
    assert normalise_type_names(old) == normalise_type_names(renamed), "a renamed type must pass"
    for changed in (old.replace(b"/knocker", b"/defender"), old.replace(b"integer `5`", b"integer `6`"),
                    old.replace(b"expected struct", b"expected a")):
        assert normalise_type_names(old) != normalise_type_names(changed), changed
    other = old.replace(b"invalid_body", b"invalid_thing")
    assert normalise_type_names(other) is None, "only invalid_body problems"
    line = b'{"line":3,"problem":' + old + b"}"
    assert normalise_type_names(line) == normalise_type_names(line.replace(b"WildKnockerHand", b"KnockerHand"))
    for phrase in (b"expected internally tagged enum Action", b"expected struct ScoreRequest with 5 elements",
                   b"data did not match any variant of untagged enum MatchHand"):
        body = old.replace(b"expected struct WildKnockerHand", phrase)
        assert normalise_type_names(body) == normalise_type_names(
            body.replace(b"Action", b"Move").replace(b"ScoreRequest", b"ScoreBody").replace(b"MatchHand", b"Hand")), phrase
    both = b'{"detail":"7S at defender hand position 4 repeats a card already dealt to a hand"}'
    unified = b'{"detail":"7S is in both hands"}'
    path = "/v1/hands/score"
    assert normalise_unified(path, both) == normalise_unified(path, unified), "a unified message must pass"
    assert normalise_unified(path, both) != normalise_unified(path, b'{"detail":"8S is in both hands"}')
    assert normalise_unified("/v1/melds/validate", both) is None, "only the knock's operations"
    twice = b'"message":"QS is in meld 0 and meld 2; a card belongs to at most one meld"'
    assert normalise_unified(path, twice) == normalise_unified(path, b'"message":"QS is declared twice"')
    laid = b"layoff 1: QS is not among the defender's unmelded cards"
    assert normalise_unified(path, laid) == normalise_unified(path, b"layoff 1: QS is not in the defender's hand")
    assert normalise_unified(path, laid) != normalise_unified(path, b"layoff 2: QS is not in the defender's hand")
    assert normalise_unified(path, b'{"points":8}') != normalise_unified(path, b'{"points":9}')
    audit = "/v1/hands/audit"
    over = b"the non-dealer knocked with 63 deadwood at best, but the knock limit is 10"
    assert normalise_unified(audit, over) == normalise_unified(
        audit, b"the non-dealer knocked at best: the knocker's deadwood is 63, over the knock limit of 10")
    assert normalise_unified(audit, over) != normalise_unified(
        audit, b"the non-dealer knocked at best: the knocker's deadwood is 62, over the knock limit of 10")
    melds = b'"pointer":"/actions/3/melds"'
    for deeper in (b'"pointer":"/actions/3/melds/2/3"', b'"pointer":"/actions/3/melds/0"',
                   b'"pointer":"/actions/3/jokers/X1"'):
        assert normalise_unified(audit, melds) == normalise_unified(audit, deeper), deeper
    assert normalise_unified(audit, melds) != normalise_unified(audit, b'"pointer":"/actions/4/melds/0"')
    claims = lambda **c: base64.urlsafe_b64encode(json.dumps(c).encode()).rstrip(b"=")
    signed = lambda c: b'{"receipt":"eyJh.' + c + b'.c2ln"}'
    a, b = signed(claims(op="audit", response="x", iat=1)), signed(claims(op="audit", response="y", iat=2))
    assert normalise_unified(audit, a) == normalise_unified(audit, b), "the answer's digest follows the answer"
    assert normalise_unified(audit, a) != normalise_unified(audit, signed(claims(op="other", response="x")))
    print("self-test passed: renamed types normalise; other changes, and other problems, do not; "
          "the knock's unified messages normalise on the knock's operations only")


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    old_bin, new_bin = sys.argv[1], sys.argv[2]
    corpus_path = sys.argv[3] if len(sys.argv) == 4 else os.path.join(HERE, "corpus.jsonl")
    for b in (old_bin, new_bin):
        if not os.access(b, os.X_OK):
            print(f"not an executable: {b}", file=sys.stderr)
            sys.exit(2)
    if not os.path.exists(corpus_path):
        print(f"writing {corpus_path} with corpus.py", file=sys.stderr)
        subprocess.run([sys.executable, os.path.join(HERE, "corpus.py"), corpus_path], check=True)
    with open(corpus_path) as f:
        corpus = [json.loads(line) for line in f]
    limit = int(os.environ.get("REPLAY_LIMIT", len(corpus)))
    tamper = {int(x) for x in os.environ.get("REPLAY_TAMPER", "").split(",") if x}
    diffs_path = os.environ.get("REPLAY_DIFFS", os.path.join(HERE, "differences.txt"))
    all_diffs_path = os.environ.get("REPLAY_ALL_DIFFS")
    every_difference = open(all_diffs_path, "w", encoding="utf-8") if all_diffs_path else None

    keydir = tempfile.mkdtemp(prefix="replay-")
    keys(keydir)
    procs = []
    try:
        old, old_port = start(old_bin, os.environ.get("REPLAY_OLD_ARGS", ""), keydir, "old")
        procs.append(old)
        new, new_port = start(new_bin, os.environ.get("REPLAY_NEW_ARGS", ""), keydir, "new")
        procs.append(new)
        t0 = time.time()
        qo, qn = queue.Queue(), queue.Queue()
        threads = [threading.Thread(target=sender, args=(old_port, corpus, qo, limit), daemon=True),
                   threading.Thread(target=sender, args=(new_port, corpus, qn, limit), daemon=True)]
        for t in threads:
            t.start()
        stats = defaultdict(lambda: defaultdict(int))
        notes = defaultdict(int)
        differences = []
        sent = 0
        while True:
            a, b = qo.get(), qn.get()
            if a is None or b is None:
                break
            i, (so, ho, bo) = a
            _, (sn, hn, bn) = b
            item = corpus[i]
            op = item["op"]
            sent += 1
            st = stats[op]
            st["sent"] += 1
            st[f"status {so}"] += 1
            if isinstance(bo, bytes) and item["path"] in ("/v1/hands/audit", "/v1/matches/audit") and so == 200:
                st["legal"] += bo.startswith(b'{"legal":true') or b'"legal":true,"violation":null,"hands"' in bo[:40]
            if i in tamper and isinstance(bn, bytes):
                bn = bn.replace(b"1", b"2", 1) if b"1" in bn else bn + b" "
            hvo, hvn = header_view(item, ho), header_view(item, hn)
            co = dict(ho).get("content-type")
            cn = dict(hn).get("content-type")
            why = []
            if so != sn:
                why.append(f"status {so} != {sn}")
            if co != cn:
                why.append(f"content-type {co} != {cn}")
            cmp_o, cmp_n = bo, bn
            note = None
            if cmp_o != cmp_n:
                cmp_o, cmp_n, note = compare_receipts(cmp_o, cmp_n)
            if cmp_o != cmp_n and item["path"] == "/metrics":
                cmp_o = METRIC_VARYING.sub(rb"\1 <varies>", cmp_o)
                cmp_n = METRIC_VARYING.sub(rb"\1 <varies>", cmp_n)
                note = "metrics values"
            typed = False
            if cmp_o != cmp_n and so == sn == 400:
                no, nn = normalise_type_names(cmp_o), normalise_type_names(cmp_n)
                if no is not None and no == nn:
                    cmp_o, cmp_n, typed = no, nn, True
            elif cmp_o != cmp_n and so == sn == 200 and item["path"].endswith("/batch"):
                no, nn = normalise_type_names(cmp_o), normalise_type_names(cmp_n)
                if no is not None and no == nn:
                    cmp_o, cmp_n, typed = no, nn, True
            unified = False
            if cmp_o != cmp_n:
                no, nn = normalise_unified(item["path"], cmp_o), normalise_unified(item["path"], cmp_n)
                if no is not None and nn is not None and no == nn:
                    cmp_o, cmp_n, unified = no, nn, True
            if typed or unified:
                # The body's length follows the renamed type's name.
                hvo = [h for h in hvo if h[0] != "content-length"]
                hvn = [h for h in hvn if h[0] != "content-length"]
            if hvo != hvn:
                why.append("headers")
            if cmp_o != cmp_n:
                why.append("body")
            if why:
                st["differing"] += 1
                if len(differences) < 20:
                    differences.append((i, item, why, (so, ho, bo), (sn, hn, bn)))
                if every_difference:
                    every_difference.write(json.dumps({
                        "request": i, "path": item["path"], "body": (body_of(item) or b"").decode("utf-8", "replace"),
                        "old": [so, bo.decode("utf-8", "replace")], "new": [sn, bn.decode("utf-8", "replace")],
                    }) + "\n")
            elif typed:
                st["type_name_normalised"] += 1
            elif unified:
                st["unified_message"] += 1
            else:
                st["identical"] += 1
            if note and not why:
                notes[note] += 1
            if sent % 2000 == 0:
                print(f"  ... {sent} requests, {time.time() - t0:.0f} s", file=sys.stderr)
        elapsed = time.time() - t0
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()

    total = defaultdict(int)
    print(f"{'operation':34} {'sent':>6} {'identical':>9} {'typename':>8} {'unified':>7} {'differ':>6}  statuses (old server)")
    for op in sorted(stats):
        st = stats[op]
        for k, v in st.items():
            total[k] += v
        mix = " ".join(f"{k[7:]}:{v}" for k, v in sorted(st.items()) if k.startswith("status "))
        if st["legal"]:
            mix += f" (legal: {st['legal']})"
        print(f"{op:34} {st['sent']:6d} {st['identical']:9d} {st['type_name_normalised']:8d} {st['unified_message']:7d} {st['differing']:6d}  {mix}")
    print(f"{'total':34} {total['sent']:6d} {total['identical']:9d} {total['type_name_normalised']:8d} {total['unified_message']:7d} {total['differing']:6d}")
    print(f"requests sent: {sent} (to each server) in {elapsed:.1f} s")
    print(f"identical: {total['identical']}; identical after the type-name normalisation of "
          f"invalid_body messages: {total['type_name_normalised']}; identical after masking the knock's "
          f"unified messages: {total['unified_message']}; differing: {total['differing']}")
    print(f"non-deterministic parts masked: {dict(notes) or 'none needed'} "
          "(date and x-request-id headers are never compared)")
    if differences:
        with open(diffs_path, "w") as f:
            for i, item, why, (so, ho, bo), (sn, hn, bn) in differences:
                f.write(f"=== request {i}: {item['method']} {item['path']} ({item['op']}, {item['tag']}): {', '.join(why)}\n")
                f.write(f"--- request headers: {json.dumps(item['headers'])}\n")
                f.write("--- request body:\n" + (item.get("body") or item.get("body_b64", "<none>")) + "\n")
                for label, s, h, b in (("OLD", so, ho, bo), ("NEW", sn, hn, bn)):
                    f.write(f"--- {label} answer: {s}\n")
                    for k, v in h:
                        f.write(f"{k}: {v}\n")
                    f.write("\n" + b.decode("utf-8", "replace") + "\n")
                f.write("\n")
        print(f"first {len(differences)} differences written to {diffs_path}")
    if sent < min(limit, len(corpus)):
        print(f"only {sent} of {min(limit, len(corpus))} requests were answered", file=sys.stderr)
        sys.exit(2)
    sys.exit(1 if total["differing"] else 0)


if __name__ == "__main__":
    main()
