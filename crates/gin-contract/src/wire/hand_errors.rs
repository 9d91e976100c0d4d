//! The engine's errors about a knock ([`HandError`]) as problems whose JSON
//! Pointers name the offending input of the request, shared by every operation
//! that scores or lays down a knock.

use super::profile_spec::profile_problem;
use crate::problem::{ErrorCode, Problem};
use gin_rules::{
    ArrangementProblem, DeclaredFault, DeclaredPlace, DefenderHand, HandCard, HandError,
    HandReadFault, KnockerHand, ReplyError, Side,
};

/// Maps an engine error about a hand to a 422 problem whose pointers name the
/// offending input; the hands as sent give the declared melds, to point at a
/// card inside a meld (`defender` is `None` where the request declares nothing
/// for the defender).
pub fn hand_problem(
    error: &HandError,
    knocker: &KnockerHand,
    defender: Option<&DefenderHand>,
) -> Problem {
    let detail = error.to_string();
    let code = ErrorCode::of(error.code());
    let problem = Problem::new(code, &detail);
    match error {
        HandError::DuplicateCard { side, index, .. } => {
            problem.with_error(format!("/{}/hand/{index}", side.name()), code, detail)
        }
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
        HandError::InvalidMelds { side, report } => {
            let declared = match side {
                Side::Knocker => knocker.melds.as_deref(),
                Side::Defender => defender.and_then(|d| d.melds.as_deref()),
            };
            let base = format!("/{}/melds", side.name());
            let mut problem = problem;
            for (index, verdict) in report.melds.iter().enumerate() {
                for p in &verdict.problems {
                    problem = problem.with_error(
                        format!("{base}/{index}"),
                        ErrorCode::of(p.code.as_str()),
                        p.message.clone(),
                    );
                }
            }
            for cross in &report.problems {
                let (meld, card) = match cross {
                    ArrangementProblem::CardInTwoMelds { card, melds } => (melds[1], *card),
                    ArrangementProblem::CardNotInHand { card, meld } => (*meld, *card),
                };
                let position = declared
                    .and_then(|melds| melds.get(meld))
                    .and_then(|cards| cards.iter().position(|c| *c == HandCard::Natural(card)));
                let pointer = match position {
                    Some(position) => format!("{base}/{meld}/{position}"),
                    None => format!("{base}/{meld}"),
                };
                problem = problem.with_error(pointer, ErrorCode::of(cross.code()), cross.message());
            }
            problem
        }
        HandError::Read { side, fault } => read_problem(fault, &format!("/{}/hand", side.name())),
        HandError::InBothHands { index, .. } => {
            problem.with_error(format!("/defender/hand/{index}"), code, detail)
        }
        HandError::DeclaredMeldFaults(faults) => declared_problem_of(Side::Knocker, faults),
        HandError::Reply(error) => reply_problem(error),
    }
}

/// The problem for a card list that is not a hand of the deck, pointing at
/// the card at fault (`{pointer}/{index}`).
pub fn read_problem(fault: &HandReadFault, pointer: &str) -> Problem {
    let detail = fault.to_string();
    let code = ErrorCode::of(fault.code());
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
                let pointer = match fault.place {
                    DeclaredPlace::Card { meld, position } => {
                        format!("/{base}/melds/{meld}/{position}")
                    }
                    DeclaredPlace::Meld(meld) => format!("/{base}/melds/{meld}"),
                    DeclaredPlace::StandsFor(joker) => format!("/{base}/jokers/{joker}"),
                };
                (
                    pointer,
                    ErrorCode::of(fault.code.as_str()),
                    fault.message.clone(),
                )
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
            let code = ErrorCode::of(error.code());
            let pointer = match index {
                Some(index) => format!("/defender/layoffs/{index}"),
                None => "/defender/layoffs".to_owned(),
            };
            Problem::new(code, &detail).with_error(pointer, code, detail)
        }
    }
}
