//! The engine's errors about a knock ([`HandError`]) as problems whose JSON
//! Pointers name the offending input of the request, shared by every operation
//! that scores or lays down a knock.

use super::problem::Problem;
use super::profile_spec::profile_problem;
use gin_rules::{ArrangementProblem, DefenderHand, HandError, KnockerHand, Side};

/// The 422 of every operation that lays down a knock, for `#[utoipa::path]`.
pub const UNPROCESSABLE_KNOCK: &str = "The knock cannot be scored: a repeated card within or across the hands \
    (`duplicate_card`), a wrong number of cards (`wrong_card_count`), a knock over the limit \
    (`knock_over_limit`), declared melds that are not legal or not in the hand (`invalid_melds`), an \
    illegal layoff (`layoff_does_not_fit`, `layoff_card_not_in_hand`, `layoff_card_repeated`, \
    `layoff_meld_not_found`, `layoffs_not_allowed`), 11 cards without big gin (`not_big_gin`, \
    `big_gin_not_allowed`), a missing upcard (`upcard_required`) or an invalid profile.";

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
    let code = error.code();
    let problem = Problem::unprocessable(code, &detail);
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
                        p.code.as_str(),
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
                problem = problem.with_error(pointer, cross.code(), cross.message());
            }
            problem
        }
        HandError::Layoff(error) => {
            problem.with_error(format!("/defender/layoffs/{}", error.index()), code, detail)
        }
    }
}
