//! How strong one bot is against another, measured over *pairs* of games: the
//! same deals played twice with the seats swapped, so that the luck of the
//! cards cancels within a pair. A pair's score for the first bot is its games
//! won in the pair over 2 (0, 1/2 or 1); the pairs, not the games, are the
//! independent samples.
//!
//! - [`share`]: the mean pair score and its 95% interval, the mean ± 1.96
//!   times the pairs' standard deviation (n - 1) over the root of n, not
//!   clipped to [0, 1] (a pair-clustered interval: the two games of a pair
//!   share their deals, so they are not counted as two samples).
//! - [`sign_test`]: the exact two-sided binomial test (p = 1/2) over the pairs
//!   one bot swept, kept as a logarithm: thousands of pairs give chances far
//!   below the smallest double.
//!
//! [`Pairs::of`] gives both, with the sweeps each way, from the pair scores.
//! The arena's report, the `bot_strength` example and the cross-engine
//! benchmark all report with these.

use std::fmt;

/// The mean pair score and its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Share {
    /// The mean of the pairs' scores.
    pub mean: f64,
    /// `[low, high]`, the mean ± 1.96 sd(n - 1) / sqrt(n); `None` below two
    /// pairs (no spread to measure).
    pub ci95: Option<[f64; 2]>,
}

/// What a run of pairs tells: the first bot's share, and the sign test over
/// the pairs either bot swept.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pairs {
    /// `None` for no pairs.
    pub share: Option<Share>,
    /// Pairs the first bot won both games of (a score of 1).
    pub swept: u64,
    /// Pairs the second bot won both games of (a score of 0).
    pub lost: u64,
    /// Over `swept` against `lost`.
    pub sign_test: SignTest,
}

impl Pairs {
    /// The summary of the pairs' `scores` for the first bot.
    pub fn of(scores: &[f64]) -> Pairs {
        let swept = scores.iter().filter(|&&s| s == 1.0).count() as u64;
        let lost = scores.iter().filter(|&&s| s == 0.0).count() as u64;
        Pairs {
            share: share(scores),
            swept,
            lost,
            sign_test: sign_test(swept, lost),
        }
    }

    /// The summary of pairs given as the first bot's games won in each
    /// (0, 1 or 2).
    pub fn of_wins(wins: &[u8]) -> Pairs {
        let scores: Vec<f64> = wins.iter().map(|&w| f64::from(w) / 2.0).collect();
        Pairs::of(&scores)
    }
}

impl fmt::Display for Share {
    /// As percentages: `52.1% (49.4-54.8%)`, the interval `-` below two
    /// pairs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1}%", 100.0 * self.mean)?;
        match self.ci95 {
            Some([low, high]) => write!(f, " ({:.1}-{:.1}%)", 100.0 * low, 100.0 * high),
            None => write!(f, " (-)"),
        }
    }
}

/// The [`Share`] of the pairs' `scores` (each 0, 1/2 or 1 in a game of pairs,
/// though any values are taken); `None` for no pairs.
pub fn share(scores: &[f64]) -> Option<Share> {
    if scores.is_empty() {
        return None;
    }
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    if scores.len() < 2 {
        return Some(Share { mean, ci95: None });
    }
    let variance = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * variance.sqrt() / n.sqrt();
    Some(Share {
        mean,
        ci95: Some([mean - half, mean + half]),
    })
}

/// The exact two-sided sign test of a split of pairs: `a` swept by one bot
/// against `b` by the other. Displays as `m.me-x` (`3.1e-495`), which a
/// double cannot hold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SignTest {
    /// The natural logarithm of p, at most 0.
    pub ln_p: f64,
}

/// The chance, with a fair coin, of a split of `a + b` at least as uneven as
/// `a` against `b` (p = 1 for no pairs, or an even split).
pub fn sign_test(a: u64, b: u64) -> SignTest {
    let n = a + b;
    let k = a.min(b);
    // ln (C(n, i) 2^-n) for i = 0..=k by a running product, summed in log
    // space (log-sum-exp) so that no term underflows.
    let ln_half_n = n as f64 * 0.5f64.ln();
    let mut ln_choose = 0.0f64;
    let mut terms = Vec::with_capacity(usize::try_from(k).unwrap_or(0).saturating_add(1));
    for i in 0..=k {
        if i > 0 {
            ln_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        terms.push(ln_choose + ln_half_n);
    }
    let top = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let ln_tail = top + terms.iter().map(|t| (t - top).exp()).sum::<f64>().ln();
    SignTest {
        ln_p: (std::f64::consts::LN_2 + ln_tail).min(0.0),
    }
}

impl SignTest {
    /// p as a double: 0 where it is below the smallest one.
    pub fn p(self) -> f64 {
        self.ln_p.exp()
    }
}

impl fmt::Display for SignTest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let log10 = self.ln_p / std::f64::consts::LN_10;
        let mut exponent = log10.floor();
        let mut mantissa = 10f64.powf(log10 - exponent);
        // 9.96 would print as "10.0": carry into the exponent instead.
        if mantissa >= 9.95 {
            mantissa /= 10.0;
            exponent += 1.0;
        }
        write!(f, "{mantissa:.1}e{}", exponent as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sign_test_of_nine_sweeps_to_one_is_twenty_two_in_1024() {
        // 2 * (C(10, 0) + C(10, 1)) / 2^10.
        assert!((sign_test(9, 1).p() - 22.0 / 1024.0).abs() < 1e-12);
        assert!((sign_test(1, 9).p() - 22.0 / 1024.0).abs() < 1e-12);
        assert_eq!(sign_test(9, 1).to_string(), "2.1e-2");
    }

    #[test]
    fn an_even_split_or_no_pairs_has_p_one() {
        assert_eq!(sign_test(0, 0).p(), 1.0);
        assert_eq!(sign_test(3, 3).p(), 1.0);
        assert_eq!(sign_test(3, 3).to_string(), "1.0e0");
    }

    #[test]
    fn a_chance_below_the_smallest_double_is_still_written() {
        let test = sign_test(2218, 125);
        assert_eq!(test.p(), 0.0);
        assert_eq!(test.to_string(), "3.1e-495");
    }

    #[test]
    fn a_mantissa_that_rounds_to_ten_carries_into_the_exponent() {
        let test = SignTest {
            ln_p: (0.0997f64).ln(),
        };
        assert_eq!(test.to_string(), "1.0e-1");
    }

    #[test]
    fn the_interval_is_the_mean_plus_or_minus_the_clustered_error() {
        let share = share(&[1.0, 0.5, 0.5, 0.0, 1.0]);
        // Deviations from 0.6: 0.4, -0.1, -0.1, -0.6, 0.4; squares sum to 0.7.
        let half = 1.96 * (0.7f64 / 4.0).sqrt() / 5f64.sqrt();
        let Some(Share {
            mean,
            ci95: Some([low, high]),
        }) = share
        else {
            panic!("five pairs have an interval: {share:?}");
        };
        assert!((mean - 0.6).abs() < 1e-12);
        assert!((low - (0.6 - half)).abs() < 1e-12 && (high - (0.6 + half)).abs() < 1e-12);
    }

    #[test]
    fn pairs_count_the_sweeps_each_way_and_test_them() {
        let pairs = Pairs::of_wins(&[2, 1, 1, 0, 2]);
        assert_eq!((pairs.swept, pairs.lost), (2, 1));
        assert_eq!(pairs.sign_test, sign_test(2, 1));
        assert_eq!(pairs.share, share(&[1.0, 0.5, 0.5, 0.0, 1.0]));
        let written = pairs.share.map(|share| share.to_string());
        assert_eq!(written.as_deref(), Some("60.0% (23.3-96.7%)"));
    }

    #[test]
    fn one_pair_has_a_mean_but_no_interval_and_none_has_neither() {
        assert_eq!(
            share(&[0.5]),
            Some(Share {
                mean: 0.5,
                ci95: None
            })
        );
        assert_eq!(share(&[]), None);
    }
}
