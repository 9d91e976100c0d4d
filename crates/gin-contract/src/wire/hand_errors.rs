//! The engine's errors about a knock ([`HandError`]) as problems whose JSON
//! Pointers name the offending input of the request, shared by every operation
//! that scores or lays down a knock.

use super::profile_spec::profile_problem;
use crate::problem::{ErrorCode, Problem};
use crate::rule_errors::RuleError;
use gin_rules::{DeclaredFault, HandError, HandReadFault, KnockerHand, ReplyError, Side};

/// Maps an engine error about a hand to a 422 problem whose pointers name the
/// offending input (the knocker's hand as sent says whether an arrangement
/// over the limit was declared).
pub fn hand_problem(error: &HandError, knocker: &KnockerHand) -> Problem {
    let detail = error.to_string();
    let code = error.error_code();
    let problem = Problem::new(code, &detail);
    match error {
        HandError::WrongCardCount { side, .. } => {
            problem.with_error(format!("/{}/hand", side.name()), code, detail)
        }
        HandError::Profile(error) => profile_problem(error),
        HandError::BigGinNotPlayed | HandError::NotBigGin { .. } => {
            problem.with_error("/knocker/hand", code, detail)
        }
        HandError::KnockOverLimit { .. } => {
            let pointer = if knocker.melds.is_some() {
                "/knocker/melds"
            } else {
                "/knocker/hand"
            };
            problem.with_error(pointer, code, detail)
        }
        HandError::Read { side, fault } => read_problem(fault, &format!("/{}/hand", side.name())),
        HandError::InBothHands { index, .. } => {
            problem.with_error(format!("/defender/hand/{index}"), code, detail)
        }
        HandError::InvalidMelds(faults) => declared_problem_of(Side::Knocker, faults),
        HandError::Reply(error) => reply_problem(error),
    }
}

/// The problem for a card list that is not a hand of the deck, pointing at
/// the card at fault (`{pointer}/{index}`).
pub fn read_problem(fault: &HandReadFault, pointer: &str) -> Problem {
    let detail = fault.to_string();
    let code = fault.error_code();
    Problem::new(code, &detail).with_error(format!("{pointer}/{}", fault.index()), code, detail)
}

/// The 422 `invalid_melds` with these faults (pointer, field code, message).
pub fn invalid_melds(side: Side, errors: Vec<(String, ErrorCode, String)>) -> Problem {
    let detail = format!("the {}'s declared melds are not legal", side.name());
    errors.into_iter().fold(
        Problem::new(ErrorCode::InvalidMelds, &detail),
        |problem, (pointer, code, message)| problem.with_error(pointer, code, message),
    )
}

/// The library's faults of one side's declared melds (melds holding jokers)
/// as the 422 `invalid_melds`, each at its place under `/knocker` or
/// `/defender`.
fn declared_problem_of(side: Side, faults: &[DeclaredFault]) -> Problem {
    let base = side.name();
    invalid_melds(
        side,
        faults
            .iter()
            .map(|fault| {
                let pointer = format!("/{base}/{}", fault.place.pointer_tail());
                (pointer, fault.code.error_code(), fault.message.clone())
            })
            .collect(),
    )
}

/// The problem for a defender's declared reply the rules refuse: at the
/// layoff at fault, or every fault of its declared melds.
fn reply_problem(error: &ReplyError) -> Problem {
    match (error, error.index()) {
        (ReplyError::Melds(faults), _) => declared_problem_of(Side::Defender, faults),
        (_, index) => {
            let detail = error.to_string();
            let code = error.error_code();
            let pointer = match index {
                Some(index) => format!("/defender/layoffs/{index}"),
                None => "/defender/layoffs".to_owned(),
            };
            Problem::new(code, &detail).with_error(pointer, code, detail)
        }
    }
}
