use super::*;
use crate::deadwood::jokers::solve::footprint_min_cost;

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

#[test]
fn lane_tables_match_a_brute_force() {
    let mut rng = Rng(0x5EED_1A4E);
    for m in 1..=3 {
        let t = tables(m).unwrap();
        for _ in 0..1500 {
            let low = rng.below(u64::from(RANKS)) as u32;
            let len = 1 + rng.below(u64::from(RANKS - low)) as u32;
            // Denser than uniform half the time: runs and gaps to bridge.
            let mut shifted = rng.below(1 << len) as u32;
            if rng.below(2) == 0 {
                shifted |= rng.below(1 << len) as u32;
            }
            let cards = shifted << low;
            let at = segment_index(low, len, cards);
            let high = low + len;
            assert_eq!(
                count(t.one[at]),
                brute(cards, low, high, 1, m),
                "one joker, {cards:b} in [{low}, {high}), m {m}"
            );
            assert_eq!(
                count(t.two[at]),
                brute(cards, low, high, 2, m),
                "two jokers, {cards:b} in [{low}, {high}), m {m}"
            );
        }
    }
}

#[test]
fn segment_indices_are_distinct_and_in_range() {
    let mut seen = vec![false; SEGMENTS];
    for low in 0..RANKS {
        for len in 0..=RANKS - low {
            for shifted in 0..1u32 << len {
                let at = segment_index(low, len, shifted << low);
                assert!(!seen[at], "[{low}, +{len}) {shifted:b}");
                seen[at] = true;
            }
        }
    }
}

/// Naturals: random, or from few ranks (ranks of three) or suits.
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
    let mut with_threes = 0;
    while checked < 100_000 {
        let jokers = 1 + rng.below(2) as u32;
        let count = 1 + rng.below(u64::from(11 - jokers)) as u32;
        let avail = naturals(&mut rng, count);
        let p = Params {
            jokers,
            min_natural: 1 + rng.below(3) as u32,
            joker_deadwood: [0, 15, 25][rng.below(3) as usize],
        };
        let Some(fast) = min_cost_by_lanes(avail, p) else {
            continue;
        };
        checked += 1;
        let [s, h, d, c] = [0, 16, 32, 48].map(|shift| (avail >> shift) & LANE);
        if (s & h & (d | c)) | ((s | h) & d & c) != 0 {
            with_threes += 1;
        }
        assert_eq!(
            fast,
            footprint_min_cost(avail, 0, p),
            "{} {p:?}",
            crate::card::CardSet::from_bits(avail)
        );
    }
    // The ranks of three, decided by shapes, are well covered.
    assert!(with_threes > 10_000, "{with_threes}");
}

/// Every 8 naturals of 3 adjacent ranks (two ranks of three or four at
/// least, sets and runs crossing everywhere), with both jokers, and 9
/// with one joker, under every `joker_min_natural`.
#[test]
fn dense_hands_match_the_footprint_search() {
    for low in 0..=10 {
        let pool: Vec<u64> = (0..4)
            .flat_map(|suit| (low..low + 3).map(move |rank| 1u64 << (16 * suit + rank)))
            .collect();
        for subset in 0u32..1 << pool.len() {
            let count = subset.count_ones();
            if count != 8 && count != 9 {
                continue;
            }
            let avail = pool
                .iter()
                .enumerate()
                .filter(|&(i, _)| subset >> i & 1 == 1)
                .fold(0, |acc, (_, &card)| acc | card);
            for m in 1..=3 {
                let p = Params {
                    jokers: 10 - count,
                    min_natural: m,
                    joker_deadwood: if m == 2 { 0 } else { 15 },
                };
                if let Some(fast) = min_cost_by_lanes(avail, p) {
                    assert_eq!(
                        fast,
                        footprint_min_cost(avail, 0, p),
                        "{} {p:?}",
                        crate::card::CardSet::from_bits(avail)
                    );
                }
            }
        }
    }
}
