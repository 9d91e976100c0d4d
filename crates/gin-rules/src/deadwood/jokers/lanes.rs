//! The least count of a hand with jokers from per-suit lane tables: the fast
//! path of [`super::solve::min_cost`], for hands with nothing blocked and at
//! most two ranks of three or more naturals (every hand of ten cards with
//! two jokers, and most with one); the others take the footprint search.
//!
//! # Why the lanes are independent
//!
//! Fix what happens at each rank of three or more naturals: no set there, a
//! natural set (the whole rank, or three of four), or a set holding jokers
//! (see [`shapes`]); every combination is tried. Every other rank has at
//! most two naturals, so a set there holds jokers: one or two ranks at most,
//! tried one by one. Take the sets out, and what remains is runs only: each
//! suit's lane is on its own but for the jokers they share. So for each lane
//! it is enough to know its least deadwood with exactly 0, 1 or 2 jokers
//! melded in its runs (0: the joker-free lane table; 1 and 2: the tables
//! here), and the count is the least way of sharing the jokers out. A lane
//! changes only at the decided ranks, so its figures are worked out once per
//! state and shared by the combinations; the search stops at a count of 0.
//!
//! A run must not show a card a set shows: each set leaves a *wall* at its
//! rank in the lane of each suit it shows. A run cannot cross a wall, so a
//! walled lane is a few segments, and the tables are kept for every segment
//! of a lane, not only whole lanes. A set of two naturals and one joker lacks
//! two suits and may show either: the best choice walls the lane where the
//! other joker's run is not, so both missing suits' lanes count unwalled.
//!
//! A joker that melds nowhere counts `joker_deadwood`, unless it is cheaper
//! to *park* it: to have it stand for a natural of a set that keeps enough
//! naturals without it (that card is then deadwood), or for a card of its
//! own run (the tables count that). A set of two naturals never gains by it
//! (the natural can stay in its lane instead, the joker joining a missing
//! suit), so only the sets of the ranks of three offer places to park.
//!
//! # The tables
//!
//! Per `joker_min_natural` (1 to 3), built on first use (under 10 ms in a
//! release build): the least deadwood of every segment of a lane with
//! exactly one joker melded in its runs, and with exactly two (32 KiB each,
//! 192 KiB for all three rules, a `u8` per entry, [`NONE`] when no run can
//! hold them; a
//! segment `[low, low + len)` of cards `c` is entry `(1 << len) | (c >> low)`
//! of the block of the segments starting at `low`). An entry tries every
//! interval of the segment as the run holding the jokers, the rest counted by
//! the joker-free lane table; two one-joker runs lie on either side of some
//! rank, so the two-joker entry also takes the best split of the segment.
//! The tests check entries against an independent brute force, and the whole
//! path against the footprint search.

use std::sync::LazyLock;

use super::params::Params;
use crate::card::{LANE, lowest_bits};
use crate::deadwood::natural::lane_deadwood;

/// A segment where no run can hold the jokers.
const NONE: u8 = u8::MAX;

/// Table entries as signed counts, "impossible" far above any real count.
const IMPOSSIBLE: i32 = 1 << 16;

/// Bits of a lane.
const RANKS: u32 = 13;

/// Entries of a table: the segments starting at `low` take `2^(14 - low)`.
const SEGMENTS: usize = 1 << 15;

/// The tables of one `joker_min_natural`.
pub(crate) struct LaneTables {
    /// The least deadwood of a segment's cards with exactly one joker melded
    /// in its runs.
    one: Box<[u8; SEGMENTS]>,
    /// The same with exactly two jokers.
    two: Box<[u8; SEGMENTS]>,
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

/// [`left`] as a signed count.
#[inline]
fn left_i(lane: u32) -> i32 {
    i32::try_from(left(lane)).unwrap_or(IMPOSSIBLE)
}

/// The value of the cards of a lane.
fn lane_value(mut bits: u32) -> u32 {
    let mut sum = 0;
    while bits != 0 {
        sum += rank_value(bits.trailing_zeros());
        bits &= bits - 1;
    }
    sum
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
            // A subset of a lane's 32 bits: the narrowing loses nothing.
            let held_fillers = lowest_bits(u64::from(bits & span), jokers - missing) as u32;
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

fn count(entry: u8) -> Option<u32> {
    (entry != NONE).then_some(u32::from(entry))
}

/// The table entry of the segment `[low, low + len)` holding `cards` (lane
/// bits, within the segment).
#[inline]
fn segment_index(low: u32, len: u32, cards: u32) -> usize {
    // The blocks before `low` take 2^14 + 2^13 + ... + 2^(15 - low) entries.
    let block = SEGMENTS - (SEGMENTS >> low);
    block + ((1usize << len) | (cards >> low) as usize)
}

impl LaneTables {
    fn build(min_natural: u32) -> LaneTables {
        let mut tables = LaneTables {
            one: Box::new([NONE; SEGMENTS]),
            two: Box::new([NONE; SEGMENTS]),
        };
        for low in 0..RANKS {
            for len in 1..=RANKS - low {
                for shifted in 0..1u32 << len {
                    let cards = shifted << low;
                    let one = segment_least(cards, low, low + len, 1, min_natural);
                    if let Some(slot) = tables.one.get_mut(segment_index(low, len, cards)) {
                        *slot = entry(one);
                    }
                }
            }
        }
        for low in 0..RANKS {
            for len in 1..=RANKS - low {
                let high = low + len;
                for shifted in 0..1u32 << len {
                    let cards = shifted << low;
                    let one_run = segment_least(cards, low, high, 2, min_natural);
                    // Two runs of one joker each: split below the higher one.
                    let two_runs = (low + 1..high)
                        .filter_map(|split| {
                            let below = cards & ((1 << split) - 1);
                            let above = cards & !((1 << split) - 1);
                            let a = tables.one(low, split - low, below)?;
                            let b = tables.one(split, high - split, above)?;
                            Some(a + b)
                        })
                        .min();
                    let best = match (one_run, two_runs) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                    if let Some(slot) = tables.two.get_mut(segment_index(low, len, cards)) {
                        *slot = entry(best);
                    }
                }
            }
        }
        tables
    }

    fn one(&self, low: u32, len: u32, cards: u32) -> Option<u32> {
        count(
            self.one
                .get(segment_index(low, len, cards))
                .copied()
                .unwrap_or(NONE),
        )
    }

    /// How much melding one joker, and two, in the runs of a lane changes its
    /// deadwood (`IMPOSSIBLE` when no run can), runs kept off `walls`: the
    /// best segment for one, and for two the best segment or the best two
    /// segments with one each. `cards` and `walls` are disjoint.
    #[inline]
    fn lane_deltas(&self, cards: u32, walls: u32) -> (i32, i32) {
        if walls == 0 {
            let at = segment_index(0, RANKS, cards);
            let before = left_i(cards);
            return (
                delta(self.one.get(at).copied().unwrap_or(NONE), before),
                delta(self.two.get(at).copied().unwrap_or(NONE), before),
            );
        }
        let (mut one, mut second, mut two) = (IMPOSSIBLE, IMPOSSIBLE, IMPOSSIBLE);
        let mut rest = cards;
        while rest != 0 {
            // The segment of the lowest card left: between the walls around it.
            let card = rest.trailing_zeros();
            let below = walls & ((1 << card) - 1);
            let low = u32::BITS - below.leading_zeros();
            let above = walls >> card;
            let high = if above == 0 {
                RANKS
            } else {
                card + above.trailing_zeros()
            };
            let span = ((1u32 << high) - 1) & !((1u32 << low) - 1);
            let segment = cards & span;
            rest &= !span;
            let at = segment_index(low, high - low, segment);
            let before = left_i(segment);
            let d1 = delta(self.one.get(at).copied().unwrap_or(NONE), before);
            if d1 < one {
                second = one;
                one = d1;
            } else if d1 < second {
                second = d1;
            }
            two = two.min(delta(self.two.get(at).copied().unwrap_or(NONE), before));
        }
        (one, two.min(one + second))
    }
}

#[inline]
fn delta(entry: u8, before: i32) -> i32 {
    if entry == NONE {
        IMPOSSIBLE
    } else {
        i32::from(entry) - before
    }
}

/// The hand once the ranks of three are decided: the naturals left, the
/// walls the sets leave (cards no run may show), the jokers not in those
/// sets, the decided ranks (no other set forms there) and the two cheapest
/// places to park a joker on those sets.
#[derive(Debug, Clone, Copy)]
struct Rest {
    avail: u64,
    walls: u64,
    jokers: u32,
    decided: u32,
    park: [i32; 2],
}

impl Rest {
    /// Records a set (see [`Shape`]); `None` when the jokers run out.
    #[inline]
    fn with_set(mut self, shape: &Shape) -> Option<Rest> {
        self.jokers = self.jokers.checked_sub(shape.jokers)?;
        self.avail &= !shape.naturals;
        self.walls |= shape.shown;
        for _ in 0..shape.room {
            let [first, second] = &mut self.park;
            if shape.value < *first {
                *second = *first;
                *first = shape.value;
            } else if shape.value < *second {
                *second = shape.value;
            }
        }
        Some(self)
    }
}

/// A 4-bit suit mask as one card per suit at rank bit 0.
#[inline]
fn spread(suits: u8) -> u64 {
    let suits = u64::from(suits);
    (suits & 1) | (suits & 2) << 15 | (suits & 4) << 30 | (suits & 8) << 45
}

/// The 4-bit mask of the suits holding a card at rank bit 0 of `cards`.
#[inline]
fn gather(cards: u64) -> u8 {
    let bits = cards & 0x0001_0001_0001_0001;
    ((bits | bits >> 15 | bits >> 30 | bits >> 45) & 0xF) as u8
}

/// Per lane: its deadwood, and how much one joker, or two, melded in its runs
/// change it ([`LaneTables::lane_deltas`]).
type Facts = (i32, i32, i32);

/// [`Facts`] of a lane.
#[inline]
fn lane_facts(tables: &LaneTables, cards: u32, walls: u32) -> Facts {
    let (one, two) = tables.lane_deltas(cards, walls);
    (left_i(cards), one, two)
}

/// The lanes of a mask.
#[inline]
fn lanes_of(bits: u64) -> [u32; 4] {
    [0, 16, 32, 48].map(|shift| ((bits >> shift) & LANE) as u32)
}

/// The least count of the naturals `avail` with `p.jokers` jokers (1 or 2),
/// nothing blocked, when at most two ranks hold three naturals or more;
/// `None` otherwise (or for rules outside the tables).
pub(crate) fn min_cost_by_lanes(avail: u64, p: Params) -> Option<u32> {
    let lanes = lanes_of(avail);
    let [s, h, d, c] = lanes;
    let threes = (s & h & (d | c)) | ((s | h) & d & c);
    if !(1..=2).contains(&p.jokers) {
        return None;
    }
    let tables = tables(p.min_natural)?;
    let dead = i32::try_from(p.joker_deadwood).ok()?;
    let m = p.min_natural;
    let rest = Rest {
        avail,
        walls: 0,
        jokers: p.jokers,
        decided: threes,
        park: [IMPOSSIBLE; 2],
    };
    if threes == 0 {
        // Most hands: nothing to decide, each lane looked at once.
        let facts = [0, 1, 2, 3].map(|suit| {
            lanes
                .get(suit)
                .map_or((0, IMPOSSIBLE, IMPOSSIBLE), |&lane| {
                    lane_facts(tables, lane, 0)
                })
        });
        let pairs = two_natural_ranks(avail);
        return u32::try_from(lanes_cost(&rest, &facts, pairs, m, dead, tables)).ok();
    }
    let others = threes & (threes - 1);
    if others & others.wrapping_sub(1) != 0 {
        // Three ranks of three (eleven cards or more): the footprint search.
        return None;
    }
    u32::try_from(min_cost_deciding_sets(rest, others, p, tables, dead)).ok()
}

/// [`min_cost_by_lanes`] for a hand with one or two ranks of three naturals
/// (`rest.decided`; `second` the second's bit, or 0): the least count over
/// every shape of the first rank's set and of the second's, the lanes
/// answering from the tables in each.
#[inline(always)]
fn min_cost_deciding_sets(
    rest: Rest,
    second: u32,
    p: Params,
    tables: &LaneTables,
    dead: i32,
) -> i32 {
    let avail = rest.avail;
    let m = p.min_natural;
    // A lane changes only at the decided ranks, in three ways at each
    // (untouched, its card melded in the set, walled by a joker): its facts
    // in each of the nine states, worked out once when first needed, at
    // `9 * suit + state`. Kept here, not in a struct of its own: the
    // optimiser then keeps `known` in a register and skips zeroing the table.
    let mut memo = [(0, 0, 0); 36];
    let mut known = 0u64;
    let mut best = IMPOSSIBLE;
    // The second rank's shapes, listed once from the hand before the first
    // rank's set (a superset: more cards only make more cards runnable, and
    // a shape wanting more jokers than the first left is refused).
    let none = [Shape::default()];
    let mut listed = [Shape::default(); 7];
    let seconds: &[Shape] = if second == 0 {
        &none
    } else {
        let rank = second.trailing_zeros();
        let mut count = 0;
        for (slot, shape) in listed.iter_mut().zip(shapes(avail, rank, m, p.jokers)) {
            *slot = shape;
            count += 1;
        }
        listed.get(..count).unwrap_or(&none)
    };
    // The undecided ranks keep their cards whatever the decisions.
    let pairs = two_natural_ranks(avail) & !rest.decided;
    for one in shapes(avail, rest.decided.trailing_zeros(), m, p.jokers) {
        let Some(after_one) = rest.with_set(&one) else {
            continue;
        };
        for two in seconds {
            let Some(rest) = after_one.with_set(two) else {
                continue;
            };
            // Each lane's state: the first rank's digit, then the second's.
            let mut states = one.states;
            for (state, &later) in states.iter_mut().zip(&two.states) {
                *state += 3 * later;
            }
            let mut facts = [(0, 0, 0); 4];
            for (suit, (fact, state)) in facts.iter_mut().zip(states).enumerate() {
                let at = 9 * suit + usize::from(state);
                *fact = match memo.get_mut(at) {
                    Some(slot) if known >> at & 1 == 1 => *slot,
                    slot => {
                        let shift = 16 * suit as u32;
                        let cards = ((rest.avail >> shift) & LANE) as u32;
                        let walls = ((rest.walls >> shift) & LANE) as u32;
                        let fresh = lane_facts(tables, cards, walls);
                        if let Some(slot) = slot {
                            *slot = fresh;
                            known |= 1 << at;
                        }
                        fresh
                    }
                };
            }
            best = best.min(lanes_cost(&rest, &facts, pairs, m, dead, tables));
            if best == 0 {
                // Nothing is lower.
                return 0;
            }
        }
    }
    best
}

/// A set at a rank of three or more, or none: the naturals it melds and the
/// cards it shows, the jokers it holds, how many more may park on it (each
/// for a natural worth `value`), and what it does to each suit's lane (0
/// nothing, 1 melds its card and walls the lane, 2 walls it, a joker
/// standing for the suit).
#[derive(Debug, Clone, Copy, Default)]
struct Shape {
    naturals: u64,
    shown: u64,
    jokers: u32,
    room: u32,
    value: i32,
    states: [u8; 4],
}

/// The sets a rank of three or four naturals can hold (see [`Shape`]), and
/// none: the whole rank; for four, each three of them (the fourth stays in
/// its lane); for three, the missing suit added by a joker to the three, or
/// to any two of them that keep `m` naturals (the third stays in its lane). A
/// joker standing for a natural of the rank is a parked joker: a set may take
/// one while it keeps `m` naturals and holds two jokers at most.
///
/// A card left in its lane is worth it only if some run could hold it (see
/// `runnable` below). The others would be deadwood there, where the set
/// melds them: shapes leaving only such cards out are skipped.
fn shapes(avail: u64, rank: u32, m: u32, jokers: u32) -> impl Iterator<Item = Shape> {
    let held = gather(avail >> rank);
    // The suits whose card here some run could hold, with `left` jokers to
    // spare: a run holding it has gaps of `left` at most, so its nearest
    // other natural is within `left + 1` ranks, and its two nearest within
    // `left + 2` when it needs three naturals (no joker, or
    // `joker_min_natural` 3); one natural and two jokers meld under
    // `joker_min_natural` 1.
    let runnable = |left: u32| {
        if m == 1 && left >= 2 {
            return held;
        }
        let two_more = m >= 3 || left == 0;
        let reach = left + 1 + u32::from(two_more);
        let near = (((1u64 << (2 * reach + 1)) - 1) << rank >> reach) & LANE & !(1 << rank);
        let lanes = lanes_of(avail & (near * 0x0001_0001_0001_0001));
        let mut found = 0u8;
        for (suit, &lane) in lanes.iter().enumerate() {
            let enough = if two_more {
                lane & lane.wrapping_sub(1) != 0
            } else {
                lane != 0
            };
            if enough {
                found |= 1 << suit;
            }
        }
        found & held
    };
    let mut out = [Shape::default(); 7];
    let mut count = 0;
    let value = i32::try_from(rank_value(rank)).unwrap_or(IMPOSSIBLE);
    let m_u8 = u8::try_from(m).unwrap_or(u8::MAX);
    let mut push = |naturals: u8, shown: u8, jokers: u8| {
        let melded = naturals.count_ones() as u8;
        let mut states = [0u8; 4];
        for (suit, state) in states.iter_mut().enumerate() {
            *state = if naturals >> suit & 1 == 1 {
                1
            } else {
                (shown >> suit & 1) * 2
            };
        }
        if let Some(slot) = out.get_mut(count) {
            *slot = Shape {
                naturals: spread(naturals) << rank,
                shown: spread(shown) << rank,
                jokers: u32::from(jokers),
                room: u32::from(melded.saturating_sub(m_u8).min(2 - jokers.min(2))),
                value,
                states,
            };
            count += 1;
        }
    };
    push(held, held, 0);
    if held == 0b1111 {
        let free = runnable(jokers);
        for suit in 0..4 {
            if free >> suit & 1 == 1 {
                let three = held & !(1 << suit);
                push(three, three, 0);
            }
        }
    } else if jokers >= 1 {
        let missing = 0b1111 & !held;
        push(held, 0b1111, 1);
        if m <= 2 {
            let free = runnable(jokers - 1);
            for suit in 0..4 {
                if free >> suit & 1 == 1 {
                    let two = held & !(1 << suit);
                    push(two, two | missing, 1);
                }
            }
        }
    }
    // No set here: worth trying only if a run could hold one of its cards.
    if runnable(jokers) != 0 {
        push(0, 0, 0);
    }
    out.into_iter().take(count)
}

/// The least count of the rest once the ranks of three are decided (see the
/// module docs), given each lane's [`Facts`].
#[inline]
fn lanes_cost(
    rest: &Rest,
    facts: &[Facts; 4],
    pairs: u32,
    m: u32,
    dead: i32,
    tables: &LaneTables,
) -> i32 {
    let [(l0, o0, t0), (l1, o1, t1), (l2, o2, t2), (l3, o3, t3)] = *facts;
    let base = l0 + l1 + l2 + l3;
    if rest.jokers == 0 {
        return base;
    }
    // Without branches (the lanes' order is no pattern to predict): the best
    // one-joker delta, two of them in different lanes, and a two-joker one.
    let first = o0.min(o1).min(o2).min(o3);
    let first_two = (o0 + o1)
        .min(o0 + o2)
        .min(o0 + o3)
        .min(o1 + o2)
        .min(o1 + o3)
        .min(o2 + o3);
    let best_two = t0.min(t1).min(t2).min(t3);
    let [p1, p2] = rest.park;
    let park1 = dead.min(p1);
    let park2 = (2 * dead).min(dead + p1).min(p1 + p2);
    // Runs only: the jokers parked or out, or in runs (one lane, or two).
    let runs_only = if rest.jokers == 1 {
        base + park1.min(first)
    } else {
        base + park2.min(park1 + first).min(best_two).min(first_two)
    };
    if m == 3 {
        // No set of fewer than three naturals holds a joker.
        return runs_only;
    }
    // `pairs`: the undecided ranks of two naturals, sets holding jokers.
    if pairs == 0 && (m == 2 || rest.jokers == 1) {
        return runs_only;
    }
    let lanes = lanes_of(rest.avail);
    let lefts = facts.map(|f| f.0);
    let mut best = runs_only;
    if rest.jokers == 1 {
        for_each_rank(pairs, |rank| {
            best = best.min(without_ranks(&lanes, &lefts, base, 1 << rank));
        });
        return best;
    }
    if pairs != 0 {
        let walls = lanes_of(rest.walls);
        for_each_rank(pairs, |rank| {
            let bit = 1 << rank;
            let without = without_ranks(&lanes, &lefts, base, bit);
            // Both jokers in the set (all four suits).
            best = best.min(without);
            // One joker in the set, the other parked or in a run: a run in a
            // lane the set shows stays off the set's rank.
            let mut other = park1;
            for ((&cards, &walls), fact) in lanes.iter().zip(&walls).zip(facts) {
                other = other.min(if cards & bit != 0 {
                    tables.lane_deltas(cards & !bit, walls | bit).0
                } else {
                    fact.1
                });
            }
            best = best.min(without + other);
            // And a second set of one joker.
            for_each_rank(pairs & !((2 << rank) - 1), |second| {
                best = best.min(without_ranks(&lanes, &lefts, base, bit | 1 << second));
            });
        });
    }
    if m == 1 {
        // One natural and both jokers, at an undecided rank: a set of three.
        for (&cards, &lane_left) in lanes.iter().zip(&lefts) {
            let mut pending = cards & !rest.decided;
            while pending != 0 {
                let card = pending & pending.wrapping_neg();
                pending &= pending - 1;
                best = best.min(base - lane_left + left_i(cards & !card));
            }
        }
    }
    best
}

/// The ranks (a 13-bit mask) of exactly two naturals of `avail`.
#[inline]
fn two_natural_ranks(avail: u64) -> u32 {
    let [s, h, d, c] = lanes_of(avail);
    let two_or_more = (s & (h | d | c)) | (h & (d | c)) | (d & c);
    let three_or_more = (s & h & (d | c)) | ((s | h) & d & c);
    two_or_more & !three_or_more
}

/// Calls `visit` with each rank bit of `ranks`, lowest first.
#[inline]
fn for_each_rank(mut ranks: u32, mut visit: impl FnMut(u32)) {
    while ranks != 0 {
        visit(ranks.trailing_zeros());
        ranks &= ranks - 1;
    }
}

/// The joker-free count of the lanes without their cards of the ranks `ranks`
/// (a rank mask).
#[inline]
fn without_ranks(lanes: &[u32; 4], lefts: &[i32; 4], base: i32, ranks: u32) -> i32 {
    lanes
        .iter()
        .zip(lefts)
        .filter(|&(&lane, _)| lane & ranks != 0)
        .fold(base, |count, (&lane, &l)| count - l + left_i(lane & !ranks))
}

#[cfg(test)]
mod tests;
