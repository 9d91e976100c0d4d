//! What a hand's points are worth in a match: the chance of winning the
//! match after them.
//!
//! A match is won by reaching the target first, so a point is worth more or
//! less by the score: ten points that reach the target win the match, ten
//! more beyond it are worth nothing, and a hand lost when the opponent needs
//! only a few points loses the match however few it concedes. Summing points
//! prices every point the same; summing the chance of winning the match
//! prices them by the score, which is what a player who banks a lead or
//! presses a deficit does.
//!
//! The chance comes from a coarse model of a hand, solved backwards from the
//! target: each hand is won by either player with even chance, and its
//! winner scores a knock (1 to 25 points, 55 % of hands won), a gin (the gin
//! bonus and 5 to 45, 30 %) or an undercut (the undercut bonus and 1 to 15,
//! 15 %), each uniformly; close to what `strong` scores against itself under
//! the `eaai` preset. The model need not be exact: it only has to rank a
//! hand's outcomes by what they do to the match.
//!
//! # Cost
//!
//! Totals are counted in steps of `ceil(target / 200)` points, so a table
//! holds at most 200 x 200 chances (320 KB) and is solved in at most
//! 200 x 200 x 81 x 2 steps (about 10 ms, once). The last
//! [`KEPT`] tables (by target and bonuses) are kept for the process, at most
//! 1.3 MB in all.

use std::sync::{Arc, Mutex, PoisonError};

use super::super::ScoreContext;

/// The most score steps a table spans per player.
const MOST_STEPS: u32 = 200;
/// How many solved tables the process keeps.
pub(super) const KEPT: usize = 4;

/// The solved tables, newest last.
static SOLVED: Mutex<Vec<(Key, Arc<Equity>)>> = Mutex::new(Vec::new());

/// What a table is solved for: the target, the gin and undercut bonuses.
type Key = (u32, u32, u32);

/// The chance that the seat wins the match from each pair of totals.
#[derive(Debug)]
pub(super) struct Equity {
    /// Points per step of a total.
    step: u32,
    /// The target, in steps.
    steps: usize,
    /// `steps` x `steps` chances, by (own, opponent) totals in steps.
    table: Vec<f64>,
}

impl Equity {
    /// The table for a match to `target` with these bonuses, solved once
    /// and kept (see the module docs).
    pub(super) fn for_match(target: u32, gin_bonus: u32, undercut_bonus: u32) -> Arc<Equity> {
        let key = (target.max(1), gin_bonus, undercut_bonus);
        // A poisoned lock only means another thread panicked between two
        // statements below; the list itself is always whole.
        let mut solved = SOLVED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, table)) = solved.iter().find(|(held, _)| *held == key) {
            return Arc::clone(table);
        }
        let table = Arc::new(Equity::solve(key));
        if solved.len() >= KEPT {
            solved.remove(0);
        }
        solved.push((key, Arc::clone(&table)));
        table
    }

    fn solve((target, gin_bonus, undercut_bonus): Key) -> Equity {
        let step = target.div_ceil(MOST_STEPS);
        let steps = usize::try_from(target.div_ceil(step)).unwrap_or(0);
        let outcomes = outcomes(gin_bonus, undercut_bonus, step);
        let mut table = vec![0.0; steps * steps];
        for own in (0..steps).rev() {
            for theirs in (0..steps).rev() {
                let mut chance = 0.0;
                for &(points, weight) in &outcomes {
                    let won = own + points;
                    let won = if won >= steps {
                        1.0
                    } else {
                        table.get(won * steps + theirs).copied().unwrap_or(1.0)
                    };
                    let lost = theirs + points;
                    let lost = if lost >= steps {
                        0.0
                    } else {
                        table.get(own * steps + lost).copied().unwrap_or(0.0)
                    };
                    chance += weight * 0.5 * (won + lost);
                }
                if let Some(slot) = table.get_mut(own * steps + theirs) {
                    *slot = chance;
                }
            }
        }
        Equity { step, steps, table }
    }

    /// The chance of winning the match from these totals.
    fn at(&self, own: u32, opponent: u32) -> f64 {
        let own = usize::try_from(own / self.step).unwrap_or(usize::MAX);
        let opponent = usize::try_from(opponent / self.step).unwrap_or(usize::MAX);
        if own >= self.steps {
            return 1.0;
        }
        if opponent >= self.steps {
            return 0.0;
        }
        self.table
            .get(own * self.steps + opponent)
            .copied()
            .unwrap_or(0.5)
    }

    /// The chance of winning the match after a hand worth `points` to the
    /// seat (negative: that many to the opponent).
    pub(super) fn after(&self, score: ScoreContext, points: i32) -> f64 {
        let gained = points.unsigned_abs();
        if points >= 0 {
            self.at(score.own.saturating_add(gained), score.opponent)
        } else {
            self.at(score.own, score.opponent.saturating_add(gained))
        }
    }
}

/// The points a hand's winner scores, in steps, and their chances (the
/// module docs).
fn outcomes(gin_bonus: u32, undercut_bonus: u32, step: u32) -> Vec<(usize, f64)> {
    let in_steps = |points: u32| usize::try_from((points / step).max(1)).unwrap_or(usize::MAX);
    let mut outcomes = Vec::with_capacity(81);
    outcomes.extend((1..=25u32).map(|points| (in_steps(points), 0.55 / 25.0)));
    outcomes.extend((5..=45u32).map(|extra| (in_steps(gin_bonus + extra), 0.30 / 41.0)));
    outcomes.extend((1..=15u32).map(|extra| (in_steps(undercut_bonus + extra), 0.15 / 15.0)));
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(own: u32, opponent: u32) -> ScoreContext {
        ScoreContext {
            own,
            opponent,
            target: 100,
        }
    }

    #[test]
    fn an_even_score_is_an_even_match() {
        let equity = Equity::for_match(100, 25, 25);
        assert!((equity.after(score(40, 40), 0) - 0.5).abs() < 1e-9);
        assert!((equity.after(score(0, 0), 0) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn points_that_reach_the_target_win_and_more_are_worth_nothing() {
        let equity = Equity::for_match(100, 25, 25);
        assert_eq!(equity.after(score(90, 95), 10), 1.0);
        assert_eq!(equity.after(score(90, 95), 60), 1.0);
        assert_eq!(equity.after(score(90, 95), -5), 0.0);
    }

    #[test]
    fn a_point_is_worth_more_near_the_target() {
        let equity = Equity::for_match(100, 25, 25);
        let gain = |own, theirs| {
            equity.after(score(own, theirs), 10) - equity.after(score(own, theirs), 0)
        };
        // Behind by far, ten points change little; from 85, they win.
        assert!(gain(85, 50) > gain(0, 50));
        // A lead is worth more the bigger it is.
        assert!(equity.after(score(60, 20), 0) > equity.after(score(40, 20), 0));
    }

    #[test]
    fn a_large_target_is_counted_in_steps_and_stays_bounded() {
        let equity = Equity::for_match(10_000, 10_000, 10_000);
        assert_eq!(equity.steps, 200);
        assert_eq!(equity.table.len(), 200 * 200);
        let far = ScoreContext {
            own: 0,
            opponent: 0,
            target: 10_000,
        };
        assert!((equity.after(far, 0) - 0.5).abs() < 1e-9);
        assert_eq!(equity.after(far, i32::MAX), 1.0);
        assert_eq!(equity.after(far, i32::MIN), 0.0);
    }

    #[test]
    fn the_process_keeps_a_bounded_number_of_tables() {
        for target in 1..=(KEPT as u32 + 3) {
            Equity::for_match(target, 25, 25);
        }
        let solved = SOLVED.lock().unwrap_or_else(PoisonError::into_inner);
        assert!(solved.len() <= KEPT);
    }
}
