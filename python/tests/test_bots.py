"""The referee plays: move_hand and move_match (one function per
operationId, as the service answers them) and Hand.bot_id, the OpenSpiel id
a bot plays now for a held hand."""

from __future__ import annotations

import pytest

import gin_referee as gr
from gin_referee import Hand

BOTS = ("random", "simple", "strong")


def test_move_hand_answers_a_listed_move_of_the_seat():
    hand = Hand(seed=11)
    record = hand.record()
    seat = hand.to_act()
    answer = gr.move_hand(dict(record, seat=seat, bot={"name": "simple", "seed": 3}))
    listed = gr.hand_state(dict(record, seat=seat))["legal_actions"]
    entry = {k: v for k, v in answer.items() if k != "bot"}
    assert entry in listed
    assert answer["bot"] == {"name": "simple", "seed": 3}


def test_move_hand_refuses_a_seat_not_to_act_and_a_knob_out_of_bounds():
    hand = Hand(seed=11)
    record = hand.record()
    waiting = "dealer" if hand.to_act() == "non_dealer" else "non_dealer"
    with pytest.raises(gr.Problem) as caught:
        gr.move_hand(dict(record, seat=waiting, bot={"name": "simple"}))
    assert (caught.value.code, caught.value.status) == ("not_to_act", 422)
    with pytest.raises(gr.Problem) as caught:
        gr.move_hand(dict(record, seat=hand.to_act(), bot={"name": "strong", "samples": 0}))
    assert (caught.value.code, caught.value.status) == ("invalid_body", 400)
    assert caught.value.problem["errors"][0]["pointer"] == "/bot/samples"


def test_move_match_answers_the_players_table():
    hand = Hand(seed=5).record()
    body = {
        "profile": "eaai",
        "players": ["Ann", "Bob"],
        "hands": [{"dealer": "Ann", "deal": hand["deal"], "actions": []}],
        "seat": "Bob",
        "bot": {"name": "random", "seed": 1},
    }
    answer = gr.move_match(body)
    assert answer["table"] == 0
    assert answer["move"]["player"] == "non_dealer"
    with pytest.raises(gr.Problem) as caught:
        gr.move_match(dict(body, seat="Ann"))
    assert caught.value.code == "not_to_act"


@pytest.mark.parametrize("bot", BOTS)
def test_bot_id_plays_whole_hands_as_move_hand_answers(bot):
    for seed in range(3):
        hand = Hand(seed=seed)
        steps = 0
        while hand.to_act() is not None and steps < 200:
            record = hand.record()
            seat = hand.to_act()
            # strong's default search in a debug build is slow: a few hands.
            played = hand.bot_id(bot, seed)
            assert played in hand.legal_ids()
            answer = gr.move_hand(dict(record, seat=seat, bot={"name": bot, "seed": seed},
                                       openspiel=True))
            expected = answer.get("openspiel_action")
            if expected is None:
                expected = answer["openspiel_actions"][0]
            assert played == expected
            hand.apply_id(played)
            if played == 55 and hand.to_act() == seat:
                card = hand.bot_id(bot, seed)
                if "openspiel_actions" in answer:
                    assert card == answer["openspiel_actions"][1]
                hand.apply_id(card)
            steps += 1
        assert hand.to_act() is None
        with pytest.raises(gr.Problem) as caught:
            hand.bot_id(bot, seed)
        assert caught.value.code == "not_to_act"


def test_bot_id_refuses_an_unknown_bot():
    with pytest.raises(gr.Problem) as caught:
        Hand(seed=1).bot_id("genius")
    assert caught.value.problem["errors"][0]["pointer"] == "/bot/name"
