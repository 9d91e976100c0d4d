"""Type stubs for gin_referee (see the module's docstrings)."""

from typing import Any, Dict, Iterable, Mapping, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from ._native import Hand as Hand
from ._problem import Problem as Problem

Body = Union[Mapping[str, Any], str, bytes, bytearray, memoryview]

__version__: str
#: The 52 cards in canonical notation, indexed by OpenSpiel card id.
CARDS: Tuple[str, ...]
#: The operations the module answers, by their OpenAPI operationId.
OPERATION_IDS: Tuple[str, ...]

def card_mask(cards: Union[str, Iterable[str]]) -> int:
    """The OpenSpiel mask of some cards (a list of card strings, or one
    whitespace-separated string); raises Problem for bad or repeated cards."""
def mask_cards(mask: int) -> list[str]:
    """The cards of an OpenSpiel mask in canonical notation, by ascending id."""
def min_deadwood_many(
    masks: Union[npt.NDArray[np.uint64], npt.ArrayLike], profile: str = "standard"
) -> npt.NDArray[np.uint16]:
    """The least deadwood of every 10- or 11-card mask; releases the GIL."""
def knock_limit(profile: str = "standard", upcard: Optional[str] = None) -> int:
    """The knock limit under a preset (and first upcard, for oklahoma)."""
def analyze_hand(body: Body) -> Dict[str, Any]:
    """POST /v1/hands/analyze."""
def validate_melds(body: Body) -> Dict[str, Any]:
    """POST /v1/melds/validate."""
def layoffs(body: Body) -> Dict[str, Any]:
    """POST /v1/layoffs."""
def score_hand(body: Body) -> Dict[str, Any]:
    """POST /v1/hands/score."""
def score_match(body: Body) -> Dict[str, Any]:
    """POST /v1/matches/score."""
def audit_hand(body: Body) -> Dict[str, Any]:
    """POST /v1/hands/audit."""
def audit_match(body: Body) -> Dict[str, Any]:
    """POST /v1/matches/audit."""
def hand_state(body: Body) -> Dict[str, Any]:
    """POST /v1/hands/state."""
def match_state(body: Body) -> Dict[str, Any]:
    """POST /v1/matches/state."""
def deal_from_seeds(body: Body) -> Dict[str, Any]:
    """POST /v1/deals."""
def rate_players(body: Body) -> Dict[str, Any]:
    """POST /v1/ratings."""
def move_hand(body: Body) -> Dict[str, Any]:
    """POST /v1/hands/move."""
def move_match(body: Body) -> Dict[str, Any]:
    """POST /v1/matches/move."""
def signing_key(pem: Optional[str]) -> None:
    """Configures (or, with None, removes) the Ed25519 key that signs receipts."""
