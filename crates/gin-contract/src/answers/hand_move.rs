//! `POST /v1/hands/move`: the referee plays. The body is `/v1/hands/state`'s
//! with a required `seat` and the `bot` to play it; the answer is one of the
//! moves the state lists for that seat now, exactly as listed, and the bot
//! that chose it.
//!
//! The bot is given only the seat's view ([`gin_rules::bots::SeatView`],
//! built from the seat's own state and story): two records that differ only
//! in what the seat cannot know, or a deal given by its seeds and the same
//! deal as cards, give the same move for the same `seed`.
//!
//! # Cost
//!
//! The state's: one replay of the record (its ceilings, `--max-audit-actions`
//! and the body limit), then one bot decision, whose work the bot's knobs
//! bound (each within the bounds `gin_rules::bots::KNOBS` states).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::limits::RequestLimits;
use crate::problem::Problem;
use crate::wire::bot::{
    BotMove, BotRequest, BotSchema, idle_message, not_to_act, play, violation_problem,
};
use crate::wire::profile_spec::{ProfileSpec, resolve_profile};
use crate::wire::request::record_request;
use crate::wire::transcript::{
    ActionSchema, ActionViolation, DealInput, DealSchema, Replay, TranscriptAction, replay_problem,
};
use gin_rules::{Seat, StoryViewer};

record_request! { hand:
    /// A hand so far, the seat to play for, and the bot that plays.
    pub struct HandMoveRequest {
        /// A preset name (`standard` when absent) or an object overriding a
        /// preset's parameters, as for `/v1/hands/state`.
        profile,
        /// The actions so far, in order, as `/v1/hands/state` takes them.
        actions,
        /// The seat the bot plays for; the bot sees only what it may know.
        pub seat: Seat,
        /// The bot.
        #[schema(value_type = BotSchema)]
        pub bot: BotRequest,
        openspiel:
        /// Add OpenSpiel's `gin_rummy` action id(s) of the move.
    }
}

/// The move the bot plays: one entry of the state's `legal_actions` for the
/// seat, exactly as listed, and the bot.
#[derive(Debug, Serialize, ToSchema)]
pub struct HandMoveResponse {
    /// The move and the bot that chose it.
    #[serde(flatten)]
    pub played: BotMove,
}

/// The whole request, without HTTP.
pub fn answer(request: HandMoveRequest) -> Result<HandMoveResponse, Problem> {
    let spec = request.bot.spec()?;
    let profile = resolve_profile(request.profile.as_ref())?;
    let replay = Replay::read(request.deal, request.actions, profile.jokers())?;
    if let Some(violation) = replay.mismatch() {
        let pointer = ActionViolation::from(violation.clone()).pointer;
        return Err(violation_problem(&pointer, &violation));
    }
    let actions = replay.actions();
    let seat = request.seat;
    let state = gin_rules::hand_state(&profile, &replay.deal, actions, Some(seat))
        .map_err(replay_problem)?;
    if let Some(violation) = &state.violation {
        let pointer = ActionViolation::from(violation.clone()).pointer;
        return Err(violation_problem(&pointer, violation));
    }
    if state.legal_actions.is_empty() {
        return Err(not_to_act(idle_message(&state, seat)));
    }
    let log = gin_rules::story(
        &replay.deal,
        actions,
        StoryViewer::Seat(seat),
        state.laid_down.as_ref(),
    );
    let openspiel = request.openspiel == Some(true);
    let played = play(&profile, replay.deal.upcard, &state, log, &spec, openspiel)?;
    Ok(HandMoveResponse { played })
}

/// `/v1/hands/move`: the transcript's length checked, then the move.
pub fn respond(
    request: HandMoveRequest,
    limits: &RequestLimits,
) -> Result<HandMoveResponse, Problem> {
    request.check_length(limits)?;
    answer(request)
}

/// Examples for the OpenAPI document and the guides, each answered by the
/// real bots so that they cannot drift from what the service answers.
pub mod examples {
    use serde_json::{Value, json};

    use crate::wire::transcript::examples::{deal, knock_actions};

    fn first(count: usize) -> Value {
        match knock_actions() {
            Value::Array(all) => Value::Array(all.into_iter().take(count).collect()),
            other => other,
        }
    }

    /// A new hand: `simple` decides, for the non-dealer, whether to take the
    /// upcard.
    pub fn upcard_offer() -> Value {
        json!({"deal": deal(), "actions": [], "seat": "non_dealer",
               "bot": {"name": "simple"}, "openspiel": true})
    }

    /// The non-dealer drew 2H: `simple` discards or knocks (here it knocks,
    /// with OpenSpiel's two ids).
    pub fn discard() -> Value {
        json!({"deal": deal(), "actions": first(3), "seat": "non_dealer",
               "bot": {"name": "simple", "seed": 7}, "openspiel": true})
    }

    /// The non-dealer knocked: `strong`, with a smaller search, replies for
    /// the dealer.
    pub fn reply() -> Value {
        json!({"deal": deal(), "actions": first(4), "seat": "dealer",
               "bot": {"name": "strong", "seed": 1, "samples": 8}})
    }

    /// A random listed move, for a seat after both passed.
    pub fn random() -> Value {
        json!({"deal": deal(), "actions": first(2), "seat": "non_dealer",
               "bot": {"name": "random", "seed": 42}})
    }

    /// What the service answers to `request` (null if it does not answer 200).
    pub fn answer(request: Value) -> Value {
        crate::wire::example_answer(request, super::answer)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_documented_examples_are_answered_with_a_listed_move() {
        let offer = examples::answer(examples::upcard_offer());
        assert!(
            ["pass", "take_discard"].contains(&offer["kind"].as_str().unwrap_or_default()),
            "{offer}"
        );
        assert_eq!(offer["bot"], json!({"name": "simple", "seed": 0}));
        let discard = examples::answer(examples::discard());
        assert_eq!(discard["move"]["player"], "non_dealer", "{discard}");
        let reply = examples::answer(examples::reply());
        assert_eq!(reply["move"]["action"], "lay_off", "{reply}");
        assert_eq!(
            reply["bot"],
            json!({"name": "strong", "seed": 1, "knobs": {"samples": 8}})
        );
        let random = examples::answer(examples::random());
        assert_eq!(random["kind"], "draw_stock", "{random}");
    }
}
