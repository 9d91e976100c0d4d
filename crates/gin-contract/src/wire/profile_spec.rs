//! The `profile` member of a request, which rules to play: its schema (a preset
//! name or an object of overrides), the schema of a resolved [`Profile`], and
//! the one resolution of a selector into a profile, with its errors as problems
//! pointing into `/profile`.

use crate::rule_errors::RuleError;
use std::borrow::Cow;
use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::json;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::{RefOr, schema};
use utoipa::{PartialSchema, ToSchema};

use crate::problem::Problem;
use gin_rules::{Preset, Profile, ProfileError, ProfileOverrides};

/// Which rules to play: a preset name or overrides of one. Absent means
/// `standard`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProfileSpec {
    Preset(String),
    Overrides(ProfileOverrides),
}

impl<'de> Deserialize<'de> for ProfileSpec {
    /// A string or an object; the object is read field by field so an error keeps
    /// its path (`/profile/gin_bonus`).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ProfileSpec, D::Error> {
        struct SpecVisitor;
        impl<'de> Visitor<'de> for SpecVisitor {
            type Value = ProfileSpec;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a profile name such as \"standard\", or an object of overrides such as {\"base\": \"oklahoma\"}")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<ProfileSpec, E> {
                Ok(ProfileSpec::Preset(name.to_owned()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ProfileSpec, A::Error> {
                ProfileOverrides::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(ProfileSpec::Overrides)
            }
        }
        deserializer.deserialize_any(SpecVisitor)
    }
}

impl PartialSchema for ProfileSpec {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(RefOr::Ref(
                schema::Ref::from_schema_name(PresetName::name()),
            ))
            .item(RefOr::Ref(schema::Ref::from_schema_name(
                "ProfileOverrides",
            )))
            .description(Some(
                "The rules to play: a preset name, or an object overriding parameters of a preset \
                 (`base`, standard by default). Absent means `standard`.",
            ))
            .examples([
                json!("oklahoma"),
                json!({"base": "oklahoma", "gin_bonus": 20}),
            ])
            .into()
    }
}

impl ToSchema for ProfileSpec {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("ProfileSpec")
    }
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((PresetName::name().into(), PresetName::schema()));
        schemas.push((
            ProfileOverridesSchema::name().into(),
            ProfileOverridesSchema::schema(),
        ));
    }
}

// The documentation of `gin_rules::Profile`'s JSON form; a test keeps the two
// in step.
/// Every parameter of a resolved rule profile.
#[derive(ToSchema)]
#[schema(as = Profile, example = json!(Preset::Standard.profile()))]
#[allow(dead_code)] // A schema only: the response serialises `gin_rules::Profile` itself.
pub struct ProfileSchema {
    /// The preset's name, or `custom` when anything was overridden.
    name: String,
    /// The preset the profile starts from.
    #[schema(value_type = PresetName)]
    base: String,
    /// The most deadwood a knock may leave: a number from 0 (gin only) to 10, or
    /// `"upcard"` (Oklahoma: the first upcard's value, courts 10).
    #[schema(value_type = KnockLimitSchema)]
    knock_limit: serde_json::Value,
    /// Under an upcard limit, the limit for an ace upcard: 0 (gin only) or 1.
    #[schema(minimum = 0, maximum = 1)]
    ace_upcard_knock_limit: u8,
    /// Double the hand's points when the first upcard is a spade.
    spade_doubling: bool,
    #[schema(maximum = 10000)]
    gin_bonus: u32,
    /// Bonus for melding all 11 cards without discarding; `null`: big gin not played.
    #[schema(maximum = 10000)]
    big_gin_bonus: Option<u32>,
    #[schema(maximum = 10000)]
    undercut_bonus: u32,
    /// Equal counts are an undercut; otherwise the knocker wins 0 points.
    tie_is_undercut: bool,
    /// A hand won for no points (a tie the knocker wins for 0, or a bonus set
    /// to 0) counts as a hand won: a box, the shutout test, a Hollywood entry.
    scoreless_hand_won: bool,
    /// The defender may lay off on a gin hand.
    layoffs_on_gin: bool,
    /// `void`: no knock with 2 stock cards left voids the hand; `fiftieth_card`: the
    /// tournament 50th-card rule.
    #[schema(value_type = StockEndSchema)]
    stock_end: String,
    /// Who deals the next hand of a match (the match audit checks it):
    /// `alternate`, `winner` (the winner of a hand deals the next; after a
    /// hand that scores nothing the same dealer deals again) or
    /// `alternate_after_scored` (the deal passes after a hand that scores; after
    /// one that scores nothing the same dealer deals again).
    #[schema(value_type = NextDealerSchema)]
    next_dealer: String,
    /// Points that end a game.
    #[schema(minimum = 1, maximum = 10000)]
    target: u32,
    /// Three games scored at once.
    hollywood: bool,
    #[schema(maximum = 10000)]
    game_bonus: u32,
    /// Bonus per hand won (a "box" or "line").
    #[schema(maximum = 10000)]
    box_bonus: u32,
    /// `end_of_game` (not counted toward the target) or `each_hand`.
    #[schema(value_type = BoxBonusTimingSchema)]
    box_bonus_timing: String,
    /// How a shutout is rewarded.
    #[schema(value_type = ShutoutSchema)]
    shutout: String,
    /// The flat bonus when `shutout` is `flat_bonus`.
    #[schema(maximum = 10000)]
    shutout_bonus: u32,
    /// `scored_nothing` or `won_no_hand`.
    #[schema(value_type = ShutoutTestSchema)]
    shutout_test: String,
    /// `totals_and_net` or `winner_scores_difference`.
    #[schema(value_type = SettlementSchema)]
    settlement: String,
    /// Jokers added to the deck: 0 (absent: none), 1 (`X1`) or 2 (`X1` and
    /// `X2`); wild, see "Jokers" in the rules. The five joker parameters are
    /// listed only for a profile that plays with jokers (the `jokers` preset).
    #[schema(required = false, minimum = 0, maximum = 2, example = 2)]
    jokers: u8,
    /// What a joker left in deadwood counts: 0, 15 or 25. Only with jokers.
    #[schema(required = false, value_type = JokerDeadwoodSchema)]
    joker_deadwood: u8,
    /// The fewest natural cards in a meld holding a joker: 1, 2 or 3. Only
    /// with jokers.
    #[schema(required = false, minimum = 1, maximum = 3, example = 2)]
    joker_min_natural: u8,
    /// The defender may lay a joker off onto the knocker's melds. Only with
    /// jokers.
    #[schema(required = false)]
    joker_layoff: bool,
    /// A joker taken from the discard pile must be melded that turn. Only
    /// with jokers.
    #[schema(required = false)]
    joker_pickup_must_meld: bool,
}

/// The five joker parameters: a profile's JSON lists them only when it plays
/// with jokers.
pub const JOKER_PARAMETERS: [&str; 5] = [
    "jokers",
    "joker_deadwood",
    "joker_min_natural",
    "joker_layoff",
    "joker_pickup_must_meld",
];

/// `0`, `15` or `25`.
pub struct JokerDeadwoodSchema;

impl PartialSchema for JokerDeadwoodSchema {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .enum_values(Some(gin_rules::JOKER_DEADWOOD_VALUES))
            .description(Some("What a joker left in deadwood counts: 0, 15 or 25."))
            .into()
    }
}

impl ToSchema for JokerDeadwoodSchema {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("JokerDeadwood")
    }
}

macro_rules! string_enum_schema {
    ($name:ident, $schema_name:literal, $description:literal, [$($value:literal),+]) => {
        #[doc = $description]
        pub struct $name;
        impl PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .enum_values(Some([$($value),+]))
                    .description(Some($description))
                    .into()
            }
        }
        impl ToSchema for $name {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed($schema_name)
            }
        }
    };
}

/// A rule preset, by name (from [`Preset::ALL`], so the list cannot go stale).
pub struct PresetName;

impl PartialSchema for PresetName {
    fn schema() -> RefOr<Schema> {
        let names: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(names))
            .description(Some("A rule preset."))
            .into()
    }
}

impl ToSchema for PresetName {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("PresetName")
    }
}
string_enum_schema!(
    StockEndSchema,
    "StockEnd",
    "What ends a hand when the stock runs low.",
    ["void", "fiftieth_card"]
);
string_enum_schema!(
    NextDealerSchema,
    "NextDealer",
    "Who deals the next hand of a match.",
    ["alternate", "winner", "alternate_after_scored"]
);
string_enum_schema!(
    BoxBonusTimingSchema,
    "BoxBonusTiming",
    "When box bonuses are credited.",
    ["end_of_game", "each_hand"]
);
string_enum_schema!(
    ShutoutSchema,
    "ShutoutRule",
    "How a shutout is rewarded.",
    [
        "double_hand_points_and_game_bonus",
        "double_total",
        "flat_bonus",
        "double_game_bonus"
    ]
);
string_enum_schema!(
    ShutoutTestSchema,
    "ShutoutTest",
    "What counts as a shutout.",
    ["scored_nothing", "won_no_hand"]
);
string_enum_schema!(
    SettlementSchema,
    "SettlementRule",
    "How a finished game is settled.",
    ["totals_and_net", "winner_scores_difference"]
);

/// `0..=10` or `"upcard"`.
pub struct KnockLimitSchema;

impl PartialSchema for KnockLimitSchema {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .title(Some("FixedKnockLimit"))
                    .schema_type(Type::Integer)
                    .minimum(Some(0))
                    .maximum(Some(10)),
            )
            .item(
                ObjectBuilder::new()
                    .title(Some("UpcardKnockLimit"))
                    .schema_type(Type::String)
                    .enum_values(Some(["upcard"])),
            )
            .description(Some(
                "A fixed knock limit from 0 to 10, or \"upcard\" (Oklahoma).",
            ))
            .into()
    }
}

impl ToSchema for KnockLimitSchema {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("KnockLimit")
    }
}

/// The overrides object: every parameter of [`ProfileSchema`] but `name`, all
/// optional, plus `base`. Built from that schema so the two cannot drift.
pub struct ProfileOverridesSchema;

impl PartialSchema for ProfileOverridesSchema {
    fn schema() -> RefOr<Schema> {
        let mut builder = ObjectBuilder::new()
            .description(Some(
                "Overrides of a preset's parameters; absent ones keep the preset's value.",
            ))
            .additional_properties(Some(schema::AdditionalProperties::FreeForm(false)))
            .property("base", {
                let mut base = schema::Ref::from_schema_name(PresetName::name());
                base.description = "The preset overridden; `standard` when absent.".to_owned();
                base
            })
            .examples([json!({"base": "oklahoma", "gin_bonus": 20, "ace_upcard_knock_limit": 1})]);
        if let RefOr::T(Schema::Object(profile)) = ProfileSchema::schema() {
            for (name, property) in profile.properties {
                if name != "name" && name != "base" {
                    builder = builder.property(name, property);
                }
            }
        }
        builder.into()
    }
}

impl ToSchema for ProfileOverridesSchema {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("ProfileOverrides")
    }
}

/// Resolves a request's profile: the preset, or the preset with overrides.
pub fn resolve_profile(spec: Option<&ProfileSpec>) -> Result<Profile, Problem> {
    match spec {
        None => Ok(Profile::default()),
        Some(ProfileSpec::Preset(name)) => name.parse::<Preset>().map(Preset::profile),
        Some(ProfileSpec::Overrides(overrides)) => overrides.resolve(),
    }
    .map_err(|error| profile_problem(&error))
}

/// The problem for a profile error, pointing into `/profile` or at `/upcard`.
pub fn profile_problem(error: &ProfileError) -> Problem {
    let detail = error.to_string();
    let code = error.error_code();
    match error {
        // A body naming a preset that does not exist, or a parameter outside the
        // range the schema states, does not match the schema: 400.
        ProfileError::UnknownPreset(_) => {
            Problem::new(code, &detail).with_error("/profile", code, detail)
        }
        ProfileError::InvalidParameter { parameter, .. } => {
            Problem::new(code, &detail).with_error(format!("/profile/{parameter}"), code, detail)
        }
        ProfileError::Combination { parameters, .. } => {
            let problem = Problem::new(code, &detail);
            parameters.iter().fold(problem, |p, name| {
                p.with_error(format!("/profile/{name}"), code, detail.clone())
            })
        }
        ProfileError::UpcardRequired { .. } => {
            Problem::new(code, &detail).with_error("/upcard", code, detail)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_profile_schema_lists_exactly_the_profile_fields() {
        let fields = |preset: Preset| {
            let serialised = serde_json::to_value(preset.profile()).unwrap_or_default();
            let mut fields: Vec<String> = serialised
                .as_object()
                .map(|o| o.keys().cloned().collect())
                .unwrap_or_default();
            fields.sort();
            fields
        };
        let RefOr::T(Schema::Object(schema)) = ProfileSchema::schema() else {
            panic!("the profile schema is an object");
        };
        let mut documented: Vec<String> = schema.properties.keys().cloned().collect();
        documented.sort();
        // The jokers preset lists every parameter; the others all but the
        // joker ones, which the schema does not require.
        assert_eq!(fields(Preset::Jokers), documented);
        let without_jokers: Vec<String> = documented
            .iter()
            .filter(|name| !JOKER_PARAMETERS.contains(&name.as_str()))
            .cloned()
            .collect();
        assert_eq!(fields(Preset::Standard), without_jokers);
        for parameter in JOKER_PARAMETERS {
            assert!(
                !schema.required.iter().any(|r| r == parameter),
                "{parameter}"
            );
        }
    }

    #[test]
    fn every_documented_override_is_accepted() {
        let RefOr::T(Schema::Object(schema)) = ProfileOverridesSchema::schema() else {
            panic!("the overrides schema is an object");
        };
        let profile = serde_json::to_value(Preset::Oklahoma.profile()).unwrap_or_default();
        let jokers = serde_json::to_value(Preset::Jokers.profile()).unwrap_or_default();
        for name in schema.properties.keys() {
            let value = if name == "base" {
                json!("oklahoma")
            } else if JOKER_PARAMETERS.contains(&name.as_str()) {
                jokers[name].clone()
            } else {
                profile[name].clone()
            };
            let body = json!({ name.as_str(): value });
            assert!(
                serde_json::from_value::<ProfileOverrides>(body.clone()).is_ok(),
                "{body}"
            );
        }
    }

    #[test]
    fn a_profile_is_a_name_or_an_object() {
        let name: ProfileSpec = serde_json::from_str(r#""pagat""#).unwrap();
        assert_eq!(
            resolve_profile(Some(&name)).unwrap(),
            Preset::Pagat.profile()
        );
        let unknown: ProfileSpec = serde_json::from_str(r#""gin""#).unwrap();
        assert_eq!(resolve_profile(Some(&unknown)).unwrap_err().status, 400);
        let bad = serde_json::from_str::<ProfileSpec>(r#"{"gin_bonus": "x"}"#);
        assert!(bad.is_err());
        assert!(serde_json::from_str::<ProfileSpec>("3").is_err());
    }
}
