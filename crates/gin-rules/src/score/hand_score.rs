//! What scoring one hand reads and answers: the two hands as laid down
//! ([`KnockerHand`], [`DefenderHand`]), the [`Showdown`], the [`Settlement`]
//! and its [`Breakdown`], the [`HandScore`] and the [`HandError`]s; and
//! [`settle`], the points from the two counts, which every path shares.

use crate::StandsFor;
use crate::deadwood::Arrangement;
use crate::declared::DeclaredFault;
use crate::hand::{HandCard, HandReadFault};
use crate::layoff::{DeclaredLayoff, DeclaredReply, DefenderReply, ReplyError};
use crate::profile::{Profile, ProfileError};

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

/// The knocker's hand as declared: the cards kept after the knock discard (10,
/// or 11 for big gin) and optionally the melds, each joker written in the
/// place of the card it stands for and named in `jokers`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KnockerHand {
    /// The cards kept after the knock discard: 10, or 11 for big gin.
    pub hand: Vec<HandCard>,
    /// Declared melds, checked (legal, disjoint, from the hand, within the
    /// knock limit). Absent: the arrangement best for the knocker is chosen.
    pub melds: Option<Vec<Vec<HandCard>>>,
    /// The card each joker of `melds` stands for (an empty map is no map).
    pub jokers: Option<StandsFor>,
}

/// The defender's hand, optionally with its melds and the layoffs it played.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DefenderHand {
    /// The defender's 10 cards.
    pub hand: Vec<HandCard>,
    /// Declared melds, checked. Absent: the best reply is chosen.
    pub melds: Option<Vec<Vec<HandCard>>>,
    /// The card each joker of `melds` stands for.
    pub jokers: Option<StandsFor>,
    /// Declared layoffs in the order played, each checked against the
    /// knocker's melds as they grow. Absent: the best layoffs are chosen.
    pub layoffs: Option<Vec<DeclaredLayoff>>,
}

impl KnockerHand {
    /// A hand of these cards, nothing declared.
    pub fn of_cards(hand: impl IntoIterator<Item = impl Into<HandCard>>) -> KnockerHand {
        KnockerHand {
            hand: hand.into_iter().map(Into::into).collect(),
            ..KnockerHand::default()
        }
    }
}

impl DefenderHand {
    /// A hand of these cards, nothing declared.
    pub fn of_cards(hand: impl IntoIterator<Item = impl Into<HandCard>>) -> DefenderHand {
        DefenderHand {
            hand: hand.into_iter().map(Into::into).collect(),
            ..DefenderHand::default()
        }
    }

    /// The reply as declared.
    pub fn declared(&self) -> DeclaredReply {
        DeclaredReply {
            melds: self.melds.clone(),
            jokers: self.jokers.unwrap_or_default(),
            layoffs: self.layoffs.clone(),
        }
    }
}

/// Both sides laid down: the knocker's melds and the defender's reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Showdown {
    /// The knocker's arrangement (the knocker never lays off).
    pub knocker: Arrangement,
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
    /// A hand's list is not a hand of the deck: a card or joker twice, or a
    /// joker the profile's deck lacks.
    #[error("the {side} hand: {fault}", side = side.name())]
    Read {
        /// The hand at fault.
        side: Side,
        /// What is wrong, and where in its list.
        fault: HandReadFault,
    },
    /// A card or joker of the defender's list is in the knocker's.
    #[error("{card} is in both hands")]
    InBothHands {
        /// Its position in the defender's list.
        index: usize,
        /// The card.
        card: HandCard,
    },
    /// The knocker's declared melds are not legal: every fault found (the
    /// defender's are a [`ReplyError::Melds`]).
    #[error("the knocker's declared melds are not legal")]
    InvalidMelds(Vec<DeclaredFault>),
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
    /// The defender's declared reply is not legal.
    #[error(transparent)]
    Reply(#[from] ReplyError),
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
