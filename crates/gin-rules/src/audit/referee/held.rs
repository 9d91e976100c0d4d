//! What a hand held between calls ([`crate::audit::LiveHand`]) asks of the
//! referee beyond a replay: the listing alone (without the view), and the
//! cards a seat cannot know (for dealing them again).

use super::*;
use crate::audit::live::{LegalAction, StatePhase};

/// A referee's table without what it reads: see [`Referee::into_table`].
pub(in crate::audit) struct TableState {
    upcard: HandCard,
    hands: [Hand; 2],
    drawn: usize,
    seen: Hand,
    pile: super::pile::Pile,
    taken: [Hand; 2],
    phase: Phase,
}

impl<'a> Referee<'a> {
    /// A copy that borrows what this one reads (the profile, the listed
    /// stock) instead of sharing it: a copy to try an action on costs no
    /// reference count.
    pub(in crate::audit) fn borrowed(&self) -> Referee<'_> {
        Referee {
            profile: Shared::Borrowed(&*self.profile),
            upcard: self.upcard,
            hands: self.hands,
            stock: Shared::Borrowed(&*self.stock),
            drawn: self.drawn,
            seen: self.seen,
            pile: self.pile,
            taken: self.taken,
            phase: self.phase.clone(),
        }
    }

    /// What changes as actions are stepped: everything but what the
    /// referee reads (see [`Referee::take_table`]).
    pub(in crate::audit) fn into_table(self) -> TableState {
        TableState {
            upcard: self.upcard,
            hands: self.hands,
            drawn: self.drawn,
            seen: self.seen,
            pile: self.pile,
            taken: self.taken,
            phase: self.phase,
        }
    }

    /// Takes a table (of a [`Referee::borrowed`] copy of this referee,
    /// stepped), keeping what this one reads.
    pub(in crate::audit) fn take_table(&mut self, table: TableState) {
        self.upcard = table.upcard;
        self.hands = table.hands;
        self.drawn = table.drawn;
        self.seen = table.seen;
        self.pile = table.pile;
        self.taken = table.taken;
        self.phase = table.phase;
    }

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
