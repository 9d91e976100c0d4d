//! The row of the error table for each error the rules library returns: one
//! exhaustive `match` per error type, so that a variant the library adds
//! does not compile until it is given its code here. The library itself
//! names no code; a problem's code comes from its error's type.

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
            HandError::InvalidMelds(_) => ErrorCode::InvalidMelds,
            HandError::WrongCardCount { .. } => ErrorCode::WrongCardCount,
            HandError::Profile(error) => error.error_code(),
            HandError::BigGinNotPlayed => ErrorCode::BigGinNotAllowed,
            HandError::NotBigGin { .. } => ErrorCode::NotBigGin,
            HandError::KnockOverLimit { .. } => ErrorCode::KnockOverLimit,
            HandError::Reply(error) => error.error_code(),
        }
    }
}

impl RuleError for ReplyError {
    /// A joker's `stands_for` at fault, or a joker laid off against the
    /// rules, does not fit: `layoff_does_not_fit`.
    fn error_code(&self) -> ErrorCode {
        match self {
            ReplyError::Melds(_) => ErrorCode::InvalidMelds,
            ReplyError::NotAllowedOnGin { .. } => ErrorCode::LayoffsNotAllowed,
            ReplyError::CardNotInHand { .. } => ErrorCode::LayoffCardNotInHand,
            ReplyError::AlreadyLaidOff { .. } => ErrorCode::LayoffCardRepeated,
            ReplyError::NoSuchMeld { .. } => ErrorCode::LayoffMeldNotFound,
            ReplyError::StandsFor { .. }
            | ReplyError::JokerLayoffNotAllowed { .. }
            | ReplyError::DoesNotFit { .. } => ErrorCode::LayoffDoesNotFit,
        }
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
