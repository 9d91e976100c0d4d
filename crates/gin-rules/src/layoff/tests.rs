//! The general path (the joker search) against the fast path (the joker-free
//! bitmask search) on hands and melds without jokers: the same reply, so
//! choosing the fast path changes nothing but the speed.

use proptest::prelude::*;

use super::natural;
use crate::card::CardSet;
use crate::deadwood::natural::best_arrangement;
use crate::hand::Hand;
use crate::jokers;
use crate::profile::JokerRules;
use crate::strategies::{config, distinct_cards};

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_joker_search_replies_as_the_fast_path(
        cards in distinct_cards(20),
        allowed in any::<bool>(),
    ) {
        let (knocker, defender) = cards.split_at(10);
        let knocker = CardSet::from_distinct(knocker.iter().copied()).unwrap();
        let defender = CardSet::from_distinct(defender.iter().copied()).unwrap();
        let melds = best_arrangement(knocker).melds;
        let fast: super::DefenderReply = natural::best_reply(&melds, defender, allowed).into();
        for rules in [JokerRules::NONE, JokerRules::TWO_JOKERS] {
            let general = jokers::best_reply(&melds, Hand::from(defender), &rules, allowed);
            prop_assert_eq!(general.arrangement.deadwood, fast.arrangement.deadwood);
            prop_assert_eq!(&general, &fast);
        }
    }
}
