"""``gin_referee.vector.make``: the Gymnasium points. A ``VectorEnv`` with
the pinned spaces and next-step autoreset metadata, the learner's rewards
and masks, a fixed or drawn seat, and Gymnasium's own
``RecordEpisodeStatistics`` vector wrapper counting the episodes the rows
play (returns and lengths checked against the loop's own tally)."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.wrappers.vector import RecordEpisodeStatistics  # noqa: E402

from gin_referee import Problem  # noqa: E402
from gin_referee.vector import make  # noqa: E402


def legal(observation, rng):
    scores = rng.random(observation["action_mask"].shape) * observation["action_mask"]
    return scores.argmax(axis=1)


def test_make_is_a_vector_env_with_the_pinned_spaces_and_metadata():
    env = make(4, opponent="simple", seed=1, threads=2)
    assert isinstance(env, VectorEnv)
    assert env.num_envs == 4
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert env.single_action_space == spaces.Discrete(56)
    single = env.single_observation_space
    assert isinstance(single, spaces.Dict)
    assert single["observation"] == spaces.Box(0, 1, (5, 52), np.int8)
    assert single["action_mask"] == spaces.Box(0, 1, (56,), np.int8)
    observation, info = env.reset(seed=1)
    assert env.observation_space.contains(observation)
    assert observation["action_mask"].dtype == np.int8
    _, reward, terminated, truncated, info = env.step(legal(observation, np.random.default_rng(0)))
    assert (reward.shape, reward.dtype) == ((4,), np.float32)
    assert terminated.dtype == truncated.dtype == np.bool_
    assert env.observation_space.contains(observation)


@pytest.mark.parametrize("opponent", ["random", "simple"])
def test_the_wrapper_counts_every_episode_with_the_loops_own_returns(opponent):
    rows = 6
    env = RecordEpisodeStatistics(make(rows, opponent=opponent, seed=20, threads=2))
    observation, _ = env.reset(seed=20)
    rng = np.random.default_rng(20)
    returns, lengths = np.zeros(rows), np.zeros(rows, dtype=int)
    ended = np.zeros(rows, dtype=bool)
    episodes = 0
    for _ in range(1500):
        ids = legal(observation, rng)
        observation, reward, terminated, truncated, info = env.step(ids)
        # Next-step autoreset: a row that ended last step was dealt again
        # now; its id was ignored and it scored nothing.
        returns[ended] = 0
        lengths[ended] = 0
        assert not reward[ended].any()
        returns[~ended] += reward[~ended]
        lengths[~ended] += 1
        if "episode" in info:
            done = info["_episode"]
            assert np.array_equal(done, terminated | truncated)
            assert np.allclose(info["episode"]["r"][done], returns[done])
            assert np.array_equal(info["episode"]["l"][done], lengths[done])
            episodes += int(done.sum())
        ended = terminated | truncated
    assert episodes >= 30
    # Every hand is won or lost by someone's points, or void.
    assert len(env.return_queue) > 0


def test_a_fixed_seat_is_the_learners_in_every_row_and_every_deal():
    for seat, index in (("dealer", 1), ("non_dealer", 0)):
        env = make(5, opponent="simple", seat=seat, seed=3, threads=1)
        observation, info = env.reset()
        rng = np.random.default_rng(3)
        for _ in range(200):
            assert (info["current_player"] == index).all()
            assert observation["action_mask"][~env.unwrapped._batch.terminated].any(axis=1).all()
            observation, _, _, _, info = env.step(legal(observation, rng))


def test_a_drawn_seat_gives_the_learner_both_seats():
    env = make(64, opponent="random", seed=0, threads=2)
    _, info = env.reset()
    assert set(info["current_player"].tolist()) == {0, 1}


def test_an_id_not_in_the_mask_costs_the_learner_one_point():
    env = make(3, opponent="simple", seed=9, threads=1)
    observation, _ = env.reset()
    ids = legal(observation, np.random.default_rng(9))
    ids[1] = 999
    _, reward, terminated, _, _ = env.step(ids)
    assert terminated[1] and reward[1] == -1.0


def test_an_unknown_bot_and_a_joker_profile_are_refused():
    with pytest.raises(Problem):
        make(2, opponent="nobody")
    with pytest.raises(Problem) as refused:
        make(2, profile="jokers")
    assert refused.value.code == "invalid_profile_combination"


def test_the_same_seed_replays_the_same_hands():
    def run():
        env = make(4, opponent="simple", seed=77, threads=2)
        observation, _ = env.reset()
        rng = np.random.default_rng(5)
        seen = []
        for _ in range(150):
            observation, reward, _, _, _ = env.step(legal(observation, rng))
            seen.append((observation["observation"].copy(), reward.copy()))
        return seen

    for (a, ra), (b, rb) in zip(run(), run()):
        assert np.array_equal(a, b) and np.array_equal(ra, rb)
