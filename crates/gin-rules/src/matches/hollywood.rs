//! Hollywood: which of the three games a hand win scores in, and the match
//! decided on the sum of the games (see the module docs, "Hollywood").

use super::hand::Won;
use super::tally::Sheet;
use super::{GameScore, Players};
use crate::profile::Profile;

/// Per player, the games entered so far. With a single game a player's first
/// win enters game 0, and every win then scores there.
#[derive(Debug, Clone, Default)]
pub(super) struct Entries(Players<[bool; 3]>);

impl Entries {
    /// Credits a hand won by `won.winner`: enters them into the lowest-numbered
    /// open game they have not entered yet (if any), then credits the hand in
    /// every open game they have entered. Returns those games' indices.
    pub(super) fn credit_win(
        &mut self,
        profile: &Profile,
        games: &mut [Sheet<2>],
        won: &Won,
        hand: usize,
    ) -> Vec<usize> {
        let entered = self.0.get_mut(won.winner);
        if let Some((next, _)) = entered
            .iter_mut()
            .zip(games.iter())
            .find(|(entered, game)| !**entered && game.is_open())
        {
            *next = true;
        }
        let mut scored_in = Vec::new();
        for (index, (game, &entered)) in games.iter_mut().zip(entered.iter()).enumerate() {
            if game.is_open() && entered {
                game.credit(profile, won.winner.into(), u64::from(won.points), hand);
                scored_in.push(index);
            }
        }
        scored_in
    }
}

/// The winner (the player ahead on the summed scores; none on a tie), the summed
/// scores and the net of complete games. The sums are far inside `i64` (the
/// bound on [`Tally`](super::Tally)); saturating all the same.
pub(super) fn sum_of_games(games: &[GameScore]) -> (Option<usize>, [i64; 2], i64) {
    let scores = games.iter().fold([0i64; 2], |acc, g| {
        let s = g.scores.unwrap_or_default();
        [acc[0].saturating_add(s[0]), acc[1].saturating_add(s[1])]
    });
    let winner = match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    let net = i64::try_from(scores[0].abs_diff(scores[1])).unwrap_or(i64::MAX);
    (winner, scores, net)
}
