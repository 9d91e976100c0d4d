//! The end of a game: box, game and shutout bonuses, and what each player takes.

use super::{GameScore, OpenGame, Tally};
use crate::profile::{BoxBonusTiming, Profile, Settlement, ShutoutRule, ShutoutTest};

impl OpenGame {
    pub(super) fn finish(&self, profile: &Profile) -> GameScore {
        let box_bonus = u64::from(profile.box_bonus());
        let Some((winner, ended_at)) = self.ended else {
            let credited = match profile.box_bonus_timing() {
                BoxBonusTiming::EachHand => box_bonus,
                BoxBonusTiming::EndOfGame => 0,
            };
            let tally = self.running.map(|p, running| Tally {
                hand_points: *self.hand_points.get(p),
                hands_won: *self.hands_won.get(p),
                box_bonus: self.hands_won.get(p).saturating_mul(credited),
                total: running,
                ..Tally::default()
            });
            return GameScore {
                complete: false,
                winner: None,
                ended_at: None,
                shutout: false,
                final_tally: tally.into_array(),
                scores: None,
                net: None,
            };
        };
        let loser = winner.other();
        let shutout = match profile.shutout_test() {
            ShutoutTest::ScoredNothing => *self.hand_points.get(loser) == 0,
            ShutoutTest::WonNoHand => *self.hands_won.get(loser) == 0,
        };
        let mut final_tally = self.hand_points.map(|p, hand_points| Tally {
            hand_points,
            hands_won: *self.hands_won.get(p),
            box_bonus: self.hands_won.get(p).saturating_mul(box_bonus),
            game_bonus: if p == winner {
                u64::from(profile.game_bonus())
            } else {
                0
            },
            ..Tally::default()
        });
        let w = final_tally.get_mut(winner);
        if shutout {
            w.shutout_bonus = match profile.shutout() {
                ShutoutRule::DoubleHandPointsAndGameBonus => {
                    w.hand_points.saturating_add(w.game_bonus)
                }
                ShutoutRule::DoubleTotal => w
                    .hand_points
                    .saturating_add(w.box_bonus)
                    .saturating_add(w.game_bonus),
                ShutoutRule::FlatBonus => u64::from(profile.shutout_bonus()),
                ShutoutRule::DoubleGameBonus => w.game_bonus,
            };
        }
        let final_tally = final_tally.map(|_, t| Tally {
            total: t
                .hand_points
                .saturating_add(t.box_bonus)
                .saturating_add(t.game_bonus)
                .saturating_add(t.shutout_bonus),
            ..t
        });
        let totals = final_tally.map(|_, t| signed(t.total));
        let scores = match profile.settlement() {
            Settlement::TotalsAndNet => totals,
            Settlement::WinnerScoresDifference => totals.map(|p, _| {
                if p == winner {
                    totals.get(winner).saturating_sub(*totals.get(loser))
                } else {
                    0
                }
            }),
        };
        GameScore {
            complete: true,
            winner: Some(winner.index()),
            ended_at: Some(ended_at),
            shutout,
            final_tally: final_tally.into_array(),
            scores: Some(scores.into_array()),
            net: Some(scores.get(winner).saturating_sub(*scores.get(loser))),
        }
    }
}

/// A total as a signed score. Totals stay far below `i64::MAX` (the bound on
/// [`Tally`]); saturate rather than wrap all the same.
fn signed(points: u64) -> i64 {
    i64::try_from(points).unwrap_or(i64::MAX)
}
