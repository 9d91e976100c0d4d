"""gin_referee: the Gin Rummy reference referee as a Python module.

Two halves:

* **Vectorised functions** over OpenSpiel card masks (bit ``i`` is OpenSpiel's
  card id ``i`` = ``suit * 13 + rank``, suits in the order spades, clubs,
  diamonds, hearts, ranks ace = 0 to king = 12): :func:`card_mask`,
  :func:`mask_cards`, :func:`min_deadwood_many` (NumPy in, NumPy out, without
  the GIL) and :func:`knock_limit`.
* **The service's operations**, one function per ``operationId``
  (:func:`analyze_hand`, :func:`score_hand`, ...): the JSON request as a dict
  in, the 200 answer as a dict out, exactly what the HTTP service answers.

* **Self-play**: :class:`Hand`, a hand held in-process (the referee's own
  turn machine between calls), with OpenSpiel's action ids, and
  ``gin_referee.pettingzoo``, a PettingZoo environment over it.

Every refusal is a :class:`Problem` (a ``ValueError``) carrying the service's
problem+json document. ``gin_referee.spark`` adds the analysis to a Spark
DataFrame of hands (install the ``spark`` extra).
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, Optional, Union

import numpy as np

from . import _native
from ._native import Hand
from ._operations import OPERATION_IDS, Body
from ._operations import answer as _answer_operation
from ._operations import signing_key as _signing_key
from ._problem import Problem, refusal

__all__ = [
    "Problem",
    "Hand",
    "card_mask",
    "mask_cards",
    "min_deadwood_many",
    "knock_limit",
    "analyze_hand",
    "validate_melds",
    "layoffs",
    "score_hand",
    "score_match",
    "audit_hand",
    "audit_match",
    "hand_state",
    "match_state",
    "deal_from_seeds",
    "rate_players",
    "move_hand",
    "move_match",
    "signing_key",
    "OPERATION_IDS",
    "CARDS",
]

__version__ = "0.1.0"


def card_mask(cards: Union[str, Iterable[str]]) -> int:
    """The OpenSpiel mask of some cards.

    ``cards`` is a list (any iterable) of card strings, or one string of cards
    separated by whitespace. Every spelling the service accepts works: rank
    then suit, either case, ``T`` or ``10``, suit letters or symbols
    (``"TS"``, ``"ts"``, ``"10♠"``).

    Raises:
        Problem: ``invalid_body`` (400) for text that is not a card (its
            ``errors[0]["pointer"]`` is ``"/<index>"``, field code
            ``invalid_value``) or an item that is not a string
            (``invalid_type``); ``duplicate_card`` (422) for a card written
            twice, pointing at its second place; ``joker_not_in_deck`` (422)
            for ``X1``/``X2``, which no mask can hold.
    """
    return _native.card_mask(cards)


def mask_cards(mask: int) -> list:
    """The cards of an OpenSpiel mask in canonical notation (``"TS"``), by
    ascending card id (spades, clubs, diamonds, hearts; ace to king).

    Raises:
        Problem: ``invalid_value`` (400) for a bit past 51, ``invalid_body``
            (400) for a negative mask or something that is not an integer.
    """
    return _native.mask_cards(mask)


#: The 52 cards in canonical notation, indexed by OpenSpiel card id.
CARDS = tuple(_native.mask_cards((1 << 52) - 1))


def _as_masks(masks: Any) -> np.ndarray:
    array = np.asarray(masks)
    if array.ndim != 1:
        raise refusal(
            "invalid_body",
            "Invalid body",
            f"the masks must be a 1-D array, not {array.ndim}-D",
            field="invalid_type",
            message="a 1-D array is needed",
        )
    if array.dtype == np.uint64:
        return array
    if array.size == 0:
        return np.zeros(0, dtype=np.uint64)
    if array.dtype.kind not in "iu":
        raise refusal(
            "invalid_body",
            "Invalid body",
            f"the masks must be integers (numpy.uint64), not {array.dtype}",
            field="invalid_type",
            message="integers are needed",
        )
    if array.dtype.kind == "i":
        negative = np.flatnonzero(array < 0)
        if negative.size:
            index = int(negative[0])
            detail = f"mask {index} is negative: a card mask is an integer from 0 to 2**52 - 1"
            raise refusal(
                "invalid_value", "Invalid value", detail, pointer=f"/{index}", field="invalid_value"
            )
    return array.astype(np.uint64)


def min_deadwood_many(masks: Any, profile: str = "standard") -> np.ndarray:
    """The least deadwood of every hand, as a ``numpy.uint16`` array.

    ``masks`` is a 1-D ``numpy.uint64`` array of OpenSpiel masks (other
    integer arrays and lists are converted). A 10-card mask gives the least
    deadwood count over every arrangement of its cards in melds; an 11-card
    mask (right after the draw) the least count of the ten cards left by the
    best discard. Both may appear in one array.

    ``profile`` names a preset (``"standard"``, ``"oklahoma"``, ...). Without
    jokers (masks cannot hold one) no preset changes how deadwood is counted:
    the ace is always low and worth 1; the name is checked all the same.

    The GIL is released while the hands are solved, so other Python threads
    run meanwhile. Every mask is checked before any is solved: a bad array
    raises at once, naming the first bad index.

    Raises:
        Problem: ``wrong_card_count`` (422) for a mask holding neither 10 nor
            11 cards, ``invalid_value`` (400) for a bit past 51 or a
            negative value; the message names the index
            and ``errors[0]["pointer"]`` is ``"/<index>"``. ``unknown_profile``
            (400) for a name that is not a preset.
    """
    return _native.min_deadwood_many(_as_masks(masks), profile)


def knock_limit(profile: str = "standard", upcard: Optional[str] = None) -> int:
    """The knock limit under a preset: 10 for ``standard``, 0 for ``straight``;
    for ``oklahoma`` the value of the first ``upcard`` (an ace: 0).

    Raises:
        Problem: ``unknown_profile`` (400); ``upcard_required`` (422) when the
            preset's limit depends on the upcard and none is given;
            ``invalid_body`` (400) for an upcard that is not a card.
    """
    return _native.knock_limit(profile, upcard)


def analyze_hand(body: Body) -> Dict[str, Any]:
    """``POST /v1/hands/analyze``: optimal deadwood, melds and best discards.

    ``body`` is the request as a dict, or ``str``/``bytes`` of JSON, such as
    ``{"hand": ["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"]}``.
    Returns the 200 answer as a dict; a refusal raises :class:`Problem`.
    """
    return _answer_operation("analyze_hand", body)


def validate_melds(body: Body) -> Dict[str, Any]:
    """``POST /v1/melds/validate``: checks a declared arrangement of melds.

    Returns the 200 answer as a dict; a refusal raises :class:`Problem`.
    """
    return _answer_operation("validate_melds", body)


def layoffs(body: Body) -> Dict[str, Any]:
    """``POST /v1/layoffs``: the defender's best melds and layoffs against a knock.

    Returns the 200 answer as a dict; a refusal raises :class:`Problem`.
    """
    return _answer_operation("layoffs", body)


def score_hand(body: Body) -> Dict[str, Any]:
    """``POST /v1/hands/score``: scores a knock, gin or big gin.

    Returns the 200 answer as a dict; a refusal raises :class:`Problem`.
    """
    return _answer_operation("score_hand", body)


def score_match(body: Body) -> Dict[str, Any]:
    """``POST /v1/matches/score``: running totals and bonuses of a match.

    Returns the 200 answer as a dict; a refusal raises :class:`Problem`.
    """
    return _answer_operation("score_match", body)


def audit_hand(body: Body) -> Dict[str, Any]:
    """``POST /v1/hands/audit``: replays a recorded hand and reports the first
    illegal action, or how the hand ended.

    Returns the 200 answer as a dict; a refusal raises :class:`Problem`.
    """
    return _answer_operation("audit_hand", body)


def audit_match(body: Body) -> Dict[str, Any]:
    """``POST /v1/matches/audit``: audits every hand of a match and scores it.

    Returns the 200 answer as a dict; a refusal raises :class:`Problem`.
    """
    return _answer_operation("audit_match", body)


def hand_state(body: Body) -> Dict[str, Any]:
    """``POST /v1/hands/state``: the live referee's view of a hand in play
    (phase, legal actions, seat views).

    Returns the 200 answer as a dict; a refusal raises :class:`Problem`.
    """
    return _answer_operation("hand_state", body)


def match_state(body: Body) -> Dict[str, Any]:
    """``POST /v1/matches/state``: the live referee's view of a whole match
    (phase, who deals next, the tables in play, seat and spectator views).

    Returns the 200 answer as a dict; a refusal raises :class:`Problem`.
    """
    return _answer_operation("match_state", body)


def deal_from_seeds(body: Body) -> Dict[str, Any]:
    """``POST /v1/deals``: a provably fair deal from seeds.

    Returns the 200 answer as a dict; a refusal raises :class:`Problem`.
    """
    return _answer_operation("deal_from_seeds", body)


def rate_players(body: Body) -> Dict[str, Any]:
    """``POST /v1/ratings``: Weng-Lin ratings (Bradley-Terry, full pairing)
    after results applied in order, and the standings.

    Returns the 200 answer as a dict; a refusal raises :class:`Problem`.
    """
    return _answer_operation("rate_players", body)


def move_hand(body: Body) -> Dict[str, Any]:
    """``POST /v1/hands/move``: a bot's move for a seat of a hand (the
    state's body with ``seat`` and ``bot``); the move is one the state lists
    for that seat, exactly as listed.

    Returns the 200 answer as a dict; a refusal raises :class:`Problem`.
    """
    return _answer_operation("move_hand", body)


def move_match(body: Body) -> Dict[str, Any]:
    """``POST /v1/matches/move``: a bot's move for a player of a match (the
    match state's body with ``seat`` and ``bot``), with its ``table``.

    Returns the 200 answer as a dict; a refusal raises :class:`Problem`.
    """
    return _answer_operation("move_match", body)


def signing_key(pem: Optional[str]) -> None:
    """Configures the Ed25519 private key (PKCS#8 PEM) that signs receipts.

    Until a key is configured, a request with ``"receipt": true`` is refused
    with a :class:`Problem` (``signing_key_required``, 422) and a match audit
    goes unsigned. ``None`` removes the key. A PEM that is not an Ed25519
    private key in PKCS#8 form raises :class:`ValueError` (the service refuses
    to start with one; the error table has no code for it).
    """
    _signing_key(pem)
