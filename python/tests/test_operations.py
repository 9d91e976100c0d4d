"""The operations (one function per operationId): min_deadwood_many agrees
with analyze_hand, and problems come back as gin_referee.Problem."""

from __future__ import annotations

import json

import numpy as np
import pytest

import gin_referee as gr
from conftest import dense_hands, masks_of, random_hands

@pytest.mark.parametrize("kind, size", [("random", 10), ("dense", 10), ("random", 11), ("dense", 11)])
def test_min_deadwood_many_agrees_with_analyze_hand(rng, kind, size):
    make = random_hands if kind == "random" else dense_hands
    masks = masks_of(make(rng, 400, size=size))
    fast = gr.min_deadwood_many(masks)
    for mask, deadwood in zip(masks, fast):
        hand = gr.mask_cards(int(mask))
        answer = gr.analyze_hand({"hand": hand})
        assert answer["deadwood"] == deadwood, hand
        assert answer["gin"] == (deadwood == 0)
        assert answer["can_knock"] == (deadwood <= 10)


def test_bodies_as_dict_str_and_bytes_answer_alike():
    body = {"hand": ["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"]}
    as_dict = gr.analyze_hand(body)
    assert as_dict["deadwood"] == 25
    assert gr.analyze_hand(json.dumps(body)) == as_dict
    assert gr.analyze_hand(json.dumps(body).encode()) == as_dict


def test_refusals_are_problems():
    with pytest.raises(gr.Problem) as caught:
        gr.analyze_hand({"hand": ["7S", "7S", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"]})
    assert (caught.value.code, caught.value.status) == ("duplicate_card", 422)
    assert caught.value.problem["errors"][0]["pointer"] == "/hand/1"
    with pytest.raises(gr.Problem) as caught:
        gr.analyze_hand(b"{not json")
    assert (caught.value.code, caught.value.status) == ("malformed_json", 400)
    with pytest.raises(gr.Problem) as caught:
        gr.analyze_hand({"hand": ["AS"] * 10, "profile": "okla"})
    assert caught.value.code == "unknown_profile"


def test_every_operation_is_wired():
    for operation_id in gr.OPERATION_IDS:
        function = getattr(gr, operation_id)
        # An empty body: an answer, or the service's refusal (a missing field).
        try:
            assert isinstance(function({}), dict), operation_id
        except gr.Problem as problem:
            assert problem.status in (400, 422), (operation_id, problem)
        # Malformed JSON reaches the native side under every operation id.
        with pytest.raises(gr.Problem) as caught:
            function(b"[")
        assert caught.value.code == "malformed_json", operation_id


def test_a_body_no_json_can_say_is_malformed_json():
    for bad in [float("nan"), float("inf"), {1, 2}, object()]:
        with pytest.raises(gr.Problem) as caught:
            gr.analyze_hand({"hand": ["AS"] * 10, "upcard": bad})
        assert (caught.value.code, caught.value.status) == ("malformed_json", 400)


KNOCK = {
    "knocker": {"hand": ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"]},
    "defender": {"hand": ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH"]},
}


def test_receipts_need_a_signing_key():
    serialization = pytest.importorskip("cryptography.hazmat.primitives.serialization")
    ed25519 = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.ed25519")
    body = dict(KNOCK, receipt=True)
    gr.signing_key(None)
    with pytest.raises(gr.Problem) as caught:
        gr.score_hand(body)
    assert (caught.value.code, caught.value.status) == ("signing_key_required", 422)
    assert "receipt" not in gr.score_hand(KNOCK)
    pem = ed25519.Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    gr.signing_key(pem.decode())
    try:
        receipt = gr.score_hand(body)["receipt"]
        assert receipt.count(".") == 2  # a compact JWS
    finally:
        gr.signing_key(None)
    with pytest.raises(ValueError):
        gr.signing_key("not a key")


def test_hostile_bodies_are_refused_cheaply():
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF)
    # Over the body limit: refused before it is read.
    with pytest.raises(gr.Problem) as caught:
        gr.analyze_hand(b" " * (64 * 1024 + 1))
    assert (caught.value.code, caught.value.status) == ("payload_too_large", 413)
    # The match audit takes up to 1 MiB.
    with pytest.raises(gr.Problem) as caught:
        gr.audit_match(b" " * (1024 * 1024 + 1))
    assert caught.value.code == "payload_too_large"
    # Nesting past the parser's depth limit, within the size limit: no crash.
    for operation_id in gr.OPERATION_IDS:
        with pytest.raises(gr.Problem) as caught:
            getattr(gr, operation_id)(b"[" * 60_000)
        assert caught.value.status == 400, operation_id
    # A hand of a whole deck, repeated: a 422, not a search.
    with pytest.raises(gr.Problem) as caught:
        gr.analyze_hand({"hand": list(gr.CARDS) * 2})
    assert caught.value.status in (400, 422)
    after = resource.getrusage(resource.RUSAGE_SELF)
    # CPU, not wall-clock time: the bound is the cost of the work, whatever
    # else the machine runs (it is a few milliseconds; 2 s is far above it).
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert cpu < 2.0, cpu
    # ru_maxrss is in KiB on Linux: the refusals held well under 64 MiB more.
    assert after.ru_maxrss - before.ru_maxrss < 64 * 1024


def test_match_state_answers_a_match_in_play():
    deal = {"dealer": ["7S", "8S", "TS", "JD", "QH", "KH", "3C", "4C", "7H", "4S"],
            "non_dealer": ["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "KC"],
            "upcard": "2C", "stock": ["2H"]}
    actions = [{"player": "non_dealer", "action": "pass"},
               {"player": "dealer", "action": "pass"},
               {"player": "non_dealer", "action": "draw", "from": "stock"}]
    body = {"players": ["Ann", "Bob"],
            "hands": [{"dealer": "Ann", "deal": deal, "actions": actions}]}
    bob = gr.match_state(dict(body, seat="Bob"))
    assert (bob["phase"], bob["to_act"]) == ("play", ["Bob"])
    assert bob["tables"][0]["view"]["log"][2]["card"] == "2H"
    ann = gr.match_state(dict(body, seat="Ann"))
    assert "card" not in ann["tables"][0]["view"]["log"][2]
    assert ann["tables"][0]["legal_actions"] == []
    with pytest.raises(gr.Problem) as caught:
        gr.match_state(dict(body, seat="Cy"))
    assert (caught.value.code, caught.value.status) == ("unknown_player", 422)
