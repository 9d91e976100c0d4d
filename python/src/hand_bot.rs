//! `Hand.bot_id(name, seed)`: the OpenSpiel id a bot plays now for the seat
//! to act of a held hand, for self-play against a bot without leaving Rust.
//!
//! The bot is the service's (`gin_rules::bots`), given the seat's view only,
//! exactly as `/v1/hands/move` gives it: the same hand and bot give the id of
//! the move `/v1/hands/move` answers for `hand.record()`. OpenSpiel knocks in
//! two ids (55, then the card): a bot that knocks answers 55, and once 55 is
//! applied, the knock card its choice names (if 55 was applied for a knock
//! the bot would not make, the card of its choice among the knocks).

use gin_contract::json::from_slice;
use gin_contract::problem::Problem as ContractProblem;
use gin_contract::wire::bot::{BotRequest, idle_message, not_to_act};
use gin_contract::wire::live::LegalEntry;
use gin_rules::bots::{self, BotSpec, SeatView};
use gin_rules::{HandState, LegalKind, Seat, StoryViewer};
use pyo3::prelude::*;
use serde_json::json;

use crate::hand_ids::{check_natural, invalid_id};
use crate::held::Hand;
use crate::problem::raise;

/// The spec of `{"name": name, "seed": seed}`, refused as `/v1/hands/move`
/// refuses its `bot` (pointers under `/bot`).
pub fn spec(py: Python<'_>, name: &str, seed: u64) -> PyResult<BotSpec> {
    let body = json!({"bot": {"name": name, "seed": seed}}).to_string();
    let read: std::collections::BTreeMap<String, BotRequest> =
        from_slice(body.as_bytes()).map_err(|problem| raise(py, problem))?;
    let bot = read
        .get("bot")
        .ok_or_else(|| raise(py, ContractProblem::internal_unlogged()))?;
    bot.spec().map_err(|problem| raise(py, problem))
}

/// The entry `spec` plays from `state` (the seat's own), and its phase.
fn chosen(
    hand: &Hand,
    seat: Seat,
    state: &HandState,
    spec: &BotSpec,
) -> Result<LegalEntry, ContractProblem> {
    let live = hand.live();
    let log = gin_rules::story(
        live.deal(),
        live.actions(),
        StoryViewer::Seat(seat),
        state.laid_down.as_ref(),
    );
    let view = SeatView::from_state(live.profile(), live.deal().upcard, state, log)
        .map_err(|error| ContractProblem::internal(&error))?;
    let index = bots::choose(spec, &view).map_err(|error| ContractProblem::internal(&error))?;
    let legal = view
        .legal_actions()
        .get(index)
        .ok_or_else(ContractProblem::internal_unlogged)?;
    Ok(LegalEntry::new(legal, state.phase, true))
}

/// The id `spec` plays now (see the module docs).
pub fn bot_id(py: Python<'_>, hand: &mut Hand, spec: &BotSpec) -> PyResult<u32> {
    check_natural(py, hand)?;
    let to_act = hand.listing().1;
    let Some(seat) = to_act else {
        let state = hand.live().state(None);
        return Err(raise(py, not_to_act(idle_message(&state, Seat::NonDealer))));
    };
    let mut state = hand.live().state(Some(seat));
    let entry = chosen(hand, seat, &state, spec).map_err(|problem| raise(py, problem))?;
    let id = match (hand.play.knocking(), entry.openspiel_actions) {
        (true, Some([_, card])) => Some(card),
        (true, None) => {
            state
                .legal_actions
                .retain(|legal| legal.kind == LegalKind::Knock);
            chosen(hand, seat, &state, spec)
                .map_err(|problem| raise(py, problem))?
                .openspiel_actions
                .map(|[_, card]| card)
        }
        (false, Some([knock, _])) => Some(knock),
        (false, None) => entry.openspiel_action,
    };
    id.ok_or_else(|| {
        let detail = format!(
            "the bot plays a {} now, which OpenSpiel's gin_rummy does not number; use \
             legal_actions() and apply()",
            serde_json::to_value(entry.kind)
                .ok()
                .and_then(|kind| kind.as_str().map(str::to_owned))
                .unwrap_or_default()
        );
        invalid_id(py, detail)
    })
}
