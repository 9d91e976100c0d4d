//! The discard pile held inline: the referee is copied for every candidate
//! the listing tries and for every action a held hand applies, so a pile
//! on the heap cost an allocation (and a reallocation at the next discard)
//! per copy; inline, a copy is a copy of a few hundred bytes.

use crate::hand::HandCard;

/// Every card of the largest deck (52 and two jokers): no pile holds more,
/// since the deal's cards are distinct.
const CAPACITY: usize = 54;

/// The discard pile, top card last.
#[derive(Clone, Copy)]
pub(super) struct Pile {
    cards: [HandCard; CAPACITY],
    len: u8,
}

impl Pile {
    /// A pile of one card: the upcard.
    pub(super) fn of(upcard: HandCard) -> Pile {
        Pile {
            cards: [upcard; CAPACITY],
            len: 1,
        }
    }

    /// Lays `card` on top. A deal's cards are distinct, so the pile never
    /// holds more than the deck; a card past that is not kept.
    pub(super) fn push(&mut self, card: HandCard) {
        if let Some(slot) = self.cards.get_mut(usize::from(self.len)) {
            *slot = card;
            self.len += 1;
        }
    }

    /// Takes the top card.
    pub(super) fn pop(&mut self) -> Option<HandCard> {
        let top = self.last().copied()?;
        self.len -= 1;
        Some(top)
    }
}

impl std::ops::Deref for Pile {
    type Target = [HandCard];

    fn deref(&self) -> &[HandCard] {
        self.cards.get(..usize::from(self.len)).unwrap_or_default()
    }
}

impl std::fmt::Debug for Pile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
