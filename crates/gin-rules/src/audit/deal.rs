//! The deal: the cards as dealt, and the check that they are the whole deck.

use std::fmt;

use super::Seat;
use crate::card::Card;

/// Cards dealt to each player.
pub const HAND_SIZE: usize = 10;
/// Cards in the stock after the deal: 52 - 2 x 10 - the upcard.
pub const STOCK_SIZE: usize = 31;
/// Stock cards that are never drawn: once only these remain, the hand is over
/// unless the player who drew the 50th card knocks (or, under the 50th-card rule,
/// the opponent takes that player's discard to knock).
pub const STOCK_RESERVE: usize = 2;

/// The cards as dealt: 10 + 10 + the upcard + the stock, each card once.
///
/// The stock may be given whole (31 cards, the rest of the deck) or, as a
/// recorder knows it, only its first cards: the cards drawn from it, in order.
/// A draw past the cards listed takes the card the draw action names (which
/// must be one not yet seen); the stock still counts 31 cards for the end of
/// the hand.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Deal {
    /// The dealer's ten cards.
    #[cfg_attr(feature = "openapi", schema(
        example = json!(["7S", "8S", "TS", "JD", "QH", "KH", "3C", "4C", "7H", "4S"])))]
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::bounded::at_most::<_, _, 52>")
    )]
    pub dealer: Vec<Card>,
    /// The non-dealer's ten cards.
    #[cfg_attr(feature = "openapi", schema(
        example = json!(["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "KC"])))]
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::bounded::at_most::<_, _, 52>")
    )]
    pub non_dealer: Vec<Card>,
    /// The first upcard, turned face up to start the discard pile. It also sets
    /// the Oklahoma knock limit and spade doubling.
    #[cfg_attr(feature = "openapi", schema(example = "2C"))]
    pub upcard: Card,
    /// The stock in drawing order, top card first: all 31 cards, or only the
    /// first ones (those drawn).
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::bounded::at_most::<_, _, 52>")
    )]
    pub stock: Vec<Card>,
}

/// A part of the deal, for locating a fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DealPart {
    /// A player's ten cards.
    Hand(Seat),
    /// The first upcard.
    Upcard,
    /// The stock.
    Stock,
}

impl fmt::Display for DealPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealPart::Hand(seat) => write!(f, "{seat}'s hand"),
            DealPart::Upcard => f.write_str("the upcard"),
            DealPart::Stock => f.write_str("the stock"),
        }
    }
}

/// One card's place in the deal: the part and the position in it (0 for the upcard).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DealSlot {
    /// The part of the deal holding the card.
    pub part: DealPart,
    /// The position in that part, from 0 (0 for the upcard).
    pub index: usize,
}

impl fmt::Display for DealSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.part {
            DealPart::Upcard => write!(f, "{}", self.part),
            part => write!(f, "{part} at position {}", self.index),
        }
    }
}

/// Why a deal cannot be replayed. Not a player's violation: the record itself is
/// impossible.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    #[error("{part} must have {expected} cards, not {found}")]
    /// A hand has the wrong number of cards.
    WrongCardCount {
        /// The part at fault.
        part: DealPart,
        /// The cards it must have: 10.
        expected: usize,
        /// The cards it has.
        found: usize,
    },
    #[error("the stock holds at most {STOCK_SIZE} cards, not {found}")]
    /// The stock lists more cards than a deck leaves for it.
    StockTooLong {
        /// The cards listed.
        found: usize,
    },
    #[error(
        "action {action} draws from the stock past the {listed} cards it lists without naming \
         the card drawn"
    )]
    /// A draw past the cards the stock lists that does not say which card it
    /// took: the record does not tell.
    UnrecordedDraw {
        /// The draw action's index.
        action: usize,
        /// The stock cards listed.
        listed: usize,
    },
    #[error("action {action} draws {card} from the stock, but {card} is already in play")]
    /// A draw past the cards the stock lists naming a card already dealt or
    /// drawn: no deck has it in the stock.
    DrawnCardSeen {
        /// The draw action's index.
        action: usize,
        /// The card named.
        card: Card,
    },
    #[error("{card} is dealt twice: in {first} and in {second}")]
    /// A card appears twice: the deal is not one deck.
    DuplicateCard {
        /// The repeated card.
        card: Card,
        /// Where it appears first, in reading order (dealer, non-dealer, upcard, stock).
        first: DealSlot,
        /// Where it appears again.
        second: DealSlot,
    },
}

impl DealError {
    /// Stable machine-readable code (the same codes `/v1/hands/score` uses).
    pub const fn code(&self) -> &'static str {
        match self {
            DealError::WrongCardCount { .. } | DealError::StockTooLong { .. } => "wrong_card_count",
            DealError::DuplicateCard { .. } | DealError::DrawnCardSeen { .. } => "duplicate_card",
            DealError::UnrecordedDraw { .. } => "unrecorded_draw",
        }
    }
}

/// Checks a deal: 10 cards each, at most 31 in the stock, all distinct (with a
/// whole stock, the whole deck). Counts are checked first, then repeats in
/// reading order: dealer, non-dealer, upcard, stock.
pub fn check_deal(deal: &Deal) -> Result<(), DealError> {
    let counts = [
        (DealPart::Hand(Seat::Dealer), deal.dealer.len(), HAND_SIZE),
        (
            DealPart::Hand(Seat::NonDealer),
            deal.non_dealer.len(),
            HAND_SIZE,
        ),
    ];
    for (part, found, expected) in counts {
        if found != expected {
            return Err(DealError::WrongCardCount {
                part,
                expected,
                found,
            });
        }
    }
    if deal.stock.len() > STOCK_SIZE {
        return Err(DealError::StockTooLong {
            found: deal.stock.len(),
        });
    }
    let slots = deal
        .dealer
        .iter()
        .enumerate()
        .map(|(i, &c)| (c, DealPart::Hand(Seat::Dealer), i))
        .chain(
            deal.non_dealer
                .iter()
                .enumerate()
                .map(|(i, &c)| (c, DealPart::Hand(Seat::NonDealer), i)),
        )
        .chain([(deal.upcard, DealPart::Upcard, 0)])
        .chain(
            deal.stock
                .iter()
                .enumerate()
                .map(|(i, &c)| (c, DealPart::Stock, i)),
        );
    let mut seen: Vec<(Card, DealSlot)> = Vec::with_capacity(52);
    for (card, part, index) in slots {
        let slot = DealSlot { part, index };
        if let Some(&(_, first)) = seen.iter().find(|(c, _)| *c == card) {
            return Err(DealError::DuplicateCard {
                card,
                first,
                second: slot,
            });
        }
        seen.push((card, slot));
    }
    Ok(())
}
