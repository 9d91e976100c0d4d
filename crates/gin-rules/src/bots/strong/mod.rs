//! `strong`: a one-draw lookahead over deals of the cards the seat cannot
//! place, checked by playing those deals out, made from the view alone.
//!
//! # The method
//!
//! A hand is a race to a low count. `strong` values a ten-card hand by the
//! count it can expect after one more draw: for each card the seat cannot
//! place, the least count of the eleven cards over every discard, weighed
//! by the chance that the card is still in the stock rather than in the
//! opponent's hand (module `search`). A discard is valued by the hand it leaves
//! and by its danger: how often the opponent would meld it, which is why a
//! player takes a discard.
//!
//! Both chances are read from the first [`VALUED`] of `samples` deals of
//! the hidden cards
//! (module `deals`): the unseen cards split into the opponent's unseen cards and
//! the stock, the opponent's hand improved the way a player improves it
//! (it saw one more card per two stock draws and kept the better ones), and a
//! deal in which the opponent would have melded a card it let go (passed,
//! drew past, discarded) put back.
//!
//! - **The knock**: gin always (a knock of least count where nothing but a
//!   knock is listed); below gin, the knock of least count when, summed
//!   over every dealt world, its worth beats that of
//!   discarding the same card and playing the hand out (modules `knock`
//!   and `rollout`): both players play out by the quick policy (take the
//!   pile's top when it lowers the count, discard the card leaving the
//!   least count), the opponent knocking at its first chance, the seat for
//!   gin only, so that the play-out weighs knocking now against building on
//!   for gin while the opponent may knock first. In effect a knock the
//!   dealt opponents would often undercut is refused, and one made before
//!   the opponent has built much is taken.
//! - **The discard**: the listed discard of least value; a tie by the seed.
//! - **The draw** (and the upcard offer): the pile's top is taken when the
//!   best discard after it is worth more than a stock draw (or a pass),
//!   the stock valued over the top cards of the dealt stocks; a hand that
//!   gins counts its bonus. A card the seat itself discarded is never
//!   taken back, so that two such players cannot trade cards through the
//!   pile for ever.
//! - **The gate** (module `gate`): with more deals than the valuation
//!   reads, the valuation's discard and its three closest rivals (at a
//!   draw: taking the pile's top and drawing the stock) are each played out
//!   in every deal, the same deals for each; a rival replaces the
//!   valuation's choice only when its mean gain, deal by deal, passes two
//!   standard errors. The quick play-out is a cruder player than the
//!   valuation, so it is followed only where it is clearly right.
//! - **Worth**: in a match (the view's score), a play-out's or a knock's
//!   points are counted as the chance of winning the match after them
//!   (module `equity`), so that points that reach the target count in full,
//!   points beyond it for nothing, and a hand lost near the opponent's
//!   target for the match it loses; a hand on its own counts points.
//! - **The reply**: the best reply; big gin, where listed, at once; the
//!   50th card taken when listed (a knock follows).
//!
//! Jokers play through the same least counts and are never played out;
//! the deals hold natural cards only.
//!
//! # Budget
//!
//! `samples` (1 to [`MAX_SAMPLES`], default [`DEFAULT_SAMPLES`]) deals per
//! decision. The valuation reads the first [`VALUED`]: a draw decision
//! values the pile's top and each of their stocks' top cards, at most 17
//! eleven-card hands, each with eleven discards, each discard's hand with
//! one lookahead of at most 41 unseen cards of eleven least counts. A knock
//! below gin plays every deal out once. Beyond [`VALUED`], the gate
//! plays every deal out for at most four starts. A play-out is a turn per
//! stock card left (a pile take only where it lowers the taker's count;
//! 200 turns at the most), each a few eleven-card least counts, and one
//! best reply. A budget in deals, never in clock time; at most
//! [`MAX_SAMPLES`] x 5 play-outs a decision (a knock refused, then the
//! gate's four discards).

use super::SeatView;
use super::rng::Rng;
use crate::audit::{LegalKind, StatePhase};

mod deals;
mod equity;
mod gate;
mod knock;
mod rollout;
mod search;

pub use search::VALUED;

/// The most deals of the hidden cards a decision may sample.
pub const MAX_SAMPLES: u32 = 1024;
/// The deals sampled per decision by default.
pub const DEFAULT_SAMPLES: u32 = 512;

/// The index of the listed action `strong` plays.
pub(super) fn choose(view: &SeatView, samples: u32, rng: &mut Rng) -> usize {
    let legal = view.legal_actions();
    let find = |kind: LegalKind| legal.iter().position(|a| a.kind == kind);
    if let Some(reply) = find(LegalKind::BestReply).or(find(LegalKind::NoLayoffs)) {
        return reply;
    }
    if let Some(big_gin) = find(LegalKind::BigGin) {
        return big_gin;
    }
    if view.phase() == StatePhase::LastDiscardOffer {
        return find(LegalKind::TakeDiscard)
            .or(find(LegalKind::Pass))
            .unwrap_or(0);
    }
    let gin = legal
        .iter()
        .position(|a| a.kind == LegalKind::Knock && a.deadwood == Some(0));
    if let Some(gin) = gin {
        return gin;
    }
    // Where only a knock may follow (a 50th card taken, a joker to meld),
    // the knock of least count.
    if legal.iter().all(|a| a.kind == LegalKind::Knock) {
        let least = legal
            .iter()
            .enumerate()
            .min_by_key(|(_, a)| a.deadwood.unwrap_or(u32::MAX));
        return least.map_or(0, |(index, _)| index);
    }
    if legal.len() == 1 {
        return 0;
    }
    search::choose(view, samples, rng)
}
