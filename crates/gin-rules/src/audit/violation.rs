//! The violation codes: one stable code per rule an action can break.

use std::fmt;

use crate::layoff::ReplyError;
use crate::score::HandError;

/// The stable reason an action is illegal. Each names one rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ViolationCode {
    /// The other player was to act.
    WrongPlayer,
    /// The first-turn upcard offer was not followed: the non-dealer is offered the
    /// upcard first, then the dealer, then the non-dealer draws from the stock.
    UpcardOfferViolated,
    /// A pass outside the upcard offer and the 50th-card offer.
    PassNotAllowed,
    /// A discard or knock before drawing.
    MustDrawFirst,
    /// A second draw in one turn.
    AlreadyDrew,
    /// The transcript names a drawn card that is not the one on top.
    ExpectedCardMismatch,
    /// A discard (or knock card) the player does not hold.
    CardNotInHand,
    /// Discarding, or knocking with, the card just taken from the discard pile.
    DiscardJustTaken,
    /// A draw from the stock when only its last two cards remain.
    StockExhausted,
    /// Tournament 50th-card rule: the discard was taken but the taker did not knock.
    FiftiethCardTakeWithoutKnock,
    /// A knock with more deadwood than the knock limit.
    KnockOverLimit,
    /// Declared melds that are not melds, overlap, or use cards not held.
    InvalidMelds,
    /// A knock without a discard (big gin) where the profile does not play big gin.
    BigGinNotAllowed,
    /// A knock without a discard whose eleven cards do not all meld.
    NotBigGin,
    /// A layoff before anyone knocked.
    LayOffWithoutKnock,
    /// A layoff onto a gin hand where the profile forbids it.
    LayoffsNotAllowed,
    /// A layoff of a card the defender does not hold (or holds in its own melds).
    LayoffCardNotInHand,
    /// The same card laid off twice.
    LayoffCardRepeated,
    /// A layoff onto a knocker meld that does not exist.
    LayoffMeldNotFound,
    /// A layoff that does not extend the meld it names.
    LayoffDoesNotFit,
    /// Under `joker_pickup_must_meld`: a joker taken from the discard pile
    /// and not melded that turn (a discard instead of a knock, or a knock
    /// leaving the joker in deadwood).
    JokerNotMelded,
    /// An action after the hand became void at the end of the stock.
    HandIsVoid,
    /// An action after the hand ended with a knock (and the defender's reply).
    ActionAfterHandEnded,
    /// A deal given by its seeds whose server seed does not hash to the
    /// commitment given with it: a fault of the whole hand, at no action.
    DealCommitmentMismatch,
    /// Match audit: the hand was dealt by the wrong player under the profile's
    /// `next_dealer` rule.
    WrongDealer,
    /// Match audit: a hand recorded after the game (every Hollywood game) ended.
    HandAfterGameEnd,
    /// Match audit: a hand whose transcript stops before its end, followed by
    /// another hand.
    HandUnfinished,
    /// Match audit: a seeded deal whose commitment or client seed is not the
    /// match's, or a hand given by its cards in a seeded match.
    DealSeedsDiffer,
    /// Match audit: a seeded deal whose nonce is not more than the previous
    /// hand's.
    DealNonceNotIncreasing,
    /// Match audit, three players: the two at the table are not the ones the
    /// rotation seats.
    RotationBroken,
    /// Match audit, partnership: a deal's tables do not seat the pairings of
    /// its position.
    PairingBroken,
}

impl ViolationCode {
    /// Whether only a match's record can break this rule (who deals, the
    /// game's end, the seating, the match's seeds): a hand's own record
    /// cannot. These are the faults of a whole hand but the deal's own
    /// commitment, which one hand's record can break.
    pub const fn is_of_a_match(self) -> bool {
        self.of_the_whole_hand() && !matches!(self, ViolationCode::DealCommitmentMismatch)
    }

    /// Every code, in the order of the docs.
    pub const ALL: [ViolationCode; 31] = [
        ViolationCode::WrongPlayer,
        ViolationCode::UpcardOfferViolated,
        ViolationCode::PassNotAllowed,
        ViolationCode::MustDrawFirst,
        ViolationCode::AlreadyDrew,
        ViolationCode::ExpectedCardMismatch,
        ViolationCode::CardNotInHand,
        ViolationCode::DiscardJustTaken,
        ViolationCode::StockExhausted,
        ViolationCode::FiftiethCardTakeWithoutKnock,
        ViolationCode::KnockOverLimit,
        ViolationCode::InvalidMelds,
        ViolationCode::BigGinNotAllowed,
        ViolationCode::NotBigGin,
        ViolationCode::LayOffWithoutKnock,
        ViolationCode::LayoffsNotAllowed,
        ViolationCode::LayoffCardNotInHand,
        ViolationCode::LayoffCardRepeated,
        ViolationCode::LayoffMeldNotFound,
        ViolationCode::LayoffDoesNotFit,
        ViolationCode::JokerNotMelded,
        ViolationCode::HandIsVoid,
        ViolationCode::ActionAfterHandEnded,
        ViolationCode::DealCommitmentMismatch,
        ViolationCode::WrongDealer,
        ViolationCode::HandAfterGameEnd,
        ViolationCode::HandUnfinished,
        ViolationCode::DealSeedsDiffer,
        ViolationCode::DealNonceNotIncreasing,
        ViolationCode::RotationBroken,
        ViolationCode::PairingBroken,
    ];

    /// A fault of the whole hand rather than of one action (`action` is null):
    /// the deal's seeds, and the match audit's checks between hands.
    pub const fn of_the_whole_hand(self) -> bool {
        matches!(
            self,
            ViolationCode::DealCommitmentMismatch
                | ViolationCode::WrongDealer
                | ViolationCode::HandAfterGameEnd
                | ViolationCode::HandUnfinished
                | ViolationCode::DealSeedsDiffer
                | ViolationCode::DealNonceNotIncreasing
                | ViolationCode::RotationBroken
                | ViolationCode::PairingBroken
        )
    }

    /// The stable snake_case code. Knock and layoff codes are the ones
    /// `/v1/hands/score` uses for the same faults.
    pub const fn as_str(self) -> &'static str {
        match self {
            ViolationCode::WrongPlayer => "wrong_player",
            ViolationCode::UpcardOfferViolated => "upcard_offer_violated",
            ViolationCode::PassNotAllowed => "pass_not_allowed",
            ViolationCode::MustDrawFirst => "must_draw_first",
            ViolationCode::AlreadyDrew => "already_drew",
            ViolationCode::ExpectedCardMismatch => "expected_card_mismatch",
            ViolationCode::CardNotInHand => "card_not_in_hand",
            ViolationCode::DiscardJustTaken => "discard_just_taken",
            ViolationCode::StockExhausted => "stock_exhausted",
            ViolationCode::FiftiethCardTakeWithoutKnock => "fiftieth_card_take_without_knock",
            ViolationCode::KnockOverLimit => "knock_over_limit",
            ViolationCode::InvalidMelds => "invalid_melds",
            ViolationCode::BigGinNotAllowed => "big_gin_not_allowed",
            ViolationCode::NotBigGin => "not_big_gin",
            ViolationCode::LayOffWithoutKnock => "lay_off_without_knock",
            ViolationCode::LayoffsNotAllowed => "layoffs_not_allowed",
            ViolationCode::LayoffCardNotInHand => "layoff_card_not_in_hand",
            ViolationCode::LayoffCardRepeated => "layoff_card_repeated",
            ViolationCode::LayoffMeldNotFound => "layoff_meld_not_found",
            ViolationCode::LayoffDoesNotFit => "layoff_does_not_fit",
            ViolationCode::JokerNotMelded => "joker_not_melded",
            ViolationCode::HandIsVoid => "hand_is_void",
            ViolationCode::ActionAfterHandEnded => "action_after_hand_ended",
            ViolationCode::DealCommitmentMismatch => "deal_commitment_mismatch",
            ViolationCode::WrongDealer => "wrong_dealer",
            ViolationCode::HandAfterGameEnd => "hand_after_game_end",
            ViolationCode::HandUnfinished => "hand_unfinished",
            ViolationCode::DealSeedsDiffer => "deal_seeds_differ",
            ViolationCode::DealNonceNotIncreasing => "deal_nonce_not_increasing",
            ViolationCode::RotationBroken => "rotation_broken",
            ViolationCode::PairingBroken => "pairing_broken",
        }
    }
}

impl fmt::Display for ViolationCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The first illegal action.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Violation {
    /// Index of the action in the transcript (from 0); null for a fault of
    /// the whole hand (a deal whose seeds do not match its commitment).
    #[cfg_attr(feature = "openapi", schema(example = 4, required = true))]
    pub action: Option<usize>,
    /// The rule broken.
    pub code: ViolationCode,
    /// A sentence for a tournament director.
    #[cfg_attr(
        feature = "openapi",
        schema(example = "the non-dealer took 2C from the discard pile \
        this turn and may not discard it on the same turn")
    )]
    pub message: String,
    /// The part of the action at fault, as a JSON Pointer within the action
    /// (`card`, `discard`, `melds`, `layoffs/2`), when the fault lies in one
    /// field; `None` for the action as a whole (or the whole hand).
    #[cfg_attr(feature = "serde", serde(skip))]
    #[cfg_attr(feature = "openapi", schema(ignore))]
    pub field: Option<String>,
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::ViolationCode;

    #[test]
    fn every_code_serialises_as_its_stable_name() {
        for code in ViolationCode::ALL {
            let json = serde_json::to_value(code).unwrap();
            assert_eq!(json, code.as_str());
        }
    }
}

/// The rule a knock's or a reply's refusal breaks: the one mapping from the
/// scorer's errors to violation codes, for the audits here and for the
/// service's problems, whose knock and layoff codes carry the same names.
/// It sits beside the codes rather than beside the errors so that the
/// scorer's modules do not import the audit's.
impl ViolationCode {
    /// The rule a refused reply breaks. A joker's `stands_for` at fault, or
    /// a joker laid off against the rules, does not fit.
    pub const fn of_reply(error: &ReplyError) -> ViolationCode {
        match error {
            ReplyError::Melds(_) => ViolationCode::InvalidMelds,
            ReplyError::NotAllowedOnGin { .. } => ViolationCode::LayoffsNotAllowed,
            ReplyError::CardNotInHand { .. } => ViolationCode::LayoffCardNotInHand,
            ReplyError::AlreadyLaidOff { .. } => ViolationCode::LayoffCardRepeated,
            ReplyError::NoSuchMeld { .. } => ViolationCode::LayoffMeldNotFound,
            ReplyError::StandsFor { .. }
            | ReplyError::JokerLayoffNotAllowed { .. }
            | ReplyError::DoesNotFit { .. } => ViolationCode::LayoffDoesNotFit,
        }
    }

    /// The rule a refused knock breaks; `None` for a fault of the hands
    /// themselves (a card twice, a wrong count, a joker the deck lacks, the
    /// profile), which no dealt and replayed hand can have.
    pub const fn of_knock(error: &HandError) -> Option<ViolationCode> {
        match error {
            HandError::KnockOverLimit { .. } => Some(ViolationCode::KnockOverLimit),
            HandError::BigGinNotPlayed => Some(ViolationCode::BigGinNotAllowed),
            HandError::NotBigGin { .. } => Some(ViolationCode::NotBigGin),
            HandError::InvalidMelds(_) => Some(ViolationCode::InvalidMelds),
            HandError::Reply(reply) => Some(ViolationCode::of_reply(reply)),
            HandError::WrongCardCount { .. }
            | HandError::Read { .. }
            | HandError::InBothHands { .. }
            | HandError::Profile(_) => None,
        }
    }
}
