//! What every kind of player is handed and may answer with: one decision
//! ([`Turn`]) and the ways a bot forfeits ([`Fault`]). Its own module so
//! that the players (built-in, process, URL) and the protocol read these
//! without reading one another.

use std::fmt;

use gin_rules::{LegalAction, LiveHand, Seat, StatePhase};

/// Why a bot lost its match by forfeit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Its answer was not JSON, or not `{"move": ...}` or a listed entry.
    Malformed(String),
    /// It answered a move that is not listed now.
    Illegal(String),
    /// It said nothing within `--move-timeout`.
    Timeout,
    /// Its process exited (or was killed after a timeout), or its URL could
    /// not be reached.
    Exited(String),
}

impl Fault {
    /// The reason's name, as records write it.
    pub fn reason(&self) -> &'static str {
        match self {
            Fault::Malformed(_) => "malformed",
            Fault::Illegal(_) => "illegal",
            Fault::Timeout => "timeout",
            Fault::Exited(_) => "exited",
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Malformed(why) => write!(f, "malformed answer: {why}"),
            Fault::Illegal(why) => write!(f, "illegal move: {why}"),
            Fault::Timeout => f.write_str("no answer within the move timeout"),
            Fault::Exited(why) => write!(f, "the bot exited: {why}"),
        }
    }
}

/// One decision: the hand, the seat to act and its listed moves, and how to
/// build the state a remote bot is sent.
pub struct Turn<'a> {
    pub live: &'a LiveHand,
    /// Where the hand stands (the listing's phase).
    pub phase: StatePhase,
    pub seat: Seat,
    pub legal: &'a [LegalAction],
    /// The player's name in the record.
    pub you: &'a str,
    /// The seat's state answer (`/v1/matches/state`, or `/v1/hands/state`
    /// with `--unit hand`) as JSON text, built only for remote bots.
    pub state: &'a dyn Fn() -> Result<String, String>,
}
