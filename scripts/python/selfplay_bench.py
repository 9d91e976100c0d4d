"""Self-play speed, side by side in one run: random play through
``gin_referee.Hand`` (``legal_ids``/``apply_id``) against OpenSpiel's
``gin_rummy`` and RLCard's gin rummy in the same Python loop, and the
PettingZoo environment ``gin_referee.pettingzoo`` against PettingZoo's
``gin_rummy_v4`` and against a do-nothing environment under the same
wrappers (the framework's own floor).

Measure a release build (the numbers in BENCHMARKS.md come from this):

    python3 -m venv target/python-bench-venv
    target/python-bench-venv/bin/pip install maturin numpy open_spiel rlcard pygame 'pettingzoo==1.24.3'
    (cd python && VIRTUAL_ENV=$PWD/../target/python-bench-venv \\
        ../target/python-bench-venv/bin/maturin develop --release)
    target/python-bench-venv/bin/python scripts/python/selfplay_bench.py [seconds]

PettingZoo 1.24.3 is the last release with ``gin_rummy_v4``; the module's
environment runs on it and on the current release alike. Each figure is
games (or steps) over a fixed wall-clock budget per contender (2 s unless
given), one process, one thread; every contender picks uniformly among its
legal actions with the same ``random.Random`` kind of generator.
"""

from __future__ import annotations

import importlib.util
import random
import sys
import time
from typing import Callable, Dict, Tuple

import numpy as np


def timed(budget: float, one: Callable[[], int]) -> Tuple[float, float, float, float]:
    """Games and steps per second of ``one`` (a game, returning its steps)
    repeated for ``budget`` seconds, and games and steps per second of the
    process's own CPU time (on a machine shared with other work, the wall-clock
    rates fall with the load; the CPU-time rate is what one idle core
    gives)."""
    games = steps = 0
    started, cpu = time.perf_counter(), time.process_time()
    while True:
        steps += one()
        games += 1
        elapsed = time.perf_counter() - started
        if elapsed >= budget:
            used = max(time.process_time() - cpu, 1e-9)
            return games / elapsed, steps / elapsed, games / used, steps / used


def referee_game(rng: random.Random) -> Callable[[], int]:
    from gin_referee import Hand

    def one() -> int:
        hand = Hand("tournament", seed=rng.getrandbits(64))
        steps = 0
        while True:
            ids = hand.legal_ids()
            if not ids:
                return steps
            hand.apply_id(rng.choice(ids))
            steps += 1

    return one


def replayed_game(rng: random.Random) -> Callable[[], int]:
    """The loop before ``Hand``: ``hand_state`` of the transcript so far at
    every step (the whole record replayed and read as JSON each time)."""
    from gin_referee import Hand, hand_state

    def one() -> int:
        record = Hand("tournament", seed=rng.getrandbits(64)).record()
        steps = 0
        while True:
            entries = hand_state(record)["legal_actions"]
            if not entries:
                return steps
            record["actions"].append(rng.choice(entries)["move"])
            steps += 1

    return one


def openspiel_game(rng: random.Random) -> Callable[[], int]:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")

    def one() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return one


def rlcard_game(rng: random.Random) -> Callable[[], int]:
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": rng.getrandbits(31)})

    def one() -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        return steps

    return one


def aec_loop(make: Callable[[], object], rng: random.Random) -> Callable[[], int]:
    """PettingZoo's standard loop with a random legal action from the mask."""
    environment = make()

    def one() -> int:
        environment.reset(seed=rng.getrandbits(31))
        steps = 0
        for agent in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
            environment.step(action)
            steps += 1
        return steps

    return one


def do_nothing_env() -> object:
    """Two agents, a mask of one legal action, 100 steps an episode: what
    PettingZoo's loop and wrappers cost with no game behind them."""
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    class Nothing(AECEnv):
        metadata = {"name": "nothing_v0", "render_modes": [], "is_parallelizable": False}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = ["player_0", "player_1"]
            box = spaces.Box(low=0, high=1, shape=(5, 52), dtype=np.int8)
            mask = spaces.Box(low=0, high=1, shape=(56,), dtype=np.int8)
            self.observation_spaces = {
                a: spaces.Dict({"observation": box, "action_mask": mask})
                for a in self.possible_agents
            }
            self.action_spaces = {a: spaces.Discrete(56) for a in self.possible_agents}
            self._observation = np.zeros((5, 52), dtype=np.int8)
            self._mask = np.zeros(56, dtype=np.int8)
            self._mask[0] = 1

        def observation_space(self, agent):
            return self.observation_spaces[agent]

        def action_space(self, agent):
            return self.action_spaces[agent]

        def reset(self, seed=None, options=None):
            self.agents = self.possible_agents[:]
            self.rewards = {a: 0 for a in self.agents}
            self._cumulative_rewards = {a: 0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = "player_0"
            self._steps = 0

        def observe(self, agent):
            return {"observation": self._observation, "action_mask": self._mask}

        def step(self, action):
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0
            self._steps += 1
            if self._steps >= 100:
                self.terminations = {a: True for a in self.agents}
            self.agent_selection = "player_1" if agent == "player_0" else "player_0"
            self._accumulate_rewards()

    wrapped = wrappers.TerminateIllegalWrapper(Nothing(), illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    import pettingzoo

    from gin_referee import pettingzoo as ours

    rng = random.Random(36)
    results: Dict[str, Tuple[float, float, float, float]] = {}
    contenders = [
        ("gin_referee.Hand (legal_ids/apply_id)", lambda: referee_game(rng)),
        ("hand_state of the record at every step", lambda: replayed_game(rng)),
        ("OpenSpiel gin_rummy", lambda: openspiel_game(rng)),
    ]
    if importlib.util.find_spec("rlcard"):
        contenders.append(("RLCard gin-rummy", lambda: rlcard_game(rng)))
    contenders.append(("gin_referee.pettingzoo env", lambda: aec_loop(ours.env, rng)))
    try:
        from pettingzoo.classic import gin_rummy_v4

        contenders.append(("PettingZoo gin_rummy_v4", lambda: aec_loop(gin_rummy_v4.env, rng)))
    except ImportError as missing:
        print(f"(no gin_rummy_v4 in pettingzoo {pettingzoo.__version__}: {missing})")
    contenders.append(("PettingZoo do-nothing env, same wrappers", lambda: aec_loop(do_nothing_env, rng)))
    load = open("/proc/loadavg").read().split()[0] if sys.platform == "linux" else "?"
    print(f"pettingzoo {pettingzoo.__version__}; {budget:g} s per contender; load average {load}")
    print(f"{'contender':44} {'games/s':>9} {'steps/s':>9} {'games/CPU s':>11} {'steps/CPU s':>11}")
    for name, make in contenders:
        results[name] = timed(budget, make())
        games, steps, cpu_games, cpu_steps = results[name]
        print(f"{name:44} {games:9,.0f} {steps:9,.0f} {cpu_games:11,.0f} {cpu_steps:11,.0f}")
    # Ratios of CPU-time rates: each contender's share of a loaded machine
    # varies over the run, its CPU time does not.
    ours_games = results["gin_referee.Hand (legal_ids/apply_id)"][2]
    print(f"Hand vs OpenSpiel: {ours_games / results['OpenSpiel gin_rummy'][2]:.1f}x games/CPU s")
    env_steps = results["gin_referee.pettingzoo env"][3]
    if "PettingZoo gin_rummy_v4" in results:
        v4 = results["PettingZoo gin_rummy_v4"][3]
        print(f"env vs gin_rummy_v4: {env_steps / v4:.1f}x steps/CPU s")
    floor = results["PettingZoo do-nothing env, same wrappers"][3]
    print(f"env vs do-nothing env: {env_steps / floor:.2f} of its steps/CPU s")


if __name__ == "__main__":
    main()
