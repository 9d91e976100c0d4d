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

use serde::Deserialize;
use utoipa::ToSchema;

use crate::limits::RequestLimits;
use crate::problem::Problem;
use crate::wire::profile_spec::{ProfileSpec, resolve_profile};
use crate::wire::receipt::Keys;
use crate::wire::request::record_request;
use crate::wire::transcript::{
    ActionSchema, AuditResponse, DealInput, DealSchema, Replay, TranscriptAction, replay_problem,
};

// ---- Request ---------------------------------------------------------------

record_request! { hand:
    /// A recorded hand: the deal and every action, in order.
    pub struct AuditRequest {
        /// A preset name (`standard` when absent) or an object overriding a preset's
        /// parameters, as for every scoring request.
        profile,
        /// The actions in the order they were taken. An empty list is a hand not yet
        /// begun.
        actions,
        /// Ask for a signed receipt of the answer (see `GET /v1/keys`).
        #[serde(default, deserialize_with = "crate::json::present")]
        #[schema(nullable = false, example = false)]
        pub receipt: Option<bool>,
    }
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
        crate::wire::example_answer(request, super::answer)
    }

    /// The problem the service answers to `request` (null if it answers 200).
    pub fn problem(request: Value) -> Value {
        crate::wire::example_problem(request, super::answer)
    }
}

/// The whole request, without HTTP: resolve the profile, replay, shape the answer.
pub fn answer(request: AuditRequest) -> Result<AuditResponse, Problem> {
    let profile = resolve_profile(request.profile.as_ref())?;
    let replay = Replay::read(request.deal, request.actions, profile.jokers())?;
    let audit =
        gin_rules::audit_hand(&profile, &replay.deal, replay.actions()).map_err(replay_problem)?;
    Ok(match replay.mismatch() {
        None => audit.into(),
        Some(violation) => AuditResponse {
            receipt: None,
            legal: false,
            violation: Some(violation.into()),
            result: None,
            knocker: None,
            ended_at: None,
            table: audit.table,
        },
    })
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
    request.check_length(limits)?;
    let signed = (request.receipt == Some(true))
        .then(|| resolve_profile(request.profile.as_ref()))
        .transpose()?;
    let mut audit = answer(request)?;
    if let Some(profile) = signed {
        audit.receipt = Some(keys.sign("audit_hand", &profile, body, &audit)?);
    }
    Ok(audit)
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
