//! Two players: one game, or Hollywood's three, kept hand by hand.

use super::hand::{Won, play};
use super::hollywood::{Entries, sum_of_games};
use super::seated::validate_names;
use super::tally::{Sheet, counts_as_won, next_hand};
use super::{
    FormatTally, GameScore, HandResult, MatchError, MatchFormat, MatchHand, MatchScore, Player,
    Players, ScoredMatchHand, Tally,
};
use crate::profile::Profile;

/// A two-player match kept hand by hand: [`record`](MatchTally::record) one
/// hand at a time, and ask at any point for the running totals, whether the
/// match is over, or the whole [`MatchScore`]. A refused hand leaves the
/// tally as it was. [`score_match`](super::score_match) is this tally fed every hand.
///
/// ```
/// use gin_rules::{CountHand, MatchHand, MatchTally, Players, Preset};
/// let profile = Preset::Standard.profile();
/// let players = Players::new("Mom".to_string(), "Dad".to_string());
/// let mut tally = MatchTally::new(&profile, players).unwrap();
/// let hand = MatchHand::Counts(CountHand {
///     knocker: "Dad".into(), knocker_deadwood: 0, defender_deadwood: 10,
///     big_gin: false, upcard: None,
/// });
/// tally.record(&hand).unwrap();
/// assert_eq!(tally.hands()[0].result.points, 35);
/// assert_eq!((tally.totals(), tally.is_complete()), ([0, 35], false));
/// ```
#[derive(Debug, Clone)]
pub struct MatchTally<'p> {
    profile: &'p Profile,
    players: Players<String>,
    games: Vec<Sheet<2>>,
    entries: Entries,
    hands: Vec<ScoredMatchHand>,
}

impl<'p> MatchTally<'p> {
    /// An empty match between two players, named distinctly and not blank.
    pub fn new(profile: &'p Profile, players: Players<String>) -> Result<Self, MatchError> {
        validate_names(players.as_array())?;
        Ok(MatchTally {
            profile,
            players,
            games: vec![Sheet::default(); profile.games()],
            entries: Entries::default(),
            hands: Vec::new(),
        })
    }

    /// Scores the next hand and credits it: refused (and not recorded) after
    /// the game, every Hollywood game, has ended, past [`MAX_MATCH_HANDS`](crate::MAX_MATCH_HANDS),
    /// or when the hand itself cannot be scored.
    pub fn record(&mut self, hand: &MatchHand) -> Result<(), MatchError> {
        let won = self.admit(hand)?;
        let index = self.hands.len();
        let scored_in = match &won {
            Some(won) if counts_as_won(self.profile, won.points) => {
                self.entries
                    .credit_win(self.profile, &mut self.games, won, index)
            }
            _ => Vec::new(),
        };
        let game_totals: Vec<[u64; 2]> = self.games.iter().map(|g| g.running).collect();
        self.hands.push(ScoredMatchHand {
            result: won
                .as_ref()
                .map_or_else(HandResult::default, |w| w.result(Player::index)),
            scored_in,
            totals: sum_totals(&game_totals),
            game_totals,
        });
        Ok(())
    }

    /// The next hand scored, if the match takes it; nothing is credited.
    #[inline]
    fn admit(&self, hand: &MatchHand) -> Result<Option<Won>, MatchError> {
        let index = next_hand(self.hands.len(), self.ended_at(), self.games.len() > 1)?;
        play(self.profile, &self.players, index, hand)
    }

    /// The hand that ended the last game, once every game has ended.
    fn ended_at(&self) -> Option<usize> {
        // No list collected: this runs before every hand.
        self.games
            .iter()
            .try_fold(None, |latest: Option<usize>, game| {
                let at = game.ended_at()?;
                Some(Some(latest.map_or(at, |latest| latest.max(at))))
            })
            .flatten()
    }

    /// The hands recorded so far, as scored.
    pub fn hands(&self) -> &[ScoredMatchHand] {
        &self.hands
    }

    /// Each player's running total (summed over Hollywood's games).
    pub fn totals(&self) -> [u64; 2] {
        let running: Vec<[u64; 2]> = self.games.iter().map(|g| g.running).collect();
        sum_totals(&running)
    }

    /// Every game has ended: the next hand would be `game_over`.
    pub fn is_complete(&self) -> bool {
        self.games.iter().all(|g| !g.is_open())
    }

    /// The match as scored so far: complete, with its winner, scores and net,
    /// once every game has ended.
    pub fn score(&self) -> MatchScore {
        self.clone().into_score()
    }

    /// The match as scored so far, consuming the tally.
    pub fn into_score(self) -> MatchScore {
        let profile = self.profile;
        let games: Vec<GameScore> = self.games.iter().map(|g| g.finish(profile)).collect();
        let complete = games.iter().all(|g| g.complete);
        let final_tally = games.iter().fold([Tally::default(); 2], |acc, g| {
            [acc[0].add(g.final_tally[0]), acc[1].add(g.final_tally[1])]
        });
        let (winner, scores, net) = match games.as_slice() {
            [single] => (single.winner, single.scores, single.net),
            _ if complete => {
                let (winner, scores, net) = sum_of_games(&games);
                (winner, Some(scores), Some(net))
            }
            _ => (None, None, None),
        };
        MatchScore {
            players: self.players.into_array(),
            hands: self.hands,
            games,
            complete,
            winner,
            final_tally,
            scores,
            net,
        }
    }
}

/// Two players: the format of [`MatchTally`].
impl MatchFormat for Players<String> {
    type Hand = MatchHand;
    type Score = MatchScore;
    type Tally<'p> = MatchTally<'p>;
    fn tally<'p>(&self, profile: &'p Profile) -> Result<MatchTally<'p>, MatchError> {
        MatchTally::new(profile, self.clone())
    }
}

impl FormatTally for MatchTally<'_> {
    type Hand = MatchHand;
    type Score = MatchScore;
    fn reserve(&mut self, more: usize) {
        self.hands.reserve(more);
    }
    fn admits(&self, hand: &MatchHand) -> Result<(), MatchError> {
        self.admit(hand).map(drop)
    }
    fn record(&mut self, hand: &MatchHand) -> Result<(), MatchError> {
        MatchTally::record(self, hand)
    }
    fn into_score(self) -> MatchScore {
        MatchTally::into_score(self)
    }
}

/// Running totals summed over the games.
fn sum_totals(games: &[[u64; 2]]) -> [u64; 2] {
    games.iter().fold([0u64, 0], |acc, t| {
        [acc[0].saturating_add(t[0]), acc[1].saturating_add(t[1])]
    })
}
