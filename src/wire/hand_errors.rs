//! The engine's errors about a knock ([`HandError`]) as problems whose JSON
//! Pointers name the offending input of the request, shared by every operation
//! that scores or lays down a knock.

use super::profile_spec::profile_problem;
use crate::http::problem::{ErrorCode, Problem};
use gin_rules::{ArrangementProblem, DefenderHand, HandError, KnockerHand, Side};

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
                    .and_then(|cards| cards.iter().position(|c| *c == card));
                let pointer = match position {
                    Some(position) => format!("{base}/{meld}/{position}"),
                    None => format!("{base}/{meld}"),
                };
                problem = problem.with_error(pointer, ErrorCode::of(cross.code()), cross.message());
            }
            problem
        }
        HandError::Layoff(error) => {
            problem.with_error(format!("/defender/layoffs/{}", error.index()), code, detail)
        }
    }
}
