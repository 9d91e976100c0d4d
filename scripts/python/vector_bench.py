"""The vector environment's speed, side by side in one run (BENCHMARKS.md,
"Many hands at once"): ``gin_referee.vector.GinVectorEnv`` with 4,096 hands
stepped from a Python loop that draws a random listed id per hand in NumPy
from ``info["action_mask"]``, on 1 and 2 threads; the NumPy draw alone; the
same stepping in Rust alone (``_random_steps``: the ids drawn in Rust, no
Python per step; ``crates/gin-rules/benches/selfplay.rs`` is its criterion
twin); ``make(opponent="simple")``'s learner steps; and, in the same
process, the one-hand loops of ``gin_referee.Hand``, OpenSpiel's
``gin_rummy`` and RLCard's gin rummy (``selfplay_bench.py``'s).

Measure a release build:

    python3 -m venv target/venv
    target/venv/bin/pip install maturin numpy gymnasium open_spiel rlcard
    (cd python && VIRTUAL_ENV=$PWD/../target/venv ../target/venv/bin/maturin develop --release)
    target/venv/bin/python scripts/python/vector_bench.py [seconds]

Each figure is steps over a wall-clock budget per contender (3 s unless
given), and over the process's CPU time in that budget (every thread's:
on a machine shared with other work the wall-clock rate falls with the
load, the CPU-time rate does not; two threads on two cores give at most
twice the one-thread wall-clock rate at the same CPU-time rate).
"""

from __future__ import annotations

import os
import pathlib
import random
import sys
import time
from typing import Callable, Tuple

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from selfplay_bench import openspiel_game, referee_game, rlcard_game  # noqa: E402

HANDS = 4096


def timed(budget: float, one: Callable[[], int]) -> Tuple[float, float]:
    """Steps per wall-clock second and per CPU second of ``one`` (returning
    the steps it took) repeated for ``budget`` seconds."""
    one()  # warm: first deals, caches
    steps = 0
    started, cpu = time.perf_counter(), time.process_time()
    while True:
        steps += one()
        elapsed = time.perf_counter() - started
        if elapsed >= budget:
            used = max(time.process_time() - cpu, 1e-9)
            return steps / elapsed, steps / used


class Draw:
    """A random listed id per row, in NumPy without allocating: uniform
    scores where the mask is set, the row's argmax."""

    def __init__(self, rows: int, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.scores = np.empty((rows, 56), dtype=np.float32)
        self.ids = np.empty(rows, dtype=np.int64)

    def __call__(self, mask: np.ndarray) -> np.ndarray:
        self.rng.random(dtype=np.float32, out=self.scores)
        np.multiply(self.scores, mask, out=self.scores)
        np.argmax(self.scores, axis=1, out=self.ids)
        return self.ids


def vector_loop(threads: int) -> Callable[[], int]:
    from gin_referee.vector import GinVectorEnv

    env = GinVectorEnv(HANDS, seed=1, threads=threads)
    _, info = env.reset()
    draw = Draw(HANDS, threads)
    mask = info["action_mask"]

    def one() -> int:
        for _ in range(50):
            env.step(draw(mask))
        return 50 * HANDS

    return one


def draw_alone(threads: int) -> Callable[[], int]:
    from gin_referee.vector import GinVectorEnv

    env = GinVectorEnv(HANDS, seed=1, threads=threads)
    _, info = env.reset()
    draw = Draw(HANDS, threads)
    mask = info["action_mask"]

    def one() -> int:
        for _ in range(50):
            draw(mask)
        return 50 * HANDS

    return one


def rust_alone(threads: int, opponent=None) -> Callable[[], int]:
    from gin_referee._native import _HandBatch

    batch = _HandBatch(HANDS, "standard", 1, threads, opponent, None)

    def one() -> int:
        batch._random_steps(50, 7)
        return 50 * HANDS

    return one


def learner_loop(threads: int) -> Callable[[], int]:
    from gin_referee.vector import make

    env = make(HANDS, opponent="simple", seed=1, threads=threads)
    observation, _ = env.reset()
    draw = Draw(HANDS, threads)
    mask = observation["action_mask"]

    def one() -> int:
        for _ in range(20):
            env.step(draw(mask))
        return 20 * HANDS

    return one


def one_hand(make: Callable[[random.Random], Callable[[], int]]) -> Callable[[], int]:
    return make(random.Random(44))


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    load = open("/proc/loadavg").read().split()[0] if sys.platform == "linux" else "?"
    print(f"{HANDS} hands; {budget:g} s per contender; {os.cpu_count()} cores; load average {load}")
    print(f"{'contender':52} {'steps/s':>11} {'steps/CPU s':>12}")
    results = {}
    rows = []
    for threads in (1, 2):
        rows += [
            (f"GinVectorEnv + NumPy draw, threads={threads}", vector_loop(threads)),
            (f"NumPy draw alone, threads={threads}", draw_alone(threads)),
            (f"Rust alone (draw and step), threads={threads}", rust_alone(threads)),
            (f"make(opponent='simple') learner, threads={threads}", learner_loop(threads)),
            (f"Rust alone vs simple, threads={threads}", rust_alone(threads, "simple")),
        ]
    rows += [
        ("gin_referee.Hand loop (one hand, legal_ids)", one_hand(referee_game)),
        ("OpenSpiel gin_rummy (one state)", one_hand(openspiel_game)),
    ]
    try:
        import rlcard  # noqa: F401

        rows.append(("RLCard gin-rummy (one env)", one_hand(rlcard_game)))
    except ImportError:
        print("(no rlcard installed)")
    for name, one in rows:
        results[name] = timed(budget, one)
        wall, cpu = results[name]
        print(f"{name:52} {wall:11,.0f} {cpu:12,.0f}")
    print()
    for threads in (1, 2):
        loop = results[f"GinVectorEnv + NumPy draw, threads={threads}"]
        draw = results[f"NumPy draw alone, threads={threads}"]
        rust = results[f"Rust alone (draw and step), threads={threads}"]
        for clock, index in (("wall", 0), ("CPU", 1)):
            per_step = 1 / loop[index] - 1 / draw[index]
            ratio = per_step / (1 / rust[index])
            print(
                f"threads={threads}, {clock}: loop {1e9 / loop[index]:.0f} ns/step, draw "
                f"{1e9 / draw[index]:.0f}, loop less draw {1e9 * per_step:.0f}, Rust alone "
                f"{1e9 / rust[index]:.0f}: {ratio:.2f}x (limit 2x)"
            )
    hand = results["gin_referee.Hand loop (one hand, legal_ids)"][1]
    vector = results["GinVectorEnv + NumPy draw, threads=2"]
    print(f"GinVectorEnv (threads=2) vs Hand loop: {vector[1] / hand:.1f}x steps/CPU s")
    print(f"GinVectorEnv (threads=2) vs OpenSpiel: {vector[1] / results['OpenSpiel gin_rummy (one state)'][1]:.0f}x steps/CPU s")
    if "RLCard gin-rummy (one env)" in results:
        print(f"GinVectorEnv (threads=2) vs RLCard: {vector[1] / results['RLCard gin-rummy (one env)'][1]:.0f}x steps/CPU s")


if __name__ == "__main__":
    main()
