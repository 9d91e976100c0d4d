//! Hollywood: which of the three games a hand win scores in, and the match
//! decided on the sum of the games (see the module docs, "Hollywood").

use super::{GameScore, OpenGame};

/// Per player, the games entered so far. With a single game a player's first
/// win enters game 0, and every win then scores there.
#[derive(Debug, Default)]
pub(super) struct Entries([[bool; 3]; 2]);

impl Entries {
    /// Records a hand won by `player`: enters them into the lowest-numbered open
    /// game they have not entered yet (if any), then returns the open games they
    /// have entered, in which the hand scores.
    pub(super) fn win(&mut self, games: &[OpenGame], player: usize) -> Vec<usize> {
        let entered = &mut self.0[player];
        let open = |g: &OpenGame| g.ended.is_none();
        if let Some(next) = (0..games.len()).find(|&g| open(&games[g]) && !entered[g]) {
            entered[next] = true;
        }
        (0..games.len())
            .filter(|&g| open(&games[g]) && entered[g])
            .collect()
    }
}

/// The winner (the player ahead on the summed scores; none on a tie), the summed
/// scores and the net of complete games.
pub(super) fn sum_of_games(games: &[GameScore]) -> (Option<usize>, [i64; 2], i64) {
    let scores = games.iter().fold([0i64; 2], |acc, g| {
        let s = g.scores.unwrap_or_default();
        [acc[0] + s[0], acc[1] + s[1]]
    });
    let winner = match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    (winner, scores, (scores[0] - scores[1]).abs())
}
