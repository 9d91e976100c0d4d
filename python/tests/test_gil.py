"""min_deadwood_many releases the GIL: another Python thread keeps running
while it solves a large array."""

from __future__ import annotations

import threading
import time

import numpy as np

import gin_referee as gr
from conftest import masks_of, random_hands


def test_another_thread_runs_during_the_call(rng):
    masks = np.tile(masks_of(random_hands(rng, 10_000)), 100)  # a million hands
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.perf_counter())

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        while not ticks:
            time.sleep(0.001)
        # Long enough that a thread shut out for the whole call shows a gap
        # far above a scheduling hiccup.
        for _ in range(6):
            start = time.perf_counter()
            gr.min_deadwood_many(masks)
            end = time.perf_counter()
            if end - start >= 0.05:
                break
            masks = np.concatenate([masks, masks])
        during = [t for t in list(ticks) if start <= t <= end]
    finally:
        stop.set()
        thread.join()
    duration = end - start
    # With the GIL held for the whole call, the ticking thread could not run
    # in it (at most a few ms at each end, around the call): the largest gap
    # between ticks would be about the call's duration. Released, it ticks
    # throughout.
    points = [start] + during + [end]
    largest_gap = max(b - a for a, b in zip(points, points[1:]))
    assert len(during) > 100, (len(during), duration)
    assert largest_gap < duration / 2, (largest_gap, duration)
