//! Partnership (`docs/RULES.md`, "Partnership"): two teams of two; each deal
//! is two two-player hands at two tables, partners changing opponents deal by
//! deal; the deal's result is the net of both tables, scored by the team ahead
//! alone, with the box for that deal.

use super::seated::{
    ScoredSeatedHand, SeatedHand, flat_shutout_bonus, play_seated, validate_names,
};
use super::{MAX_MATCH_HANDS, MatchError, Tally};
use crate::profile::{BoxBonusTiming, Profile, ShutoutTest};

/// A team: its name and its two players, in the order that fixes the pairings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team {
    /// The team's name.
    pub name: String,
    /// Its two players.
    pub players: [String; 2],
}

/// One deal: the hands at the two tables, in either order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartnershipDeal {
    /// The two tables.
    pub tables: [SeatedHand; 2],
}

/// A deal as scored. Players are indices 0..4: the first team's two players,
/// then the second team's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoredDeal {
    /// Each table's hand as scored.
    pub tables: [ScoredSeatedHand; 2],
    /// The first team's signed result at each table (its points won minus the
    /// points it lost).
    pub table_results: [i64; 2],
    /// The team with a positive net for the deal (`None` at 0).
    pub winner: Option<usize>,
    /// That team's net: the points it scores for the deal.
    pub points: u64,
    /// Running team totals after the deal.
    pub totals: [u64; 2],
}

/// A partnership match scored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartnershipScore {
    /// The teams' names; results refer to them by index.
    pub teams: [String; 2],
    /// Each deal as scored.
    pub deals: Vec<ScoredDeal>,
    /// A team reached the target.
    pub complete: bool,
    /// That team (`None` until then).
    pub winner: Option<usize>,
    /// Each team's line on the score sheet (`hands_won`: deals won).
    pub final_tally: [Tally; 2],
    /// The winning team's total minus the other's (`None` until complete).
    pub net: Option<i64>,
}

/// The pairings of deal `index` (0-based): A1-B1 and A2-B2 on even deals,
/// A1-B2 and A2-B1 on odd ones, with players numbered A1, A2, B1, B2 = 0..4.
pub(crate) const fn pairings(index: usize) -> [[usize; 2]; 2] {
    if index.is_multiple_of(2) {
        [[0, 2], [1, 3]]
    } else {
        [[0, 3], [1, 2]]
    }
}

/// The team of player `p` (0..4).
const fn team_of(player: usize) -> usize {
    player / 2
}

/// Scores a partnership match deal by deal.
///
/// ```
/// use gin_rules::{score_partnership, CountHand, MatchHand, PartnershipDeal, Preset, SeatedHand, Team};
/// let knock = |k: &str, d: &str, kd, dd| SeatedHand {
///     players: [k.into(), d.into()],
///     hand: MatchHand::Counts(CountHand {
///         knocker: k.into(), knocker_deadwood: kd, defender_deadwood: dd,
///         big_gin: false, upcard: None,
///     }),
/// };
/// let teams = [
///     Team { name: "North-South".into(), players: ["Ann".into(), "Cy".into()] },
///     Team { name: "East-West".into(), players: ["Bob".into(), "Dee".into()] },
/// ];
/// // Ann wins 12, Cy loses 10: the side scores 2 for the deal.
/// let deal = PartnershipDeal { tables: [knock("Ann", "Bob", 3, 15), knock("Dee", "Cy", 2, 12)] };
/// let score = score_partnership(&Preset::Partnership.profile(), &teams, &[deal]).unwrap();
/// assert_eq!((score.deals[0].winner, score.deals[0].points), (Some(0), 2));
/// ```
pub fn score_partnership(
    profile: &Profile,
    teams: &[Team; 2],
    deals: &[PartnershipDeal],
) -> Result<PartnershipScore, MatchError> {
    if deals.len() > MAX_MATCH_HANDS {
        return Err(MatchError::TooManyHands {
            found: deals.len(),
            max: MAX_MATCH_HANDS,
        });
    }
    let [first, second] = teams;
    let players: [String; 4] = [
        first.players[0].clone(),
        first.players[1].clone(),
        second.players[0].clone(),
        second.players[1].clone(),
    ];
    validate_names(&players)?;
    if first.name.trim().is_empty() || second.name.trim().is_empty() {
        return Err(MatchError::BlankTeamName);
    }
    if first.name == second.name {
        return Err(MatchError::DuplicatePlayerName {
            name: first.name.clone(),
        });
    }
    if profile.hollywood() {
        return Err(MatchError::HollywoodNotDefined {
            format: "partnership",
        });
    }
    let each_hand_box = match profile.box_bonus_timing() {
        BoxBonusTiming::EachHand => u64::from(profile.box_bonus()),
        BoxBonusTiming::EndOfGame => 0,
    };
    let mut running = [0u64; 2];
    let mut hand_points = [0u64; 2];
    let mut deals_won = [0u64; 2];
    let mut ended: Option<(usize, usize)> = None;
    let mut scored = Vec::with_capacity(deals.len());
    for (index, deal) in deals.iter().enumerate() {
        if let Some((_, ended_at)) = ended {
            return Err(MatchError::GameOver {
                hand: index,
                ended_at,
                hollywood: false,
            });
        }
        let [one, two] = &deal.tables;
        let tables = [
            play_seated(profile, &players, one, index)
                .map_err(|error| MatchError::at_table(index, 0, error))?,
            play_seated(profile, &players, two, index)
                .map_err(|error| MatchError::at_table(index, 1, error))?,
        ];
        check_pairings(&tables, index, &players)?;
        let table_results = tables.clone().map(|t| match t.winner {
            Some(w) if team_of(w) == 0 => i64::from(t.points),
            Some(_) => -i64::from(t.points),
            None => 0,
        });
        let net: i64 = table_results.iter().sum();
        let winner = match net.cmp(&0) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        let points = net.unsigned_abs();
        if let Some(team) = winner
            && let Some(total) = running.get_mut(team)
        {
            *total = total.saturating_add(points).saturating_add(each_hand_box);
            if let Some(p) = hand_points.get_mut(team) {
                *p = p.saturating_add(points);
            }
            if let Some(w) = deals_won.get_mut(team) {
                *w = w.saturating_add(1);
            }
            if *total >= u64::from(profile.target()) {
                ended = Some((team, index));
            }
        }
        scored.push(ScoredDeal {
            tables,
            table_results,
            winner,
            points,
            totals: running,
        });
    }
    let team_names = [first.name.clone(), second.name.clone()];
    Ok(finish(
        profile,
        team_names,
        scored,
        running,
        hand_points,
        deals_won,
        ended,
    ))
}

/// The two tables must seat exactly the deal's two pairings, in either order.
fn check_pairings(
    tables: &[ScoredSeatedHand; 2],
    index: usize,
    players: &[String; 4],
) -> Result<(), MatchError> {
    let sorted = |pair: [usize; 2]| {
        let [a, b] = pair;
        [a.min(b), a.max(b)]
    };
    let expected = pairings(index);
    let mut found = tables.clone().map(|t| sorted(t.players));
    found.sort_unstable();
    if found == expected {
        return Ok(());
    }
    let name = |p: usize| players.get(p).cloned().unwrap_or_default();
    Err(MatchError::PairingBroken {
        deal: index,
        expected: expected.map(|pair| pair.map(name)),
    })
}

fn finish(
    profile: &Profile,
    teams: [String; 2],
    deals: Vec<ScoredDeal>,
    running: [u64; 2],
    hand_points: [u64; 2],
    deals_won: [u64; 2],
    ended: Option<(usize, usize)>,
) -> PartnershipScore {
    let box_bonus = u64::from(profile.box_bonus());
    let get = |values: [u64; 2], t: usize| values.get(t).copied().unwrap_or(0);
    let Some((winner, _)) = ended else {
        let credited = match profile.box_bonus_timing() {
            BoxBonusTiming::EachHand => box_bonus,
            BoxBonusTiming::EndOfGame => 0,
        };
        let final_tally = std::array::from_fn(|t| Tally {
            hand_points: get(hand_points, t),
            hands_won: get(deals_won, t),
            box_bonus: get(deals_won, t).saturating_mul(credited),
            total: get(running, t),
            ..Tally::default()
        });
        return PartnershipScore {
            teams,
            deals,
            complete: false,
            winner: None,
            final_tally,
            net: None,
        };
    };
    let loser = 1 - winner;
    let shut_out = match profile.shutout_test() {
        ShutoutTest::ScoredNothing => get(hand_points, loser) == 0,
        ShutoutTest::WonNoHand => get(deals_won, loser) == 0,
    };
    let final_tally: [Tally; 2] = std::array::from_fn(|t| {
        let points = get(hand_points, t);
        let boxes = get(deals_won, t).saturating_mul(box_bonus);
        let (game, shutout) = if t == winner {
            let shutout = if shut_out {
                flat_shutout_bonus(profile)
            } else {
                0
            };
            (u64::from(profile.game_bonus()), shutout)
        } else {
            (0, 0)
        };
        Tally {
            hand_points: points,
            hands_won: get(deals_won, t),
            box_bonus: boxes,
            game_bonus: game,
            shutout_bonus: shutout,
            total: points
                .saturating_add(boxes)
                .saturating_add(game)
                .saturating_add(shutout),
        }
    });
    let total = |t: usize| {
        final_tally
            .get(t)
            .map_or(0, |tally| i64::try_from(tally.total).unwrap_or(i64::MAX))
    };
    PartnershipScore {
        teams,
        deals,
        complete: true,
        winner: Some(winner),
        final_tally,
        net: Some(total(winner) - total(loser)),
    }
}
