//! Jokers, wild cards (a natural card or a joker) and hands that hold both.
//!
//! A joker is written `X1` or `X2`, either case. The joker-free card parser
//! ([`Card`]'s `FromStr`) is unchanged: it still refuses `X1`, so a service
//! that does not play jokers keeps refusing them; [`WildCard`] reads both.

use std::fmt;
use std::str::FromStr;

use crate::card::{Card, CardParseError, CardSet};

/// One of the two jokers a profile may add to the deck. With one joker it is
/// `X1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Joker {
    /// The first joker, written `X1`.
    X1,
    /// The second joker, written `X2`.
    X2,
}

impl Joker {
    /// Both jokers, `X1` first.
    pub const ALL: [Joker; 2] = [Joker::X1, Joker::X2];

    /// The canonical notation, `X1` or `X2`.
    pub const fn notation(self) -> &'static str {
        match self {
            Joker::X1 => "X1",
            Joker::X2 => "X2",
        }
    }

    /// 1 for `X1`, 2 for `X2`.
    pub const fn number(self) -> u8 {
        match self {
            Joker::X1 => 1,
            Joker::X2 => 2,
        }
    }

    /// The joker's bit in a [`WildHand`]'s joker mask.
    pub(crate) const fn bit(self) -> u8 {
        match self {
            Joker::X1 => 1,
            Joker::X2 => 2,
        }
    }
}

impl fmt::Display for Joker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.notation())
    }
}

/// A card of a deck with jokers: a natural card or a joker.
///
/// ```
/// use gin_rules::{Joker, WildCard};
/// assert_eq!("x2".parse::<WildCard>().unwrap(), WildCard::Joker(Joker::X2));
/// assert_eq!("10h".parse::<WildCard>().unwrap().to_string(), "TH");
/// assert!("X3".parse::<WildCard>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WildCard {
    /// A card of the standard deck.
    Natural(Card),
    /// A joker.
    Joker(Joker),
}

impl fmt::Display for WildCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WildCard::Natural(card) => card.fmt(f),
            WildCard::Joker(joker) => joker.fmt(f),
        }
    }
}

impl FromStr for WildCard {
    type Err = CardParseError;

    /// `X1` or `X2` (either case) is a joker; anything else is read by the
    /// natural card parser, with its errors.
    fn from_str(text: &str) -> Result<WildCard, CardParseError> {
        match text.as_bytes() {
            [b'X' | b'x', b'1'] => Ok(WildCard::Joker(Joker::X1)),
            [b'X' | b'x', b'2'] => Ok(WildCard::Joker(Joker::X2)),
            _ => text.parse().map(WildCard::Natural),
        }
    }
}

impl From<Card> for WildCard {
    fn from(card: Card) -> WildCard {
        WildCard::Natural(card)
    }
}

impl From<Joker> for WildCard {
    fn from(joker: Joker) -> WildCard {
        WildCard::Joker(joker)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for WildCard {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            WildCard::Natural(card) => serializer.serialize_str(card.notation()),
            WildCard::Joker(joker) => serializer.serialize_str(joker.notation()),
        }
    }
}

/// Any notation [`WildCard`]'s parser reads: `"X1"`, `"x2"`, `"10h"`.
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for WildCard {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<WildCard, D::Error> {
        struct WildCardVisitor;
        impl serde::de::Visitor<'_> for WildCardVisitor {
            type Value = WildCard;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a card such as \"TS\", or a joker \"X1\" or \"X2\"")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<WildCard, E> {
                text.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(WildCardVisitor)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Joker {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.notation())
    }
}

/// A hand of natural cards and jokers. Build one with [`WildHand::new`] or
/// [`wild_cards`]; a repeated card or joker is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct WildHand {
    naturals: CardSet,
    /// Bit 0: `X1`; bit 1: `X2`.
    jokers: u8,
}

impl WildHand {
    /// The most cards a hand holds, jokers included: eleven, after the draw.
    pub const MAX_CARDS: usize = 11;

    /// The natural cards and these jokers (a joker listed twice is held once).
    pub fn new(naturals: CardSet, jokers: &[Joker]) -> WildHand {
        WildHand {
            naturals,
            jokers: jokers.iter().fold(0, |mask, j| mask | j.bit()),
        }
    }

    /// The natural cards.
    pub const fn naturals(self) -> CardSet {
        self.naturals
    }

    /// The jokers held, `X1` first.
    pub fn jokers(self) -> impl Iterator<Item = Joker> {
        Joker::ALL.into_iter().filter(move |j| self.holds(*j))
    }

    /// The number of jokers held.
    pub const fn joker_count(self) -> u8 {
        self.jokers.count_ones() as u8
    }

    /// Whether the hand holds this joker.
    pub const fn holds(self, joker: Joker) -> bool {
        self.jokers & joker.bit() != 0
    }

    /// The number of cards, jokers included.
    pub const fn len(self) -> usize {
        self.naturals.len() + self.jokers.count_ones() as usize
    }

    /// Whether the hand holds no card.
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Whether the hand holds this card.
    pub const fn contains(self, card: WildCard) -> bool {
        match card {
            WildCard::Natural(card) => self.naturals.contains(card),
            WildCard::Joker(joker) => self.holds(joker),
        }
    }

    /// The hand without one card (unchanged when it does not hold it).
    pub fn without(self, card: WildCard) -> WildHand {
        match card {
            WildCard::Natural(card) => WildHand {
                naturals: self.naturals.difference(CardSet::single(card)),
                ..self
            },
            WildCard::Joker(joker) => WildHand {
                jokers: self.jokers & !joker.bit(),
                ..self
            },
        }
    }

    /// The hand with one more card (unchanged when it holds it already).
    pub fn with(self, card: WildCard) -> WildHand {
        match card {
            WildCard::Natural(card) => WildHand {
                naturals: self.naturals.union(CardSet::single(card)),
                ..self
            },
            WildCard::Joker(joker) => WildHand {
                jokers: self.jokers | joker.bit(),
                ..self
            },
        }
    }

    /// Every card, naturals in canonical order then the jokers.
    pub fn cards(self) -> impl Iterator<Item = WildCard> {
        self.naturals
            .iter()
            .map(WildCard::Natural)
            .chain(self.jokers().map(WildCard::Joker))
    }

    /// Collects distinct cards; the first repeated card is an error.
    pub fn from_distinct(
        cards: impl IntoIterator<Item = WildCard>,
    ) -> Result<WildHand, DuplicateWildCard> {
        let mut hand = WildHand::default();
        for card in cards {
            if hand.contains(card) {
                return Err(DuplicateWildCard(card));
            }
            hand = hand.with(card);
        }
        Ok(hand)
    }
}

/// The cards as a list, naturals in canonical order then the jokers: a hand
/// without a joker is written exactly as its [`CardSet`].
#[cfg(feature = "serde")]
impl serde::Serialize for WildHand {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.cards())
    }
}

impl fmt::Display for WildHand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for card in self.cards() {
            if !first {
                f.write_str(" ")?;
            }
            card.fmt(f)?;
            first = false;
        }
        Ok(())
    }
}

/// Why a list of cards and jokers is not a hand of a deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum HandReadFault {
    /// A card or joker listed a second time, at `index`.
    #[error("the card {card} appears more than once")]
    Repeated {
        /// The position of the repeat.
        index: usize,
        /// The card.
        card: WildCard,
    },
    /// A joker the deck does not hold (any joker without jokers, `X2` with
    /// one), at `index`.
    #[error("{joker} is not in the deck: {}", deck_jokers(*jokers))]
    JokerNotInDeck {
        /// Its position.
        index: usize,
        /// The joker.
        joker: Joker,
        /// The jokers the deck holds.
        jokers: u8,
    },
}

/// The deck's jokers, as the end of a sentence.
fn deck_jokers(jokers: u8) -> String {
    match jokers {
        0 => "this profile plays without jokers (use the \"jokers\" preset, or \"jokers\": 1 \
              or 2 in the profile)"
            .to_owned(),
        n => format!("this profile plays with {n} joker(s)"),
    }
}

impl HandReadFault {
    /// Stable machine-readable code.
    pub const fn code(&self) -> &'static str {
        match self {
            HandReadFault::Repeated { .. } => "duplicate_card",
            HandReadFault::JokerNotInDeck { .. } => "joker_not_in_deck",
        }
    }

    /// The position of the card at fault.
    pub const fn index(&self) -> usize {
        match self {
            HandReadFault::Repeated { index, .. } | HandReadFault::JokerNotInDeck { index, .. } => {
                *index
            }
        }
    }
}

impl WildHand {
    /// Reads a list of cards under a deck of `deck_jokers` jokers: the first
    /// repeated card, or joker the deck lacks, is the fault.
    ///
    /// ```
    /// use gin_rules::{Joker, WildCard, WildHand};
    /// let cards: Vec<WildCard> = ["5H", "X2"].iter().map(|c| c.parse().unwrap()).collect();
    /// assert_eq!(WildHand::read(&cards, 2).unwrap().joker_count(), 1);
    /// let fault = WildHand::read(&cards, 1).unwrap_err();
    /// assert_eq!((fault.code(), fault.index()), ("joker_not_in_deck", 1));
    /// ```
    pub fn read(cards: &[WildCard], deck_jokers: u8) -> Result<WildHand, HandReadFault> {
        let mut hand = WildHand::default();
        for (index, &card) in cards.iter().enumerate() {
            if let WildCard::Joker(joker) = card
                && joker.number() > deck_jokers
            {
                return Err(HandReadFault::JokerNotInDeck {
                    index,
                    joker,
                    jokers: deck_jokers,
                });
            }
            if hand.contains(card) {
                return Err(HandReadFault::Repeated { index, card });
            }
            hand = hand.with(card);
        }
        Ok(hand)
    }
}

/// A card or joker written twice where every card must be distinct.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the card {0} appears more than once")]
pub struct DuplicateWildCard(pub WildCard);

/// Why [`wild_cards`] failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WildCardsError {
    #[error(transparent)]
    /// A word is neither a card nor a joker.
    Parse(#[from] CardParseError),
    #[error(transparent)]
    /// A card or joker is written twice.
    Duplicate(#[from] DuplicateWildCard),
}

/// Parses a whitespace-separated list of cards and jokers; a convenience for
/// tests and docs.
///
/// ```
/// let hand = gin_rules::wild_cards("5H X1 7H x2").unwrap();
/// assert_eq!((hand.naturals().len(), hand.joker_count()), (2, 2));
/// assert_eq!(hand.to_string(), "5H 7H X1 X2");
/// assert!(gin_rules::wild_cards("X1 x1").is_err());
/// ```
pub fn wild_cards(text: &str) -> Result<WildHand, WildCardsError> {
    let cards = text
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<Vec<WildCard>, _>>()?;
    Ok(WildHand::from_distinct(cards)?)
}
