"""``gin_referee.pettingzoo``: a PettingZoo AEC environment over :class:`gin_referee.Hand`.

One hand of gin rummy per episode, played with OpenSpiel's action ids 0-55
(see ``Hand.legal_ids``): the referee plays the knocker's best melds and the
defender's best reply, so every decision is a draw, a discard, a pass or a
knock. Install PettingZoo (``pip install 'gin-referee[selfplay]'``).

* Agents ``player_0`` (the non-dealer, who acts first: OpenSpiel's player 0)
  and ``player_1`` (the dealer).
* Observation: a dict with ``observation``, an ``int8`` array (5, 52) of
  what the agent may know (planes: its hand, the top of the discard pile,
  the rest of the pile, the opponent's cards it saw taken from the pile,
  every card it cannot see; columns are OpenSpiel card ids, ``suit * 13 +
  rank`` with suits spades, clubs, diamonds, hearts), and ``action_mask``,
  an ``int8`` array of 56 (all zeros for the agent not to act).
* Rewards, at the end only: the winner gets the hand's points (knock,
  gin, undercut and their bonuses under the profile), the loser their
  negative; a void hand gives both 0. An illegal action ends the episode
  with -1 for the agent that took it (PettingZoo's
  ``TerminateIllegalWrapper``, as ``gin_rummy_v4``).
* ``reset(seed=n)`` makes the episode's deals reproducible: each hand is
  ``Hand(profile, seed=k)`` with ``k`` drawn from a generator seeded with
  ``n``.
"""

from __future__ import annotations

import random
from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._native import Hand

__all__ = ["env", "raw_env"]

#: The agents, and the seat each plays.
SEATS = {"player_0": "non_dealer", "player_1": "dealer"}
AGENTS = {seat: agent for agent, seat in SEATS.items()}
#: OpenSpiel's ids 0-55.
ACTIONS = 56


def env(profile: Any = "standard", render_mode: Optional[str] = None) -> AECEnv:
    """The environment under PettingZoo's standard wrappers (as ``gin_rummy_v4``)."""
    wrapped: AECEnv = raw_env(profile=profile, render_mode=render_mode)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):
    """One hand of gin rummy under ``profile`` (a preset name or an object,
    joker-free), without wrappers."""

    metadata = {"render_modes": [], "name": "gin_referee_v0", "is_parallelizable": False}

    def __init__(self, profile: Any = "standard", render_mode: Optional[str] = None) -> None:
        super().__init__()
        self.profile = profile
        self.render_mode = render_mode
        # Refuses a profile with jokers (no OpenSpiel ids) at once.
        Hand(profile, seed=0).legal_ids()
        self.possible_agents = list(SEATS)
        self.agents = self.possible_agents[:]
        observation = spaces.Dict(
            {
                "observation": spaces.Box(low=0, high=1, shape=(5, 52), dtype=np.int8),
                "action_mask": spaces.Box(low=0, high=1, shape=(ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(ACTIONS) for agent in self.possible_agents}
        self._deals = random.Random()
        self._idle = np.zeros(ACTIONS, dtype=np.int8)
        self.hand: Optional[Hand] = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if seed is not None:
            self._deals.seed(seed)
        self.hand = Hand(self.profile, seed=self._deals.getrandbits(64))
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = AGENTS[self.hand.to_act()]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        hand = self.hand
        if hand is None:
            raise RuntimeError("reset() the environment before observing it")
        if agent == self.agent_selection and not self.terminations[agent]:
            mask = hand.action_mask().view(np.int8)
        else:
            mask = self._idle
        return {"observation": hand.observation(SEATS[agent]), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        hand = self.hand
        if hand is None:
            raise RuntimeError("reset() the environment before stepping it")
        hand.apply_id(int(action))
        self._cumulative_rewards[agent] = 0
        outcome = hand.outcome()
        if outcome is None:
            self.agent_selection = AGENTS[hand.to_act()]
        else:
            winner, points = outcome
            for other in self.agents:
                won = winner is not None and SEATS[other] == winner
                self.rewards[other] = points if won else -points if winner else 0
                self.terminations[other] = True
        self._accumulate_rewards()

    def render(self) -> None:
        """Nothing to draw: read ``self.hand.state()``."""
        return None

    def close(self) -> None:
        return None
