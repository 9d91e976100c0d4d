"""``gin_referee.pettingzoo``: PettingZoo's own ``api_test``, and an
observation that holds only what the agent may know (two deals that differ
only in cards it cannot know give equal observations)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from gin_referee import Hand, Problem  # noqa: E402
from gin_referee.pettingzoo import SEATS, env, raw_env  # noqa: E402


@pytest.mark.parametrize("profile", ["standard", "tournament", "oklahoma"])
def test_the_environment_passes_pettingzoos_api_test(profile, capsys):
    api_test(env(profile=profile), num_cycles=1000, verbose_progress=False)
    assert "Passed API test" in capsys.readouterr().out


def test_observations_hold_only_what_the_agent_may_know():
    rng = random.Random(4)
    compared = 0
    for seed in range(20):
        game = raw_env("tournament")
        game.reset(seed=seed)
        for _ in range(rng.randrange(1, 40)):
            if game.hand.outcome() is not None:
                break
            game.step(rng.choice(game.hand.legal_ids()))
        for agent, seat in SEATS.items():
            other = game.hand.resample(seat, seed)
            if other.state() == game.hand.state():
                continue
            swapped = game.observe(agent)
            game.hand, real = other, game.hand
            assert np.array_equal(game.observe(agent)["observation"], swapped["observation"])
            assert np.array_equal(game.observe(agent)["action_mask"], swapped["action_mask"])
            game.hand = real
            compared += 1
    assert compared >= 20


def test_rewards_are_the_hands_points_to_the_winner():
    deal = {
        "dealer": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"],
        "non_dealer": ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "KC"],
        "upcard": "TH",
        "stock": [],
    }
    game = raw_env("standard")
    game.reset(seed=0)
    game.hand = Hand("standard", deal=deal)
    for action in (52, 55, 25):  # take TH, knock, discard KC: gin
        game.step(action)
    points = game.hand.outcome()[1]
    # Gin: the bonus (25) and the dealer's deadwood (0, a run of ten).
    assert game.rewards == {"player_0": 25, "player_1": -25} and points == 25
    assert all(game.terminations.values())


def test_a_profile_with_jokers_is_refused():
    with pytest.raises(Problem):
        raw_env("jokers")
