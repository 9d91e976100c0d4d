"""``gin_referee.vector``: many hands stepped at once in Rust.

:class:`GinVectorEnv` holds ``num_envs`` hands in the compiled module and
steps them together across threads without the GIL, writing one row per
hand into NumPy arrays allocated once (pgx's ``(batch, ...)`` shape). Each
hand is the engine of :class:`gin_referee.Hand` played by OpenSpiel's ids:
row ``i``'s trajectory under the same ids is ``Hand(profile, seed=s + i)``'s
(then ``Hand(profile, seed=s + i + k * num_envs)`` for its ``k``-th deal
after the reset), observations, masks, rewards and the knock in two ids.

The arrays are reused from step to step: copy what you keep.

:func:`make` wraps it as a ``gymnasium.vector.VectorEnv`` for one learner
against a built-in bot (install the ``selfplay`` extra).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

from ._native import _HandBatch

__all__ = ["GinVectorEnv", "make"]

#: OpenSpiel's ids 0-55.
ACTIONS = 56


class GinVectorEnv:
    """``num_envs`` hands of gin rummy under ``profile`` (joker-free; a
    profile with jokers raises ``Problem``), dealt from ``seed``, stepped
    over ``threads`` threads (default: the machine's cores).

    ``reset(seed=None)`` answers ``(observation, info)``; ``step(actions)``
    (one OpenSpiel id per hand, for the seat to act in it) answers
    ``(observation, reward, terminated, truncated, info)``:

    * ``observation``: ``(num_envs, 5, 52)`` int8, ``Hand.observation`` of
      the seat to act (on the step that ends a hand, of the seat that moved
      last);
    * ``reward``: ``(num_envs, 2)`` float32, the hand's points to the
      non-dealer (column 0) and the dealer (column 1) on the step that ends
      it, the winner's points and their negative, else 0;
    * ``terminated``, ``truncated``: ``(num_envs,)`` bool (a hand always
      ends: ``truncated`` stays False);
    * ``info["action_mask"]``: ``(num_envs, 56)`` bool, the ids listed for
      the seat to act (none on a row that just ended);
      ``info["current_player"]``: ``(num_envs,)`` int8, the seat the row's
      observation is for (0 the non-dealer, 1 the dealer).

    A hand that ends is dealt again on the next step, whose id for that row
    is ignored (Gymnasium's next-step autoreset). An id not in the mask
    (any int) ends that hand only: ``terminated``, -1 to the seat that sent
    it, 0 to the other.
    """

    metadata = {"autoreset_mode": "next_step"}

    def __init__(
        self,
        num_envs: int,
        profile: Any = "standard",
        seed: int = 0,
        threads: Optional[int] = None,
    ) -> None:
        self._batch = _HandBatch(num_envs, profile, seed, threads)
        self.num_envs: int = self._batch.num_envs
        self.threads: int = self._batch.threads
        self.profile = profile
        self.observation: np.ndarray = self._batch.observation
        self.reward: np.ndarray = self._batch.reward
        self.terminated: np.ndarray = self._batch.terminated
        self.truncated: np.ndarray = self._batch.truncated
        self.action_mask: np.ndarray = self._batch.action_mask
        self.current_player: np.ndarray = self._batch.current_player

    def _info(self) -> Dict[str, np.ndarray]:
        return {"action_mask": self.action_mask, "current_player": self.current_player}

    def reset(
        self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, np.ndarray]]:
        """Deals every hand afresh from ``seed`` (the constructor's when None)."""
        self._batch.reset(seed)
        return self.observation, self._info()

    def step(
        self, actions: Any
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, np.ndarray]]:
        """Applies one OpenSpiel id per hand (any int array of ``num_envs``)."""
        ids = np.asarray(actions)
        if ids.dtype != np.int64:
            ids = ids.astype(np.int64)
        self._batch.step(ids.reshape(-1))
        return self.observation, self.reward, self.terminated, self.truncated, self._info()

    def close(self) -> None:
        return None

    def __repr__(self) -> str:
        return f"GinVectorEnv(num_envs={self.num_envs}, profile={self.profile!r}, threads={self.threads})"


def make(num_envs: int, opponent: str = "simple", seat: Optional[str] = None, **kwargs: Any) -> Any:
    """A ``gymnasium.vector.VectorEnv`` of ``num_envs`` hands, each played by
    one learner against the built-in bot ``opponent`` (``"random"``,
    ``"simple"``, ``"strong"``: the bots of ``/v1/hands/move``), the bot's
    turns stepped in Rust with the hands.

    ``seat`` (``"dealer"``, ``"non_dealer"``) fixes the learner's seat; by
    default it is drawn per deal from the deal's int. ``kwargs``:
    ``profile``, ``seed``, ``threads`` as :class:`GinVectorEnv` takes them;
    deals follow the same seed rule, and a hand that ends before the
    learner's first decision is dealt again unseen (the row's next deal).

    Spaces: ``single_observation_space`` a ``Dict`` of ``observation``
    (int8, 5x52) and ``action_mask`` (int8, 56), as PettingZoo's classic
    environments; ``single_action_space`` ``Discrete(56)``;
    ``metadata["autoreset_mode"]`` next-step. ``reward`` ``(num_envs,)``
    float32: the learner's points when its hand ends (the winner's points,
    or their negative; -1 for an id not in the mask), else 0.
    ``info["current_player"]`` is the learner's seat (0 the non-dealer, 1
    the dealer). Runs under Gymnasium's ``RecordEpisodeStatistics`` vector
    wrapper. Install the ``selfplay`` extra (Gymnasium).
    """
    from ._vector_gym import GinLearnerVectorEnv

    return GinLearnerVectorEnv(num_envs, opponent=opponent, seat=seat, **kwargs)
