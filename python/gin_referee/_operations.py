"""The referee's operations, one function per ``operationId`` of the service.

Each takes the JSON request body (a dict, or ``str``/``bytes`` of JSON) and
returns the 200 answer as a dict, equal to ``json.loads`` of what the service
answers; a request the service would refuse raises :class:`Problem`.

The compiled side is one function, ``_native._answer(operation_id, body)``,
taking the body's bytes and returning the answer's bytes (the contract crate
``crates/gin-contract``, shared with the service).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Mapping, Optional, Union

from . import _native
from ._problem import refusal

Body = Union[Mapping[str, Any], str, bytes, bytearray, memoryview]

#: Each operation's ``operationId``, with its path and what it answers (the
#: first lines of the function's docstring).
_SUMMARIES = {
    "analyze_hand": "``POST /v1/hands/analyze``: optimal deadwood, melds and best discards.\n\n"
    "``body`` is the request as a dict, or ``str``/``bytes`` of JSON, such as\n"
    '``{"hand": ["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"]}``.',
    "validate_melds": "``POST /v1/melds/validate``: checks a declared arrangement of melds.",
    "layoffs": "``POST /v1/layoffs``: the defender's best melds and layoffs against a knock.",
    "score_hand": "``POST /v1/hands/score``: scores a knock, gin or big gin.",
    "score_match": "``POST /v1/matches/score``: running totals and bonuses of a match.",
    "audit_hand": "``POST /v1/hands/audit``: replays a recorded hand and reports the first\n"
    "illegal action, or how the hand ended.",
    "audit_match": "``POST /v1/matches/audit``: audits every hand of a match and scores it.",
    "hand_state": "``POST /v1/hands/state``: the live referee's view of a hand in play\n"
    "(phase, legal actions, seat views).",
    "match_state": "``POST /v1/matches/state``: the live referee's view of a whole match\n"
    "(phase, who deals next, the tables in play, seat and spectator views).",
    "deal_from_seeds": "``POST /v1/deals``: a provably fair deal from seeds.",
    "rate_players": "``POST /v1/ratings``: Weng-Lin ratings (Bradley-Terry, full pairing)\n"
    "after results applied in order, and the standings.",
    "move_hand": "``POST /v1/hands/move``: a bot's move for a seat of a hand (the\n"
    "state's body with ``seat`` and ``bot``); the move is one the state lists\n"
    "for that seat, exactly as listed.",
    "move_match": "``POST /v1/matches/move``: a bot's move for a player of a match (the\n"
    "match state's body with ``seat`` and ``bot``), with its ``table``.",
}

#: The operations the module answers, by their OpenAPI ``operationId``.
OPERATION_IDS = tuple(_SUMMARIES)


def encode(body: Body) -> bytes:
    """The request body as compact JSON bytes (bytes and str pass unchanged)."""
    if isinstance(body, (bytes, bytearray, memoryview)):
        return bytes(body)
    if isinstance(body, str):
        return body.encode("utf-8")
    try:
        text = json.dumps(body, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as error:
        # What no JSON text can say (NaN, infinity, a set, an object of a
        # class json does not know, nesting past the interpreter's limit):
        # the body is not JSON, as the service says of such a text.
        detail = f"the body cannot be written as JSON: {error}"
        raise refusal("malformed_json", "Malformed JSON", detail) from error
    return text.encode("utf-8")


def answer(operation_id: str, body: Body) -> Dict[str, Any]:
    """The 200 answer of an operation, as a dict; a refusal raises ``Problem``."""
    return json.loads(_native._answer(operation_id, encode(body)))


def operation(operation_id: str) -> Callable[[Body], Dict[str, Any]]:
    """The function of one operation: :func:`answer` with its ``operationId``
    bound, named and documented as the operation."""

    def call(body: Body) -> Dict[str, Any]:
        return answer(operation_id, body)

    call.__name__ = call.__qualname__ = operation_id
    call.__module__ = "gin_referee"
    call.__doc__ = (
        f"{_SUMMARIES[operation_id]}\n\n"
        "Returns the 200 answer as a dict; a refusal raises :class:`Problem`.\n"
    )
    return call


def signing_key(pem: Optional[str]) -> None:
    """Configures the Ed25519 key that signs receipts (``None`` removes it)."""
    _native._signing_key(pem)
