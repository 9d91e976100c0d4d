"""OpenSpiel's ``gin_rummy`` played through ``gin_referee.Hand`` by id: the
same deal dealt to both (OpenSpiel's chance outcomes are the deck's cards
in order: ten to its player 0, our non-dealer, ten to player 1, the
upcard, then each stock draw), the same random legal ids applied to both,
and at every decision point before the knock's melds the legal ids agree
but for the one difference between the rules, named here:

* OpenSpiel lets a player discard the card it just took from the discard
  pile (the upcard too), or knock with it; the referee refuses both
  (``discard_just_taken``). So right after a take, OpenSpiel lists that
  card's id, and may list 55 where only that knock would be in reach.

OpenSpiel's meld and layoff steps (ids 56-240) are not compared: ``Hand``
plays the knocker's best melds and the defender's best reply itself.
"""

from __future__ import annotations

import random

import pytest

from gin_referee import CARDS, Hand, card_mask, min_deadwood_many

pyspiel = pytest.importorskip("pyspiel")

#: OpenSpiel's parameters and the profile that plays the same rules: the
#: tournament's 50th-card rule is OpenSpiel's wall.
RULES = [
    ({}, "tournament"),
    ({"oklahoma": True}, {"base": "oklahoma", "stock_end": "fiftieth_card"}),
    ({"knock_card": 0}, {"base": "straight", "stock_end": "fiftieth_card"}),
]
GAMES = 60
TAKE, KNOCK = 52, 55


def choose(hand: Hand, ids: list, rng: random.Random) -> int:
    """Mostly the knock when in reach, and the discard leaving the least
    deadwood: random play alone rarely comes near a knock."""
    if KNOCK in ids and rng.random() < 0.9:
        return KNOCK
    discards = [i for i in ids if i < TAKE]
    if not discards or rng.random() < 0.2:
        return rng.choice(ids)
    held = card_mask(hand.state(hand.to_act())["view"]["hand"])
    left = min_deadwood_many([held & ~(1 << i) for i in discards])
    return discards[int(left.argmin())]


def play(seed: int, params: dict, profile) -> tuple:
    """One game; the decision points compared, those with the known
    difference, and the knocks."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    state = pyspiel.load_game("gin_rummy", params).new_initial_state()
    for card in deck[:21]:
        state.apply_action(card)
    names = lambda ids: [CARDS[i] for i in ids]  # noqa: E731
    deal = {
        "non_dealer": names(deck[:10]),
        "dealer": names(deck[10:20]),
        "upcard": CARDS[deck[20]],
        "stock": names(deck[21:]),
    }
    hand = Hand(profile, deal=deal)
    stock = iter(deck[21:])
    taken = None
    compared = differing = knocks = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(next(stock))
            continue
        ours = hand.legal_ids()
        if hand.to_act() is None:
            break
        theirs = [a for a in state.legal_actions() if a < 56]
        expected = [a for a in theirs if a != taken]
        if taken is not None and KNOCK not in ours:
            expected = [a for a in expected if a != KNOCK]
        assert ours == expected, (seed, params, hand.record(), theirs)
        compared += 1
        differing += ours != theirs
        action = choose(hand, ours, rng)
        knocks += action == KNOCK
        before = hand.state()
        state.apply_action(action)
        hand.apply_id(action)
        # 52 takes the top card; so does 55 at the 50th-card offer.
        if action == TAKE or (action == KNOCK and before["phase"] == "last_discard_offer"):
            taken = CARDS.index(before["view"]["discard_pile"][0])
        elif action != KNOCK:
            taken = None
    return compared, differing, knocks


@pytest.mark.parametrize("params,profile", RULES, ids=["standard", "oklahoma", "straight"])
def test_openspiel_and_the_referee_list_the_same_ids(params, profile):
    compared = differing = knocks = 0
    for seed in range(GAMES):
        c, d, k = play(seed, params, profile)
        compared += c
        differing += d
        knocks += k
    # Every game reaches decisions, and the known difference does occur.
    assert compared > GAMES * 30 and 0 < differing < compared / 2, (compared, differing)
    # Knocks are compared too (the knock's discards); straight has none.
    assert knocks > (0 if params.get("knock_card") == 0 else GAMES / 4), knocks
    print(f"{profile}: {compared} decision points, {differing} with the known difference, "
          f"{knocks} knocks")
