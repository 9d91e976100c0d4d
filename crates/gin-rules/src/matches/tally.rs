//! The score sheet every format keeps: each line's tally, a game's running
//! totals, boxes, the end at the target and the shutout test, written once.

use super::{MAX_MATCH_HANDS, MatchError, Player};
use crate::profile::{BoxBonusTiming, MAX_POINTS_PARAMETER, Profile, ShutoutTest};

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

/// One seat of a score sheet with `N` lines: a player (two or three players)
/// or a team (a partnership). Only [`Seat::all`] and the conversions make one,
/// so its index is always below `N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Seat<const N: usize>(usize);

impl<const N: usize> Seat<N> {
    /// Every seat, in order.
    pub(super) fn all() -> [Seat<N>; N] {
        std::array::from_fn(Seat)
    }

    /// The seat at `index`, if the sheet has it.
    pub(super) fn new(index: usize) -> Option<Seat<N>> {
        (index < N).then_some(Seat(index))
    }

    /// The seat's position: results name players and teams by it.
    pub(super) const fn index(self) -> usize {
        self.0
    }
}

impl From<Player> for Seat<2> {
    fn from(player: Player) -> Seat<2> {
        Seat(player.index())
    }
}

impl Seat<2> {
    /// The other of two seats.
    pub(super) const fn other(self) -> Seat<2> {
        Seat(1 - self.0)
    }
}

/// A seat's value: the seat is below `N` by construction.
pub(super) fn at<T: Copy, const N: usize>(values: &[T; N], seat: Seat<N>) -> T {
    #[allow(clippy::indexing_slicing)] // `Seat<N>` only holds indices below `N`.
    values[seat.0]
}

/// A seat's value, to change it.
pub(super) fn at_mut<T, const N: usize>(values: &mut [T; N], seat: Seat<N>) -> &mut T {
    #[allow(clippy::indexing_slicing)] // `Seat<N>` only holds indices below `N`.
    &mut values[seat.0]
}

/// The index of the next hand of a match with `recorded` hands, if the match
/// takes one: none after the game (the last Hollywood game) ended at
/// `ended_at`, none past [`MAX_MATCH_HANDS`].
#[inline]
pub(super) fn next_hand(
    recorded: usize,
    ended_at: Option<usize>,
    hollywood: bool,
) -> Result<usize, MatchError> {
    if let Some(ended_at) = ended_at {
        return Err(MatchError::GameOver {
            hand: recorded,
            ended_at,
            hollywood,
        });
    }
    within_max_hands(recorded + 1)?;
    Ok(recorded)
}

/// A match of `found` hands is within [`MAX_MATCH_HANDS`].
pub(super) fn within_max_hands(found: usize) -> Result<(), MatchError> {
    if found > MAX_MATCH_HANDS {
        return Err(MatchError::TooManyHands {
            found,
            max: MAX_MATCH_HANDS,
        });
    }
    Ok(())
}

/// Whether a hand won for `points` is a hand won: always when it scores, and
/// for nothing only under [`Profile::scoreless_hand_won`]. A hand that is not
/// won earns no box, counts for no shutout test and enters no Hollywood game.
pub(super) fn counts_as_won(profile: &Profile, points: u32) -> bool {
    points > 0 || profile.scoreless_hand_won()
}

/// The box bonus credited as each hand is won: the profile's under
/// [`BoxBonusTiming::EachHand`], none when boxes wait for the end of the game.
fn box_each_hand(profile: &Profile) -> u64 {
    match profile.box_bonus_timing() {
        BoxBonusTiming::EachHand => u64::from(profile.box_bonus()),
        BoxBonusTiming::EndOfGame => 0,
    }
}

/// A total as a signed score. Totals stay far below `i64::MAX` (the bound on
/// [`Tally`]); saturate rather than wrap all the same.
pub(super) fn signed(points: u64) -> i64 {
    i64::try_from(points).unwrap_or(i64::MAX)
}

/// One game's score sheet with `N` lines (players, or teams): the hands won
/// credited one at a time, the end at the target, and each line's tally. Every
/// format keeps its games on it and adds only what differs: who sits at a hand,
/// and the shutout bonus and settlement at the end.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sheet<const N: usize> {
    /// Hand points plus the boxes credited so far (under `EachHand`).
    pub(super) running: [u64; N],
    pub(super) hand_points: [u64; N],
    pub(super) hands_won: [u64; N],
    /// The winner and the hand that reached the target.
    pub(super) ended: Option<(Seat<N>, usize)>,
}

impl<const N: usize> Default for Sheet<N> {
    fn default() -> Sheet<N> {
        Sheet {
            running: [0; N],
            hand_points: [0; N],
            hands_won: [0; N],
            ended: None,
        }
    }
}

impl<const N: usize> Sheet<N> {
    /// Whether the game still takes points: nobody has reached the target.
    pub(super) fn is_open(&self) -> bool {
        self.ended.is_none()
    }

    /// The hand that reached the target.
    pub(super) fn ended_at(&self) -> Option<usize> {
        self.ended.map(|(_, hand)| hand)
    }

    /// The seat that reached the target.
    pub(super) fn winner(&self) -> Option<Seat<N>> {
        self.ended.map(|(winner, _)| winner)
    }

    /// Credits hand `hand`, won by `seat` for `points`: the points, a hand
    /// won, the box when boxes are credited as each hand is won, and the end
    /// of the game when the running total reaches the target.
    #[inline]
    pub(super) fn credit(&mut self, profile: &Profile, seat: Seat<N>, points: u64, hand: usize) {
        // Saturating, though the bound on `Tally` keeps every total far below.
        let hand_points = at_mut(&mut self.hand_points, seat);
        *hand_points = hand_points.saturating_add(points);
        let hands_won = at_mut(&mut self.hands_won, seat);
        *hands_won = hands_won.saturating_add(1);
        let running = at_mut(&mut self.running, seat);
        *running = running.saturating_add(points.saturating_add(box_each_hand(profile)));
        if *running >= u64::from(profile.target()) {
            self.ended = Some((seat, hand));
        }
    }

    /// Whether `seat` was shut out, by the profile's test. "Scored nothing"
    /// looks at hand points only, so it does not depend on when boxes are
    /// credited.
    pub(super) fn shut_out(&self, profile: &Profile, seat: Seat<N>) -> bool {
        match profile.shutout_test() {
            ShutoutTest::ScoredNothing => at(&self.hand_points, seat) == 0,
            ShutoutTest::WonNoHand => at(&self.hands_won, seat) == 0,
        }
    }

    /// Each line of the sheet. Before the end: hand points, hands won, the
    /// boxes already credited, and the running total. At the end: every box,
    /// the game bonus to the winner, and the shutout bonus the format gives
    /// each seat (`shutout_bonus`, given the seat's line without it).
    pub(super) fn lines(
        &self,
        profile: &Profile,
        shutout_bonus: impl Fn(Seat<N>, &Tally) -> u64,
    ) -> [Tally; N] {
        let seats = Seat::<N>::all();
        let Some(winner) = self.winner() else {
            let credited = box_each_hand(profile);
            return seats.map(|seat| Tally {
                hand_points: at(&self.hand_points, seat),
                hands_won: at(&self.hands_won, seat),
                box_bonus: at(&self.hands_won, seat).saturating_mul(credited),
                total: at(&self.running, seat),
                ..Tally::default()
            });
        };
        let box_bonus = u64::from(profile.box_bonus());
        seats.map(|seat| {
            let mut line = Tally {
                hand_points: at(&self.hand_points, seat),
                hands_won: at(&self.hands_won, seat),
                box_bonus: at(&self.hands_won, seat).saturating_mul(box_bonus),
                game_bonus: if seat == winner {
                    u64::from(profile.game_bonus())
                } else {
                    0
                },
                ..Tally::default()
            };
            line.shutout_bonus = shutout_bonus(seat, &line);
            line.total = line
                .hand_points
                .saturating_add(line.box_bonus)
                .saturating_add(line.game_bonus)
                .saturating_add(line.shutout_bonus);
            line
        })
    }
}
