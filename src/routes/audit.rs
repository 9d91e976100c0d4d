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
//! impossible (not 52 distinct cards dealt 10/10/1/31, or 53/54 with 32/33 in
//! the stock under a profile with jokers) or the profile overrides
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

use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::http::bulk;
use crate::http::json::{ValidJson, from_slice};
use crate::http::limits::{RequestLimits, check_items};
use crate::http::ndjson::{batch_line_schema, request_line_schema};
use crate::http::problem::Problem;
use crate::wire::profile_spec::{ProfileSpec, resolve_profile};
use crate::wire::receipt::Keys;
use crate::wire::transcript::{
    ActionSchema, AuditResponse, DealInput, DealSchema, TranscriptAction, deal_problem, seeded_deal,
};
use gin_rules::{self, Action, AuditError, Violation, ViolationCode};

pub fn configure(cfg: &mut super::ServiceConfig) {
    cfg.service(audit_hand).service(audit_hands);
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
    /// Ask for a signed receipt of the answer (see `GET /v1/keys`).
    #[serde(default, deserialize_with = "crate::http::json::present")]
    #[schema(nullable = false, example = false)]
    pub receipt: Option<bool>,
}

// ---- Handler ---------------------------------------------------------------

/// Examples for the OpenAPI document, run through the real referee so that
/// they cannot drift from what the service answers.
pub mod examples {
    use serde_json::{Value, json};

    use crate::wire::transcript::examples::{deal, knock_actions};

    /// Both pass the upcard; the non-dealer draws 2H and knocks with 2; the dealer
    /// lays off 7H and 4S.
    pub fn legal_knock() -> Value {
        json!({"profile": "standard", "deal": deal(), "actions": knock_actions()})
    }

    /// [`legal_knock`] as a recorder has it: the stock lists only the card
    /// drawn, and the layoffs name their meld by its cards (7H onto 4-5-6H) or
    /// not at all (4S: the referee places it, onto A-2-3S).
    pub fn as_recorded() -> Value {
        let mut request = legal_knock();
        if let Some(stock) = request.pointer_mut("/deal/stock") {
            *stock = json!(["2H"]);
        }
        if let Some(layoffs) = request.pointer_mut("/actions/4/layoffs") {
            *layoffs = json!([{"card": "7H", "onto": ["4H", "5H", "6H"]}, {"card": "4S"}]);
        }
        request
    }

    /// [`legal_knock`] with the reply declaring that nothing is laid off
    /// (`"layoffs": []`): 7H and 4S stay deadwood. Leaving `layoffs` out
    /// instead (or the whole reply) plays the defender's best layoffs.
    pub fn declared_no_layoffs() -> Value {
        let mut request = legal_knock();
        if let Some(layoffs) = request.pointer_mut("/actions/4/layoffs") {
            *layoffs = json!([]);
        }
        request
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

    /// Two hands of the examples as NDJSON lines, with ids.
    pub fn batch() -> Value {
        let with_id = |mut request: Value, id: &str| {
            if let Some(object) = request.as_object_mut() {
                object.insert("id".into(), json!(id));
            }
            request
        };
        let first = with_id(legal_knock(), "hand-1");
        let second = with_id(illegal_discard(), "hand-2");
        json!(format!("{first}\n{second}\n"))
    }

    /// What the batch endpoint answers to [`batch`].
    pub fn batch_answer() -> Value {
        let lines = [("hand-1", legal_knock()), ("hand-2", illegal_discard())];
        let mut text = String::new();
        for (index, (id, request)) in lines.into_iter().enumerate() {
            let answer = answer(request);
            text.push_str(&format!(
                "{}\n",
                json!({"line": index + 1, "id": id, "result": answer})
            ));
        }
        json!(text)
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
        DealInput::Seeds { seeds, commitment } => {
            seeded_deal(&seeds, &commitment, "/deal", profile.jokers())?
        }
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
                receipt: None,
                legal: false,
                violation: Some(
                    Violation {
                        action: None,
                        code: ViolationCode::DealCommitmentMismatch,
                        message,
                        field: None,
                    }
                    .into(),
                ),
                result: None,
                knocker: None,
                ended_at: None,
                table: audit.table,
            },
        }),
        Err(AuditError::Deal(error)) => Err(deal_problem(&error, "/deal")),
        Err(error @ AuditError::Inconsistent(_)) => Err(Problem::internal(&error)),
    }
}

crate::problem_responses!(
    /// The error answers of `/v1/hands/audit`.
    AuditErrors: [MalformedJson, InvalidBody, PayloadTooLarge, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, DuplicateCard, WrongCardCount, UnrecordedDraw, JokerNotInDeck, ClientSeedTooLong]
);

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
(the defender's optional reply: `melds` and/or `layoffs`). A part of the reply left out is \
played best for the defender; `\"layoffs\": []` declares that nothing is laid off.\n\n\
Records as recorders have them: the deal's `stock` may list only its first cards (those \
drawn, top first, down to none); a draw past them names its card (`unrecorded_draw` when it \
does not). A layoff names its knocker meld by index (`meld`), by cards of that meld \
(`onto`), or not at all: unless every layoff gives `meld` (then they are played in the order \
given), the referee places each where the record allows so that every knocker meld stays a \
meld, and the result's `defender.layoffs` shows where each went.\n\n\
The answer is 200 whether or not the hand was legal: `legal`, the first `violation` \
(`action` index, stable `code`, `message`, and a `pointer` down to the field at fault, \
such as `/actions/7/card`) and the `result`: the score as \
`/v1/hands/score` gives it for the final hands, `{\"void\": true}`, or null when the \
transcript stops before the hand ends or an action is illegal. A knock with no reply is \
scored with the defender's best reply. 422 is only for a deal that cannot have been dealt \
(`wrong_card_count`, `duplicate_card`), a draw the record cannot tell (`unrecorded_draw`), \
a joker the profile's deck does not hold (`joker_not_in_deck`), or invalid profile \
overrides.\n\n\
Under a profile with jokers the deck holds 53 or 54 cards: `X1`/`X2` are dealt, drawn and \
discarded like any card (the full stock is 32 or 33 cards), the knock and the reply may \
declare melds holding jokers with a `jokers` map beside `melds`, and a joker laid off names \
its `stands_for`. Under `joker_pickup_must_meld` a joker taken from the discard pile must be \
melded that turn, by a knock (`joker_not_melded`).",
    request_body(
        content = AuditRequest,
        examples(
            ("legal_knock" = (summary = "A short legal hand: pass, pass, draw, knock, lay off",
                value = json!(examples::legal_knock()))),
            ("as_recorded" = (summary = "The same hand as a recorder has it: only the drawn stock card, layoffs placed by the referee",
                value = json!(examples::as_recorded()))),
            ("declared_no_layoffs" = (summary = "The same hand with a reply laying off nothing (`\"layoffs\": []`)",
                value = json!(examples::declared_no_layoffs()))),
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
            ("as_recorded" = (summary = "Scored as the whole record is; the result shows where each layoff went",
                value = json!(examples::answer(examples::as_recorded())))),
            ("declared_no_layoffs" = (summary = "7H and 4S stay deadwood",
                value = json!(examples::answer(examples::declared_no_layoffs())))),
            ("illegal_discard" = (summary = "discard_just_taken at action 1",
                value = json!(examples::answer(examples::illegal_discard())))),
            ("unfinished" = (summary = "Legal so far, no result",
                value = json!(examples::answer(examples::unfinished())))),
         )),
        AuditErrors,
    )
)]
#[post("/v1/hands/audit")]
pub async fn audit_hand(
    body: ValidJson<AuditRequest>,
    limits: RequestLimits,
    keys: Keys,
) -> Result<web::Json<AuditResponse>, Problem> {
    let (request, body) = body.into_parts();
    verdict(request, &body, &limits, &keys).map(web::Json)
}

/// The verdict on one hand, signed when asked, without HTTP (the single and
/// the batch endpoint); `body` is the request as received.
pub fn verdict(
    request: AuditRequest,
    body: &[u8],
    limits: &RequestLimits,
    keys: &Keys,
) -> Result<AuditResponse, Problem> {
    // Each action is replayed in constant time but the knock (one or two scorer
    // calls, microseconds): with the ceiling on actions, not worth a thread hop.
    check_items(
        "/actions",
        "actions",
        request.actions.len(),
        limits.audit_actions,
    )?;
    let signed = (request.receipt == Some(true))
        .then(|| resolve_profile(request.profile.as_ref()))
        .transpose()?;
    let mut audit = answer(request)?;
    if let Some(profile) = signed {
        audit.receipt = Some(keys.sign("audit_hand", &profile, body, &audit)?);
    }
    Ok(audit)
}

batch_line_schema!(AuditBatchLine, AuditResponse);
request_line_schema!(AuditRequestLine, AuditRequest);

crate::problem_responses!(
    /// The error answers of `/v1/hands/audit/batch`.
    AuditBatchErrors: [MalformedRequest, BatchTimeout, LineTooLong, UnsupportedMediaType, UnsupportedContentEncoding, MalformedJson, InvalidBody, PayloadTooLarge, TooManyLines, RequestTimeout]
);

/// Audits many hands.
#[utoipa::path(
    tag = "hands",
    summary = "Audit many hands (NDJSON)",
    description = "The bulk form of `POST /v1/hands/audit`: one `AuditRequest` per line \
(NDJSON, `application/x-ndjson`), optionally with an `id`; one `AuditBatchLine` per request \
line in the same order, streamed (`result` or `problem`; see `POST /v1/hands/analyze/batch` for \
the framing). A line asking for a `receipt` gets one for that line.",
    request_body(content = Vec<AuditRequestLine>, content_type = "application/x-ndjson",
        description = "NDJSON: one `AuditRequest` per line (each item of the schema is a line).",
        example = json!(examples::batch())),
    responses(
        (status = 200, description = "NDJSON: one `AuditBatchLine` per request line (each item of the schema is a line).",
         content_type = "application/x-ndjson", body = Vec<AuditBatchLine>,
         example = json!(examples::batch_answer())),
        AuditBatchErrors,
    )
)]
#[post("/v1/hands/audit/batch")]
pub async fn audit_hands(
    request: HttpRequest,
    payload: web::Payload,
    limits: RequestLimits,
    keys: Keys,
) -> Result<HttpResponse, Problem> {
    bulk::respond(request, payload, "audit_hand", move |line: &[u8]| {
        verdict(from_slice(line)?, line, &limits, &keys)
    })
    .await
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
