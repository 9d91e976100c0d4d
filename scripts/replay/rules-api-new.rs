//! The calls into gin-rules of scripts/replay/rules-instructions.sh at the
//! one API (a hand of any cards, with the joker rules: JokerRules::NONE for
//! a joker-free hand, which takes the fast path).

// ---- BEGIN gin-rules API ------------------------------------------------------
pub use gin_rules::Card;
/// A 10- or 11-card hand, as the solver takes it.
pub type Hand = gin_rules::CardSet;

/// The 52 cards in the order `CardSet::FULL_DECK.to_vec()` gives (the
/// bench's pool: the same order keeps the same random hands).
pub fn full_deck() -> Vec<Card> {
    gin_rules::CardSet::FULL_DECK.to_vec()
}

/// A card's rank as a number, ace 1 to king 13.
pub fn rank_number(card: Card) -> u8 {
    card.rank().number()
}

pub fn hand(cards: impl Iterator<Item = Card>) -> Hand {
    cards.fold(gin_rules::CardSet::EMPTY, |set, card| set.union(card.into()))
}

#[allow(clippy::expect_used)]
pub fn parse(text: &str) -> Hand {
    gin_rules::cards(text).expect("a valid hand")
}

/// The minimum deadwood of 10 cards.
pub fn min_deadwood(hand: Hand) -> u32 {
    gin_rules::min_deadwood(hand, &gin_rules::JokerRules::NONE)
}

/// The 11-card analysis; returns something that depends on the whole answer
/// (as the bench does: the number of best discards).
pub fn analyze_drawn_hand(hand: Hand) -> usize {
    gin_rules::analyze_drawn_hand(hand, &gin_rules::JokerRules::NONE).discards.len()
}
// ---- END gin-rules API --------------------------------------------------------
