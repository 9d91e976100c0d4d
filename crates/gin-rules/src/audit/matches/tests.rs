use super::*;
use crate::audit::scoring_upcard;
use crate::audit::tests::play_outs::{PlayOut, play_out};
use crate::profile::{Preset, ProfileOverrides};
use crate::{
    CountHand, Move, PartnershipDeal, SeatedHand, Team, score_match, score_partnership, score_three,
};

fn players() -> Players<String> {
    Players::new("Ann".to_string(), "Bob".to_string())
}

fn profile(json: &str) -> Profile {
    serde_json::from_str::<ProfileOverrides>(json)
        .unwrap()
        .resolve()
        .unwrap()
}

/// The player who won points in a play-out, given who dealt.
fn scorer(game: &PlayOut, dealer: Player) -> Option<Player> {
    let (knocker, score) = game.expected.as_ref()?;
    let knocker = match knocker {
        Seat::Dealer => dealer,
        Seat::NonDealer => dealer.other(),
    };
    let settlement = score.settlement();
    (settlement.points > 0).then_some(match settlement.winner {
        Side::Knocker => knocker,
        Side::Defender => knocker.other(),
    })
}

/// The same hand as the scorer's count form, computed from the play-out's
/// expected score (not from the audit).
fn counts(game: &PlayOut, dealer: Player) -> MatchHand {
    let Some((knocker, score)) = &game.expected else {
        return MatchHand::Void;
    };
    let knocker = match knocker {
        Seat::Dealer => dealer,
        Seat::NonDealer => dealer.other(),
    };
    MatchHand::Counts(CountHand {
        knocker: players().get(knocker).clone(),
        knocker_deadwood: score.counts().0,
        defender_deadwood: score.counts().1,
        big_gin: score.counts().2,
        upcard: Some(scoring_upcard(game.deal.upcard)),
    })
}

/// A legal match played out hand by hand until the game ends (or `max`
/// hands), dealers seated by the profile's rule; with the same hands as counts.
fn legal_match(seed: u64, profile: &Profile, max: usize) -> (Vec<RecordedHand>, Vec<MatchHand>) {
    let mut recorded = Vec::new();
    let mut counted = Vec::new();
    let mut dealer = if seed.is_multiple_of(2) {
        Player::First
    } else {
        Player::Second
    };
    for hand in 0..max as u64 {
        let game = play_out(seed * 1_000 + hand, profile);
        recorded.push(RecordedHand {
            dealer: players().get(dealer).clone(),
            non_dealer: None,
            deal: game.deal.clone(),
            seeds: None,
            actions: game.actions.clone(),
        });
        counted.push(counts(&game, dealer));
        if score_match(profile, &players(), &counted).unwrap().complete {
            break;
        }
        dealer = match (profile.next_dealer(), scorer(&game, dealer)) {
            (NextDealer::Alternate, _) => dealer.other(),
            (NextDealer::Winner, Some(winner)) => winner,
            (NextDealer::Winner, None) => dealer,
            (NextDealer::AlternateAfterScored, Some(_)) => dealer.other(),
            (NextDealer::AlternateAfterScored, None) => dealer,
        };
    }
    (recorded, counted)
}

#[test]
fn random_legal_matches_audit_to_the_totals_score_match_gives_their_counts() {
    let profiles = [
        Preset::Standard.profile(),
        Preset::Oklahoma.profile(),
        Preset::Hollywood.profile(),
        Preset::Tournament.profile(),
        profile(r#"{"next_dealer": "winner"}"#),
        profile(r#"{"base": "schneider", "next_dealer": "winner"}"#),
        Preset::Eaai.profile(),
    ];
    let (mut complete, mut hands) = (0, 0);
    for seed in 0..36 {
        let profile = &profiles[seed as usize % profiles.len()];
        let (recorded, counted) = legal_match(seed, profile, 40);
        let audit = audit_match(profile, &players(), &recorded).unwrap();
        assert!(audit.is_legal(), "seed {seed}: {:?}", audit.violation);
        assert_eq!(audit.hands.len(), recorded.len());
        let expected = score_match(profile, &players(), &counted).unwrap();
        assert_eq!(audit.score.final_tally, expected.final_tally, "seed {seed}");
        assert_eq!(audit.score.scores, expected.scores, "seed {seed}");
        assert_eq!(audit.score.winner, expected.winner, "seed {seed}");
        complete += usize::from(audit.score.complete);
        hands += recorded.len();
    }
    assert!(
        complete >= 30,
        "only {complete} of 36 matches reached the target"
    );
    assert!(hands >= 150, "only {hands} hands");
}

#[test]
fn a_hand_dealt_by_the_wrong_player_is_wrong_dealer_at_no_action() {
    let standard = Preset::Standard.profile();
    let (mut recorded, _) = legal_match(2, &standard, 3);
    recorded[1].dealer = recorded[0].dealer.clone();
    let audit = audit_match(&standard, &players(), &recorded).unwrap();
    let violation = audit.violation.unwrap();
    assert_eq!(violation.hand, 1);
    assert_eq!(violation.violation.code, ViolationCode::WrongDealer);
    assert_eq!(violation.violation.action, None);
    assert!(violation.violation.message.contains("the deal alternates"));
    assert_eq!(audit.hands.len(), 2);
    assert_eq!(audit.score.hands.len(), 1);
}

#[test]
fn under_the_winner_rule_the_winner_deals_and_a_scoreless_hand_keeps_the_dealer() {
    let winner_deals = profile(r#"{"next_dealer": "winner"}"#);
    // Find a match whose second hand is dealt by the first hand's dealer
    // (the dealer won, or nothing was scored): alternating there is wrong.
    let (recorded, _) = (0..40)
        .map(|seed| legal_match(seed, &winner_deals, 2))
        .find(|(r, _)| r.len() == 2 && r[0].dealer == r[1].dealer)
        .unwrap();
    assert!(
        audit_match(&winner_deals, &players(), &recorded)
            .unwrap()
            .is_legal()
    );
    let mut alternated = recorded.clone();
    alternated[1].dealer = if recorded[0].dealer == "Ann" {
        "Bob"
    } else {
        "Ann"
    }
    .into();
    let violation = audit_match(&winner_deals, &players(), &alternated)
        .unwrap()
        .violation
        .unwrap();
    assert_eq!(
        (violation.hand, violation.violation.code),
        (1, ViolationCode::WrongDealer)
    );
    // The same record is wrong under the alternating rule.
    let standard = Preset::Standard.profile();
    let violation = audit_match(&standard, &players(), &recorded)
        .unwrap()
        .violation
        .unwrap();
    assert_eq!(violation.violation.code, ViolationCode::WrongDealer);
}

#[test]
fn a_hand_after_the_game_ended_is_reported_before_its_own_faults() {
    let standard = Preset::Standard.profile();
    let (mut recorded, counted) = legal_match(4, &standard, 60);
    assert!(
        score_match(&standard, &players(), &counted)
            .unwrap()
            .complete
    );
    let ended_at = recorded.len() - 1;
    // One more hand, dealt by the wrong player too: the end of the game wins.
    let mut extra = recorded[0].clone();
    extra.dealer = recorded[ended_at].dealer.clone();
    recorded.push(extra);
    let audit = audit_match(&standard, &players(), &recorded).unwrap();
    let violation = audit.violation.unwrap();
    assert_eq!(violation.hand, ended_at + 1);
    assert_eq!(violation.violation.code, ViolationCode::HandAfterGameEnd);
    assert!(audit.score.complete);
    assert_eq!(audit.hands.len(), ended_at + 2);
}

#[test]
fn an_unfinished_hand_is_a_fault_unless_it_is_the_last() {
    let standard = Preset::Standard.profile();
    let (mut recorded, _) = legal_match(6, &standard, 3);
    assert_eq!(recorded.len(), 3);
    recorded[2].actions.truncate(2);
    let in_progress = audit_match(&standard, &players(), &recorded).unwrap();
    assert!(in_progress.is_legal());
    assert_eq!(in_progress.score.hands.len(), 2);
    recorded[1].actions.truncate(3);
    let audit = audit_match(&standard, &players(), &recorded).unwrap();
    let violation = audit.violation.unwrap();
    assert_eq!(
        (violation.hand, violation.violation.code),
        (1, ViolationCode::HandUnfinished)
    );
    assert_eq!(audit.hands.len(), 2);
    assert_eq!(audit.score.hands.len(), 1);
}

#[test]
fn an_illegal_action_is_reported_with_its_hand_and_index() {
    let standard = Preset::Standard.profile();
    let (mut recorded, _) = legal_match(8, &standard, 3);
    recorded[1].actions.insert(
        0,
        Action {
            player: Seat::Dealer,
            play: Move::Pass,
        },
    );
    let audit = audit_match(&standard, &players(), &recorded).unwrap();
    let violation = audit.violation.unwrap();
    assert_eq!(violation.hand, 1);
    assert_eq!(violation.violation.action, Some(0));
    assert_eq!(violation.violation.code, ViolationCode::UpcardOfferViolated);
}

#[test]
fn seeded_deals_share_commitment_and_client_seed_with_increasing_nonces() {
    let standard = Preset::Standard.profile();
    let (recorded, _) = legal_match(10, &standard, 4);
    assert!(recorded.len() >= 3);
    let seeded = |nonce: u64, client: &str, commitment: &str| DealSeeds {
        client_seed: client.into(),
        commitment: commitment.into(),
        nonce,
        mismatch: None,
    };
    let with = |seeds: Vec<DealSeeds>| {
        let mut hands = recorded.clone();
        for (hand, seeds) in hands.iter_mut().zip(seeds) {
            hand.seeds = Some(seeds);
        }
        audit_match(&standard, &players(), &hands[..3]).unwrap()
    };
    let code = |audit: MatchAudit<MatchScore>| audit.violation.map(|v| (v.hand, v.violation.code));
    let c = "ab".repeat(32);
    assert_eq!(
        code(with(vec![
            seeded(1, "x", &c),
            seeded(2, "x", &c),
            seeded(7, "x", &c)
        ])),
        None
    );
    assert_eq!(
        code(with(vec![
            seeded(1, "x", &c),
            seeded(1, "x", &c),
            seeded(2, "x", &c)
        ])),
        Some((1, ViolationCode::DealNonceNotIncreasing))
    );
    assert_eq!(
        code(with(vec![
            seeded(1, "x", &c),
            seeded(2, "y", &c),
            seeded(3, "x", &c)
        ])),
        Some((1, ViolationCode::DealSeedsDiffer))
    );
    let other = "cd".repeat(32);
    assert_eq!(
        code(with(vec![
            seeded(1, "x", &c),
            seeded(2, "x", &c),
            seeded(3, "x", &other)
        ])),
        Some((2, ViolationCode::DealSeedsDiffer))
    );
    let mut mismatch = seeded(2, "x", &c);
    mismatch.mismatch = Some("the seed hashes elsewhere".into());
    let audit = with(vec![seeded(1, "x", &c), mismatch]);
    assert_eq!(
        audit.hands[1][0].end, None,
        "a mismatched deal is judged before its actions"
    );
    assert_eq!(
        code(audit),
        Some((1, ViolationCode::DealCommitmentMismatch))
    );
    // A hand given by its cards in a seeded match.
    assert_eq!(
        code(with(vec![seeded(1, "x", &c)])),
        Some((1, ViolationCode::DealSeedsDiffer))
    );
}

#[test]
fn a_dealer_who_is_not_a_player_cannot_be_audited() {
    let standard = Preset::Standard.profile();
    let (mut recorded, _) = legal_match(12, &standard, 2);
    recorded[1].dealer = "Cy".into();
    assert_eq!(
        audit_match(&standard, &players(), &recorded),
        Err(MatchAuditError::Match(MatchError::UnknownPlayer {
            hand: 1,
            name: "Cy".into()
        }))
    );
}

// ---- Three players and partnerships -----------------------------------------

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|n| n.to_string()).collect()
}

/// A play-out between `seats` ([dealer, non-dealer], indices into `all`): the
/// recorded table, the same hand as counts, and the winner's index (`None`
/// for a void hand).
fn seated_play_out(
    seed: u64,
    profile: &Profile,
    all: &[String],
    seats: [usize; 2],
) -> (RecordedHand, SeatedHand, Option<usize>) {
    let game = play_out(seed, profile);
    let [dealer, non_dealer] = seats;
    let recorded = RecordedHand {
        dealer: all[dealer].clone(),
        non_dealer: Some(all[non_dealer].clone()),
        deal: game.deal.clone(),
        seeds: None,
        actions: game.actions.clone(),
    };
    let seat_of = |seat: Seat| match seat {
        Seat::Dealer => dealer,
        Seat::NonDealer => non_dealer,
    };
    let Some((knocker, score)) = &game.expected else {
        let void = SeatedHand {
            players: [all[dealer].clone(), all[non_dealer].clone()],
            hand: MatchHand::Void,
        };
        return (recorded, void, None);
    };
    let knocker = seat_of(*knocker);
    let defender = if knocker == dealer {
        non_dealer
    } else {
        dealer
    };
    let winner = match score.settlement().winner {
        Side::Knocker => knocker,
        Side::Defender => defender,
    };
    let counts = SeatedHand {
        players: [all[knocker].clone(), all[defender].clone()],
        hand: MatchHand::Counts(CountHand {
            knocker: all[knocker].clone(),
            knocker_deadwood: score.counts().0,
            defender_deadwood: score.counts().1,
            big_gin: score.counts().2,
            upcard: Some(scoring_upcard(game.deal.upcard)),
        }),
    };
    (recorded, counts, Some(winner))
}

/// A legal three-player match: the loser sits out, the winner deals to the
/// player who sat out; a void hand is replayed by the same two.
fn legal_three(seed: u64, profile: &Profile) -> (Vec<RecordedHand>, Vec<SeatedHand>) {
    let all = names(&["Ann", "Bob", "Cy"]);
    let (mut recorded, mut counted) = (Vec::new(), Vec::new());
    let mut seats = [0, 1];
    for hand in 0..60 {
        let (record, counts, winner) = seated_play_out(seed * 1_000 + hand, profile, &all, seats);
        recorded.push(record);
        counted.push(counts);
        let players: [String; 3] = all.clone().try_into().unwrap();
        if score_three(profile, &players, &counted).unwrap().complete {
            break;
        }
        if let Some(winner) = winner {
            let sat_out = (0..3).find(|p| !seats.contains(p)).unwrap();
            seats = [winner, sat_out];
        }
    }
    (recorded, counted)
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

/// A legal partnership match: A1-B1 and A2-B2 on even deals, A1-B2 and A2-B1
/// on odd ones (A1 Ann, A2 Cy, B1 Bob, B2 Dee).
fn legal_partnership(
    seed: u64,
    profile: &Profile,
    max: usize,
) -> (Vec<[RecordedHand; 2]>, Vec<PartnershipDeal>) {
    let all = names(&["Ann", "Cy", "Bob", "Dee"]);
    let (mut recorded, mut counted) = (Vec::new(), Vec::new());
    for deal in 0..max as u64 {
        let pairs = if deal % 2 == 0 {
            [[0, 2], [3, 1]]
        } else {
            [[3, 0], [1, 2]]
        };
        let (one, one_counts, _) =
            seated_play_out(seed * 1_000 + 2 * deal, profile, &all, pairs[0]);
        let (two, two_counts, _) =
            seated_play_out(seed * 1_000 + 2 * deal + 1, profile, &all, pairs[1]);
        recorded.push([one, two]);
        counted.push(PartnershipDeal {
            tables: [one_counts, two_counts],
        });
        if score_partnership(profile, &teams(), &counted)
            .unwrap()
            .complete
        {
            break;
        }
    }
    (recorded, counted)
}

#[test]
fn random_three_player_matches_audit_to_the_totals_of_their_counts() {
    let players: [String; 3] = names(&["Ann", "Bob", "Cy"]).try_into().unwrap();
    let profiles = [Preset::Standard.profile(), Preset::Oklahoma.profile()];
    let mut hands = 0;
    for seed in 0..12 {
        let profile = &profiles[seed as usize % 2];
        let (recorded, counted) = legal_three(seed, profile);
        let audit = audit_three(profile, &players, &recorded).unwrap();
        assert!(audit.is_legal(), "seed {seed}: {:?}", audit.violation);
        let expected = score_three(profile, &players, &counted).unwrap();
        assert!(expected.complete);
        assert_eq!(audit.score.final_tally, expected.final_tally, "seed {seed}");
        assert_eq!(audit.score.nets, expected.nets, "seed {seed}");
        hands += recorded.len();
    }
    assert!(hands >= 50, "{hands}");
}

#[test]
fn a_three_player_hand_off_the_rotation_is_rotation_broken() {
    let players: [String; 3] = names(&["Ann", "Bob", "Cy"]).try_into().unwrap();
    let standard = Preset::Standard.profile();
    let (mut recorded, _) = legal_three(3, &standard);
    // Seat, at hand 1, the player the rotation keeps out.
    let at_table = [
        recorded[1].dealer.clone(),
        recorded[1].non_dealer.clone().unwrap(),
    ];
    let sat_out = players.iter().find(|p| !at_table.contains(p)).unwrap();
    recorded[1].non_dealer = Some(sat_out.clone());
    if recorded[1].dealer == *sat_out {
        recorded[1].dealer = at_table[1].clone();
    }
    let audit = audit_three(&standard, &players, &recorded).unwrap();
    let violation = audit.violation.unwrap();
    assert_eq!(
        (violation.hand, violation.violation.code),
        (1, ViolationCode::RotationBroken)
    );
    assert_eq!(audit.hands.len(), 2);
    // Without `non_dealer` the hand cannot be seated.
    recorded[0].non_dealer = None;
    assert_eq!(
        audit_three(&standard, &players, &recorded),
        Err(MatchAuditError::NonDealerRequired {
            hand: 0,
            table: None
        })
    );
}

#[test]
fn random_partnership_matches_audit_to_the_totals_of_their_counts() {
    let profile = Preset::Partnership.profile();
    let mut deals = 0;
    for seed in 0..10 {
        let (recorded, counted) = legal_partnership(seed, &profile, 40);
        let audit = audit_partnership(&profile, &teams(), &recorded).unwrap();
        assert!(audit.is_legal(), "seed {seed}: {:?}", audit.violation);
        let expected = score_partnership(&profile, &teams(), &counted).unwrap();
        assert!(expected.complete);
        assert_eq!(audit.score.final_tally, expected.final_tally, "seed {seed}");
        assert!(audit.hands.iter().all(|tables| tables.len() == 2));
        deals += recorded.len();
    }
    assert!(deals >= 30, "{deals}");
}

#[test]
fn a_partnership_deal_off_its_pairings_is_pairing_broken_and_a_last_deal_may_be_in_progress() {
    let profile = Preset::Partnership.profile();
    let (recorded, _) = legal_partnership(5, &profile, 3);
    assert_eq!(recorded.len(), 3);
    // Deal 1 played with deal 0's pairings.
    let mut repeated = recorded.clone();
    repeated[1] = recorded[0].clone();
    let audit = audit_partnership(&profile, &teams(), &repeated).unwrap();
    let violation = audit.violation.unwrap();
    assert_eq!((violation.hand, violation.table), (1, None));
    assert_eq!(violation.violation.code, ViolationCode::PairingBroken);
    // The last deal with one table still being played: legal, not scored.
    let mut in_progress = recorded.clone();
    in_progress[2][1].actions.truncate(1);
    let audit = audit_partnership(&profile, &teams(), &in_progress).unwrap();
    assert!(audit.is_legal(), "{:?}", audit.violation);
    assert_eq!(audit.score.deals.len(), 2);
    assert_eq!(audit.hands.len(), 3);
    // The same table stopping early in a deal that is not the last.
    let mut unfinished = recorded.clone();
    unfinished[1][1].actions.truncate(1);
    let violation = audit_partnership(&profile, &teams(), &unfinished)
        .unwrap()
        .violation
        .unwrap();
    assert_eq!(
        (violation.hand, violation.table, violation.violation.code),
        (1, Some(1), ViolationCode::HandUnfinished)
    );
}

#[test]
fn under_eaai_the_deal_passes_after_a_scored_hand_and_stays_after_a_void_one() {
    let eaai = Preset::Eaai.profile();
    let (mut after_void, mut after_scored) = (0, 0);
    for seed in 0..30 {
        let (recorded, counted) = legal_match(seed, &eaai, 40);
        assert!(
            audit_match(&eaai, &players(), &recorded)
                .unwrap()
                .is_legal(),
            "seed {seed}"
        );
        for (index, pair) in recorded.windows(2).enumerate() {
            let void = matches!(counted[index], MatchHand::Void);
            assert_eq!(pair[0].dealer == pair[1].dealer, void, "seed {seed}");
            // The other dealer is refused, with the rule's reason.
            let mut wrong = recorded[..index + 2].to_vec();
            wrong[index + 1].dealer = if pair[1].dealer == "Ann" {
                "Bob"
            } else {
                "Ann"
            }
            .into();
            let violation = audit_match(&eaai, &players(), &wrong)
                .unwrap()
                .violation
                .unwrap();
            assert_eq!(
                (violation.hand, violation.violation.code),
                (index + 1, ViolationCode::WrongDealer)
            );
            let reason = if void {
                "after a hand that scores nothing the same dealer deals again"
            } else {
                "the deal passes after a hand that scores"
            };
            assert!(
                violation.violation.message.contains(reason),
                "{}",
                violation.violation.message
            );
            if void {
                after_void += 1;
            } else {
                after_scored += 1;
            }
        }
    }
    assert!(
        after_void >= 3 && after_scored >= 30,
        "{after_void} voids, {after_scored} scored"
    );
}
