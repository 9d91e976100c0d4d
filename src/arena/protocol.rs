//! The bot protocol, version 1: what a process bot reads on its stdin (and an
//! HTTP bot in its POST body) at each decision, and what it answers.
//!
//! The arena sends one line of JSON, `{"protocol": 1, "you": NAME, "state":
//! STATE}`: `you` is the bot's player name in the match, `state` the answer
//! of `POST /v1/matches/state` for that player's seat (with `--unit hand`,
//! of `POST /v1/hands/state` for its seat), built by the contract's own
//! function: it holds only what the seat may know, and its
//! `tables[].legal_actions` (or `legal_actions`) list every move allowed now.
//! The bot answers one line: `{"move": MOVE}` with `MOVE` one of the listed
//! moves exactly as listed, or the whole listed entry (`{"kind", "move",
//! ...}`). Anything else forfeits the match.

use serde_json::Value;

use super::turn::{Fault, Turn};
use gin_contract::wire::live::move_json;
use gin_rules::LegalAction;

/// The protocol's version, sent with every decision.
pub const VERSION: u32 = 1;

/// The line sent for `turn`, newline included.
pub fn request_line(turn: &Turn<'_>) -> Result<String, Fault> {
    // Written around the state's own text: no JSON tree is built per line.
    let state = (turn.state)().map_err(Fault::Exited)?;
    let you = serde_json::to_string(turn.you).map_err(|e| Fault::Exited(e.to_string()))?;
    Ok(format!(
        "{{\"protocol\":{VERSION},\"you\":{you},\"state\":{state}}}\n"
    ))
}

/// The index of the listed move a bot's answer names.
pub fn read_answer(answer: &str, legal: &[LegalAction]) -> Result<usize, Fault> {
    let value: Value = serde_json::from_str(answer.trim())
        .map_err(|e| Fault::Malformed(format!("not JSON ({e}): {}", clip(answer))))?;
    let chosen = value
        .get("move")
        .ok_or_else(|| Fault::Malformed(format!("no `move`: {}", clip(answer))))?;
    legal
        .iter()
        .position(|entry| move_json(&entry.action) == *chosen)
        .ok_or_else(|| Fault::Illegal(format!("{} is not listed", clip(&chosen.to_string()))))
}

/// At most 200 characters of a bot's text, for a record.
fn clip(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}...", text.get(..at).unwrap_or_default()),
        None => text.to_owned(),
    }
}
