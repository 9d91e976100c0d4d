//! The row of the error table for each error the rules library returns: one
//! exhaustive `match` per error type, so that a variant the library adds
//! does not compile until it is given its code here. The library itself
//! names no code; a problem's code comes from its error's type. A knock's or
//! a reply's fault is the one exception: the library names the rule it
//! breaks ([`ViolationCode::of_knock`]), as the audits report it, and the
//! problem carries that rule's code, the same name in the error table.

use crate::problem::ErrorCode;
use gin_rules::{
    ArrangementProblem, CountError, DealError, DeclaredFaultCode, HandError, HandReadFault,
    MatchError, MeldProblemCode, ProfileError, ReplyError, ViolationCode,
};

/// An error (or fault) of the rules library, and the code it answers with.
pub trait RuleError {
    /// The code of the problem (or of the `errors[]` entry) it answers with.
    fn error_code(&self) -> ErrorCode;
}

impl RuleError for ProfileError {
    fn error_code(&self) -> ErrorCode {
        match self {
            ProfileError::UnknownPreset(_) => ErrorCode::UnknownProfile,
            ProfileError::InvalidParameter { .. } => ErrorCode::InvalidProfile,
            ProfileError::Combination { .. } => ErrorCode::InvalidProfileCombination,
            ProfileError::UpcardRequired { .. } => ErrorCode::UpcardRequired,
        }
    }
}

impl RuleError for HandReadFault {
    fn error_code(&self) -> ErrorCode {
        match self {
            HandReadFault::Repeated { .. } => ErrorCode::DuplicateCard,
            HandReadFault::JokerNotInDeck { .. } => ErrorCode::JokerNotInDeck,
        }
    }
}

impl RuleError for HandError {
    fn error_code(&self) -> ErrorCode {
        match self {
            HandError::Read { fault, .. } => fault.error_code(),
            HandError::InBothHands { .. } => ErrorCode::DuplicateCard,
            HandError::WrongCardCount { .. } => ErrorCode::WrongCardCount,
            HandError::Profile(error) => error.error_code(),
            HandError::InvalidMelds(_)
            | HandError::BigGinNotPlayed
            | HandError::NotBigGin { .. }
            | HandError::KnockOverLimit { .. }
            | HandError::Reply(_) => ViolationCode::of_knock(self)
                .map_or(ErrorCode::InternalError, |code| code.error_code()),
        }
    }
}

impl RuleError for ReplyError {
    fn error_code(&self) -> ErrorCode {
        ViolationCode::of_reply(self).error_code()
    }
}

impl RuleError for MeldProblemCode {
    fn error_code(&self) -> ErrorCode {
        match self {
            MeldProblemCode::TooShort => ErrorCode::TooShort,
            MeldProblemCode::DuplicateCard => ErrorCode::DuplicateCard,
            MeldProblemCode::MixedRanks => ErrorCode::MixedRanks,
            MeldProblemCode::MixedSuits => ErrorCode::MixedSuits,
            MeldProblemCode::Gap => ErrorCode::Gap,
            MeldProblemCode::WrapAround => ErrorCode::WrapAround,
        }
    }
}

impl RuleError for ArrangementProblem {
    fn error_code(&self) -> ErrorCode {
        match self {
            ArrangementProblem::CardInTwoMelds { .. } => ErrorCode::CardInTwoMelds,
            ArrangementProblem::CardNotInHand { .. } => ErrorCode::CardNotInHand,
        }
    }
}

impl RuleError for DeclaredFaultCode {
    fn error_code(&self) -> ErrorCode {
        match self {
            DeclaredFaultCode::CardNotInHand => ErrorCode::CardNotInHand,
            DeclaredFaultCode::CardInTwoMelds => ErrorCode::CardInTwoMelds,
            DeclaredFaultCode::JokerStandsFor => ErrorCode::JokerStandsFor,
            DeclaredFaultCode::TooFewNaturals => ErrorCode::TooFewNaturals,
            DeclaredFaultCode::NotAMeld(code) => code.error_code(),
        }
    }
}

impl RuleError for DealError {
    fn error_code(&self) -> ErrorCode {
        match self {
            DealError::WrongCardCount { .. } | DealError::StockTooLong { .. } => {
                ErrorCode::WrongCardCount
            }
            DealError::DuplicateCard { .. } | DealError::DrawnCardSeen { .. } => {
                ErrorCode::DuplicateCard
            }
            DealError::UnrecordedDraw { .. } => ErrorCode::UnrecordedDraw,
            DealError::JokerNotInDeck { .. } => ErrorCode::JokerNotInDeck,
        }
    }
}

impl RuleError for CountError {
    fn error_code(&self) -> ErrorCode {
        match self {
            CountError::Profile(error) => error.error_code(),
            CountError::KnockOverLimit { .. } => ErrorCode::KnockOverLimit,
            CountError::BigGinNotPlayed => ErrorCode::BigGinNotAllowed,
            CountError::BigGinWithDeadwood { .. } => ErrorCode::BigGinWithDeadwood,
            CountError::ImpossibleDefenderCount { .. } => ErrorCode::ImpossibleCount,
        }
    }
}

impl RuleError for MatchError {
    fn error_code(&self) -> ErrorCode {
        match self {
            MatchError::TooManyHands { .. } => ErrorCode::TooManyHands,
            MatchError::BlankPlayerName { .. } => ErrorCode::BlankPlayerName,
            MatchError::DuplicatePlayerName { .. } => ErrorCode::DuplicatePlayerName,
            MatchError::UnknownPlayer { .. } => ErrorCode::UnknownPlayer,
            MatchError::GameOver { .. } => ErrorCode::GameOver,
            MatchError::Count { error, .. } => error.error_code(),
            MatchError::Cards { error, .. } => error.error_code(),
            MatchError::SamePlayerTwice { .. } => ErrorCode::SamePlayerTwice,
            MatchError::KnockerNotFirst { .. } => ErrorCode::KnockerNotFirst,
            MatchError::RotationBroken { .. } => ErrorCode::RotationBroken,
            MatchError::PairingBroken { .. } => ErrorCode::PairingBroken,
            MatchError::HollywoodNotDefined { .. } => ErrorCode::HollywoodNotDefined,
            MatchError::BlankTeamName => ErrorCode::BlankTeamName,
            MatchError::AtTable { error, .. } => error.error_code(),
        }
    }
}

/// The row of an audit's violation: a bot asked to move in a record that
/// breaks a rule answers with the violation's own code, so each code of the
/// audit has its row (of the same name: a test holds them equal).
impl RuleError for ViolationCode {
    fn error_code(&self) -> ErrorCode {
        match self {
            ViolationCode::WrongPlayer => ErrorCode::WrongPlayer,
            ViolationCode::UpcardOfferViolated => ErrorCode::UpcardOfferViolated,
            ViolationCode::PassNotAllowed => ErrorCode::PassNotAllowed,
            ViolationCode::MustDrawFirst => ErrorCode::MustDrawFirst,
            ViolationCode::AlreadyDrew => ErrorCode::AlreadyDrew,
            ViolationCode::ExpectedCardMismatch => ErrorCode::ExpectedCardMismatch,
            ViolationCode::CardNotInHand => ErrorCode::CardNotInHand,
            ViolationCode::DiscardJustTaken => ErrorCode::DiscardJustTaken,
            ViolationCode::StockExhausted => ErrorCode::StockExhausted,
            ViolationCode::FiftiethCardTakeWithoutKnock => ErrorCode::FiftiethCardTakeWithoutKnock,
            ViolationCode::KnockOverLimit => ErrorCode::KnockOverLimit,
            ViolationCode::InvalidMelds => ErrorCode::InvalidMelds,
            ViolationCode::BigGinNotAllowed => ErrorCode::BigGinNotAllowed,
            ViolationCode::NotBigGin => ErrorCode::NotBigGin,
            ViolationCode::LayOffWithoutKnock => ErrorCode::LayOffWithoutKnock,
            ViolationCode::LayoffsNotAllowed => ErrorCode::LayoffsNotAllowed,
            ViolationCode::LayoffCardNotInHand => ErrorCode::LayoffCardNotInHand,
            ViolationCode::LayoffCardRepeated => ErrorCode::LayoffCardRepeated,
            ViolationCode::LayoffMeldNotFound => ErrorCode::LayoffMeldNotFound,
            ViolationCode::LayoffDoesNotFit => ErrorCode::LayoffDoesNotFit,
            ViolationCode::JokerNotMelded => ErrorCode::JokerNotMelded,
            ViolationCode::HandIsVoid => ErrorCode::HandIsVoid,
            ViolationCode::ActionAfterHandEnded => ErrorCode::ActionAfterHandEnded,
            ViolationCode::DealCommitmentMismatch => ErrorCode::DealCommitmentMismatch,
            ViolationCode::WrongDealer => ErrorCode::WrongDealer,
            ViolationCode::HandAfterGameEnd => ErrorCode::HandAfterGameEnd,
            ViolationCode::HandUnfinished => ErrorCode::HandUnfinished,
            ViolationCode::DealSeedsDiffer => ErrorCode::DealSeedsDiffer,
            ViolationCode::DealNonceNotIncreasing => ErrorCode::DealNonceNotIncreasing,
            ViolationCode::RotationBroken => ErrorCode::RotationBroken,
            ViolationCode::PairingBroken => ErrorCode::PairingBroken,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gin_rules::{HandCard, Joker};

    /// One refusal of every kind a knock or a reply breaks a rule with.
    fn rule_errors() -> Vec<HandError> {
        let card = HandCard::Joker(Joker::X1);
        let stands_for = "5H".parse().unwrap();
        let replies = [
            ReplyError::Melds(Vec::new()),
            ReplyError::NotAllowedOnGin { index: 0 },
            ReplyError::CardNotInHand {
                index: 0,
                card,
                melded: false,
            },
            ReplyError::AlreadyLaidOff { index: 0, card },
            ReplyError::NoSuchMeld { index: 0, meld: 3 },
            ReplyError::StandsFor {
                index: 0,
                card,
                reason: "",
            },
            ReplyError::JokerLayoffNotAllowed {
                index: 0,
                joker: Joker::X1,
            },
            ReplyError::DoesNotFit {
                index: 0,
                card,
                stands_for,
                meld: 0,
                reason: "",
            },
        ];
        let mut errors = vec![
            HandError::KnockOverLimit {
                deadwood: 11,
                limit: 10,
            },
            HandError::BigGinNotPlayed,
            HandError::NotBigGin { deadwood: 3 },
            HandError::InvalidMelds(Vec::new()),
        ];
        errors.extend(replies.into_iter().map(HandError::Reply));
        errors
    }

    #[test]
    fn every_broken_knock_rule_answers_with_the_code_of_its_name() {
        for error in rule_errors() {
            let rule = ViolationCode::of_knock(&error).unwrap();
            assert_eq!(error.error_code().as_str(), rule.as_str(), "{error:?}");
        }
    }

    #[test]
    fn a_fault_of_the_hands_breaks_no_rule_of_the_knock() {
        let error = HandError::WrongCardCount {
            side: gin_rules::Side::Knocker,
            expected: "10 cards",
            found: 9,
        };
        assert_eq!(ViolationCode::of_knock(&error), None);
        assert_eq!(error.error_code(), ErrorCode::WrongCardCount);
    }

    #[test]
    fn every_violation_answers_with_the_row_of_its_own_name() {
        for violation in ViolationCode::ALL {
            let name = serde_json::to_value(violation).unwrap();
            let code = violation.error_code();
            assert_eq!(name, code.as_str(), "{violation:?}");
            assert_eq!(code.status(), http::StatusCode::UNPROCESSABLE_ENTITY);
            assert_eq!(code.scope(), crate::error_codes::Scope::Problem);
        }
    }
}
