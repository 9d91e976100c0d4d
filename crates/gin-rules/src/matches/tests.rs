use super::*;
use crate::card::cards;
use crate::hand::HandCard;
use crate::profile::{Preset, ProfileError, ProfileOverrides};

mod properties;
mod seats;
mod tallies;

fn players() -> Players<String> {
    Players::new("Mom".into(), "Dad".into())
}

fn knock(knocker: &str, knocker_deadwood: u32, defender_deadwood: u32) -> MatchHand {
    MatchHand::Counts(CountHand {
        knocker: knocker.into(),
        knocker_deadwood,
        defender_deadwood,
        big_gin: false,
        upcard: None,
    })
}

fn with_upcard(hand: MatchHand, upcard: &str) -> MatchHand {
    match hand {
        MatchHand::Counts(c) => MatchHand::Counts(CountHand {
            upcard: Some(upcard.parse().unwrap()),
            ..c
        }),
        other => other,
    }
}

fn profile(json: &str) -> Profile {
    serde_json::from_str::<ProfileOverrides>(json)
        .unwrap()
        .resolve()
        .unwrap()
}

/// `[S0]`'s six hands, as counts after layoffs.
fn source_s0_hands() -> Vec<MatchHand> {
    vec![
        knock("Mom", 5, 15),
        knock("Mom", 0, 6),
        knock("Mom", 4, 2),
        knock("Mom", 10, 43),
        knock("Dad", 0, 10),
        knock("Mom", 0, 11),
    ]
}

fn score(profile: &Profile, hands: &[MatchHand]) -> MatchScore {
    score_match(profile, &players(), hands).unwrap()
}

fn error(profile: &Profile, hands: &[MatchHand]) -> MatchError {
    score_match(profile, &players(), hands).unwrap_err()
}

fn tally(
    hand_points: u64,
    hands_won: u64,
    box_bonus: u64,
    game_bonus: u64,
    shutout_bonus: u64,
) -> Tally {
    Tally {
        hand_points,
        hands_won,
        box_bonus,
        game_bonus,
        shutout_bonus,
        total: hand_points + box_bonus + game_bonus + shutout_bonus,
    }
}

#[test]
fn source_s0_walkthrough_mom_310_dad_112_net_198() {
    let s = score(&Preset::Standard.profile(), &source_s0_hands());
    let points: Vec<u32> = s.hands.iter().map(|h| h.result.points).collect();
    assert_eq!(points, [10, 31, 27, 33, 35, 36]);
    let winners: Vec<Option<usize>> = s.hands.iter().map(|h| h.result.winner).collect();
    assert_eq!(
        winners,
        [Some(0), Some(0), Some(1), Some(0), Some(1), Some(0)]
    );
    assert_eq!(s.hands[2].result.outcome, Some(Outcome::Undercut));
    let totals: Vec<[u64; 2]> = s.hands.iter().map(|h| h.totals).collect();
    assert_eq!(
        totals,
        [[10, 0], [41, 0], [41, 27], [74, 27], [74, 62], [110, 62]]
    );
    assert!(s.complete);
    assert_eq!(s.winner, Some(0));
    assert_eq!(
        s.final_tally,
        [tally(110, 4, 100, 100, 0), tally(62, 2, 50, 0, 0)]
    );
    assert_eq!(s.final_tally.map(|t| t.total), [310, 112]);
    assert_eq!((s.scores, s.net), (Some([310, 112]), Some(198)));
    assert!(!s.games[0].shutout);
    assert_eq!(s.games[0].ended_at, Some(5));
}

#[test]
fn source_s3_schneider_mom_190_dad_102_and_mom_scores_the_difference_88() {
    let s = score(&Preset::Schneider.profile(), &source_s0_hands());
    assert_eq!(
        s.final_tally,
        [tally(110, 4, 80, 0, 0), tally(62, 2, 40, 0, 0)]
    );
    assert_eq!(s.final_tally.map(|t| t.total), [190, 102]);
    assert_eq!(
        (s.winner, s.scores, s.net),
        (Some(0), Some([88, 0]), Some(88))
    );
}

/// Mom gins twice (75, then 55 under 25-point gins) and Dad never scores.
fn shutout_hands() -> Vec<MatchHand> {
    vec![knock("Mom", 0, 50), knock("Mom", 0, 30)]
}

#[test]
fn shutout_source_s0_doubles_hand_points_and_game_bonus_but_not_boxes() {
    for test in ["scored_nothing", "won_no_hand"] {
        let p = profile(&format!(r#"{{"shutout_test": "{test}"}}"#));
        let s = score(&p, &shutout_hands());
        assert!(s.games[0].shutout);
        assert_eq!(s.final_tally[0], tally(130, 2, 50, 100, 230));
        assert_eq!(s.final_tally[0].total, 2 * 130 + 50 + 2 * 100);
        assert_eq!(s.final_tally[1], Tally::default());
        assert_eq!(s.net, Some(510));
    }
}

#[test]
fn shutout_source_s4_doubles_the_whole_score() {
    for test in ["scored_nothing", "won_no_hand"] {
        let p = profile(&format!(
            r#"{{"shutout": "double_total", "shutout_test": "{test}"}}"#
        ));
        let s = score(&p, &shutout_hands());
        assert_eq!(s.final_tally[0], tally(130, 2, 50, 100, 280));
        assert_eq!(s.final_tally[0].total, 2 * (130 + 50 + 100));
    }
}

#[test]
fn shutout_flat_bonus_adds_100_under_schneider_and_open_gin() {
    for test in ["scored_nothing", "won_no_hand"] {
        let p = profile(&format!(
            r#"{{"base": "schneider", "shutout_test": "{test}"}}"#
        ));
        let s = score(&p, &shutout_hands());
        assert_eq!(s.final_tally[0], tally(130, 2, 40, 0, 100));
        assert_eq!((s.scores, s.net), (Some([270, 0]), Some(270)));
    }
    for test in ["scored_nothing", "won_no_hand"] {
        let p = profile(&format!(
            r#"{{"base": "open-gin", "shutout_test": "{test}"}}"#
        ));
        let s = score(&p, &shutout_hands());
        // Gin scores 20 + count here: 70 + 50.
        assert_eq!(s.final_tally[0], tally(120, 2, 40, 100, 100));
    }
}

#[test]
fn shutout_pagat_doubles_the_game_bonus_to_200() {
    for test in ["scored_nothing", "won_no_hand"] {
        let p = profile(&format!(r#"{{"base": "pagat", "shutout_test": "{test}"}}"#));
        let s = score(&p, &shutout_hands());
        assert_eq!(s.final_tally[0], tally(120, 2, 40, 100, 100));
        assert_eq!(
            s.final_tally[0].game_bonus + s.final_tally[0].shutout_bonus,
            200
        );
    }
}

#[test]
fn a_hand_won_for_nothing_is_not_a_hand_won() {
    // With ties going to the knocker for 0, Dad "wins" a tie but scores
    // nothing: no box, and he still won no hand, so both shutout tests hold.
    let hands = [knock("Dad", 5, 5), knock("Mom", 0, 50), knock("Mom", 0, 30)];
    let scored_nothing = score(&profile(r#"{"tie_is_undercut": false}"#), &hands);
    assert_eq!(scored_nothing.hands[0].result.winner, Some(1));
    assert_eq!(scored_nothing.hands[0].result.points, 0);
    assert!(scored_nothing.games[0].shutout);
    assert_eq!(scored_nothing.final_tally[1], tally(0, 0, 0, 0, 0));
    let won_no_hand = score(
        &profile(r#"{"tie_is_undercut": false, "shutout_test": "won_no_hand"}"#),
        &hands,
    );
    assert!(won_no_hand.games[0].shutout);
    assert_eq!(won_no_hand.final_tally[1].hands_won, 0);
}

#[test]
fn scoreless_hand_won_counts_the_tie_as_a_hand_won() {
    // Clubs that count it: Dad's tie earns a box, and under the won-no-hand
    // test he is no longer shut out.
    let hands = [knock("Dad", 5, 5), knock("Mom", 0, 50), knock("Mom", 0, 30)];
    let counted = score(
        &profile(r#"{"tie_is_undercut": false, "scoreless_hand_won": true}"#),
        &hands,
    );
    assert_eq!(counted.final_tally[1], tally(0, 1, 25, 0, 0));
    assert!(counted.games[0].shutout, "he still scored nothing");
    let won_no_hand = score(
        &profile(
            r#"{"tie_is_undercut": false, "scoreless_hand_won": true, "shutout_test": "won_no_hand"}"#,
        ),
        &hands,
    );
    assert!(!won_no_hand.games[0].shutout);
    assert_eq!(won_no_hand.final_tally[0].shutout_bonus, 0);
}

#[test]
fn a_hand_won_for_nothing_enters_no_hollywood_game() {
    // Mom's 0-point tie would otherwise enter her into game 1 and make her
    // next win count in games 1 and 2.
    let hands = [knock("Mom", 5, 5), knock("Mom", 0, 20)];
    let hollywood = score(
        &profile(r#"{"base": "hollywood", "tie_is_undercut": false}"#),
        &hands,
    );
    assert!(hollywood.hands[0].scored_in.is_empty());
    assert_eq!(hollywood.hands[1].scored_in, [0]);
    let counted = score(
        &profile(r#"{"base": "hollywood", "tie_is_undercut": false, "scoreless_hand_won": true}"#),
        &hands,
    );
    assert_eq!(counted.hands[1].scored_in, [0, 1]);
}

#[test]
fn no_shutout_when_the_loser_scored() {
    for preset in [
        Preset::Standard,
        Preset::Pagat,
        Preset::Schneider,
        Preset::OpenGin,
    ] {
        let s = score(&preset.profile(), &source_s0_hands());
        assert!(!s.games[0].shutout, "{preset}");
        assert_eq!(s.final_tally[0].shutout_bonus, 0);
    }
}

#[test]
fn boxes_credited_as_each_hand_is_won_count_toward_the_target() {
    let p = profile(r#"{"box_bonus_timing": "each_hand"}"#);
    let hands = source_s0_hands();
    // 10+25, 31+25, (Dad 27+25), 33+25: Mom reaches 149 on the fourth hand.
    let s = score(&p, &hands[..4]);
    let totals: Vec<[u64; 2]> = s.hands.iter().map(|h| h.totals).collect();
    assert_eq!(totals, [[35, 0], [91, 0], [91, 52], [149, 52]]);
    assert_eq!(
        s.final_tally,
        [tally(74, 3, 75, 100, 0), tally(27, 1, 25, 0, 0)]
    );
    assert_eq!(s.net, Some(249 - 52));
    assert_eq!(
        error(&p, &hands),
        MatchError::GameOver {
            hand: 4,
            ended_at: 3,
            hollywood: false
        }
    );
}

#[test]
fn a_hand_after_the_game_ended_is_refused() {
    let mut hands = source_s0_hands();
    hands.push(MatchHand::Void);
    let err = error(&Preset::Standard.profile(), &hands);
    assert!(matches!(err, MatchError::GameOver { .. }));
    assert_eq!(err.hand(), Some(6));
    assert_eq!(
        err.to_string(),
        "hands[6] was recorded after the game ended at hands[5]"
    );
}

#[test]
fn an_unfinished_game_reports_the_score_sheet_so_far() {
    let hands = &source_s0_hands()[..3];
    let s = score(&Preset::Standard.profile(), hands);
    assert!(!s.complete);
    assert_eq!((s.winner, s.scores, s.net), (None, None, None));
    assert_eq!(
        s.final_tally,
        [tally(41, 2, 0, 0, 0), tally(27, 1, 0, 0, 0)]
    );
    let each_hand = score(&profile(r#"{"box_bonus_timing": "each_hand"}"#), hands);
    assert_eq!(
        each_hand.final_tally,
        [tally(41, 2, 50, 0, 0), tally(27, 1, 25, 0, 0)]
    );
    assert_eq!(each_hand.final_tally[0].total, each_hand.hands[2].totals[0]);
    let empty = score(&Preset::Standard.profile(), &[]);
    assert!(!empty.complete && empty.hands.is_empty());
}

#[test]
fn void_hands_score_nothing_win_no_box_and_are_listed() {
    let mut hands = source_s0_hands();
    hands.insert(2, MatchHand::Void);
    let s = score(&Preset::Standard.profile(), &hands);
    assert_eq!(s.hands.len(), 7);
    let void = &s.hands[2];
    assert_eq!(
        (
            void.result.winner,
            void.result.knocker,
            void.result.outcome,
            void.result.points
        ),
        (None, None, None, 0)
    );
    assert!(void.scored_in.is_empty());
    assert_eq!(void.totals, [41, 0]);
    assert_eq!(s.final_tally.map(|t| t.total), [310, 112]);
}

#[test]
fn counts_over_the_knock_limit_are_refused_with_the_hand_index() {
    let err = error(
        &Preset::Standard.profile(),
        &[knock("Mom", 5, 15), knock("Dad", 11, 40)],
    );
    assert_eq!(
        err,
        MatchError::Count {
            hand: 1,
            error: CountError::KnockOverLimit {
                deadwood: 11,
                limit: 10
            }
        }
    );
    assert!(matches!(
        err,
        MatchError::Count {
            error: CountError::KnockOverLimit { .. },
            ..
        }
    ));
    let straight = error(&Preset::Straight.profile(), &[knock("Mom", 1, 15)]);
    assert!(matches!(
        straight,
        MatchError::Count {
            error: CountError::KnockOverLimit { .. },
            ..
        }
    ));
}

#[test]
fn oklahoma_takes_the_limit_and_the_doubling_from_each_hands_upcard() {
    let p = Preset::Oklahoma.profile();
    let s = score(
        &p,
        &[
            with_upcard(knock("Mom", 7, 20), "7D"),
            with_upcard(knock("Dad", 3, 20), "4S"),
            with_upcard(knock("Mom", 0, 20), "AH"),
        ],
    );
    let points: Vec<u32> = s.hands.iter().map(|h| h.result.points).collect();
    assert_eq!(points, [13, 34, 45]);
    assert_eq!(s.hands[1].result.breakdown.map(|b| b.multiplier), Some(2));
    let over = error(&p, &[with_upcard(knock("Mom", 8, 20), "7D")]);
    assert_eq!(
        over,
        MatchError::Count {
            hand: 0,
            error: CountError::KnockOverLimit {
                deadwood: 8,
                limit: 7
            }
        }
    );
    let ace = error(&p, &[with_upcard(knock("Mom", 1, 20), "AD")]);
    assert!(matches!(
        ace,
        MatchError::Count {
            error: CountError::KnockOverLimit { .. },
            ..
        }
    ));
    let missing = error(&p, &[knock("Mom", 1, 20)]);
    assert!(matches!(
        missing,
        MatchError::Count {
            error: CountError::Profile(ProfileError::UpcardRequired { .. }),
            ..
        }
    ));
    assert!(matches!(missing, MatchError::Count { error, .. } if error.field() == "upcard"));
}

#[test]
fn a_defender_count_above_98_is_impossible_and_98_is_not() {
    let best = cards("TS JS TH JH QD KD QC KC 9D 9C").unwrap();
    assert_eq!(
        crate::min_deadwood(best, &crate::JokerRules::NONE),
        MAX_DEFENDER_COUNT
    );
    let p = Preset::Standard.profile();
    assert_eq!(
        score(&p, &[knock("Mom", 10, 98)]).hands[0].result.points,
        88
    );
    let err = error(&p, &[knock("Mom", 10, 99)]);
    assert!(matches!(
        err,
        MatchError::Count {
            error: CountError::ImpossibleDefenderCount { .. },
            ..
        }
    ));
    assert!(matches!(err, MatchError::Count { error, .. } if error.field() == "defender_deadwood"));
}

#[test]
fn big_gin_counts_need_the_profile_and_no_deadwood() {
    let big = |knocker_deadwood| {
        MatchHand::Counts(CountHand {
            knocker: "Dad".into(),
            knocker_deadwood,
            defender_deadwood: 12,
            big_gin: true,
            upcard: None,
        })
    };
    assert!(matches!(
        error(&Preset::Standard.profile(), &[big(0)]),
        MatchError::Count {
            error: CountError::BigGinNotPlayed,
            ..
        }
    ));
    let p = profile(r#"{"big_gin_bonus": 31}"#);
    assert!(matches!(
        error(&p, &[big(3)]),
        MatchError::Count {
            error: CountError::BigGinWithDeadwood { .. },
            ..
        }
    ));
    let s = score(&p, &[big(0)]);
    assert_eq!(
        (
            s.hands[0].result.outcome,
            s.hands[0].result.winner,
            s.hands[0].result.points
        ),
        (Some(Outcome::BigGin), Some(1), 43)
    );
}

#[test]
fn players_are_two_distinct_names() {
    let p = Preset::Standard.profile();
    let names = |[first, second]: [&str; 2]| Players::new(first.to_string(), second.to_string());
    let error = |list| score_match(&p, &names(list), &[]).unwrap_err();
    assert_eq!(
        error([" ", "Dad"]),
        MatchError::BlankPlayerName { index: 0 }
    );
    assert_eq!(
        error(["Mom", " "]),
        MatchError::BlankPlayerName { index: 1 }
    );
    assert!(matches!(
        error(["Mom", "Mom"]),
        MatchError::DuplicatePlayerName { .. }
    ));
    let unknown = score_match(&p, &names(["Mom", "Dad"]), &[knock("Kid", 1, 5)]);
    assert_eq!(
        unknown.unwrap_err(),
        MatchError::UnknownPlayer {
            hand: 0,
            name: "Kid".into()
        }
    );
}

#[test]
fn card_hands_are_scored_as_a_single_hand_is() {
    let hand = |text: &str| cards(text).unwrap().iter().map(HandCard::from).collect();
    // [S4] in docs/RULES.md: Elder knocks 1, Younger lays off 6H and 2H and counts
    // 9.
    let source_s4 = MatchHand::Cards(CardHand {
        knocker: "Dad".into(),
        knocker_hand: KnockerHand {
            hand: hand("3H 4H 5H 9S 9H 9D 3C 4C 5C AH"),
            ..KnockerHand::default()
        },
        defender_hand: DefenderHand {
            hand: hand("6H 2H JS JH JD 7S 7H 7C 4D 5S"),
            ..DefenderHand::default()
        },
        upcard: None,
    });
    let s = score(
        &Preset::Standard.profile(),
        std::slice::from_ref(&source_s4),
    );
    let h = &s.hands[0];
    assert_eq!(
        (
            h.result.winner,
            h.result.points,
            h.result.knocker_deadwood,
            h.result.defender_deadwood
        ),
        (Some(1), 8, Some(1), Some(9))
    );
    let err = error(
        &Preset::Straight.profile(),
        &[knock("Mom", 0, 5), source_s4],
    );
    assert!(matches!(
        err,
        MatchError::Cards {
            hand: 1,
            error: HandError::KnockOverLimit { .. }
        }
    ));
}

#[test]
fn hollywood_hand_by_hand() {
    let p = Preset::Hollywood.profile();
    let hands = [
        knock("Mom", 0, 5),  // 30: Mom's 1st win, game 1
        knock("Dad", 5, 25), // 20: Dad's 1st win, game 1
        knock("Mom", 2, 42), // 40: Mom's 2nd, games 1-2
        knock("Mom", 0, 10), // 35: Mom's 3rd, games 1-3; game 1 closes at 105
        knock("Dad", 3, 33), // 30: Dad's 2nd, game 2 only (game 1 closed)
        knock("Mom", 0, 25), // 50: games 2-3; game 2 closes at 125
        knock("Dad", 5, 20), // 15: Dad's 3rd, enters game 3
        knock("Dad", 0, 75), // 100: Dad closes game 3 at 115
    ];
    let s = score(&p, &hands);
    let scored_in: Vec<Vec<usize>> = s.hands.iter().map(|h| h.scored_in.clone()).collect();
    assert_eq!(
        scored_in,
        [
            vec![0],
            vec![0],
            vec![0, 1],
            vec![0, 1, 2],
            vec![1],
            vec![1, 2],
            vec![2],
            vec![2]
        ]
    );
    let by_game: Vec<Vec<[u64; 2]>> = s.hands.iter().map(|h| h.game_totals.clone()).collect();
    assert_eq!(
        by_game,
        [
            vec![[30, 0], [0, 0], [0, 0]],
            vec![[30, 20], [0, 0], [0, 0]],
            vec![[70, 20], [40, 0], [0, 0]],
            vec![[105, 20], [75, 0], [35, 0]],
            vec![[105, 20], [75, 30], [35, 0]],
            vec![[105, 20], [125, 30], [85, 0]],
            vec![[105, 20], [125, 30], [85, 15]],
            vec![[105, 20], [125, 30], [85, 115]],
        ]
    );
    assert_eq!(s.hands[5].totals, [105 + 125 + 85, 20 + 30]);
    let ends: Vec<_> = s.games.iter().map(|g| (g.winner, g.ended_at)).collect();
    assert_eq!(
        ends,
        [(Some(0), Some(3)), (Some(0), Some(5)), (Some(1), Some(7))]
    );
    let finals: Vec<[Tally; 2]> = s.games.iter().map(|g| g.final_tally).collect();
    assert_eq!(
        finals,
        [
            [tally(105, 3, 75, 100, 0), tally(20, 1, 25, 0, 0)],
            [tally(125, 3, 75, 100, 0), tally(30, 1, 25, 0, 0)],
            [tally(85, 2, 50, 0, 0), tally(115, 2, 50, 100, 0)],
        ]
    );
    let nets: Vec<Option<i64>> = s.games.iter().map(|g| g.net).collect();
    assert_eq!(nets, [Some(235), Some(245), Some(130)]);
    assert!(s.complete);
    assert_eq!(
        s.final_tally,
        [tally(315, 8, 200, 200, 0), tally(165, 4, 100, 100, 0)]
    );
    assert_eq!(s.final_tally.map(|t| t.total), [715, 365]);
    assert_eq!(
        (s.winner, s.scores, s.net),
        (Some(0), Some([715, 365]), Some(350))
    );

    let mut more = hands.to_vec();
    more.push(knock("Mom", 1, 9));
    let err = error(&p, &more);
    assert_eq!(
        err,
        MatchError::GameOver {
            hand: 8,
            ended_at: 7,
            hollywood: true
        }
    );
    assert_eq!(
        err.to_string(),
        "hands[8] was recorded after the last of the three Hollywood games ended at hands[7]"
    );
    // Mid-match: games 1 and 2 over, game 3 open.
    let partial = score(&p, &hands[..6]);
    assert!(!partial.complete);
    assert!(partial.games[0].complete && partial.games[1].complete);
    assert!(!partial.games[2].complete);
    assert_eq!((partial.winner, partial.net), (None, None));
    assert_eq!(partial.games[2].final_tally[0], tally(85, 2, 0, 0, 0));
}

#[test]
fn hollywood_a_player_shut_out_of_game_1_makes_his_first_entry_in_game_2() {
    let p = Preset::Hollywood.profile();
    let hands = [
        knock("Mom", 0, 50), // 75 in game 1
        knock("Mom", 0, 40), // 65 in games 1-2: game 1 closes at 140
        knock("Dad", 2, 12), // Dad's first win: game 1 is closed, so game 2
    ];
    let s = score(&p, &hands);
    assert_eq!(s.hands[2].scored_in, [1]);
    assert_eq!(s.hands[2].game_totals, [[140, 0], [65, 10], [0, 0]]);
    let game_1 = &s.games[0];
    assert!(game_1.shutout);
    assert_eq!(game_1.final_tally[0], tally(140, 2, 50, 100, 240));
    assert_eq!(game_1.net, Some(530));
}

#[test]
fn hollywood_with_the_winner_scoring_the_difference_sums_the_games() {
    let p = profile(r#"{"base": "schneider", "hollywood": true, "target": 50}"#);
    let hands = [
        knock("Mom", 0, 30), // 55: game 1 closes, Mom 55 to 0, shutout
        knock("Dad", 0, 30), // Dad enters game 2: 55, closes it
        knock("Dad", 0, 30), // Dad enters game 3: 55, closes it
    ];
    let s = score(&p, &hands);
    assert!(s.complete);
    let scores: Vec<Option<[i64; 2]>> = s.games.iter().map(|g| g.scores).collect();
    // Game 1: 55 + 20 box + 100 shutout; games 2 and 3: Dad 55 + 20 + 100.
    assert_eq!(scores, [Some([175, 0]), Some([0, 175]), Some([0, 175])]);
    assert_eq!(
        (s.winner, s.scores, s.net),
        (Some(1), Some([175, 350]), Some(175))
    );
}

#[test]
fn a_match_takes_at_most_max_match_hands() {
    let p = Preset::Standard.profile();
    let voids = vec![MatchHand::Void; MAX_MATCH_HANDS];
    let s = score(&p, &voids);
    assert_eq!((s.hands.len(), s.complete), (MAX_MATCH_HANDS, false));
    let too_many = vec![MatchHand::Void; MAX_MATCH_HANDS + 1];
    let err = error(&p, &too_many);
    assert_eq!(
        err,
        MatchError::TooManyHands {
            found: MAX_MATCH_HANDS + 1,
            max: MAX_MATCH_HANDS
        }
    );
    assert!(matches!(err, MatchError::TooManyHands { .. }));
    assert_eq!(err.hand(), None);
}

#[test]
fn running_totals_saturate_rather_than_wrap() {
    // Unreachable within MAX_MATCH_HANDS (see `Tally`), so built by hand.
    let p = profile(r#"{"box_bonus_timing": "each_hand"}"#);
    let mut game = tally::Sheet::<2> {
        running: [u64::MAX - 1, 0],
        ..tally::Sheet::default()
    };
    game.credit(&p, Player::First.into(), 20, 7);
    assert_eq!(game.running, [u64::MAX, 0]);
    assert_eq!(game.ended, Some((Player::First.into(), 7)));
    let sum = Tally {
        total: u64::MAX,
        ..Tally::default()
    }
    .add(Tally {
        total: 1,
        ..Tally::default()
    });
    assert_eq!(sum.total, u64::MAX);
}

#[test]
fn players_are_reached_by_name_order() {
    let names = players();
    assert_eq!(names.get(Player::First), "Mom");
    assert_eq!(names.get(Player::First.other()), "Dad");
    assert_eq!(Player::BOTH.map(Player::index), [0, 1]);
    let both: Vec<(Player, &String)> = names.iter().collect();
    assert_eq!(both.len(), 2);
    assert_eq!(
        Players::from([1, 2]).map(|_, n| n * 10).into_array(),
        [10, 20]
    );
}
