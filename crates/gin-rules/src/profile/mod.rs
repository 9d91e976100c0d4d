//! Rule profiles: the parameters on which the sources disagree, the presets that
//! reproduce each source (`docs/RULES.md`, "Presets and parameters"), and
//! per-request overrides.
//!
//! Every parameter of a preset can be overridden; [`ProfileOverrides::resolve`]
//! rejects values outside their range and combinations that mean nothing (an ace
//! rule for a fixed knock limit, a flat shutout bonus for a school that doubles).

#[cfg(feature = "serde")]
use std::fmt;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, Suit};

mod overrides;
mod preset;
#[cfg(test)]
mod tests;

pub use overrides::ProfileOverrides;

pub use preset::Preset;

/// How the knock limit is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KnockLimit {
    /// A fixed limit, 0 (gin only) to 10.
    Fixed(u8),
    /// Oklahoma: the first upcard's value (courts 10; the ace per
    /// [`Profile::ace_upcard_knock_limit`]).
    Upcard,
}

#[cfg(feature = "serde")]
impl Serialize for KnockLimit {
    /// A number, or the string `"upcard"`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            KnockLimit::Fixed(limit) => serializer.serialize_u8(*limit),
            KnockLimit::Upcard => serializer.serialize_str("upcard"),
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for KnockLimit {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<KnockLimit, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = KnockLimit;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a knock limit from 0 to 10, or \"upcard\"")
            }
            fn visit_u64<E: serde::de::Error>(self, limit: u64) -> Result<KnockLimit, E> {
                u8::try_from(limit)
                    .ok()
                    .filter(|&l| l <= MAX_KNOCK_LIMIT)
                    .map(KnockLimit::Fixed)
                    .ok_or_else(|| E::custom(format!("knock limit {limit} is outside 0..=10")))
            }
            fn visit_i64<E: serde::de::Error>(self, limit: i64) -> Result<KnockLimit, E> {
                match u64::try_from(limit) {
                    Ok(limit) => self.visit_u64(limit),
                    Err(_) => Err(E::custom(format!("knock limit {limit} is outside 0..=10"))),
                }
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<KnockLimit, E> {
                match text {
                    "upcard" => Ok(KnockLimit::Upcard),
                    other => Err(E::custom(format!(
                        "knock limit \"{other}\" must be a number from 0 to 10 or \"upcard\""
                    ))),
                }
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// What happens when only two stock cards remain and nobody has knocked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum StockEnd {
    /// The hand is void: no points, no box.
    Void,
    /// Tournament 50th-card rule: after the player who drew the 50th card discards
    /// without knocking, the opponent may take that discard only to knock.
    FiftiethCard,
}

/// Who deals the next hand of a match (checked by the match audit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum NextDealer {
    /// The deal alternates, after a void hand too (`[S4]`: "the dealer
    /// alternates").
    Alternate,
    /// The winner of a hand deals the next (`[S2]`, Hoyle, many clubs); after a
    /// hand that scores nothing (void, or a tie the knocker wins for 0) the same
    /// dealer deals again.
    Winner,
    /// The EAAI challenge's rule: the deal passes after a hand that scores
    /// points; after a void hand (or a tie won for 0, where a profile lets
    /// ties go to the knocker) the same dealer deals again.
    AlternateAfterScored,
}

/// When box (line) bonuses are credited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum BoxBonusTiming {
    /// At the end of the game, not counted toward the target (Hoyle).
    EndOfGame,
    /// As each hand is won, counting toward the target (as one known app does).
    EachHand,
}

/// How a shutout (the loser "scored nothing" or "won no hand") is rewarded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ShutoutRule {
    /// `[S0]`: the winner's hand points and game bonus are doubled, boxes not.
    DoubleHandPointsAndGameBonus,
    /// `[S4]`: the winner's whole score (boxes included) is doubled.
    DoubleTotal,
    /// `[S2]`, `[S3]`: a flat bonus of [`Profile::shutout_bonus`].
    FlatBonus,
    /// Pagat: the game bonus is doubled.
    DoubleGameBonus,
}

/// What counts as a shutout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ShutoutTest {
    /// The loser scored no points.
    ScoredNothing,
    /// The loser won no hand (`[S2]`).
    WonNoHand,
}

/// How a finished game is settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Settlement {
    /// Both totals are reported with the net difference.
    TotalsAndNet,
    /// `[S3]`: the winner scores the difference between the totals.
    WinnerScoresDifference,
}

/// Every parameter of a rule profile, resolved and checked.
///
/// A profile is built only by a preset ([`Preset::profile`]) or by checked
/// overrides of one ([`ProfileOverrides::resolve`]), so every profile holds
/// values in range and in a meaningful combination; the fields are read through
/// the methods below. Its JSON form lists the fields by these names.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Profile {
    name: String,
    base: Preset,
    knock_limit: KnockLimit,
    ace_upcard_knock_limit: u8,
    spade_doubling: bool,
    gin_bonus: u32,
    big_gin_bonus: Option<u32>,
    undercut_bonus: u32,
    tie_is_undercut: bool,
    scoreless_hand_won: bool,
    layoffs_on_gin: bool,
    stock_end: StockEnd,
    next_dealer: NextDealer,
    target: u32,
    hollywood: bool,
    game_bonus: u32,
    box_bonus: u32,
    box_bonus_timing: BoxBonusTiming,
    shutout: ShutoutRule,
    shutout_bonus: u32,
    shutout_test: ShutoutTest,
    settlement: Settlement,
    // The wild-card parameters, written into the JSON form only when the
    // profile plays with jokers: a joker-free profile names no joker
    // parameter at all.
    #[cfg_attr(feature = "serde", serde(flatten))]
    jokers: JokerRules,
}

/// The wild-card (joker) parameters of a profile (`docs/RULES.md`, "Jokers").
///
/// Jokers are opt-in: every preset but `jokers` plays without them, and then
/// the other parameters here keep their defaults and mean nothing. Read them
/// from a profile ([`Profile::joker_rules`]); the wild-card solver
/// (`gin_rules::min_deadwood` and its neighbours) takes them as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct JokerRules {
    jokers: u8,
    joker_deadwood: u8,
    joker_min_natural: u8,
    joker_layoff: bool,
    joker_pickup_must_meld: bool,
}

/// The jokers a profile may add to the deck: none, `X1`, or `X1` and `X2`.
pub const MAX_JOKERS: u8 = 2;
/// The values a joker left in deadwood may count.
pub const JOKER_DEADWOOD_VALUES: [u8; 3] = [0, 15, 25];

impl JokerRules {
    /// No jokers: the standard game (the other parameters at their defaults).
    pub const NONE: JokerRules = JokerRules {
        jokers: 0,
        ..JokerRules::TWO_JOKERS
    };

    /// The `jokers` preset's rules: two jokers, 15 in deadwood, two natural
    /// cards per meld, jokers may be laid off, a joker picked up from the
    /// discard pile need not be melded at once.
    pub const TWO_JOKERS: JokerRules = JokerRules {
        jokers: 2,
        joker_deadwood: 15,
        joker_min_natural: 2,
        joker_layoff: true,
        joker_pickup_must_meld: false,
    };

    /// Rules with these values, checked as a profile override is: `jokers` 0
    /// to 2, `joker_deadwood` 0, 15 or 25, `joker_min_natural` 1 to 3.
    pub fn new(
        jokers: u8,
        joker_deadwood: u8,
        joker_min_natural: u8,
    ) -> Result<JokerRules, ProfileError> {
        let rules = JokerRules {
            jokers,
            joker_deadwood,
            joker_min_natural,
            ..JokerRules::TWO_JOKERS
        };
        rules.check()?;
        Ok(rules)
    }

    /// The same rules with `joker_layoff` set.
    pub const fn with_layoff(self, joker_layoff: bool) -> JokerRules {
        JokerRules {
            joker_layoff,
            ..self
        }
    }

    /// Range checks, with the parameter named.
    fn check(&self) -> Result<(), ProfileError> {
        if self.jokers > MAX_JOKERS {
            return Err(ProfileError::invalid(
                "jokers",
                format!("{} must be 0, 1 or 2", self.jokers),
            ));
        }
        if !JOKER_DEADWOOD_VALUES.contains(&self.joker_deadwood) {
            return Err(ProfileError::invalid(
                "joker_deadwood",
                format!("{} must be 0, 15 or 25", self.joker_deadwood),
            ));
        }
        if !(1..=3).contains(&self.joker_min_natural) {
            return Err(ProfileError::invalid(
                "joker_min_natural",
                format!("{} must be 1, 2 or 3", self.joker_min_natural),
            ));
        }
        Ok(())
    }

    /// Jokers in the deck: 0, 1 (`X1`) or 2 (`X1` and `X2`).
    pub const fn jokers(&self) -> u8 {
        self.jokers
    }

    /// What a joker left in deadwood counts: 0, 15 or 25.
    pub const fn joker_deadwood(&self) -> u8 {
        self.joker_deadwood
    }

    /// The fewest natural (non-joker) cards in a meld that holds a joker: 1, 2 or 3.
    pub const fn joker_min_natural(&self) -> u8 {
        self.joker_min_natural
    }

    /// The defender may lay a joker off onto the knocker's melds.
    pub const fn joker_layoff(&self) -> bool {
        self.joker_layoff
    }

    /// A joker taken from the discard pile must be melded that turn.
    pub const fn joker_pickup_must_meld(&self) -> bool {
        self.joker_pickup_must_meld
    }
}

impl Default for JokerRules {
    /// No jokers.
    fn default() -> JokerRules {
        JokerRules::NONE
    }
}

/// The five joker parameters by name, or nothing at all for a profile without
/// jokers (the JSON form of every joker-free profile is unchanged).
#[cfg(feature = "serde")]
impl Serialize for JokerRules {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        if self.jokers == 0 {
            return serializer.serialize_map(Some(0))?.end();
        }
        let mut map = serializer.serialize_map(Some(5))?;
        map.serialize_entry("jokers", &self.jokers)?;
        map.serialize_entry("joker_deadwood", &self.joker_deadwood)?;
        map.serialize_entry("joker_min_natural", &self.joker_min_natural)?;
        map.serialize_entry("joker_layoff", &self.joker_layoff)?;
        map.serialize_entry("joker_pickup_must_meld", &self.joker_pickup_must_meld)?;
        map.end()
    }
}

/// The largest fixed knock limit: knocking with more than 10 is not gin rummy.
pub const MAX_KNOCK_LIMIT: u8 = 10;
/// Cap on every bonus and on the target; keeps all arithmetic far from overflow.
pub const MAX_POINTS_PARAMETER: u32 = 10_000;

impl Default for Profile {
    fn default() -> Profile {
        Preset::Standard.profile()
    }
}

impl Profile {
    /// The preset's name, or `custom` once anything is overridden.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The preset the profile starts from.
    pub const fn base(&self) -> Preset {
        self.base
    }

    /// The knock limit: fixed, or the first upcard's value (Oklahoma).
    pub const fn knock_limit(&self) -> KnockLimit {
        self.knock_limit
    }

    /// The knock limit when the upcard is an ace under an upcard limit: 0 (gin
    /// only, the usual reading) or 1.
    pub const fn ace_upcard_knock_limit(&self) -> u8 {
        self.ace_upcard_knock_limit
    }

    /// Double the hand's points when the first upcard is a spade.
    pub const fn spade_doubling(&self) -> bool {
        self.spade_doubling
    }

    /// The bonus for going gin.
    pub const fn gin_bonus(&self) -> u32 {
        self.gin_bonus
    }

    /// `None`: big gin is not played (11 melded cards must discard and go gin).
    pub const fn big_gin_bonus(&self) -> Option<u32> {
        self.big_gin_bonus
    }

    /// The bonus for an undercut, to the defender.
    pub const fn undercut_bonus(&self) -> u32 {
        self.undercut_bonus
    }

    /// Equal counts are an undercut (the usual rule); otherwise the knocker wins 0.
    pub const fn tie_is_undercut(&self) -> bool {
        self.tie_is_undercut
    }

    /// A hand won for no points (a tie under `tie_is_undercut: false`, or a
    /// bonus set to 0) counts as a hand won: a box, the shutout test, a
    /// Hollywood entry. Off by default: no source awards a box for nothing
    /// (`docs/RULES.md`, "Scoring a game").
    pub const fn scoreless_hand_won(&self) -> bool {
        self.scoreless_hand_won
    }

    /// The defender may lay off on a gin hand (`[S2]`).
    pub const fn layoffs_on_gin(&self) -> bool {
        self.layoffs_on_gin
    }

    /// What happens when only two stock cards remain.
    pub const fn stock_end(&self) -> StockEnd {
        self.stock_end
    }

    /// Who deals the next hand (the match audit checks it).
    pub const fn next_dealer(&self) -> NextDealer {
        self.next_dealer
    }

    /// Points that end a game.
    pub const fn target(&self) -> u32 {
        self.target
    }

    /// Three games scored at once.
    pub const fn hollywood(&self) -> bool {
        self.hollywood
    }

    /// The bonus for winning a game.
    pub const fn game_bonus(&self) -> u32 {
        self.game_bonus
    }

    /// The box (line) bonus per hand won.
    pub const fn box_bonus(&self) -> u32 {
        self.box_bonus
    }

    /// When box bonuses are credited.
    pub const fn box_bonus_timing(&self) -> BoxBonusTiming {
        self.box_bonus_timing
    }

    /// How a shutout is rewarded.
    pub const fn shutout(&self) -> ShutoutRule {
        self.shutout
    }

    /// The flat bonus for [`ShutoutRule::FlatBonus`]; 0 otherwise.
    pub const fn shutout_bonus(&self) -> u32 {
        self.shutout_bonus
    }

    /// What counts as a shutout.
    pub const fn shutout_test(&self) -> ShutoutTest {
        self.shutout_test
    }

    /// How a finished game is settled.
    pub const fn settlement(&self) -> Settlement {
        self.settlement
    }

    /// The wild-card parameters (no jokers unless the profile adds them).
    pub const fn joker_rules(&self) -> JokerRules {
        self.jokers
    }

    /// Jokers in the deck: 0 (the default), 1 (`X1`) or 2 (`X1`, `X2`).
    pub const fn jokers(&self) -> u8 {
        self.jokers.jokers
    }

    /// What a joker left in deadwood counts: 0, 15 (default) or 25.
    pub const fn joker_deadwood(&self) -> u8 {
        self.jokers.joker_deadwood
    }

    /// The fewest natural cards in a meld holding a joker: 1, 2 (default) or 3.
    pub const fn joker_min_natural(&self) -> u8 {
        self.jokers.joker_min_natural
    }

    /// The defender may lay a joker off onto the knocker's melds (default yes).
    pub const fn joker_layoff(&self) -> bool {
        self.jokers.joker_layoff
    }

    /// A joker taken from the discard pile must be melded that turn (default no).
    pub const fn joker_pickup_must_meld(&self) -> bool {
        self.jokers.joker_pickup_must_meld
    }
}

impl Profile {
    /// The knock limit for a hand with this first upcard.
    ///
    /// ```
    /// use gin_rules::{Card, Preset};
    /// let oklahoma = Preset::Oklahoma.profile();
    /// let upcard = |c: &str| Some(c.parse::<Card>().unwrap());
    /// assert_eq!(oklahoma.knock_limit_for(upcard("7D")), Ok(7));
    /// assert_eq!(oklahoma.knock_limit_for(upcard("QD")), Ok(10));
    /// assert_eq!(oklahoma.knock_limit_for(upcard("AD")), Ok(0));
    /// assert!(oklahoma.knock_limit_for(None).is_err());
    /// assert_eq!(Preset::Straight.profile().knock_limit_for(None), Ok(0));
    /// ```
    pub fn knock_limit_for(&self, upcard: Option<Card>) -> Result<u32, ProfileError> {
        match self.knock_limit {
            KnockLimit::Fixed(limit) => Ok(u32::from(limit)),
            KnockLimit::Upcard => {
                let card = upcard.ok_or(ProfileError::UpcardRequired {
                    reason: "the knock limit is the upcard's value",
                })?;
                Ok(if card.rank() == Rank::ACE {
                    u32::from(self.ace_upcard_knock_limit)
                } else {
                    u32::from(card.value())
                })
            }
        }
    }

    /// The multiplier for a hand's points: 2 when spades double and the first
    /// upcard is a spade, else 1.
    pub fn multiplier_for(&self, upcard: Option<Card>) -> Result<u32, ProfileError> {
        if !self.spade_doubling {
            return Ok(1);
        }
        let card = upcard.ok_or(ProfileError::UpcardRequired {
            reason: "spade doubling depends on the upcard's suit",
        })?;
        Ok(if card.suit() == Suit::Spades { 2 } else { 1 })
    }

    /// Whether this profile needs the first upcard to score a hand.
    pub fn needs_upcard(&self) -> bool {
        self.knock_limit == KnockLimit::Upcard || self.spade_doubling
    }

    /// Number of games scored at once.
    pub fn games(&self) -> usize {
        if self.hollywood { 3 } else { 1 }
    }
}

/// Why a profile cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    /// No preset has this name; holds the name.
    #[error(
        "unknown profile \"{0}\"; the presets are standard, oklahoma, straight, tournament, hollywood, pagat, schneider, open-gin, partnership, jokers, eaai"
    )]
    UnknownPreset(String),
    /// A parameter outside its range.
    #[error("invalid value for {parameter}: {message}")]
    InvalidParameter {
        /// The parameter's name, as in [`ProfileOverrides`].
        parameter: &'static str,
        /// Why, in words.
        message: String,
    },
    /// Two parameters that mean nothing together.
    #[error("{message}")]
    Combination {
        /// The two parameters' names.
        parameters: [&'static str; 2],
        /// Why, in words.
        message: String,
    },
    /// The hand needs its first upcard under this profile, and has none.
    #[error("this profile needs the first upcard: {reason}")]
    UpcardRequired {
        /// What depends on the upcard.
        reason: &'static str,
    },
}

impl ProfileError {
    fn invalid(parameter: &'static str, message: String) -> ProfileError {
        ProfileError::InvalidParameter { parameter, message }
    }
}
