"""The compiled half of gin_referee (use the package's public names)."""

from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

def card_mask(cards: Union[str, Iterable[str]]) -> int: ...
def mask_cards(mask: int) -> list[str]: ...
def min_deadwood_many(masks: npt.NDArray[np.uint64], profile: str = "standard") -> npt.NDArray[np.uint16]: ...
def knock_limit(profile: str = "standard", upcard: Optional[str] = None) -> int: ...
# The operations (python/src/contract.rs, crates/gin-contract's Referee).
def _answer(operation_id: str, body: bytes) -> bytes: ...
def _signing_key(pem: Optional[str]) -> None: ...

Seat = str  # "dealer" or "non_dealer"

class Hand:
    """A hand in progress held by the module: the referee's own turn machine
    kept between calls, so one action costs one action (no replay).

    ``Hand(profile="standard", deal=None, seed=None)``: ``profile`` a preset
    name or an object as ``/v1/hands/audit`` takes it; ``deal`` as it takes
    it (the cards, or seeds with their commitment); or ``seed``, an int from
    0 to 2**64 - 1: the provably fair deal of server seed
    SHA-256(``"gin-referee/Hand/seed:<seed>"``), client seed
    ``"gin-referee/Hand"``, nonce 0 (the same deal in every version).
    Faults raise ``Problem`` pointed as in a ``/v1/hands/state`` body.
    Picklable; ``copy.copy`` and ``copy.deepcopy`` give independent copies.
    """

    def __init__(
        self,
        profile: Union[str, Mapping[str, Any], None] = None,
        deal: Optional[Mapping[str, Any]] = None,
        seed: Optional[int] = None,
    ) -> None: ...
    def apply(self, move: Mapping[str, Any]) -> None:
        """Applies one move (a ``move`` of ``legal_actions()``, or the whole
        entry). An illegal one raises ``Problem`` (422, ``code`` the audit's
        violation code) and leaves the hand unchanged."""
    def legal_actions(self) -> List[Dict[str, Any]]:
        """The ``legal_actions`` of ``/v1/hands/state`` now."""
    def state(self, seat: Optional[Seat] = None, openspiel: bool = False) -> Dict[str, Any]:
        """Exactly what ``hand_state`` answers for ``record()`` (with ``seat``
        and ``openspiel``)."""
    def record(self) -> Dict[str, Any]:
        """``{"profile", "deal", "actions"}`` as ``/v1/hands/audit`` takes them."""
    def copy(self) -> "Hand":
        """An independent copy."""
    def resample(self, seat: Seat, seed: int) -> "Hand":
        """A copy in which every card ``seat`` cannot know (the opponent's
        unseen cards, the stock) is dealt again from ``seed``, consistently
        with what the seat saw; its record gives the new deal's cards."""
    def legal_ids(self) -> List[int]:
        """OpenSpiel's ``gin_rummy`` ids (0-55) listed now, ascending."""
    def apply_id(self, id: int) -> None:
        """Applies one of OpenSpiel's ids (55 then the knock card's id; the
        melds and the reply are played by the referee)."""
    def bot_id(self, name: str = "simple", seed: int = 0) -> int:
        """The OpenSpiel id the bot ``name`` (``"random"``, ``"simple"``,
        ``"strong"``) with ``seed`` plays now for the seat to act, seeing only
        that seat's view, as ``move_hand`` of ``record()`` would answer: 55
        for a knock, then, once 55 is applied, the knock card. Raises
        ``Problem`` (``not_to_act``) once the hand is over."""
    def action_mask(self) -> npt.NDArray[np.bool_]:
        """``legal_ids()`` as a bool array of 56."""
    def observation(self, seat: Seat) -> npt.NDArray[np.int8]:
        """What ``seat`` may know as planes (5, 52) of OpenSpiel card ids:
        its hand, the pile's top, the rest of the pile, the opponent's cards
        it saw taken, the cards it cannot see."""
    def to_act(self) -> Optional[Seat]:
        """The seat to act, or None once the hand is over."""
    def outcome(self) -> Optional[Tuple[Optional[Seat], int]]:
        """Once over: (winner's seat, points), (None, 0) when void; else None."""

def _restore_hand(record: bytes, knocking: bool) -> Hand: ...

class _HandBatch:
    """Many hands held in Rust and stepped together (``gin_referee.vector``):
    the arrays below are allocated once and written in place by ``reset``
    and ``step``, without the GIL."""

    def __init__(
        self,
        num_envs: int,
        profile: Union[str, Mapping[str, Any], None] = None,
        seed: Optional[int] = None,
        threads: Optional[int] = None,
        opponent: Optional[str] = None,
        seat: Optional[Seat] = None,
    ) -> None: ...
    def reset(self, seed: Optional[int] = None) -> None: ...
    def step(self, actions: npt.NDArray[np.int64]) -> None: ...
    def _random_steps(self, steps: int, seed: int) -> None: ...
    num_envs: int
    threads: int
    seed: int
    observation: npt.NDArray[np.int8]
    reward: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]
    action_mask: npt.NDArray[np.bool_]
    current_player: npt.NDArray[np.int8]
