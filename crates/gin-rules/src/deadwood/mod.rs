//! Optimal deadwood: the least count of a hand over every arrangement of
//! disjoint melds, the arrangements reaching it, and the best discards right
//! after the draw. One entry per question, for any [`Hand`], jokers or not.
//!
//! # Two solvers, one answer
//!
//! A hand without a joker is solved by the joker-free bitmask solver
//! (`natural`: a search over the set choices, runs read from per-suit
//! tables, tens of nanoseconds a hand). A hand holding a joker is solved by
//! the joker search (`jokers`), which places each joker's meld and
//! hands the rest of the hand to the joker-free solver. Which one runs is
//! decided by [`Hand::joker_free`], here and nowhere else in this module; the
//! joker search gives the same answers on joker-free hands (the property
//! tests in `tests.rs` hold it to that for every operation), so the choice
//! is only one of speed.

pub(crate) mod arrangement;
pub(crate) mod jokers;
pub(crate) mod natural;
#[cfg(test)]
mod tests;

use crate::card::CardSet;
use crate::hand::Hand;
use crate::meld::Meld;
use crate::profile::JokerRules;

pub use arrangement::{Arrangement, Discard, DrawnHandAnalysis};

/// The least count of a hand: the least, over every arrangement, of the
/// natural cards' values left out plus the rules' `joker_deadwood` per joker
/// left out. For a hand without jokers the rules play no part
/// ([`JokerRules::NONE`] will do).
///
/// ```
/// use gin_rules::{cards, min_deadwood, parse_hand, JokerRules};
/// // The seven of hearts goes to the heart run; the other sevens still meld.
/// assert_eq!(min_deadwood(cards("7S 7H 7D 7C 8H 9H KS QD 2C 3D")?, &JokerRules::NONE), 25);
/// // X1 bridges 5H and 7H; KS and 2C stay out.
/// assert_eq!(min_deadwood(parse_hand("5H X1 7H KS 2C")?, &JokerRules::TWO_JOKERS), 12);
/// // A joker left out counts 15: better to have it stand for the ace, which
/// // then counts 1, in a run that cannot grow.
/// let spades = parse_hand("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS X1")?;
/// assert_eq!(min_deadwood(spades, &JokerRules::TWO_JOKERS), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[inline]
pub fn min_deadwood(hand: impl Into<Hand>, rules: &JokerRules) -> u32 {
    let hand = hand.into();
    match hand.joker_free() {
        Some(cards) => natural::min_deadwood(cards),
        None => jokers::min_deadwood(hand, rules),
    }
}

/// [`min_deadwood`] where no meld may show a card of `blocked` (cards
/// already on the table): held cards of `blocked` are deadwood.
pub fn min_deadwood_avoiding(hand: impl Into<Hand>, rules: &JokerRules, blocked: CardSet) -> u32 {
    let hand = hand.into();
    match hand.joker_free() {
        Some(cards) => {
            natural::min_deadwood(cards.difference(blocked)) + cards.intersection(blocked).value()
        }
        None => jokers::min_deadwood_avoiding(hand, rules, blocked),
    }
}

/// One arrangement reaching [`min_deadwood`]: the first in the order of
/// [`optimal_arrangements`] (with jokers, the order the joker search's
/// module docs give, "Which card a joker stands for").
///
/// ```
/// use gin_rules::{best_arrangement, cards, parse_hand, Joker, JokerRules};
/// let best = best_arrangement(cards("7S 7H 7D 7C 8H 9H KS QD 2C 3D")?, &JokerRules::NONE);
/// assert_eq!((best.melds.len(), best.deadwood), (2, 25));
/// let best = best_arrangement(parse_hand("5H 6H X1 KS")?, &JokerRules::TWO_JOKERS);
/// assert_eq!(best.deadwood, 10);
/// // The joker extends the run upwards.
/// assert_eq!(best.melds[0].stands_for(Joker::X1).map(|c| c.to_string()), Some("7H".into()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn best_arrangement(hand: impl Into<Hand>, rules: &JokerRules) -> Arrangement {
    let hand = hand.into();
    match hand.joker_free() {
        Some(cards) => natural::best_arrangement(cards),
        None => jokers::best_arrangement(hand, rules),
    }
}

/// [`best_arrangement`] where no meld may show a card of `blocked`: held
/// cards of `blocked` are deadwood.
pub fn best_arrangement_avoiding(
    hand: impl Into<Hand>,
    rules: &JokerRules,
    blocked: CardSet,
) -> Arrangement {
    let hand = hand.into();
    match hand.joker_free() {
        Some(cards) => {
            let forced = cards.intersection(blocked);
            let mut best = natural::best_arrangement(cards.difference(blocked));
            best.deadwood_cards = best.deadwood_cards.union(forced);
            best.deadwood += forced.value();
            best
        }
        None => jokers::best_arrangement_avoiding(hand, rules, blocked),
    }
}

/// Every arrangement reaching [`min_deadwood`], each once, in a fixed order:
/// the order of the set choices (ranks ascending; whole set, then sets
/// leaving out one card, then no set); with jokers, every choice of the cards
/// they stand for and each order of `X1` and `X2`. A block of consecutive
/// cards is reported as one run, not as the shorter runs it could be cut
/// into, since the cut changes neither the count nor what can be laid off.
///
/// Bound: a hand of more than [`Hand::MAX_CARDS`] cards lists nothing. Eleven
/// cards hold at most three ranks of three or more, each with at most six
/// options, so at most 216 set choices and as many joker-free arrangements.
///
/// ```
/// use gin_rules::{cards, optimal_arrangements, JokerRules};
/// // 6H joins the four sixes or bridges two heart runs: gin either way.
/// let all = optimal_arrangements(cards("6S 6D 6C 6H 3H 4H 5H 7H 8H 9H")?, &JokerRules::NONE);
/// assert_eq!(all.len(), 2);
/// assert!(all.iter().all(|a| a.deadwood == 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn optimal_arrangements(hand: impl Into<Hand>, rules: &JokerRules) -> Vec<Arrangement> {
    let hand = hand.into();
    if hand.len() > Hand::MAX_CARDS {
        return Vec::new();
    }
    match hand.joker_free() {
        Some(cards) => natural::optimal_arrangements(cards),
        None => jokers::optimal_arrangements(hand, rules),
    }
}

/// Analyses a hand right after the draw: every discard reaching the least
/// count of the cards kept, each with the [`best_arrangement`] of those, and
/// whether all its cards meld (big gin).
///
/// ```
/// use gin_rules::{analyze_drawn_hand, cards, parse_hand, JokerRules};
/// // With 2, 6 and 9 as deadwood, discarding the 9 leaves 8.
/// let drawn = analyze_drawn_hand(cards("3S 4S 5S 6S KS KH KD KC 2D 6C 9C")?, &JokerRules::NONE);
/// assert_eq!((drawn.deadwood, drawn.discards.len(), drawn.big_gin), (8, 1, false));
/// assert_eq!(drawn.discards[0].card.to_string(), "9C");
/// let hand = parse_hand("5H 6H 7H 9S 9D KC KD X1 X2 2C 3D")?;
/// let drawn = analyze_drawn_hand(hand, &JokerRules::TWO_JOKERS);
/// assert_eq!((drawn.deadwood, drawn.discards[0].card.to_string()), (2, "3D".to_string()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[inline]
pub fn analyze_drawn_hand(hand: impl Into<Hand>, rules: &JokerRules) -> DrawnHandAnalysis {
    let hand = hand.into();
    match hand.joker_free() {
        Some(cards) => natural::analyze_drawn_hand(cards),
        None => jokers::analyze_drawn_hand(hand, rules),
    }
}

/// Every meld that can be formed from the cards (each sub-run of a run and each
/// 3-card subset of a set included), sets first then runs, ordered as
/// [`Meld`]'s `Ord`. The candidates a knocker may declare.
pub fn melds_within(hand: CardSet) -> Vec<Meld> {
    natural::melds_within(hand)
}
