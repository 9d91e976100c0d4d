//! One recorded hand: checked against what a deal can produce, and scored.

use super::{CountHand, HandResult, MatchError, MatchHand, Player, Players};
use crate::profile::{Profile, ProfileError};
use crate::score::{Breakdown, Outcome, Side, score_hand, settle};

/// The largest count a defender can hold after layoffs (argued in the module docs).
pub const MAX_DEFENDER_COUNT: u32 = 98;

/// The largest count a defender can hold after layoffs under this profile:
/// [`MAX_DEFENDER_COUNT`] without jokers, and with them the bound argued in
/// the module docs.
///
/// ```
/// use gin_rules::{max_defender_count, Preset};
/// assert_eq!(max_defender_count(&Preset::Standard.profile()), 98);
/// // Two jokers at 15: eight tens and two jokers.
/// assert_eq!(max_defender_count(&Preset::Jokers.profile()), 110);
/// ```
pub fn max_defender_count(profile: &Profile) -> u32 {
    let joker_deadwood = u32::from(profile.joker_rules().joker_deadwood());
    (1..=u32::from(profile.jokers()))
        .map(|jokers| 10 * (10 - jokers) + jokers * joker_deadwood)
        .fold(MAX_DEFENDER_COUNT, u32::max)
}

/// Why a count hand cannot have happened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    /// The profile needs the hand's upcard, and it is missing.
    #[error(transparent)]
    Profile(#[from] ProfileError),
    /// The knocker's count is over the hand's knock limit.
    #[error("the knocker's count is {deadwood}, over the knock limit of {limit}")]
    KnockOverLimit {
        /// The knocker's count.
        deadwood: u32,
        /// The hand's knock limit.
        limit: u32,
    },
    /// A big gin under a profile that does not play it.
    #[error("big gin is not played under this profile (set big_gin_bonus to play it)")]
    BigGinNotPlayed,
    /// A big gin with deadwood left.
    #[error("a big gin melds all 11 cards, so the knocker's count must be 0, not {deadwood}")]
    BigGinWithDeadwood {
        /// The knocker's count given.
        deadwood: u32,
    },
    /// A defender's count no ten cards can reach with their melds laid down.
    #[error("no hand counts {deadwood} after layoffs: a defender's 10 cards count at most {max}")]
    ImpossibleDefenderCount {
        /// The defender's count given.
        deadwood: u32,
        /// The largest possible count, [`MAX_DEFENDER_COUNT`].
        max: u32,
    },
}

impl CountError {
    /// The [`CountHand`] field at fault.
    pub const fn field(&self) -> &'static str {
        match self {
            CountError::Profile(_) => "upcard",
            CountError::KnockOverLimit { .. } | CountError::BigGinWithDeadwood { .. } => {
                "knocker_deadwood"
            }
            CountError::BigGinNotPlayed => "big_gin",
            CountError::ImpossibleDefenderCount { .. } => "defender_deadwood",
        }
    }
}

/// A hand that was won: by whom, how, and for how much.
pub(super) struct Won {
    pub(super) knocker: Player,
    pub(super) winner: Player,
    pub(super) knocker_deadwood: u32,
    pub(super) defender_deadwood: u32,
    pub(super) outcome: Outcome,
    pub(super) points: u32,
    pub(super) breakdown: Breakdown,
}

impl Won {
    /// The hand's result, each player placed by `seat`.
    pub(super) fn result(&self, seat: impl Fn(Player) -> usize) -> HandResult {
        HandResult {
            knocker: Some(seat(self.knocker)),
            winner: Some(seat(self.winner)),
            outcome: Some(self.outcome),
            points: self.points,
            knocker_deadwood: Some(self.knocker_deadwood),
            defender_deadwood: Some(self.defender_deadwood),
            breakdown: Some(self.breakdown),
        }
    }
}

/// Checks a count hand against what a deal can produce, then settles it.
fn settle_counts(profile: &Profile, hand: &CountHand) -> Result<crate::HandSettlement, CountError> {
    let limit = profile.knock_limit_for(hand.upcard)?;
    let multiplier = profile.multiplier_for(hand.upcard)?;
    if hand.big_gin {
        if profile.big_gin_bonus().is_none() {
            return Err(CountError::BigGinNotPlayed);
        }
        if hand.knocker_deadwood != 0 {
            return Err(CountError::BigGinWithDeadwood {
                deadwood: hand.knocker_deadwood,
            });
        }
    }
    if hand.knocker_deadwood > limit {
        return Err(CountError::KnockOverLimit {
            deadwood: hand.knocker_deadwood,
            limit,
        });
    }
    let max = max_defender_count(profile);
    if hand.defender_deadwood > max {
        return Err(CountError::ImpossibleDefenderCount {
            deadwood: hand.defender_deadwood,
            max,
        });
    }
    Ok(settle(
        profile,
        multiplier,
        hand.knocker_deadwood,
        hand.defender_deadwood,
        hand.big_gin,
    ))
}

/// Scores one hand: `None` for a void hand.
pub(super) fn play(
    profile: &Profile,
    players: &Players<String>,
    index: usize,
    hand: &MatchHand,
) -> Result<Option<Won>, MatchError> {
    let player = |name: &String| {
        Player::BOTH
            .into_iter()
            .find(|&p| players.get(p) == name)
            .ok_or_else(|| MatchError::UnknownPlayer {
                hand: index,
                name: name.clone(),
            })
    };
    let (knocker, settlement, knocker_deadwood, defender_deadwood) = match hand {
        MatchHand::Void => return Ok(None),
        MatchHand::Counts(counts) => {
            let knocker = player(&counts.knocker)?;
            let settlement = settle_counts(profile, counts)
                .map_err(|error| MatchError::Count { hand: index, error })?;
            (
                knocker,
                settlement,
                counts.knocker_deadwood,
                counts.defender_deadwood,
            )
        }
        MatchHand::Cards(cards) => {
            let knocker = player(&cards.knocker)?;
            let score = score_hand(
                profile,
                cards.upcard,
                &cards.knocker_hand,
                &cards.defender_hand,
            )
            .map_err(|error| MatchError::Cards { hand: index, error })?;
            (
                knocker,
                score.settlement,
                score.showdown.knocker.deadwood,
                score.showdown.defender.deadwood(),
            )
        }
    };
    let winner = match settlement.winner {
        Side::Knocker => knocker,
        Side::Defender => knocker.other(),
    };
    Ok(Some(Won {
        knocker,
        winner,
        knocker_deadwood,
        defender_deadwood,
        outcome: settlement.outcome,
        points: settlement.points,
        breakdown: settlement.breakdown,
    }))
}
