//! Partnership (`docs/RULES.md`, "Partnership"): two teams of two; each deal
//! is two two-player hands at two tables, partners changing opponents deal by
//! deal; the deal's result is the net of both tables, scored by the team ahead
//! alone, with the box for that deal.

use super::seated::{
    ScoredSeatedHand, SeatedHand, flat_shutout_bonus, play_seated, validate_names,
};
use super::tally::{Seat, Sheet, at, next_hand, signed};
use super::{FormatTally, MatchError, MatchFormat, Tally};
use crate::profile::Profile;

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
/// A1-B2 and A2-B1 on odd ones, with players numbered A1, A2, B1, B2 = 0..4
/// (the order of [`Team::seat_order`]). Each pairing is in ascending order.
pub const fn partnership_pairings(index: usize) -> [[usize; 2]; 2] {
    if index.is_multiple_of(2) {
        [[0, 2], [1, 3]]
    } else {
        [[0, 3], [1, 2]]
    }
}

impl Team {
    /// The four players of two teams as results number them: the first
    /// team's two players, then the second team's.
    pub fn seat_order(teams: &[Team; 2]) -> [String; 4] {
        let [first, second] = teams;
        let [a1, a2] = first.players.clone();
        let [b1, b2] = second.players.clone();
        [a1, a2, b1, b2]
    }
}

/// A partnership match kept deal by deal: [`record`](PartnershipTally::record)
/// one deal at a time; [`partnership_pairings`] of
/// [`deals`](PartnershipTally::deals)`().len()` says who meets whom next. A
/// refused deal leaves the tally as it was. [`score_match`](super::score_match) is this
/// tally fed every deal.
#[derive(Debug, Clone)]
pub struct PartnershipTally<'p> {
    profile: &'p Profile,
    teams: [String; 2],
    players: [String; 4],
    sheet: Sheet<2>,
    deals: Vec<ScoredDeal>,
}

impl<'p> PartnershipTally<'p> {
    /// An empty match between two teams: four distinct, non-blank player
    /// names, two distinct, non-blank team names, a profile without Hollywood.
    pub fn new(profile: &'p Profile, teams: &[Team; 2]) -> Result<Self, MatchError> {
        let players = Team::seat_order(teams);
        validate_names(&players)?;
        let [first, second] = teams;
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
        Ok(PartnershipTally {
            profile,
            teams: [first.name.clone(), second.name.clone()],
            players,
            sheet: Sheet::default(),
            deals: Vec::new(),
        })
    }

    /// Scores the next deal and credits its net to the team ahead: refused
    /// (and not recorded) after the game has ended, past [`MAX_MATCH_HANDS`](crate::MAX_MATCH_HANDS),
    /// off the deal's pairings, or when a table's hand cannot be scored.
    pub fn record(&mut self, deal: &PartnershipDeal) -> Result<(), MatchError> {
        let tables = self.admit(deal)?;
        let index = self.deals.len();
        let table_results = tables.clone().map(|t| match t.result.winner {
            Some(w) if team_of(w) == 0 => i64::from(t.result.points),
            Some(_) => -i64::from(t.result.points),
            None => 0,
        });
        let net: i64 = table_results.iter().sum();
        let winner = match net.cmp(&0) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        let points = net.unsigned_abs();
        if let Some(team) = winner.and_then(Seat::new) {
            self.sheet.credit(self.profile, team, points, index);
        }
        self.deals.push(ScoredDeal {
            tables,
            table_results,
            winner,
            points,
            totals: self.sheet.running,
        });
        Ok(())
    }

    /// The next deal's tables scored, if the match takes the deal; nothing
    /// is credited.
    #[inline]
    fn admit(&self, deal: &PartnershipDeal) -> Result<[ScoredSeatedHand; 2], MatchError> {
        let index = next_hand(self.deals.len(), self.sheet.ended_at(), false)?;
        let [one, two] = &deal.tables;
        let tables = [
            play_seated(self.profile, &self.players, one, index)
                .map_err(|error| MatchError::at_table(index, 0, error))?,
            play_seated(self.profile, &self.players, two, index)
                .map_err(|error| MatchError::at_table(index, 1, error))?,
        ];
        check_pairings(&tables, index, &self.players)?;
        Ok(tables)
    }

    /// The deals recorded so far, as scored.
    pub fn deals(&self) -> &[ScoredDeal] {
        &self.deals
    }

    /// Each team's running total.
    pub fn totals(&self) -> [u64; 2] {
        self.sheet.running
    }

    /// A team has reached the target: the next deal would be `game_over`.
    pub fn is_complete(&self) -> bool {
        !self.sheet.is_open()
    }

    /// The match as scored so far.
    pub fn score(&self) -> PartnershipScore {
        self.clone().into_score()
    }

    /// The match as scored so far, consuming the tally: the winning team
    /// takes the flat shutout bonus when the other was shut out.
    pub fn into_score(self) -> PartnershipScore {
        let profile = self.profile;
        let sheet = &self.sheet;
        let winner = sheet.winner();
        let shutout = winner.is_some_and(|w| sheet.shut_out(profile, w.other()));
        let final_tally = sheet.lines(profile, |team, _| {
            if Some(team) == winner && shutout {
                flat_shutout_bonus(profile)
            } else {
                0
            }
        });
        let net = winner
            .map(|w| signed(at(&final_tally, w).total) - signed(at(&final_tally, w.other()).total));
        PartnershipScore {
            teams: self.teams,
            deals: self.deals,
            complete: winner.is_some(),
            winner: winner.map(Seat::index),
            final_tally,
            net,
        }
    }
}

/// Two teams of two: the format of [`PartnershipTally`], scored deal by deal.
///
/// ```
/// use gin_rules::{score_match, CountHand, MatchHand, PartnershipDeal, Preset, SeatedHand, Team};
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
/// let score = score_match(&Preset::Partnership.profile(), &teams, &[deal]).unwrap();
/// assert_eq!((score.deals[0].winner, score.deals[0].points), (Some(0), 2));
/// ```
impl MatchFormat for [Team; 2] {
    type Hand = PartnershipDeal;
    type Score = PartnershipScore;
    type Tally<'p> = PartnershipTally<'p>;
    fn tally<'p>(&self, profile: &'p Profile) -> Result<PartnershipTally<'p>, MatchError> {
        PartnershipTally::new(profile, self)
    }
}

impl FormatTally for PartnershipTally<'_> {
    type Hand = PartnershipDeal;
    type Score = PartnershipScore;
    fn reserve(&mut self, more: usize) {
        self.deals.reserve(more);
    }
    fn admits(&self, deal: &PartnershipDeal) -> Result<(), MatchError> {
        self.admit(deal).map(drop)
    }
    fn record(&mut self, deal: &PartnershipDeal) -> Result<(), MatchError> {
        PartnershipTally::record(self, deal)
    }
    fn into_score(self) -> PartnershipScore {
        PartnershipTally::into_score(self)
    }
}

/// The team of player `p` (0..4).
const fn team_of(player: usize) -> usize {
    player / 2
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
    let expected = partnership_pairings(index);
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
