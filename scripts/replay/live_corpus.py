"""Writes a larger corpus of the operations corpus.py holds fewer of, for
replay.py: the live state (POST /v1/hands/state, /v1/matches/state), the referee's bots
(POST /v1/hands/move, /v1/matches/move: `random` and `simple`) and the ratings
(POST /v1/ratings). The records are corpus.py's audit records, cut at a random
action (often at a knock, so that the defender is to reply), with a seat or
without, with OpenSpiel ids or without; some are spoiled, some malformed.

    scripts/replay/live_corpus.py [--seed N] [--count N] OUT.jsonl
"""
import argparse
import copy
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402

P = "POST"
SEATS = ["dealer", "non_dealer"]


def hand_record(rng):
    body, tag, _deal, actions, outcome = corpus.audit_record(
        rng, jokers=2 if rng.random() < 0.25 else 0)
    body.pop("receipt", None)
    acts = body["actions"]
    if outcome == "knock" and acts and acts[-1].get("action") == "lay_off" and rng.random() < 0.6:
        body["actions"] = acts[:-1]
        tag += "_reply"
    elif acts and rng.random() < 0.4:
        body["actions"] = acts[:rng.randrange(len(acts) + 1)]
        tag += "_cut"
    return body, tag


def match_record(rng):
    body, tag = corpus.match_audit_body(rng)
    body = copy.deepcopy(body)
    body.pop("claimed", None)
    body.pop("receipt", None)
    hands = body.get("hands") or []
    if hands and rng.random() < 0.5:
        last = hands[-1]
        for table in (last.get("tables") or [last]):
            acts = table.get("actions")
            if acts:
                table["actions"] = acts[:rng.randrange(len(acts) + 1)]
        tag += "_cut"
    return body, tag


def names(body):
    if body.get("players"):
        return list(body["players"])
    return [n for team in body.get("teams") or [] for n in team.get("players", [])]


def ratings_body(rng):
    people = ["Ann", "Bob", "Cy", "Di", "Ed"]
    results = []
    for _ in range(rng.randrange(0, 12)):
        if rng.random() < 0.7:
            a, b = rng.sample(people, 2)
            results.append({"players": [a, b], "winner": rng.choice([a, b, None])})
        else:
            k = rng.choice([2, 3])
            teams = [[p] for p in rng.sample(people, k)]
            results.append({"teams": teams, "ranks": [rng.randrange(1, k + 1) for _ in teams]})
    body = {"results": results}
    if rng.random() < 0.4:
        body["ratings"] = {p: {"mu": rng.uniform(-30, 60), "sigma": rng.choice([0.5, 3.0, 8.3, 0, -1])}
                           for p in rng.sample(people, 2)}
    return body


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("--seed", type=int, default=20261128)
    parser.add_argument("--count", type=int, default=1500)
    parser.add_argument("out")
    options = parser.parse_args()
    count = options.count
    c = corpus.Corpus(options.seed, 1.0)
    rng = c.rng
    for _ in range(count):
        body, tag = hand_record(rng)
        if rng.random() < 0.5:
            body["seat"] = rng.choice(SEATS)
        if rng.random() < 0.3:
            body["openspiel"] = True
        c.add("POST /v1/hands/state", P, "/v1/hands/state", body, tag=tag)
    for _ in range(count // 3):
        body, tag = match_record(rng)
        if rng.random() < 0.5 and names(body):
            body["seat"] = rng.choice(names(body))
        if rng.random() < 0.3:
            body["openspiel"] = True
        c.add("POST /v1/matches/state", P, "/v1/matches/state", body, tag=tag)
    for _ in range(count // 2):
        body, tag = hand_record(rng)
        body["seat"] = rng.choice(SEATS)
        body["bot"] = {"name": rng.choice(["random", "simple"]), "seed": rng.randrange(1000)}
        c.add("POST /v1/hands/move", P, "/v1/hands/move", body, tag=tag)
    for _ in range(count // 4):
        body, tag = match_record(rng)
        people = names(body) or ["Ann"]
        body["seat"] = rng.choice(people)
        body["bot"] = {"name": rng.choice(["random", "simple"]), "seed": rng.randrange(1000)}
        c.add("POST /v1/matches/move", P, "/v1/matches/move", body, tag=tag)
    for _ in range(count // 3):
        c.add("POST /v1/ratings", P, "/v1/ratings", ratings_body(rng), tag="ratings")
    for _ in range(count // 10):
        body, _ = hand_record(rng)
        spoiled, tag = corpus.malformed(rng, body)
        c.add("POST /v1/hands/state", P, "/v1/hands/state", spoiled, tag="error_" + tag)
    lines = (corpus.json.dumps(it, ensure_ascii=False) + "\n" for it in c.items)
    with open(options.out, "w") as f:
        f.writelines(lines)
    print(f"{len(c.items)} requests written to {options.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
