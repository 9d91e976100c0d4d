"""Card masks: OpenSpiel's id order, every spelling, round trips, and the
problems bad input raises."""

from __future__ import annotations

import numpy as np
import pytest

import gin_referee as gr


def test_openspiel_ids_follow_suit_times_13_plus_rank():
    # OpenSpiel's gin_rummy: suits s, c, d, h; ranks A..K as 0..12.
    table = {0: "AS", 1: "2S", 12: "KS", 13: "AC", 22: "TC", 26: "AD", 38: "KD",
             39: "AH", 49: "JH", 50: "QH", 51: "KH"}
    for card_id, card in table.items():
        assert gr.card_mask([card]) == 1 << card_id
        assert gr.mask_cards(1 << card_id) == [card]
        assert gr.CARDS[card_id] == card


def test_all_52_ids_round_trip():
    assert len(set(gr.CARDS)) == 52
    for card_id in range(52):
        card = gr.mask_cards(1 << card_id)
        assert card == [gr.CARDS[card_id]]
        assert gr.card_mask(card) == 1 << card_id
    full = (1 << 52) - 1
    assert gr.card_mask(gr.CARDS) == full
    assert gr.mask_cards(full) == list(gr.CARDS)
    assert gr.mask_cards(0) == []


def test_every_spelling_the_service_reads():
    for text in ["TS", "ts", "10S", "10s", "T♠", "t♠", "10♠", "10♤"]:
        assert gr.card_mask([text]) == 1 << 9, text
    assert gr.card_mask("7h 8H 9♥") == gr.card_mask(["7H", "8H", "9H"])
    assert gr.card_mask(iter(["AS", "2S"])) == 0b11
    assert gr.card_mask([]) == 0


def problem_of(call, *args, **kwargs) -> gr.Problem:
    with pytest.raises(gr.Problem) as caught:
        call(*args, **kwargs)
    problem = caught.value
    assert isinstance(problem, ValueError)
    assert problem.problem["code"] == problem.code
    assert problem.problem["status"] == problem.status
    assert problem.problem["type"] == f"/problems/{problem.code}"
    assert set(problem.problem) >= {"type", "title", "status", "detail", "code"}
    return problem


def test_bad_cards_raise_the_services_problems():
    problem = problem_of(gr.card_mask, ["7S", "1X"])
    assert (problem.code, problem.status) == ("invalid_body", 400)
    assert problem.problem["errors"][0]["pointer"] == "/1"
    assert problem.problem["errors"][0]["code"] == "invalid_value"
    assert "1X" in problem.problem["detail"]

    problem = problem_of(gr.card_mask, ["7S", "8S", "7s"])
    assert (problem.code, problem.status) == ("duplicate_card", 422)
    assert problem.problem["errors"][0]["pointer"] == "/2"

    problem = problem_of(gr.card_mask, ["7S", 7])
    assert (problem.code, problem.problem["errors"][0]["code"]) == ("invalid_body", "invalid_type")

    problem = problem_of(gr.card_mask, ["X1"])
    assert (problem.code, problem.status) == ("joker_not_in_deck", 422)

    for bad in [-1, 1 << 70, "AS"]:
        assert problem_of(gr.mask_cards, bad).code == "invalid_body"
    for bad in [1 << 52, 1 << 63]:
        assert problem_of(gr.mask_cards, bad).code == "invalid_value"


def ten_card_mask(offset: int = 0) -> int:
    return sum(1 << (offset + i) for i in range(10))


@pytest.mark.parametrize(
    "bad, code, status",
    [
        (sum(1 << i for i in range(9)), "wrong_card_count", 422),
        (sum(1 << i for i in range(12)), "wrong_card_count", 422),
        (ten_card_mask() | 1 << 52, "invalid_value", 400),
        (ten_card_mask() | 1 << 63, "invalid_value", 400),
    ],
)
def test_bad_masks_name_their_index(bad, code, status):
    masks = np.array([ten_card_mask(), ten_card_mask(20), bad, 0], dtype=np.uint64)
    problem = problem_of(gr.min_deadwood_many, masks)
    assert (problem.code, problem.status) == (code, status)
    assert "mask 2 " in problem.detail  # the first bad one, not mask 3
    assert problem.problem["errors"][0]["pointer"] == "/2"
    if code == "invalid_value":
        assert problem.problem["errors"][0]["code"] == "invalid_value"
        assert f"bit {52 if bad >> 52 & 1 else 63}" in problem.detail


def test_other_bad_arguments():
    masks = np.array([ten_card_mask()], dtype=np.uint64)
    problem = problem_of(gr.min_deadwood_many, masks, profile="okla")
    assert (problem.code, problem.status) == ("unknown_profile", 400)
    problem = problem_of(gr.min_deadwood_many, np.array([ten_card_mask(), -5], dtype=np.int64))
    assert problem.code == "invalid_value" and "mask 1" in problem.detail
    assert problem_of(gr.min_deadwood_many, np.zeros((2, 2), dtype=np.uint64)).code == "invalid_body"
    assert problem_of(gr.min_deadwood_many, np.array([1.5])).code == "invalid_body"


def test_knock_limits():
    assert gr.knock_limit() == 10
    assert gr.knock_limit("straight") == 0
    assert gr.knock_limit("oklahoma", "7d") == 7
    assert gr.knock_limit("oklahoma", "QD") == 10
    assert gr.knock_limit("oklahoma", "AS") == 0
    assert problem_of(gr.knock_limit, "oklahoma").code == "upcard_required"
    assert problem_of(gr.knock_limit, "nope").code == "unknown_profile"
    assert problem_of(gr.knock_limit, "oklahoma", "1X").code == "invalid_body"


def test_a_problem_survives_pickling():
    import pickle

    problem = problem_of(gr.card_mask, ["7S", "7S"])
    again = pickle.loads(pickle.dumps(problem))
    assert isinstance(again, gr.Problem)
    assert (again.code, again.status, again.problem) == (problem.code, problem.status, problem.problem)
    assert str(again) == str(problem)
