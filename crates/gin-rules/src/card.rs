//! Cards, their notation, and sets of cards as 64-bit masks.
//!
//! # Bit layout (a contract the solvers rely on)
//!
//! A [`CardSet`] is a `u64`. Each suit owns a 16-bit lane; inside a lane, bit
//! `rank - 1` is the card (ace = bit 0, king = bit 12) and bits 13..16 are always
//! zero:
//!
//! ```text
//!  bit 63      48 47      32 31      16 15       0
//!      |  clubs   | diamonds |  hearts  |  spades  |
//!      ...KQJT98765432A per lane, 3 zero bits on top
//! ```
//!
//! The zero gap is what makes run detection a pair of shifts: shifting a lane down
//! by one or two never pulls the next suit's ace into this suit's king, so
//! `m & m >> 1 & m >> 2` marks exactly the cards that start three in a row in one
//! suit, for all four suits at once.

use std::fmt;
use std::str::FromStr;

#[cfg(feature = "serde")]
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The four suits, in the canonical output order (spades, hearts, diamonds, clubs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Spades (♠).
    Spades = 0,
    /// Hearts (♥).
    Hearts = 1,
    /// Diamonds (♦).
    Diamonds = 2,
    /// Clubs (♣).
    Clubs = 3,
}

impl Suit {
    /// Every suit in canonical order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The canonical one-letter notation: `S`, `H`, `D` or `C`.
    pub const fn letter(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }

    const fn from_index(index: u32) -> Suit {
        match index & 3 {
            0 => Suit::Spades,
            1 => Suit::Hearts,
            2 => Suit::Diamonds,
            _ => Suit::Clubs,
        }
    }

    /// The suit of an ASCII letter, either case.
    const fn from_ascii(letter: u8) -> Option<Suit> {
        match letter.to_ascii_uppercase() {
            b'S' => Some(Suit::Spades),
            b'H' => Some(Suit::Hearts),
            b'D' => Some(Suit::Diamonds),
            b'C' => Some(Suit::Clubs),
            _ => None,
        }
    }

    fn parse(text: &str) -> Option<Suit> {
        if let [letter] = text.as_bytes() {
            return Suit::from_ascii(*letter);
        }
        match text {
            "♠" | "♤" => Some(Suit::Spades),
            "♥" | "♡" => Some(Suit::Hearts),
            "♦" | "♢" => Some(Suit::Diamonds),
            "♣" | "♧" => Some(Suit::Clubs),
            _ => None,
        }
    }
}

/// A rank from ace (1, always low) to king (13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// The ace: rank 1, always low, worth 1.
    pub const ACE: Rank = Rank(1);
    /// The king: rank 13, worth 10.
    pub const KING: Rank = Rank(13);

    /// The rank with this number (1 = ace ... 13 = king), or `None` outside 1..=13.
    pub const fn new(number: u8) -> Option<Rank> {
        if number >= 1 && number <= 13 {
            Some(Rank(number))
        } else {
            None
        }
    }

    /// 1 for the ace up to 13 for the king.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// Deadwood value: ace 1, pips at face value, court cards 10.
    pub const fn value(self) -> u8 {
        if self.0 > 10 { 10 } else { self.0 }
    }

    /// The canonical one-character notation: `A`, `2`..`9`, `T`, `J`, `Q`, `K`.
    pub const fn symbol(self) -> char {
        match self.0 {
            1 => 'A',
            10 => 'T',
            11 => 'J',
            12 => 'Q',
            13 => 'K',
            n => (b'0' + n) as char,
        }
    }

    /// The rank of a one-character ASCII symbol, letters in either case.
    const fn from_ascii(symbol: u8) -> Option<Rank> {
        let number = match symbol.to_ascii_uppercase() {
            b'A' => 1,
            d @ b'2'..=b'9' => d - b'0',
            b'T' => 10,
            b'J' => 11,
            b'Q' => 12,
            b'K' => 13,
            _ => return None,
        };
        Some(Rank(number))
    }

    fn parse(text: &str) -> Option<Rank> {
        match text.as_bytes() {
            [symbol] => Rank::from_ascii(*symbol),
            b"10" => Some(Rank(10)),
            _ => None,
        }
    }
}

/// One playing card. Parse it from the notation with [`str::parse`]; display gives
/// the canonical form.
///
/// ```
/// use gin_rules::{Card, Rank, Suit};
/// let card: Card = "10♥".parse().unwrap();
/// assert_eq!(card.to_string(), "TH");
/// assert_eq!((card.rank(), card.suit()), (Rank::new(10).unwrap(), Suit::Hearts));
/// assert!("1X".parse::<Card>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    // Ordered by suit first so that sorting cards follows the bit layout.
    suit: Suit,
    rank: Rank,
}

impl Card {
    /// The card of this rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card { suit, rank }
    }

    /// The card's rank.
    pub const fn rank(self) -> Rank {
        self.rank
    }

    /// The card's suit.
    pub const fn suit(self) -> Suit {
        self.suit
    }

    /// Deadwood value of the card.
    pub const fn value(self) -> u8 {
        self.rank.value()
    }

    /// The canonical notation, `"TS"`, without formatting machinery: responses
    /// write cards by the dozen, so this is a table lookup.
    pub const fn notation(self) -> &'static str {
        // In range: `bit_index` is at most 3 * 16 + 12 = 60 (a `Suit` is 0..=3 and
        // a `Rank` 1..=13 by construction) and the table has 64 entries. A const
        // fn cannot call `get`.
        #[allow(clippy::indexing_slicing)]
        NOTATION[self.bit_index() as usize]
    }

    /// Bit index in the [`CardSet`] layout.
    pub const fn bit_index(self) -> u32 {
        self.suit as u32 * 16 + (self.rank.0 as u32 - 1)
    }

    pub(crate) const fn from_bit_index(index: u32) -> Card {
        Card {
            suit: Suit::from_index(index / 16),
            rank: Rank((index % 16) as u8 + 1),
        }
    }

    /// All 52 cards in canonical order.
    pub fn deck() -> impl Iterator<Item = Card> {
        CardSet::FULL_DECK.iter()
    }

    /// The card's id in OpenSpiel's `gin_rummy`, 0..=51: `suit * 13 + rank`,
    /// its suits in the order spades, clubs, diamonds, hearts (not this
    /// crate's order) and its ranks ace 0 to king 12.
    ///
    /// ```
    /// use gin_rules::Card;
    /// let ids: Vec<u32> = ["AS", "KS", "AC", "2D", "KH"]
    ///     .iter()
    ///     .map(|text| text.parse::<Card>().unwrap().openspiel_id())
    ///     .collect();
    /// assert_eq!(ids, [0, 12, 13, 27, 51]);
    /// ```
    pub const fn openspiel_id(self) -> u32 {
        let suit = match self.suit {
            Suit::Spades => 0,
            Suit::Clubs => 1,
            Suit::Diamonds => 2,
            Suit::Hearts => 3,
        };
        suit * 13 + self.rank.0 as u32 - 1
    }

    /// The card with this OpenSpiel id ([`Card::openspiel_id`]); `None` past 51.
    pub const fn from_openspiel_id(id: u32) -> Option<Card> {
        let suit = match id / 13 {
            0 => Suit::Spades,
            1 => Suit::Clubs,
            2 => Suit::Diamonds,
            3 => Suit::Hearts,
            _ => return None,
        };
        // `id % 13` is below 13, so the rank is 1..=13.
        Some(Card {
            suit,
            rank: Rank((id % 13) as u8 + 1),
        })
    }
}

/// `NOTATION[bit_index]` is the canonical text of the card with that bit index;
/// the three gap bits after each suit's king hold `""` and are never looked up
/// (a test checks every entry against `Rank::symbol` and `Suit::letter`).
#[rustfmt::skip]
const NOTATION: [&str; 64] = [
    "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "", "", "",
    "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "", "", "",
    "AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "", "", "",
    "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "", "", "",
];

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.notation())
    }
}

/// Why a string is not a card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardParseError {
    #[error("a card cannot be empty; write a rank then a suit, such as \"TS\"")]
    /// The text is empty.
    Empty,
    #[error("\"{0}\" is not a card: the rank must be one of A 2 3 4 5 6 7 8 9 T (or 10) J Q K")]
    /// The rank is not one of the known spellings; holds the text.
    InvalidRank(String),
    #[error("\"{0}\" is not a card: the suit must be one of S H D C (or ♠ ♥ ♦ ♣)")]
    /// The suit is not one of the known spellings; holds the text.
    InvalidSuit(String),
}

impl FromStr for Card {
    type Err = CardParseError;

    fn from_str(text: &str) -> Result<Card, CardParseError> {
        // The canonical notation and its lower-case forms: two ASCII bytes.
        if let [rank, suit] = text.as_bytes()
            && let (Some(rank), Some(suit)) = (Rank::from_ascii(*rank), Suit::from_ascii(*suit))
        {
            return Ok(Card::new(rank, suit));
        }
        let Some((suit_at, _)) = text.char_indices().last() else {
            return Err(CardParseError::Empty);
        };
        let (rank_text, suit_text) = text.split_at(suit_at);
        let rank =
            Rank::parse(rank_text).ok_or_else(|| CardParseError::InvalidRank(text.into()))?;
        let suit =
            Suit::parse(suit_text).ok_or_else(|| CardParseError::InvalidSuit(text.into()))?;
        Ok(Card::new(rank, suit))
    }
}

#[cfg(feature = "serde")]
impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.notation())
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Card, D::Error> {
        struct CardVisitor;
        impl serde::de::Visitor<'_> for CardVisitor {
            type Value = Card;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a card such as \"TS\" (rank A 2-9 T J Q K, suit S H D C)")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Card, E> {
                text.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(CardVisitor)
    }
}

/// A set serialises as the list of its cards in canonical order.
#[cfg(feature = "serde")]
impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// A duplicate card where every card must be distinct.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the card {0} appears more than once")]
pub struct DuplicateCard(pub Card);

/// A set of distinct cards, stored as a 64-bit mask (layout in the module docs).
///
/// A hand is a `CardSet`: build one from a list with [`CardSet::from_distinct`],
/// which rejects duplicates instead of silently merging them.
///
/// ```
/// use gin_rules::{Card, CardSet};
/// let cards: Vec<Card> = ["AS", "2S", "3S"].iter().map(|c| c.parse().unwrap()).collect();
/// let hand = CardSet::from_distinct(cards.iter().copied()).unwrap();
/// assert_eq!((hand.len(), hand.value()), (3, 6));
/// assert!(CardSet::from_distinct([cards[0], cards[0]]).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct CardSet(u64);

/// The 13 rank bits of one lane.
pub(crate) const LANE: u64 = 0x1FFF;

/// The lowest `count` cards of the mask `bits` (fewer when it has fewer).
#[inline]
pub(crate) fn lowest_bits(mut bits: u64, count: u32) -> u64 {
    let mut picked = 0;
    for _ in 0..count {
        let low = bits & bits.wrapping_neg();
        picked |= low;
        bits &= !low;
    }
    picked
}

/// Card-value bit planes: `VALUE_PLANES[k]` holds every card whose value has bit
/// `k` set, so a set's total value is `sum(popcount(set & plane_k) << k)`: four
/// popcounts instead of a loop over the cards.
const VALUE_PLANES: [u64; 4] = {
    let mut planes = [0u64; 4];
    let mut rank = 1u8;
    while rank <= 13 {
        let value = if rank > 10 { 10 } else { rank };
        let mut bit = 0;
        while bit < 4 {
            if value & (1 << bit) != 0 {
                let mut suit = 0;
                while suit < 4 {
                    // Evaluated at compile time, with `bit < 4` by the loop
                    // condition; a const block cannot call `get_mut`.
                    #[allow(clippy::indexing_slicing)]
                    let plane = &mut planes[bit];
                    *plane |= 1u64 << (suit * 16 + rank as u32 - 1);
                    suit += 1;
                }
            }
            bit += 1;
        }
        rank += 1;
    }
    planes
};

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 52 cards.
    pub const FULL_DECK: CardSet = CardSet(LANE | LANE << 16 | LANE << 32 | LANE << 48);

    /// The set with these mask bits; bits outside the layout are dropped.
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & CardSet::FULL_DECK.0)
    }

    /// The mask: bit `16 * suit + rank - 1` per card (see [`Card::bit_index`]).
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Collects distinct cards; the first repeated card is an error.
    pub fn from_distinct(cards: impl IntoIterator<Item = Card>) -> Result<CardSet, DuplicateCard> {
        let mut set = CardSet::EMPTY;
        for card in cards {
            if !set.insert(card) {
                return Err(DuplicateCard(card));
            }
        }
        Ok(set)
    }

    /// The set of one card.
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.bit_index())
    }

    /// Adds a card; false when it was already present.
    pub fn insert(&mut self, card: Card) -> bool {
        let bit = 1 << card.bit_index();
        let fresh = self.0 & bit == 0;
        self.0 |= bit;
        fresh
    }

    /// Removes a card; false when it was absent.
    pub fn remove(&mut self, card: Card) -> bool {
        let bit = 1 << card.bit_index();
        let present = self.0 & bit != 0;
        self.0 &= !bit;
        present
    }

    /// Whether the card is in the set.
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.bit_index()) != 0
    }

    /// The number of cards.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set has no card.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards in either set.
    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// The cards in both sets.
    pub const fn intersection(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// The cards in `self` but not in `other`.
    pub const fn difference(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// Whether every card of `self` is in `other`.
    pub const fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// Whether the sets share no card.
    pub const fn is_disjoint(self, other: CardSet) -> bool {
        self.0 & other.0 == 0
    }

    /// Total deadwood value of the cards.
    pub const fn value(self) -> u32 {
        (self.0 & VALUE_PLANES[0]).count_ones()
            + ((self.0 & VALUE_PLANES[1]).count_ones() << 1)
            + ((self.0 & VALUE_PLANES[2]).count_ones() << 2)
            + ((self.0 & VALUE_PLANES[3]).count_ones() << 3)
    }

    /// The 13-bit rank mask of one suit.
    pub const fn lane(self, suit: Suit) -> u16 {
        ((self.0 >> (suit as u32 * 16)) & LANE) as u16
    }

    /// The cards of one rank, whatever the suit.
    pub const fn of_rank(self, rank: Rank) -> CardSet {
        CardSet(self.0 & (0x0001_0001_0001_0001 << (rank.0 - 1)))
    }

    /// The cards in canonical order (suit, then rank).
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }

    /// The cards as a vector in canonical order.
    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for card in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            write!(f, "{card}")?;
            first = false;
        }
        Ok(())
    }
}

impl From<Card> for CardSet {
    fn from(card: Card) -> CardSet {
        CardSet::single(card)
    }
}

/// Iterator over a [`CardSet`] in canonical order.
#[derive(Debug, Clone)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card::from_bit_index(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

/// Parses a whitespace-separated list of cards; a convenience for tests and docs.
///
/// ```
/// let hand = gin_rules::cards("AS 2S 3S").unwrap();
/// assert_eq!(hand.to_string(), "AS 2S 3S");
/// ```
pub fn cards(text: &str) -> Result<CardSet, CardsError> {
    let mut set = CardSet::EMPTY;
    for word in text.split_whitespace() {
        let card: Card = word.parse()?;
        if !set.insert(card) {
            return Err(DuplicateCard(card).into());
        }
    }
    Ok(set)
}

/// Why [`cards`] failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardsError {
    #[error(transparent)]
    /// A word is not a card.
    Parse(#[from] CardParseError),
    #[error(transparent)]
    /// A card is written twice.
    Duplicate(#[from] DuplicateCard),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    #[test]
    fn openspiel_ids_number_the_deck_once_and_read_back() {
        let mut seen = 0u64;
        for card in Card::deck() {
            let id = card.openspiel_id();
            assert!(id < 52, "{card}");
            assert_eq!(seen & 1 << id, 0, "{card}: id {id} given twice");
            seen |= 1 << id;
            assert_eq!(Card::from_openspiel_id(id), Some(card));
        }
        assert_eq!(seen, (1 << 52) - 1);
        // OpenSpiel's suit order, not the crate's: hearts are last there.
        assert_eq!("2C".parse::<Card>().unwrap().openspiel_id(), 14);
        assert_eq!("AH".parse::<Card>().unwrap().openspiel_id(), 39);
        assert_eq!(Card::from_openspiel_id(52), None);
        assert_eq!(Card::from_openspiel_id(u32::MAX), None);
    }

    #[test]
    fn every_notation_of_a_card_parses_to_the_same_card() {
        for text in ["TS", "ts", "10S", "10s", "T♠", "t♠", "10♠", "10♤"] {
            assert_eq!(card(text), card("TS"), "{text}");
        }
        assert_eq!(card("a♥"), card("AH"));
        assert_eq!(card("qd").to_string(), "QD");
        assert_eq!(card("7♣").to_string(), "7C");
    }

    #[test]
    fn malformed_cards_say_what_is_wrong() {
        assert_eq!("".parse::<Card>(), Err(CardParseError::Empty));
        assert!(matches!(
            "1X".parse::<Card>(),
            Err(CardParseError::InvalidRank(_))
        ));
        assert!(matches!(
            "1S".parse::<Card>(),
            Err(CardParseError::InvalidRank(_))
        ));
        assert!(matches!(
            "11S".parse::<Card>(),
            Err(CardParseError::InvalidRank(_))
        ));
        assert!(matches!(
            "AX".parse::<Card>(),
            Err(CardParseError::InvalidSuit(_))
        ));
        assert!(matches!(
            "A".parse::<Card>(),
            Err(CardParseError::InvalidRank(_))
        ));
        assert!(matches!(
            " AS".parse::<Card>(),
            Err(CardParseError::InvalidRank(_))
        ));
        assert!("AS ".parse::<Card>().is_err());
        assert!(matches!(
            "A♦x".parse::<Card>(),
            Err(CardParseError::InvalidRank(_))
        ));
        assert!(matches!(
            "0S".parse::<Card>(),
            Err(CardParseError::InvalidRank(_))
        ));
    }

    #[test]
    fn every_card_round_trips_through_its_canonical_text_and_bit() {
        let deck: Vec<Card> = Card::deck().collect();
        assert_eq!(deck.len(), 52);
        for c in deck {
            let spelled: String = [c.rank().symbol(), c.suit().letter()].iter().collect();
            assert_eq!(c.notation(), spelled);
            assert_eq!(c.to_string(), spelled);
            assert_eq!(card(&spelled), c);
            assert_eq!(card(&spelled.to_lowercase()), c);
            assert_eq!(Card::from_bit_index(c.bit_index()), c);
        }
    }

    #[test]
    fn card_values_are_ace_one_pips_face_courts_ten() {
        let values: Vec<u8> = (1..=13).map(|n| Rank::new(n).unwrap().value()).collect();
        assert_eq!(values, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]);
        assert_eq!(CardSet::FULL_DECK.value(), 4 * (45 + 40));
        assert_eq!(cards("KS QH 9D AC").unwrap().value(), 30);
    }

    #[test]
    fn a_hand_rejects_a_duplicate_card() {
        assert_eq!(
            CardSet::from_distinct([card("7S"), card("8S"), card("7♠")]),
            Err(DuplicateCard(card("7S")))
        );
        assert!(matches!(cards("7S 7s"), Err(CardsError::Duplicate(_))));
    }

    #[test]
    fn cards_serialise_canonically_and_deserialise_any_notation() {
        let parsed: Vec<Card> = serde_json::from_str(r#"["10h", "q♣"]"#).unwrap();
        assert_eq!(serde_json::to_string(&parsed).unwrap(), r#"["TH","QC"]"#);
        let err = serde_json::from_str::<Card>(r#""1X""#).unwrap_err();
        assert!(err.to_string().contains("rank must be one of"), "{err}");
    }

    #[test]
    fn lanes_and_ranks_slice_the_mask() {
        let hand = cards("AS 2S KS 7H 7D 7C").unwrap();
        assert_eq!(hand.lane(Suit::Spades), 0b1_0000_0000_0011);
        assert_eq!(hand.of_rank(Rank::new(7).unwrap()).len(), 3);
        assert_eq!(hand.to_string(), "AS 2S KS 7H 7D 7C");
    }
}
