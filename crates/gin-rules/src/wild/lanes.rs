//! The least count of a hand with jokers and no rank of three naturals, from
//! per-suit lane tables: the fast path of [`super::solve::min_cost`].
//!
//! # Why the lanes are independent
//!
//! With no rank of three naturals there is no natural set. The melds are then
//! runs, each within one suit, and at most two sets holding jokers (a rank of
//! one or two naturals and one or two jokers). Take the sets holding jokers
//! out (a few choices, tried one by one below): what remains is runs only,
//! and each suit's lane is on its own but for the jokers they share. So for
//! each lane it is enough to know its least deadwood with exactly 0, 1 or 2
//! jokers melded in its runs (0: the joker-free lane table; 1 and 2: the
//! tables here), and the count is the least way of sharing the jokers out,
//! a joker melded nowhere counting `joker_deadwood`.
//!
//! A set holding one joker leaves the other for a run, which must not show a
//! card the set shows: a *wall* at the set's rank in the lanes of the suits
//! it shows. A run cannot cross a wall, so a walled lane is two segments, the
//! ranks below the wall (a prefix of the lane) and those above (a suffix),
//! which is why the one-joker table is kept for every prefix and every suffix
//! rather than for whole lanes only. With the joker's suit free to choose
//! (a set of two naturals lacks two suits), the best choice walls the lane
//! where the run is not: the lanes of the two missing suits count unwalled.
//!
//! A joker standing for a held card of its own run leaves that card as
//! deadwood (no other meld may show it), and the tables count it so; in a
//! set it never helps here (the card can stay where it is instead).
//!
//! # The tables
//!
//! Per `joker_min_natural` (1 to 3), built on first use (a few milliseconds
//! in a release build): the one-joker least deadwood of every prefix and
//! every suffix of a lane (2 x 16 KiB, `u8` each, [`NONE`] when no run can
//! hold the joker) and the two-joker least deadwood of every whole lane
//! (8 KiB). A table entry tries every interval of the segment as the run
//! holding the jokers, the rest of the lane counted by the joker-free lane
//! table; two one-joker runs in one lane lie on either side of some rank, so
//! the two-joker entry also takes the best prefix-suffix split.
//! `tests::lane_tables_match_a_brute_force` checks entries against an
//! independent search.

use std::sync::LazyLock;

use super::solve::Params;
use crate::card::LANE;
use crate::deadwood::lane_deadwood;

/// A segment where no run can hold the jokers.
const NONE: u8 = u8::MAX;

/// Table entries as signed counts, "impossible" far above any real count.
const IMPOSSIBLE: i32 = 1 << 16;

/// Bits of a lane.
const RANKS: u32 = 13;

/// The tables of one `joker_min_natural`.
pub(crate) struct LaneTables {
    /// The least deadwood of the prefix `[0, b)` of a lane, with exactly one
    /// joker melded in its runs, at `(1 << b) | cards`.
    prefix_one: Box<[u8; 1 << 14]>,
    /// The same for the suffix `[a, 13)`, at `(1 << (13 - a)) | (cards >> a)`.
    suffix_one: Box<[u8; 1 << 14]>,
    /// The least deadwood of a whole lane with exactly two jokers melded in
    /// its runs.
    whole_two: Box<[u8; 1 << 13]>,
}

static TABLES: [LazyLock<LaneTables>; 3] = [
    LazyLock::new(|| LaneTables::build(1)),
    LazyLock::new(|| LaneTables::build(2)),
    LazyLock::new(|| LaneTables::build(3)),
];

/// The tables of a `joker_min_natural`, built on first use.
pub(crate) fn tables(min_natural: u32) -> Option<&'static LaneTables> {
    let index = usize::try_from(min_natural.checked_sub(1)?).ok()?;
    TABLES.get(index).map(|tables| &**tables)
}

/// The value of a card at rank bit `bit` (0 for the ace).
const fn rank_value(bit: u32) -> u32 {
    if bit >= 9 { 10 } else { bit + 1 }
}

/// The deadwood of a 13-bit lane once its runs meld (joker-free).
#[inline]
fn left(lane: u32) -> u32 {
    lane_deadwood(u64::from(lane))
}

/// The lowest `count` cards of `bits`.
fn lowest(mut bits: u32, count: u32) -> u32 {
    let mut picked = 0;
    for _ in 0..count {
        let low = bits & bits.wrapping_neg();
        picked |= low;
        bits &= !low;
    }
    picked
}

/// The value of the cards of a lane.
fn lane_value(bits: u32) -> u32 {
    (0..RANKS)
        .filter(|&bit| bits >> bit & 1 == 1)
        .map(rank_value)
        .sum()
}

/// The least deadwood of the cards `bits` of the segment `[low, high)` of a
/// lane when exactly `jokers` jokers meld in one run of it (at least
/// `min_natural` naturals beside them), the rest melding as runs without
/// jokers; `None` when no run can hold them. Jokers the run's gaps do not
/// take stand for its cheapest held cards, which stay deadwood.
fn segment_least(bits: u32, low: u32, high: u32, jokers: u32, min_natural: u32) -> Option<u32> {
    let mut best: Option<u32> = None;
    for start in low..high {
        let mut missing = 0;
        for end in start..high {
            missing += u32::from(bits >> end & 1 == 0);
            if missing > jokers {
                break;
            }
            let len = end - start + 1;
            if len < 3 || len - jokers < min_natural {
                continue;
            }
            let span = ((1u32 << len) - 1) << start;
            let held_fillers = lowest(bits & span, jokers - missing);
            let below = bits & ((1 << start) - 1);
            let above = bits & !((1 << (end + 1)) - 1);
            let count = left(below) + left(above) + lane_value(held_fillers);
            best = Some(best.map_or(count, |b| b.min(count)));
        }
    }
    best
}

fn entry(count: Option<u32>) -> u8 {
    count
        .and_then(|c| u8::try_from(c).ok())
        .filter(|&c| c != NONE)
        .unwrap_or(NONE)
}

/// The bit length less one of a nonzero index: the segment's length.
fn length_of(index: usize) -> u32 {
    usize::BITS - 1 - index.leading_zeros()
}

impl LaneTables {
    fn build(min_natural: u32) -> LaneTables {
        let mut prefix_one = Box::new([NONE; 1 << 14]);
        let mut suffix_one = Box::new([NONE; 1 << 14]);
        for (index, (prefix, suffix)) in prefix_one
            .iter_mut()
            .zip(suffix_one.iter_mut())
            .enumerate()
            .skip(1)
        {
            let len = length_of(index);
            let cards = u32::try_from(index).unwrap_or(0) & ((1 << len) - 1);
            *prefix = entry(segment_least(cards, 0, len, 1, min_natural));
            let low = RANKS - len;
            *suffix = entry(segment_least(cards << low, low, RANKS, 1, min_natural));
        }
        let mut tables = LaneTables {
            prefix_one,
            suffix_one,
            whole_two: Box::new([NONE; 1 << 13]),
        };
        for lane in 0..1u32 << RANKS {
            let one_run = segment_least(lane, 0, RANKS, 2, min_natural);
            // Two runs of one joker each: split below the higher one.
            let two_runs = (0..=RANKS)
                .filter_map(|split| {
                    let below = tables.prefix(lane & ((1 << split) - 1), split)?;
                    let above = tables.suffix(lane >> split, split)?;
                    Some(below + above)
                })
                .min();
            let best = match (one_run, two_runs) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            if let Some(slot) = tables.whole_two.get_mut(lane as usize) {
                *slot = entry(best);
            }
        }
        tables
    }

    /// The one-joker least deadwood of the prefix `[0, len)` holding `cards`.
    fn prefix(&self, cards: u32, len: u32) -> Option<u32> {
        let index = (1usize << len) | cards as usize;
        let e = self.prefix_one.get(index).copied().unwrap_or(NONE);
        (e != NONE).then_some(u32::from(e))
    }

    /// The one-joker least deadwood of the suffix `[low, 13)` whose cards
    /// shifted down by `low` are `shifted`.
    fn suffix(&self, shifted: u32, low: u32) -> Option<u32> {
        let index = (1usize << (RANKS.saturating_sub(low))) | shifted as usize;
        let e = self.suffix_one.get(index).copied().unwrap_or(NONE);
        (e != NONE).then_some(u32::from(e))
    }

    /// How much melding one joker in the runs of `lane` changes its deadwood
    /// (`IMPOSSIBLE` when no run can hold it).
    #[inline]
    fn one_delta(&self, lane: u32, lane_left: u32) -> i32 {
        let e = self
            .prefix_one
            .get((1 << RANKS) | (lane & LANE as u32) as usize)
            .copied()
            .unwrap_or(NONE);
        delta(e, lane_left)
    }

    /// The same with a wall at rank bit `wall` (not a card of `lane`): the run
    /// holding the joker lies below it or above it.
    #[inline]
    fn one_delta_walled(&self, lane: u32, lane_left: u32, wall: u32) -> i32 {
        let below = lane & ((1 << wall) - 1);
        let below_left = left(below);
        let above_left = lane_left.saturating_sub(below_left);
        let low = wall + 1;
        let in_prefix = self
            .prefix_one
            .get((1usize << wall) | below as usize)
            .copied()
            .unwrap_or(NONE);
        let in_suffix = self
            .suffix_one
            .get((1usize << (RANKS.saturating_sub(low))) | (lane >> low) as usize)
            .copied()
            .unwrap_or(NONE);
        delta(in_prefix, below_left).min(delta(in_suffix, above_left))
    }

    /// How much melding two jokers in the runs of `lane` changes its deadwood.
    #[inline]
    fn two_delta(&self, lane: u32, lane_left: u32) -> i32 {
        let e = self
            .whole_two
            .get((lane & LANE as u32) as usize)
            .copied()
            .unwrap_or(NONE);
        delta(e, lane_left)
    }
}

#[inline]
fn delta(entry: u8, before: u32) -> i32 {
    if entry == NONE {
        IMPOSSIBLE
    } else {
        i32::from(entry) - i32::try_from(before).unwrap_or(IMPOSSIBLE)
    }
}

/// The least count of the naturals `avail` with `p.jokers` jokers (1 or 2),
/// nothing blocked, when no rank holds three naturals; `None` otherwise (or
/// for rules outside the tables).
pub(crate) fn min_cost_without_sets(avail: u64, p: Params) -> Option<u32> {
    let lanes: [u32; 4] = [0, 16, 32, 48].map(|shift| ((avail >> shift) & LANE) as u32);
    let [s, h, d, c] = lanes;
    if (s & h & (d | c)) | ((s | h) & d & c) != 0 || !(1..=2).contains(&p.jokers) {
        return None;
    }
    let tables = tables(p.min_natural)?;
    let lefts = lanes.map(left);
    let base = i32::try_from(lefts.iter().sum::<u32>()).ok()?;
    let dead = i32::try_from(p.joker_deadwood).ok()?;
    let ones: [i32; 4] = [0, 1, 2, 3].map(|i| match (lanes.get(i), lefts.get(i)) {
        (Some(&lane), Some(&l)) => tables.one_delta(lane, l),
        _ => IMPOSSIBLE,
    });
    let best_one = ones.iter().copied().min().unwrap_or(IMPOSSIBLE);
    // The ranks of two naturals, each a set with jokers.
    let pairs = (s & (h | d | c)) | (h & (d | c)) | (d & c);
    let mut best;
    if p.jokers == 1 {
        best = base + dead.min(best_one);
        if p.min_natural <= 2 {
            for_each_rank(pairs, |rank| {
                best = best.min(without_rank(&lanes, &lefts, base, rank));
            });
        }
    } else {
        // Runs only: both jokers out, one in a run, both in one lane's runs,
        // or one in each of two lanes.
        let mut sorted = ones;
        sorted.sort_unstable();
        let [first, second, ..] = sorted;
        let best_two = [0, 1, 2, 3]
            .map(|i| match (lanes.get(i), lefts.get(i)) {
                (Some(&lane), Some(&l)) => tables.two_delta(lane, l),
                _ => IMPOSSIBLE,
            })
            .into_iter()
            .min()
            .unwrap_or(IMPOSSIBLE);
        best = base
            + (2 * dead)
                .min(dead + first)
                .min(best_two)
                .min(first + second);
        if p.min_natural <= 2 {
            for_each_rank(pairs, |rank| {
                let rest = without_rank(&lanes, &lefts, base, rank);
                // Both jokers in the set (all four suits).
                best = best.min(rest);
                // One joker in the set, the other out or in a run: a run in
                // a lane the set shows stays off the set's rank.
                let mut other = dead;
                for (i, &lane) in lanes.iter().enumerate() {
                    let cut = lane & !(1 << rank);
                    other = other.min(if cut != lane {
                        tables.one_delta_walled(cut, left(cut), rank)
                    } else {
                        ones.get(i).copied().unwrap_or(IMPOSSIBLE)
                    });
                }
                best = best.min(rest + other);
                // And a second set of one joker.
                for_each_rank(pairs & !((2 << rank) - 1), |second| {
                    let rest = lanes
                        .iter()
                        .map(|&lane| left(lane & !(1 << rank) & !(1 << second)))
                        .sum::<u32>();
                    best = best.min(i32::try_from(rest).unwrap_or(best));
                });
            });
        }
        if p.min_natural == 1 {
            // One natural and both jokers: a set of three.
            for (&lane, &lane_left) in lanes.iter().zip(&lefts) {
                let mut cards = lane;
                while cards != 0 {
                    let card = cards & cards.wrapping_neg();
                    cards &= cards - 1;
                    let rest = base - i32::try_from(lane_left).unwrap_or(0)
                        + i32::try_from(left(lane & !card)).unwrap_or(0);
                    best = best.min(rest);
                }
            }
        }
    }
    u32::try_from(best).ok()
}

/// Calls `visit` with each rank bit of `ranks`, lowest first.
#[inline]
fn for_each_rank(mut ranks: u32, mut visit: impl FnMut(u32)) {
    while ranks != 0 {
        visit(ranks.trailing_zeros());
        ranks &= ranks - 1;
    }
}

/// The joker-free count of the lanes without the cards of rank bit `rank`.
#[inline]
fn without_rank(lanes: &[u32; 4], lefts: &[u32; 4], base: i32, rank: u32) -> i32 {
    lanes
        .iter()
        .zip(lefts)
        .filter(|&(&lane, _)| lane >> rank & 1 == 1)
        .fold(base, |count, (&lane, &l)| {
            count - i32::try_from(l).unwrap_or(0)
                + i32::try_from(left(lane & !(1 << rank))).unwrap_or(0)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wild::solve::footprint_min_cost;

    /// A small deterministic generator (xorshift64*), so the tests need no
    /// seed handling.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// The least deadwood of the cards `bits` of `[low, high)` with exactly
    /// `jokers` jokers melded in runs, by brute force: every set of positions
    /// the jokers stand for, then every way to cut the shown cards into runs
    /// (each joker in one, each run holding a joker with `min_natural`
    /// naturals), cards left out counting their value. Shares nothing with
    /// the tables' interval search.
    fn brute(bits: u32, low: u32, high: u32, jokers: u32, min_natural: u32) -> Option<u32> {
        fn cut(pos: u32, high: u32, naturals: u32, jokers: u32, m: u32) -> Option<u32> {
            if pos >= high {
                return Some(0);
            }
            let shown = naturals | jokers;
            let mut best = None;
            // Position `pos` in no run: a natural there is deadwood, a joker
            // cannot be left there.
            if jokers >> pos & 1 == 0 {
                let here = if naturals >> pos & 1 == 1 {
                    rank_value(pos)
                } else {
                    0
                };
                best = cut(pos + 1, high, naturals, jokers, m).map(|r| r + here);
            }
            // A run from `pos` to `end`.
            let mut end = pos;
            while end < high && shown >> end & 1 == 1 {
                end += 1;
                let span = ((1u32 << (end - pos)) - 1) << pos;
                let (n, j) = ((naturals & span).count_ones(), (jokers & span).count_ones());
                if end - pos >= 3
                    && (j == 0 || n >= m)
                    && let Some(r) = cut(end, high, naturals, jokers, m)
                {
                    best = Some(best.map_or(r, |b: u32| b.min(r)));
                }
            }
            best
        }
        let mut best: Option<u32> = None;
        let positions: Vec<u32> = (low..high).collect();
        let mut consider = |placed: u32| {
            // A joker on a held card leaves that card as deadwood.
            let dead = lane_value(bits & placed);
            if let Some(r) = cut(low, high, bits & !placed, placed, min_natural) {
                best = Some(best.map_or(r + dead, |b| b.min(r + dead)));
            }
        };
        match jokers {
            1 => positions.iter().for_each(|&a| consider(1 << a)),
            _ => {
                for (i, &a) in positions.iter().enumerate() {
                    for &b in &positions[i + 1..] {
                        consider(1 << a | 1 << b);
                    }
                }
            }
        }
        best
    }

    fn as_option(e: u8) -> Option<u32> {
        (e != NONE).then_some(u32::from(e))
    }

    #[test]
    fn lane_tables_match_a_brute_force() {
        let mut rng = Rng(0x5EED_1A4E);
        for m in 1..=3 {
            let t = tables(m).unwrap();
            for _ in 0..1500 {
                let index = 1 + rng.below((1 << 14) - 1) as usize;
                let len = length_of(index);
                let cards = index as u32 & ((1 << len) - 1);
                assert_eq!(
                    as_option(t.prefix_one[index]),
                    brute(cards, 0, len, 1, m),
                    "prefix {cards:b} of {len}, m {m}"
                );
                let low = RANKS - len;
                assert_eq!(
                    as_option(t.suffix_one[index]),
                    brute(cards << low, low, RANKS, 1, m),
                    "suffix {:b} from {low}, m {m}",
                    cards << low
                );
                let lane = rng.below(1 << 13) as u32 & rng.below(1 << 13) as u32;
                assert_eq!(
                    as_option(t.whole_two[lane as usize]),
                    brute(lane, 0, RANKS, 2, m),
                    "lane {lane:b}, m {m}"
                );
            }
        }
    }

    /// Naturals without a rank of three: random, or from few ranks or suits.
    fn naturals(rng: &mut Rng, count: u32) -> u64 {
        let pool: u64 = match rng.below(3) {
            0 => CardSetBits::DECK,
            1 => {
                let low = rng.below(10);
                (0..4).fold(0, |acc, lane| acc | (0b1111u64 << low) << (16 * lane))
            }
            _ => {
                let a = rng.below(4);
                let b = rng.below(4);
                (LANE << (16 * a)) | (LANE << (16 * b))
            }
        };
        let mut hand = 0u64;
        let mut tries = 0;
        while hand.count_ones() < count && tries < 1000 {
            tries += 1;
            let card = 1u64 << (16 * rng.below(4) + rng.below(13));
            if pool & card != 0 {
                hand |= card;
            }
        }
        hand
    }

    struct CardSetBits;

    impl CardSetBits {
        const DECK: u64 = LANE | LANE << 16 | LANE << 32 | LANE << 48;
    }

    #[test]
    fn the_lane_path_matches_the_footprint_search() {
        let mut rng = Rng(0xC0FF_EE11);
        let mut checked = 0;
        while checked < 60_000 {
            let jokers = 1 + rng.below(2) as u32;
            let count = 1 + rng.below(u64::from(11 - jokers)) as u32;
            let avail = naturals(&mut rng, count);
            let p = Params {
                jokers,
                min_natural: 1 + rng.below(3) as u32,
                joker_deadwood: [0, 15, 25][rng.below(3) as usize],
            };
            let Some(fast) = min_cost_without_sets(avail, p) else {
                continue;
            };
            checked += 1;
            assert_eq!(
                fast,
                footprint_min_cost(avail, 0, p),
                "{} {p:?}",
                crate::card::CardSet::from_bits(avail)
            );
        }
    }
}
