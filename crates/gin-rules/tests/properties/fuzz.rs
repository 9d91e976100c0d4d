//! Fuzzing the referee with proptest: the card parser, card sets and meld
//! classification on arbitrary input, and the solvers on arbitrary legal hands.
//! Each property says "no panic" by running at all, and checks the invariants a
//! caller relies on (an arrangement covers exactly the hand, its melds are legal
//! and disjoint, layoffs replay, points add up).
//!
//! cargo-fuzz needs a nightly compiler; these run in the normal `cargo test` so
//! CI exercises them on every change. The case count comes from `FUZZ_CASES`
//! (default [`DEFAULT_CASES`], a few seconds in a debug build); a long campaign
//! is `scripts/fuzz.sh` (release build with debug assertions, a million cases).
//! The differential checks against a naive solver live with the solvers; here
//! the oracle is local optimality: no single meld taken out of the hand can do
//! better than the reported minimum.

use proptest::prelude::*;
use proptest::sample::subsequence;

use gin_rules::strategies::*;
use gin_rules::*;

/// The meld rules written out naively, sharing no code with `meld.rs`.
fn is_meld_naive(cards: CardSet) -> Option<MeldKind> {
    let list = cards.to_vec();
    if list.len() < 3 {
        return None;
    }
    if list.len() <= 4 && list.iter().all(|c| c.rank() == list[0].rank()) {
        return Some(MeldKind::Set);
    }
    let same_suit = list.iter().all(|c| c.suit() == list[0].suit());
    let mut ranks: Vec<u8> = list.iter().map(|c| c.rank().number()).collect();
    ranks.sort_unstable();
    let consecutive = ranks.windows(2).all(|w| w[1] == w[0] + 1);
    (same_suit && consecutive).then_some(MeldKind::Run)
}

/// Checks an arrangement of `hand`: legal, disjoint melds inside the hand, the
/// rest is the deadwood and its count is right.
fn assert_arrangement(hand: CardSet, melds: &[Meld], deadwood_cards: CardSet, deadwood: u32) {
    let mut melded = CardSet::EMPTY;
    for meld in melds {
        assert_eq!(
            Meld::try_from(meld.cards()).map(Meld::kind),
            Ok(meld.kind()),
            "{meld} is not the meld it claims to be"
        );
        assert_eq!(is_meld_naive(meld.cards()), Some(meld.kind()), "{meld}");
        assert!(meld.cards().is_disjoint(melded), "{meld} overlaps");
        assert!(meld.cards().is_subset(hand), "{meld} not in {hand}");
        melded = melded.union(meld.cards());
    }
    assert_eq!(
        deadwood_cards,
        hand.difference(melded),
        "deadwood of {hand}"
    );
    assert_eq!(deadwood, deadwood_cards.value(), "count of {hand}");
}

/// Card notation: every documented spelling of every rank and suit.
fn card_spelling() -> impl Strategy<Value = (String, Card)> {
    let ranks = prop_oneof![
        Just(("A", 1u8)),
        Just(("a", 1)),
        (2u8..=9).prop_map(|n| (
            ["2", "3", "4", "5", "6", "7", "8", "9"][usize::from(n) - 2],
            n
        )),
        Just(("T", 10)),
        Just(("t", 10)),
        Just(("10", 10)),
        Just(("J", 11)),
        Just(("j", 11)),
        Just(("Q", 12)),
        Just(("q", 12)),
        Just(("K", 13)),
        Just(("k", 13)),
    ];
    let suits = prop_oneof![
        (0usize..4).prop_map(|i| (["S", "H", "D", "C"][i], i)),
        (0usize..4).prop_map(|i| (["s", "h", "d", "c"][i], i)),
        (0usize..4).prop_map(|i| (["♠", "♥", "♦", "♣"][i], i)),
        (0usize..4).prop_map(|i| (["♤", "♡", "♢", "♧"][i], i)),
    ];
    (ranks, suits).prop_map(|((r, n), (s, i))| {
        let rank = Rank::new(n).unwrap_or(Rank::ACE);
        (format!("{r}{s}"), Card::new(rank, Suit::ALL[i]))
    })
}

proptest! {
    #![proptest_config(config())]

    /// Any string: parsing never panics, and whatever parses prints canonically
    /// and parses back to the same card. The same holds through serde.
    #[test]
    fn the_card_parser_takes_any_string(text in prop_oneof![
        any::<String>(),
        "\\PC{0,4}",
        "[0-9A-Za-z♠♥♦♣♤♡♢♧]{0,4}",
    ]) {
        let parsed = text.parse::<Card>();
        let json = serde_json::to_string(&text).unwrap_or_default();
        let via_serde = serde_json::from_str::<Card>(&json);
        prop_assert_eq!(parsed.as_ref().ok(), via_serde.as_ref().ok());
        if let Ok(card) = parsed {
            let canonical = card.to_string();
            prop_assert_eq!(canonical.len(), 2);
            prop_assert_eq!(canonical.parse::<Card>(), Ok(card));
            prop_assert_eq!(canonical.eq_ignore_ascii_case(&text), text.len() == 2 && text.is_ascii() && !text.starts_with("10"));
        } else {
            prop_assert!(!parsed.unwrap_err().to_string().is_empty());
        }
    }

    /// Every documented spelling parses to its card.
    #[test]
    fn every_documented_spelling_parses((text, card) in card_spelling()) {
        prop_assert_eq!(text.parse::<Card>(), Ok(card));
    }

    /// Arbitrary masks: bits outside the layout are dropped, and the size, value
    /// and iteration agree with each other.
    #[test]
    fn card_sets_from_any_mask(bits in any::<u64>()) {
        let set = CardSet::from_bits(bits);
        prop_assert!(set.is_subset(CardSet::FULL_DECK));
        let cards = set.to_vec();
        prop_assert_eq!(cards.len(), set.len());
        prop_assert!(cards.windows(2).all(|w| w[0] < w[1]), "canonical order");
        prop_assert_eq!(set.value(), cards.iter().map(|c| u32::from(c.value())).sum::<u32>());
        prop_assert_eq!(CardSet::from_distinct(cards.iter().copied()), Ok(set));
        for card in &cards {
            prop_assert!(set.contains(*card));
            prop_assert_eq!(CardSet::single(*card).bits().count_ones(), 1);
        }
    }

    /// Meld classification on any mask agrees with the naive rules, a failure
    /// always says why, and a meld's extensions are exactly the cards that keep
    /// it a meld.
    #[test]
    fn melds_from_any_mask(bits in prop_oneof![
        any::<u64>(),
        // Small sets are where melds are: 0 to 6 cards.
        subsequence(deck(), 0..=6).prop_map(|c| c.iter().fold(0u64, |b, c| b | 1 << c.bit_index())),
        // One suit only: runs, gaps and wrap-arounds.
        (0u32..4, any::<u16>()).prop_map(|(s, lane)| u64::from(lane & 0x1FFF) << (s * 16)),
    ]) {
        let cards = CardSet::from_bits(bits);
        match Meld::try_from(cards) {
            Ok(meld) => {
                prop_assert_eq!(is_meld_naive(cards), Some(meld.kind()));
                prop_assert_eq!(meld.cards(), cards);
                for card in CardSet::FULL_DECK.difference(cards) {
                    let grown = cards.union(CardSet::single(card));
                    prop_assert_eq!(
                        meld.extensions().contains(card),
                        Meld::try_from(grown).is_ok(),
                        "extension {} of {}", card, meld
                    );
                }
            }
            Err(problems) => {
                prop_assert_eq!(is_meld_naive(cards), None);
                prop_assert!(!problems.is_empty());
                prop_assert!(problems.iter().all(|p| !p.message.is_empty()));
            }
        }
    }

    /// Lists of cards as a client writes them, repeats included.
    #[test]
    fn melds_from_any_card_list(indices in proptest::collection::vec(0usize..52, 0..8)) {
        let all = deck();
        let list: Vec<Card> = indices.iter().map(|&i| all[i]).collect();
        let result = Meld::try_from(list.as_slice());
        let distinct = CardSet::from_distinct(list.iter().copied());
        match (&result, distinct) {
            (Ok(meld), Ok(set)) => prop_assert_eq!(meld.cards(), set),
            (Err(problems), Err(_)) => {
                prop_assert_eq!(problems[0].code, MeldProblemCode::DuplicateCard);
            }
            (Err(problems), Ok(set)) => {
                prop_assert_eq!(is_meld_naive(set), None);
                prop_assert!(!problems.is_empty());
            }
            (Ok(meld), Err(dup)) => prop_assert!(false, "{} accepted with {} twice", meld, dup.0),
        }
        let report = check_arrangement(&[list.clone(), list], None);
        prop_assert!(!report.is_valid() || report.melds.iter().all(|m| m.cards.is_empty()));
    }

    /// The deadwood solvers on any hand of up to 13 cards (10 and 11 are what the
    /// API sends; more cards mean more set choices): the three entry points
    /// agree, every arrangement is legal, and no meld removed from the hand
    /// leaves a better hand behind (local optimality).
    #[test]
    fn deadwood_solvers_agree_and_are_locally_optimal(
        hand in prop_oneof![hand_of(0..=13), meldy_hand(10), meldy_hand(11), meldy_hand(13)]
    ) {
        let min = min_deadwood(hand, &JokerRules::NONE);
        let best = best_arrangement(hand, &JokerRules::NONE);
        assert_arrangement(hand, &best.melds, best.deadwood_cards, best.deadwood);
        prop_assert_eq!(best.deadwood, min);
        // Every arrangement is listed for a hand (11 cards at most), none
        // for more cards.
        let all = optimal_arrangements(hand, &JokerRules::NONE);
        if hand.len() <= Hand::MAX_CARDS {
            prop_assert!(!all.is_empty());
            prop_assert_eq!(&all[0], &best);
            for arrangement in &all {
                assert_arrangement(hand, &arrangement.melds, arrangement.deadwood_cards, arrangement.deadwood);
                prop_assert_eq!(arrangement.deadwood, min);
            }
        } else {
            prop_assert!(all.is_empty());
        }
        for meld in melds_within(hand) {
            prop_assert!(meld.cards().is_subset(hand));
            prop_assert!(
                min <= min_deadwood(hand.difference(meld.cards()), &JokerRules::NONE),
                "melding {} in {} beats the minimum {}", meld, hand, min
            );
        }
    }

    /// An 11-card hand right after the draw: the discards listed are exactly
    /// those reaching the least deadwood, each with a legal arrangement.
    #[test]
    fn drawn_hands_list_exactly_the_best_discards(hand in prop_oneof![hand_of(11..=11), meldy_hand(11)]) {
        let analysis = analyze_drawn_hand(hand, &JokerRules::NONE);
        let by_discard: Vec<(Card, u32)> =
            hand.iter().map(|c| (c, min_deadwood(hand.difference(CardSet::single(c)), &JokerRules::NONE))).collect();
        let least = by_discard.iter().map(|&(_, d)| d).min().unwrap_or(0);
        prop_assert_eq!(analysis.deadwood, least);
        let expected: Vec<Card> = by_discard.iter().filter(|&&(_, d)| d == least).map(|&(c, _)| c).collect();
        let listed: Vec<Card> = analysis.discards.iter().filter_map(|d| d.card.natural()).collect();
        prop_assert_eq!(listed, expected);
        for discard in &analysis.discards {
            let kept = hand.difference(discard.card.natural().map(CardSet::single).unwrap_or_default());
            let a = &discard.arrangement;
            assert_arrangement(kept, &a.melds, a.deadwood_cards, a.deadwood);
        }
        prop_assert_eq!(analysis.big_gin, min_deadwood(hand, &JokerRules::NONE) == 0);
    }

    /// The defender's best reply to any knocker arrangement: its layoffs replay
    /// legally, its melds and deadwood cover exactly what is left, and it never
    /// does worse than melding alone.
    #[test]
    fn best_replies_are_legal_and_never_worse_than_no_layoffs(
        cards in prop_oneof![distinct_cards(20), meldy_hand(20).prop_map(|h| h.to_vec()).prop_shuffle()],
        allowed in any::<bool>(),
    ) {
        let (k, d) = cards.split_at(10);
        let knocker = CardSet::from_distinct(k.iter().copied()).unwrap_or_default();
        let defender = CardSet::from_distinct(d.iter().copied()).unwrap_or_default();
        prop_assume!(knocker.len() == 10 && defender.len() == 10);
        let melds = best_arrangement(knocker, &JokerRules::NONE).melds;
        let reply = best_reply(&melds, defender, &JokerRules::NONE, allowed);
        // The reply, declared back, is legal and scores the same.
        let checked = declared_reply(&melds, defender, &declared(&reply), &JokerRules::NONE, allowed);
        prop_assert_eq!(checked.as_ref(), Ok(&reply));
        let laid = CardSet::from_distinct(reply.layoffs.iter().filter_map(|l| l.card.natural())).unwrap_or_default();
        prop_assert_eq!(laid.len(), reply.layoffs.len());
        let own = &reply.arrangement;
        assert_arrangement(defender.difference(laid), &own.melds, own.deadwood_cards, reply.deadwood());
        prop_assert!(reply.deadwood() <= min_deadwood(defender, &JokerRules::NONE));
        prop_assert!(allowed || reply.layoffs.is_empty());
    }

    /// Whole hands under every preset: no panic whatever the cards, and a scored
    /// hand adds up (points from the breakdown, the winner from the counts).
    #[test]
    fn scoring_any_deal_under_any_preset(
        cards in deal(),
        preset in proptest::sample::select(Preset::ALL.to_vec()),
        with_upcard in any::<bool>(),
        declare in 0u8..4,
        layoff_noise in prop_oneof![
            3 => Just(Vec::new()),
            1 => proptest::collection::vec((0usize..52, 0usize..5), 1..4),
        ],
    ) {
        let (knocker_cards, defender_cards, upcard) = cards;
        let profile = preset.profile();
        let upcard = upcard.filter(|_| with_upcard);
        let knocker_set = CardSet::from_distinct(knocker_cards.iter().copied()).unwrap_or_default();
        let defender_set = CardSet::from_distinct(defender_cards.iter().copied()).unwrap_or_default();
        let declared_knocker = (declare & 1 != 0).then(|| {
            best_arrangement(knocker_set, &JokerRules::NONE).melds.iter().map(|m| m.shown().collect()).collect::<Vec<_>>()
        });
        let declared_defender = (declare & 2 != 0).then(|| {
            best_arrangement(defender_set, &JokerRules::NONE).melds.iter().map(|m| m.shown().collect()).collect::<Vec<_>>()
        });
        let all = deck();
        let layoffs = (!layoff_noise.is_empty()).then(|| {
            layoff_noise.iter().map(|&(c, meld)| DeclaredLayoff { card: all[c].into(), stands_for: None, meld: Some(meld) }).collect::<Vec<_>>()
        });
        let knocker = KnockerHand { melds: declared_knocker, ..KnockerHand::of_cards(knocker_cards) };
        let defender = DefenderHand { melds: declared_defender, layoffs, ..DefenderHand::of_cards(defender_cards) };
        let scored = score_hand(&profile, upcard, &knocker, &defender);
        if std::env::var_os("FUZZ_STATS").is_some() {
            eprintln!("FUZZSTAT {}", scored.as_ref().map_or_else(|e| format!("{e:?}").split([' ', '(', '{']).next().unwrap_or_default().to_owned(), |_| "ok".to_owned()));
        }
        match scored {
            Ok(score) => {
                let s = score.settlement;
                let b = s.breakdown;
                prop_assert_eq!(
                    s.points,
                    (b.deadwood_difference + b.gin_bonus + b.big_gin_bonus + b.undercut_bonus) * b.multiplier
                );
                let k = &score.showdown.knocker;
                assert_arrangement(knocker_set, &k.melds, k.deadwood_cards, k.deadwood);
                prop_assert!(k.deadwood <= score.showdown.knock_limit);
                let d = &score.showdown.defender;
                let checked = declared_reply(&k.melds, defender_set, &declared(d), &JokerRules::NONE, true);
                prop_assert!(checked.is_ok(), "{:?}", checked);
                prop_assert_eq!(d.deadwood(), d.arrangement.deadwood_cards.value());
                let knocker_wins = k.deadwood == 0
                    || k.deadwood < d.deadwood()
                    || (k.deadwood == d.deadwood() && !profile.tie_is_undercut());
                prop_assert_eq!(s.winner == Side::Knocker, knocker_wins, "{:?}", s);
                prop_assert_eq!(s.outcome == Outcome::Gin || s.outcome == Outcome::BigGin, k.deadwood == 0);
            }
            Err(error) => {
                prop_assert!(!error.to_string().is_empty());
                if knocker.melds.is_none() && defender.melds.is_none() && defender.layoffs.is_none()
                    && knocker_set.len() == 10 && upcard.is_some()
                {
                    // A clean 10-card knock only fails when it is over the limit.
                    let limit = profile.knock_limit_for(upcard).unwrap_or(0);
                    prop_assert!(
                        matches!(error, HandError::KnockOverLimit { .. }) && min_deadwood(knocker_set, &JokerRules::NONE) > limit,
                        "{:?}", error
                    );
                }
            }
        }
    }
}

/// A reply as the defender would declare it: its melds and its layoffs.
fn declared(reply: &DefenderReply) -> DeclaredReply {
    DeclaredReply {
        melds: Some(
            reply
                .arrangement
                .melds
                .iter()
                .map(|m| m.shown().collect())
                .collect(),
        ),
        jokers: StandsFor::default(),
        layoffs: Some(reply.layoffs.iter().map(|&l| l.into()).collect()),
    }
}
