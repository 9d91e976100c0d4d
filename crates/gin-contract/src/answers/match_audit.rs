//! `POST /v1/matches/audit`: a whole match (two players, three players, or a
//! partnership) from its record, every hand replayed and checked, the match
//! scored from the hands as played (the referee is [`gin_rules::audit_match`]
//! and its siblings; their module docs give the checks between hands and their
//! order).
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

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Schema, Type};

use crate::limits::RequestLimits;
use crate::problem::Problem;
use crate::wire::edge::{FormatOperation, WireFormat, dispatch};
use crate::wire::formats::{MatchAnswer, TeamSpec};
pub use crate::wire::match_record::MatchAuditViolation;
use crate::wire::match_record::{
    RoundRecord, RoundRecordSchema, audit_problem, check_record_limits,
};
use crate::wire::profile_spec::{ProfileSpec, resolve_profile};
use crate::wire::receipt::Keys;
use crate::wire::request::record_request;
use crate::wire::transcript::AuditResponse;
use gin_rules::{self, MatchAudit, MatchAuditError, Profile, ViolationCode};

// ---- Request ---------------------------------------------------------------

record_request! { match:
    /// A match's record: the players (or teams) and every hand, in the order
    /// played.
    pub struct MatchAuditRequest {
        /// A preset name (`standard` when absent) or an object overriding a preset's
        /// parameters. `next_dealer` says who deals each hand after the first.
        profile,
        /// The players' names, distinct and not blank: two, or three for
        /// three-player play. Absent for partnership play (`teams`).
        players,
        /// Partnership play: the two teams of two, instead of `players`. Each hand
        /// is then a deal `{"tables": [hand, hand]}`.
        teams,
        /// The hands in the order played (deals, in partnership play). The last
        /// may stop before its end (a match in progress); any other that does is
        /// `hand_unfinished`.
        hands,
        /// The client's own result, in the shape of the answer's `match` (any part
        /// of it): compared field by field.
        #[serde(default, deserialize_with = "claimed_object")]
        #[schema(value_type = Option<Claim>)]
        pub claimed: Option<Value>,
        /// Accepted for uniformity: a match audit is always signed.
        #[serde(default, deserialize_with = "crate::json::present")]
        #[schema(nullable = false, example = true)]
        pub receipt: Option<bool>,
    }
}

/// `claimed` is an object (or null, absent): the shape of `match`, as its
/// schema says; any other JSON is a shape error.
fn claimed_object<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Value>, D::Error> {
    match Option::<Value>::deserialize(deserializer)? {
        Some(Value::Object(claim)) => Ok(Some(Value::Object(claim))),
        None | Some(Value::Null) => Ok(None),
        Some(other) => Err(serde::de::Error::invalid_type(
            serde::de::Unexpected::Other(match other {
                Value::Array(_) => "sequence",
                Value::String(_) => "string",
                Value::Number(_) => "number",
                _ => "boolean",
            }),
            &"an object in the shape of the answer's `match`",
        )),
    }
}

/// The schema of `claimed`, the client's own result: an object in the shape
/// of the answer's `match`, any part of it (read as JSON and walked).
pub struct Claim;

impl utoipa::PartialSchema for Claim {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(
                "The client's own result: any part of the answer's `match`, in its shape.",
            ))
            .additional_properties(Some(AdditionalProperties::FreeForm(true)))
            .into()
    }
}

impl ToSchema for Claim {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("Claim")
    }
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
    /// Each hand's `/v1/hands/audit` answer (a deal's two, in partnership
    /// play), up to and including the violating hand.
    pub hands: Vec<RoundAudit>,
    /// The `/v1/matches/score` answer for the complete legal hands (before the
    /// violation, if any).
    #[serde(rename = "match")]
    pub score: MatchAnswer,
    /// Present when the request has `claimed`: whether it agrees.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub claimed: Option<ClaimCheck>,
    /// A signed receipt (compact JWS, see `GET /v1/keys`), always present:
    /// a match audit is always signed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub receipt: Option<String>,
}

/// One hand's audit, or a partnership deal's two.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum RoundAudit {
    Hand(Box<AuditResponse>),
    Deal(DealAudit),
}

/// The audits of a partnership deal's tables.
#[derive(Debug, Serialize, ToSchema)]
pub struct DealAudit {
    /// Each table's `/v1/hands/audit` answer, in the order of the request.
    pub tables: Vec<AuditResponse>,
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
    #[schema(schema_with = crate::wire::any_json, example = 309)]
    pub claimed: Value,
    /// The referee's value there; null when it has none, or when it is an
    /// object or a list where the claim has something else (see `reason`).
    #[schema(schema_with = crate::wire::any_json, example = 310)]
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

fn check_claim(claimed: &Value, score: &MatchAnswer) -> Result<ClaimCheck, Problem> {
    let refereed = serde_json::to_value(score).map_err(|e| Problem::internal(&e))?;
    let mut differences = Vec::new();
    compare(claimed, &refereed, "/claimed", &mut differences);
    Ok(ClaimCheck {
        agrees: differences.is_empty(),
        differences,
    })
}

/// The verdict's parts that do not depend on the format.
fn verdict<S>(
    request: &MatchAuditRequest,
    audit: MatchAudit<S>,
    score: MatchAnswer,
) -> Result<MatchAuditResponse, Problem> {
    let claimed = request
        .claimed
        .as_ref()
        .map(|claimed| check_claim(claimed, &score))
        .transpose()?;
    let violation = audit
        .violation
        .as_ref()
        .map(|found| MatchAuditViolation::of(&request.record(), found));
    let partnership = request.teams.is_some();
    let mut hands: Vec<RoundAudit> = audit
        .hands
        .into_iter()
        .map(|tables| {
            let mut answers: Vec<AuditResponse> =
                tables.into_iter().map(AuditResponse::from).collect();
            match (partnership, answers.len()) {
                (false, 1) => match answers.pop() {
                    Some(answer) => RoundAudit::Hand(Box::new(answer)),
                    None => RoundAudit::Deal(DealAudit { tables: answers }),
                },
                _ => RoundAudit::Deal(DealAudit { tables: answers }),
            }
        })
        .collect();
    // A deal judged by its commitment shows the mismatch as its own verdict,
    // as `/v1/hands/audit` does.
    if let Some(found) = &audit.violation
        && found.violation.code == ViolationCode::DealCommitmentMismatch
    {
        let answer = match (hands.get_mut(found.hand), found.table) {
            (Some(RoundAudit::Hand(answer)), None) => Some(&mut **answer),
            (Some(RoundAudit::Deal(deal)), Some(table)) => deal.tables.get_mut(table),
            _ => None,
        };
        if let Some(answer) = answer {
            answer.legal = false;
            answer.violation = Some(found.violation.clone().into());
        }
    }
    Ok(MatchAuditResponse {
        legal: violation.is_none(),
        violation,
        hands,
        score,
        claimed,
        receipt: None,
    })
}

/// The whole operation, without HTTP.
pub fn answer(request: &MatchAuditRequest) -> Result<MatchAuditResponse, Problem> {
    let profile: Profile = resolve_profile(request.profile.as_ref())?;
    dispatch(
        request.players.as_deref(),
        request.teams.as_deref(),
        Audit { request, profile },
    )
}

/// The match audit, for any format.
struct Audit<'a> {
    request: &'a MatchAuditRequest,
    profile: Profile,
}

impl FormatOperation for Audit<'_> {
    type Output = MatchAuditResponse;

    fn run<F: WireFormat>(self, format: F) -> Result<MatchAuditResponse, Problem> {
        let Audit { request, profile } = self;
        let record = request.record();
        let deals = F::record_deals(&record, profile.jokers())?;
        let problem = |e: MatchAuditError| audit_problem(&record, &e);
        let audit = gin_rules::audit_match(&profile, &format, &deals).map_err(problem)?;
        let score = format.answer(&audit.score, &profile);
        verdict(request, audit, score)
    }
}

/// Examples for the OpenAPI document, run through the real referee so that
/// they cannot drift from what the service answers.
pub mod examples {
    use serde_json::{Value, json};

    use crate::wire::transcript::examples::{deal, knock_actions};

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
        crate::wire::example_answer(request, |r| super::answer(&r))
    }

    /// The problem the service answers to `request` (null if it answers 200).
    pub fn problem(request: Value) -> Value {
        crate::wire::example_problem(request, |r| super::answer(&r))
    }
}

/// `/v1/matches/audit`: the ceilings checked, the match audited, and signed
/// (always, where there is a key; see [`Keys::sign_if_keyed`]).
pub fn respond(
    request: &MatchAuditRequest,
    body: &[u8],
    limits: &RequestLimits,
    keys: &Keys,
) -> Result<MatchAuditResponse, Problem> {
    check_record_limits(&request.record(), limits)?;
    let profile = resolve_profile(request.profile.as_ref())?;
    let mut audit = answer(request)?;
    audit.receipt = keys.sign_if_keyed("audit_match", &profile, body, &audit)?;
    Ok(audit)
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
