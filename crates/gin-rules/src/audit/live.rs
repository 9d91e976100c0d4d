//! The live referee's answer: where a hand stands and what may be done now
//! ([`hand_state`](super::hand_state)).
//!
//! A game server or a bot arena keeps the transcript and asks, before every
//! move, what the player to act may do. The answer is built by the audit's own
//! turn machine (one engine): the transcript is replayed exactly as
//! [`audit_hand`](super::audit_hand) replays it, then the referee lists the
//! actions it would accept next.
//!
//! # What is listed, and why it is exactly the audit's
//!
//! Each phase has few candidate actions: the upcard offer a pass and a take;
//! a draw the stock and the pile; after the draw at most eleven discards,
//! eleven knocks and big gin; the 50th-card offer a pass and a take; the reply
//! two replies. Every candidate but the knocks and the stock draw is kept only
//! when a copy of the referee accepts it (listed means legal by
//! construction). A knock's legality is the least count of the cards kept
//! against the knock limit ([`min_deadwood`](crate::min_deadwood), jokers
//! included), the card not just taken, which is what the scorer checks for a
//! knock without declared melds; where a joker taken from the pile must be
//! melded, the copy of the referee decides that knock too. The stock draw
//! names no card (the app that lists the stock only partly names the card it
//! dealt), so it is listed from the phase. The property tests of the crate
//! check the converse: every well-formed action not listed is refused.
//!
//! Two listings are narrower than the audit, both takes after which the
//! audit would refuse everything: at the 50th-card offer the take is listed
//! only when a knock with the card taken is possible (as OpenSpiel offers it,
//! and as docs/LIVE.md states it); the audit accepts the take itself and refuses the
//! discard after it. Under `joker_pickup_must_meld` a joker on the pile is
//! listed as a take only when a knock melding it could follow (found by a
//! property test: a player who took such a joker with no knock in reach had
//! no legal action left).
//!
//! # What a seat may know
//!
//! With a seat, the answer holds no card that seat cannot know: its own
//! cards, the discard pile (each discard was seen by both), the cards the
//! opponent took from the pile and still holds, the knocker's cards once laid
//! down, and both hands once a knock ends the hand. The stock's cards and the
//! opponent's other cards never appear, in the listing (a waiting seat gets no
//! listing), in the view, or in a violation's message (one naming such a card
//! is replaced by a sentence without it).
//!
//! # Cost
//!
//! The replay is the audit's. Then: at most 13 candidates stepped on a copy
//! of the referee (O(1) each but the knocks), eleven least counts for the
//! knocks, and in the reply one scorer call per defender card (and per meld
//! end a joker could show) for `layable`.

use super::{Action, HandEnd, Seat, Violation};
use crate::deadwood::Arrangement;
use crate::hand::{Hand, HandCard};

/// Where a hand stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = HandPhase))]
pub enum StatePhase {
    /// The first-turn offer: take the upcard or pass.
    UpcardOffer,
    /// A turn begins: draw from the stock or the discard pile.
    Draw,
    /// After the draw: discard, or knock.
    Discard,
    /// The 50th-card rule: take the last discard to knock, or pass (void).
    LastDiscardOffer,
    /// The defender may reply to the knock once.
    Reply,
    /// The hand is over (void, or knocked and replied to).
    Over,
}

/// What a listed action does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum LegalKind {
    /// Decline the upcard or the 50th-card discard.
    Pass,
    /// Take the top card of the discard pile (the upcard too).
    TakeDiscard,
    /// Draw the top card of the stock.
    DrawStock,
    /// Discard a card, ending the turn.
    Discard,
    /// Knock, discarding a card.
    Knock,
    /// Knock without a discard, all eleven cards melded.
    BigGin,
    /// The defender's best reply, melds and layoffs declared.
    BestReply,
    /// The defender's reply laying nothing off.
    NoLayoffs,
}

/// One action the referee accepts now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegalAction {
    /// What it does.
    pub kind: LegalKind,
    /// The action, as [`audit_hand`](super::audit_hand) takes it.
    pub action: Action,
    /// A knock: the knocker's least count after it. A reply: the defender's
    /// count after it.
    pub deadwood: Option<u32>,
}

impl LegalAction {
    /// A knock that leaves no deadwood.
    pub fn is_gin(&self) -> bool {
        matches!(self.kind, LegalKind::Knock | LegalKind::BigGin) && self.deadwood == Some(0)
    }
}

/// The table as one seat sees it, or as the referee does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum View {
    /// What `seat` may know.
    Seat {
        /// The seat.
        seat: Seat,
        /// Its cards.
        hand: Hand,
        /// The discard pile, top card first.
        discard_pile: Vec<HandCard>,
        /// Cards left in the stock.
        stock_remaining: usize,
        /// How many cards the opponent holds.
        opponent_cards: usize,
        /// The opponent's cards this seat saw: taken from the pile and not
        /// discarded since.
        opponent_known: Hand,
    },
    /// Everything: for the app's server only.
    Referee {
        /// The dealer's cards.
        dealer: Hand,
        /// The non-dealer's cards.
        non_dealer: Hand,
        /// The discard pile, top card first.
        discard_pile: Vec<HandCard>,
        /// Cards left in the stock.
        stock_remaining: usize,
        /// The listed stock cards not drawn yet, top first.
        stock: Vec<HandCard>,
    },
}

/// The knocker's cards as laid down at the knock: seen by both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaidDown {
    /// The seat that knocked.
    pub knocker: Seat,
    /// Its melds and deadwood.
    pub arrangement: Arrangement,
}

/// Where a hand stands and what may be done now (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandState {
    /// The first illegal action, as the audit reports it; the state is then
    /// the one before it, with nothing to act on.
    pub violation: Option<Violation>,
    /// Where the hand stands.
    pub phase: StatePhase,
    /// Who acts now; `None` once the hand is over or after a violation.
    pub to_act: Option<Seat>,
    /// Every action `to_act` may take (empty for a seat that waits).
    pub legal_actions: Vec<LegalAction>,
    /// In the reply, the defender's cards a single layoff accepts (`None`
    /// outside the reply, or for the knocker's seat).
    pub layable: Option<Vec<HandCard>>,
    /// The knocker's melds once laid down.
    pub laid_down: Option<LaidDown>,
    /// The table as the seat (or the referee) sees it.
    pub view: View,
    /// How the hand ended, once it is over.
    pub end: Option<HandEnd>,
}

impl HandState {
    /// No illegal action was found.
    pub fn is_legal(&self) -> bool {
        self.violation.is_none()
    }
}
