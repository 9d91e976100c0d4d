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
from typing import Any, Dict, Mapping, Optional, Union

from . import _native
from ._problem import refusal

Body = Union[Mapping[str, Any], str, bytes, bytearray, memoryview]

#: The operations the module answers, by their OpenAPI ``operationId``.
OPERATION_IDS = (
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
)


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


def signing_key(pem: Optional[str]) -> None:
    """Configures the Ed25519 key that signs receipts (``None`` removes it)."""
    _native._signing_key(pem)
