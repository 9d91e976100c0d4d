//! Request and response pieces shared by the referee's resources: the card
//! schema, the profile selector, the hand shapes of `/v1/layoffs`,
//! `/v1/hands/score` and friends, and the one mapping from the engine's errors to
//! problem details with JSON Pointers.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::json;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::{RefOr, schema};
use utoipa::{IntoResponses, PartialSchema, ToSchema};

use super::problem::Problem;
use gin_rules::{
    ArrangementProblem, Card, CardSet, DefenderHand, DefenderReply, HandError, HandScore,
    KnockerArrangement, KnockerHand, Layoff, Meld, MeldKind, Outcome, Preset, Profile,
    ProfileError, ProfileOverrides, Side,
};

/// ECMA-262 pattern of the card notation (OpenAPI patterns are ECMA regexes, so no
/// inline case-insensitivity flag: both cases are spelled out).
pub const CARD_PATTERN: &str = "^([AaTtJjQqKk2-9]|10)([SsHhDdCc]|♠|♥|♦|♣|♤|♡|♢|♧)$";

/// Schema of a card string; fields holding a [`Card`] point at it with
/// `#[schema(value_type = CardSchema)]`.
pub struct CardSchema;

impl PartialSchema for CardSchema {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(CARD_PATTERN))
            .description(Some(
                "A card: rank A 2-9 T (or 10) J Q K, then suit S H D C (or ♠ ♥ ♦ ♣), any case. \
                 Responses always use the canonical form, such as \"TS\".",
            ))
            .examples([json!("TS")])
            .into()
    }
}

impl ToSchema for CardSchema {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Card")
    }
}

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
            .item(PresetName::schema())
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
        schemas.push((
            ProfileOverridesSchema::name().into(),
            ProfileOverridesSchema::schema(),
        ));
    }
}

/// Every parameter of a resolved rule profile (documentation of
/// [`gin_rules::Profile`]'s JSON form; a test keeps the two in step).
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
    /// The defender may lay off on a gin hand.
    layoffs_on_gin: bool,
    /// `void`: no knock with 2 stock cards left voids the hand; `fiftieth_card`: the
    /// tournament 50th-card rule.
    #[schema(value_type = StockEndSchema)]
    stock_end: String,
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
                    .schema_type(Type::Integer)
                    .minimum(Some(0))
                    .maximum(Some(10)),
            )
            .item(
                ObjectBuilder::new()
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
            .property("base", PresetName::schema())
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

/// The 404 of every operation that takes a `profile`, for `#[utoipa::path]`.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "only the type is used, to document responses")]
pub enum UnknownProfile {
    /// The request names a profile that is not a preset (`unknown_profile`).
    #[response(
        status = 404,
        content_type = "application/problem+json",
        example = json!({"type": "https://gin-referee.dev/problems/unknown_profile", "title": "Unknown profile",
            "status": 404, "detail": "unknown profile \"gin\"", "code": "unknown_profile",
            "errors": [{"pointer": "/profile", "code": "unknown_profile", "message": "unknown profile \"gin\""}]})
    )]
    NotFound(Problem),
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
    match error {
        ProfileError::UnknownPreset(_) => {
            Problem::not_found(error.code(), &detail).with_error("/profile", error.code(), detail)
        }
        ProfileError::InvalidParameter { parameter, .. } => Problem::unprocessable(
            error.code(),
            &detail,
        )
        .with_error(format!("/profile/{parameter}"), error.code(), detail),
        ProfileError::Combination { parameters, .. } => {
            let problem = Problem::unprocessable(error.code(), &detail);
            parameters.iter().fold(problem, |p, name| {
                p.with_error(format!("/profile/{name}"), error.code(), detail.clone())
            })
        }
        ProfileError::UpcardRequired { .. } => Problem::unprocessable(error.code(), &detail)
            .with_error("/upcard", error.code(), detail),
    }
}

/// A hand as sent: a list of cards.
pub type CardList = Vec<Card>;

/// The knocker's cards and, optionally, the melds it declares.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KnockerInput {
    /// The cards kept after the knock discard: 10, or 11 for big gin.
    #[schema(value_type = Vec<CardSchema>, min_items = 10, max_items = 11,
             example = json!(["3H", "4H", "5H", "9S", "9H", "9D", "3C", "4C", "5C", "AH"]))]
    pub hand: CardList,
    /// Declared melds, checked (legal, disjoint, from the hand, within the knock
    /// limit). Absent: the arrangement best for the knocker is chosen.
    #[schema(value_type = Option<Vec<Vec<CardSchema>>>,
             example = json!([["3H", "4H", "5H"], ["9S", "9H", "9D"], ["3C", "4C", "5C"]]))]
    pub melds: Option<Vec<CardList>>,
}

impl KnockerInput {
    pub fn to_domain(&self) -> KnockerHand {
        KnockerHand {
            hand: self.hand.clone(),
            melds: self.melds.clone(),
        }
    }
}

/// One card laid off onto a knocker meld.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"card": "6H", "meld": 0}))]
pub struct LayoffDto {
    #[schema(value_type = CardSchema)]
    pub card: Card,
    /// Index into the knocker's melds.
    // A u32 on the wire so the service reads exactly the range the schema states
    // (an index past the knocker's melds is then a 422, not a 400). utoipa would
    // call a u32 `int32`, whose range ends at 2^31 - 1: state the range exactly.
    #[schema(format = Int64, minimum = 0, maximum = 4294967295_u64)]
    pub meld: u32,
}

impl From<Layoff> for LayoffDto {
    fn from(layoff: Layoff) -> LayoffDto {
        LayoffDto {
            card: layoff.card,
            // Indexes of real melds (at most a handful) always fit.
            meld: u32::try_from(layoff.meld).unwrap_or(u32::MAX),
        }
    }
}

impl From<LayoffDto> for Layoff {
    fn from(layoff: LayoffDto) -> Layoff {
        Layoff {
            card: layoff.card,
            // On a 16-bit target an index this large names no meld anyway.
            meld: usize::try_from(layoff.meld).unwrap_or(usize::MAX),
        }
    }
}

/// The defender's cards and, optionally, its declared melds and layoffs.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DefenderInput {
    /// The defender's 10 cards.
    #[schema(value_type = Vec<CardSchema>, min_items = 10, max_items = 10,
             example = json!(["6H", "2H", "JS", "JH", "JD", "7S", "7H", "7C", "4D", "5S"]))]
    pub hand: CardList,
    /// Declared melds, checked. Absent: the best reply is chosen.
    #[schema(value_type = Option<Vec<Vec<CardSchema>>>)]
    pub melds: Option<Vec<CardList>>,
    /// Declared layoffs in the order played, each checked against the knocker's
    /// melds as they grow. Absent: the best layoffs are chosen.
    pub layoffs: Option<Vec<LayoffDto>>,
}

impl DefenderInput {
    pub fn to_domain(&self) -> DefenderHand {
        DefenderHand {
            hand: self.hand.clone(),
            melds: self.melds.clone(),
            layoffs: self
                .layoffs
                .as_ref()
                .map(|list| list.iter().copied().map(Layoff::from).collect()),
        }
    }
}

/// Cards in canonical order.
pub fn card_list(cards: CardSet) -> Vec<Card> {
    cards.to_vec()
}

/// Melds as lists of canonical cards.
pub fn meld_lists(melds: &[Meld]) -> Vec<Vec<Card>> {
    melds.iter().map(|m| m.cards().to_vec()).collect()
}

/// The knocker's side as laid down.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct KnockerOutput {
    /// The knocker's melds (declared, or chosen as best for the knocker).
    #[schema(value_type = Vec<Vec<CardSchema>>, example = json!([["3H", "4H", "5H"], ["9S", "9H", "9D"], ["3C", "4C", "5C"]]))]
    pub melds: Vec<Vec<Card>>,
    #[schema(value_type = Vec<CardSchema>, example = json!(["AH"]))]
    pub deadwood_cards: Vec<Card>,
    /// The knocker's count (the knocker never lays off).
    #[schema(example = 1)]
    pub deadwood: u32,
}

impl From<&KnockerArrangement> for KnockerOutput {
    fn from(k: &KnockerArrangement) -> KnockerOutput {
        KnockerOutput {
            melds: meld_lists(&k.melds),
            deadwood_cards: card_list(k.deadwood_cards),
            deadwood: k.deadwood,
        }
    }
}

/// The defender's reply.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DefenderOutput {
    /// The defender's own melds.
    #[schema(value_type = Vec<Vec<CardSchema>>, example = json!([["JS", "JH", "JD"], ["7S", "7H", "7C"]]))]
    pub melds: Vec<Vec<Card>>,
    /// Layoffs in the order played; `meld` indexes the knocker's melds.
    #[schema(example = json!([{"card": "2H", "meld": 0}, {"card": "6H", "meld": 0}]))]
    pub layoffs: Vec<LayoffDto>,
    #[schema(value_type = Vec<CardSchema>, example = json!(["5S", "4D"]))]
    pub deadwood_cards: Vec<Card>,
    /// The defender's count after layoffs.
    #[schema(example = 9)]
    pub deadwood: u32,
}

impl From<&DefenderReply> for DefenderOutput {
    fn from(d: &DefenderReply) -> DefenderOutput {
        DefenderOutput {
            melds: meld_lists(&d.melds),
            layoffs: d.layoffs.iter().copied().map(LayoffDto::from).collect(),
            deadwood_cards: card_list(d.deadwood_cards),
            deadwood: d.deadwood,
        }
    }
}

/// How the hand ended.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeDto {
    Knock,
    Undercut,
    Gin,
    BigGin,
}

impl From<Outcome> for OutcomeDto {
    fn from(outcome: Outcome) -> OutcomeDto {
        match outcome {
            Outcome::Knock => OutcomeDto::Knock,
            Outcome::Undercut => OutcomeDto::Undercut,
            Outcome::Gin => OutcomeDto::Gin,
            Outcome::BigGin => OutcomeDto::BigGin,
        }
    }
}

/// Which player.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SideDto {
    Knocker,
    Defender,
}

impl From<Side> for SideDto {
    fn from(side: Side) -> SideDto {
        match side {
            Side::Knocker => SideDto::Knocker,
            Side::Defender => SideDto::Defender,
        }
    }
}

/// Where the points came from: `points = (deadwood_difference + gin_bonus +
/// big_gin_bonus + undercut_bonus) * multiplier`.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[schema(example = json!({"deadwood_difference": 8, "gin_bonus": 0, "big_gin_bonus": 0, "undercut_bonus": 0, "multiplier": 1}))]
pub struct BreakdownDto {
    pub deadwood_difference: u32,
    pub gin_bonus: u32,
    pub big_gin_bonus: u32,
    pub undercut_bonus: u32,
    /// 2 when spades double and the first upcard is a spade, else 1.
    pub multiplier: u32,
}

/// A scored hand.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HandScoreOutput {
    pub outcome: OutcomeDto,
    pub winner: SideDto,
    /// Points won by the winner.
    #[schema(example = 8)]
    pub points: u32,
    pub breakdown: BreakdownDto,
    pub knocker: KnockerOutput,
    pub defender: DefenderOutput,
}

impl From<&HandScore> for HandScoreOutput {
    fn from(score: &HandScore) -> HandScoreOutput {
        let s = &score.settlement;
        let b = s.breakdown;
        HandScoreOutput {
            outcome: s.outcome.into(),
            winner: s.winner.into(),
            points: s.points,
            breakdown: BreakdownDto {
                deadwood_difference: b.deadwood_difference,
                gin_bonus: b.gin_bonus,
                big_gin_bonus: b.big_gin_bonus,
                undercut_bonus: b.undercut_bonus,
                multiplier: b.multiplier,
            },
            knocker: (&score.showdown.knocker).into(),
            defender: (&score.showdown.defender).into(),
        }
    }
}

/// Kind of a meld in a verdict.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MeldKindDto {
    Set,
    Run,
}

impl From<MeldKind> for MeldKindDto {
    fn from(kind: MeldKind) -> MeldKindDto {
        match kind {
            MeldKind::Set => MeldKindDto::Set,
            MeldKind::Run => MeldKindDto::Run,
        }
    }
}

/// Maps an engine error about a hand to a 422 problem whose pointers name the
/// offending input; `request_melds` are the declared melds of the side at fault
/// (to point at a card inside a meld).
pub fn hand_problem(
    error: &HandError,
    knocker: &KnockerInput,
    defender: Option<&DefenderInput>,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_profile_schema_lists_exactly_the_profile_fields() {
        let serialised = serde_json::to_value(Preset::Standard.profile()).unwrap_or_default();
        let mut fields: Vec<String> = serialised
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        fields.sort();
        let RefOr::T(Schema::Object(schema)) = ProfileSchema::schema() else {
            panic!("the profile schema is an object");
        };
        let mut documented: Vec<String> = schema.properties.keys().cloned().collect();
        documented.sort();
        assert_eq!(fields, documented);
    }

    #[test]
    fn every_documented_override_is_accepted() {
        let RefOr::T(Schema::Object(schema)) = ProfileOverridesSchema::schema() else {
            panic!("the overrides schema is an object");
        };
        let profile = serde_json::to_value(Preset::Oklahoma.profile()).unwrap_or_default();
        for name in schema.properties.keys() {
            let value = if name == "base" {
                json!("oklahoma")
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
        assert_eq!(resolve_profile(Some(&unknown)).unwrap_err().status, 404);
        let bad = serde_json::from_str::<ProfileSpec>(r#"{"gin_bonus": "x"}"#);
        assert!(bad.is_err());
        assert!(serde_json::from_str::<ProfileSpec>("3").is_err());
    }

    #[test]
    fn cards_match_the_documented_pattern_in_every_notation() {
        // The pattern is checked by clients and schemathesis; keep it in step with
        // the parser for a sample of notations.
        for text in ["TS", "10s", "a♥", "K♣", "9d"] {
            assert!(text.parse::<Card>().is_ok(), "{text}");
        }
        assert!(CARD_PATTERN.contains("10") && CARD_PATTERN.contains('♠'));
    }
}
