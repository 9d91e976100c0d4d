//! Three players (`docs/RULES.md`, "Three players"): two play each hand, the
//! loser sits out the next, the winner meets the player who sat out; after a
//! void hand the same two play again. Each player keeps a total; the first to
//! the target wins the game. Settlement is pairwise.

use super::seated::{
    ScoredSeatedHand, SeatedHand, flat_shutout_bonus, play_seated, validate_names,
};
use super::tally::{Seat, Sheet, at, counts_as_won, next_hand, signed};
use super::{FormatTally, MatchError, MatchFormat, Tally};
use crate::profile::Profile;

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

/// A three-player match kept hand by hand: [`record`](ThreeTally::record) one
/// seated hand at a time; [`next_players`](ThreeTally::next_players) says who
/// the rotation seats next. A refused hand leaves the tally as it was.
/// [`score_match`](super::score_match) is this tally fed every hand.
#[derive(Debug, Clone)]
pub struct ThreeTally<'p> {
    profile: &'p Profile,
    players: [String; 3],
    sheet: Sheet<3>,
    hands: Vec<(ScoredSeatedHand, [u64; 3])>,
}

impl<'p> ThreeTally<'p> {
    /// An empty match between three players, named distinctly and not blank,
    /// under a profile without Hollywood.
    pub fn new(profile: &'p Profile, players: [String; 3]) -> Result<Self, MatchError> {
        validate_names(&players)?;
        if profile.hollywood() {
            return Err(MatchError::HollywoodNotDefined {
                format: "three players",
            });
        }
        Ok(ThreeTally {
            profile,
            players,
            sheet: Sheet::default(),
            hands: Vec::new(),
        })
    }

    /// Scores the next hand and credits it: refused (and not recorded) after
    /// the game has ended, past [`MAX_MATCH_HANDS`](crate::MAX_MATCH_HANDS), off the rotation, or when
    /// the hand itself cannot be scored.
    pub fn record(&mut self, hand: &SeatedHand) -> Result<(), MatchError> {
        let result = self.admit(hand)?;
        let index = self.hands.len();
        if let Some(winner) = result.result.winner.and_then(Seat::new)
            && counts_as_won(self.profile, result.result.points)
        {
            let points = u64::from(result.result.points);
            self.sheet.credit(self.profile, winner, points, index);
        }
        self.hands.push((result, self.sheet.running));
        Ok(())
    }

    /// The next hand scored, if the match takes it; nothing is credited.
    #[inline]
    fn admit(&self, hand: &SeatedHand) -> Result<ScoredSeatedHand, MatchError> {
        let index = next_hand(self.hands.len(), self.sheet.ended_at(), false)?;
        let result = play_seated(self.profile, &self.players, hand, index)?;
        if let Some(pair) = self.next_players()
            && !same_pair(pair, result.players)
        {
            return Err(MatchError::RotationBroken {
                hand: index,
                expected: pair.map(|p| name(&self.players, p)),
            });
        }
        Ok(result)
    }

    /// The two players the rotation seats at the next hand (in either order):
    /// after a won hand the winner and the player who sat out, after a void
    /// hand the same two; `None` before the first hand, whose players are free.
    pub fn next_players(&self) -> Option<[usize; 2]> {
        self.hands.last().map(|(last, _)| next_pair(last))
    }

    /// The hands recorded so far, each with the running totals after it.
    pub fn hands(&self) -> &[(ScoredSeatedHand, [u64; 3])] {
        &self.hands
    }

    /// Each player's running total.
    pub fn totals(&self) -> [u64; 3] {
        self.sheet.running
    }

    /// A player has reached the target: the next hand would be `game_over`.
    pub fn is_complete(&self) -> bool {
        !self.sheet.is_open()
    }

    /// The match as scored so far.
    pub fn score(&self) -> ThreeScore {
        self.clone().into_score()
    }

    /// The match as scored so far, consuming the tally.
    pub fn into_score(self) -> ThreeScore {
        let profile = self.profile;
        let sheet = &self.sheet;
        let Some(winner) = sheet.winner() else {
            return ThreeScore {
                players: self.players,
                hands: self.hands,
                complete: false,
                winner: None,
                final_tally: sheet.lines(profile, |_, _| 0),
                nets: None,
                pairs: None,
            };
        };
        // Only the winner earns a shutout bonus: the flat bonus from each
        // opponent shut out, settled pair by pair.
        let flat = flat_shutout_bonus(profile);
        let earned = |from: Seat<3>, to: Seat<3>| -> u64 {
            if to == winner && from != winner && sheet.shut_out(profile, from) {
                flat
            } else {
                0
            }
        };
        let final_tally = sheet.lines(profile, |seat, _| {
            Seat::all().map(|from| earned(from, seat)).iter().sum()
        });
        let base = |p: Seat<3>| {
            let line = at(&final_tally, p);
            signed(line.total) - signed(line.shutout_bonus)
        };
        let pair_net = |a, b| base(a) - base(b) + signed(earned(b, a)) - signed(earned(a, b));
        let [first, second, third] = Seat::<3>::all();
        let pairs = [(first, second), (first, third), (second, third)]
            .map(|(a, b)| ((a.index(), b.index()), pair_net(a, b)));
        let nets = Seat::<3>::all().map(|p| {
            Seat::<3>::all()
                .into_iter()
                .filter(|&q| q != p)
                .map(|q| pair_net(p, q))
                .sum::<i64>()
        });
        ThreeScore {
            players: self.players,
            hands: self.hands,
            complete: true,
            winner: Some(winner.index()),
            final_tally,
            nets: Some(nets),
            pairs: Some(pairs),
        }
    }
}

/// Three players: the format of [`ThreeTally`], scored hand by hand.
///
/// ```
/// use gin_rules::{score_match, CountHand, MatchHand, Preset, SeatedHand};
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
/// let score = score_match(&Preset::Standard.profile(), &players, &hands).unwrap();
/// assert_eq!(score.hands[1].1, [16, 0, 28]);
/// ```
impl MatchFormat for [String; 3] {
    type Hand = SeatedHand;
    type Score = ThreeScore;
    type Tally<'p> = ThreeTally<'p>;
    fn tally<'p>(&self, profile: &'p Profile) -> Result<ThreeTally<'p>, MatchError> {
        ThreeTally::new(profile, self.clone())
    }
}

impl FormatTally for ThreeTally<'_> {
    type Hand = SeatedHand;
    type Score = ThreeScore;
    fn reserve(&mut self, more: usize) {
        self.hands.reserve(more);
    }
    fn admits(&self, hand: &SeatedHand) -> Result<(), MatchError> {
        self.admit(hand).map(drop)
    }
    fn record(&mut self, hand: &SeatedHand) -> Result<(), MatchError> {
        ThreeTally::record(self, hand)
    }
    fn into_score(self) -> ThreeScore {
        ThreeTally::into_score(self)
    }
}

/// Who plays next: after a won hand the winner and the player who sat out;
/// after a void hand the same two.
pub(crate) fn next_pair(hand: &ScoredSeatedHand) -> [usize; 2] {
    match (hand.result.winner, hand.loser()) {
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
