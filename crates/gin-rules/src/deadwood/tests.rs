//! The general path (the joker search) against the fast path (the joker-free
//! bitmask solver) on hands without jokers: the same answer for every
//! operation, so choosing the fast path changes nothing but the speed.

use proptest::prelude::*;

use super::{jokers, natural};
use crate::card::CardSet;
use crate::hand::Hand;
use crate::profile::JokerRules;
use crate::strategies::{config, hand_of, meldy_hand};

/// Rules with jokers in the deck: on a hand without one they must change
/// nothing either.
fn rules() -> [JokerRules; 2] {
    [JokerRules::NONE, JokerRules::TWO_JOKERS]
}

fn same_on_both_paths(cards: CardSet) -> Result<(), TestCaseError> {
    let hand = Hand::from(cards);
    for rules in rules() {
        prop_assert_eq!(
            jokers::min_deadwood(hand, &rules),
            natural::min_deadwood(cards)
        );
        prop_assert_eq!(
            jokers::best_arrangement(hand, &rules),
            natural::best_arrangement(cards)
        );
        if cards.len() <= Hand::MAX_CARDS {
            prop_assert_eq!(
                jokers::optimal_arrangements(hand, &rules),
                natural::optimal_arrangements(cards)
            );
        }
        if cards.len() == 11 {
            prop_assert_eq!(
                jokers::analyze_drawn_hand(hand, &rules),
                natural::analyze_drawn_hand(cards)
            );
        }
        let blocked = CardSet::from_bits(cards.bits() & 0x5555_5555_5555_5555);
        prop_assert_eq!(
            jokers::min_deadwood_avoiding(hand, &rules, blocked),
            super::min_deadwood_avoiding(cards, &rules, blocked)
        );
        prop_assert_eq!(
            jokers::best_arrangement_avoiding(hand, &rules, blocked),
            super::best_arrangement_avoiding(cards, &rules, blocked)
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_joker_search_agrees_with_the_fast_path_on_random_hands(cards in hand_of(10..=11)) {
        same_on_both_paths(cards)?;
    }

    #[test]
    fn the_joker_search_agrees_with_the_fast_path_on_dense_hands(cards in meldy_hand(11)) {
        same_on_both_paths(cards)?;
    }
}
