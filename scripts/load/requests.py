#!/usr/bin/env python3
"""Writes the request pool for scripts/load.sh: one request per line,
`METHOD<TAB>PATH<TAB>EXPECTED_STATUS<TAB>CONTENT_TYPE<TAB>BODY`, in the
proportions of a realistic mix (see MIX below). Random hands come from a fixed
seed, so every run sends the same pool; then every distinct request is sent once
to the running server to check it really answers the expected status (the wrk
script then only counts).

    requests.py OUT.tsv [BASE_URL]
"""
import json
import random
import sys
import urllib.error
import urllib.request

RANKS = "A23456789TJQK"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS]
VALUE = {r: min(i + 1, 10) for i, r in enumerate(RANKS)}

rng = random.Random(20261122)


def shuffled():
    deck = DECK[:]
    rng.shuffle(deck)
    return deck


def knockable(deck):
    """10 cards that always knock under the standard limit: three melds and a
    low card (deadwood at most 4), taken from `deck` (removed from it)."""
    while True:
        melds = []
        used = set()
        for _ in range(3):
            if rng.random() < 0.5:
                rank = rng.choice(RANKS)
                suits = rng.sample(SUITS, 3)
                meld = [rank + s for s in suits]
            else:
                suit = rng.choice(SUITS)
                low = rng.randrange(0, 11)
                meld = [RANKS[low + i] + suit for i in range(3)]
            if used.isdisjoint(meld):
                used.update(meld)
                melds.append(meld)
        if len(melds) < 3:
            continue
        low_cards = [c for c in deck if c[0] in "A234" and c not in used]
        if not low_cards:
            continue
        hand = [c for m in melds for c in m] + [rng.choice(low_cards)]
        if all(c in deck for c in hand):
            for c in hand:
                deck.remove(c)
            rng.shuffle(hand)
            return hand


def analyze():
    deck = shuffled()
    n = 11 if rng.random() < 0.25 else 10
    body = {"hand": deck[:n]}
    if n == 10 and rng.random() < 0.15:
        body["all_arrangements"] = True
    if rng.random() < 0.2:
        body["profile"] = "oklahoma"
        body["upcard"] = deck[n]
    return body


def validate():
    deck = shuffled()
    hand = deck[:10]
    return {"melds": [hand[0:3], hand[3:7]], "hand": hand}


def knock():
    deck = shuffled()
    knocker = knockable(deck)
    return {"knocker": {"hand": knocker}, "defender": {"hand": deck[:10]}}


def match():
    hands = []
    for i in range(rng.randrange(3, 12)):
        who = rng.choice(["Mom", "Dad"])
        r = rng.random()
        if r < 0.1:
            hands.append({"void": True})
        elif r < 0.3:
            k = knock()
            hands.append({"knocker": who, "knocker_hand": k["knocker"],
                          "defender_hand": k["defender"]})
        else:
            hands.append({"knocker": who, "knocker_deadwood": rng.randrange(0, 11),
                          "defender_deadwood": rng.randrange(0, 60)})
    return {"players": ["Mom", "Dad"], "hands": hands,
            "profile": rng.choice(["standard", "standard", "hollywood"])}


def openapi_examples(path):
    with open("openapi/openapi.json") as f:
        doc = json.load(f)
    content = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    if "examples" in content:
        return [e["value"] for e in content["examples"].values()]
    return [content["example"]]


JSON = "application/json"
# (weight in percent, method, path, expected status, content type, body maker)
MIX = [
    (34, "POST", "/v1/hands/analyze", 200, JSON, analyze),
    (14, "POST", "/v1/hands/score", 200, JSON, knock),
    (10, "POST", "/v1/layoffs", 200, JSON, knock),
    (10, "POST", "/v1/melds/validate", 200, JSON, validate),
    (8, "POST", "/v1/matches/score", 200, JSON, match),
    (7, "POST", "/v1/hands/audit", 200, JSON, lambda: rng.choice(openapi_examples("/v1/hands/audit"))),
    (3, "GET", "/v1/profiles", 200, "", None),
    (2, "GET", "/v1/profiles/oklahoma", 200, "", None),
    (4, "GET", "/healthz", 200, "", None),
    (2, "GET", "/readyz", 200, "", None),
    (1, "GET", "/metrics", 200, "", None),
    # About 5 % invalid requests, each with the status it must get.
    (1, "POST", "/v1/hands/analyze", 400, JSON, lambda: '{"hand": ["7S", "7H"'),
    (1, "POST", "/v1/hands/analyze", 422, JSON, lambda: {"hand": ["7S"] * 10}),
    (1, "POST", "/v1/hands/score", 404, JSON, lambda: dict(knock(), profile="gin")),
    (1, "POST", "/v1/melds/validate", 415, "text/plain", lambda: "7S 7H 7D"),
    (1, "GET", "/v1/no/such/path", 404, "", None),
]
POOL = 2000


def send(base, method, path, ctype, body):
    req = urllib.request.Request(base + path, method=method,
                                 data=body.encode() if body else None)
    if ctype:
        req.add_header("Content-Type", ctype)
    try:
        return urllib.request.urlopen(req, timeout=10).status
    except urllib.error.HTTPError as e:
        return e.code


def main():
    out = sys.argv[1]
    base = sys.argv[2] if len(sys.argv) > 2 else None
    total = sum(m[0] for m in MIX)
    lines = []
    checked = set()
    for weight, method, path, status, ctype, make in MIX:
        for _ in range(POOL * weight // total):
            # A random match may run past its game's end (a 422): draw again.
            for _attempt in range(20):
                body = make() if make else ""
                if not isinstance(body, str):
                    body = json.dumps(body, separators=(",", ":"))
                line = (method, path, status, ctype, body)
                if not base or line in checked:
                    break
                got = send(base, method, path, ctype, body)
                if got == status:
                    checked.add(line)
                    break
                if make is not match:
                    sys.exit(f"{method} {path} answered {got}, expected {status}: {body[:300]}")
            else:
                sys.exit(f"no {path} request answering {status} in 20 draws")
            lines.append(line)
    with open(out, "w") as f:
        for method, path, status, ctype, body in lines:
            f.write(f"{method}\t{path}\t{status}\t{ctype}\t{body}\n")
    print(f"{len(lines)} requests in the pool, {len(set(lines))} distinct, all checked"
          if base else f"{len(lines)} requests in the pool")


if __name__ == "__main__":
    main()
