//! The referee plays (`POST /v1/hands/move`, `POST /v1/matches/move`): the
//! bot a request names, the move it answers, and the refusals both
//! operations share.
//!
//! A bot is `{"name", "seed"?, ...knobs}`: the knobs are the rules crate's
//! table ([`gin_rules::bots::KNOBS`]), read here by name and documented from
//! the same table, so a knob added there is taken and documented without a
//! change here. A bot receives only a [`SeatView`]: the seat's own state and
//! story, never the deal (see [`gin_rules::bots`]).

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr, schema::AdditionalProperties};
use utoipa::{PartialSchema, ToSchema};

use crate::problem::{ErrorCode, Problem};
use crate::rule_errors::RuleError;
use crate::wire::live::LegalEntry;
use crate::wire::transcript::ActionViolation;
use gin_rules::bots::{self, BotError, BotName, BotSpec, KNOBS, Knobs, SeatView};
use gin_rules::{HandState, Seat, Violation};

/// A bot as a request names it: `{"name", "seed"?, ...knobs}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotRequest {
    /// Which bot.
    pub name: BotName,
    /// The seed of its random choices (0 when absent).
    pub seed: u64,
    /// The knobs given, by name, as the rules crate's table names them.
    pub knobs: Vec<(&'static str, u32)>,
}

impl<'de> Deserialize<'de> for BotRequest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<BotRequest, D::Error> {
        deserializer.deserialize_map(BotVisitor)
    }
}

struct BotVisitor;

impl<'de> Visitor<'de> for BotVisitor {
    type Value = BotRequest;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a bot: {\"name\", \"seed\"?, ...knobs}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<BotRequest, A::Error> {
        let mut name: Option<BotName> = None;
        let mut seed: Option<u64> = None;
        let mut knobs: Vec<(&'static str, u32)> = Vec::new();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                "name" if name.is_none() => name = Some(map.next_value()?),
                "seed" if seed.is_none() => seed = Some(map.next_value::<BotSeed>()?.0),
                "name" | "seed" => return Err(de::Error::duplicate_field(field(&key))),
                other => {
                    let Some(knob) = KNOBS.iter().find(|knob| knob.name == other) else {
                        return Err(unknown_field(other));
                    };
                    if knobs.iter().any(|(given, _)| *given == knob.name) {
                        return Err(de::Error::duplicate_field(knob.name));
                    }
                    knobs.push((knob.name, map.next_value()?));
                }
            }
        }
        Ok(BotRequest {
            name: name.ok_or_else(|| de::Error::missing_field("name"))?,
            seed: seed.unwrap_or(0),
            knobs,
        })
    }
}

/// The largest seed a request may give: 2^53 - 1, the largest integer every
/// JSON client carries exactly (JavaScript's numbers), as for a deal's nonce;
/// the schema states it, so a larger one is a shape fault (400).
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// A seed read from a request, within [`MAX_SEED`].
struct BotSeed(u64);

impl<'de> Deserialize<'de> for BotSeed {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<BotSeed, D::Error> {
        let seed = u64::deserialize(deserializer)?;
        if seed > MAX_SEED {
            return Err(de::Error::invalid_value(
                de::Unexpected::Unsigned(seed),
                &"a seed from 0 to 2^53 - 1",
            ));
        }
        Ok(BotSeed(seed))
    }
}

fn field(key: &str) -> &'static str {
    if key == "name" { "name" } else { "seed" }
}

/// serde's own wording (so the fault is classified `unknown_field`), with
/// the knobs listed from the table.
fn unknown_field<E: de::Error>(key: &str) -> E {
    let knobs: Vec<String> = KNOBS
        .iter()
        .map(|knob| format!("`{}`", knob.name))
        .collect();
    E::custom(format!(
        "unknown field `{key}`, expected `name`, `seed` or a knob ({})",
        knobs.join(", ")
    ))
}

impl BotRequest {
    /// The rules crate's spec, every knob checked (400 `invalid_body` at
    /// `/bot/<knob>` for one out of its bounds or one the bot does not read).
    pub fn spec(&self) -> Result<BotSpec, Problem> {
        // A knob another bot reads is ignored rather than refused: the schema
        // lists every knob for every bot, so one body may ask any bot.
        let given: Map<String, Value> = self
            .knobs
            .iter()
            .filter(|(name, _)| {
                KNOBS
                    .iter()
                    .any(|knob| knob.name == *name && knob.bot == self.name)
            })
            .map(|(name, value)| ((*name).to_owned(), Value::from(*value)))
            .collect();
        let knobs: Knobs =
            serde_json::from_value(Value::Object(given)).map_err(|e| Problem::internal(&e))?;
        let spec = BotSpec {
            name: self.name,
            seed: self.seed,
            knobs,
        };
        spec.validate().map_err(|error| knob_problem(&error))?;
        Ok(spec)
    }
}

fn knob_problem(error: &BotError) -> Problem {
    let knob = match error {
        BotError::KnobOutOfBounds { knob, .. } | BotError::KnobNotRead { knob, .. } => *knob,
        other => return Problem::internal(other),
    };
    let pointer = format!("/bot/{knob}");
    let message = error.to_string();
    Problem::new(
        ErrorCode::InvalidBody,
        format!("the body does not match the request schema at {pointer}: {message}"),
    )
    .with_error(pointer, ErrorCode::InvalidValue, message)
}

/// The schema of a bot, written from the rules crate's tables (the names
/// from [`BotName::ALL`], each knob's bounds and default from [`KNOBS`]).
pub struct BotSchema;

impl PartialSchema for BotSchema {
    fn schema() -> RefOr<Schema> {
        let mut object = ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(
                "The bot that plays: `random` (a listed move, uniformly), `simple` (the EAAI-2021 \
                 challenge's SimpleGinRummyPlayer's policy) or `strong` (a search over the cards \
                 the seat cannot place), its `seed` and its knobs, each within its bounds (a \
                 knob out of them, or one the bot does not read, is a 400 pointing at it).",
            ))
            .property("name", Ref::from_schema_name(BotNameSchema::name()))
            .required("name")
            .property(
                "seed",
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(0))
                    .maximum(Some(MAX_SEED as f64))
                    .description(Some(
                        "The seed of the bot's random choices (0 when absent): the same body \
                         and seed give the same move.",
                    )),
            );
        for knob in KNOBS {
            object = object.property(
                knob.name,
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(f64::from(knob.min)))
                    .maximum(Some(f64::from(knob.max)))
                    .description(Some(format!(
                        "`{}` only (other bots ignore it): {} ({} to {}, default {}).",
                        knob.bot.name(),
                        knob.meaning,
                        knob.min,
                        knob.max,
                        knob.default
                    ))),
            );
        }
        object
            .additional_properties(Some(AdditionalProperties::FreeForm(false)))
            .examples([serde_json::json!({"name": "simple", "seed": 7})])
            .into()
    }
}

impl ToSchema for BotSchema {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Bot")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((BotNameSchema::name().into(), BotNameSchema::schema()));
    }
}

/// The names of the bots, from [`BotName::ALL`]: a component of its own so
/// that generated clients name the enum as the document does.
pub struct BotNameSchema;

impl PartialSchema for BotNameSchema {
    fn schema() -> RefOr<Schema> {
        let names: Vec<&str> = BotName::ALL.iter().map(|bot| bot.name()).collect();
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(names))
            .description(Some("Which bot."))
            .into()
    }
}

impl ToSchema for BotNameSchema {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("BotName")
    }
}

/// The bot that chose, as it was asked for: its name, its seed, and the
/// value of each knob it reads.
#[derive(Debug, Serialize, ToSchema)]
pub struct BotUsed {
    /// Which bot.
    #[schema(value_type = String, example = "simple")]
    pub name: &'static str,
    /// The seed used (0 when the request gave none).
    #[schema(example = 7)]
    pub seed: u64,
    /// Each knob this bot reads, as given or by default (absent for a bot
    /// without knobs).
    #[serde(skip_serializing_if = "Map::is_empty")]
    #[schema(value_type = Option<KnobsUsed>, nullable = false,
             example = json!({"samples": 32}))]
    pub knobs: Map<String, Value>,
}

/// The knobs a bot read, by name.
// A component of its own, so that generated clients name the map as the
// document does.
#[derive(Debug, Clone, utoipa::ToSchema)]
pub struct KnobsUsed(pub std::collections::BTreeMap<String, u32>);

impl BotUsed {
    fn of(spec: &BotSpec) -> BotUsed {
        let given = serde_json::to_value(KnobsRead(spec)).unwrap_or_default();
        BotUsed {
            name: spec.name.name(),
            seed: spec.seed,
            knobs: match given {
                Value::Object(map) => map,
                _ => Map::new(),
            },
        }
    }
}

/// The knobs `spec`'s bot reads, each as given or by default.
struct KnobsRead<'a>(&'a BotSpec);

impl Serialize for KnobsRead<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let spec = self.0;
        let read: Vec<_> = KNOBS.iter().filter(|k| k.bot == spec.name).collect();
        let mut map = serializer.serialize_map(Some(read.len()))?;
        for knob in read {
            let value = match knob.name {
                "samples" => spec.samples(),
                _ => knob.default,
            };
            map.serialize_entry(knob.name, &value)?;
        }
        map.end()
    }
}

/// The move a bot plays: the entry exactly as the state lists it for the
/// seat (its `kind`, `move`, and with `"openspiel": true` its ids), and the
/// bot that chose it.
#[derive(Debug, Serialize, ToSchema)]
pub struct BotMove {
    /// The listed action, exactly as `/v1/hands/state` lists it for the
    /// seat: append its `move` to the record as it is.
    #[serde(flatten)]
    pub entry: LegalEntry,
    /// The bot that chose it.
    pub bot: BotUsed,
}

/// The move `spec` plays from `seat`'s own `state` (a [`HandState`] asked
/// for that seat) and its story of the hand (`log`), with OpenSpiel's ids
/// if asked. The state must be the seat's and free of violations (callers
/// refuse those first, with [`violation_problem`]); a seat with nothing
/// listed is [`not_to_act`].
pub fn play(
    profile: &gin_rules::Profile,
    upcard: gin_rules::HandCard,
    state: &HandState,
    log: Vec<gin_rules::Action>,
    spec: &BotSpec,
    openspiel: bool,
) -> Result<BotMove, Problem> {
    let view = SeatView::from_state(profile, upcard, state, log).map_err(|e| bot_problem(&e))?;
    play_view(view, state, spec, openspiel)
}

/// [`play`] from a view already built (a match's, with its score).
pub fn play_view(
    view: SeatView,
    state: &HandState,
    spec: &BotSpec,
    openspiel: bool,
) -> Result<BotMove, Problem> {
    let index = bots::choose(spec, &view).map_err(|e| bot_problem(&e))?;
    let legal = view
        .legal_actions()
        .get(index)
        .ok_or_else(|| bot_problem(&BotError::NotToAct { seat: view.seat() }))?;
    Ok(BotMove {
        entry: LegalEntry::new(legal, state.phase, openspiel),
        bot: BotUsed::of(spec),
    })
}

fn bot_problem(error: &BotError) -> Problem {
    match error {
        BotError::NotToAct { seat } => {
            not_to_act(format!("the {} is not to act", seat_words(*seat)))
        }
        BotError::Violation(violation) => {
            violation_problem(&ActionViolation::from(violation.clone()).pointer, violation)
        }
        BotError::KnobOutOfBounds { .. } | BotError::KnobNotRead { .. } => knob_problem(error),
        other => Problem::internal(other),
    }
}

fn seat_words(seat: Seat) -> &'static str {
    match seat {
        Seat::Dealer => "dealer",
        Seat::NonDealer => "non-dealer",
    }
}

/// 422 `not_to_act`, pointing at `/seat`.
pub fn not_to_act(message: String) -> Problem {
    Problem::new(ErrorCode::NotToAct, format!("/seat: {message}")).with_error(
        "/seat",
        ErrorCode::NotToAct,
        message,
    )
}

/// Why `seat` has nothing listed in `state`: the hand is over, or the other
/// seat is to act.
pub fn idle_message(state: &HandState, seat: Seat) -> String {
    match state.to_act {
        None => "the hand is over: no one acts".to_owned(),
        Some(other) if other != seat => format!(
            "the {} is not to act: the {} is",
            seat_words(seat),
            seat_words(other)
        ),
        Some(_) => format!("the {} has nothing to play", seat_words(seat)),
    }
}

/// 422 with the violation's own code (the audit's, each a row of the error
/// table): the record breaks a rule, which `errors[0]` gives with that code
/// and its pointer into the request; the message is the one the seat may
/// read.
pub fn violation_problem(pointer: &str, violation: &Violation) -> Problem {
    let code = violation.code.error_code();
    let mut problem = Problem::new(
        code,
        format!(
            "the record breaks a rule at {pointer}: {}; no bot plays after an illegal action",
            violation.message
        ),
    );
    problem.errors.push(crate::problem::FieldError {
        pointer: pointer.to_owned(),
        code: code.as_str().to_owned(),
        message: violation.message.clone(),
    });
    problem
}
