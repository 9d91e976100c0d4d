//! `POST /v1/matches/move`: the referee plays a player's turn in a match.
//! The body is `/v1/matches/state`'s with a required `seat` (a player's
//! name) and the `bot`; the answer is one of the moves the state lists at
//! that player's table, exactly as listed, the table's index in the state's
//! `tables`, and the bot that chose it.
//!
//! The bot is given only the player's view of their own table (the same
//! view `/v1/matches/state` answers with that `seat`) and the match score
//! before this hand: the totals of the player (or their team) and of the
//! opponent, and the target, for score-aware play.
//!
//! # Cost
//!
//! The match state's (the match audit's ceilings and body limit: one match
//! audit, the player's table), then one bot decision, bounded by its knobs.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::limits::{RequestLimits, check_length};
use crate::problem::{ErrorCode, Problem};
use crate::wire::bot::{
    BotMove, BotRequest, BotSchema, idle_message, not_to_act, play_view, violation_problem,
};
use crate::wire::edge::{FormatOperation, WireFormat, dispatch};
use crate::wire::formats::TeamSpec;
use crate::wire::match_record::{
    RoundRecord, RoundRecordSchema, audit_problem, check_record_limits, violation_pointer,
};
use crate::wire::profile_spec::{ProfileSpec, resolve_profile};
use crate::wire::request::record_request;
use gin_rules::bots::{BotSpec, ScoreContext, SeatView};
use gin_rules::{
    HandCard, MatchPhase, MatchState, MatchViewer, Profile, RecordedHand, Seat, Tally,
};

record_request! { match:
    /// A match so far, the player to play for, and the bot that plays.
    pub struct MatchMoveRequest {
        /// A preset name (`standard` when absent) or an object overriding a
        /// preset's parameters, as for `/v1/matches/state`.
        profile,
        /// The players' names: two, or three. Absent for partnership play.
        players,
        /// Partnership play: the two teams of two, instead of `players`.
        teams,
        /// The hands played, in order, as `/v1/matches/state` takes them; the
        /// last in progress.
        hands,
        /// The player the bot plays for: it sees only what that player may know.
        #[schema(example = "Ann")]
        pub seat: String,
        /// The bot.
        #[schema(value_type = BotSchema)]
        pub bot: BotRequest,
        openspiel:
        /// Add OpenSpiel's `gin_rummy` action id(s) of the move.
    }
}

/// The move the bot plays at the player's table.
#[derive(Debug, Serialize, ToSchema)]
pub struct MatchMoveResponse {
    /// The index of the player's table in `/v1/matches/state`'s `tables`.
    #[schema(example = 0)]
    pub table: usize,
    /// The move, exactly as the state lists it at that table, and the bot.
    #[serde(flatten)]
    pub played: BotMove,
}

/// 422 `unknown_player` unless `seat` plays in the match.
fn check_seat(request: &MatchMoveRequest) -> Result<(), Problem> {
    let name = &request.seat;
    let known = match (&request.players, &request.teams) {
        (Some(players), _) => players.contains(name),
        (None, Some(teams)) => teams.iter().any(|team| team.players.contains(name)),
        (None, None) => true,
    };
    if known {
        return Ok(());
    }
    let detail = format!("/seat: {name:?} is not a player of this match");
    Err(Problem::new(ErrorCode::UnknownPlayer, &detail).with_error(
        "/seat",
        ErrorCode::UnknownPlayer,
        detail.clone(),
    ))
}

/// What the bot needs besides the player's table: the profile, the first
/// upcard of each table of the round in play (by dealer), and the score.
struct Context<'a> {
    profile: &'a Profile,
    upcards: Vec<(String, HandCard)>,
    score: Option<ScoreContext>,
    spec: BotSpec,
    openspiel: bool,
}

fn upcards<'a>(round: impl IntoIterator<Item = &'a RecordedHand>) -> Vec<(String, HandCard)> {
    round
        .into_iter()
        .map(|hand| (hand.dealer.clone(), hand.deal.upcard))
        .collect()
}

/// The running totals of `own` and `opponent` (indices into `tally`).
fn totals(profile: &Profile, tally: &[Tally], own: usize, opponent: usize) -> Option<ScoreContext> {
    let total = |at: usize| {
        tally
            .get(at)
            .map(|t| u32::try_from(t.total).unwrap_or(u32::MAX))
    };
    Some(ScoreContext {
        own: total(own)?,
        opponent: total(opponent)?,
        target: profile.target(),
    })
}

/// The move at the player's table of `state`.
fn play_at<S>(
    request: &MatchMoveRequest,
    state: MatchState<S>,
    context: &Context<'_>,
) -> Result<MatchMoveResponse, Problem> {
    if let Some(found) = &state.violation {
        let pointer = violation_pointer(&request.record(), found);
        return Err(violation_problem(&pointer, &found.violation));
    }
    let name = request.seat.as_str();
    if state.phase != MatchPhase::Play {
        let phase = match state.phase {
            MatchPhase::Deal => "between hands (`deal`): the next hand is to be dealt",
            _ => "over",
        };
        return Err(not_to_act(format!("the match is {phase}: no one acts")));
    }
    let Some((index, table)) = state
        .tables
        .iter()
        .enumerate()
        .find(|(_, t)| t.dealer == name || t.non_dealer == name)
    else {
        return Err(not_to_act(format!("{name} sits this hand out")));
    };
    let seat = if table.dealer == name {
        Seat::Dealer
    } else {
        Seat::NonDealer
    };
    if table.state.legal_actions.is_empty() {
        return Err(not_to_act(format!(
            "{name}: {}",
            idle_message(&table.state, seat)
        )));
    }
    let upcard = context
        .upcards
        .iter()
        .find(|(dealer, _)| *dealer == table.dealer)
        .map(|(_, upcard)| *upcard)
        .ok_or_else(Problem::internal_unlogged)?;
    let mut view = SeatView::from_state(context.profile, upcard, &table.state, table.log.clone())
        .map_err(|e| Problem::internal(&e))?;
    if let Some(score) = context.score {
        view = view.with_score(score);
    }
    let played = play_view(view, &table.state, &context.spec, context.openspiel)?;
    Ok(MatchMoveResponse {
        table: index,
        played,
    })
}

/// The whole request, without HTTP.
pub fn answer(request: &MatchMoveRequest) -> Result<MatchMoveResponse, Problem> {
    let spec = request.bot.spec()?;
    let profile: Profile = resolve_profile(request.profile.as_ref())?;
    dispatch(
        request.players.as_deref(),
        request.teams.as_deref(),
        Move {
            request,
            profile: &profile,
            spec,
        },
    )
}

/// The move, for any format.
struct Move<'a> {
    request: &'a MatchMoveRequest,
    profile: &'a Profile,
    spec: BotSpec,
}

impl FormatOperation for Move<'_> {
    type Output = MatchMoveResponse;

    fn run<F: WireFormat>(self, format: F) -> Result<MatchMoveResponse, Problem> {
        let (request, profile) = (self.request, self.profile);
        let record = request.record();
        let deals = F::record_deals(&record, profile.jokers())?;
        // The roster and the record are judged before the seat is looked up.
        check_seat(request)?;
        let state =
            gin_rules::match_state(profile, &format, &deals, MatchViewer::Player(&request.seat))
                .map_err(|e| audit_problem(&record, &e))?;
        let context = Context {
            profile,
            upcards: upcards(deals.last().map(AsRef::as_ref).unwrap_or_default()),
            score: format
                .sides(&state.score, &state.tables, &request.seat)
                .and_then(|(tally, own, opponent)| totals(profile, tally, own, opponent)),
            spec: self.spec,
            openspiel: request.openspiel == Some(true),
        };
        play_at(request, state, &context)
    }
}

/// `/v1/matches/move`: the match audit's ceilings checked, then the move.
pub fn respond(
    request: &MatchMoveRequest,
    limits: &RequestLimits,
) -> Result<MatchMoveResponse, Problem> {
    check_record_limits(&request.record(), limits)?;
    check_length("/seat", &request.seat, limits.name_length)?;
    answer(request)
}

/// Examples for the OpenAPI document and the guides, each answered by the
/// real bots so that they cannot drift from what the service answers.
pub mod examples {
    use serde_json::{Value, json};

    use crate::wire::transcript::examples::{
        first_actions as first, knock_actions, match_hand as hand,
    };

    /// An `eaai` match, the second hand in play: Ann drew 2H; `simple`
    /// plays her turn (with OpenSpiel's ids).
    pub fn two_play() -> Value {
        json!({
            "profile": "eaai",
            "players": ["Ann", "Bob"],
            "hands": [hand("Ann", "Bob", knock_actions()), hand("Bob", "Ann", first(3))],
            "seat": "Ann",
            "bot": {"name": "simple"},
            "openspiel": true,
        })
    }

    /// The same match as the second hand is dealt: `strong`, with the
    /// smallest search (the document's examples are answered whenever the
    /// service starts), decides for Ann, who trails by 60, whether to take
    /// the upcard.
    pub fn two_offer() -> Value {
        json!({
            "profile": "eaai",
            "players": ["Ann", "Bob"],
            "hands": [hand("Ann", "Bob", knock_actions()), hand("Bob", "Ann", json!([]))],
            "seat": "Ann",
            "bot": {"name": "strong", "seed": 3, "samples": 1},
        })
    }

    /// The second hand stopped at Ann's knock: `strong` replies for Bob.
    pub fn two_reply() -> Value {
        json!({
            "profile": "eaai",
            "players": ["Ann", "Bob"],
            "hands": [hand("Ann", "Bob", knock_actions()), hand("Bob", "Ann", first(4))],
            "seat": "Bob",
            "bot": {"name": "strong", "seed": 3, "samples": 8},
        })
    }

    /// What the service answers to `request` (null if it does not answer 200).
    pub fn answer(request: Value) -> Value {
        crate::wire::example_answer(request, |r| super::answer(&r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_examples_are_answered_with_a_move_at_the_players_table() {
        let play = examples::answer(examples::two_play());
        assert_eq!(play["table"], 0, "{play}");
        assert_eq!(play["move"]["player"], "non_dealer");
        let offer = examples::answer(examples::two_offer());
        assert_eq!(offer["move"]["player"], "non_dealer", "{offer}");
        assert_eq!(offer["bot"]["name"], "strong");
        let reply = examples::answer(examples::two_reply());
        assert_eq!(reply["move"]["action"], "lay_off", "{reply}");
        assert_eq!(reply["move"]["player"], "dealer");
    }
}
