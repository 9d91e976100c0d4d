//! What a hand holds: natural cards and, under a profile with jokers, the
//! jokers `X1` and `X2`. A [`HandCard`] is either; a [`Hand`] is a set of
//! them (a [`CardSet`] of naturals and a two-bit joker mask), the input of
//! every analysis, reply and score of the crate.
//!
//! A joker is written `X1` or `X2`, either case. The natural card parser
//! ([`Card`]'s `FromStr`) refuses `X1`, so a field that takes only natural
//! cards (an upcard of a joker-free deck, a card a joker stands for) keeps
//! refusing jokers; [`HandCard`] reads both.

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

    /// The joker's bit in a [`Hand`]'s joker mask.
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
/// use gin_rules::{Joker, HandCard};
/// assert_eq!("x2".parse::<HandCard>().unwrap(), HandCard::Joker(Joker::X2));
/// assert_eq!("10h".parse::<HandCard>().unwrap().to_string(), "TH");
/// assert!("X3".parse::<HandCard>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HandCard {
    /// A card of the standard deck.
    Natural(Card),
    /// A joker.
    Joker(Joker),
}

impl HandCard {
    /// The natural card, if it is one.
    pub const fn natural(self) -> Option<Card> {
        match self {
            HandCard::Natural(card) => Some(card),
            HandCard::Joker(_) => None,
        }
    }

    /// The card's OpenSpiel id ([`Card::openspiel_id`]); a joker has none.
    pub const fn openspiel_id(self) -> Option<u32> {
        match self {
            HandCard::Natural(card) => Some(card.openspiel_id()),
            HandCard::Joker(_) => None,
        }
    }
}

impl fmt::Display for HandCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandCard::Natural(card) => card.fmt(f),
            HandCard::Joker(joker) => joker.fmt(f),
        }
    }
}

impl FromStr for HandCard {
    type Err = CardParseError;

    /// `X1` or `X2` (either case) is a joker; anything else is read by the
    /// natural card parser, with its errors.
    fn from_str(text: &str) -> Result<HandCard, CardParseError> {
        match text.as_bytes() {
            [b'X' | b'x', b'1'] => Ok(HandCard::Joker(Joker::X1)),
            [b'X' | b'x', b'2'] => Ok(HandCard::Joker(Joker::X2)),
            _ => text.parse().map(HandCard::Natural),
        }
    }
}

impl From<Card> for HandCard {
    fn from(card: Card) -> HandCard {
        HandCard::Natural(card)
    }
}

impl From<Joker> for HandCard {
    fn from(joker: Joker) -> HandCard {
        HandCard::Joker(joker)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for HandCard {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            HandCard::Natural(card) => serializer.serialize_str(card.notation()),
            HandCard::Joker(joker) => serializer.serialize_str(joker.notation()),
        }
    }
}

/// Any notation [`HandCard`]'s parser reads: `"X1"`, `"x2"`, `"10h"`.
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for HandCard {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<HandCard, D::Error> {
        struct HandCardVisitor;
        impl serde::de::Visitor<'_> for HandCardVisitor {
            type Value = HandCard;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                // The natural card's hint, then the jokers: one message for every
                // hand card a request holds.
                f.write_str(
                    "a card such as \"TS\" (rank A 2-9 T J Q K, suit S H D C), or a joker \"X1\" or \"X2\"",
                )
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<HandCard, E> {
                text.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(HandCardVisitor)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Joker {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.notation())
    }
}

/// A set of jokers: the jokers an arrangement leaves out of its melds. One
/// byte (bit 0 `X1`, bit 1 `X2`), so an arrangement without jokers is as
/// small, and as cheap to build and drop, as one that names no joker field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Jokers(u8);

impl Jokers {
    /// No joker.
    pub const NONE: Jokers = Jokers(0);

    /// The jokers, `X1` first.
    pub fn iter(self) -> impl Iterator<Item = Joker> {
        Joker::ALL.into_iter().filter(move |j| self.contains(*j))
    }

    /// How many.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// No joker.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether this joker is in the set.
    pub const fn contains(self, joker: Joker) -> bool {
        self.0 & joker.bit() != 0
    }

    /// The set with this joker too.
    pub const fn with(self, joker: Joker) -> Jokers {
        Jokers(self.0 | joker.bit())
    }
}

impl FromIterator<Joker> for Jokers {
    fn from_iter<I: IntoIterator<Item = Joker>>(jokers: I) -> Jokers {
        jokers.into_iter().fold(Jokers::NONE, Jokers::with)
    }
}

/// A hand: natural cards and jokers. Build one with [`Hand::new`], from a
/// [`CardSet`] (no jokers), or with [`parse_hand`]; a repeated card or joker
/// is refused. Every operation of the crate takes a `Hand` and takes the
/// joker-free fast path itself when it holds no joker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Hand {
    naturals: CardSet,
    /// Bit 0: `X1`; bit 1: `X2`.
    jokers: u8,
}

impl Hand {
    /// The most cards a hand holds, jokers included: eleven, after the draw.
    pub const MAX_CARDS: usize = 11;

    /// The natural cards and these jokers (a joker listed twice is held once).
    pub fn new(naturals: CardSet, jokers: &[Joker]) -> Hand {
        Hand {
            naturals,
            jokers: jokers.iter().fold(0, |mask, j| mask | j.bit()),
        }
    }

    /// The natural cards.
    pub const fn naturals(self) -> CardSet {
        self.naturals
    }

    /// The natural cards when the hand holds no joker. Every operation of the
    /// crate asks this one question to choose its path: `Some` takes the
    /// joker-free bitmask solver, `None` the joker search built on it.
    #[inline]
    pub const fn joker_free(self) -> Option<CardSet> {
        if self.jokers == 0 {
            Some(self.naturals)
        } else {
            None
        }
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
    pub const fn contains(self, card: HandCard) -> bool {
        match card {
            HandCard::Natural(card) => self.naturals.contains(card),
            HandCard::Joker(joker) => self.holds(joker),
        }
    }

    /// The hand without one card (unchanged when it does not hold it).
    pub fn without(self, card: HandCard) -> Hand {
        match card {
            HandCard::Natural(card) => Hand {
                naturals: self.naturals.difference(CardSet::single(card)),
                ..self
            },
            HandCard::Joker(joker) => Hand {
                jokers: self.jokers & !joker.bit(),
                ..self
            },
        }
    }

    /// The hand with one more card (unchanged when it holds it already).
    pub fn with(self, card: HandCard) -> Hand {
        match card {
            HandCard::Natural(card) => Hand {
                naturals: self.naturals.union(CardSet::single(card)),
                ..self
            },
            HandCard::Joker(joker) => Hand {
                jokers: self.jokers | joker.bit(),
                ..self
            },
        }
    }

    /// Every card, naturals in canonical order then the jokers.
    pub fn cards(self) -> impl Iterator<Item = HandCard> {
        self.naturals
            .iter()
            .map(HandCard::Natural)
            .chain(self.jokers().map(HandCard::Joker))
    }

    /// Collects distinct cards; the first repeated card is an error.
    pub fn from_distinct(
        cards: impl IntoIterator<Item = HandCard>,
    ) -> Result<Hand, DuplicateHandCard> {
        let mut hand = Hand::default();
        for card in cards {
            if hand.contains(card) {
                return Err(DuplicateHandCard(card));
            }
            hand = hand.with(card);
        }
        Ok(hand)
    }
}

impl FromIterator<HandCard> for Hand {
    /// The cards as a hand, a card given twice held once (as [`Hand::with`];
    /// [`Hand::from_distinct`] refuses the repeat instead).
    fn from_iter<I: IntoIterator<Item = HandCard>>(cards: I) -> Hand {
        cards.into_iter().fold(Hand::default(), Hand::with)
    }
}

impl From<CardSet> for Hand {
    /// The natural cards, no joker.
    fn from(naturals: CardSet) -> Hand {
        Hand {
            naturals,
            jokers: 0,
        }
    }
}

/// The cards as a list, naturals in canonical order then the jokers: a hand
/// without a joker is written exactly as its [`CardSet`].
#[cfg(feature = "serde")]
impl serde::Serialize for Hand {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.cards())
    }
}

impl fmt::Display for Hand {
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
        card: HandCard,
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
    /// The position of the card at fault.
    pub const fn index(&self) -> usize {
        match self {
            HandReadFault::Repeated { index, .. } | HandReadFault::JokerNotInDeck { index, .. } => {
                *index
            }
        }
    }
}

impl Hand {
    /// Reads a list of cards under a deck of `deck_jokers` jokers: the first
    /// repeated card, or joker the deck lacks, is the fault.
    ///
    /// ```
    /// use gin_rules::{Joker, HandCard, Hand, HandReadFault};
    /// let cards: Vec<HandCard> = ["5H", "X2"].iter().map(|c| c.parse().unwrap()).collect();
    /// assert_eq!(Hand::read(&cards, 2).unwrap().joker_count(), 1);
    /// let fault = Hand::read(&cards, 1).unwrap_err();
    /// assert!(matches!(fault, HandReadFault::JokerNotInDeck { index: 1, .. }));
    /// ```
    pub fn read(cards: &[HandCard], deck_jokers: u8) -> Result<Hand, HandReadFault> {
        let mut hand = Hand::default();
        for (index, &card) in cards.iter().enumerate() {
            if let HandCard::Joker(joker) = card
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
pub struct DuplicateHandCard(pub HandCard);

/// Why [`parse_hand`] failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseHandError {
    #[error(transparent)]
    /// A word is neither a card nor a joker.
    Parse(#[from] CardParseError),
    #[error(transparent)]
    /// A card or joker is written twice.
    Duplicate(#[from] DuplicateHandCard),
}

/// Parses a whitespace-separated list of cards and jokers; a convenience for
/// tests and docs.
///
/// ```
/// let hand = gin_rules::parse_hand("5H X1 7H x2").unwrap();
/// assert_eq!((hand.naturals().len(), hand.joker_count()), (2, 2));
/// assert_eq!(hand.to_string(), "5H 7H X1 X2");
/// assert!(gin_rules::parse_hand("X1 x1").is_err());
/// ```
pub fn parse_hand(text: &str) -> Result<Hand, ParseHandError> {
    let cards = text
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<Vec<HandCard>, _>>()?;
    Ok(Hand::from_distinct(cards)?)
}
