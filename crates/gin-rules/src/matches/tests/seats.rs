//! Three players and partnerships: the worked examples of `docs/RULES.md`
//! hand by hand, the checks on who sits where, and properties.

use proptest::prelude::*;

use super::super::*;
use crate::profile::{Preset, ProfileOverrides, ShutoutRule};

fn counts(
    knocker: &str,
    defender: &str,
    knocker_deadwood: u32,
    defender_deadwood: u32,
) -> SeatedHand {
    SeatedHand {
        players: [knocker.into(), defender.into()],
        hand: MatchHand::Counts(CountHand {
            knocker: knocker.into(),
            knocker_deadwood,
            defender_deadwood,
            big_gin: false,
            upcard: None,
        }),
    }
}

fn void(a: &str, b: &str) -> SeatedHand {
    SeatedHand {
        players: [a.into(), b.into()],
        hand: MatchHand::Void,
    }
}

fn three() -> [String; 3] {
    ["Ann".into(), "Bob".into(), "Cy".into()]
}

/// The three-player example of `docs/RULES.md`, hand by hand.
fn three_player_example() -> Vec<SeatedHand> {
    vec![
        counts("Ann", "Bob", 4, 20), // Ann +16; Bob sits out
        void("Ann", "Cy"),           // void: the same two again
        counts("Cy", "Ann", 6, 6),   // undercut: Ann +25; Cy sits out
        counts("Bob", "Ann", 3, 2),  // undercut: Ann +26 (67)
        counts("Cy", "Ann", 0, 19),  // Cy gins: +44; Ann sits out
        counts("Cy", "Bob", 2, 9),   // Cy +7 (51)
        counts("Ann", "Cy", 0, 8),   // Ann gins: +33, exactly 100
    ]
}

#[test]
fn three_players_worked_example() {
    let score = score_match(
        &Preset::Standard.profile(),
        &three(),
        &three_player_example(),
    )
    .unwrap();
    assert!(score.complete);
    assert_eq!(score.winner, Some(0));
    let totals = score.final_tally.map(|t| t.total);
    assert_eq!(totals, [400, 0, 101]);
    assert_eq!(score.final_tally[0].shutout_bonus, 100, "Bob never scored");
    assert_eq!(score.final_tally[0].box_bonus, 100);
    assert_eq!(score.final_tally[2].box_bonus, 50);
    assert_eq!(
        score.pairs,
        Some([((0, 1), 400), ((0, 2), 199), ((1, 2), -101)])
    );
    assert_eq!(score.nets, Some([599, -501, -98]));
    let running: Vec<[u64; 3]> = score.hands.iter().map(|(_, t)| *t).collect();
    assert_eq!(running[3], [67, 0, 0]);
    assert_eq!(running[6], [100, 0, 51]);
}

#[test]
fn three_players_rotation_is_checked() {
    let mut hands = three_player_example();
    // After Ann beat Bob, Bob sits out: Ann and Bob again breaks the rotation.
    hands[1] = counts("Bob", "Ann", 2, 10);
    let error = score_match(&Preset::Standard.profile(), &three(), &hands).unwrap_err();
    assert!(matches!(error, MatchError::RotationBroken { .. }));
    assert_eq!(error.hand(), Some(1));
    assert!(error.to_string().contains("Ann and Cy"), "{error}");
    // After the void hand the same two play again: Ann and Bob is wrong there.
    let mut hands = three_player_example();
    hands[2] = counts("Bob", "Ann", 6, 6);
    assert_eq!(
        score_match(&Preset::Standard.profile(), &three(), &hands)
            .unwrap_err()
            .hand(),
        Some(2)
    );
}

#[test]
fn three_players_refuse_unknown_names_self_play_and_hollywood() {
    let profile = Preset::Standard.profile();
    let error = score_match(&profile, &three(), &[counts("Ann", "Dee", 4, 20)]).unwrap_err();
    assert!(matches!(error, MatchError::UnknownPlayer { hand: 0, .. }));
    let error = score_match(&profile, &three(), &[counts("Ann", "Ann", 4, 20)]).unwrap_err();
    assert!(matches!(error, MatchError::SamePlayerTwice { .. }));
    let error = score_match(&Preset::Hollywood.profile(), &three(), &[]).unwrap_err();
    assert!(matches!(error, MatchError::HollywoodNotDefined { .. }));
    let error = score_match(
        &profile,
        &three(),
        &[three_player_example(), vec![counts("Ann", "Bob", 1, 20)]].concat(),
    )
    .unwrap_err();
    assert!(matches!(error, MatchError::GameOver { .. }));
    assert_eq!(error.hand(), Some(7));
}

#[test]
fn three_players_flat_shutout_follows_the_profile() {
    // Under schneider's flat bonus of 100 the same; under a flat 50, 50.
    let fifty = ProfileOverrides {
        shutout: Some(ShutoutRule::FlatBonus),
        shutout_bonus: Some(50),
        ..ProfileOverrides::default()
    }
    .resolve()
    .unwrap();
    let score = score_match(&fifty, &three(), &three_player_example()).unwrap();
    assert_eq!(score.final_tally[0].shutout_bonus, 50);
    assert_eq!(score.nets.unwrap().iter().sum::<i64>(), 0);
}

#[test]
fn three_players_unfinished_has_no_nets() {
    let score = score_match(
        &Preset::Standard.profile(),
        &three(),
        &three_player_example()[..3],
    )
    .unwrap();
    assert!(!score.complete);
    assert_eq!((score.nets, score.pairs, score.winner), (None, None, None));
    assert_eq!(score.final_tally.map(|t| t.total), [41, 0, 0]);
}

fn teams() -> [Team; 2] {
    [
        Team {
            name: "North-South".into(),
            players: ["Ann".into(), "Cy".into()],
        },
        Team {
            name: "East-West".into(),
            players: ["Bob".into(), "Dee".into()],
        },
    ]
}

fn deal(one: SeatedHand, two: SeatedHand) -> PartnershipDeal {
    PartnershipDeal { tables: [one, two] }
}

/// The partnership example of `docs/RULES.md`, deal by deal.
fn partnership_example() -> Vec<PartnershipDeal> {
    vec![
        deal(counts("Ann", "Bob", 3, 15), counts("Dee", "Cy", 2, 12)), // NS +2
        deal(counts("Dee", "Ann", 7, 7), counts("Bob", "Cy", 2, 27)),  // 0
        deal(void("Ann", "Bob"), counts("Cy", "Dee", 0, 22)),          // NS +47
        deal(counts("Ann", "Dee", 1, 17), counts("Bob", "Cy", 0, 20)), // EW +29
        deal(counts("Bob", "Ann", 4, 30), counts("Cy", "Dee", 0, 31)), // NS +30
        deal(counts("Ann", "Dee", 2, 20), counts("Cy", "Bob", 5, 33)), // NS +46
    ]
}

#[test]
fn partnership_worked_example() {
    let score = score_match(
        &Preset::Partnership.profile(),
        &teams(),
        &partnership_example(),
    )
    .unwrap();
    let per_deal: Vec<(Option<usize>, u64)> =
        score.deals.iter().map(|d| (d.winner, d.points)).collect();
    assert_eq!(
        per_deal,
        [
            (Some(0), 2),
            (None, 0),
            (Some(0), 47),
            (Some(1), 29),
            (Some(0), 30),
            (Some(0), 46)
        ]
    );
    assert!(score.complete);
    assert_eq!(score.winner, Some(0));
    assert_eq!(score.final_tally.map(|t| t.total), [325, 54]);
    assert_eq!(score.final_tally.map(|t| t.hands_won), [4, 1]);
    assert_eq!(score.net, Some(271));
}

#[test]
fn bicycle_partnership_examples() {
    // One partner wins 12, the other loses 10: the side scores 2.
    let one = score_match(
        &Preset::Partnership.profile(),
        &teams(),
        &[deal(
            counts("Ann", "Bob", 3, 15),
            counts("Dee", "Cy", 2, 12),
        )],
    )
    .unwrap();
    assert_eq!(one.deals[0].table_results, [12, -10]);
    assert_eq!((one.deals[0].winner, one.deals[0].points), (Some(0), 2));
    // Both partners win, 16 and 12: the side scores 28.
    let both = score_match(
        &Preset::Partnership.profile(),
        &teams(),
        &[deal(
            counts("Ann", "Bob", 4, 20),
            counts("Cy", "Dee", 3, 15),
        )],
    )
    .unwrap();
    assert_eq!((both.deals[0].winner, both.deals[0].points), (Some(0), 28));
}

#[test]
fn partnership_pairings_alternate_and_are_checked() {
    let mut deals = partnership_example();
    // Deal 2 must pair Ann with Dee and Cy with Bob, not Ann with Bob again.
    deals[1] = deal(counts("Ann", "Bob", 3, 15), counts("Dee", "Cy", 2, 12));
    let error = score_match(&Preset::Partnership.profile(), &teams(), &deals).unwrap_err();
    assert!(matches!(error, MatchError::PairingBroken { .. }));
    assert_eq!(error.hand(), Some(1));
    assert!(error.to_string().contains("Ann with Dee"), "{error}");
    // The tables may come in either order.
    let mut deals = partnership_example();
    deals[0].tables.swap(0, 1);
    assert!(score_match(&Preset::Partnership.profile(), &teams(), &deals).is_ok());
}

#[test]
fn partnership_errors_name_the_table() {
    let deals = [deal(
        counts("Ann", "Bob", 3, 15),
        counts("Dee", "Cy", 12, 12),
    )];
    let error = score_match(&Preset::Partnership.profile(), &teams(), &deals).unwrap_err();
    assert!(
        matches!(&error, MatchError::AtTable { error, .. } if matches!(**error, MatchError::Count { error: CountError::KnockOverLimit { .. }, .. }))
    );
    assert!(matches!(
        error,
        MatchError::AtTable {
            deal: 0,
            table: 1,
            ..
        }
    ));
    let error = score_match(&Preset::Hollywood.profile(), &teams(), &[]).unwrap_err();
    assert!(matches!(error, MatchError::HollywoodNotDefined { .. }));
}

#[test]
fn the_partnership_preset_plays_to_125() {
    let profile = Preset::Partnership.profile();
    assert_eq!(
        (profile.target(), profile.game_bonus(), profile.box_bonus()),
        (125, 100, 25)
    );
    assert_eq!(profile.shutout(), Preset::Standard.profile().shutout());
}

fn seated_counts() -> impl Strategy<Value = (u32, u32)> {
    (0u32..=10, 0u32..=60)
}

proptest! {
    /// Any rotation-following record: the three nets sum to zero, and every
    /// pair's net is the difference of the two players' nets' parts.
    #[test]
    fn three_player_nets_sum_to_zero(
        record in proptest::collection::vec((seated_counts(), any::<bool>(), any::<bool>()), 1..40)
    ) {
        let names = three();
        let mut pair = [0usize, 1];
        let mut hands = Vec::new();
        for ((knocker_count, defender_count), flip, is_void) in record {
            let [a, b] = if flip { [pair[1], pair[0]] } else { pair };
            let hand = if is_void {
                void(&names[a], &names[b])
            } else {
                counts(&names[a], &names[b], knocker_count, defender_count)
            };
            let scored = match score_match(&Preset::Standard.profile(), &names, &[hands.clone(), vec![hand.clone()]].concat()) {
                Ok(score) => score,
                Err(MatchError::GameOver { .. }) => break,
                Err(error) => return Err(TestCaseError::fail(error.to_string())),
            };
            hands.push(hand);
            let last = &scored.hands.last().unwrap().0;
            pair = match (last.result.winner, last.loser()) {
                (Some(w), Some(l)) => [w, 3 - w - l],
                _ => pair,
            };
            if let Some(nets) = scored.nets {
                prop_assert_eq!(nets.iter().sum::<i64>(), 0);
            }
        }
    }

    /// A deal's team result is the sum of its tables' results, only the team
    /// ahead scores it, and the order of the tables changes nothing.
    #[test]
    fn a_deal_is_the_sum_of_its_tables(
        tables in proptest::collection::vec((seated_counts(), seated_counts(), any::<bool>()), 1..20)
    ) {
        let names = ["Ann", "Cy", "Bob", "Dee"];
        let mut deals = Vec::new();
        for (index, ((k1, d1), (k2, d2), flip)) in tables.into_iter().enumerate() {
            let [[a, b], [c, d]] = if index % 2 == 0 { [[0, 2], [1, 3]] } else { [[0, 3], [1, 2]] };
            let (one, two) = if flip {
                (counts(names[b], names[a], k1, d1), counts(names[d], names[c], k2, d2))
            } else {
                (counts(names[a], names[b], k1, d1), counts(names[c], names[d], k2, d2))
            };
            deals.push(deal(one, two));
        }
        let score = match score_match(&Preset::Partnership.profile(), &teams(), &deals) {
            Ok(score) => score,
            Err(MatchError::GameOver { .. }) => return Ok(()),
            Err(error) => return Err(TestCaseError::fail(error.to_string())),
        };
        // The tables of a deal may come in either order: nothing changes.
        let swapped: Vec<PartnershipDeal> = deals
            .iter()
            .map(|d| { let [one, two] = d.tables.clone(); deal(two, one) })
            .collect();
        let again = score_match(&Preset::Partnership.profile(), &teams(), &swapped).unwrap();
        prop_assert_eq!(again.final_tally, score.final_tally);
        prop_assert_eq!(
            again.deals.iter().map(|d| (d.winner, d.points, d.totals)).collect::<Vec<_>>(),
            score.deals.iter().map(|d| (d.winner, d.points, d.totals)).collect::<Vec<_>>()
        );
        let mut running = [0u64; 2];
        for scored in &score.deals {
            let net: i64 = scored.table_results.iter().sum();
            prop_assert_eq!(scored.points, net.unsigned_abs());
            prop_assert_eq!(scored.winner, match net.signum() { 1 => Some(0), -1 => Some(1), _ => None });
            if let Some(team) = scored.winner {
                running[team] += scored.points;
            }
            prop_assert_eq!(scored.totals, running);
        }
    }
}
