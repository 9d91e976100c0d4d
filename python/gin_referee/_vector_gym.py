"""The Gymnasium vector environment of ``gin_referee.vector.make`` (imported
only when ``make`` is called: Gymnasium is an optional dependency)."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._native import _HandBatch

#: OpenSpiel's ids 0-55.
ACTIONS = 56


class GinLearnerVectorEnv(VectorEnv):
    """``num_envs`` hands, each a learner (its seat ``seat``, or drawn per
    deal) against the bot ``opponent``, stepped in Rust (see
    ``gin_referee.vector.make``)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int,
        opponent: str = "simple",
        seat: Optional[str] = None,
        profile: Any = "standard",
        seed: int = 0,
        threads: Optional[int] = None,
    ) -> None:
        self._batch = _HandBatch(num_envs, profile, seed, threads, opponent, seat)
        self.num_envs = self._batch.num_envs
        self.opponent, self.seat, self.profile = opponent, seat, profile
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0, high=1, shape=(5, 52), dtype=np.int8),
                "action_mask": spaces.Box(low=0, high=1, shape=(ACTIONS,), dtype=np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        # The arrays the Rust side writes; the mask seen as int8 (the same
        # bytes: NumPy's bool is one byte, 0 or 1).
        self._observation = {
            "observation": self._batch.observation,
            "action_mask": self._batch.action_mask.view(np.int8),
        }

    def _info(self) -> Dict[str, Any]:
        return {"current_player": self._batch.current_player}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise TypeError("seed is one int (hand i is dealt from seed + i) or None")
        self._batch.reset(None if seed is None else int(seed))
        return self._observation, self._info()

    def step(
        self, actions: Any
    ) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        ids = np.asarray(actions)
        if ids.dtype != np.int64:
            ids = ids.astype(np.int64)
        batch = self._batch
        batch.step(ids.reshape(-1))
        return self._observation, batch.reward, batch.terminated, batch.truncated, self._info()

    def close_extras(self, **kwargs: Any) -> None:
        return None
