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

use serde::Deserialize;
use utoipa::ToSchema;

use crate::limits::RequestLimits;
use crate::problem::Problem;
use crate::wire::live::StateResponse;
use crate::wire::profile_spec::{ProfileSpec, resolve_profile};
use crate::wire::request::record_request;
use crate::wire::transcript::{
    ActionSchema, DealInput, DealSchema, Replay, TranscriptAction, replay_problem,
};
use gin_rules::{Seat, StoryViewer};

record_request! { hand:
    /// A hand so far, and whose view to answer with.
    pub struct StateRequest {
        /// A preset name (`standard` when absent) or an object overriding a
        /// preset's parameters, as for `/v1/hands/audit`.
        profile,
        /// The actions so far, in order, as `/v1/hands/audit` takes them.
        actions,
        /// Answer with what this seat may know; absent: the referee's whole table
        /// (for the app's server only).
        #[serde(default, deserialize_with = "crate::json::present")]
        #[schema(nullable = false)]
        pub seat: Option<Seat>,
        openspiel:
        /// Add OpenSpiel's `gin_rummy` action ids to the legal actions.
    }
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
        crate::wire::example_answer(request, super::answer)
    }
}

/// The whole request, without HTTP: resolve the profile, replay, list.
pub fn answer(request: StateRequest) -> Result<StateResponse, Problem> {
    let profile = resolve_profile(request.profile.as_ref())?;
    let replay = Replay::read(request.deal, request.actions, profile.jokers())?;
    let openspiel = request.openspiel == Some(true);
    let actions = replay.actions();
    let mut state = gin_rules::hand_state(&profile, &replay.deal, actions, request.seat)
        .map_err(replay_problem)?;
    // The actions the state stands on: those before its violation.
    let mut told = state
        .violation
        .as_ref()
        .and_then(|violation| violation.action)
        .and_then(|upto| actions.get(..upto))
        .unwrap_or(actions);
    // A deal that does not match its commitment is judged before any
    // action, as the audit judges it: nothing may be played.
    if let Some(violation) = replay.mismatch() {
        state.violation = Some(violation);
        state.to_act = None;
        state.legal_actions.clear();
        state.layable = None;
        told = &[];
    }
    Ok(with_story(
        state,
        &replay.deal,
        told,
        request.seat,
        openspiel,
    ))
}

/// The state of a hand held between calls ([`gin_rules::LiveHand`], the
/// Python module's `Hand`), exactly as [`answer`] gives it for the hand's
/// record: a held hand refuses every illegal action and every deal that does
/// not match its commitment, so its story is every action applied.
pub fn held_answer(
    live: &gin_rules::LiveHand,
    seat: Option<Seat>,
    openspiel: bool,
) -> StateResponse {
    with_story(
        live.state(seat),
        live.deal(),
        live.actions(),
        seat,
        openspiel,
    )
}

/// The answer of a state, with the seat's own story of the `told` actions.
fn with_story(
    state: gin_rules::HandState,
    deal: &gin_rules::Deal,
    told: &[gin_rules::Action],
    seat: Option<Seat>,
    openspiel: bool,
) -> StateResponse {
    let viewer = seat.map_or(StoryViewer::Referee, StoryViewer::Seat);
    let log = gin_rules::story(deal, told, viewer, state.laid_down.as_ref());
    StateResponse::new(state, openspiel).with_log(&log)
}

/// `/v1/hands/state`: the transcript's length checked, then the state.
pub fn respond(request: StateRequest, limits: &RequestLimits) -> Result<StateResponse, Problem> {
    request.check_length(limits)?;
    answer(request)
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
