"""The per-batch work of ``gin_referee.spark``: Arrow record batches of hands
in, the same batches with ``deadwood``, ``gin`` and ``can_knock`` out.

Vectorised throughout: the card strings of the whole batch (the list column's
flat values) become OpenSpiel card ids at once (:func:`card_ids`: two-byte
spellings straight from Arrow's string data through a lookup table, others
by ``pyarrow.compute.index_in``); a row's mask is the sum of its cards' bits,
taken as a difference of a cumulative sum at the list offsets. A sum of n distinct
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


def _two_byte_table() -> np.ndarray:
    """Card id by the two bytes of a two-character spelling read as a
    little-endian uint16 (rank, suit; each letter in either case), -1 for
    anything else."""
    table = np.full(1 << 16, -1, dtype=np.int64)
    for card_id, card in enumerate(CARDS):
        for rank in {card[0], card[0].lower()}:
            for suit in {card[1], card[1].lower()}:
                table[ord(rank) | ord(suit) << 8] = card_id
    return table


_TWO_BYTE_IDS = _two_byte_table()
#: The bit of each card id; index -1 (an unknown spelling) is the last, 0.
_BIT_OF_ID = np.array([1 << i for i in range(52)] + [0], dtype=np.uint64)


def card_ids(values: pa.Array) -> np.ndarray:
    """The OpenSpiel id of every string of ``values``, -1 where it is not a
    two-character spelling of a card (``"10h"``, ``"7♠"``, null).

    When every string has two bytes (canonical and lower-case spellings, the
    usual case) the string data is read as one uint16 array and looked up in
    a 64 Ki table, without a pass per string; otherwise by
    ``pyarrow.compute.index_in`` on the canonical spellings (the rows it
    misses go through ``card_mask``)."""
    count = len(values)
    if count == 0:
        return np.zeros(0, dtype=np.int64)
    if values.type in (pa.string(), pa.large_string()) and values.null_count == 0:
        offsets_type = np.int32 if values.type == pa.string() else np.int64
        _, offsets_buffer, data_buffer = values.buffers()
        offsets = np.frombuffer(offsets_buffer, dtype=offsets_type)
        offsets = offsets[values.offset : values.offset + count + 1]
        first, last = int(offsets[0]), int(offsets[-1])
        if last - first == 2 * count and data_buffer is not None:
            data = np.frombuffer(data_buffer, dtype=np.uint8)[first:last]
            if np.array_equal(np.diff(offsets), np.full(count, 2, dtype=offsets.dtype)):
                return _TWO_BYTE_IDS[data.view("<u2")]
    table = pa.array(CARDS, type=values.type)
    ids = pc.index_in(values, value_set=table).fill_null(-1)
    return np.asarray(ids.to_numpy(zero_copy_only=False), dtype=np.int64)


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
    if len(offsets):
        # Only the values the rows use (a sliced array's child is whole).
        values = values.slice(int(offsets[0]), int(offsets[-1] - offsets[0]))
        starts, ends = starts - offsets[0], ends - offsets[0]
    ids = card_ids(values)
    # Cumulative sums with a leading 0: a row's sum is cum[end] - cum[start]
    # (uint64 wraps consistently, and no row exceeds 52 bits).
    cum = np.zeros(len(ids) + 1, dtype=np.uint64)
    np.cumsum(_BIT_OF_ID[ids], out=cum[1:])
    masks = cum[ends] - cum[starts]
    lengths = ends - starts
    slow = _popcount(masks) != lengths
    unknown = ids < 0
    if unknown.any():
        counts = np.zeros(len(ids) + 1, dtype=np.int64)
        np.cumsum(unknown, out=counts[1:])
        slow |= (counts[ends] - counts[starts]) > 0
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
