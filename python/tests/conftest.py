"""Shared helpers: random and dense hands as OpenSpiel masks, and an
independent brute-force minimum deadwood (no code shared with the module)."""

from __future__ import annotations

import functools
from typing import List, Sequence

import numpy as np
import pytest

# docs/RULES.md: ace 1, two to ten their number, jack, queen, king 10.
VALUES = [min(rank + 1, 10) for rank in range(13)]


def card_value(card_id: int) -> int:
    return VALUES[card_id % 13]


def melds_of(ids: Sequence[int]) -> List[int]:
    """Every meld within the cards (OpenSpiel ids) as a bitmask: sets of 3 or
    4 cards of one rank, runs of 3 or more consecutive ranks of one suit (ace
    low only, no wrap from king to ace)."""
    held = set(ids)
    melds = []
    for rank in range(13):
        same = [suit * 13 + rank for suit in range(4) if suit * 13 + rank in held]
        if len(same) >= 3:
            full = sum(1 << c for c in same)
            if len(same) == 4:
                melds.append(full)
            for left_out in same if len(same) == 4 else [None]:
                melds.append(full & ~(1 << left_out) if left_out is not None else full)
    for suit in range(4):
        for low in range(13):
            for high in range(low + 2, 13):
                run = [suit * 13 + r for r in range(low, high + 1)]
                if all(c in held for c in run):
                    melds.append(sum(1 << c for c in run))
    return melds


def brute_min_deadwood(ids: Sequence[int]) -> int:
    """The least deadwood over every collection of disjoint melds, by search:
    the lowest card left is either deadwood or in one of the melds holding it."""
    ids = [int(c) for c in ids]
    melds = melds_of(ids)

    @functools.lru_cache(maxsize=None)
    def best(rest: int) -> int:
        if rest == 0:
            return 0
        low = (rest & -rest).bit_length() - 1
        answer = card_value(low) + best(rest & ~(1 << low))
        for meld in melds:
            if meld >> low & 1 and meld & rest == meld:
                answer = min(answer, best(rest & ~meld))
        return answer

    return best(sum(1 << c for c in ids))


def mask_of(ids: Sequence[int]) -> int:
    return sum(1 << int(c) for c in ids)


def random_hands(rng: np.random.Generator, count: int, size: int = 10) -> np.ndarray:
    """``count`` random hands of ``size`` cards, as card-id rows."""
    return np.argsort(rng.random((count, 52)), axis=1)[:, :size]


def dense_hands(rng: np.random.Generator, count: int, size: int = 10) -> np.ndarray:
    """Hands drawn from a narrow window of 3 to 5 ranks in every suit: many
    sets and runs, crossing each other."""
    rows = []
    for _ in range(count):
        width = int(rng.integers(3, 6))
        low = int(rng.integers(0, 13 - width + 1))
        pool = [suit * 13 + rank for suit in range(4) for rank in range(low, low + width)]
        rows.append(rng.choice(pool, size=size, replace=False))
    return np.array(rows)


def masks_of(rows: np.ndarray) -> np.ndarray:
    return np.array([mask_of(row) for row in rows], dtype=np.uint64)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261126)
