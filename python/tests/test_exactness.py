"""min_deadwood_many against an independent brute force, on random and dense
hands of 10 and 11 cards, and on the rules crate's oracle hands."""

from __future__ import annotations

import pathlib
import re

import numpy as np
import pytest

import gin_referee as gr
from conftest import brute_min_deadwood, dense_hands, masks_of, random_hands


def test_the_brute_force_knows_the_rules_examples():
    # docs and the library's own examples: the seven of hearts goes to the run.
    ids = [gr.CARDS.index(c) for c in "7S 7H 7D 7C 8H 9H KS QD 2C 3D".split()]
    assert brute_min_deadwood(ids) == 25
    gin = [gr.CARDS.index(c) for c in "6S 6D 6C 6H 3H 4H 5H 7H 8H 9H".split()]
    assert brute_min_deadwood(gin) == 0
    # No wrap-around: Q-K-A of spades is no run.
    wrap = [gr.CARDS.index(c) for c in "QS KS AS 2H 4H 6H 8D TD 3C 5C".split()]
    assert brute_min_deadwood(wrap) == 10 + 10 + 1 + 2 + 4 + 6 + 8 + 10 + 3 + 5


@pytest.mark.parametrize("kind", ["random", "dense"])
def test_ten_cards_match_the_brute_force(rng, kind):
    make = random_hands if kind == "random" else dense_hands
    rows = make(rng, 2500)
    got = gr.min_deadwood_many(masks_of(rows))
    assert got.dtype == np.uint16 and got.shape == (len(rows),)
    expected = [brute_min_deadwood(list(row)) for row in rows]
    wrong = [(gr.mask_cards(int(m)), g, e) for m, g, e in zip(masks_of(rows), got, expected) if g != e]
    assert not wrong, wrong[:5]
    if kind == "dense":
        # The dense hands really are dense: many gins and low counts.
        assert (got == 0).sum() > 50


@pytest.mark.parametrize("kind", ["random", "dense"])
def test_eleven_cards_are_the_best_discard(rng, kind):
    make = random_hands if kind == "random" else dense_hands
    rows = make(rng, 600, size=11)
    got = gr.min_deadwood_many(masks_of(rows))
    # Each discard's ten cards, solved by the module itself ...
    tens = np.array([np.delete(row, i) for row in rows for i in range(11)])
    by_discard = gr.min_deadwood_many(masks_of(tens)).reshape(len(rows), 11).min(axis=1)
    assert np.array_equal(got, by_discard)
    # ... and by the brute force for some of them.
    for row, value in list(zip(rows, got))[:150]:
        assert value == min(brute_min_deadwood(list(np.delete(row, i))) for i in range(11))


def test_ten_and_eleven_mix_in_one_array(rng):
    ten = masks_of(random_hands(rng, 50))
    eleven = masks_of(random_hands(rng, 50, size=11))
    mixed = np.empty(100, dtype=np.uint64)
    mixed[0::2], mixed[1::2] = ten, eleven
    got = gr.min_deadwood_many(mixed)
    assert np.array_equal(got[0::2], gr.min_deadwood_many(ten))
    assert np.array_equal(got[1::2], gr.min_deadwood_many(eleven))


def test_every_preset_counts_alike_and_inputs_convert(rng):
    masks = masks_of(dense_hands(rng, 200))
    standard = gr.min_deadwood_many(masks)
    for preset in ["oklahoma", "straight", "tournament", "hollywood", "pagat",
                   "schneider", "open-gin", "partnership", "jokers", "eaai"]:
        assert np.array_equal(gr.min_deadwood_many(masks, profile=preset), standard)
    assert np.array_equal(gr.min_deadwood_many(masks.astype(np.int64)), standard)
    assert np.array_equal(gr.min_deadwood_many([int(m) for m in masks]), standard)
    assert np.array_equal(gr.min_deadwood_many(masks[::-1][::-1].copy()), standard)
    # A strided view is read correctly too.
    doubled = np.repeat(masks, 2)
    assert np.array_equal(gr.min_deadwood_many(doubled[::2]), standard)
    assert gr.min_deadwood_many(np.zeros(0, dtype=np.uint64)).shape == (0,)


@pytest.mark.parametrize("size", [10, 11])
def test_openspiel_agrees(rng, size):
    """OpenSpiel's own GinRummyUtils (a second, independent implementation)
    gives the same counts, on its own card ids.

    Eleven cards are the exception: OpenSpiel takes the best meld group of
    all eleven and then drops the highest deadwood card
    (GinRummyUtils::MinDeadwood), which misses the best discard when breaking
    a meld does better. There it may only count more, and the brute force
    sides with us."""
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install open_spiel)")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    assert [utils.card_string(i) for i in (0, 13, 26, 39, 51)] == ["As", "Ac", "Ad", "Ah", "Kh"]
    random_rows, dense_rows = random_hands(rng, 1500, size), dense_hands(rng, 1500, size)
    for rows, exact in [(random_rows, True), (dense_rows, size == 10)]:
        ours = gr.min_deadwood_many(masks_of(rows))
        theirs = np.array([utils.min_deadwood([int(c) for c in row]) for row in rows])
        if exact:
            assert np.array_equal(ours, theirs)
            continue
        assert (ours <= theirs).all()
        differ = np.flatnonzero(ours != theirs)
        for index in differ:
            row = [int(c) for c in rows[index]]
            assert ours[index] == min(brute_min_deadwood(row[:i] + row[i + 1:]) for i in range(11))


ORACLE = pathlib.Path(__file__).resolve().parents[2] / "crates/gin-rules/tests/properties/oracle.rs"


def oracle_hands():
    """The hand-made hands of the rules crate's brute-force oracle: each
    `check("...")` with its expected least deadwood (read from its source, so
    the two lists cannot drift apart), and each 11-card hand it checks."""
    text = ORACLE.read_text(encoding="utf-8")
    checked = []
    for hand, expected in re.findall(r'check\("([^"]*)"\),\s*([0-9+ ]+)\)', text):
        checked.append((hand.split(), sum(int(term) for term in expected.split("+"))))
    drawn = [hand.split() for hand in
             re.findall(r'assert_drawn_hand_matches_oracle\(&parse_hand\("([^"]*)"\)\)', text)]
    return checked, drawn


def ids_of(hand):
    mask = gr.card_mask(hand)
    return [i for i in range(52) if mask >> i & 1]


def test_the_rules_crates_oracle_hands_agree():
    checked, drawn = oracle_hands()
    tens = [(hand, expected) for hand, expected in checked if len(hand) == 10]
    assert len(tens) >= 8 and len(drawn) >= 3, (len(tens), len(drawn))
    for hand, expected in tens:
        [deadwood] = gr.min_deadwood_many(np.array([gr.card_mask(hand)], dtype=np.uint64))
        assert deadwood == expected, hand
        assert gr.analyze_hand({"hand": hand})["deadwood"] == expected, hand
        assert brute_min_deadwood(ids_of(hand)) == expected, hand
    for hand in drawn:
        [deadwood] = gr.min_deadwood_many(np.array([gr.card_mask(hand)], dtype=np.uint64))
        answer = gr.analyze_hand({"hand": hand})
        assert deadwood == answer["deadwood"], hand
        assert deadwood == min(
            brute_min_deadwood(ids_of(hand[:i] + hand[i + 1:])) for i in range(len(hand))
        ), hand
