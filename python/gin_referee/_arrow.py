"""The per-batch work of ``gin_referee.spark``: Arrow record batches of hands
in, the same batches with ``deadwood``, ``gin`` and ``can_knock`` out.

Vectorised throughout: the card strings of the whole batch (the list column's
flat values) are looked up in the 52 canonical spellings with one
``pyarrow.compute.index_in``, which gives the OpenSpiel card id directly (the
table is in id order); a row's mask is the sum of its cards' bits, taken as a
difference of a cumulative sum at the list offsets. A sum of n distinct
powers of two has n bits set and a repeated card carries into fewer, so a row
whose popcount differs from its length holds a duplicate. Only rows with a
non-canonical spelling (``"10h"``, ``"7♠"``) or a duplicate go through
:func:`gin_referee.card_mask` one by one, which reads every spelling and
raises the service's ``duplicate_card``. The masks then go to
:func:`gin_referee.min_deadwood_many` in one call.
"""

from __future__ import annotations

from typing import Optional

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import CARDS, Problem, card_mask, mask_cards, min_deadwood_many

#: The columns added, in order, with their Arrow types.
ADDED = (("deadwood", pa.int32()), ("gin", pa.bool_()), ("can_knock", pa.bool_()))

_BYTE_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def _popcount(values: np.ndarray) -> np.ndarray:
    count = getattr(np, "bitwise_count", None)
    if count is not None:  # NumPy 2
        return count(values).astype(np.int64)
    as_bytes = values.astype(np.uint64).view(np.uint8).reshape(-1, 8)
    return _BYTE_POPCOUNT[as_bytes].sum(axis=1, dtype=np.int64)


def hand_masks(hands: pa.Array) -> "tuple[np.ndarray, np.ndarray]":
    """The OpenSpiel masks of a list-of-strings array, and which rows are null.

    Null rows get mask 0. Raises :class:`Problem` for a row with a card that
    cannot be read or a card written twice (``card_mask``'s problems).
    """
    if isinstance(hands, pa.ChunkedArray):
        hands = hands.combine_chunks()
    null_rows = np.asarray(hands.is_null().to_numpy(zero_copy_only=False), dtype=bool)
    offsets = np.asarray(hands.offsets.to_numpy(zero_copy_only=False), dtype=np.int64)
    starts, ends = offsets[:-1], offsets[1:]
    values = hands.values
    table = pa.array(CARDS, type=values.type)
    ids = pc.index_in(values, value_set=table).fill_null(-1)
    ids = np.asarray(ids.to_numpy(zero_copy_only=False), dtype=np.int64)
    known = ids >= 0
    bits = np.where(known, np.left_shift(np.uint64(1), np.where(known, ids, 0).astype(np.uint64)), 0)
    bits = bits.astype(np.uint64)
    # Cumulative sums with a leading 0: a row's sum is cum[end] - cum[start]
    # (uint64 wraps consistently, and no row exceeds 52 bits).
    cum = np.concatenate([np.zeros(1, dtype=np.uint64), np.cumsum(bits, dtype=np.uint64)])
    unknown = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(~known, dtype=np.int64)])
    masks = cum[ends] - cum[starts]
    lengths = ends - starts
    slow = ((unknown[ends] - unknown[starts]) > 0) | (_popcount(masks) != lengths)
    slow &= ~null_rows
    masks[null_rows] = 0
    if slow.any():
        for row in np.flatnonzero(slow):
            masks[row] = card_mask(hands[int(row)].as_py())
    return masks, null_rows


def analysis_arrays(hands: pa.Array, limit: int, profile: str = "standard") -> "list[pa.Array]":
    """``deadwood`` (int32), ``gin`` and ``can_knock`` (bool) of a
    list-of-strings array of hands; null hands get nulls. ``limit`` is the
    knock limit."""
    masks, null_rows = hand_masks(hands)
    valid = ~null_rows
    deadwood = np.zeros(len(masks), dtype=np.int32)
    if valid.any():
        dense = masks[valid]
        try:
            deadwood[valid] = min_deadwood_many(dense, profile)
        except Problem as problem:
            raise _with_hand(problem, dense) from None
    mask: Optional[np.ndarray] = null_rows if null_rows.any() else None
    return [
        pa.array(deadwood, type=pa.int32(), mask=mask),
        pa.array(deadwood == 0, type=pa.bool_(), mask=mask),
        pa.array(deadwood <= limit, type=pa.bool_(), mask=mask),
    ]


def analysis_struct(hands: pa.Array, limit: int, profile: str = "standard") -> pa.StructArray:
    """:func:`analysis_arrays` as one struct array (an Arrow UDF's result)."""
    return pa.StructArray.from_arrays(
        analysis_arrays(hands, limit, profile), names=[name for name, _ in ADDED]
    )


def analyse(
    batch: pa.RecordBatch, hand: str, limit: int, profile: str = "standard"
) -> pa.RecordBatch:
    """``batch`` with ``deadwood`` (int32), ``gin`` and ``can_knock`` (bool)
    appended; null hands get nulls. ``limit`` is the knock limit."""
    hands = batch.column(batch.schema.get_field_index(hand))
    columns = list(batch.columns) + analysis_arrays(hands, limit, profile)
    names = list(batch.schema.names) + [name for name, _ in ADDED]
    return pa.RecordBatch.from_arrays(columns, names=names)


def _with_hand(problem: Problem, masks: np.ndarray) -> Problem:
    """The problem of a bad mask, naming the hand rather than its index in a
    batch the caller never sees."""
    document = dict(problem.problem)
    errors = document.get("errors") or []
    pointer = errors[0].get("pointer", "") if errors else ""
    if pointer.startswith("/") and pointer[1:].isdigit() and int(pointer[1:]) < len(masks):
        index = int(pointer[1:])
        cards = " ".join(mask_cards(int(masks[index])))
        detail = str(document.get("detail", ""))
        document["detail"] = detail.replace(f"mask {index}", f"the hand {cards}", 1)
        document["errors"] = [dict(errors[0], pointer="", message=document["detail"])]
    return Problem(document)
