//! `POST /v1/matches/audit`: a whole two-player match from its record, every
//! hand replayed and checked, the match scored from the hands as played (the
//! referee is [`gin_rules::audit_match`]; its module docs give the checks
//! between hands and their order).
//!
//! Each hand is recorded as `POST /v1/hands/audit` takes one (the deal, by its
//! cards or its seeds, and the actions naming seats), plus the name of the
//! player who dealt it. The answer is 200 for any record that can be replayed,
//! legal or not: `legal`, the first `violation` with a JSON `pointer` into the
//! request, each hand's audit, and `match`, the `/v1/matches/score` answer for
//! the complete legal hands. 422 only for a record that cannot be audited at
//! all: a dealer who is not a player, a deal that cannot have been dealt.
//!
//! `claimed`, the client's own result in the shape of `match` (any part of
//! it), is compared field by field: `agrees`, and each difference with its
//! pointer into the request, the claimed value and the refereed one.
//!
//! # Cost
//!
//! The body has its own limit (`--match-audit-body-limit`, 1 MiB by default),
//! the hands at most `--max-match-hands` and each transcript at most
//! `--max-audit-actions`. Each hand is one hand audit (constant work per
//! action, the scorer at the knock) and the match is scored twice (once to find
//! a hand after the game's end, once for the answer): linear in the record.
//! `claimed` is walked only where the refereed answer has the same shape, so
//! the differences are at most one per refereed field plus one per claimed
//! field the referee lacks, each a copy of request bytes.

use actix_web::{post, web};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::json::ValidJson;
use super::limits::{RequestLimits, check_items, check_length};
use super::problem::{JsonBodyRejections, Problem};
use super::profile_spec::{ProfileSpec, UnknownProfile, resolve_profile};
use super::receipt::Keys;
use super::score_sheet::MatchResponse;
use super::transcript::{
    ActionSchema, AuditResponse, DealInput, DealSchema, TranscriptAction, deal_problem, seeded_deal,
};
use gin_rules::{
    self, Action, DealSeeds, MatchAuditError, MatchError, MatchViolation, Players, Profile,
    RecordedHand, ViolationCode,
};

/// The route, also the key of its own body limit.
pub const ROUTE: &str = "/v1/matches/audit";

pub fn configure(cfg: &mut super::ServiceConfig) {
    cfg.service(audit_match);
}

// ---- Request ---------------------------------------------------------------

/// A match's record: the players and every hand, in the order played.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchAuditRequest {
    /// A preset name (`standard` when absent) or an object overriding a preset's
    /// parameters. `next_dealer` says who deals each hand after the first.
    #[serde(default)]
    pub profile: Option<ProfileSpec>,
    /// The two players' names, distinct and not blank.
    #[schema(min_items = 2, max_items = 2, example = json!(["Ann", "Bob"]))]
    pub players: Vec<String>,
    /// The hands in the order played. The last may stop before its end (a
    /// match in progress); any other that does is `hand_unfinished`.
    pub hands: Vec<HandRecord>,
    /// The client's own result, in the shape of the answer's `match` (any part
    /// of it): compared field by field.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub claimed: Option<Value>,
    /// Accepted for uniformity: a match audit is always signed.
    #[serde(default)]
    #[schema(nullable = false, example = false)]
    pub receipt: Option<bool>,
}

/// One hand as recorded: who dealt, the deal, and the actions.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HandRecord {
    /// The name of the player who dealt; the other is the non-dealer.
    #[schema(example = "Ann")]
    pub dealer: String,
    /// The cards as dealt, or the seeds that dealt them with their commitment.
    #[schema(value_type = DealSchema)]
    pub deal: DealInput,
    /// The actions, seats named `dealer` and `non_dealer`, as for
    /// `/v1/hands/audit`.
    #[schema(value_type = Vec<ActionSchema>)]
    pub actions: Vec<TranscriptAction>,
}

// ---- Response --------------------------------------------------------------

/// The verdict on a match.
#[derive(Debug, Serialize, ToSchema)]
pub struct MatchAuditResponse {
    /// No violation in any hand or between hands. The last hand may still be
    /// in progress.
    pub legal: bool,
    /// The first violation, or null.
    pub violation: Option<MatchAuditViolation>,
    /// Each hand's `/v1/hands/audit` answer, up to and including the violating
    /// hand.
    pub hands: Vec<AuditResponse>,
    /// The `/v1/matches/score` answer for the complete legal hands (before the
    /// violation, if any).
    #[serde(rename = "match")]
    pub score: MatchResponse,
    /// Present when the request has `claimed`: whether it agrees.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimed: Option<ClaimCheck>,
    /// A signed receipt (compact JWS, see `GET /v1/keys`), always present:
    /// a match audit is always signed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub receipt: Option<String>,
}

/// The first violation of a match.
#[derive(Debug, Serialize, ToSchema)]
pub struct MatchAuditViolation {
    /// The hand's index (from 0).
    #[schema(example = 3)]
    pub hand: usize,
    /// The action's index in the hand's transcript; null for a fault of the
    /// whole hand (`wrong_dealer`, `hand_after_game_end`, `hand_unfinished`,
    /// the deal's seeds).
    #[schema(example = 7, required = true)]
    pub action: Option<usize>,
    /// The rule broken.
    pub code: ViolationCode,
    /// A sentence for a tournament director.
    pub message: String,
    /// JSON pointer into the request: `/hands/3/actions/7`, `/hands/3/dealer`.
    #[schema(example = "/hands/3/actions/7")]
    pub pointer: String,
}

/// The client's claimed result checked against the referee's.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClaimCheck {
    /// Every claimed field is the referee's.
    pub agrees: bool,
    /// Each field that is not, depth first, an object's keys in sorted order.
    pub differences: Vec<Difference>,
}

/// One claimed field that is not the referee's.
#[derive(Debug, Serialize, ToSchema)]
pub struct Difference {
    /// Pointer into the request: `/claimed/final/Ann/total`.
    #[schema(example = "/claimed/final/Ann/total")]
    pub pointer: String,
    /// The claimed value.
    #[schema(value_type = Object, example = 309)]
    pub claimed: Value,
    /// The referee's value there; null when it has none, or when it is an
    /// object or a list where the claim has something else (see `reason`).
    #[schema(value_type = Object, example = 310)]
    pub refereed: Value,
    /// `value`: the values differ; `missing`: the referee has no such field;
    /// `shape`: one is an object or a list and the other is not, or lists
    /// differ in length.
    pub reason: DifferenceReason,
}

/// Why a claimed field differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DifferenceReason {
    Value,
    Missing,
    Shape,
}

// ---- The claim -------------------------------------------------------------

/// Escapes a JSON pointer token (RFC 6901): `~` as `~0`, `/` as `~1`.
fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Compares `claimed` with `refereed` where both have the same shape; records
/// each difference at `pointer`.
fn compare(claimed: &Value, refereed: &Value, pointer: &str, out: &mut Vec<Difference>) {
    let differ = |reason, refereed: &Value| Difference {
        pointer: pointer.to_owned(),
        claimed: claimed.clone(),
        refereed: match refereed {
            Value::Object(_) | Value::Array(_) => Value::Null,
            scalar => scalar.clone(),
        },
        reason,
    };
    match (claimed, refereed) {
        (Value::Object(claimed), Value::Object(refereed)) => {
            for (key, value) in claimed {
                let at = format!("{pointer}/{}", token(key));
                match refereed.get(key) {
                    Some(theirs) => compare(value, theirs, &at, out),
                    None => out.push(Difference {
                        pointer: at,
                        claimed: value.clone(),
                        refereed: Value::Null,
                        reason: DifferenceReason::Missing,
                    }),
                }
            }
        }
        (Value::Array(claimed_items), Value::Array(refereed_items)) => {
            if claimed_items.len() != refereed_items.len() {
                out.push(differ(DifferenceReason::Shape, refereed));
                return;
            }
            for (index, (value, theirs)) in claimed_items.iter().zip(refereed_items).enumerate() {
                compare(value, theirs, &format!("{pointer}/{index}"), out);
            }
        }
        (Value::Object(_) | Value::Array(_), _) | (_, Value::Object(_) | Value::Array(_)) => {
            out.push(differ(DifferenceReason::Shape, refereed));
        }
        (claimed_scalar, refereed_scalar) => {
            if !same_scalar(claimed_scalar, refereed_scalar) {
                out.push(differ(DifferenceReason::Value, refereed));
            }
        }
    }
}

/// Numbers compare by value (`310` and `310.0` agree); the rest exactly.
fn same_scalar(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        _ => a == b,
    }
}

fn check_claim(claimed: &Value, score: &MatchResponse) -> Result<ClaimCheck, Problem> {
    let refereed = serde_json::to_value(score).map_err(|e| Problem::internal(&e))?;
    let mut differences = Vec::new();
    compare(claimed, &refereed, "/claimed", &mut differences);
    Ok(ClaimCheck {
        agrees: differences.is_empty(),
        differences,
    })
}

// ---- Errors and pointers ---------------------------------------------------

/// Where in the request a violation is.
fn violation_pointer(request: &MatchAuditRequest, found: &MatchViolation) -> String {
    let hand = found.hand;
    let base = format!("/hands/{hand}");
    if let Some(action) = found.violation.action {
        return format!("{base}/actions/{action}");
    }
    let seeds = |index: usize| match request.hands.get(index).map(|h| &h.deal) {
        Some(DealInput::Seeds { seeds, commitment }) => Some((seeds, commitment)),
        _ => None,
    };
    match found.violation.code {
        ViolationCode::WrongDealer => format!("{base}/dealer"),
        ViolationCode::HandUnfinished => format!("{base}/actions"),
        ViolationCode::DealCommitmentMismatch => format!("{base}/deal/commitment"),
        ViolationCode::DealNonceNotIncreasing => format!("{base}/deal/seeds/nonce"),
        ViolationCode::DealSeedsDiffer => {
            let first = (0..hand).find_map(seeds);
            match (first, seeds(hand)) {
                (Some((_, first)), Some((_, this))) if !first.eq_ignore_ascii_case(this) => {
                    format!("{base}/deal/commitment")
                }
                (Some(_), Some(_)) => format!("{base}/deal/seeds/client_seed"),
                _ => format!("{base}/deal"),
            }
        }
        _ => base,
    }
}

fn audit_problem(error: &MatchAuditError) -> Problem {
    let detail = error.to_string();
    let at = |code: &'static str, pointer: String| {
        Problem::unprocessable(code, &detail).with_error(pointer, code, detail.clone())
    };
    match error {
        MatchAuditError::Deal { hand, error } => {
            let mut problem = deal_problem(error, &format!("/hands/{hand}/deal"));
            problem.detail = detail;
            problem
        }
        MatchAuditError::Match(error @ MatchError::UnknownPlayer { hand, .. }) => {
            at(error.code(), format!("/hands/{hand}/dealer"))
        }
        MatchAuditError::Match(error @ MatchError::BlankPlayerName { index }) => {
            at(error.code(), format!("/players/{index}"))
        }
        MatchAuditError::Match(error @ MatchError::DuplicatePlayerName { .. }) => {
            at(error.code(), "/players/1".into())
        }
        MatchAuditError::Match(error @ MatchError::TooManyHands { .. }) => {
            at(error.code(), "/hands".into())
        }
        // The referee built every other input itself.
        MatchAuditError::Match(_) | MatchAuditError::Inconsistent(_) => Problem::internal(error),
    }
}

// ---- Handler ---------------------------------------------------------------

/// The whole operation, without HTTP.
pub fn answer(request: &MatchAuditRequest) -> Result<MatchAuditResponse, Problem> {
    let profile: Profile = resolve_profile(request.profile.as_ref())?;
    let [first, second] = request.players.as_slice() else {
        return Err(Problem::bad_request(
            super::problem::code::INVALID_BODY,
            format!("a match has two players, not {}", request.players.len()),
        )
        .with_error(
            "/players",
            "invalid_length",
            "a match audit takes two players",
        ));
    };
    let players = Players::new(first.clone(), second.clone());
    let mut hands = Vec::with_capacity(request.hands.len());
    for (index, hand) in request.hands.iter().enumerate() {
        let (deal, seeds) = match &hand.deal {
            DealInput::Cards(deal) => (deal.clone(), None),
            DealInput::Seeds { seeds, commitment } => {
                let (deal, mismatch) =
                    seeded_deal(seeds, commitment, &format!("/hands/{index}/deal"))?;
                let seeds = DealSeeds {
                    client_seed: seeds.client_seed.clone(),
                    commitment: commitment.to_ascii_lowercase(),
                    nonce: seeds.nonce,
                    mismatch,
                };
                (deal, Some(seeds))
            }
        };
        hands.push(RecordedHand {
            dealer: hand.dealer.clone(),
            deal,
            seeds,
            actions: hand.actions.iter().cloned().map(Action::from).collect(),
        });
    }
    let audit =
        gin_rules::audit_match(&profile, &players, &hands).map_err(|e| audit_problem(&e))?;
    let score = MatchResponse::new(&audit.score, profile.hollywood());
    let claimed = request
        .claimed
        .as_ref()
        .map(|claimed| check_claim(claimed, &score))
        .transpose()?;
    let violation = audit.violation.as_ref().map(|found| MatchAuditViolation {
        hand: found.hand,
        action: found.violation.action,
        code: found.violation.code,
        message: found.violation.message.clone(),
        pointer: violation_pointer(request, found),
    });
    let mut hand_answers: Vec<AuditResponse> =
        audit.hands.into_iter().map(AuditResponse::from).collect();
    // A deal judged by its commitment shows the mismatch as its own verdict,
    // as `/v1/hands/audit` does.
    if let (Some(found), Some(violation)) = (&audit.violation, &violation)
        && found.violation.code == ViolationCode::DealCommitmentMismatch
        && let Some(hand) = hand_answers.get_mut(found.hand)
    {
        hand.legal = false;
        hand.violation = Some(found.violation.clone());
        debug_assert_eq!(violation.hand, found.hand);
    }
    Ok(MatchAuditResponse {
        receipt: None,
        legal: violation.is_none(),
        violation,
        hands: hand_answers,
        score,
        claimed,
    })
}

/// The ceilings on names, hands and actions (see `limits`).
fn check_limits(request: &MatchAuditRequest, limits: &RequestLimits) -> Result<(), Problem> {
    check_items("/players", "players", request.players.len(), 2)?;
    for (index, name) in request.players.iter().enumerate() {
        check_length(&format!("/players/{index}"), name, limits.name_length)?;
    }
    check_items("/hands", "hands", request.hands.len(), limits.match_hands)?;
    for (index, hand) in request.hands.iter().enumerate() {
        check_length(
            &format!("/hands/{index}/dealer"),
            &hand.dealer,
            limits.name_length,
        )?;
        check_items(
            &format!("/hands/{index}/actions"),
            "actions",
            hand.actions.len(),
            limits.audit_actions,
        )?;
    }
    Ok(())
}

/// Audit a whole match.
#[utoipa::path(
    tag = "matches",
    summary = "Audit a whole match from its record",
    description = "Replays every hand of a two-player match from its record and scores the \
match from the hands as played, exactly as `POST /v1/matches/score` would. Each hand is \
`{\"dealer\": name, \"deal\", \"actions\"}`, the deal and actions as for `/v1/hands/audit` \
(seats `dealer` and `non_dealer`). Beyond each hand's own checks: no hand after the game \
(every Hollywood game) ended (`hand_after_game_end`); the dealer is the one the profile's \
`next_dealer` seats (`alternate`, the default: the deal passes after every hand, a void one \
too; `winner`: the winner of a hand deals the next, and after a hand that scores nothing the \
same dealer deals again; the first hand's dealer is free): `wrong_dealer`; a hand that stops \
before its end is a match in progress when it is the last, `hand_unfinished` otherwise; seeded \
deals share one commitment and client seed with strictly increasing nonces \
(`deal_commitment_mismatch`, `deal_seeds_differ`, `deal_nonce_not_increasing`).\n\n\
The answer is 200 for any record that can be replayed: `legal`, the first `violation` (`hand`, \
`action` or null for a fault of the whole hand, `code`, `message`, and a JSON `pointer` into \
the request), `hands` (each hand's `/v1/hands/audit` answer, up to the violating one) and \
`match` (the `/v1/matches/score` answer for the complete legal hands). With `claimed`, the \
client's own result in the shape of `match` or any part of it, `claimed.agrees` says whether \
every given field is the referee's and `claimed.differences` lists the others. The body limit \
is its own (`--match-audit-body-limit`, 1 MiB by default).",
    request_body(
        content = MatchAuditRequest,
        examples(
            ("legal" = (summary = "Two hands, the deal alternating; the client's claim checked",
                value = json!(examples::legal()))),
            ("wrong_dealer" = (summary = "The second hand dealt by the first hand's dealer",
                value = json!(examples::wrong_dealer()))),
        )
    ),
    responses(
        (status = 200, description = "The verdict: legal or the first violation, each hand's \
audit, the match's score and the claim's check.", body = MatchAuditResponse,
         examples(
            ("legal" = (summary = "Legal; the claim is off by one point",
                value = json!(examples::answer(examples::legal())))),
            ("wrong_dealer" = (summary = "wrong_dealer at hands[1]",
                value = json!(examples::answer(examples::wrong_dealer())))),
         )),
        JsonBodyRejections,
        UnknownProfile,
        (status = 422, description = "A record that cannot be audited: a dealer who is not a \
player (`unknown_player`), blank or equal player names (`blank_player_name`, \
`duplicate_player_name`), a deal that cannot have been dealt (`wrong_card_count`, \
`duplicate_card`, with a pointer to the card), a client seed over 256 bytes \
(`client_seed_too_long`), or profile parameters that mean nothing together \
(`invalid_profile_combination`).",
         body = Problem, content_type = "application/problem+json",
         example = json!(examples::problem(examples::unknown_dealer()))),
    )
)]
#[post("/v1/matches/audit")]
pub async fn audit_match(
    body: ValidJson<MatchAuditRequest>,
    limits: RequestLimits,
    keys: Keys,
) -> Result<web::Json<MatchAuditResponse>, Problem> {
    let (request, body) = body.into_parts();
    check_limits(&request, &limits)?;
    let profile = resolve_profile(request.profile.as_ref())?;
    let mut audit = answer(&request)?;
    audit.receipt = Some(keys.sign("audit_match", &profile, &body, &audit)?);
    Ok(web::Json(audit))
}

/// Examples for the OpenAPI document, run through the real referee so that
/// they cannot drift from what the service answers.
pub mod examples {
    use serde_json::{Value, json};

    use crate::api::transcript::examples::{deal, knock_actions};

    /// The hand audit's example hand (the non-dealer knocks with 2 after three
    /// actions), dealt by `dealer`.
    fn hand(dealer: &str) -> Value {
        json!({"dealer": dealer, "deal": deal(), "actions": knock_actions()})
    }

    /// Ann deals, Bob knocks; Bob deals, Ann knocks. The claim is off by one.
    pub fn legal() -> Value {
        json!({
            "profile": "standard",
            "players": ["Ann", "Bob"],
            "hands": [hand("Ann"), hand("Bob")],
            "claimed": {"final": {"Ann": {"total": 59}, "Bob": {"total": 60}}},
        })
    }

    /// Ann deals twice.
    pub fn wrong_dealer() -> Value {
        json!({
            "players": ["Ann", "Bob"],
            "hands": [hand("Ann"), hand("Ann")],
        })
    }

    /// A dealer who is not a player.
    pub fn unknown_dealer() -> Value {
        json!({
            "players": ["Ann", "Bob"],
            "hands": [hand("Cy")],
        })
    }

    /// What the service answers to `request` (null if it does not answer 200).
    pub fn answer(request: Value) -> Value {
        let response = serde_json::from_value(request)
            .ok()
            .and_then(|r| super::answer(&r).ok());
        serde_json::to_value(response).unwrap_or(Value::Null)
    }

    /// The problem the service answers to `request` (null if it answers 200).
    pub fn problem(request: Value) -> Value {
        let problem = serde_json::from_value(request)
            .ok()
            .and_then(|r| super::answer(&r).err());
        serde_json::to_value(problem).unwrap_or(Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_documented_examples_are_answered_as_documented() {
        let legal = examples::answer(examples::legal());
        assert_eq!(legal["legal"], true, "{legal}");
        assert_eq!(legal["hands"].as_array().map(Vec::len), Some(2));
        assert_eq!(legal["match"]["final"]["Ann"]["total"], 60);
        assert_eq!(legal["claimed"]["agrees"], false);
        assert_eq!(
            legal["claimed"]["differences"],
            json!([{"pointer": "/claimed/final/Ann/total", "claimed": 59, "refereed": 60,
                    "reason": "value"}])
        );
        let wrong = examples::answer(examples::wrong_dealer());
        assert_eq!(wrong["violation"]["code"], "wrong_dealer");
        assert_eq!(wrong["violation"]["pointer"], "/hands/1/dealer");
        assert_eq!(wrong["match"]["hands"].as_array().map(Vec::len), Some(1));
        let problem = examples::problem(examples::unknown_dealer());
        assert_eq!(problem["code"], "unknown_player");
        assert_eq!(problem["errors"][0]["pointer"], "/hands/0/dealer");
    }

    #[test]
    fn a_claim_is_compared_only_where_it_says_something() {
        let refereed =
            json!({"final": {"Ann": {"total": 60}}, "hands": [{"points": 1}], "net": null});
        let check = |claimed: Value| {
            let mut out = Vec::new();
            compare(&claimed, &refereed, "/claimed", &mut out);
            serde_json::to_value(out).unwrap()
        };
        assert_eq!(check(json!({})), json!([]));
        assert_eq!(check(json!({"final": {"Ann": {"total": 60.0}}})), json!([]));
        assert_eq!(
            check(json!({"final": {"A/n~": 1}})),
            json!([{"pointer": "/claimed/final/A~1n~0", "claimed": 1, "refereed": null, "reason": "missing"}])
        );
        assert_eq!(
            check(json!({"hands": [1, 2]})),
            json!([{"pointer": "/claimed/hands", "claimed": [1, 2], "refereed": null, "reason": "shape"}])
        );
        assert_eq!(
            check(json!({"net": 0, "final": 3})),
            json!([
                {"pointer": "/claimed/final", "claimed": 3, "refereed": null, "reason": "shape"},
                {"pointer": "/claimed/net", "claimed": 0, "refereed": null, "reason": "value"}
            ])
        );
    }
}
