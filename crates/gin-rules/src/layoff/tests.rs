//! The general path (the joker search) against the fast path (the joker-free
//! bitmask search) on hands and melds without jokers: the same melds, the
//! same cards laid off onto the same melds, the same count. The two list the
//! layoffs in different legal playing orders (the fast path wave by wave
//! outward from the knocker's runs, the joker search a run's lower end
//! first), so the order is compared as a set and each order is checked
//! playable; a joker-free hand always takes the fast path, so one order is
//! ever answered.

use proptest::prelude::*;

use super::{jokers, natural};
use crate::StandsFor;
use crate::card::CardSet;
use crate::deadwood::natural::best_arrangement;
use crate::hand::Hand;
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
        let fast = natural::best_reply(&melds, defender, allowed);
        // The cards laid off, as a set: where a card fits two knocker melds
        // (4C onto a set of fours and onto AC 2C 3C) the two searches may
        // choose different melds, both legal (each reply is played below).
        let by_card = |reply: &super::DefenderReply| {
            let mut laid: Vec<String> = reply.layoffs.iter().map(|l| l.card.to_string()).collect();
            laid.sort();
            laid
        };
        for rules in [JokerRules::NONE, JokerRules::TWO_JOKERS] {
            let general = jokers::best_reply(&melds, Hand::from(defender), &rules, allowed);
            prop_assert_eq!(&general.arrangement, &fast.arrangement);
            prop_assert_eq!(by_card(&general), by_card(&fast));
            for reply in [&general, &fast] {
                let declared = super::DeclaredReply {
                    melds: None,
                    jokers: StandsFor::default(),
                    layoffs: Some(reply.layoffs.iter().map(|&l| l.into()).collect()),
                };
                let played = super::declared_reply(&melds, defender, &declared, &rules, allowed);
                prop_assert!(played.is_ok(), "{:?}: {:?}", reply.layoffs, played);
            }
        }
    }
}
