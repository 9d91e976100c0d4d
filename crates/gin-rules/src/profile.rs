//! Rule profiles: the parameters on which the sources disagree, the presets that
//! reproduce each source (`RULES.md`'s table), and per-request overrides.
//!
//! Every parameter of a preset can be overridden; [`ProfileOverrides::resolve`]
//! rejects values outside their range and combinations that mean nothing (an ace
//! rule for a fixed knock limit, a flat shutout bonus for a school that doubles).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::card::{Card, Rank, Suit};

/// The named presets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Hoyle as in seed 000 (and seed 004 apart from its shutout wording).
    Standard,
    /// Seed 001's Oklahoma: the first upcard sets the knock limit, spades double.
    Oklahoma,
    /// Seed 001's gin-only play: knock limit 0.
    Straight,
    /// Standard with the 50th-card rule at the end of the stock.
    Tournament,
    /// Three games scored at once.
    Hollywood,
    /// Pagat's values: gin 20, undercut 10, box 20, shutout game bonus 200.
    Pagat,
    /// Seed 003: no game bonus, winner scores the difference, shutout +100.
    Schneider,
    /// Seed 002: layoffs allowed on gin, shutout +100 if the loser won no hand.
    OpenGin,
}

impl Preset {
    pub const ALL: [Preset; 8] = [
        Preset::Standard,
        Preset::Oklahoma,
        Preset::Straight,
        Preset::Tournament,
        Preset::Hollywood,
        Preset::Pagat,
        Preset::Schneider,
        Preset::OpenGin,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Preset::Standard => "standard",
            Preset::Oklahoma => "oklahoma",
            Preset::Straight => "straight",
            Preset::Tournament => "tournament",
            Preset::Hollywood => "hollywood",
            Preset::Pagat => "pagat",
            Preset::Schneider => "schneider",
            Preset::OpenGin => "open-gin",
        }
    }

    /// The preset's parameters, as in `RULES.md`'s table.
    pub fn profile(self) -> Profile {
        let standard = Profile {
            name: self.name().to_owned(),
            base: self,
            knock_limit: KnockLimit::Fixed(10),
            ace_upcard_knock_limit: 0,
            spade_doubling: false,
            gin_bonus: 25,
            big_gin_bonus: None,
            undercut_bonus: 25,
            tie_is_undercut: true,
            layoffs_on_gin: false,
            stock_end: StockEnd::Void,
            target: 100,
            hollywood: false,
            game_bonus: 100,
            box_bonus: 25,
            box_bonus_timing: BoxBonusTiming::EndOfGame,
            shutout: ShutoutRule::DoubleHandPointsAndGameBonus,
            shutout_bonus: 0,
            shutout_test: ShutoutTest::ScoredNothing,
            settlement: Settlement::TotalsAndNet,
        };
        match self {
            Preset::Standard => standard,
            Preset::Oklahoma => Profile {
                knock_limit: KnockLimit::Upcard,
                spade_doubling: true,
                target: 150,
                ..standard
            },
            Preset::Straight => Profile {
                knock_limit: KnockLimit::Fixed(0),
                ..standard
            },
            Preset::Tournament => Profile {
                stock_end: StockEnd::FiftiethCard,
                ..standard
            },
            Preset::Hollywood => Profile {
                hollywood: true,
                ..standard
            },
            Preset::Pagat => Profile {
                gin_bonus: 20,
                undercut_bonus: 10,
                box_bonus: 20,
                shutout: ShutoutRule::DoubleGameBonus,
                ..standard
            },
            Preset::Schneider => Profile {
                game_bonus: 0,
                box_bonus: 20,
                shutout: ShutoutRule::FlatBonus,
                shutout_bonus: 100,
                settlement: Settlement::WinnerScoresDifference,
                ..standard
            },
            Preset::OpenGin => Profile {
                gin_bonus: 20,
                undercut_bonus: 10,
                layoffs_on_gin: true,
                box_bonus: 20,
                shutout: ShutoutRule::FlatBonus,
                shutout_bonus: 100,
                shutout_test: ShutoutTest::WonNoHand,
                ..standard
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = ProfileError;

    fn from_str(name: &str) -> Result<Preset, ProfileError> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| ProfileError::UnknownPreset(name.to_owned()))
    }
}

/// How the knock limit is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KnockLimit {
    /// A fixed limit, 0 (gin only) to 10.
    Fixed(u8),
    /// Oklahoma: the first upcard's value (courts 10; the ace per
    /// [`Profile::ace_upcard_knock_limit`]).
    Upcard,
}

impl Serialize for KnockLimit {
    /// A number, or the string `"upcard"`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            KnockLimit::Fixed(limit) => serializer.serialize_u8(*limit),
            KnockLimit::Upcard => serializer.serialize_str("upcard"),
        }
    }
}

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StockEnd {
    /// The hand is void: no points, no box.
    Void,
    /// Tournament 50th-card rule: after the player who drew the 50th card discards
    /// without knocking, the opponent may take that discard only to knock.
    FiftiethCard,
}

/// When box (line) bonuses are credited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoxBonusTiming {
    /// At the end of the game, not counted toward the target (Hoyle).
    EndOfGame,
    /// As each hand is won, counting toward the target (as one known app does).
    EachHand,
}

/// How a shutout (the loser "scored nothing" or "won no hand") is rewarded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShutoutRule {
    /// Seed 000: the winner's hand points and game bonus are doubled, boxes not.
    DoubleHandPointsAndGameBonus,
    /// Seed 004: the winner's whole score (boxes included) is doubled.
    DoubleTotal,
    /// Seeds 002, 003: a flat bonus of [`Profile::shutout_bonus`].
    FlatBonus,
    /// Pagat: the game bonus is doubled.
    DoubleGameBonus,
}

/// What counts as a shutout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShutoutTest {
    /// The loser scored no points.
    ScoredNothing,
    /// The loser won no hand (seed 002).
    WonNoHand,
}

/// How a finished game is settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Settlement {
    /// Both totals are reported with the net difference.
    TotalsAndNet,
    /// Seed 003: the winner scores the difference between the totals.
    WinnerScoresDifference,
}

/// Every parameter of a rule profile, resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Profile {
    /// The preset's name, or `custom` once anything is overridden.
    pub name: String,
    /// The preset the profile starts from.
    pub base: Preset,
    pub knock_limit: KnockLimit,
    /// The knock limit when the upcard is an ace under an upcard limit: 0 (gin
    /// only, the usual reading) or 1.
    pub ace_upcard_knock_limit: u8,
    /// Double the hand's points when the first upcard is a spade.
    pub spade_doubling: bool,
    pub gin_bonus: u32,
    /// `None`: big gin is not played (11 melded cards must discard and go gin).
    pub big_gin_bonus: Option<u32>,
    pub undercut_bonus: u32,
    /// Equal counts are an undercut (the usual rule); otherwise the knocker wins 0.
    pub tie_is_undercut: bool,
    /// The defender may lay off on a gin hand (seed 002).
    pub layoffs_on_gin: bool,
    pub stock_end: StockEnd,
    /// Points that end a game.
    pub target: u32,
    /// Three games scored at once.
    pub hollywood: bool,
    pub game_bonus: u32,
    pub box_bonus: u32,
    pub box_bonus_timing: BoxBonusTiming,
    pub shutout: ShutoutRule,
    /// The flat bonus for [`ShutoutRule::FlatBonus`]; 0 otherwise.
    pub shutout_bonus: u32,
    pub shutout_test: ShutoutTest,
    pub settlement: Settlement,
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

/// Overrides of a preset's parameters, as a client sends them. Absent fields keep
/// the preset's value.
///
/// ```
/// use gin_rules::ProfileOverrides;
/// let overrides: ProfileOverrides =
///     serde_json::from_str(r#"{"base": "oklahoma", "gin_bonus": 20}"#).unwrap();
/// let profile = overrides.resolve().unwrap();
/// assert_eq!((profile.gin_bonus, profile.target, profile.name.as_str()), (20, 150, "custom"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileOverrides {
    #[serde(default, deserialize_with = "given")]
    pub base: Option<Preset>,
    #[serde(default, deserialize_with = "given")]
    pub knock_limit: Option<KnockLimit>,
    #[serde(default, deserialize_with = "given")]
    pub ace_upcard_knock_limit: Option<u8>,
    #[serde(default, deserialize_with = "given")]
    pub spade_doubling: Option<bool>,
    #[serde(default, deserialize_with = "given")]
    pub gin_bonus: Option<u32>,
    /// `null` is meaningful here (big gin not played), so it is read as
    /// "present with no value" rather than "absent".
    #[serde(default, deserialize_with = "present")]
    pub big_gin_bonus: Option<Option<u32>>,
    #[serde(default, deserialize_with = "given")]
    pub undercut_bonus: Option<u32>,
    #[serde(default, deserialize_with = "given")]
    pub tie_is_undercut: Option<bool>,
    #[serde(default, deserialize_with = "given")]
    pub layoffs_on_gin: Option<bool>,
    #[serde(default, deserialize_with = "given")]
    pub stock_end: Option<StockEnd>,
    #[serde(default, deserialize_with = "given")]
    pub target: Option<u32>,
    #[serde(default, deserialize_with = "given")]
    pub hollywood: Option<bool>,
    #[serde(default, deserialize_with = "given")]
    pub game_bonus: Option<u32>,
    #[serde(default, deserialize_with = "given")]
    pub box_bonus: Option<u32>,
    #[serde(default, deserialize_with = "given")]
    pub box_bonus_timing: Option<BoxBonusTiming>,
    #[serde(default, deserialize_with = "given")]
    pub shutout: Option<ShutoutRule>,
    #[serde(default, deserialize_with = "given")]
    pub shutout_bonus: Option<u32>,
    #[serde(default, deserialize_with = "given")]
    pub shutout_test: Option<ShutoutTest>,
    #[serde(default, deserialize_with = "given")]
    pub settlement: Option<Settlement>,
}

/// An override that is present must hold a value: `null` is an error.
fn given<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

fn present<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<u32>>, D::Error> {
    Option::<u32>::deserialize(deserializer).map(Some)
}

impl ProfileOverrides {
    /// Applies the overrides to the base preset (standard when absent) and checks
    /// the result.
    pub fn resolve(&self) -> Result<Profile, ProfileError> {
        let base = self.base.unwrap_or(Preset::Standard);
        let mut p = base.profile();
        let overridden = *self
            != ProfileOverrides {
                base: self.base,
                ..ProfileOverrides::default()
            };
        if overridden {
            p.name = "custom".to_owned();
        }
        macro_rules! apply {
            ($($field:ident),*) => { $( if let Some(value) = self.$field { p.$field = value; } )* };
        }
        apply!(
            knock_limit,
            ace_upcard_knock_limit,
            spade_doubling,
            gin_bonus,
            big_gin_bonus,
            undercut_bonus,
            tie_is_undercut,
            layoffs_on_gin,
            stock_end,
            target,
            hollywood,
            game_bonus,
            box_bonus,
            box_bonus_timing,
            shutout,
            shutout_bonus,
            shutout_test,
            settlement
        );

        if let KnockLimit::Fixed(limit) = p.knock_limit {
            if limit > MAX_KNOCK_LIMIT {
                return Err(ProfileError::invalid(
                    "knock_limit",
                    format!("{limit} is outside 0..=10"),
                ));
            }
            if self.ace_upcard_knock_limit.is_some() {
                return Err(ProfileError::Combination {
                    parameters: ["ace_upcard_knock_limit", "knock_limit"],
                    message: "ace_upcard_knock_limit applies only when knock_limit is \"upcard\""
                        .into(),
                });
            }
        }
        if p.ace_upcard_knock_limit > 1 {
            return Err(ProfileError::invalid(
                "ace_upcard_knock_limit",
                format!("{} must be 0 (gin only) or 1", p.ace_upcard_knock_limit),
            ));
        }
        if p.target == 0 {
            return Err(ProfileError::invalid(
                "target",
                "a game needs a target of at least 1 point".into(),
            ));
        }
        let points = [
            ("gin_bonus", Some(p.gin_bonus)),
            ("big_gin_bonus", p.big_gin_bonus),
            ("undercut_bonus", Some(p.undercut_bonus)),
            ("target", Some(p.target)),
            ("game_bonus", Some(p.game_bonus)),
            ("box_bonus", Some(p.box_bonus)),
            ("shutout_bonus", Some(p.shutout_bonus)),
        ];
        for (parameter, value) in points {
            if let Some(value) = value.filter(|&v| v > MAX_POINTS_PARAMETER) {
                return Err(ProfileError::invalid(
                    parameter,
                    format!("{value} is above the maximum of {MAX_POINTS_PARAMETER}"),
                ));
            }
        }
        if p.shutout != ShutoutRule::FlatBonus && self.shutout_bonus.is_some_and(|b| b > 0) {
            return Err(ProfileError::Combination {
                parameters: ["shutout_bonus", "shutout"],
                message: "shutout_bonus is used only when shutout is \"flat_bonus\"".into(),
            });
        }
        if p.shutout != ShutoutRule::FlatBonus {
            p.shutout_bonus = 0;
        }
        Ok(p)
    }
}

/// Why a profile cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    #[error(
        "unknown profile \"{0}\"; the presets are standard, oklahoma, straight, tournament, hollywood, pagat, schneider, open-gin"
    )]
    UnknownPreset(String),
    #[error("invalid value for {parameter}: {message}")]
    InvalidParameter {
        parameter: &'static str,
        message: String,
    },
    #[error("{message}")]
    Combination {
        parameters: [&'static str; 2],
        message: String,
    },
    #[error("this profile needs the first upcard: {reason}")]
    UpcardRequired { reason: &'static str },
}

impl ProfileError {
    fn invalid(parameter: &'static str, message: String) -> ProfileError {
        ProfileError::InvalidParameter { parameter, message }
    }

    /// Stable machine-readable code.
    pub const fn code(&self) -> &'static str {
        match self {
            ProfileError::UnknownPreset(_) => "unknown_profile",
            ProfileError::InvalidParameter { .. } => "invalid_profile",
            ProfileError::Combination { .. } => "invalid_profile_combination",
            ProfileError::UpcardRequired { .. } => "upcard_required",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(json: &str) -> Result<Profile, ProfileError> {
        serde_json::from_str::<ProfileOverrides>(json)
            .unwrap()
            .resolve()
    }

    #[test]
    fn every_preset_matches_the_rules_table() {
        let row = |p: Preset| {
            let p = p.profile();
            (
                p.knock_limit,
                p.spade_doubling,
                p.gin_bonus,
                p.undercut_bonus,
                p.layoffs_on_gin,
                p.stock_end,
                p.target,
                p.game_bonus,
                p.box_bonus,
                p.shutout,
                p.settlement,
            )
        };
        use KnockLimit::*;
        use ShutoutRule::*;
        use StockEnd::*;
        assert_eq!(
            row(Preset::Standard),
            (
                Fixed(10),
                false,
                25,
                25,
                false,
                Void,
                100,
                100,
                25,
                DoubleHandPointsAndGameBonus,
                Settlement::TotalsAndNet
            )
        );
        assert_eq!(
            row(Preset::Oklahoma),
            (
                Upcard,
                true,
                25,
                25,
                false,
                Void,
                150,
                100,
                25,
                DoubleHandPointsAndGameBonus,
                Settlement::TotalsAndNet
            )
        );
        assert_eq!(
            row(Preset::Straight),
            (
                Fixed(0),
                false,
                25,
                25,
                false,
                Void,
                100,
                100,
                25,
                DoubleHandPointsAndGameBonus,
                Settlement::TotalsAndNet
            )
        );
        assert_eq!(
            row(Preset::Tournament),
            (
                Fixed(10),
                false,
                25,
                25,
                false,
                FiftiethCard,
                100,
                100,
                25,
                DoubleHandPointsAndGameBonus,
                Settlement::TotalsAndNet
            )
        );
        assert_eq!(
            row(Preset::Hollywood),
            (
                Fixed(10),
                false,
                25,
                25,
                false,
                Void,
                100,
                100,
                25,
                DoubleHandPointsAndGameBonus,
                Settlement::TotalsAndNet
            )
        );
        assert_eq!(
            row(Preset::Pagat),
            (
                Fixed(10),
                false,
                20,
                10,
                false,
                Void,
                100,
                100,
                20,
                DoubleGameBonus,
                Settlement::TotalsAndNet
            )
        );
        assert_eq!(
            row(Preset::Schneider),
            (
                Fixed(10),
                false,
                25,
                25,
                false,
                Void,
                100,
                0,
                20,
                FlatBonus,
                Settlement::WinnerScoresDifference
            )
        );
        assert_eq!(
            row(Preset::OpenGin),
            (
                Fixed(10),
                false,
                20,
                10,
                true,
                Void,
                100,
                100,
                20,
                FlatBonus,
                Settlement::TotalsAndNet
            )
        );
        assert!(Preset::Hollywood.profile().hollywood);
        assert_eq!(
            Preset::OpenGin.profile().shutout_test,
            ShutoutTest::WonNoHand
        );
        assert_eq!(Preset::Schneider.profile().shutout_bonus, 100);
        assert!(
            Preset::ALL
                .iter()
                .all(|p| p.profile().big_gin_bonus.is_none() && p.profile().tie_is_undercut)
        );
    }

    #[test]
    fn preset_names_round_trip() {
        for preset in Preset::ALL {
            assert_eq!(preset.name().parse::<Preset>(), Ok(preset));
            assert_eq!(
                serde_json::to_string(&preset).unwrap(),
                format!("\"{}\"", preset.name())
            );
        }
        assert_eq!(
            "gin".parse::<Preset>().unwrap_err().code(),
            "unknown_profile"
        );
    }

    #[test]
    fn overrides_change_only_what_they_name() {
        let p = resolve(r#"{"base": "pagat", "target": 250, "big_gin_bonus": 31}"#).unwrap();
        assert_eq!(
            (p.target, p.big_gin_bonus, p.gin_bonus, p.name.as_str()),
            (250, Some(31), 20, "custom")
        );
        let unchanged = resolve(r#"{"base": "schneider"}"#).unwrap();
        assert_eq!(unchanged, Preset::Schneider.profile());
        assert_eq!(resolve("{}").unwrap(), Profile::default());
        let off = resolve(r#"{"big_gin_bonus": null}"#).unwrap();
        assert_eq!(off.big_gin_bonus, None);
    }

    #[test]
    fn out_of_range_values_and_meaningless_combinations_are_rejected() {
        assert!(serde_json::from_str::<ProfileOverrides>(r#"{"knock_limit": 11}"#).is_err());
        assert!(serde_json::from_str::<ProfileOverrides>(r#"{"knock_limit": "seven"}"#).is_err());
        assert!(serde_json::from_str::<ProfileOverrides>(r#"{"gin": 20}"#).is_err());
        assert!(serde_json::from_str::<ProfileOverrides>(r#"{"gin_bonus": null}"#).is_err());
        assert!(serde_json::from_str::<ProfileOverrides>(r#"{"base": null}"#).is_err());
        assert_eq!(
            resolve(r#"{"target": 0}"#).unwrap_err().code(),
            "invalid_profile"
        );
        assert_eq!(
            resolve(r#"{"gin_bonus": 10001}"#).unwrap_err().code(),
            "invalid_profile"
        );
        assert_eq!(
            resolve(r#"{"base": "oklahoma", "ace_upcard_knock_limit": 2}"#)
                .unwrap_err()
                .code(),
            "invalid_profile"
        );
        assert_eq!(
            resolve(r#"{"ace_upcard_knock_limit": 1}"#)
                .unwrap_err()
                .code(),
            "invalid_profile_combination"
        );
        assert_eq!(
            resolve(r#"{"shutout_bonus": 50}"#).unwrap_err().code(),
            "invalid_profile_combination"
        );
        assert!(resolve(r#"{"base": "oklahoma", "ace_upcard_knock_limit": 1}"#).is_ok());
        assert!(resolve(r#"{"shutout": "flat_bonus", "shutout_bonus": 50}"#).is_ok());
    }

    #[test]
    fn oklahoma_ace_upcard_is_gin_only_unless_the_looser_reading_is_chosen() {
        let ace: Card = "AS".parse().unwrap();
        assert_eq!(Preset::Oklahoma.profile().knock_limit_for(Some(ace)), Ok(0));
        let loose = resolve(r#"{"base": "oklahoma", "ace_upcard_knock_limit": 1}"#).unwrap();
        assert_eq!(loose.knock_limit_for(Some(ace)), Ok(1));
    }

    #[test]
    fn spades_double_only_under_spade_doubling() {
        let spade: Card = "9S".parse().unwrap();
        let heart: Card = "9H".parse().unwrap();
        let oklahoma = Preset::Oklahoma.profile();
        assert_eq!(oklahoma.multiplier_for(Some(spade)), Ok(2));
        assert_eq!(oklahoma.multiplier_for(Some(heart)), Ok(1));
        assert_eq!(Profile::default().multiplier_for(Some(spade)), Ok(1));
        assert_eq!(
            oklahoma.multiplier_for(None).unwrap_err().code(),
            "upcard_required"
        );
    }
}
