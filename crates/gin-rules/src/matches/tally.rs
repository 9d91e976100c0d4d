//! The score sheet: each player's line, and a game's running totals.

use super::{Player, Players};
use crate::profile::{BoxBonusTiming, Profile};

/// One player's line on the score sheet of a game (or the sum over Hollywood's
/// games). Invariant: `total` is the sum of the other point fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    /// The plain sum of the hand points scored (never doubled here).
    pub hand_points: u64,
    /// Hands won (each earns a box).
    pub hands_won: u64,
    /// Box (line) bonuses: one per hand won.
    pub box_bonus: u64,
    /// The game bonus, the winner's only.
    pub game_bonus: u64,
    /// The shutout bonus, or the doubled part under a doubling school.
    pub shutout_bonus: u64,
    /// The sum of the fields above but `hands_won`.
    pub total: u64,
}

impl Tally {
    pub(super) fn add(self, other: Tally) -> Tally {
        Tally {
            hand_points: self.hand_points + other.hand_points,
            hands_won: self.hands_won + other.hands_won,
            box_bonus: self.box_bonus + other.box_bonus,
            game_bonus: self.game_bonus + other.game_bonus,
            shutout_bonus: self.shutout_bonus + other.shutout_bonus,
            total: self.total + other.total,
        }
    }
}

/// A game in progress.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct OpenGame {
    /// Hand points plus the boxes credited so far (under `EachHand`).
    pub(super) running: Players<u64>,
    pub(super) hand_points: Players<u64>,
    pub(super) hands_won: Players<u64>,
    /// The winner and the hand that reached the target.
    pub(super) ended: Option<(Player, usize)>,
}

impl OpenGame {
    /// Whether the game still takes points: nobody has reached the target.
    pub(super) fn is_open(&self) -> bool {
        self.ended.is_none()
    }

    pub(super) fn credit(&mut self, profile: &Profile, player: Player, points: u32, hand: usize) {
        let boxed = match profile.box_bonus_timing {
            BoxBonusTiming::EachHand => u64::from(profile.box_bonus),
            BoxBonusTiming::EndOfGame => 0,
        };
        *self.hand_points.get_mut(player) += u64::from(points);
        *self.hands_won.get_mut(player) += 1;
        let running = self.running.get_mut(player);
        *running += u64::from(points) + boxed;
        if *running >= u64::from(profile.target) {
            self.ended = Some((player, hand));
        }
    }
}
