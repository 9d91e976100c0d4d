//! Scoring one hand: the knock, the knocker's arrangement, the defender's reply,
//! and the points.
//!
//! # The knocker's arrangement
//!
//! When the knocker declares melds they are checked (legal, disjoint, in the hand,
//! deadwood within the knock limit) and used. When not, the service picks the
//! arrangement best for the knocker, as `docs/RULES.md` ("The knocker's
//! arrangement") says: it enumerates every legal arrangement (every collection of
//! disjoint melds, including ones that keep a meld as deadwood) whose count is
//! within the limit, plays the defender's best reply against each, and keeps the
//! one with the highest net result for the knocker (points won, or minus points
//! lost to an undercut), ties broken by the lower knocker count, then by the first
//! in a fixed order: melds sorted by [`Meld`]'s order, arrangements compared meld
//! by meld (the enumeration order). Two runs that touch in one suit are always one
//! run (cutting a run changes neither the count nor what can be laid off), so they
//! are not listed twice.
//!
//! Bound: a 10-card hand contains at most a few dozen melds; collections of
//! disjoint ones within the limit number in the low hundreds at worst, each met
//! by one [`best_reply`] search.

use crate::card::{Card, CardSet};
use crate::layoff::{DefenderReply, Layoff, LayoffError};
use crate::meld::{ArrangementReport, Meld};
use crate::profile::{Profile, ProfileError};

mod arrangements;
mod showdown;
#[cfg(test)]
mod tests;

pub use arrangements::knocker_arrangements;

pub(crate) use showdown::is_big_gin;
pub use showdown::showdown;

/// Which player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Side {
    /// The player who knocked.
    Knocker,
    /// The other player.
    Defender,
}

impl Side {
    /// The stable name: `knocker` or `defender`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Knocker => "knocker",
            Side::Defender => "defender",
        }
    }
}

/// The knocker's hand as declared: the cards kept after the knock discard (10, or
/// 11 for big gin) and optionally the melds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KnockerHand {
    /// The cards kept after the knock discard: 10, or 11 for big gin (another
    /// count is a 422 `wrong_card_count`; more than a deck, a 400).
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::bounded::at_most::<_, _, 52>")
    )]
    #[cfg_attr(feature = "openapi", schema(max_items = 52,
        example = json!(["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"])))]
    pub hand: Vec<Card>,
    /// Declared melds, checked (legal, disjoint, from the hand, within the knock
    /// limit). Absent: the arrangement best for the knocker is chosen.
    #[cfg_attr(
        feature = "serde",
        serde(default, deserialize_with = "crate::bounded::declared_melds")
    )]
    #[cfg_attr(feature = "openapi", schema(
        example = json!([["3H", "4H", "5H"], ["9S", "9H", "9D"], ["3C", "4C", "5C"]])))]
    pub melds: Option<Vec<Vec<Card>>>,
}

/// The defender's hand, optionally with its melds and the layoffs it played.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DefenderHand {
    /// The defender's 10 cards (another count is a 422 `wrong_card_count`;
    /// more than a deck, a 400).
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::bounded::at_most::<_, _, 52>")
    )]
    #[cfg_attr(feature = "openapi", schema(max_items = 52,
        example = json!(["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"])))]
    pub hand: Vec<Card>,
    /// Declared melds, checked. Absent: the best reply is chosen.
    #[cfg_attr(
        feature = "serde",
        serde(default, deserialize_with = "crate::bounded::declared_melds")
    )]
    pub melds: Option<Vec<Vec<Card>>>,
    /// Declared layoffs in the order played, each checked against the knocker's
    /// melds as they grow. Absent: the best layoffs are chosen.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "crate::bounded::optional_at_most::<_, _, 52>"
        )
    )]
    pub layoffs: Option<Vec<Layoff>>,
}

/// The knocker's side once arranged.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KnockerArrangement {
    /// The knocker's melds (declared, or chosen as best for the knocker).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Vec<Card>>,
        example = json!([["3H", "4H", "5H"], ["9S", "9H", "9D"], ["3C", "4C", "5C"]])))]
    pub melds: Vec<Meld>,
    /// The cards in no meld.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Card>, example = json!(["AH"])))]
    pub deadwood_cards: CardSet,
    /// The knocker's count (the knocker never lays off).
    #[cfg_attr(feature = "openapi", schema(example = 1))]
    pub deadwood: u32,
}

/// Both sides laid down: the knocker's melds and the defender's reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Showdown {
    /// The knocker's arrangement.
    pub knocker: KnockerArrangement,
    /// The defender's reply to it.
    pub defender: DefenderReply,
    /// The knock limit that applied.
    pub knock_limit: u32,
    /// The knocker melded 11 cards without discarding.
    pub big_gin: bool,
}

/// How a hand ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Outcome {
    /// The knocker had less deadwood (or tied, where ties go to the knocker).
    Knock,
    /// The defender had as little deadwood as the knocker, or less.
    Undercut,
    /// The knocker melded ten cards.
    Gin,
    /// The knocker melded all eleven cards without discarding.
    BigGin,
}

/// Where the points came from: `points = (deadwood_difference + gin_bonus +
/// big_gin_bonus + undercut_bonus) * multiplier`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"deadwood_difference": 8, "gin_bonus": 0,
    "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1})))]
pub struct Breakdown {
    /// The difference between the counts (the defender's count on gin).
    pub deadwood_difference: u32,
    /// The gin bonus, if gin.
    pub gin_bonus: u32,
    /// The big gin bonus, if big gin.
    pub big_gin_bonus: u32,
    /// The undercut bonus, if an undercut.
    pub undercut_bonus: u32,
    /// 2 when spades double and the first upcard is a spade, else 1.
    pub multiplier: u32,
}

/// The result of a hand: who won what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Settlement {
    /// How the hand ended.
    pub outcome: Outcome,
    /// Who scores the points.
    pub winner: Side,
    /// The points scored.
    pub points: u32,
    /// Where they came from.
    pub breakdown: Breakdown,
}

/// A scored hand: the showdown and its settlement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandScore {
    /// Both sides laid down.
    pub showdown: Showdown,
    /// Who won what.
    pub settlement: Settlement,
}

/// Why a hand cannot be scored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HandError {
    /// A card repeated within a hand or across the two hands.
    #[error("{card} at {side} hand position {index} repeats a card already dealt to a hand", side = side.name())]
    DuplicateCard {
        /// The hand holding the repeat.
        side: Side,
        /// The repeat's position in that hand.
        index: usize,
        /// The card.
        card: Card,
    },
    /// A hand with the wrong number of cards.
    #[error("the {side} must hold {expected} cards, not {found}", side = side.name())]
    WrongCardCount {
        /// The hand at fault.
        side: Side,
        /// The cards it must hold, in words.
        expected: &'static str,
        /// The cards it holds.
        found: usize,
    },
    /// The profile needs the upcard, and there is none.
    #[error(transparent)]
    Profile(#[from] ProfileError),
    /// The knocker kept 11 cards under a profile without big gin.
    #[error(
        "the knocker holds 11 cards, but this profile does not play big gin (set big_gin_bonus to play it)"
    )]
    BigGinNotPlayed,
    /// The knocker kept 11 cards that do not all meld.
    #[error(
        "the knocker holds 11 cards but they do not all meld (best deadwood {deadwood}): only big gin keeps 11 cards"
    )]
    NotBigGin {
        /// The least deadwood of the 11 cards (or of the declared melds).
        deadwood: u32,
    },
    /// The knocker's deadwood is over the knock limit.
    #[error("the knocker's deadwood is {deadwood}, over the knock limit of {limit}")]
    KnockOverLimit {
        /// The knocker's deadwood: with the declared melds, or at best.
        deadwood: u32,
        /// The knock limit that applied.
        limit: u32,
    },
    /// Declared melds that are not legal, overlap or use cards not held.
    #[error("the {side}'s declared melds are not legal", side = side.name())]
    InvalidMelds {
        /// The hand that declared them.
        side: Side,
        /// Every fault found.
        report: ArrangementReport,
    },
    /// A declared layoff is illegal.
    #[error(transparent)]
    Layoff(#[from] LayoffError),
}

impl HandError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            HandError::DuplicateCard { .. } => "duplicate_card",
            HandError::WrongCardCount { .. } => "wrong_card_count",
            HandError::Profile(e) => e.code(),
            HandError::BigGinNotPlayed => "big_gin_not_allowed",
            HandError::NotBigGin { .. } => "not_big_gin",
            HandError::KnockOverLimit { .. } => "knock_over_limit",
            HandError::InvalidMelds { .. } => "invalid_melds",
            HandError::Layoff(e) => e.code(),
        }
    }
}

/// The knocker's net result of a settlement: points won, or minus points lost.
pub(crate) fn net_for_knocker(settlement: &Settlement) -> i64 {
    match settlement.winner {
        Side::Knocker => i64::from(settlement.points),
        Side::Defender => -i64::from(settlement.points),
    }
}

/// Scores a hand from the counts after layoffs (`knocker_deadwood` 0 is gin).
///
/// For counts ten cards can have (at most 100) the points stay below 21 000
/// under any [`Profile`]; counts no hand can have saturate at `u32::MAX` rather
/// than wrap.
///
/// ```
/// use gin_rules::{settle, Outcome, Profile, Side};
/// let standard = Profile::default();
/// // [S0]: knock 3 against 11 scores 8; knock 3 against 1 gives the defender 27.
/// assert_eq!(settle(&standard, 1, 3, 11, false).points, 8);
/// let undercut = settle(&standard, 1, 3, 1, false);
/// assert_eq!((undercut.outcome, undercut.winner, undercut.points), (Outcome::Undercut, Side::Defender, 27));
/// ```
pub fn settle(
    profile: &Profile,
    multiplier: u32,
    knocker_deadwood: u32,
    defender_deadwood: u32,
    big_gin: bool,
) -> Settlement {
    let mut breakdown = Breakdown {
        deadwood_difference: 0,
        gin_bonus: 0,
        big_gin_bonus: 0,
        undercut_bonus: 0,
        multiplier,
    };
    let (outcome, winner) = if big_gin {
        breakdown.deadwood_difference = defender_deadwood;
        breakdown.big_gin_bonus = profile.big_gin_bonus().unwrap_or(profile.gin_bonus());
        (Outcome::BigGin, Side::Knocker)
    } else if knocker_deadwood == 0 {
        breakdown.deadwood_difference = defender_deadwood;
        breakdown.gin_bonus = profile.gin_bonus();
        (Outcome::Gin, Side::Knocker)
    } else if defender_deadwood > knocker_deadwood {
        breakdown.deadwood_difference = defender_deadwood - knocker_deadwood;
        (Outcome::Knock, Side::Knocker)
    } else if defender_deadwood == knocker_deadwood && !profile.tie_is_undercut() {
        (Outcome::Knock, Side::Knocker)
    } else {
        breakdown.deadwood_difference = knocker_deadwood - defender_deadwood;
        breakdown.undercut_bonus = profile.undercut_bonus();
        (Outcome::Undercut, Side::Defender)
    };
    // At most one bonus applies. Counts of real hands (at most 100 apart) and a
    // profile's bonuses (at most MAX_POINTS_PARAMETER) keep this under 21 000
    // for a multiplier of 2; arbitrary arguments saturate rather than wrap.
    let points = breakdown
        .deadwood_difference
        .saturating_add(breakdown.gin_bonus)
        .saturating_add(breakdown.big_gin_bonus)
        .saturating_add(breakdown.undercut_bonus)
        .saturating_mul(multiplier);
    Settlement {
        outcome,
        winner,
        points,
        breakdown,
    }
}

/// Scores a whole hand from the cards: [`showdown`], then [`settle`] with the
/// profile's multiplier for the upcard.
pub fn score_hand(
    profile: &Profile,
    upcard: Option<Card>,
    knocker: &KnockerHand,
    defender: &DefenderHand,
) -> Result<HandScore, HandError> {
    let showdown = showdown(profile, upcard, knocker, defender)?;
    let multiplier = profile.multiplier_for(upcard)?;
    let settlement = settle(
        profile,
        multiplier,
        showdown.knocker.deadwood,
        showdown.defender.deadwood,
        showdown.big_gin,
    );
    Ok(HandScore {
        showdown,
        settlement,
    })
}
