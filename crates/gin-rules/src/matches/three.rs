//! Three players (`docs/RULES.md`, "Three players"): two play each hand, the
//! loser sits out the next, the winner meets the player who sat out; after a
//! void hand the same two play again. Each player keeps a total; the first to
//! the target wins the game. Settlement is pairwise.

use super::seated::{
    ScoredSeatedHand, SeatedHand, flat_shutout_bonus, play_seated, validate_names,
};
use super::{MAX_MATCH_HANDS, MatchError, Tally};
use crate::profile::{BoxBonusTiming, Profile, ShutoutTest};

/// A three-player match scored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreeScore {
    /// The players' names; results refer to them by index.
    pub players: [String; 3],
    /// Each hand as scored, with running totals after it.
    pub hands: Vec<(ScoredSeatedHand, [u64; 3])>,
    /// A player reached the target.
    pub complete: bool,
    /// That player (`None` until then).
    pub winner: Option<usize>,
    /// Each player's line on the score sheet.
    pub final_tally: [Tally; 3],
    /// Each player's net: the sum of its pairwise nets (`None` until
    /// complete). The three sum to zero.
    pub nets: Option<[i64; 3]>,
    /// Each pair's net, the first player's against the second: (0, 1), (0, 2),
    /// (1, 2) (`None` until complete).
    pub pairs: Option<[((usize, usize), i64); 3]>,
}

/// Scores a three-player match hand by hand.
///
/// ```
/// use gin_rules::{score_three, CountHand, MatchHand, Preset, SeatedHand};
/// let knock = |k: &str, d: &str, kd, dd| SeatedHand {
///     players: [k.into(), d.into()],
///     hand: MatchHand::Counts(CountHand {
///         knocker: k.into(), knocker_deadwood: kd, defender_deadwood: dd,
///         big_gin: false, upcard: None,
///     }),
/// };
/// let players = ["Ann".to_string(), "Bob".to_string(), "Cy".to_string()];
/// // Ann beats Bob, so Bob sits out and Ann meets Cy.
/// let hands = [knock("Ann", "Bob", 4, 20), knock("Cy", "Ann", 2, 30)];
/// let score = score_three(&Preset::Standard.profile(), &players, &hands).unwrap();
/// assert_eq!(score.hands[1].1, [16, 0, 28]);
/// ```
pub fn score_three(
    profile: &Profile,
    players: &[String; 3],
    hands: &[SeatedHand],
) -> Result<ThreeScore, MatchError> {
    if hands.len() > MAX_MATCH_HANDS {
        return Err(MatchError::TooManyHands {
            found: hands.len(),
            max: MAX_MATCH_HANDS,
        });
    }
    validate_names(players)?;
    if profile.hollywood() {
        return Err(MatchError::HollywoodNotDefined {
            format: "three players",
        });
    }
    let each_hand_box = match profile.box_bonus_timing() {
        BoxBonusTiming::EachHand => u64::from(profile.box_bonus()),
        BoxBonusTiming::EndOfGame => 0,
    };
    let mut running = [0u64; 3];
    let mut hand_points = [0u64; 3];
    let mut hands_won = [0u64; 3];
    let mut ended: Option<(usize, usize)> = None;
    let mut expected: Option<[usize; 2]> = None;
    let mut scored = Vec::with_capacity(hands.len());
    for (index, hand) in hands.iter().enumerate() {
        if let Some((_, ended_at)) = ended {
            return Err(MatchError::GameOver {
                hand: index,
                ended_at,
                hollywood: false,
            });
        }
        let result = play_seated(profile, players, hand, index)?;
        if let Some(pair) = expected
            && !same_pair(pair, result.players)
        {
            return Err(MatchError::RotationBroken {
                hand: index,
                expected: pair.map(|p| name(players, p)),
            });
        }
        expected = Some(next_pair(&result));
        let won_hand = result
            .winner
            .filter(|_| super::counts_as_won(profile, result.points));
        if let (Some(winner), Some(won)) = (won_hand, slot(&mut running, won_hand)) {
            let points = u64::from(result.points);
            *won = won.saturating_add(points).saturating_add(each_hand_box);
            add(&mut hand_points, winner, points);
            add(&mut hands_won, winner, 1);
            if *won >= u64::from(profile.target()) {
                ended = Some((winner, index));
            }
        }
        scored.push((result, running));
    }
    Ok(finish(
        profile,
        players,
        scored,
        running,
        hand_points,
        hands_won,
        ended,
    ))
}

/// Who plays next: after a won hand the winner and the player who sat out;
/// after a void hand the same two.
pub(crate) fn next_pair(hand: &ScoredSeatedHand) -> [usize; 2] {
    match (hand.winner, hand.loser()) {
        (Some(winner), Some(loser)) => {
            let sat_out = (0..3).find(|&p| p != winner && p != loser).unwrap_or(loser);
            [winner, sat_out]
        }
        _ => hand.players,
    }
}

fn same_pair(a: [usize; 2], b: [usize; 2]) -> bool {
    a == b || a == [b[1], b[0]]
}

fn name(players: &[String; 3], index: usize) -> String {
    players.get(index).cloned().unwrap_or_default()
}

fn slot(values: &mut [u64; 3], index: Option<usize>) -> Option<&mut u64> {
    values.get_mut(index?)
}

fn add(values: &mut [u64; 3], index: usize, amount: u64) {
    if let Some(value) = values.get_mut(index) {
        *value = value.saturating_add(amount);
    }
}

fn finish(
    profile: &Profile,
    players: &[String; 3],
    hands: Vec<(ScoredSeatedHand, [u64; 3])>,
    running: [u64; 3],
    hand_points: [u64; 3],
    hands_won: [u64; 3],
    ended: Option<(usize, usize)>,
) -> ThreeScore {
    let box_bonus = u64::from(profile.box_bonus());
    let Some((winner, _)) = ended else {
        let credited = match profile.box_bonus_timing() {
            BoxBonusTiming::EachHand => box_bonus,
            BoxBonusTiming::EndOfGame => 0,
        };
        let final_tally = std::array::from_fn(|p| Tally {
            hand_points: hand_points.get(p).copied().unwrap_or(0),
            hands_won: hands_won.get(p).copied().unwrap_or(0),
            box_bonus: hands_won
                .get(p)
                .copied()
                .unwrap_or(0)
                .saturating_mul(credited),
            total: running.get(p).copied().unwrap_or(0),
            ..Tally::default()
        });
        return ThreeScore {
            players: players.clone(),
            hands,
            complete: false,
            winner: None,
            final_tally,
            nets: None,
            pairs: None,
        };
    };
    // The bonus each player earned from each other: only the winner earns, a
    // flat bonus from each opponent shut out.
    let flat = flat_shutout_bonus(profile);
    let shut_out = |p: usize| match profile.shutout_test() {
        ShutoutTest::ScoredNothing => hand_points.get(p).copied().unwrap_or(0) == 0,
        ShutoutTest::WonNoHand => hands_won.get(p).copied().unwrap_or(0) == 0,
    };
    let earned = |from: usize, to: usize| -> u64 {
        if to == winner && from != winner && shut_out(from) {
            flat
        } else {
            0
        }
    };
    let final_tally: [Tally; 3] = std::array::from_fn(|p| {
        let points = hand_points.get(p).copied().unwrap_or(0);
        let won = hands_won.get(p).copied().unwrap_or(0);
        let boxes = won.saturating_mul(box_bonus);
        let game = if p == winner {
            u64::from(profile.game_bonus())
        } else {
            0
        };
        let shutout = (0..3).map(|from| earned(from, p)).sum::<u64>();
        Tally {
            hand_points: points,
            hands_won: won,
            box_bonus: boxes,
            game_bonus: game,
            shutout_bonus: shutout,
            total: points
                .saturating_add(boxes)
                .saturating_add(game)
                .saturating_add(shutout),
        }
    });
    let base = |p: usize| {
        final_tally
            .get(p)
            .map_or(0, |t| signed(t.total) - signed(t.shutout_bonus))
    };
    let pair_net =
        |a: usize, b: usize| base(a) - base(b) + signed(earned(b, a)) - signed(earned(a, b));
    let pairs = [(0, 1), (0, 2), (1, 2)].map(|(a, b)| ((a, b), pair_net(a, b)));
    let nets = std::array::from_fn(|p| {
        (0..3)
            .filter(|&q| q != p)
            .map(|q| pair_net(p, q))
            .sum::<i64>()
    });
    ThreeScore {
        players: players.clone(),
        hands,
        complete: true,
        winner: Some(winner),
        final_tally,
        nets: Some(nets),
        pairs: Some(pairs),
    }
}

/// A total as a signed number; totals stay far below `i64::MAX` (the bound on
/// [`Tally`]), saturating all the same.
fn signed(points: u64) -> i64 {
    i64::try_from(points).unwrap_or(i64::MAX)
}
