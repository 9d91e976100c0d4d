//! `analyze_drawn_hand` against the straightforward computation it replaced:
//! `min_deadwood` of each of the eleven ten-card hands left by a discard, the
//! discards reaching the least count in canonical order, `best_arrangement` of
//! each, and big gin when all eleven cards meld. The engine's analysis searches
//! the eleven cards once; this reference is the definition, written with the
//! public API only, and the two must agree exactly (the whole
//! `DrawnHandAnalysis`, arrangements included) on every hand.

use proptest::prelude::*;
use proptest::sample::subsequence;

use gin_rules::{
    CardSet, Discard, DrawnHandAnalysis, JokerRules, analyze_drawn_hand, best_arrangement,
    min_deadwood,
};

use crate::oracle::cases;

/// The analysis as it was first written: one ten-card solve per discard.
fn reference_analysis(hand: CardSet) -> DrawnHandAnalysis {
    let mut best = u32::MAX;
    let mut cards = Vec::new();
    for card in hand {
        let count = min_deadwood(hand.difference(CardSet::single(card)), &JokerRules::NONE);
        if count < best {
            best = count;
            cards.clear();
        }
        if count == best {
            cards.push(card);
        }
    }
    let discards = cards
        .into_iter()
        .map(|card| Discard {
            card: card.into(),
            arrangement: best_arrangement(
                hand.difference(CardSet::single(card)),
                &JokerRules::NONE,
            ),
        })
        .collect();
    DrawnHandAnalysis {
        deadwood: best,
        discards,
        big_gin: hand.len() == 11 && min_deadwood(hand, &JokerRules::NONE) == 0,
    }
}

fn assert_same_as_reference(hand: CardSet) {
    assert_eq!(
        analyze_drawn_hand(hand, &JokerRules::NONE),
        reference_analysis(hand),
        "{hand}"
    );
}

fn bits_of(cards: &[(u8, u8)]) -> CardSet {
    // (rank 1..=13, suit 0..4) in the CardSet layout: suit * 16 + rank - 1.
    CardSet::from_bits(cards.iter().fold(0u64, |acc, &(rank, suit)| {
        acc | 1 << (u32::from(suit) * 16 + u32::from(rank) - 1)
    }))
}

fn deck() -> Vec<(u8, u8)> {
    (0..4u8)
        .flat_map(|suit| (1..=13u8).map(move |rank| (rank, suit)))
        .collect()
}

/// Any `len` cards of the deck.
fn random_hand(len: usize) -> impl Strategy<Value = CardSet> {
    subsequence(deck(), len).prop_map(|cards| bits_of(&cards))
}

/// `len` cards out of 3-5 adjacent ranks in all four suits: sets and runs
/// overlap on almost every card.
fn few_ranks(len: usize) -> impl Strategy<Value = CardSet> {
    (3u8..=5)
        .prop_flat_map(|width| (Just(width), 1..=14 - width))
        .prop_flat_map(move |(width, low)| {
            let pool: Vec<(u8, u8)> = (low..low + width)
                .flat_map(|rank| (0..4).map(move |suit| (rank, suit)))
                .collect();
            subsequence(pool, len.min(width as usize * 4))
        })
        .prop_map(|cards| bits_of(&cards))
}

/// `len` cards out of 2-3 suits and 5-8 adjacent ranks: long runs, runs that
/// share ranks (hence sets of three across them) and cards that bridge blocks.
fn few_suits(len: usize) -> impl Strategy<Value = CardSet> {
    (
        proptest::sample::subsequence(vec![0u8, 1, 2, 3], 2..=3),
        5u8..=8,
    )
        .prop_flat_map(|(suits, width)| (Just(suits), Just(width), 1..=14 - width))
        .prop_flat_map(move |(suits, width, low)| {
            let pool: Vec<(u8, u8)> = suits
                .iter()
                .flat_map(|&suit| (low..low + width).map(move |rank| (rank, suit)))
                .collect();
            let take = len.min(pool.len());
            subsequence(pool, take)
        })
        .prop_map(|cards| bits_of(&cards))
}

/// A few whole ranks (3 or 4 cards) and runs crossing them, topped up with
/// random cards: the hands where a discard breaks a set or splits a run.
fn sets_and_runs(len: usize) -> impl Strategy<Value = CardSet> {
    (
        proptest::collection::vec((1u8..=13, 0u8..5), 1..=3),
        proptest::collection::vec((0u8..4, 1u8..=11, 3u8..=6), 0..=2),
        subsequence(deck(), 11).prop_shuffle(),
    )
        .prop_map(move |(sets, runs, noise)| {
            let mut cards = Vec::new();
            for (rank, missing) in sets {
                // All four suits, or all but one.
                cards.extend((0..4u8).filter(|&s| s != missing).map(|s| (rank, s)));
            }
            for (suit, low, n) in runs {
                cards.extend((low..(low + n).min(14)).map(|rank| (rank, suit)));
            }
            let mut hand = CardSet::EMPTY;
            for card in cards.into_iter().chain(noise) {
                if hand.len() >= len {
                    break;
                }
                hand = hand.union(bits_of(&[card]));
            }
            hand
        })
}

fn eleven_cards() -> impl Strategy<Value = CardSet> {
    prop_oneof![
        random_hand(11),
        few_ranks(11),
        few_suits(11),
        sets_and_runs(11)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(20_000)))]

    /// Eleven cards: random, from few ranks, from few suits, and built around
    /// sets and runs.
    #[test]
    fn drawn_hand_analysis_equals_the_per_discard_reference(hand in eleven_cards()) {
        assert_same_as_reference(hand);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(3000)))]

    /// Other sizes (the function takes any card set): the same definition,
    /// including the empty hand (no discard, `u32::MAX`).
    #[test]
    fn drawn_hand_analysis_equals_the_reference_for_any_size(
        hand in (0usize..=14).prop_flat_map(|n| prop_oneof![random_hand(n), few_ranks(n), few_suits(n)])
    ) {
        assert_same_as_reference(hand);
    }
}

/// Every 11-card hand out of three or four adjacent ranks in all suits (12 and
/// 4 368 hands per window; 43 812 in all): the densest overlaps of sets and
/// runs there are.
#[test]
fn every_eleven_card_hand_from_three_or_four_adjacent_ranks_equals_the_reference() {
    let mut checked = 0;
    for width in 3..=4u8 {
        for low in 1..=14 - width {
            let pool: Vec<(u8, u8)> = (low..low + width)
                .flat_map(|rank| (0..4).map(move |suit| (rank, suit)))
                .collect();
            for subset in 0u32..1 << pool.len() {
                if subset.count_ones() != 11 {
                    continue;
                }
                let cards: Vec<(u8, u8)> = pool
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| subset >> i & 1 == 1)
                    .map(|(_, &c)| c)
                    .collect();
                assert_same_as_reference(bits_of(&cards));
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 11 * 12 + 10 * 4368);
}

/// Every 11-card hand out of three suits over five adjacent ranks (C(15, 11) =
/// 1 365 per window and choice of suits, 9 windows, 4 choices: 49 140 hands):
/// runs side by side, sets of three across them, and discards in the middle
/// of blocks.
#[test]
fn every_eleven_card_hand_from_three_suits_and_five_ranks_equals_the_reference() {
    let mut checked = 0;
    for missing in 0..4u8 {
        for low in 1..=9u8 {
            let pool: Vec<(u8, u8)> = (0..4u8)
                .filter(|&suit| suit != missing)
                .flat_map(|suit| (low..low + 5).map(move |rank| (rank, suit)))
                .collect();
            for subset in 0u32..1 << pool.len() {
                if subset.count_ones() != 11 {
                    continue;
                }
                let cards: Vec<(u8, u8)> = pool
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| subset >> i & 1 == 1)
                    .map(|(_, &c)| c)
                    .collect();
                assert_same_as_reference(bits_of(&cards));
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 4 * 9 * 1365);
}

/// Hands that need each discard the search's option lists do not reach
/// directly (see `best_discards` in `deadwood.rs`): breaking a set no run can
/// use, leaving a 4-card set's fourth card out, and breaking a 4-card set
/// whose one run card then melds in its run. None of them can be a best
/// discard of eleven cards for the first and last, so the hands are smaller.
#[test]
fn discards_that_break_a_set_are_found() {
    for (hand, deadwood, discards) in [
        // Three aces no run can use beside a run of three: an ace goes, the
        // other two are 2; any run card costs more.
        ("AS AH AD 5C 6C 7C", 2, "AS AH AD"),
        // Four kings no run can use and two runs: a king goes for nothing, as
        // does either end of 2-3-4-5C.
        ("KS KH KD KC 2C 3C 4C 5C 6D 7D 8D", 0, "KS KH KD 2C 5C KC"),
        // Four aces, the ace of clubs in A-2-3C: 3C goes (the four aces and 2C
        // left), or an ace other than AC, the run A-2-3C kept (two aces left).
        ("AS AH AD AC 2C 3C 7H 8H 9H", 2, "AS AH AD 3C"),
    ] {
        let hand = gin_rules::cards(hand).unwrap();
        let analysis = analyze_drawn_hand(hand, &JokerRules::NONE);
        assert_eq!(analysis, reference_analysis(hand), "{hand}");
        assert_eq!(analysis.deadwood, deadwood, "{hand}");
        let listed: Vec<String> = analysis
            .discards
            .iter()
            .map(|d| d.card.to_string())
            .collect();
        assert_eq!(listed.join(" "), discards, "{hand}");
    }
}
