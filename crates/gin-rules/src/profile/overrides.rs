//! Per-request overrides of a preset's parameters, checked as they are applied.

#[cfg(feature = "serde")]
use serde::Deserialize;

use super::{
    BoxBonusTiming, KnockLimit, MAX_KNOCK_LIMIT, MAX_POINTS_PARAMETER, NextDealer, Preset, Profile,
    ProfileError, Settlement, ShutoutRule, ShutoutTest, StockEnd,
};

/// Overrides of a preset's parameters, as a client sends them. Absent fields keep
/// the preset's value.
///
/// ```
/// use gin_rules::ProfileOverrides;
/// let overrides: ProfileOverrides =
///     serde_json::from_str(r#"{"base": "oklahoma", "gin_bonus": 20}"#).unwrap();
/// let profile = overrides.resolve().unwrap();
/// assert_eq!((profile.gin_bonus(), profile.target(), profile.name()), (20, 150, "custom"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct ProfileOverrides {
    /// The preset to start from (standard when absent).
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub base: Option<Preset>,
    /// Overrides [`Profile::knock_limit`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub knock_limit: Option<KnockLimit>,
    /// Overrides [`Profile::ace_upcard_knock_limit`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub ace_upcard_knock_limit: Option<u8>,
    /// Overrides [`Profile::spade_doubling`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub spade_doubling: Option<bool>,
    /// Overrides [`Profile::gin_bonus`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub gin_bonus: Option<u32>,
    /// Overrides [`Profile::big_gin_bonus`]. `null` is meaningful here (big gin
    /// not played), so it is read as "present with no value" rather than
    /// "absent".
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "present"))]
    pub big_gin_bonus: Option<Option<u32>>,
    /// Overrides [`Profile::undercut_bonus`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub undercut_bonus: Option<u32>,
    /// Overrides [`Profile::tie_is_undercut`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub tie_is_undercut: Option<bool>,
    /// Overrides [`Profile::scoreless_hand_won`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub scoreless_hand_won: Option<bool>,
    /// Overrides [`Profile::layoffs_on_gin`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub layoffs_on_gin: Option<bool>,
    /// Overrides [`Profile::stock_end`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub stock_end: Option<StockEnd>,
    /// Overrides [`Profile::next_dealer`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub next_dealer: Option<NextDealer>,
    /// Overrides [`Profile::target`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub target: Option<u32>,
    /// Overrides [`Profile::hollywood`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub hollywood: Option<bool>,
    /// Overrides [`Profile::game_bonus`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub game_bonus: Option<u32>,
    /// Overrides [`Profile::box_bonus`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub box_bonus: Option<u32>,
    /// Overrides [`Profile::box_bonus_timing`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub box_bonus_timing: Option<BoxBonusTiming>,
    /// Overrides [`Profile::shutout`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub shutout: Option<ShutoutRule>,
    /// Overrides [`Profile::shutout_bonus`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub shutout_bonus: Option<u32>,
    /// Overrides [`Profile::shutout_test`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub shutout_test: Option<ShutoutTest>,
    /// Overrides [`Profile::settlement`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub settlement: Option<Settlement>,
    /// Overrides [`Profile::jokers`].
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub jokers: Option<u8>,
    /// Overrides [`Profile::joker_deadwood`]; only with jokers in play.
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub joker_deadwood: Option<u8>,
    /// Overrides [`Profile::joker_min_natural`]; only with jokers in play.
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub joker_min_natural: Option<u8>,
    /// Overrides [`Profile::joker_layoff`]; only with jokers in play.
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub joker_layoff: Option<bool>,
    /// Overrides [`Profile::joker_pickup_must_meld`]; only with jokers in play.
    #[cfg_attr(feature = "serde", serde(default, deserialize_with = "given"))]
    pub joker_pickup_must_meld: Option<bool>,
}

/// An override that is present must hold a value: `null` is an error.
#[cfg(feature = "serde")]
fn given<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

#[cfg(feature = "serde")]
fn present<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<u32>>, D::Error> {
    Option::<u32>::deserialize(deserializer).map(Some)
}

impl ProfileOverrides {
    /// Applies the overrides to the base preset (standard when absent) and checks
    /// the result.
    pub fn resolve(&self) -> Result<Profile, ProfileError> {
        let mut p = self.applied();
        self.check_knock_limit(&p)?;
        check_values(&p)?;
        p.jokers.check()?;
        self.check_joker_rules(&p)?;
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

    /// The base preset with every given override written over it, unchecked;
    /// named `custom` when anything is overridden.
    fn applied(&self) -> Profile {
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
            scoreless_hand_won,
            layoffs_on_gin,
            stock_end,
            next_dealer,
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
        // The joker parameters live together in `JokerRules`.
        macro_rules! apply_joker {
            ($($field:ident),*) => { $( if let Some(value) = self.$field { p.jokers.$field = value; } )* };
        }
        apply_joker!(
            jokers,
            joker_deadwood,
            joker_min_natural,
            joker_layoff,
            joker_pickup_must_meld
        );
        p
    }

    /// A fixed knock limit is 0..=10 and takes no ace rule (that applies only
    /// to a limit set by the upcard).
    fn check_knock_limit(&self, p: &Profile) -> Result<(), ProfileError> {
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
        Ok(())
    }

    /// Like an ace rule for a fixed limit: a joker rule without jokers means
    /// nothing, and is refused rather than silently ignored.
    fn check_joker_rules(&self, p: &Profile) -> Result<(), ProfileError> {
        if p.jokers.jokers() != 0 {
            return Ok(());
        }
        let joker_rules = [
            ("joker_deadwood", self.joker_deadwood.is_some()),
            ("joker_min_natural", self.joker_min_natural.is_some()),
            ("joker_layoff", self.joker_layoff.is_some()),
            (
                "joker_pickup_must_meld",
                self.joker_pickup_must_meld.is_some(),
            ),
        ];
        match joker_rules.into_iter().find(|(_, given)| *given) {
            Some((parameter, _)) => Err(ProfileError::Combination {
                parameters: [parameter, "jokers"],
                message: format!("{parameter} applies only when jokers is 1 or 2"),
            }),
            None => Ok(()),
        }
    }
}

/// The ace rule is 0 or 1, a game has a target, and no points parameter
/// passes [`MAX_POINTS_PARAMETER`].
fn check_values(p: &Profile) -> Result<(), ProfileError> {
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
    Ok(())
}
