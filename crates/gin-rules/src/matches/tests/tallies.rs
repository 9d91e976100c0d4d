//! The tallies fed one hand at a time: after every hand each gives what the
//! whole-match scorer gives for the hands so far, a refused hand is refused
//! with the scorer's error and changes nothing, and the seating they announce
//! is the one they check.

use proptest::prelude::*;

use super::super::*;
use crate::profile::{
    BoxBonusTiming, Preset, ProfileOverrides, Settlement, ShutoutRule, ShutoutTest,
};

/// A profile with the match parameters varied (`hollywood` only when asked).
fn any_profile(hollywood: bool) -> impl Strategy<Value = Profile> {
    (
        prop::sample::select(vec![
            Preset::Standard,
            Preset::Pagat,
            Preset::Tournament,
            Preset::Partnership,
        ]),
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
        30u32..=120,
    )
        .prop_map(
            move |(base, timing, shutout, test, settlement, scoreless, target)| {
                ProfileOverrides {
                    base: Some(base),
                    box_bonus_timing: Some(timing),
                    shutout: Some(shutout),
                    shutout_bonus: (shutout == ShutoutRule::FlatBonus).then_some(75),
                    shutout_test: Some(test),
                    settlement: Some(settlement),
                    hollywood: Some(hollywood),
                    tie_is_undercut: Some(scoreless),
                    target: Some(target),
                    ..ProfileOverrides::default()
                }
                .resolve()
                .unwrap()
            },
        )
}

fn counts(knocker: &str, knocker_deadwood: u32, defender_deadwood: u32) -> MatchHand {
    MatchHand::Counts(CountHand {
        knocker: knocker.into(),
        knocker_deadwood,
        defender_deadwood,
        big_gin: false,
        upcard: None,
    })
}

/// A hand between two of several players: void, or counts (the knocker first).
fn seated(names: &[String], [a, b]: [usize; 2], raw: (u32, u32, bool)) -> SeatedHand {
    let (knocker_deadwood, defender_deadwood, void) = raw;
    SeatedHand {
        players: [names[a].clone(), names[b].clone()],
        hand: if void {
            MatchHand::Void
        } else {
            counts(&names[a], knocker_deadwood, defender_deadwood)
        },
    }
}

/// A count hand's raw material: knocker's count (kept within 10), the
/// defender's, and whether the hand is void.
fn raw_hand() -> impl Strategy<Value = (u32, u32, bool)> {
    (0u32..=10, 0u32..=60, prop::bool::weighted(0.1))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn a_two_player_tally_is_the_scorer_hand_by_hand(
        profile in any_profile(false),
        hollywood in any::<bool>(),
        record in prop::collection::vec((0usize..3, raw_hand()), 0..24),
    ) {
        // Half the cases under Hollywood's three games.
        let profile = if hollywood {
            ProfileOverrides { base: Some(Preset::Hollywood), ..ProfileOverrides::default() }
                .resolve()
                .unwrap()
        } else {
            profile
        };
        let names = Players::new("Ann".to_string(), "Bob".to_string());
        let mut tally = MatchTally::new(&profile, names.clone()).unwrap();
        let mut taken: Vec<MatchHand> = Vec::new();
        for (who, (kd, dd, void)) in record {
            // 0 and 1 name a player; 2 names a stranger.
            let knocker = ["Ann", "Bob", "Cy"][who];
            let hand = if void { MatchHand::Void } else { counts(knocker, kd, dd) };
            let before = tally.score();
            let tried = [taken.clone(), vec![hand.clone()]].concat();
            match (tally.record(&hand), score_match(&profile, &names, &tried)) {
                (Ok(()), Ok(expected)) => {
                    taken.push(hand);
                    prop_assert_eq!(tally.totals(), expected.hands.last().unwrap().totals);
                    prop_assert_eq!(tally.is_complete(), expected.complete);
                    prop_assert_eq!(tally.hands(), &expected.hands[..]);
                    prop_assert_eq!(tally.score(), expected);
                }
                (Err(error), Err(expected)) => {
                    prop_assert_eq!(error, expected);
                    prop_assert_eq!(tally.score(), before);
                }
                (got, expected) => {
                    return Err(TestCaseError::fail(format!("{got:?} against {expected:?}")));
                }
            }
        }
    }

    #[test]
    fn a_three_player_tally_is_the_scorer_hand_by_hand(
        profile in any_profile(false),
        record in prop::collection::vec((raw_hand(), 0usize..8, any::<bool>()), 1..30),
    ) {
        let names = ["Ann".to_string(), "Bob".to_string(), "Cy".to_string()];
        let mut tally = ThreeTally::new(&profile, names.clone()).unwrap();
        let mut taken: Vec<SeatedHand> = Vec::new();
        for (raw, off, flip) in record {
            // Mostly the pair the rotation announces; now and then any pair.
            let pair = match tally.next_players() {
                Some(pair) if off > 0 => pair,
                _ => [[0, 1], [0, 2], [1, 2]][off % 3],
            };
            let pair = if flip { [pair[1], pair[0]] } else { pair };
            let hand = seated(&names, pair, raw);
            let before = tally.score();
            let tried = [taken.clone(), vec![hand.clone()]].concat();
            match (tally.record(&hand), score_match(&profile, &names, &tried)) {
                (Ok(()), Ok(expected)) => {
                    taken.push(hand);
                    prop_assert_eq!(tally.totals(), expected.hands.last().unwrap().1);
                    prop_assert_eq!(tally.is_complete(), expected.complete);
                    prop_assert_eq!(tally.score(), expected);
                }
                (Err(error), Err(expected)) => {
                    if matches!(error, MatchError::RotationBroken { .. }) {
                        prop_assert!(tally.next_players().is_some());
                    }
                    prop_assert_eq!(error, expected);
                    prop_assert_eq!(tally.score(), before);
                }
                (got, expected) => {
                    return Err(TestCaseError::fail(format!("{got:?} against {expected:?}")));
                }
            }
        }
    }

    #[test]
    fn a_partnership_tally_is_the_scorer_deal_by_deal(
        profile in any_profile(false),
        record in prop::collection::vec((raw_hand(), raw_hand(), 0usize..8, any::<bool>()), 1..20),
    ) {
        let teams = [
            Team { name: "North-South".into(), players: ["Ann".into(), "Cy".into()] },
            Team { name: "East-West".into(), players: ["Bob".into(), "Dee".into()] },
        ];
        let names = Team::seat_order(&teams);
        let mut tally = PartnershipTally::new(&profile, &teams).unwrap();
        let mut taken: Vec<PartnershipDeal> = Vec::new();
        for (one, two, off, flip) in record {
            // Mostly the deal's pairings; now and then the other deal's.
            let [first, second] = partnership_pairings(tally.deals().len() + usize::from(off == 0));
            let first = if flip { [first[1], first[0]] } else { first };
            let deal = PartnershipDeal {
                tables: [seated(&names, first, one), seated(&names, second, two)],
            };
            let before = tally.score();
            let tried = [taken.clone(), vec![deal.clone()]].concat();
            match (tally.record(&deal), score_match(&profile, &teams, &tried)) {
                (Ok(()), Ok(expected)) => {
                    taken.push(deal);
                    prop_assert_eq!(tally.totals(), expected.deals.last().unwrap().totals);
                    prop_assert_eq!(tally.is_complete(), expected.complete);
                    prop_assert_eq!(tally.score(), expected);
                }
                (Err(error), Err(expected)) => {
                    prop_assert_eq!(error, expected);
                    prop_assert_eq!(tally.score(), before);
                }
                (got, expected) => {
                    return Err(TestCaseError::fail(format!("{got:?} against {expected:?}")));
                }
            }
        }
    }
}

#[test]
fn the_tallies_refuse_what_the_scorers_refuse_before_the_first_hand() {
    let standard = Preset::Standard.profile();
    let hollywood = Preset::Hollywood.profile();
    let same = Players::new("Ann".to_string(), "Ann".to_string());
    assert_eq!(
        MatchTally::new(&standard, same.clone()).unwrap_err(),
        score_match(&standard, &same, &[]).unwrap_err()
    );
    let three = ["Ann".to_string(), "Bob".to_string(), "Cy".to_string()];
    assert!(matches!(
        ThreeTally::new(&hollywood, three.clone()).unwrap_err(),
        MatchError::HollywoodNotDefined { .. }
    ));
    let teams = [
        Team {
            name: "Same".into(),
            players: ["Ann".into(), "Cy".into()],
        },
        Team {
            name: "Same".into(),
            players: ["Bob".into(), "Dee".into()],
        },
    ];
    assert_eq!(
        PartnershipTally::new(&standard, &teams).unwrap_err(),
        score_match(&standard, &teams, &[]).unwrap_err()
    );
    assert_eq!(Team::seat_order(&teams), ["Ann", "Cy", "Bob", "Dee"]);
    assert_eq!(partnership_pairings(0), [[0, 2], [1, 3]]);
    assert_eq!(partnership_pairings(7), [[0, 3], [1, 2]]);
}
