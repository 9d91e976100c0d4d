//! Optimal deadwood: the least count over every arrangement of disjoint melds.
//!
//! # Algorithm
//!
//! Split any arrangement into its sets and its runs. Once the sets are fixed, the
//! remaining cards can only form runs, and for runs alone the optimum is forced: a
//! maximal block of consecutive cards of one suit is melded whole when it has 3 or
//! more cards (one long run, which is a legal meld) and cannot be melded at all when
//! it has fewer. With the [`CardSet`] layout that is two shifts and two ors:
//!
//! ```text
//! starts = m & m >> 1 & m >> 2        // cards that begin three in a row
//! runs   = starts | starts << 1 | starts << 2
//! ```
//!
//! So the only search is over the sets. A rank can hold a set only if it has 3 or
//! 4 cards, and its options are: no set, the 3-card set, or for 4 cards the whole
//! set or any of its four 3-card subsets (the fourth card then free for a run).
//! Options that cannot help are pruned: a rank whose cards cannot join any run in
//! the hand always takes its whole set, and only a card that can join a run is
//! worth leaving out. The minimum over the remaining choices is exact because every
//! arrangement corresponds to one choice of sets, and for that choice the runs
//! above are optimal.
//!
//! # Speed
//!
//! The search is three fixed loops over the short option lists of the ranks
//! with a choice (a flat odometer beyond three such ranks, which takes twelve
//! cards or more; no recursion either way), and a choice is scored with four
//! lookups in an 8 KiB table giving each suit's deadwood once its runs meld.
//! Random hands usually have no rank of three: one lookup per suit and done. The search stops as soon as a choice
//! reaches the floor every choice pays (the free cards no run can use), which
//! the whole sets, listed first, often do. `BENCHMARKS.md` has the figures.
//!
//! # Bounds
//!
//! Ten cards hold at most three ranks of 3+ cards, each with at most 6 options
//! (a 4-card rank: whole set, four 3-card sets, none) and in practice far fewer
//! after pruning: no ten-card hand has more than 20 choices, and the slowest one
//! an exhaustive search over dense hands found tries 16 (`BENCHMARKS.md`).
//! The solver works for any set of cards; over a whole deck the odometer has
//! up to 6^13 positions, which is why request handlers only pass it hands of
//! 10 or 11 cards.
//!
//! # Eleven cards
//!
//! [`analyze_drawn_hand`] finds every best discard of an eleven-card hand
//! with one search over its set choices, not one per discard: the argument
//! is in [`eleven`]'s docs (`natural/eleven.rs`).

use crate::card::{CardSet, LANE, Rank, Suit};
use crate::deadwood::{Arrangement, Discard, DrawnHandAnalysis};
use crate::hand::Jokers;
use crate::meld::{Meld, MeldKind};

mod eleven;
pub(crate) use eleven::{analyze_drawn_hand, least_discards, least_discards_among};

/// Cards in some maximal block of three or more consecutive cards of one suit.
#[inline]
pub(crate) fn run_cards(bits: u64) -> u64 {
    let starts = bits & (bits >> 1) & (bits >> 2);
    starts | (starts << 1) | (starts << 2)
}

const RANK_STRIDE: u64 = 0x0001_0001_0001_0001;

/// The value of a card whose rank is at `bit` of its lane (0 for the ace).
const fn rank_value(bit: u32) -> u32 {
    if bit >= 9 { 10 } else { bit + 1 }
}

/// The value of the cards of a 13-bit lane outside blocks of three or more:
/// its deadwood once its runs meld. For the tables below, at compile time.
const fn lane_left_value(lane: u32) -> u32 {
    let starts = lane & (lane >> 1) & (lane >> 2);
    let left = lane & !(starts | (starts << 1) | (starts << 2));
    let mut value = 0u32;
    let mut bit = 0;
    while bit < 13 {
        if left >> bit & 1 == 1 {
            value += rank_value(bit);
        }
        bit += 1;
    }
    value
}

/// The least deadwood a 13-bit lane can have with one of its cards dropped,
/// and the cards whose drop reaches it (`u32::MAX` and none for the empty
/// lane). For the tables below, at compile time.
const fn lane_best_drop(lane: u32) -> (u32, u32) {
    let mut least = u32::MAX;
    let mut cards = 0u32;
    let mut bit = 0;
    while bit < 13 {
        if lane >> bit & 1 == 1 {
            let after = lane_left_value(lane & !(1 << bit));
            if after < least {
                least = after;
                cards = 0;
            }
            if after == least {
                cards |= 1 << bit;
            }
        }
        bit += 1;
    }
    (least, cards)
}

/// A table with an entry for every 13-bit lane, `entry` of the lane (a `u32`)
/// narrowed to `$ty`, built at compile time. The index is in range by the
/// loop condition (`lane < 8192`); a const block cannot call `get_mut`.
macro_rules! lane_table {
    ($ty:ty, |$lane:ident| $entry:expr) => {{
        let mut table: [$ty; 8192] = [0; 8192];
        let mut $lane = 0u32;
        while $lane < 8192 {
            #[allow(clippy::indexing_slicing)]
            let slot = &mut table[$lane as usize];
            *slot = $entry as $ty;
            $lane += 1;
        }
        table
    }};
}

/// For every 13-bit lane (one suit's cards): the value of its cards outside
/// blocks of three or more, i.e. its deadwood once runs meld. 8 KiB,
/// built at compile time; four lookups replace four software popcounts (the
/// default x86-64 target has no `popcnt` instruction).
// At most 1 + 2 + ... + 9 + 4 * 10 = 85: fits a byte.
static LANE_DEADWOOD: [u8; 8192] = lane_table!(u8, |lane| lane_left_value(lane));

/// What the 11-card search reads per lane, one lookup: the lane's deadwood
/// once its runs meld (low byte, as [`LANE_DEADWOOD`]) and, in the high byte,
/// [`GAIN_BIAS`] plus the most that dropping one of its cards lowers that
/// deadwood, or 0 for the empty lane. The gain is at most 10 (a drop melds
/// nothing new, so it lowers the deadwood by at most the card's value) and at
/// least -20 (a lane whose cards all meld has a block of three, or an end of a
/// longer block to drop for nothing), so the biased gain of a non-empty lane
/// is within 108..=138. 16 KiB.
static LANE_DISCARD: [u16; 8192] = lane_table!(u16, |lane| {
    let before = lane_left_value(lane);
    let biased_gain = if lane == 0 {
        0
    } else {
        before + GAIN_BIAS - lane_best_drop(lane).0
    };
    before | biased_gain << 8
});

/// The bias of the gains in [`LANE_DISCARD`]: keeps them positive, and a
/// drop from the empty lane (gain 0 after the bias) worse than any real one.
const GAIN_BIAS: u32 = 128;

/// For every 13-bit lane: the cards whose drop lowers its deadwood the most
/// (see [`LANE_DISCARD`]). 16 KiB, read only for the choices that reach the
/// best count so far.
static LANE_BEST_DROPS: [u16; 8192] = lane_table!(u16, |lane| lane_best_drop(lane).1);

/// The deadwood of the lowest 13-bit lane of `cards` once its runs meld. The
/// mask keeps the index below 8192, the table's length, so the fallback is
/// never taken and the compiler drops the bounds check. (Also read by the
/// wild-card solver's lane tables, `wild::lanes`.)
#[inline]
pub(crate) fn lane_deadwood(cards: u64) -> u32 {
    LANE_DEADWOOD
        .get((cards & LANE) as usize)
        .map_or(0, |&value| u32::from(value))
}

/// The deadwood count of `free` cards (cards in no set) once their runs meld.
#[inline]
fn deadwood_of_free(free: u64) -> u32 {
    lane_deadwood(free)
        + lane_deadwood(free >> 16)
        + lane_deadwood(free >> 32)
        + lane_deadwood(free >> 48)
}

/// Ranks (as 13-bit masks) holding at least three cards.
#[inline]
fn ranks_with_three_or_more(hand: CardSet) -> u16 {
    let [s, h, d, c] = Suit::ALL.map(|suit| hand.lane(suit));
    (s & h & (d | c)) | ((s | h) & d & c)
}

/// The set choices of a hand (see the module docs), as a flat odometer: each
/// rank with a real choice has a short list of "cards kept out of its set"
/// (none: the whole set; one card a run could use; all of them: no set).
struct SetChoices {
    /// The cards of every rank with no choice to make: ranks of one or two
    /// cards, and ranks of three or more whose cards no run can use (those meld
    /// their whole set, so their cards are not here).
    free: u64,
    /// The options of each choosing rank, the first `ranks` entries used.
    options: [RankOptions; 13],
    ranks: usize,
}

/// The options of one rank of three or more: the cards each keeps out of the
/// set. There are at most six (the whole set, each of a 4-card set's four cards
/// kept out alone, no set), so the list never overflows.
#[derive(Debug, Clone, Copy)]
struct RankOptions {
    kept_out: [u64; 6],
    /// The index of the last option: every list has the whole set, at 0. (All
    /// zeros is then the single whole-set option, which the compiler can fill
    /// without copying.)
    last: usize,
}

impl RankOptions {
    /// A single option keeping nothing out: what a rank with no choice has.
    const WHOLE_SET: RankOptions = RankOptions {
        kept_out: [0; 6],
        last: 0,
    };

    #[inline]
    fn push(&mut self, kept_out: u64) {
        // Never full (see the type's docs), so nothing is dropped.
        if let Some(slot) = self.kept_out.get_mut(self.last + 1) {
            *slot = kept_out;
            self.last += 1;
        }
    }

    /// The cards each option keeps out, in the order listed.
    #[inline]
    fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.kept_out.iter().copied().take(self.last + 1)
    }

    /// The cards option `index` keeps out (nothing past the end of the list).
    #[inline]
    fn get(&self, index: usize) -> u64 {
        self.kept_out.get(index).copied().unwrap_or(0)
    }
}

/// The options of one rank of three or more whose cards a run could use
/// (`flexible`), written to `list`: the cards each option keeps out of the set.
#[inline]
fn rank_options(rank_cards: u64, flexible: u64, list: &mut RankOptions) {
    // The whole set first.
    list.kept_out[0] = 0;
    list.last = 0;
    // Bit tricks rather than `count_ones`: the default x86-64 target has no
    // `popcnt` instruction, and this runs for every rank of three or more.
    let four = rank_cards == RANK_STRIDE << (rank_cards.trailing_zeros() % 16);
    if four {
        let mut cards = flexible;
        while cards != 0 {
            list.push(cards & cards.wrapping_neg());
            cards &= cards - 1;
        }
    }
    // No set at all only helps if it frees more run cards than leaving one card
    // out already does.
    let two_or_more_flexible = flexible & (flexible - 1) != 0;
    if !four || two_or_more_flexible {
        list.push(rank_cards);
    }
}

impl SetChoices {
    fn of(hand: u64) -> SetChoices {
        let mut choices = SetChoices {
            free: hand,
            options: [RankOptions::WHOLE_SET; 13],
            ranks: 0,
        };
        let mut pending = ranks_with_three_or_more(CardSet::from_bits(hand));
        let runnable = run_cards(hand);
        while pending != 0 {
            let rank_cards = hand & (RANK_STRIDE << pending.trailing_zeros());
            pending &= pending - 1;
            choices.free &= !rank_cards;
            let flexible = rank_cards & runnable;
            if flexible == 0 {
                continue;
            }
            // A hand has 13 ranks, so there is always a free entry.
            if let Some(options) = choices.options.get_mut(choices.ranks) {
                rank_options(rank_cards, flexible, options);
                choices.ranks += 1;
            }
        }
        choices
    }

    /// Calls `visit` with the cards each choice leaves out of sets (free for
    /// runs, or deadwood), the lowest rank's option most significant, in the
    /// order listed.
    fn for_each(&self, mut visit: impl FnMut(u64)) {
        // Eleven cards or fewer: at most three choosing ranks, scanned by three
        // fixed loops (the entries past `ranks` have the single option 0).
        if self.ranks <= 3 {
            let [first, second, third, ..] = &self.options;
            for a in first.iter() {
                for b in second.iter() {
                    let kept = self.free | a | b;
                    for c in third.iter() {
                        visit(kept | c);
                    }
                }
            }
            return;
        }
        // The entries past `ranks` keep nothing out, so the fallback (never
        // taken) would visit the same choices.
        let choosing = self.options.get(..self.ranks).unwrap_or(&self.options);
        // The odometer: the option picked for each choosing rank.
        let mut pick = [0usize; 13];
        loop {
            let kept = choosing
                .iter()
                .zip(&pick)
                .fold(0, |acc, (options, &p)| acc | options.get(p));
            visit(self.free | kept);
            // Advance the odometer, the highest rank turning fastest; done when
            // every wheel wraps around.
            let mut wheels = choosing.iter().zip(pick.iter_mut()).rev();
            loop {
                let Some((options, p)) = wheels.next() else {
                    return;
                };
                *p += 1;
                if *p <= options.last {
                    break;
                }
                *p = 0;
            }
        }
    }
}

/// Calls `visit` with the cards left out of sets by every set choice worth trying.
fn for_each_set_choice(hand: u64, visit: impl FnMut(u64)) {
    SetChoices::of(hand).for_each(visit);
}

/// The minimum deadwood count of a hand (any number of cards).
#[inline]
pub(crate) fn min_deadwood(hand: CardSet) -> u32 {
    // The hot path, kept small enough to inline: most hands have no rank of
    // three, hence no choice to make.
    match ranks_with_three_or_more(hand) {
        0 => deadwood_of_free(hand.bits()),
        pending => min_deadwood_with_sets(hand.bits(), pending),
    }
}

/// Fills `lists` with the set options of a hand's ranks of three or more
/// (`pending`) that some run could use, one list per such rank, and answers
/// the cards no set of `pending` holds; `None` for a fourth such rank
/// (twelve cards or more), which takes the general odometer.
///
/// Eleven cards or fewer hold at most three ranks of three: their options
/// live in three small lists, scanned by three fixed loops the compiler
/// unrolls (an unused level has the single option 0).
#[inline(always)]
fn rank_option_lists(
    hand: u64,
    mut pending: u16,
    runnable: u64,
    lists: &mut [RankOptions; 3],
) -> Option<u64> {
    let mut free = hand;
    let mut ranks = 0;
    while pending != 0 {
        let rank_cards = hand & (RANK_STRIDE << pending.trailing_zeros());
        pending &= pending - 1;
        free &= !rank_cards;
        let flexible = rank_cards & runnable;
        if flexible == 0 {
            continue;
        }
        rank_options(rank_cards, flexible, lists.get_mut(ranks)?);
        ranks += 1;
    }
    Some(free)
}

/// [`min_deadwood`] for a hand with ranks of three or more (`pending`).
fn min_deadwood_with_sets(hand: u64, pending: u16) -> u32 {
    let runnable = run_cards(hand);
    let mut lists = [RankOptions::WHOLE_SET; 3];
    let Some(free) = rank_option_lists(hand, pending, runnable, &mut lists) else {
        // A fourth choosing rank: twelve cards or more.
        let mut best = u32::MAX;
        SetChoices::of(hand).for_each(|free| best = best.min(deadwood_of_free(free)));
        return best;
    };
    // Free cards no run can use are deadwood whatever the choice: once a
    // choice reaches that floor no other can beat it, so stop there. The
    // whole sets come first in each list, and they are usually best.
    let floor = deadwood_of_free(free & !runnable);
    let [first, second, third] = &lists;
    let mut best = u32::MAX;
    for a in first.iter() {
        for b in second.iter() {
            let free = free | a | b;
            for c in third.iter() {
                best = best.min(deadwood_of_free(free | c));
                if best == floor {
                    return best;
                }
            }
        }
    }
    best
}

/// Builds the arrangement for a set choice, given by the cards it leaves out of
/// sets: each set, each maximal run block as one run, the rest deadwood.
fn arrangement_for(hand: u64, free: u64) -> Arrangement {
    let sets = hand & !free;
    let rest = hand & free;
    let runs = run_cards(rest);
    // The lowest card of each run block.
    let starts = runs & !(runs << 1);
    // The melds are listed in their order (lowest rank first, sets before
    // runs, then by cards, which for runs of one low rank is suit order): rank
    // by rank, the set then the runs starting there, suit by suit.
    let mut ranks = lanes_or(sets | starts);
    // Ten or eleven cards hold at most three melds (more grow the vector).
    let mut melds = if ranks == 0 {
        Vec::new()
    } else {
        Vec::with_capacity(3)
    };
    while ranks != 0 {
        let rank = RANK_STRIDE << ranks.trailing_zeros();
        ranks &= ranks - 1;
        let set = sets & rank;
        if set != 0 {
            melds.push(Meld::new_unchecked(MeldKind::Set, CardSet::from_bits(set)));
        }
        let mut run_starts = starts & rank;
        while run_starts != 0 {
            let low = run_starts & run_starts.wrapping_neg();
            run_starts &= run_starts - 1;
            // The carry of `runs + low` runs through the block starting at
            // `low` and no further (blocks are maximal, and a lane's top bit
            // has a gap above it).
            let block = runs & !(runs + low);
            melds.push(Meld::new_unchecked(
                MeldKind::Run,
                CardSet::from_bits(block),
            ));
        }
    }
    Arrangement {
        melds,
        deadwood_cards: CardSet::from_bits(rest & !runs),
        deadwood_jokers: Jokers::NONE,
        deadwood: deadwood_of_free(rest),
    }
}

/// The ranks of `cards` as a 13-bit mask.
#[inline]
fn lanes_or(cards: u64) -> u64 {
    (cards | cards >> 16 | cards >> 32 | cards >> 48) & LANE
}

/// One arrangement reaching the minimum deadwood: the first in the order of
/// [`optimal_arrangements`].
pub(crate) fn best_arrangement(hand: CardSet) -> Arrangement {
    best_arrangement_of(hand.bits())
}

/// [`best_arrangement`] of a mask.
fn best_arrangement_of(bits: u64) -> Arrangement {
    best_arrangement_reaching(bits, None)
}

/// [`best_arrangement`] of a mask, given its least deadwood when it is
/// `known`: the search stops at the first choice reaching it. (The caller
/// that knows it, [`analyze_drawn_hand`], saves most of the search.)
fn best_arrangement_reaching(bits: u64, known: Option<u32>) -> Arrangement {
    let free = match ranks_with_three_or_more(CardSet::from_bits(bits)) {
        0 => bits,
        pending => first_best_set_choice(bits, pending, known),
    };
    arrangement_for(bits, free)
}

/// The cards left out of sets by the first set choice (in the order of
/// [`for_each_set_choice`]) reaching the least deadwood, for a hand with
/// ranks of three or more (`pending`). The search of
/// [`min_deadwood_with_sets`], remembering the choice: the first to reach the
/// floor, or the least deadwood when it is `known`, is the first best.
fn first_best_set_choice(hand: u64, pending: u16, known: Option<u32>) -> u64 {
    let runnable = run_cards(hand);
    let in_sets = hand & (u64::from(pending) * RANK_STRIDE);
    // The first choice: every set whole. The only one when no run can use a
    // card of these ranks; the first best when it reaches a known lower bound.
    let whole = hand & !in_sets;
    if in_sets & runnable == 0 || known == Some(deadwood_of_free(whole)) {
        return whole;
    }
    let mut lists = [RankOptions::WHOLE_SET; 3];
    let Some(free) = rank_option_lists(hand, pending, runnable, &mut lists) else {
        // A fourth choosing rank: twelve cards or more.
        let mut best = (u32::MAX, hand);
        for_each_set_choice(hand, |free| {
            let count = deadwood_of_free(free);
            if count < best.0 {
                best = (count, free);
            }
        });
        return best.1;
    };
    let floor = match known {
        Some(least) => least,
        None => deadwood_of_free(free & !runnable),
    };
    let [first, second, third] = &lists;
    let mut best = (u32::MAX, hand);
    for a in first.iter() {
        for b in second.iter() {
            let kept = free | a | b;
            for c in third.iter() {
                let choice = kept | c;
                let count = deadwood_of_free(choice);
                if count < best.0 {
                    if count == floor {
                        return choice;
                    }
                    best = (count, choice);
                }
            }
        }
    }
    best.1
}

/// Every arrangement reaching the minimum deadwood, in a fixed order: the order
/// of the set choices (ranks ascending; whole set, then sets leaving out one card,
/// then no set). A block of consecutive cards is always reported as one run, not
/// as the shorter runs it could be cut into, since the cut changes neither the
/// count nor what can be laid off.
///
/// Bound: a [`Hand`] of at most eleven cards has at most three ranks of three
/// or more, each with at most six options, so at most 216 set choices and as
/// many arrangements.
pub(crate) fn optimal_arrangements(hand: CardSet) -> Vec<Arrangement> {
    let bits = hand.bits();
    let mut best = u32::MAX;
    let mut choices = Vec::new();
    for_each_set_choice(bits, |free| {
        let count = deadwood_of_free(free);
        if count < best {
            best = count;
            choices.clear();
        }
        if count == best {
            choices.push(free);
        }
    });
    choices
        .into_iter()
        .map(|free| arrangement_for(bits, free))
        .collect()
}

/// Every legal meld contained in `hand`: every run of 3+ consecutive cards (not
/// only maximal ones) and every 3- and 4-card set. Used where a choice among melds
/// matters beyond the count, such as the knocker's arrangement against layoffs.
pub(crate) fn melds_within(hand: CardSet) -> Vec<Meld> {
    let bits = hand.bits();
    let mut melds = Vec::new();
    for rank_number in 1..=13u8 {
        let Some(rank) = Rank::new(rank_number) else {
            continue;
        };
        let of_rank = hand.of_rank(rank);
        if of_rank.len() >= 3 {
            melds.push(Meld::new_unchecked(MeldKind::Set, of_rank));
        }
        if of_rank.len() == 4 {
            for left_out in of_rank {
                let mut three = of_rank;
                three.remove(left_out);
                melds.push(Meld::new_unchecked(MeldKind::Set, three));
            }
        }
    }
    for suit in Suit::ALL {
        let lane = hand.lane(suit);
        for low in 0..13u32 {
            let mut high = low;
            while high < 13 && lane & (1 << high) != 0 {
                if high >= low + 2 {
                    let span = ((1u64 << (high - low + 1)) - 1) << (low + suit as u32 * 16);
                    melds.push(Meld::new_unchecked(
                        MeldKind::Run,
                        CardSet::from_bits(span & bits),
                    ));
                }
                high += 1;
            }
        }
    }
    melds.sort();
    melds
}

#[cfg(test)]
mod tests;
