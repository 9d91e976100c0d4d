//! Property tests: totals are the sum of their parts, and a card hand scores
//! the same match as the counts it produces.

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::super::*;
use crate::card::{CardSet, Rank, Suit};
use crate::deadwood::min_deadwood;
use crate::profile::JokerRules;
use crate::profile::{
    BoxBonusTiming, Preset, ProfileOverrides, Settlement, ShutoutRule, ShutoutTest,
};
use crate::score::score_hand;

fn names() -> Players<String> {
    Players::new("Ann".into(), "Bob".into())
}

fn deck() -> Vec<Card> {
    Card::deck().collect()
}

/// Any profile: every preset, with the match parameters varied.
fn any_profile() -> impl Strategy<Value = Profile> {
    (
        prop::sample::select(Preset::ALL.to_vec()),
        prop::sample::select(vec![BoxBonusTiming::EndOfGame, BoxBonusTiming::EachHand]),
        prop::sample::select(vec![
            ShutoutRule::DoubleHandPointsAndGameBonus,
            ShutoutRule::DoubleTotal,
            ShutoutRule::FlatBonus,
            ShutoutRule::DoubleGameBonus,
        ]),
        prop::sample::select(vec![ShutoutTest::ScoredNothing, ShutoutTest::WonNoHand]),
        prop::sample::select(vec![
            Settlement::TotalsAndNet,
            Settlement::WinnerScoresDifference,
        ]),
        any::<bool>(),
        any::<bool>(),
        30u32..=160,
        prop::option::of(0u32..=60),
    )
        .prop_map(
            |(base, timing, shutout, test, settlement, hollywood, ties, target, big_gin)| {
                ProfileOverrides {
                    base: Some(base),
                    box_bonus_timing: Some(timing),
                    shutout: Some(shutout),
                    shutout_bonus: (shutout == ShutoutRule::FlatBonus).then_some(100),
                    shutout_test: Some(test),
                    settlement: Some(settlement),
                    hollywood: Some(hollywood),
                    tie_is_undercut: Some(ties),
                    target: Some(target),
                    big_gin_bonus: Some(big_gin),
                    ..ProfileOverrides::default()
                }
                .resolve()
                .expect("every generated profile is valid")
            },
        )
}

/// Raw material for a count hand; [`count_hand`] fits it to the profile.
type RawHand = (u8, usize, u32, u32, usize, bool);

fn raw_hands() -> impl Strategy<Value = Vec<RawHand>> {
    prop::collection::vec(
        (
            0u8..10,
            0usize..2,
            0u32..=10,
            0u32..=98,
            0usize..52,
            any::<bool>(),
        ),
        0..30,
    )
}

fn count_hand(profile: &Profile, raw: RawHand) -> MatchHand {
    let (kind, knocker, knocker_deadwood, defender_deadwood, upcard, big_gin) = raw;
    if kind == 0 {
        return MatchHand::Void;
    }
    let upcard = deck()[upcard];
    let limit = profile.knock_limit_for(Some(upcard)).unwrap_or(10);
    let big_gin = big_gin && kind == 1 && profile.big_gin_bonus().is_some();
    MatchHand::Counts(CountHand {
        knocker: names().as_array()[knocker].clone(),
        knocker_deadwood: if big_gin {
            0
        } else {
            knocker_deadwood % (limit + 1)
        },
        defender_deadwood,
        big_gin,
        upcard: Some(upcard),
    })
}

/// Scores the hands, dropping those after the match ended.
fn score_until_over(profile: &Profile, mut hands: Vec<MatchHand>) -> (MatchScore, bool) {
    match score_match(profile, &names(), &hands) {
        Ok(score) => (score, false),
        Err(MatchError::GameOver { hand, .. }) => {
            hands.truncate(hand);
            (score_match(profile, &names(), &hands).unwrap(), true)
        }
        Err(other) => panic!("generated hands are legal: {other}"),
    }
}

fn parts(t: &Tally) -> u64 {
    t.hand_points + t.box_bonus + t.game_bonus + t.shutout_bonus
}

/// A random meld of cards still in `free`, if the draw finds one.
fn random_meld(rng: &mut StdRng, free: CardSet) -> Option<CardSet> {
    let card = |rank: u8, suit: Suit| Card::new(Rank::new(rank).unwrap(), suit);
    let mut meld = CardSet::EMPTY;
    if rng.gen_bool(0.5) {
        let rank = rng.gen_range(1..=13);
        let mut suits = Suit::ALL;
        suits.shuffle(rng);
        for &suit in &suits[..rng.gen_range(3..=4)] {
            meld.insert(card(rank, suit));
        }
    } else {
        let suit = Suit::ALL[rng.gen_range(0..4)];
        let start = rng.gen_range(1..=11);
        let len = rng.gen_range(3..=5).min(14 - start);
        for rank in start..start + len {
            meld.insert(card(rank, suit));
        }
    }
    meld.is_subset(free).then_some(meld)
}

/// A random legal knock under `profile`: the upcard, the knocker's kept cards
/// (10, or 11 for a big gin) with deadwood within the upcard's limit, and the
/// defender's 10, all distinct. Melds are planted so knocks are common.
fn random_deal(rng: &mut StdRng, profile: &Profile) -> (Card, KnockerHand, DefenderHand) {
    loop {
        let mut deck = deck();
        deck.shuffle(rng);
        let upcard = deck[0];
        let Ok(limit) = profile.knock_limit_for(Some(upcard)) else {
            continue;
        };
        let big_gin = profile.big_gin_bonus().is_some() && rng.gen_bool(0.1);
        let size = if big_gin { 11 } else { 10 };
        let mut free = CardSet::from_distinct(deck[1..].iter().copied()).unwrap();
        let mut knocker = CardSet::EMPTY;
        for _ in 0..rng.gen_range(1..=3) {
            if let Some(meld) = random_meld(rng, free)
                && knocker.len() + meld.len() <= size
            {
                knocker = knocker.union(meld);
                free = free.difference(meld);
            }
        }
        for &card in &deck[1..] {
            if knocker.len() < size && free.contains(card) {
                knocker.insert(card);
                free.remove(card);
            }
        }
        let deadwood = min_deadwood(knocker, &JokerRules::NONE);
        if (big_gin && crate::analyze_drawn_hand(knocker, &JokerRules::NONE).big_gin)
            || (!big_gin && deadwood <= limit)
        {
            // Planted melds in the defender's hand too, so undercuts happen.
            let mut defender = CardSet::EMPTY;
            for _ in 0..rng.gen_range(1..=3) {
                if let Some(meld) = random_meld(rng, free)
                    && defender.len() + meld.len() <= 10
                {
                    defender = defender.union(meld);
                    free = free.difference(meld);
                }
            }
            for &card in &deck[1..] {
                if defender.len() < 10 && free.contains(card) {
                    defender.insert(card);
                    free.remove(card);
                }
            }
            return (
                upcard,
                KnockerHand::of_cards(knocker),
                DefenderHand::of_cards(defender),
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn totals_are_the_sum_of_their_parts(profile in any_profile(), raw in raw_hands()) {
        let hands: Vec<MatchHand> = raw.into_iter().map(|r| count_hand(&profile, r)).collect();
        let (s, cut_short) = score_until_over(&profile, hands);
        let target = u64::from(profile.target());
        prop_assert_eq!(s.games.len(), profile.games());
        if cut_short {
            prop_assert!(s.complete);
        }
        prop_assert_eq!(s.complete, s.games.iter().all(|g| g.complete));
        for h in &s.hands {
            let summed = h.game_totals.iter().fold([0, 0], |a, t| [a[0] + t[0], a[1] + t[1]]);
            prop_assert_eq!(h.totals, summed);
            prop_assert_eq!(h.result.winner.is_none(), h.scored_in.is_empty() && h.result.points == 0 && h.result.outcome.is_none());
        }
        for (g, game) in s.games.iter().enumerate() {
            for p in 0..2 {
                let t = &game.final_tally[p];
                prop_assert_eq!(t.total, parts(t));
                let won: Vec<&ScoredMatchHand> = s.hands.iter()
                    .filter(|h| h.result.winner == Some(p) && h.scored_in.contains(&g))
                    .collect();
                prop_assert_eq!(t.hand_points, won.iter().map(|h| u64::from(h.result.points)).sum::<u64>());
                prop_assert_eq!(t.hands_won, won.len() as u64);
            }
            let running = |at: usize| s.hands[at].game_totals[g];
            match (game.winner, game.ended_at) {
                (Some(w), Some(end)) => {
                    prop_assert!(game.complete);
                    prop_assert!(running(end)[w] >= target);
                    if end > 0 {
                        prop_assert!(running(end - 1).iter().all(|&t| t < target));
                    }
                    for p in 0..2 {
                        let t = &game.final_tally[p];
                        prop_assert_eq!(t.box_bonus, t.hands_won * u64::from(profile.box_bonus()));
                        prop_assert_eq!(t.game_bonus, if p == w { u64::from(profile.game_bonus()) } else { 0 });
                    }
                    prop_assert_eq!(game.final_tally[1 - w].shutout_bonus, 0);
                    let scores = game.scores.unwrap();
                    prop_assert_eq!(game.net, Some(scores[w] - scores[1 - w]));
                }
                _ => {
                    prop_assert!(!game.complete && game.scores.is_none() && game.net.is_none());
                    let last = s.hands.last().map_or([0, 0], |h| h.game_totals[g]);
                    prop_assert!(last.iter().all(|&t| t < target));
                    prop_assert_eq!(game.final_tally.map(|t| t.total), last);
                }
            }
        }
        let summed = s.games.iter().fold([Tally::default(); 2], |a, g| {
            [a[0].add(g.final_tally[0]), a[1].add(g.final_tally[1])]
        });
        prop_assert_eq!(s.final_tally, summed);
        prop_assert_eq!(s.complete, s.net.is_some());
        if let (Some(w), Some(scores)) = (s.winner, s.scores) {
            prop_assert_eq!(s.net, Some(scores[w] - scores[1 - w]));
        }
    }

    #[test]
    fn no_ten_card_hand_counts_more_than_98(seed in any::<u64>()) {
        let mut deck = deck();
        deck.shuffle(&mut StdRng::seed_from_u64(seed));
        let hand = CardSet::from_distinct(deck[..10].iter().copied()).unwrap();
        prop_assert!(min_deadwood(hand, &JokerRules::NONE) <= MAX_DEFENDER_COUNT);
    }
}

proptest! {
    // Each case solves up to a dozen showdowns: fewer cases keep it quick in debug.
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn cards_and_the_counts_they_produce_score_the_same_match(
        profile in any_profile(),
        seed in any::<u64>(),
        length in 1usize..12,
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut as_cards = Vec::new();
        let mut as_counts = Vec::new();
        for _ in 0..length {
            if rng.gen_bool(0.1) {
                as_cards.push(MatchHand::Void);
                as_counts.push(MatchHand::Void);
                continue;
            }
            let knocker = names().as_array()[rng.gen_range(0..2)].clone();
            let (upcard, knocker_hand, defender_hand) = random_deal(&mut rng, &profile);
            let score = score_hand(&profile, Some(upcard), &knocker_hand, &defender_hand)
                .expect("a generated deal is a legal knock");
            as_counts.push(MatchHand::Counts(CountHand {
                knocker: knocker.clone(),
                knocker_deadwood: score.showdown.knocker.deadwood,
                defender_deadwood: score.showdown.defender.deadwood(),
                big_gin: score.showdown.big_gin,
                upcard: Some(upcard),
            }));
            as_cards.push(MatchHand::Cards(CardHand {
                knocker,
                knocker_hand,
                defender_hand,
                upcard: Some(upcard),
            }));
        }
        let from_cards = score_match(&profile, &names(), &as_cards);
        let from_counts = score_match(&profile, &names(), &as_counts);
        let legal = matches!(&from_cards, Ok(_) | Err(MatchError::GameOver { .. }));
        prop_assert!(legal, "{:?}", from_cards);
        prop_assert_eq!(from_cards, from_counts);
    }
}

proptest! {
    // Each case solves up to eight showdowns with jokers: few cases in debug.
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn card_hands_with_jokers_and_their_counts_score_the_same_match(
        seed in any::<u64>(),
        length in 1usize..8,
        joker_deadwood in prop::sample::select(vec![0u8, 15, 25]),
        joker_min_natural in 1u8..=3,
    ) {
        use crate::hand::{HandCard, Joker};
        use crate::score::knock::score_knock;
        use crate::layoff::DeclaredReply;
        let profile = ProfileOverrides {
            base: Some(Preset::Jokers),
            joker_deadwood: Some(joker_deadwood),
            joker_min_natural: Some(joker_min_natural),
            ..ProfileOverrides::default()
        }
        .resolve()
        .expect("a jokers profile");
        let mut rng = StdRng::seed_from_u64(seed);
        let mut as_cards = Vec::new();
        let mut as_counts = Vec::new();
        for _ in 0..length {
            let knocker = names().as_array()[rng.gen_range(0..2)].clone();
            let (upcard, knocker_hand, defender_hand) = random_deal(&mut rng, &profile);
            // A joker in place of a random card of the knocker's (and, half
            // the time, of the defender's): most such knocks stay legal.
            let mut knocker_cards = knocker_hand.hand.clone();
            let mut defender_cards = defender_hand.hand.clone();
            let swap = rng.gen_range(0..knocker_cards.len());
            knocker_cards[swap] = HandCard::Joker(Joker::X1);
            if rng.gen_bool(0.5) {
                let swap = rng.gen_range(0..defender_cards.len());
                defender_cards[swap] = HandCard::Joker(Joker::X2);
            }
            let Ok(score) = score_knock(crate::layoff::Search::Jokers, &profile, Some(upcard), &knocker_cards, None, &defender_cards, &DeclaredReply::default()) else {
                continue;
            };
            prop_assert!(score.showdown.defender.deadwood() <= max_defender_count(&profile));
            as_counts.push(MatchHand::Counts(CountHand {
                knocker: knocker.clone(),
                knocker_deadwood: score.showdown.knocker.deadwood,
                defender_deadwood: score.showdown.defender.deadwood(),
                big_gin: score.showdown.big_gin,
                upcard: Some(upcard),
            }));
            as_cards.push(MatchHand::Cards(CardHand {
                knocker,
                knocker_hand: KnockerHand::of_cards(knocker_cards),
                defender_hand: DefenderHand::of_cards(defender_cards),
                upcard: Some(upcard),
            }));
        }
        let from_cards = score_match(&profile, &names(), &as_cards);
        let from_counts = score_match(&profile, &names(), &as_counts);
        let legal = matches!(&from_cards, Ok(_) | Err(MatchError::GameOver { .. }));
        prop_assert!(legal, "{:?}", from_cards);
        prop_assert_eq!(from_cards, from_counts);
    }
}
