"""One fault, one problem, in the module as over HTTP: a knock at fault gets
the same problem whether or not the defender holds a joker that plays no
part in it (and under ``standard`` as under ``jokers``), and the audit of a
hand whose knock or reply has that fault names the same code, says the
scorer's words and points at the same field of its action."""

from __future__ import annotations

import pytest

import gin_referee as gr

KNOCKER = ["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]
DEFENDER = ["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]

TWICE = ["3H", "3H"] + KNOCKER[2:]
BOTH = ["6H", "9S"] + DEFENDER[2:]

# name, knocker side, defender hand, the rest of the defender side, code, pointer, message
FAULTS = [
    ("a card twice in a hand", {"hand": TWICE}, DEFENDER, {}, "duplicate_card",
     "/knocker/hand/1", "the card 3H appears more than once"),
    ("a card in both hands", {"hand": KNOCKER}, BOTH, {}, "duplicate_card",
     "/defender/hand/1", "9S is in both hands"),
    ("a declared meld with a card not held",
     {"hand": KNOCKER, "melds": [["3H", "4H", "5H"], ["9S", "9H", "9D", "9C"]]}, DEFENDER, {},
     "invalid_melds", "/knocker/melds/1/3", "9C is not in the hand"),
    ("a layoff of a card not held", {"hand": KNOCKER}, DEFENDER,
     {"layoffs": [{"card": "QS", "meld": 0}]}, "layoff_card_not_in_hand",
     "/defender/layoffs/0", "layoff 0: QS is not in the defender's hand"),
    ("a layoff onto no meld", {"hand": KNOCKER}, DEFENDER,
     {"layoffs": [{"card": "6H", "meld": 7}]}, "layoff_meld_not_found",
     "/defender/layoffs/0", None),
]


def problem_of(call, body):
    with pytest.raises(gr.Problem) as caught:
        call(body)
    return caught.value


@pytest.mark.parametrize("fault", FAULTS, ids=[f[0] for f in FAULTS])
def test_one_fault_one_problem_whatever_the_joker(fault):
    _, knocker, defender, rest, code, pointer, message = fault
    with_joker = ["X1" if card == "5S" else card for card in defender]
    problems = []
    for profile, hand in [("standard", defender), ("jokers", defender), ("jokers", with_joker)]:
        body = {"profile": profile, "knocker": knocker, "defender": {"hand": hand, **rest}}
        problem = problem_of(gr.score_hand, body)
        assert (problem.status, problem.code) == (422, code)
        problems.append(problem.problem)
    assert problems[0] == problems[1] == problems[2]
    first = problems[0]["errors"][0]
    assert first["pointer"] == pointer
    if message is not None:
        assert first["message"] == message


DEAL = {
    "dealer": ["7S", "8S", "TS", "JD", "QH", "KH", "3C", "4C", "7H", "4S"],
    "non_dealer": ["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "KC"],
    "stock": ["2H"],
    "upcard": "2C",
}
MELDS = [["AS", "2S", "3S"], ["4H", "5H", "6H"], ["9C", "9D", "9H"]]
AUDITED = [
    ([["AS", "2S", "3S"], ["4H", "5H", "6H"], ["9C", "9D", "9H", "9S"]], None),
    ([["AS", "2S", "3S"]], None),
    (MELDS, [{"card": "QS", "meld": 0}]),
    (MELDS, [{"card": "7S", "meld": 0}]),
]


@pytest.mark.parametrize("declared, layoffs", AUDITED)
def test_the_audit_says_the_scorers_fault_at_its_action(declared, layoffs):
    actions = [
        {"player": "non_dealer", "action": "pass"},
        {"player": "dealer", "action": "pass"},
        {"player": "non_dealer", "action": "draw", "from": "stock", "card": "2H"},
        {"player": "non_dealer", "action": "knock", "discard": "KC", "melds": declared},
    ]
    defender = {"hand": DEAL["dealer"]}
    if layoffs is not None:
        actions.append({"player": "dealer", "action": "lay_off", "layoffs": layoffs})
        defender["layoffs"] = layoffs
    knocker = {"hand": DEAL["non_dealer"][:9] + ["2H"], "melds": declared}
    problem = problem_of(gr.score_hand, {"knocker": knocker, "defender": defender}).problem
    violation = gr.audit_hand({"deal": DEAL, "actions": actions})["violation"]
    assert violation["code"] == problem["code"]
    first = problem["errors"][0]
    tail = first["pointer"].split("/", 2)[2]
    assert violation["pointer"] == f"/actions/{len(actions) - 1}/{tail}"
    assert first["message"] in violation["message"]
