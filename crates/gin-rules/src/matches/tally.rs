//! The score sheet: each player's line, and a game's running totals.

use super::{MAX_MATCH_HANDS, Player, Players};
use crate::profile::{BoxBonusTiming, MAX_POINTS_PARAMETER, Profile};

/// The largest deadwood difference of a hand: a defender's ten cards count at
/// most 100 (four kings, four queens, two jacks), the knocker's at least 0.
const MAX_DEADWOOD_DIFFERENCE: u64 = 100;

/// The most points one hand of a match scores: the difference plus one bonus
/// (gin, big gin or undercut; at most [`MAX_POINTS_PARAMETER`] in any
/// [`Profile`]), doubled at most (a spade upcard under spade doubling).
const MAX_HAND_POINTS: u64 = (MAX_DEADWOOD_DIFFERENCE + MAX_POINTS_PARAMETER as u64) * 2;

/// A bound on every [`Tally`] field and every running total (see [`Tally`]).
pub(super) const MAX_TALLY: u64 = 6
    * (MAX_MATCH_HANDS as u64 * (MAX_HAND_POINTS + MAX_POINTS_PARAMETER as u64)
        + MAX_POINTS_PARAMETER as u64);

// The bound leaves room for the signed scores, their sums and differences.
const _: () = assert!(MAX_TALLY < i64::MAX as u64 / 4);

// Why no field can overflow (the doc comment below is also the OpenAPI
// description, so the argument lives here):
// With `H` hands (`MAX_MATCH_HANDS` at most), a hand
// worth at most 20 200 points ((100 + one bonus of at most
// `MAX_POINTS_PARAMETER`) x 2) and every bonus at most
// `MAX_POINTS_PARAMETER`, one game gives a player at most `H` x 20 200 hand
// points, `H` boxes, one game bonus, and a shutout bonus no larger than all of
// those (the doubling schools): at most 2 x (30 200 `H` + 10 000). Hollywood's
// three games triple it: under 2 x 10^9 for 10 000 hands, far inside `u64`
// and `i64` (a compile-time assertion checks the arithmetic). The sums are
// saturating all the same, so a broken bound could not wrap.
/// One player's line on the score sheet of a game (or the sum over Hollywood's
/// games). Invariant: `total` is the sum of the other point fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
// The schema states what a client needs, not the bound argued above.
#[cfg_attr(feature = "openapi", schema(
    description = "One player's line on the score sheet: `total` is the sum of the four\npoint fields.",
    example = json!({"hand_points": 110, "hands_won": 4,
    "box_bonus": 100, "game_bonus": 100, "shutout_bonus": 0, "total": 310})))]
pub struct Tally {
    /// The sum of the hand points won, never doubled here: a doubling shutout
    /// shows the extra as `shutout_bonus`.
    pub hand_points: u64,
    /// Hands won (each earns a box).
    pub hands_won: u64,
    /// Box (line) bonus per hand won, for both players; before the end of the
    /// game, only the boxes already credited (`box_bonus_timing: each_hand`).
    pub box_bonus: u64,
    /// The game bonus (the winner's, once the game is over).
    pub game_bonus: u64,
    /// The shutout reward, including the doubled part under the doubling schools.
    pub shutout_bonus: u64,
    /// The sum of the fields above but `hands_won`.
    pub total: u64,
}

impl Tally {
    /// The field-by-field sum (Hollywood's games summed).
    pub(super) fn add(self, other: Tally) -> Tally {
        Tally {
            hand_points: self.hand_points.saturating_add(other.hand_points),
            hands_won: self.hands_won.saturating_add(other.hands_won),
            box_bonus: self.box_bonus.saturating_add(other.box_bonus),
            game_bonus: self.game_bonus.saturating_add(other.game_bonus),
            shutout_bonus: self.shutout_bonus.saturating_add(other.shutout_bonus),
            total: self.total.saturating_add(other.total),
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
        let boxed = match profile.box_bonus_timing() {
            BoxBonusTiming::EachHand => u64::from(profile.box_bonus()),
            BoxBonusTiming::EndOfGame => 0,
        };
        // Saturating, though the bound on `Tally` keeps every total far below.
        let hand_points = self.hand_points.get_mut(player);
        *hand_points = hand_points.saturating_add(u64::from(points));
        let hands_won = self.hands_won.get_mut(player);
        *hands_won = hands_won.saturating_add(1);
        let running = self.running.get_mut(player);
        *running = running.saturating_add(u64::from(points).saturating_add(boxed));
        if *running >= u64::from(profile.target()) {
            self.ended = Some((player, hand));
        }
    }
}
