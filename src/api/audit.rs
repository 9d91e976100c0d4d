//! `POST /v1/hands/audit`: replay one recorded hand from the deal and check every
//! action (the referee is [`gin_rules::audit_hand`]; its module docs give the
//! procedure and the order of the checks).
//!
//! The transcript is written to be typed by hand and read back: each action is a
//! small object naming the seat (`"dealer"` or `"non_dealer"`) and the `action`:
//!
//! ```json
//! {"player": "non_dealer", "action": "pass"}
//! {"player": "dealer", "action": "draw", "from": "discard_pile", "card": "2C"}
//! {"player": "non_dealer", "action": "draw", "from": "stock"}
//! {"player": "non_dealer", "action": "discard", "card": "KC"}
//! {"player": "dealer", "action": "knock", "discard": "9C", "melds": [["7S", "7H", "7D"]]}
//! {"player": "non_dealer", "action": "lay_off", "layoffs": [{"card": "8D", "meld": 0}]}
//! ```
//!
//! Answers: 200 with the verdict for any transcript, legal or not (the endpoint
//! is *asked* whether a hand was legal); 422 only when the deal itself is
//! impossible (not 52 distinct cards dealt 10/10/1/31) or the profile overrides
//! mean nothing together; 400 for an unknown profile name.
//!
//! The deal is its cards, or the seeds of a provably fair deal with the
//! commitment published before play (`POST /v1/deals` derives the same cards):
//! a seed that does not hash to the commitment is a violation of the whole hand
//! (`deal_commitment_mismatch`, `action` null).
//!
//! Most shape errors inside one action point at the action (`/actions/3`) rather
//! than at its field: the actions are a tagged union, which serde reads whole
//! before choosing the variant, so the path inside it is lost. The message still
//! names the field, and a missing field or an unknown `action` is pointed at.

use std::borrow::Cow;

use actix_web::{post, web};
use serde::{Deserialize, Serialize};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{AdditionalProperties, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::json::ValidJson;
use super::knock::ScoreResponse;
use super::limits::{RequestLimits, check_items};
use super::problem::{JsonBodyRejections, Problem, code};
use super::profile_spec::{ProfileSpec, UnknownProfile, resolve_profile};
use gin_rules::fair_deal::{self, SeedError, ServerSeed};
use gin_rules::{
    self, Action, Audit, AuditError, Card, Deal, DealError, DealPart, HandEnd, Layoff, Move, Seat,
    Source, Table, Violation, ViolationCode,
};

pub fn configure(cfg: &mut super::ServiceConfig) {
    cfg.service(audit_hand);
}

// ---- Request ---------------------------------------------------------------

/// A recorded hand: the deal and every action, in order.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AuditRequest {
    /// A preset name (`standard` when absent) or an object overriding a preset's
    /// parameters, as for every scoring request.
    #[serde(default)]
    pub profile: Option<ProfileSpec>,
    /// The cards as dealt, or the seeds that dealt them with their commitment.
    #[schema(value_type = DealSchema)]
    pub deal: DealInput,
    /// The actions in the order they were taken. An empty list is a hand not yet
    /// begun.
    #[schema(value_type = Vec<ActionSchema>)]
    pub actions: Vec<TranscriptAction>,
}

/// The deal as a request gives it: the cards, or the seeds of a provably fair
/// deal (see `POST /v1/deals`) with the commitment published before play.
#[derive(Debug)]
pub enum DealInput {
    Cards(Deal),
    Seeds { seeds: Seeds, commitment: String },
}

/// The seeds of a provably fair deal, as `POST /v1/deals` takes them.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Seeds {
    /// 32 bytes as 64 hexadecimal digits.
    #[schema(pattern = "^[0-9a-fA-F]{64}$", min_length = 64, max_length = 64)]
    pub server_seed: String,
    /// UTF-8, at most 256 bytes.
    #[schema(max_length = 256)]
    pub client_seed: String,
    /// 0 to 2^53 - 1.
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub nonce: u64,
}

/// Every field of either form, read flat so that a fault keeps its pointer
/// (`/deal/dealer/3`), then classified.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "struct Deal")]
struct FlatDeal {
    dealer: Option<Vec<Card>>,
    non_dealer: Option<Vec<Card>>,
    upcard: Option<Card>,
    stock: Option<Vec<Card>>,
    seeds: Option<Seeds>,
    commitment: Option<String>,
}

impl<'de> Deserialize<'de> for DealInput {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<DealInput, D::Error> {
        use serde::de::Error;
        let flat = FlatDeal::deserialize(deserializer)?;
        match flat {
            FlatDeal {
                dealer: Some(dealer),
                non_dealer: Some(non_dealer),
                upcard: Some(upcard),
                stock: Some(stock),
                seeds: None,
                commitment: None,
            } => Ok(DealInput::Cards(Deal {
                dealer,
                non_dealer,
                upcard,
                stock,
            })),
            FlatDeal {
                dealer: None,
                non_dealer: None,
                upcard: None,
                stock: None,
                seeds: Some(seeds),
                commitment: Some(commitment),
            } => Ok(DealInput::Seeds { seeds, commitment }),
            _ => Err(D::Error::custom(
                "a deal is its cards (`dealer`, `non_dealer`, `upcard`, `stock`) or its seeds \
                 (`seeds` and `commitment`), one form whole",
            )),
        }
    }
}

/// A deal given by its seeds: the service derives the cards, and checks that
/// the server seed hashes to the commitment (a mismatch is a violation of the
/// whole hand, `deal_commitment_mismatch`, with no action).
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // A schema only: requests are read through `FlatDeal`.
pub struct SeededDeal {
    seeds: Seeds,
    /// The lowercase hexadecimal SHA-256 of the server seed, as published
    /// before play.
    #[schema(pattern = "^[0-9a-fA-F]{64}$", min_length = 64, max_length = 64)]
    commitment: String,
}

/// The deal: its cards, or its seeds.
#[derive(ToSchema)]
#[serde(untagged)]
#[allow(dead_code)] // A schema only.
pub enum DealSchema {
    Cards(Deal),
    Seeds(SeededDeal),
}

// The rules' `Action` nests the move under the seat; on the wire both are one
// flat object tagged by `action`, hence this type of its own.
/// One action of the transcript: who (`player`) did what (`action`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
// A shape error names what was expected: the schema clients see, `Action`.
#[serde(expecting = "internally tagged enum Action")]
pub enum TranscriptAction {
    /// Decline the upcard during the first-turn offer (the non-dealer first,
    /// then the dealer), or, under the 50th-card rule, decline the last discard.
    Pass { player: Seat },
    /// Take the top card of the stock or of the discard pile (taking the upcard
    /// during the offer is a draw from the discard pile). `card` is optional: the
    /// deal fixes every card, but naming it makes the transcript readable, and it
    /// is checked.
    Draw {
        player: Seat,
        from: Source,
        #[serde(default)]
        #[schema(example = "2H")]
        card: Option<Card>,
    },
    /// Discard a card held, ending the turn.
    Discard {
        player: Seat,
        #[schema(example = "KC")]
        card: Card,
    },
    /// Knock: discard `discard` and lay the other ten cards down. Without
    /// `discard` the knock is big gin (all eleven cards melded; only where the
    /// profile has a `big_gin_bonus`). `melds` declares the knocker's melds; when
    /// absent the referee arranges the hand best for the knocker, as
    /// `/v1/hands/score` does. Gin is a knock that leaves no deadwood.
    Knock {
        player: Seat,
        #[serde(default)]
        #[schema(example = "KC")]
        discard: Option<Card>,
        #[serde(default)]
        #[schema(example = json!([["AS", "2S", "3S"], ["4H", "5H", "6H"], ["9C", "9D", "9H"]]))]
        melds: Option<Vec<Vec<Card>>>,
    },
    /// The defender's reply to the knock (optional, once). Declared `melds` and
    /// `layoffs` are checked; what is not declared is played best for the
    /// defender, as in `/v1/hands/score`.
    LayOff {
        player: Seat,
        #[serde(default)]
        melds: Option<Vec<Vec<Card>>>,
        #[serde(default)]
        layoffs: Option<Vec<Layoff>>,
    },
}

/// The schema of [`TranscriptAction`] with every variant closed
/// (`additionalProperties: false`), as `deny_unknown_fields` makes it: utoipa
/// closes structs but not the variants of a tagged enum, and a schema that
/// admits extra fields would promise clients that they are ignored.
pub struct ActionSchema;

impl PartialSchema for ActionSchema {
    fn schema() -> RefOr<Schema> {
        let mut schema = TranscriptAction::schema();
        if let RefOr::T(Schema::OneOf(one_of)) = &mut schema {
            for variant in &mut one_of.items {
                if let RefOr::T(Schema::Object(object)) = variant {
                    object.additional_properties =
                        Some(Box::new(AdditionalProperties::FreeForm(false)));
                }
            }
        }
        schema
    }
}

impl ToSchema for ActionSchema {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Action")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        <TranscriptAction as ToSchema>::schemas(schemas);
    }
}

impl From<TranscriptAction> for Action {
    fn from(action: TranscriptAction) -> Action {
        let (player, play) = match action {
            TranscriptAction::Pass { player } => (player, Move::Pass),
            TranscriptAction::Draw { player, from, card } => (player, Move::Draw { from, card }),
            TranscriptAction::Discard { player, card } => (player, Move::Discard { card }),
            TranscriptAction::Knock {
                player,
                discard,
                melds,
            } => (player, Move::Knock { discard, melds }),
            TranscriptAction::LayOff {
                player,
                melds,
                layoffs,
            } => (player, Move::LayOff { melds, layoffs }),
        };
        Action { player, play }
    }
}

// ---- Response --------------------------------------------------------------

/// The verdict on a recorded hand.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditResponse {
    /// No action is illegal. A transcript that stops before the hand ends is
    /// legal so far (and has no `result`).
    pub legal: bool,
    /// The first illegal action, or null.
    pub violation: Option<Violation>,
    /// The hand's score exactly as `/v1/hands/score` gives it for the final
    /// hands, `{"void": true}` for a void hand, or null: the transcript stops
    /// before the hand ends, or an action is illegal.
    pub result: Option<AuditResult>,
    /// The seat that knocked, when the hand was scored (`result.knocker` is that
    /// seat).
    pub knocker: Option<Seat>,
    /// Index of the action that ended the hand: the knock, or the action that
    /// made it void. Null while the hand goes on.
    pub ended_at: Option<usize>,
    /// The table where the replay stopped: after the last action, or just before
    /// the illegal one.
    pub table: Table,
}

/// How the hand ended: scored, or void.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum AuditResult {
    Scored(ScoreResponse),
    Void(VoidResult),
}

/// A void hand: no knock before the stock's last two cards; no points.
#[derive(Debug, Serialize, ToSchema)]
pub struct VoidResult {
    /// Always true.
    #[schema(example = true)]
    pub void: bool,
}

impl From<Audit> for AuditResponse {
    fn from(audit: Audit) -> AuditResponse {
        let legal = audit.is_legal();
        let (result, knocker, ended_at) = match audit.end {
            None => (None, None, None),
            Some(HandEnd::Void { action }) => (
                Some(AuditResult::Void(VoidResult { void: true })),
                None,
                Some(action),
            ),
            Some(HandEnd::Scored(scored)) => (
                Some(AuditResult::Scored(ScoreResponse::from(scored.score))),
                Some(scored.knocker),
                Some(scored.knock_action),
            ),
        };
        AuditResponse {
            legal,
            violation: audit.violation,
            result,
            knocker,
            ended_at,
            table: audit.table,
        }
    }
}

// ---- Errors ----------------------------------------------------------------

/// An impossible deal: 422 with a pointer to the card or list at fault.
fn deal_problem(error: &DealError) -> Problem {
    let list = |part: DealPart| match part {
        DealPart::Hand(seat) => format!("/deal/{}", seat.name()),
        DealPart::Upcard => "/deal/upcard".to_owned(),
        DealPart::Stock => "/deal/stock".to_owned(),
    };
    let pointer = match error {
        DealError::WrongCardCount { part, .. } => list(*part),
        DealError::DuplicateCard { second, .. } => match second.part {
            DealPart::Upcard => list(second.part),
            part => format!("{}/{}", list(part), second.index),
        },
    };
    Problem::unprocessable(error.code(), format!("the deal is impossible: {error}")).with_error(
        pointer,
        error.code(),
        error.to_string(),
    )
}

// ---- Handler ---------------------------------------------------------------

/// Examples for the OpenAPI document, run through the real referee so that
/// they cannot drift from what the service answers.
pub mod examples {
    use serde_json::{Value, json};

    /// The stock of the example deal: the rest of the deck, 2H on top.
    const STOCK: [&str; 31] = [
        "2H", "5S", "6S", "9S", "JS", "QS", "KS", "AH", "3H", "8H", "TH", "JH", "AD", "2D", "3D",
        "4D", "5D", "6D", "7D", "8D", "TD", "QD", "KD", "AC", "5C", "6C", "7C", "8C", "TC", "JC",
        "QC",
    ];

    fn deal() -> Value {
        json!({
            "dealer": ["7S", "8S", "TS", "JD", "QH", "KH", "3C", "4C", "7H", "4S"],
            "non_dealer": ["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "KC"],
            "upcard": "2C",
            "stock": STOCK,
        })
    }

    /// Both pass the upcard; the non-dealer draws 2H and knocks with 2; the dealer
    /// lays off 7H and 4S.
    pub fn legal_knock() -> Value {
        json!({
            "profile": "standard",
            "deal": deal(),
            "actions": [
                {"player": "non_dealer", "action": "pass"},
                {"player": "dealer", "action": "pass"},
                {"player": "non_dealer", "action": "draw", "from": "stock", "card": "2H"},
                {"player": "non_dealer", "action": "knock", "discard": "KC",
                 "melds": [["AS", "2S", "3S"], ["4H", "5H", "6H"], ["9C", "9D", "9H"]]},
                {"player": "dealer", "action": "lay_off",
                 "layoffs": [{"card": "7H", "meld": 1}, {"card": "4S", "meld": 0}]},
            ],
        })
    }

    /// The non-dealer takes the upcard and throws it straight back.
    pub fn illegal_discard() -> Value {
        json!({
            "deal": deal(),
            "actions": [
                {"player": "non_dealer", "action": "draw", "from": "discard_pile", "card": "2C"},
                {"player": "non_dealer", "action": "discard", "card": "2C"},
            ],
        })
    }

    /// A transcript that stops mid-hand.
    pub fn unfinished() -> Value {
        json!({
            "deal": deal(),
            "actions": [
                {"player": "non_dealer", "action": "pass"},
                {"player": "dealer", "action": "draw", "from": "discard_pile"},
                {"player": "dealer", "action": "discard", "card": "KH"},
            ],
        })
    }

    /// The same deal with the upcard also in the stock.
    pub fn duplicate_card() -> Value {
        let mut request = illegal_discard();
        if let Some(card) = request.pointer_mut("/deal/stock/30") {
            *card = json!("2C");
        }
        request
    }

    /// What the service answers to `request` (null if it does not answer 200).
    pub fn answer(request: Value) -> Value {
        let response = serde_json::from_value(request)
            .ok()
            .and_then(|r| super::answer(r).ok());
        serde_json::to_value(response).unwrap_or(Value::Null)
    }

    /// The problem the service answers to `request` (null if it answers 200).
    pub fn problem(request: Value) -> Value {
        let problem = serde_json::from_value(request)
            .ok()
            .and_then(|r| super::answer(r).err());
        serde_json::to_value(problem).unwrap_or(Value::Null)
    }
}

/// The whole request, without HTTP: resolve the profile, replay, shape the answer.
pub fn answer(request: AuditRequest) -> Result<AuditResponse, Problem> {
    let profile = resolve_profile(request.profile.as_ref())?;
    let actions: Vec<Action> = request.actions.into_iter().map(Action::from).collect();
    let (deal, mismatch) = match request.deal {
        DealInput::Cards(deal) => (deal, None),
        DealInput::Seeds { seeds, commitment } => seeded_deal(&seeds, &commitment)?,
    };
    // A deal that does not match its commitment is judged before any action.
    let replayed = if mismatch.is_some() {
        &[][..]
    } else {
        &actions[..]
    };
    match gin_rules::audit_hand(&profile, &deal, replayed) {
        Ok(audit) => Ok(match mismatch {
            None => audit.into(),
            Some(message) => AuditResponse {
                legal: false,
                violation: Some(Violation {
                    action: None,
                    code: ViolationCode::DealCommitmentMismatch,
                    message,
                }),
                result: None,
                knocker: None,
                ended_at: None,
                table: audit.table,
            },
        }),
        Err(AuditError::Deal(error)) => Err(deal_problem(&error)),
        Err(error @ AuditError::Inconsistent(_)) => Err(Problem::internal(&error)),
    }
}

/// The cards of a seeded deal, and the mismatch message when the server seed
/// does not hash to the commitment. Seeds the schema forbids are 400.
fn seeded_deal(seeds: &Seeds, commitment: &str) -> Result<(Deal, Option<String>), Problem> {
    let fault = |pointer: &str, error: &SeedError| {
        let detail = error.to_string();
        match error {
            SeedError::ClientSeedTooLong(_) => Problem::unprocessable(
                "client_seed_too_long",
                &detail,
            )
            .with_error(pointer, "client_seed_too_long", detail),
            _ => Problem::bad_request(code::INVALID_BODY, &detail).with_error(
                pointer,
                "invalid_value",
                detail,
            ),
        }
    };
    let seed = ServerSeed::from_hex(&seeds.server_seed)
        .map_err(|e| fault("/deal/seeds/server_seed", &e))?;
    let deal = fair_deal::deal(&seed, &seeds.client_seed, seeds.nonce).map_err(|e| match e {
        SeedError::ClientSeedTooLong(_) => fault("/deal/seeds/client_seed", &e),
        _ => fault("/deal/seeds/nonce", &e),
    })?;
    if commitment.len() != 64 || !commitment.bytes().all(|b| b.is_ascii_hexdigit()) {
        let detail = "the commitment must be 64 hexadecimal digits (a SHA-256)";
        return Err(Problem::bad_request(code::INVALID_BODY, detail).with_error(
            "/deal/commitment",
            "invalid_value",
            detail,
        ));
    }
    let actual = seed.commitment();
    let mismatch = (!actual.eq_ignore_ascii_case(commitment)).then(|| {
        format!(
            "the server seed hashes to {actual}, not to the commitment {commitment}: \
             the deal is not the one committed to"
        )
    });
    Ok((deal, mismatch))
}

/// Audit a recorded hand.
#[utoipa::path(
    tag = "hands",
    summary = "Audit a hand played from the deal",
    description = "Replays one hand from the deal and checks every action against the \
profile: the first-turn upcard offer (the non-dealer may take the upcard or pass, then the \
dealer, then the non-dealer draws from the stock), draws from the stock or the discard pile, \
discards (never the card just taken from the pile), the knock (knock limit, declared melds, \
gin, big gin), the defender's layoffs, and the end of the stock (the player who draws the 50th \
card may still knock; otherwise the hand is void, or under the 50th-card rule the opponent may \
take that discard only to knock). Nothing may follow the end of the hand but the defender's \
one reply.\n\n\
Each action is `{\"player\": \"dealer\" | \"non_dealer\", \"action\": ...}`: `pass`, `draw` \
(`from`: `stock` or `discard_pile`, optional `card` checked against the card drawn), \
`discard` (`card`), `knock` (`discard`, absent for big gin; optional `melds`), `lay_off` \
(the defender's optional reply: `melds` and/or `layoffs`, each `{\"card\", \"meld\"}`).\n\n\
The answer is 200 whether or not the hand was legal: `legal`, the first `violation` \
(`action` index, stable `code`, `message`) and the `result`: the score as \
`/v1/hands/score` gives it for the final hands, `{\"void\": true}`, or null when the \
transcript stops before the hand ends or an action is illegal. A knock with no reply is \
scored with the defender's best reply. 422 is only for a deal that cannot have been dealt \
(`wrong_card_count`, `duplicate_card`) or invalid profile overrides.",
    request_body(
        content = AuditRequest,
        examples(
            ("legal_knock" = (summary = "A short legal hand: pass, pass, draw, knock, lay off",
                value = json!(examples::legal_knock()))),
            ("illegal_discard" = (summary = "The upcard taken and discarded at once",
                value = json!(examples::illegal_discard()))),
            ("unfinished" = (summary = "A transcript that stops mid-hand",
                value = json!(examples::unfinished()))),
        )
    ),
    responses(
        (status = 200, description = "The verdict: legal or the first violation, and the result.",
         body = AuditResponse,
         examples(
            ("legal_knock" = (summary = "Legal; scored as /v1/hands/score scores it",
                value = json!(examples::answer(examples::legal_knock())))),
            ("illegal_discard" = (summary = "discard_just_taken at action 1",
                value = json!(examples::answer(examples::illegal_discard())))),
            ("unfinished" = (summary = "Legal so far, no result",
                value = json!(examples::answer(examples::unfinished())))),
         )),
        JsonBodyRejections,
        UnknownProfile,
        (status = 422, description = "A deal that cannot have been dealt (`wrong_card_count`, \
`duplicate_card`, with a pointer to the card), or profile parameters that mean nothing \
together (`invalid_profile_combination`).",
         body = Problem, content_type = "application/problem+json",
         example = json!(examples::problem(examples::duplicate_card()))),
    )
)]
#[post("/v1/hands/audit")]
pub async fn audit_hand(
    body: ValidJson<AuditRequest>,
    limits: RequestLimits,
) -> Result<web::Json<AuditResponse>, Problem> {
    let request = body.into_inner();
    // Each action is replayed in constant time but the knock (one or two scorer
    // calls, microseconds): with the ceiling on actions, not worth a thread hop.
    check_items(
        "/actions",
        "actions",
        request.actions.len(),
        limits.audit_actions,
    )?;
    answer(request).map(web::Json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_examples_are_answered_as_documented() {
        let legal = examples::answer(examples::legal_knock());
        assert_eq!(legal["legal"], true);
        assert_eq!(legal["result"]["points"], 60);
        assert_eq!(legal["knocker"], "non_dealer");
        let illegal = examples::answer(examples::illegal_discard());
        assert_eq!(illegal["violation"]["code"], "discard_just_taken");
        assert_eq!(illegal["result"], serde_json::Value::Null);
        let unfinished = examples::answer(examples::unfinished());
        assert_eq!(
            (&unfinished["legal"], &unfinished["result"]),
            (&true.into(), &serde_json::Value::Null)
        );
        let problem = examples::problem(examples::duplicate_card());
        assert_eq!(problem["code"], "duplicate_card");
        assert_eq!(problem["errors"][0]["pointer"], "/deal/stock/30");
    }
}
