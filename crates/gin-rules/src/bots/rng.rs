//! The bots' random stream: SplitMix64, seeded from the bot's seed and the
//! view. A few lines, deterministic across platforms and versions, which is
//! what "same body, same move" needs; no statistical quality beyond
//! SplitMix64's is asked of it.

/// A SplitMix64 stream.
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    /// The stream for `seed` at the decision fingerprinted by `view`.
    pub(crate) fn new(seed: u64, view: u64) -> Rng {
        let mut rng = Rng(seed ^ view.rotate_left(29));
        rng.next_u64();
        rng
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (0 when `bound` is 0), by multiply-shift.
    pub(crate) fn below(&mut self, bound: usize) -> usize {
        let wide = u128::from(self.next_u64()) * bound as u128;
        usize::try_from(wide >> 64).unwrap_or(0)
    }

    /// Shuffles `items` in place (Fisher-Yates).
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for last in (1..items.len()).rev() {
            let pick = self.below(last + 1);
            items.swap(last, pick);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_the_same_for_the_same_seed_and_view() {
        let mut a = Rng::new(7, 11);
        let mut b = Rng::new(7, 11);
        let mut c = Rng::new(8, 11);
        let (x, y, z) = (a.next_u64(), b.next_u64(), c.next_u64());
        assert_eq!(x, y);
        assert_ne!(x, z);
    }

    #[test]
    fn below_stays_below_its_bound() {
        let mut rng = Rng::new(1, 2);
        assert!((0..1000).all(|_| rng.below(7) < 7));
        assert_eq!(rng.below(0), 0);
    }
}
