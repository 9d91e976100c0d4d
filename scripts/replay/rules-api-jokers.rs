//! The calls into gin-rules of scripts/replay/rules-instructions.sh with
//! jokers: the bench's hands with their lowest cards replaced by jokers, under
//! the `jokers` preset's rules, for the joker search's own cost per hand.
//!
//!   RULES_API=scripts/replay/rules-api-jokers.rs scripts/replay/rules-instructions.sh CHECKOUT
//!   JOKERS=1 RULES_API=... (one joker, X1; the default is two, X1 and X2)
//!
//! A hand keeps its size: its lowest one or two cards (in the deck's order)
//! become X1 (and X2), so the random hands hit the per-lane tables and the
//! adversarial ones (dense in three or four ranks, three ranks of three) the
//! footprint search. The lane tables are built on first use (about 10 ms):
//! `full_deck`, which both runs of a kind call before anything is counted,
//! builds them, so that the difference of the two runs is the search alone.

// ---- BEGIN gin-rules API ------------------------------------------------------
use std::sync::OnceLock;

pub use gin_rules::Card;
use gin_rules::{CardSet, Joker, JokerRules, Preset};
/// A 10- or 11-card hand, jokers included.
pub type Hand = gin_rules::Hand;

fn rules() -> &'static JokerRules {
    static RULES: OnceLock<JokerRules> = OnceLock::new();
    RULES.get_or_init(|| Preset::Jokers.profile().joker_rules())
}

/// The 52 cards in the order `CardSet::FULL_DECK.to_vec()` gives (the
/// bench's pool: the same order keeps the same random hands). Also builds
/// the lane tables, outside what is counted.
pub fn full_deck() -> Vec<Card> {
    for hand in ["2S 5H 9D KC 7S X1 X2 3H 8C JD", "4S 5S 4H 5H 4D 5D 6D 4C X1 X2"] {
        if let Ok(hand) = gin_rules::parse_hand(hand) {
            std::hint::black_box(gin_rules::min_deadwood(hand, rules()));
        }
    }
    CardSet::FULL_DECK.to_vec()
}

/// A card's rank as a number, ace 1 to king 13.
pub fn rank_number(card: Card) -> u8 {
    card.rank().number()
}

/// The cards with the lowest one or two (`JOKERS`, default 2) replaced by
/// jokers.
pub fn hand(cards: impl Iterator<Item = Card>) -> Hand {
    let set = cards.fold(CardSet::EMPTY, |set, card| set.union(card.into()));
    let jokers = match std::env::var("JOKERS").as_deref() {
        Ok("1") => &[Joker::X1][..],
        _ => &[Joker::X1, Joker::X2][..],
    };
    let lowest: Vec<Card> = set.to_vec().into_iter().take(jokers.len()).collect();
    let naturals = lowest.iter().fold(set, |set, &card| set.difference(card.into()));
    Hand::new(naturals, jokers)
}

#[allow(clippy::expect_used)]
pub fn parse(text: &str) -> Hand {
    let set = gin_rules::cards(text).expect("a valid hand");
    hand(set.to_vec().into_iter())
}

/// The minimum deadwood of 10 cards.
pub fn min_deadwood(hand: Hand) -> u32 {
    gin_rules::min_deadwood(hand, rules())
}

/// The 11-card analysis; returns something that depends on the whole answer
/// (as the bench does: the number of best discards).
pub fn analyze_drawn_hand(hand: Hand) -> usize {
    gin_rules::analyze_drawn_hand(hand, rules()).discards.len()
}
// ---- END gin-rules API --------------------------------------------------------
