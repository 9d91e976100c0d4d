//! The answers of the least-count search: an [`Arrangement`] of a hand and
//! the [`Discard`]s of an eleven-card hand.

use std::fmt;

use crate::card::{Card, CardSet};
use crate::hand::{HandCard, Joker, Jokers};
use crate::meld::Meld;

/// One arrangement of a hand: its melds, and the cards and count left over.
///
/// Serialised as a client reads it: the melds (each a list of cards, a joker
/// written in the place of the card it stands for), `jokers` mapping each
/// melded joker to that card (absent when no joker is melded), the cards in
/// no meld (unmelded jokers last) and their count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrangement {
    /// The melds, lowest rank first, sets before runs.
    pub melds: Vec<Meld>,
    /// The natural cards in no meld (including any card a joker stands for).
    pub deadwood_cards: CardSet,
    /// The jokers in no meld.
    pub deadwood_jokers: Jokers,
    /// The count: the deadwood cards' values plus the profile's
    /// `joker_deadwood` per joker in no meld.
    pub deadwood: u32,
}

impl Arrangement {
    /// Every card a meld shows (natural cards and what jokers stand for).
    pub fn melded(&self) -> CardSet {
        self.melds
            .iter()
            .fold(CardSet::EMPTY, |acc, m| acc.union(m.cards()))
    }

    /// The cards in no meld as a hand lists them: the natural cards in
    /// canonical order, then the jokers.
    pub fn unmelded(&self) -> impl Iterator<Item = HandCard> + '_ {
        self.deadwood_cards
            .iter()
            .map(HandCard::Natural)
            .chain(self.deadwood_jokers.iter().map(HandCard::Joker))
    }

    /// Each melded joker and the card it stands for, `X1` first.
    pub fn jokers(&self) -> impl Iterator<Item = (Joker, Card)> + '_ {
        let mut melded: Vec<(Joker, Card)> = self.melds.iter().flat_map(|m| m.jokers()).collect();
        melded.sort_unstable();
        melded.into_iter()
    }
}

impl fmt::Display for Arrangement {
    /// The melds in brackets, then the deadwood: `[5H X1=6H 7H] 2C X2 (deadwood 17)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for meld in &self.melds {
            write!(f, "[{meld}] ")?;
        }
        for card in self.unmelded() {
            write!(f, "{card} ")?;
        }
        write!(f, "(deadwood {})", self.deadwood)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Arrangement {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let jokers = crate::StandsFor::of(&self.melds);
        let mut state =
            serializer.serialize_struct("Arrangement", 3 + usize::from(!jokers.is_empty()))?;
        state.serialize_field("melds", &self.melds)?;
        if !jokers.is_empty() {
            state.serialize_field("jokers", &jokers)?;
        }
        state.serialize_field("deadwood_cards", &Unmelded(self))?;
        state.serialize_field("deadwood", &self.deadwood)?;
        state.end()
    }
}

/// [`Arrangement::unmelded`] as a list.
#[cfg(feature = "serde")]
struct Unmelded<'a>(&'a Arrangement);

#[cfg(feature = "serde")]
impl serde::Serialize for Unmelded<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.unmelded())
    }
}

/// One discard from an 11-card hand and the best arrangement of the 10 kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discard {
    /// The card (or joker) discarded.
    pub card: HandCard,
    /// The best arrangement of the ten cards kept.
    pub arrangement: Arrangement,
}

/// The analysis of an 11-card hand (a hand right after the draw).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawnHandAnalysis {
    /// The least 10-card deadwood over every discard.
    pub deadwood: u32,
    /// Every discard reaching it: natural cards in canonical order, then `X1`
    /// and `X2` (both, when both are best).
    pub discards: Vec<Discard>,
    /// All 11 cards melded, jokers included, no discard needed.
    pub big_gin: bool,
}
