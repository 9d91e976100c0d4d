//! Proptest strategies for Gin hands and deals, for property tests of this
//! crate and of programs built on it (feature `proptest`).

use proptest::prelude::*;
use proptest::sample::subsequence;
use proptest::test_runner::{Config, FileFailurePersistence};

use crate::{Card, CardSet};

/// Cases per property when `FUZZ_CASES` is not set.
pub const DEFAULT_CASES: u32 = 256;

/// The shared proptest configuration: `FUZZ_CASES` cases, failures persisted
/// next to this file (`proptest-regressions/`) so a found crash is replayed first.
pub fn config() -> Config {
    let cases = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_CASES);
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::SourceParallel(
            "proptest-regressions",
        ))),
        ..Config::default()
    }
}

/// All 52 cards in canonical order.
pub fn deck() -> Vec<Card> {
    Card::deck().collect()
}

/// `n` distinct cards in a random order (the whole deck when `n` is 52 or more).
pub fn distinct_cards(n: usize) -> impl Strategy<Value = Vec<Card>> {
    Just(deck())
        .prop_shuffle()
        .prop_map(move |d| d.into_iter().take(n).collect())
}

/// Hands of `n` distinct cards (a range of sizes), uniformly chosen.
pub fn hand_of(n: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = CardSet> {
    subsequence(deck(), n).prop_map(|cards| CardSet::from_distinct(cards).unwrap_or_default())
}

/// Hands biased towards melds: a few whole ranks and runs plus random cards, so
/// sets, 4-card sets, long runs and their overlaps are common, not rare.
pub fn meldy_hand(max: usize) -> impl Strategy<Value = CardSet> {
    (
        proptest::collection::vec((1u8..=13, 0u64..16), 0..=3),
        proptest::collection::vec((0u32..4, 1u8..=11, 3u8..=6), 0..=3),
        distinct_cards(max),
        any::<bool>(),
    )
        .prop_map(move |(sets, runs, mut noise, low)| {
            if low {
                // Low cards first: hands that can knock.
                noise.sort_by_key(|c| c.value());
            }
            let mut bits = 0u64;
            for (rank, suits) in sets {
                for suit in 0..4 {
                    if suits & (1 << suit) != 0 || suits == 0 {
                        bits |= 1 << (suit * 16 + u32::from(rank) - 1);
                    }
                }
            }
            for (suit, low, len) in runs {
                for rank in low..(low + len).min(14) {
                    bits |= 1 << (suit * 16 + u32::from(rank) - 1);
                }
            }
            let mut hand = CardSet::from_bits(bits);
            // Top up with random cards, or trim, to exactly `max` cards.
            for card in noise {
                if hand.len() >= max {
                    break;
                }
                hand.insert(card);
            }
            while let Some(last) = hand.iter().last().filter(|_| hand.len() > max) {
                hand.remove(last);
            }
            hand
        })
}

/// A knocker's hand (usually 10 or 11 cards, biased towards melds so that
/// knocks within the limit are common), the defender's 10 cards and an upcard,
/// all distinct.
pub fn deal() -> impl Strategy<Value = (Vec<Card>, Vec<Card>, Option<Card>)> {
    let knocker = prop_oneof![
        3 => meldy_hand(10),
        1 => meldy_hand(11),
        1 => hand_of(10..=10),
        1 => hand_of(0..=13),
    ];
    (knocker, Just(deck()).prop_shuffle()).prop_map(|(knocker, shuffled)| {
        let mut rest = shuffled.into_iter().filter(|c| !knocker.contains(*c));
        let defender: Vec<Card> = rest.by_ref().take(10).collect();
        let upcard = rest.next();
        let mut knocker = knocker.to_vec();
        knocker.reverse();
        (knocker, defender, upcard)
    })
}
