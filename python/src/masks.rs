//! OpenSpiel card masks: bit `i` is the card whose OpenSpiel id is `i`
//! ([`gin_rules::Card::openspiel_id`]: `suit * 13 + rank`, the suits in OpenSpiel's
//! order spades, clubs, diamonds, hearts, and the ranks ace 0 to king 12).
//!
//! The rules library keeps a hand as a [`CardSet`]: a 16-bit lane per suit in
//! the order spades, hearts, diamonds, clubs, bit `rank - 1` inside a lane
//! (`crates/gin-rules/src/card.rs`). Both layouts hold a suit's thirteen ranks
//! as consecutive bits in the same order, so converting one into the other
//! moves four 13-bit blocks: four shifts, four masks, no loop over the cards.

use gin_rules::{CardSet, JokerRules, min_deadwood};

/// The 13 rank bits of one suit.
const SUIT_BITS: u64 = 0x1FFF;

/// Every OpenSpiel card id: bits 0 to 51.
pub const DECK_MASK: u64 = (1 << 52) - 1;

/// The library's mask of an OpenSpiel mask (bits past 51 are dropped).
#[inline]
pub const fn library_bits(openspiel: u64) -> u64 {
    (openspiel & SUIT_BITS) // spades: OpenSpiel suit 0, library lane 0
        | ((openspiel >> 39) & SUIT_BITS) << 16 // hearts: 3 -> lane 1
        | ((openspiel >> 26) & SUIT_BITS) << 32 // diamonds: 2 -> lane 2
        | ((openspiel >> 13) & SUIT_BITS) << 48 // clubs: 1 -> lane 3
}

/// The card set of an OpenSpiel mask.
#[inline]
pub const fn card_set(openspiel: u64) -> CardSet {
    CardSet::from_bits(library_bits(openspiel))
}

/// Why a mask is not a hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaskFault {
    /// A bit past 51 is set (the lowest such bit).
    BitPastDeck { index: usize, bit: u32 },
    /// The mask holds neither 10 nor 11 cards.
    CardCount { index: usize, cards: u32 },
}

/// The first mask that is not a 10- or 11-card hand, if any. Every mask is
/// checked before any deadwood is computed, so a bad array costs one cheap
/// pass and the fault reported is always the first one.
pub fn first_fault(masks: &[u64]) -> Option<MaskFault> {
    // A branch-free scan first: the common case, every mask fine, is one pass
    // the compiler vectorises; only a bad array pays for finding the index.
    let bad = masks.iter().fold(false, |bad, &mask| {
        bad | (mask & !DECK_MASK != 0) | !matches!(mask.count_ones(), 10 | 11)
    });
    if !bad {
        return None;
    }
    masks.iter().enumerate().find_map(|(index, &mask)| {
        let past = mask & !DECK_MASK;
        if past != 0 {
            Some(MaskFault::BitPastDeck {
                index,
                bit: past.trailing_zeros(),
            })
        } else if !matches!(mask.count_ones(), 10 | 11) {
            Some(MaskFault::CardCount {
                index,
                cards: mask.count_ones(),
            })
        } else {
            None
        }
    })
}

/// The least deadwood of a checked mask: of the hand for 10 cards, and for
/// 11 cards of the ten left by the best discard.
///
/// Eleven cards take the least of [`min_deadwood`] over the eleven discards
/// (stopping at 0), which is exact by the definition in `docs/RULES.md` and
/// the cheapest route through the library's public API: `analyze_drawn_hand`
/// searches once but also builds the best discards' arrangements, with an
/// allocation per hand (a million random 11-card hands: 60 ms this way, 100 ms through
/// `analyze_drawn_hand`, release build on this machine).
#[inline]
pub fn deadwood(openspiel: u64, rules: &JokerRules) -> u16 {
    let hand = card_set(openspiel);
    let count = if hand.len() == 11 {
        let bits = hand.bits();
        let mut best = u32::MAX;
        let mut rest = bits;
        while rest != 0 && best != 0 {
            let card = rest & rest.wrapping_neg();
            rest &= rest - 1;
            best = best.min(min_deadwood(CardSet::from_bits(bits & !card), rules));
        }
        best
    } else {
        min_deadwood(hand, rules)
    };
    // At most 98 for ten cards.
    u16::try_from(count).unwrap_or(u16::MAX)
}

/// [`deadwood`] of every mask, in order.
pub fn deadwood_many(masks: &[u64], rules: &JokerRules) -> Vec<u16> {
    masks.iter().map(|&mask| deadwood(mask, rules)).collect()
}
