//! How much stronger one bot is than another, from mirrored pairs: two
//! games from the same deals with the seats swapped, each pair scored 0,
//! 1/2 or 1 for the first bot (games won of two). The pairs are the units,
//! not the games: the two games of a pair share their deals, so their
//! results are not independent.
//!
//! - [`clustered_ci`]: the mean pair score and its 95 % interval, the mean
//!   plus or minus 1.96 times the pairs' standard deviation (n - 1) over the
//!   root of n;
//! - [`sign_test`]: the exact two-sided sign test over the pairs one bot
//!   swept (won both games of), the tied pairs left out.

use std::fmt;

/// The mean of the pairs' scores and its 95 % interval, mean plus or minus
/// 1.96 sd(n - 1) / sqrt(n), not clipped (`None` below two pairs).
pub fn clustered_ci(scores: &[f64]) -> (Option<f64>, Option<[f64; 2]>) {
    let n = scores.len() as f64;
    if scores.is_empty() {
        return (None, None);
    }
    let mean = scores.iter().sum::<f64>() / n;
    if scores.len() < 2 {
        return (Some(mean), None);
    }
    let variance = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * variance.sqrt() / n.sqrt();
    (Some(mean), Some([mean - half, mean + half]))
}

/// The exact two-sided sign test of `a` pairs swept by one bot against `b`
/// by the other: the chance, with a fair coin, of a split at least as
/// uneven (1 when there are none).
pub fn sign_test(a: u64, b: u64) -> SignTest {
    let n = a + b;
    let k = a.min(b);
    // ln C(n, i) - n ln 2 for i = 0..=k, by a running product.
    let mut ln_choose = 0.0f64;
    let terms: Vec<f64> = (0..=k)
        .map(|i| {
            if i > 0 {
                ln_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
            }
            ln_choose - n as f64 * std::f64::consts::LN_2
        })
        .collect();
    SignTest { terms }
}

/// The chance a [`sign_test`] gives, kept as the logarithms of its terms:
/// thousands of pairs give a chance far below the smallest double, which
/// only its logarithm can say.
#[derive(Debug, Clone, PartialEq)]
pub struct SignTest {
    terms: Vec<f64>,
}

impl SignTest {
    /// The chance as a double (0 where it is below the smallest one).
    pub fn p(&self) -> f64 {
        (2.0 * self.terms.iter().map(|t| t.exp()).sum::<f64>()).min(1.0)
    }

    /// The chance's logarithm to base 10, summed in log space (log-sum-exp)
    /// so that no term underflows.
    pub fn log10(&self) -> f64 {
        let top = self.terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let ln_tail = top + self.terms.iter().map(|t| (t - top).exp()).sum::<f64>().ln();
        ((std::f64::consts::LN_2 + ln_tail) / std::f64::consts::LN_10).min(0.0)
    }
}

/// Written `m.me-x` from the logarithm: `3.1e-495`.
impl fmt::Display for SignTest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let log10 = self.log10();
        let mut exponent = log10.floor();
        // Rounded to the one decimal written, so that 9.97 is said 1.0 of
        // the next power rather than 10.0 of this one.
        let mut mantissa = (10f64.powf(log10 - exponent) * 10.0).round() / 10.0;
        if mantissa >= 10.0 {
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
    fn the_sign_test_is_exact() {
        // 9 against 1: (C(10,0) + C(10,1)) * 2 / 1024.
        assert!((sign_test(9, 1).p() - 22.0 / 1024.0).abs() < 1e-12);
        assert_eq!(sign_test(0, 0).p(), 1.0);
        assert_eq!(sign_test(3, 3).p(), 1.0);
        assert!((sign_test(9, 1).log10() - (22.0f64 / 1024.0).log10()).abs() < 1e-12);
    }

    #[test]
    fn a_chance_below_the_smallest_double_is_still_said() {
        let test = sign_test(2_218, 125);
        assert_eq!(test.p(), 0.0);
        assert_eq!(test.to_string(), "3.1e-495");
        assert_eq!(sign_test(9, 1).to_string(), "2.1e-2");
    }

    #[test]
    fn a_mantissa_that_rounds_up_to_ten_carries_into_the_exponent() {
        // A chance of 10^-4.001 is 9.977e-5, written to one decimal: 1.0e-4.
        let test = SignTest {
            terms: vec![(10f64.powf(-4.001) / 2.0).ln()],
        };
        assert_eq!(test.to_string(), "1.0e-4");
    }

    #[test]
    fn the_interval_is_the_mean_plus_or_minus_the_clustered_error() {
        let scores = [1.0, 0.5, 1.0, 0.0, 1.0];
        let (mean, ci) = clustered_ci(&scores);
        assert_eq!(mean, Some(0.7));
        let sd = (0.09 + 0.04 + 0.09 + 0.49 + 0.09) / 4.0;
        let half = 1.96 * f64::sqrt(sd) / 5f64.sqrt();
        let [low, high] = ci.unwrap();
        assert!((low - (0.7 - half)).abs() < 1e-12 && (high - (0.7 + half)).abs() < 1e-12);
        assert_eq!(clustered_ci(&[]), (None, None));
        assert_eq!(clustered_ci(&[1.0]), (Some(1.0), None));
    }
}
