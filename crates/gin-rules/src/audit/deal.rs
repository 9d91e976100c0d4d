//! The deal: the cards as dealt, and the check that they are the whole deck.

use std::fmt;

use super::{Action, Move, Seat};
use crate::hand::{Hand, HandCard, Joker};

/// Cards dealt to each player.
pub const HAND_SIZE: usize = 10;
/// Cards in the stock after the deal of a 52-card deck: 52 - 2 x 10 - the
/// upcard. Each joker the profile adds makes it one longer ([`stock_size`]).
pub const STOCK_SIZE: usize = 31;

/// Cards in the stock after the deal of a deck with `jokers` jokers: 31, 32
/// or 33.
pub const fn stock_size(jokers: u8) -> usize {
    STOCK_SIZE + jokers as usize
}
/// Stock cards that are never drawn: once only these remain, the hand is over
/// unless the player who drew the 50th card knocks (or, under the 50th-card rule,
/// the opponent takes that player's discard to knock).
pub const STOCK_RESERVE: usize = 2;

/// The cards as dealt: 10 + 10 + the upcard + the stock, each card once.
/// Under a profile with jokers, `X1` (and `X2`) are cards of the deck like any
/// other, dealt anywhere, and the stock is longer by as many.
///
/// The stock may be given whole (31 cards, the rest of the deck; 32 or 33
/// with jokers) or, as a recorder knows it, only its first cards: the cards
/// drawn from it, in order. A draw past the cards listed takes the card the
/// draw action names (which must be one not yet seen); the stock still counts
/// its 31 (32, 33) cards for the end of the hand.
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
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<HandCard>))]
    pub dealer: Vec<HandCard>,
    /// The non-dealer's ten cards.
    #[cfg_attr(feature = "openapi", schema(
        example = json!(["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9D", "9H", "KC"])))]
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::bounded::at_most::<_, _, 52>")
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<HandCard>))]
    pub non_dealer: Vec<HandCard>,
    /// The first upcard, turned face up to start the discard pile. It also sets
    /// the Oklahoma knock limit and spade doubling.
    #[cfg_attr(feature = "openapi", schema(value_type = HandCard, example = "2C"))]
    pub upcard: HandCard,
    /// The stock in drawing order, top card first: all 31 (+ jokers) cards, or only the
    /// first ones (those drawn).
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::bounded::at_most::<_, _, 52>")
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<HandCard>))]
    pub stock: Vec<HandCard>,
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
    #[error("the stock holds at most {most} cards, not {found}")]
    /// The stock lists more cards than a deck leaves for it.
    StockTooLong {
        /// The cards listed.
        found: usize,
        /// The most it may list: [`stock_size`] of the profile's jokers.
        most: usize,
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
        card: HandCard,
    },
    #[error("{joker} is not in the deck: {}", joker_deck(*jokers))]
    /// A joker in the deal or in an action under a profile whose deck does
    /// not hold it (any joker without jokers, `X2` with one).
    JokerNotInDeck {
        /// The joker.
        joker: Joker,
        /// The jokers the profile adds to the deck.
        jokers: u8,
        /// Where it is written.
        at: JokerPlace,
    },
    #[error("{card} is dealt twice: in {first} and in {second}")]
    /// A card appears twice: the deal is not one deck.
    DuplicateCard {
        /// The repeated card.
        card: HandCard,
        /// Where it appears first, in reading order (dealer, non-dealer, upcard, stock).
        first: DealSlot,
        /// Where it appears again.
        second: DealSlot,
    },
}

/// "this profile plays without jokers", "this profile plays with 1 joker(s)".
fn joker_deck(jokers: u8) -> String {
    match jokers {
        0 => "this profile plays without jokers".to_owned(),
        n => format!("this profile plays with {n} joker(s)"),
    }
}

/// Where a joker is written in a record.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum JokerPlace {
    /// In the deal.
    Deal(DealSlot),
    /// In an action: its index, and the field within it as a JSON Pointer
    /// (`card`, `melds/0/1`, `layoffs/2/card`).
    Action {
        /// The action's index.
        action: usize,
        /// The field.
        field: String,
    },
}

/// Refuses a joker the profile's deck does not hold, in the deal (reading
/// order) or in an action (in order): a record of another game.
pub(super) fn check_jokers(jokers: u8, deal: &Deal, actions: &[Action]) -> Result<(), DealError> {
    for (card, part, index) in slots(deal) {
        if let HandCard::Joker(joker) = card
            && joker.number() > jokers
        {
            let at = JokerPlace::Deal(DealSlot { part, index });
            return Err(DealError::JokerNotInDeck { joker, jokers, at });
        }
    }
    check_action_jokers(jokers, actions, 0)
}

/// The joker check of [`check_jokers`] for actions alone, the first at
/// index `first` of the transcript (a held hand checks each action as it
/// comes; its deal was checked once). Nothing is allocated unless a joker
/// is out of the deck.
pub(super) fn check_action_jokers(
    jokers: u8,
    actions: &[Action],
    first: usize,
) -> Result<(), DealError> {
    for (offset, Action { play, .. }) in actions.iter().enumerate() {
        let mut stray: Option<(String, Joker)> = None;
        let mut visit = |field: &dyn Fn() -> String, card: HandCard| {
            if let (None, HandCard::Joker(joker)) = (&stray, card)
                && joker.number() > jokers
            {
                stray = Some((field(), joker));
            }
        };
        let melds = |visit: &mut dyn FnMut(&dyn Fn() -> String, HandCard),
                     melds: &Option<Vec<Vec<HandCard>>>| {
            for (m, meld) in melds.iter().flatten().enumerate() {
                for (c, card) in meld.iter().enumerate() {
                    visit(&|| format!("melds/{m}/{c}"), *card);
                }
            }
        };
        match play {
            Move::Pass => {}
            Move::Draw { card, .. } => {
                if let Some(card) = card {
                    visit(&|| "card".to_owned(), *card);
                }
            }
            Move::Discard { card } => visit(&|| "card".to_owned(), *card),
            Move::Knock {
                discard,
                melds: declared,
                jokers: map,
            } => {
                if let Some(card) = discard {
                    visit(&|| "discard".to_owned(), *card);
                }
                melds(&mut visit, declared);
                for (j, _) in map.pairs() {
                    visit(&|| format!("jokers/{j}"), j.into());
                }
            }
            Move::LayOff {
                melds: declared,
                jokers: map,
                layoffs,
            } => {
                melds(&mut visit, declared);
                for (j, _) in map.pairs() {
                    visit(&|| format!("jokers/{j}"), j.into());
                }
                for (l, layoff) in layoffs.iter().flatten().enumerate() {
                    visit(&|| format!("layoffs/{l}/card"), layoff.card);
                    for (c, card) in layoff.onto.iter().flatten().enumerate() {
                        visit(&|| format!("layoffs/{l}/onto/{c}"), *card);
                    }
                }
            }
        }
        if let Some((field, joker)) = stray {
            let at = JokerPlace::Action {
                action: first + offset,
                field,
            };
            return Err(DealError::JokerNotInDeck { joker, jokers, at });
        }
    }
    Ok(())
}

/// Every card of the deal with its place, in reading order: dealer,
/// non-dealer, upcard, stock.
fn slots(deal: &Deal) -> impl Iterator<Item = (HandCard, DealPart, usize)> + '_ {
    deal.dealer
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
        )
}

/// Checks a deal of the 52-card deck: 10 cards each, at most 31 in the
/// stock, all distinct (with a whole stock, the whole deck). Counts are
/// checked first, then repeats in reading order: dealer, non-dealer, upcard,
/// stock. A joker is refused ([`check_deal_with`] takes a deck with jokers).
pub fn check_deal(deal: &Deal) -> Result<(), DealError> {
    check_jokers(0, deal, &[])?;
    check_deal_with(deal, 0)
}

/// [`check_deal`] for a deck with `jokers` jokers (0, 1 or 2): the stock
/// holds at most [`stock_size`]`(jokers)` cards. The jokers themselves are
/// checked by the audit, which knows the profile (`joker_not_in_deck`).
pub fn check_deal_with(deal: &Deal, jokers: u8) -> Result<(), DealError> {
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
    let most = stock_size(jokers);
    if deal.stock.len() > most {
        return Err(DealError::StockTooLong {
            found: deal.stock.len(),
            most,
        });
    }
    // A deck's cards as a set: a repeat is a card already in it.
    let mut seen = Hand::default();
    let mut first_slot: Vec<(HandCard, DealSlot)> = Vec::with_capacity(most + 21);
    for (card, part, index) in slots(deal) {
        let slot = DealSlot { part, index };
        if seen.contains(card) {
            let first = first_slot
                .iter()
                .find(|(c, _)| *c == card)
                .map_or(slot, |&(_, first)| first);
            return Err(DealError::DuplicateCard {
                card,
                first,
                second: slot,
            });
        }
        seen = seen.with(card);
        first_slot.push((card, slot));
    }
    Ok(())
}
