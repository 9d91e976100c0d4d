//! What a hand held between calls ([`crate::audit::LiveHand`]) asks of the
//! referee beyond a replay: the listing alone (without the view), and the
//! cards a seat cannot know (for dealing them again).

use super::*;
use crate::audit::live::{LegalAction, StatePhase};

impl Referee<'_> {
    /// The phase, who acts, and what the referee accepts now: the listing of
    /// [`Referee::state`] without the view.
    pub(in crate::audit) fn now(&self) -> (StatePhase, Option<Seat>, Vec<LegalAction>) {
        let (phase, to_act) = self.phase_now();
        (phase, to_act, self.legal_now().0)
    }

    /// `seat`'s cards.
    pub(in crate::audit) fn cards_of(&self, seat: Seat) -> Hand {
        self.hand(seat)
    }

    /// Every card of the profile's deck `seat` cannot know now: the
    /// opponent's cards it has not seen and the stock not drawn (listed or
    /// not), in deck order.
    pub(in crate::audit) fn hidden_from(&self, seat: Seat) -> Vec<HandCard> {
        let known = self.knowable(seat);
        let jokers = self.profile.jokers();
        Card::deck()
            .map(HandCard::from)
            .chain(
                Joker::ALL
                    .into_iter()
                    .filter(|joker| joker.number() <= jokers)
                    .map(HandCard::Joker),
            )
            .filter(|&card| !known.contains(card))
            .collect()
    }

    /// The listed stock cards not drawn yet, top first.
    pub(in crate::audit) fn stock_left(&self) -> &[HandCard] {
        self.stock.get(self.drawn..).unwrap_or_default()
    }
}
