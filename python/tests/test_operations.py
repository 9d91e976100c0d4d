"""The operations (one function per operationId): min_deadwood_many agrees
with analyze_hand, and problems come back as gin_referee.Problem.
(scripts/python/equality.py compares every operation with the running
service on generated requests.)"""

from __future__ import annotations

import json
import shutil
import subprocess

import numpy as np
import pytest

import gin_referee as gr
from conftest import dense_hands, masks_of, random_hands


def test_the_operations_are_compiled_in():
    assert gr.operations_available()


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
    # A float JSON cannot write is refused as the service refuses Python's
    # spelling of it.
    with pytest.raises(gr.Problem) as caught:
        gr.score_match({"players": ["a", "b"], "hands": [], "x": float("inf")})
    assert caught.value.code == "malformed_json"


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


SCORE = {
    "knocker": {"hand": ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"]},
    "defender": {"hand": ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH"]},
    "receipt": True,
}


def ed25519_pem(tmp_path) -> str:
    try:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    except ImportError:
        if shutil.which("openssl") is None:
            pytest.skip("neither the cryptography package nor openssl can make an Ed25519 key")
        path = tmp_path / "signing.pem"
        subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(path)],
                       check=True, capture_output=True)
        return path.read_text()
    return Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


def test_receipts_need_a_signing_key(tmp_path):
    gr.signing_key(None)
    with pytest.raises(gr.Problem) as caught:
        gr.score_hand(SCORE)
    assert (caught.value.code, caught.value.status) == ("signing_key_required", 422)
    gr.signing_key(ed25519_pem(tmp_path))
    try:
        answer = gr.score_hand(SCORE)
        header, claims, signature = answer["receipt"].split(".")
        assert header and claims and signature
        unsigned = gr.score_hand(dict(SCORE, receipt=False))
        assert {k: v for k, v in answer.items() if k != "receipt"} == {
            k: v for k, v in unsigned.items() if k != "receipt"
        }
    finally:
        gr.signing_key(None)
    with pytest.raises(gr.Problem):
        gr.score_hand(SCORE)
    with pytest.raises(ValueError) as bad:
        gr.signing_key("-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n")
    assert not isinstance(bad.value, gr.Problem)
