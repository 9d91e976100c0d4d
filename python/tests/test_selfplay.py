"""``gin_referee.Hand``: one engine with the transcript's referee.

The property: random hands under every preset, with one and two jokers and
the 50th-card rule, played through ``Hand`` by the moves it lists; at every
step ``hand.state(seat)`` equals ``hand_state`` of ``hand.record()`` for
every seat, and moves drawn at random (most of them illegal there) are
judged by ``audit_hand`` of the record plus the move: an illegal one raises
``Problem`` with the audit's violation code and leaves the hand unchanged,
a legal one is accepted by a copy. Then the rest of ``Hand``: the seed's
test vector, copies, pickling, resampling, refusals.
"""

from __future__ import annotations

import copy
import hashlib
import pickle
import random
import time

import pytest

from gin_referee import CARDS, Hand, Problem, audit_hand, hand_state

PROFILES = [
    "standard",
    "oklahoma",
    "straight",
    "tournament",
    "hollywood",
    "pagat",
    "schneider",
    "open-gin",
    "partnership",
    "jokers",
    "eaai",
    {"base": "jokers", "jokers": 1},
    {"base": "tournament", "jokers": 2, "joker_pickup_must_meld": True},
    {"base": "oklahoma", "stock_end": "fiftieth_card", "big_gin_bonus": 31},
]
HANDS_PER_PROFILE = 6
SEATS = (None, "dealer", "non_dealer")


def choose(entries: list, rng: random.Random) -> dict:
    """A listed move, knocking (and replying either way) often enough that
    knocks, replies and void hands all occur."""
    knocks = [e for e in entries if e["kind"] in ("knock", "big_gin")]
    if knocks and rng.random() < 0.6:
        return rng.choice(knocks)
    return rng.choice(entries)


def wrong_move(hand: Hand, rng: random.Random) -> dict:
    """A move of any kind by either seat: usually illegal now."""
    player = rng.choice(["dealer", "non_dealer"])
    deck = list(CARDS) + ["X1", "X2"]
    kind = rng.choice(["pass", "stock", "pile", "discard", "knock", "lay_off"])
    if kind == "pass":
        return {"player": player, "action": "pass"}
    if kind in ("stock", "pile"):
        source = "stock" if kind == "stock" else "discard_pile"
        return {"player": player, "action": "draw", "from": source}
    if kind == "discard":
        return {"player": player, "action": "discard", "card": rng.choice(deck)}
    if kind == "knock":
        return {"player": player, "action": "knock", "discard": rng.choice(deck)}
    return {"player": player, "action": "lay_off", "layoffs": []}


def check_wrong(hand: Hand, record: dict, move: dict) -> str:
    """Checks one move against the audit; says what it was."""
    body = dict(record, actions=record["actions"] + [move])
    try:
        audit = audit_hand(body)
    except Problem as refused:
        with pytest.raises(Problem) as raised:
            hand.apply(move)
        assert raised.value.code == refused.code
        assert hand.record() == record
        return "refused"
    if audit["violation"] is None:
        accepted = hand.copy()
        accepted.apply(move)
        assert accepted.record()["actions"][-1] == move or len(accepted.record()["actions"]) > len(
            record["actions"]
        )
        return "legal"
    before = hand.state()
    with pytest.raises(Problem) as raised:
        hand.apply(move)
    assert (raised.value.status, raised.value.code) == (422, audit["violation"]["code"])
    assert hand.state() == before and hand.record() == record
    return "illegal"


def test_a_held_hand_is_the_transcripts_referee_at_every_step():
    rng = random.Random(36)
    started = time.monotonic()
    counts = {"hands": 0, "states": 0, "illegal": 0, "legal": 0, "refused": 0}
    ends = set()
    for profile in PROFILES:
        for _ in range(HANDS_PER_PROFILE):
            hand = Hand(profile, seed=rng.getrandbits(64))
            while True:
                record = hand.record()
                for seat in SEATS:
                    body = dict(record, seat=seat) if seat else record
                    assert hand.state(seat) == hand_state(body)
                    counts["states"] += 1
                for _ in range(2):
                    counts[check_wrong(hand, record, wrong_move(hand, rng))] += 1
                entries = hand.legal_actions()
                if not entries:
                    break
                hand.apply(choose(entries, rng))
            result = hand.state()["result"]
            ends.add(result.get("outcome", "void") if result else "unfinished")
            counts["hands"] += 1
    elapsed = time.monotonic() - started
    print(f"{counts} ends {sorted(ends)} in {elapsed:.1f} s")
    assert counts["illegal"] > 1000 and counts["legal"] > 0 and counts["refused"] > 0
    assert {"knock", "void"} <= ends, ends


def test_a_seed_deals_through_the_documented_derivation():
    record = Hand(seed=0).record()
    server = hashlib.sha256(b"gin-referee/Hand/seed:0").hexdigest()
    assert record["deal"] == {
        "seeds": {"server_seed": server, "client_seed": "gin-referee/Hand", "nonce": 0},
        "commitment": hashlib.sha256(bytes.fromhex(server)).hexdigest(),
    }
    # The test vector: these cards in every version.
    view = Hand(seed=0).state()["view"]
    assert view["non_dealer"] == ["8S", "JS", "2H", "6H", "TH", "KH", "4D", "TD", "7C", "9C"]
    assert view["dealer"] == ["6S", "JH", "AD", "5D", "JD", "QD", "AC", "6C", "JC", "KC"]
    assert view["discard_pile"] == ["5S"]
    jokers = Hand("jokers", seed=2**64 - 1).state()["view"]["non_dealer"]
    assert jokers == ["3S", "4S", "QS", "9H", "4D", "7D", "9D", "TD", "KD", "KC"]


def test_copies_and_pickles_are_independent_and_equal():
    hand = Hand("tournament", seed=5)
    for _ in range(6):
        hand.apply_id(random.Random(len(hand.record()["actions"])).choice(hand.legal_ids()))
    for twin in (hand.copy(), copy.copy(hand), copy.deepcopy(hand), pickle.loads(pickle.dumps(hand))):
        assert twin.state() == hand.state() and twin.record() == hand.record()
        twin.apply_id(twin.legal_ids()[0])
        assert twin.record() != hand.record()
    # A knock pending between the 55 and its card survives pickling.
    hand = Hand("straight", deal={"dealer": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"],
                                  "non_dealer": ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "KC"],
                                  "upcard": "TH", "stock": []})
    hand.apply_id(52)
    assert 55 in hand.legal_ids()
    hand.apply_id(55)
    assert hand.legal_ids() == [CARDS.index("KC")]
    assert pickle.loads(pickle.dumps(hand)).legal_ids() == [CARDS.index("KC")]
    hand.apply_id(CARDS.index("KC"))
    assert hand.state()["phase"] == "over" and hand.outcome() == ("non_dealer", hand.outcome()[1])


def test_a_resample_keeps_what_the_seat_saw_and_deals_the_rest_again():
    hand = Hand("standard", seed=11)
    rng = random.Random(2)
    for _ in range(9):
        hand.apply_id(rng.choice(hand.legal_ids()))
    for seat in ("dealer", "non_dealer"):
        other = "non_dealer" if seat == "dealer" else "dealer"
        copies = [hand.resample(seat, n) for n in range(5)]
        for resampled in copies:
            assert resampled.state(seat) == hand.state(seat)
            assert resampled.observation(seat).tolist() == hand.observation(seat).tolist()
            record = resampled.record()
            assert hand_state(dict(record, seat=seat)) == resampled.state(seat)
        others = {tuple(c.state()["view"][other]) for c in copies}
        assert len(others) > 1
        assert hand.resample(seat, 3).record() == hand.resample(seat, 3).record()


def test_refusals_are_problems_and_change_nothing():
    hand = Hand(seed=1)
    with pytest.raises(Problem) as raised:
        hand.apply({"player": "dealer", "action": "fold"})
    assert (raised.value.status, raised.value.code) == (400, "invalid_body")
    with pytest.raises(Problem) as raised:
        hand.apply_id(53)
    assert (raised.value.code, raised.value.problem["errors"][0]["pointer"]) == (
        "upcard_offer_violated", "")
    for bad in (56, -1, 2**70):
        with pytest.raises((Problem, OverflowError)):
            hand.apply_id(bad)
    with pytest.raises(Problem) as raised:
        Hand("jokers", seed=1).legal_ids()
    assert raised.value.code == "invalid_profile_combination"
    with pytest.raises(Problem) as raised:
        Hand("nonsense", seed=1)
    assert raised.value.code == "unknown_profile"
    with pytest.raises(Problem) as raised:
        Hand(seed=-1)
    assert raised.value.code == "invalid_body"
    with pytest.raises(Problem):
        Hand()
    seeded = Hand(seed=1).record()["deal"]
    seeded["commitment"] = "0" * 64
    with pytest.raises(Problem) as raised:
        Hand(deal=seeded)
    assert (raised.value.status, raised.value.code) == (422, "deal_commitment_mismatch")
    assert hand.record()["actions"] == []
