#!/usr/bin/env python3
"""The time of a bot's move over HTTP, less the state's (BENCHMARKS.md, "The
bots", "Time of a move"): what `POST /v1/hands/move` costs a client beyond
`POST /v1/hands/state` of the same record and seat, decision by decision.

    scripts/bots-http-time.py BASE_URL [HANDS]

First plays HANDS hands (default 40, seeded deals, the `eaai` preset) with
`strong` for one seat and `simple` for the other through the service itself,
keeping every decision with a choice (more than one listed move). Then, for
each kept decision and each bot, sends the state request and the move
request one after the other on one keep-alive connection (http.client, the
whole body sent before the answer is read, as urllib does) and keeps the
move's round trip, the state's, and their difference. Prints, per bot, the
median and 99th percentile of each over the decisions. Run it against a
release build started with one worker (`--workers 1`): one core decides.
"""

from __future__ import annotations

import http.client
import json
import random
import statistics
import sys
import time
import urllib.parse

BOTS = {
    "strong": {"name": "strong", "seed": 1},
    "simple": {"name": "simple", "seed": 1},
    "random": {"name": "random", "seed": 1},
}


class Client:
    """One keep-alive connection to the service."""

    def __init__(self, base: str) -> None:
        parsed = urllib.parse.urlparse(base)
        self.connection = http.client.HTTPConnection(parsed.hostname, parsed.port)

    def post(self, path: str, body: dict) -> tuple[float, int, dict]:
        data = json.dumps(body).encode()
        started = time.perf_counter()
        self.connection.request(
            "POST", path, body=data, headers={"content-type": "application/json"}
        )
        response = self.connection.getresponse()
        payload = response.read()
        elapsed = time.perf_counter() - started
        return elapsed, response.status, json.loads(payload)


def deal(rng: random.Random) -> dict:
    ranks = "A23456789TJQK"
    deck = [rank + suit for suit in "SHDC" for rank in ranks]
    rng.shuffle(deck)
    return {"dealer": deck[0:10], "non_dealer": deck[10:20], "upcard": deck[20],
            "stock": deck[21:]}


def decisions(client: Client, hands: int) -> list[dict]:
    """Every decision with a choice of `hands` hands, strong v simple."""
    rng = random.Random(43)
    kept = []
    for index in range(hands):
        record = {"profile": "eaai", "deal": deal(rng), "actions": []}
        strong_seat = "dealer" if index % 2 else "non_dealer"
        for _ in range(400):
            _, status, state = client.post("/v1/hands/state", record)
            seat = state.get("to_act") if status == 200 else None
            if not seat:
                break
            asked = dict(record, seat=seat)
            _, status, seat_state = client.post("/v1/hands/state", asked)
            if len(seat_state.get("legal_actions", [])) > 1:
                kept.append(json.loads(json.dumps(asked)))
            bot = BOTS["strong" if seat == strong_seat else "simple"]
            _, status, answer = client.post("/v1/hands/move", dict(asked, bot=bot))
            if status != 200:
                raise SystemExit(f"move refused: {status} {answer}")
            record["actions"].append(answer["move"])
    return kept


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    base = sys.argv[1]
    hands = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    client = Client(base)
    kept = decisions(client, hands)
    print(f"{len(kept)} decisions with a choice, from {hands} eaai hands (strong v simple)")
    print("bot     | move median | move p99 | state median | move - state median | p99 | max")
    for name, bot in BOTS.items():
        moves, states, extra = [], [], []
        for asked in kept:
            state_time, status, _ = client.post("/v1/hands/state", asked)
            assert status == 200
            move_time, status, answer = client.post("/v1/hands/move", dict(asked, bot=bot))
            assert status == 200, answer
            moves.append(move_time)
            states.append(state_time)
            extra.append(move_time - state_time)
        us = 1e6
        print(f"{name:7} | {statistics.median(moves) * us:9.0f} us | "
              f"{percentile(moves, 0.99) * us:6.0f} us | {statistics.median(states) * us:8.0f} us | "
              f"{statistics.median(extra) * us:15.0f} us | {percentile(extra, 0.99) * us:6.0f} us | "
              f"{max(extra) * us:6.0f} us")


if __name__ == "__main__":
    main()
