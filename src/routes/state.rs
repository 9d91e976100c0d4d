//! `POST /v1/hands/state`: the live referee. A game server or a bot arena
//! sends the hand so far, exactly as `/v1/hands/audit` takes it, and is told
//! the phase, who acts, and every action that player may take now, each
//! `move` ready to append (the referee is [`gin_rules::hand_state`], the
//! audit's own turn machine; its docs argue why the listing is exactly what
//! the audit accepts). Stateless: the transcript is the state.
//!
//! With `seat`, the answer holds only what that seat may know; without it,
//! the referee's whole table (both hands, the stock): for the app's server
//! only, never to be forwarded to a player.

use actix_web::{post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::http::json::ValidJson;
use crate::http::limits::{RequestLimits, check_items};
use crate::http::problem::Problem;
use crate::wire::live::StateResponse;
use crate::wire::profile_spec::{ProfileSpec, resolve_profile};
use crate::wire::transcript::{
    ActionSchema, DealInput, DealSchema, TranscriptAction, deal_problem, seeded_deal,
};
use gin_rules::{Action, AuditError, Seat, Violation, ViolationCode};

pub fn configure(cfg: &mut super::ServiceConfig) {
    cfg.service(hand_state);
}

/// A hand so far, and whose view to answer with.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StateRequest {
    /// A preset name (`standard` when absent) or an object overriding a
    /// preset's parameters, as for `/v1/hands/audit`.
    #[serde(default)]
    pub profile: Option<ProfileSpec>,
    /// The cards as dealt, or the seeds that dealt them with their commitment.
    #[schema(value_type = DealSchema)]
    pub deal: DealInput,
    /// The actions so far, in order, as `/v1/hands/audit` takes them.
    #[schema(value_type = Vec<ActionSchema>)]
    pub actions: Vec<TranscriptAction>,
    /// Answer with what this seat may know; absent: the referee's whole table
    /// (for the app's server only).
    #[serde(default, deserialize_with = "crate::http::json::present")]
    #[schema(nullable = false)]
    pub seat: Option<Seat>,
    /// Add OpenSpiel's `gin_rummy` action ids to the legal actions.
    #[serde(default, deserialize_with = "crate::http::json::present")]
    #[schema(nullable = false, example = false)]
    pub openspiel: Option<bool>,
}

/// Examples for the OpenAPI document and the guides, each run through the
/// real referee so that they cannot drift from what the service answers.
pub mod examples {
    use serde_json::{Value, json};

    use crate::wire::transcript::examples::{deal, knock_actions};

    fn request(actions: Value, seat: Option<&str>) -> Value {
        let mut request = json!({"deal": deal(), "actions": actions});
        if let (Some(seat), Some(object)) = (seat, request.as_object_mut()) {
            object.insert("seat".into(), json!(seat));
        }
        request
    }

    fn first(count: usize) -> Value {
        match knock_actions() {
            Value::Array(all) => Value::Array(all.into_iter().take(count).collect()),
            other => other,
        }
    }

    /// A new hand, as the non-dealer sees it: take the upcard or pass (with
    /// OpenSpiel's ids).
    pub fn upcard_offer() -> Value {
        with_openspiel(request(json!([]), Some("non_dealer")))
    }

    fn with_openspiel(mut request: Value) -> Value {
        if let Some(object) = request.as_object_mut() {
            object.insert("openspiel".into(), json!(true));
        }
        request
    }

    /// Both passed: the non-dealer draws first, from the stock.
    pub fn draw() -> Value {
        request(first(2), Some("non_dealer"))
    }

    /// The non-dealer drew 2H: discard, or knock (with OpenSpiel's ids).
    pub fn discard() -> Value {
        with_openspiel(request(first(3), Some("non_dealer")))
    }

    /// The non-dealer knocked: the dealer's best reply, the empty one, and
    /// the cards it may lay off.
    pub fn reply() -> Value {
        request(first(4), Some("dealer"))
    }

    /// The dealer replied: the hand is over, with its result.
    pub fn over() -> Value {
        request(knock_actions(), Some("dealer"))
    }

    /// The referee's whole table (no `seat`), for the app's server only.
    pub fn referee() -> Value {
        request(first(3), None)
    }

    /// What the service answers to `request` (null if it does not answer 200).
    pub fn answer(request: Value) -> Value {
        let response = serde_json::from_value(request)
            .ok()
            .and_then(|r| super::answer(r).ok());
        serde_json::to_value(response).unwrap_or(Value::Null)
    }
}

/// The whole request, without HTTP: resolve the profile, replay, list.
pub fn answer(request: StateRequest) -> Result<StateResponse, Problem> {
    let profile = resolve_profile(request.profile.as_ref())?;
    let actions: Vec<Action> = request.actions.into_iter().map(Action::from).collect();
    let (deal, mismatch) = match request.deal {
        DealInput::Cards(deal) => (deal, None),
        DealInput::Seeds { seeds, commitment } => {
            seeded_deal(&seeds, &commitment, "/deal", profile.jokers())?
        }
    };
    // A deal that does not match its commitment is judged before any action,
    // as the audit judges it.
    let replayed = if mismatch.is_some() {
        &[][..]
    } else {
        &actions[..]
    };
    let openspiel = request.openspiel == Some(true);
    match gin_rules::hand_state(&profile, &deal, replayed, request.seat) {
        Ok(mut state) => {
            if let Some(message) = mismatch {
                state.violation = Some(Violation {
                    action: None,
                    code: ViolationCode::DealCommitmentMismatch,
                    message,
                    field: None,
                });
                state.to_act = None;
                state.legal_actions.clear();
                state.layable = None;
            }
            Ok(StateResponse::new(state, openspiel))
        }
        Err(AuditError::Deal(error)) => Err(deal_problem(&error, "/deal")),
        Err(error @ AuditError::Inconsistent(_)) => Err(Problem::internal(&error)),
    }
}

crate::problem_responses!(
    /// The error answers of `/v1/hands/state`.
    StateErrors: [MalformedJson, InvalidBody, PayloadTooLarge, UnsupportedMediaType, UnsupportedContentEncoding, RequestTimeout, UnknownProfile, InvalidProfile, InvalidProfileCombination, DuplicateCard, WrongCardCount, UnrecordedDraw, JokerNotInDeck, ClientSeedTooLong]
);

/// What may be done now.
#[utoipa::path(
    tag = "hands",
    summary = "The legal moves now (live play)",
    description = "For a game server or a bot arena that runs a hand: \"what may be done \
now?\". The body is the hand so far exactly as `POST /v1/hands/audit` takes it (`profile`, \
`deal` as cards or seeds, `actions`), plus optional `seat` (`dealer` or `non_dealer`: answer \
with what that player may know) and `openspiel` (add OpenSpiel's `gin_rummy` action ids). \
Stateless: the transcript is the state; append the action taken and ask again.\n\n\
The answer: `legal` and `violation` exactly as the audit (an illegal transcript has no state \
past its first violation: no one acts); `phase` (`upcard_offer`, `draw`, `discard`, \
`last_discard_offer`, `reply`, `over`); `to_act`; `legal_actions`, each with a `move` written \
as the audit reads an action, to append as it is (the audit finds it legal; every well-formed \
action not listed is one the audit refuses, but that at the 50th-card offer, and for a joker \
that must be melded that turn, a take is listed only when a knock can follow it). A stock draw \
names no card. A knock is listed once per discard keeping the knocker within the knock limit \
(and once without a discard for big gin), with its least `deadwood` and `gin`. In the reply, \
the defender's best reply (melds and layoffs declared) and the reply laying nothing off, with \
`layable`; `laid_down` shows the knocker's melds. `result` once the hand is over. OpenSpiel \
ids: a card `suit * 13 + rank` (suits s, c, d, h; A..K as 0..12) to discard, 52 take, 53 draw \
from the stock, 54 pass, 55 knock (`openspiel_actions: [55, card]` for a knock) and 55 to take \
the 50th-card discard; none where OpenSpiel has no such action (jokers, big gin, replies).\n\n\
**Without `seat` the answer is the referee's whole table** (both hands and the stock's cards): \
for the app's server only, never for a player. With `seat`, no card that seat cannot know \
appears anywhere in the answer (the opponent's cards not taken from the pile, the stock), and \
a waiting seat gets no legal actions. Same limits and errors as `/v1/hands/audit`.",
    request_body(
        content = StateRequest,
        examples(
            ("upcard_offer" = (summary = "A new hand, as the non-dealer sees it",
                value = json!(examples::upcard_offer()))),
            ("draw" = (summary = "Both passed the upcard: the non-dealer draws from the stock",
                value = json!(examples::draw()))),
            ("discard" = (summary = "After the draw: discard or knock, with OpenSpiel ids",
                value = json!(examples::discard()))),
            ("reply" = (summary = "After the knock, as the defender sees it",
                value = json!(examples::reply()))),
            ("over" = (summary = "The hand is over",
                value = json!(examples::over()))),
            ("referee" = (summary = "No seat: the referee's whole table (the app's server only)",
                value = json!(examples::referee()))),
        )
    ),
    responses(
        (status = 200, description = "Where the hand stands and what may be done now.",
         body = StateResponse,
         examples(
            ("upcard_offer" = (summary = "Take the upcard (52) or pass (54)",
                value = json!(examples::answer(examples::upcard_offer())))),
            ("draw" = (summary = "Only the stock",
                value = json!(examples::answer(examples::draw())))),
            ("discard" = (summary = "Eleven discards and the knocks within the limit",
                value = json!(examples::answer(examples::discard())))),
            ("reply" = (summary = "Best reply, no layoffs, layable cards",
                value = json!(examples::answer(examples::reply())))),
            ("over" = (summary = "The result",
                value = json!(examples::answer(examples::over())))),
            ("referee" = (summary = "Both hands and the stock",
                value = json!(examples::answer(examples::referee())))),
         )),
        StateErrors,
    )
)]
#[post("/v1/hands/state")]
pub async fn hand_state(
    body: ValidJson<StateRequest>,
    limits: RequestLimits,
) -> Result<web::Json<StateResponse>, Problem> {
    let (request, _) = body.into_parts();
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
    fn the_documented_examples_walk_through_every_phase() {
        let phases: Vec<serde_json::Value> = [
            examples::upcard_offer(),
            examples::draw(),
            examples::discard(),
            examples::reply(),
            examples::over(),
        ]
        .into_iter()
        .map(|request| examples::answer(request)["phase"].clone())
        .collect();
        assert_eq!(phases, ["upcard_offer", "draw", "discard", "reply", "over"]);
        let discard = examples::answer(examples::discard());
        let knock = discard["legal_actions"]
            .as_array()
            .and_then(|all| all.iter().find(|a| a["move"]["discard"] == "KC"))
            .cloned()
            .unwrap_or_default();
        assert_eq!(knock["openspiel_actions"], serde_json::json!([55, 25]));
        assert_eq!(knock["deadwood"], 2);
    }
}
