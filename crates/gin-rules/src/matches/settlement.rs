//! The end of a two-player game: the shutout bonus by the profile's rule, and
//! what each player takes under its settlement. Boxes, the game bonus and the
//! shutout test are the sheet's ([`Sheet`]).

use super::tally::{Seat, Sheet, at, signed};
use super::{GameScore, Tally};
use crate::profile::{Profile, Settlement, ShutoutRule};

/// The winner's shutout bonus under the two-player rules (`line` is the
/// winner's line without it): the doubled part, or the flat bonus.
fn shutout_bonus(profile: &Profile, line: &Tally) -> u64 {
    match profile.shutout() {
        ShutoutRule::DoubleHandPointsAndGameBonus => {
            line.hand_points.saturating_add(line.game_bonus)
        }
        ShutoutRule::DoubleTotal => line
            .hand_points
            .saturating_add(line.box_bonus)
            .saturating_add(line.game_bonus),
        ShutoutRule::FlatBonus => u64::from(profile.shutout_bonus()),
        ShutoutRule::DoubleGameBonus => line.game_bonus,
    }
}

impl Sheet<2> {
    /// The game as scored: complete with its settlement once a player reached
    /// the target, the score sheet so far otherwise.
    pub(super) fn finish(&self, profile: &Profile) -> GameScore {
        let Some((winner, ended_at)) = self.ended else {
            return GameScore {
                complete: false,
                winner: None,
                ended_at: None,
                shutout: false,
                final_tally: self.lines(profile, |_, _| 0),
                scores: None,
                net: None,
            };
        };
        let loser = winner.other();
        let shutout = self.shut_out(profile, loser);
        let final_tally = self.lines(profile, |seat, line| {
            if seat == winner && shutout {
                shutout_bonus(profile, line)
            } else {
                0
            }
        });
        let totals = final_tally.map(|line| signed(line.total));
        let scores = match profile.settlement() {
            Settlement::TotalsAndNet => totals,
            Settlement::WinnerScoresDifference => Seat::all().map(|seat| {
                if seat == winner {
                    at(&totals, winner).saturating_sub(at(&totals, loser))
                } else {
                    0
                }
            }),
        };
        let score = |seat: Seat<2>| at(&scores, seat);
        GameScore {
            complete: true,
            winner: Some(winner.index()),
            ended_at: Some(ended_at),
            shutout,
            final_tally,
            scores: Some(scores),
            net: Some(score(winner).saturating_sub(score(loser))),
        }
    }
}
