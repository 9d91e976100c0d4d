//! The valuation's choice, overruled only where play-outs show a clear gain.
//!
//! The one-draw valuation (module `search`) sees a single draw ahead; a
//! hand is built over many. So at a draw and at a discard the choice it
//! makes, and its closest rivals, are each played out in every dealt world
//! (module `rollout`: both players by the quick policy, the opponent
//! knocking at its first chance, the seat for gin only), the same worlds
//! for every candidate, so that the luck of the deal cancels in their
//! difference. A rival replaces the valuation's choice only when its mean
//! gain over it, world by world, is more than `Z` standard errors: a
//! play-out policy is cruder than the valuation, and following it on noise
//! plays worse than not following it at all. In a match the play-outs'
//! points are summed as the chance of winning the match after them (`Worth`,
//! module `equity`), which is what made the check pay.

use super::super::ScoreContext;
use super::deals::HiddenDeal;
use super::equity::Equity;
use super::rollout::{KnockAt, knock_points, least_discard, play_on};
use crate::card::{Card, CardSet};
use crate::profile::Profile;

/// How many standard errors a rival's mean gain must pass.
const Z: f64 = 2.0;

/// How a play-out's points are counted.
#[derive(Clone, Copy)]
pub(super) enum Worth<'a> {
    /// As points: a hand played on its own.
    Points,
    /// As the chance of winning the match from this score (module `equity`).
    Match(&'a Equity, ScoreContext),
}

impl Worth<'_> {
    /// What `points` to the seat (negative: to the opponent) are worth.
    pub(super) fn of(self, points: i32) -> f64 {
        match self {
            Worth::Points => f64::from(points),
            Worth::Match(equity, score) => equity.after(score, points),
        }
    }
}

/// What the seat does now, as a play-out starts from it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Start {
    /// Discard this card from the eleven held.
    Discard(Card),
    /// Take the pile's top, then discard by the quick policy.
    TakeTop(Card),
    /// Draw the stock's top, then discard by the quick policy.
    DrawStock,
}

/// The index in `starts` to play: `chosen` (the valuation's), unless a
/// rival's paired gain over it passes the gate. `held` is the seat's hand
/// as the starts find it: eleven cards at a discard, ten at a draw.
pub(super) fn choose(
    held: CardSet,
    starts: &[Start],
    chosen: usize,
    deals: &[HiddenDeal],
    limit: u32,
    profile: &Profile,
    worth: Worth,
) -> usize {
    if deals.len() < 2 || starts.len() < 2 {
        return chosen;
    }
    let knock_at = KnockAt::building_for_gin(limit);
    let worths: Vec<Vec<f64>> = starts
        .iter()
        .map(|&start| {
            deals
                .iter()
                .map(|deal| worth.of(played_out(held, start, deal, knock_at, profile)))
                .collect()
        })
        .collect();
    let Some(base) = worths.get(chosen) else {
        return chosen;
    };
    let mut best = (chosen, 0.0);
    for (index, rival) in worths.iter().enumerate() {
        if index == chosen {
            continue;
        }
        let gain = paired_gain(rival, base);
        if gain.mean > Z * gain.error && gain.mean > best.1 {
            best = (index, gain.mean);
        }
    }
    best.0
}

/// A mean and its standard error.
struct Gain {
    mean: f64,
    error: f64,
}

/// The mean of `rival - base`, world by world, and its standard error.
fn paired_gain(rival: &[f64], base: &[f64]) -> Gain {
    let n = rival.len().min(base.len());
    let diffs = rival.iter().zip(base).map(|(&r, &b)| r - b);
    let (sum, squares) = diffs.fold((0.0, 0.0), |(s, q), d| (s + d, q + d * d));
    let count = n as f64;
    let mean = sum / count;
    let variance = ((squares - sum * mean) / (count - 1.0)).max(0.0);
    Gain {
        mean,
        error: (variance / count).sqrt(),
    }
}

/// The points to the seat of `start` in one dealt world.
fn played_out(
    held: CardSet,
    start: Start,
    deal: &HiddenDeal,
    knock_at: KnockAt,
    profile: &Profile,
) -> i32 {
    let (eleven, kept, stock) = match start {
        Start::Discard(card) => {
            let ten = held.difference(CardSet::single(card));
            return play_on(ten, deal.opponent, &deal.stock, card, knock_at, profile);
        }
        Start::TakeTop(top) => (
            held.union(CardSet::single(top)),
            Some(top),
            deal.stock.as_slice(),
        ),
        Start::DrawStock => match deal.stock.split_last() {
            Some((&card, rest)) => (held.union(CardSet::single(card)), None, rest),
            None => return 0,
        },
    };
    let Some((discard, count)) = least_discard(eleven, kept) else {
        return 0;
    };
    let ten = eleven.difference(CardSet::single(discard));
    if count <= knock_at.mine {
        return knock_points(ten, deal.opponent, profile);
    }
    play_on(ten, deal.opponent, stock, discard, knock_at, profile)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::cards;
    use crate::profile::Preset;

    /// Deals of the cards outside `held`, each a different rotation of
    /// them: the opponent's ten, then the stock.
    fn deals_without(held: CardSet, count: usize) -> Vec<HiddenDeal> {
        let rest: Vec<Card> = Card::deck().filter(|&card| !held.contains(card)).collect();
        (0..count)
            .map(|turn| {
                let mut order = rest.clone();
                order.rotate_left(turn * 7 % rest.len());
                let (opponent, stock) = order.split_at(10);
                HiddenDeal {
                    opponent: opponent.iter().fold(CardSet::EMPTY, |mut set, &card| {
                        set.insert(card);
                        set
                    }),
                    stock: stock.to_vec(),
                }
            })
            .collect()
    }

    #[test]
    fn a_mean_gain_and_its_error_are_read_world_by_world() {
        let gain = paired_gain(&[3.0, 5.0, 7.0], &[1.0, 3.0, 5.0]);
        assert_eq!((gain.mean, gain.error), (2.0, 0.0));
        let gain = paired_gain(&[2.0, 0.0], &[0.0, 0.0]);
        assert_eq!(gain.mean, 1.0);
        assert!((gain.error - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_discard_that_breaks_a_meld_is_overruled_by_one_that_does_not() {
        // Discarding 7S breaks the set of sevens; KC is a lone king.
        let held = cards("AS 2S 3S 4H 5H 6H 7D 7C 7S 9H KC").unwrap();
        let deals = deals_without(held, 40);
        let profile = Preset::Eaai.profile();
        let starts = [
            Start::Discard("7S".parse().unwrap()),
            Start::Discard("KC".parse().unwrap()),
        ];
        let pick = choose(held, &starts, 0, &deals, 10, &profile, Worth::Points);
        assert_eq!(pick, 1);
        // Chosen the other way round, the choice stands.
        let pick = choose(held, &starts, 1, &deals, 10, &profile, Worth::Points);
        assert_eq!(pick, 1);
    }

    #[test]
    fn without_deals_to_weigh_the_choice_stands() {
        let held = cards("AS 2S 3S 4H 5H 6H 7D 7C 7S 9H KC").unwrap();
        let profile = Preset::Eaai.profile();
        let starts = [
            Start::Discard("7S".parse().unwrap()),
            Start::Discard("KC".parse().unwrap()),
        ];
        let one = deals_without(held, 1);
        assert_eq!(
            choose(held, &starts, 0, &one, 10, &profile, Worth::Points),
            0
        );
    }

    #[test]
    fn a_pile_top_that_completes_gin_is_taken_over_the_stock() {
        // 8H makes 6-7-8 of hearts: gin on the take, whatever the stock.
        let held = cards("AS 2S 3S 4D 5D 6D 6H 7H 9C 9D").unwrap();
        let top: Card = "8H".parse().unwrap();
        let deals = deals_without(held.union(CardSet::single(top)), 30);
        let profile = Preset::Eaai.profile();
        let starts = [Start::TakeTop(top), Start::DrawStock];
        assert_eq!(
            choose(held, &starts, 1, &deals, 10, &profile, Worth::Points),
            0
        );
    }

    #[test]
    fn in_a_match_points_count_by_the_chance_of_winning_it() {
        let equity = Equity::for_match(100, 25, 25);
        let score = ScoreContext {
            own: 95,
            opponent: 0,
            target: 100,
        };
        let worth = Worth::Match(&equity, score);
        // Five points win the match; fifty more add nothing.
        assert_eq!(worth.of(5), 1.0);
        assert_eq!(worth.of(55), 1.0);
        assert_eq!(Worth::Points.of(55), 55.0);
    }
}
