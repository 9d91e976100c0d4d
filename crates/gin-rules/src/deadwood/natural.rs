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
//! [`analyze_drawn_hand`] does not solve the eleven ten-card hands left by
//! each discard. One search over the set choices of the eleven cards scores,
//! for each choice, the best discard of a free card with one more table lookup
//! per suit (how much a drop from that suit's cards lowers its deadwood, and
//! which cards do it), and the discards that break a set as fixed extras of
//! the options that stand for them ([`best_discards`] has the argument). Only
//! the discards reaching the least count get an arrangement, found by a search
//! that stops at the first choice reaching that count. Hands whose ranks of
//! three no run can use (most random hands) have one arrangement: their best
//! discards outside melds share its melds, and where nothing melds the
//! discards are filled in a loop without branches. The property tests compare
//! the result with the per-discard definition (`tests/properties/drawn.rs`).

use crate::card::{CardSet, LANE, Rank, Suit};
use crate::deadwood::{Arrangement, Discard, DrawnHandAnalysis};
use crate::hand::Jokers;
use crate::meld::{Meld, MeldKind};

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

/// For every 13-bit lane (one suit's cards): the value of its cards outside
/// blocks of three or more, i.e. its deadwood once runs meld. 8 KiB,
/// built at compile time; four lookups replace four software popcounts (the
/// default x86-64 target has no `popcnt` instruction).
static LANE_DEADWOOD: [u8; 8192] = {
    let mut table = [0u8; 8192];
    let mut lane = 0u32;
    while lane < 8192 {
        // At most 1 + 2 + ... + 9 + 4 * 10 = 85: fits a byte. Evaluated at
        // compile time, with `lane < 8192` by the loop condition; a const block
        // cannot call `get_mut`.
        #[allow(clippy::indexing_slicing)]
        let entry = &mut table[lane as usize];
        *entry = lane_left_value(lane) as u8;
        lane += 1;
    }
    table
};

/// What the 11-card search reads per lane, one lookup: the lane's deadwood
/// once its runs meld (low byte, as [`LANE_DEADWOOD`]) and, in the high byte,
/// [`GAIN_BIAS`] plus the most that dropping one of its cards lowers that
/// deadwood, or 0 for the empty lane. The gain is at most 10 (a drop melds
/// nothing new, so it lowers the deadwood by at most the card's value) and at
/// least -20 (a lane whose cards all meld has a block of three, or an end of a
/// longer block to drop for nothing), so the biased gain of a non-empty lane
/// is within 108..=138. 16 KiB.
static LANE_DISCARD: [u16; 8192] = {
    let mut table = [0u16; 8192];
    let mut lane = 0u32;
    while lane < 8192 {
        let before = lane_left_value(lane);
        let biased_gain = if lane == 0 {
            0
        } else {
            before + GAIN_BIAS - lane_best_drop(lane).0
        };
        // As in `LANE_DEADWOOD`: in range by the loop condition.
        #[allow(clippy::indexing_slicing)]
        let entry = &mut table[lane as usize];
        *entry = (before | biased_gain << 8) as u16;
        lane += 1;
    }
    table
};

/// The bias of the gains in [`LANE_DISCARD`]: keeps them positive, and a
/// drop from the empty lane (gain 0 after the bias) worse than any real one.
const GAIN_BIAS: u32 = 128;

/// For every 13-bit lane: the cards whose drop lowers its deadwood the most
/// (see [`LANE_DISCARD`]). 16 KiB, read only for the choices that reach the
/// best count so far.
static LANE_BEST_DROPS: [u16; 8192] = {
    let mut table = [0u16; 8192];
    let mut lane = 0u32;
    while lane < 8192 {
        // As in `LANE_DEADWOOD`: in range by the loop condition.
        #[allow(clippy::indexing_slicing)]
        let entry = &mut table[lane as usize];
        *entry = lane_best_drop(lane).1 as u16;
        lane += 1;
    }
    table
};

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

/// [`min_deadwood`] for a hand with ranks of three or more (`pending`).
fn min_deadwood_with_sets(hand: u64, mut pending: u16) -> u32 {
    let runnable = run_cards(hand);
    let mut free = hand;
    // Eleven cards or fewer hold at most three ranks of three: their options
    // live in three small lists, scanned by three fixed loops the compiler
    // unrolls (an unused level has the single option 0). Larger hands take the
    // general odometer.
    let mut lists = [RankOptions::WHOLE_SET; 3];
    let mut ranks = 0;
    while pending != 0 {
        let rank_cards = hand & (RANK_STRIDE << pending.trailing_zeros());
        pending &= pending - 1;
        free &= !rank_cards;
        let flexible = rank_cards & runnable;
        if flexible == 0 {
            continue;
        }
        let Some(list) = lists.get_mut(ranks) else {
            // A fourth choosing rank: twelve cards or more.
            let mut best = u32::MAX;
            SetChoices::of(hand).for_each(|free| best = best.min(deadwood_of_free(free)));
            return best;
        };
        rank_options(rank_cards, flexible, list);
        ranks += 1;
    }
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
fn first_best_set_choice(hand: u64, mut pending: u16, known: Option<u32>) -> u64 {
    let runnable = run_cards(hand);
    let in_sets = hand & (u64::from(pending) * RANK_STRIDE);
    // The first choice: every set whole. The only one when no run can use a
    // card of these ranks; the first best when it reaches a known lower bound.
    let whole = hand & !in_sets;
    if in_sets & runnable == 0 || known == Some(deadwood_of_free(whole)) {
        return whole;
    }
    let mut free = hand;
    let mut lists = [RankOptions::WHOLE_SET; 3];
    let mut ranks = 0;
    while pending != 0 {
        let rank_cards = hand & (RANK_STRIDE << pending.trailing_zeros());
        pending &= pending - 1;
        free &= !rank_cards;
        let flexible = rank_cards & runnable;
        if flexible == 0 {
            continue;
        }
        let Some(list) = lists.get_mut(ranks) else {
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
        rank_options(rank_cards, flexible, list);
        ranks += 1;
    }
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

/// Analyses an 11-card hand: every discard that reaches the least deadwood, and
/// whether all eleven cards meld (big gin).
///
/// The result is, by definition, [`min_deadwood`] of each ten-card hand left
/// by a discard, the discards reaching the least in canonical order, each with
/// the [`best_arrangement`] of the cards kept. For eleven cards or fewer it is
/// found by one search over the hand's set choices (the module docs, "Eleven
/// cards"), and arrangements are built only for the best discards; larger
/// hands, and the empty one, take the definition.
pub(crate) fn analyze_drawn_hand(hand: CardSet) -> DrawnHandAnalysis {
    let bits = hand.bits();
    let len = hand.len();
    if !(1..=11).contains(&len) {
        return analyze_by_discard(hand);
    }
    let pending = ranks_with_three_or_more(hand);
    let in_sets = bits & (u64::from(pending) * RANK_STRIDE);
    if in_sets & run_cards(bits) == 0 {
        // No run can use a card of a rank of three (or there is none).
        return analyze_whole_sets(bits, len, in_sets, pending);
    }
    let Some(found) = best_discards(bits, pending) else {
        return analyze_by_discard(hand);
    };
    let best = CardSet::from_bits(found.cards);
    let mut discards = Vec::with_capacity(best.len());
    for card in best {
        discards.push(Discard {
            card: card.into(),
            // Its least deadwood is known: the search stops at the first
            // choice reaching it.
            arrangement: best_arrangement_reaching(
                bits & !(1 << card.bit_index()),
                Some(found.deadwood),
            ),
        });
    }
    DrawnHandAnalysis {
        deadwood: found.deadwood,
        discards,
        big_gin: len == 11 && found.undiscarded == 0,
    }
}

/// [`analyze_drawn_hand`] of a hand of at most eleven cards whose ranks of
/// three or more (`pending`, their cards `in_sets`; most random hands have
/// none) have no card a run can use: they meld whole in every choice, the
/// other cards are free, and there is one arrangement of the hand. A best
/// discard neither in a set nor in a run leaves that arrangement's melds as
/// they are (its runs are those of the whole hand: no set card is in one),
/// so those discards share one list of melds (built once, copied), their
/// deadwood being the best count.
fn analyze_whole_sets(bits: u64, len: usize, in_sets: u64, pending: u16) -> DrawnHandAnalysis {
    let found = whole_sets_discards(bits, in_sets, pending);
    let free = bits & !in_sets;
    let stray = free & !run_cards(free);
    let best = CardSet::from_bits(found.cards);
    let mut discards = Vec::with_capacity(best.len());
    if stray == bits {
        // Nothing melds (most random hands): a loop without branches.
        for card in best {
            discards.push(Discard {
                card: card.into(),
                arrangement: Arrangement {
                    melds: Vec::new(),
                    deadwood_cards: CardSet::from_bits(bits & !(1 << card.bit_index())),
                    deadwood_jokers: Jokers::NONE,
                    deadwood: found.deadwood,
                },
            });
        }
        return DrawnHandAnalysis {
            deadwood: found.deadwood,
            discards,
            big_gin: false,
        };
    }
    // The discards neither in sets nor in runs still to come, and their
    // shared melds.
    let mut sharing = found.cards & stray;
    let mut shared = if sharing == 0 {
        Vec::new()
    } else {
        arrangement_for(bits, free).melds
    };
    for card in best {
        let discard = 1 << card.bit_index();
        let kept = bits & !discard;
        let arrangement = if discard & stray != 0 {
            sharing &= !discard;
            Arrangement {
                // The last one takes the list itself.
                melds: if sharing == 0 {
                    std::mem::take(&mut shared)
                } else {
                    shared.clone()
                },
                deadwood_cards: CardSet::from_bits(stray & !discard),
                deadwood_jokers: Jokers::NONE,
                deadwood: found.deadwood,
            }
        } else if in_sets == 0 {
            arrangement_for(kept, kept)
        } else {
            best_arrangement_reaching(kept, Some(found.deadwood))
        };
        discards.push(Discard {
            card: card.into(),
            arrangement,
        });
    }
    DrawnHandAnalysis {
        deadwood: found.deadwood,
        discards,
        big_gin: len == 11 && found.undiscarded == 0,
    }
}

/// [`analyze_drawn_hand`] by its definition: one [`min_deadwood`] per discard.
fn analyze_by_discard(hand: CardSet) -> DrawnHandAnalysis {
    let bits = hand.bits();
    let mut best = u32::MAX;
    let mut cards = Vec::new();
    for card in hand {
        let kept = CardSet::from_bits(bits & !(1 << card.bit_index()));
        let count = min_deadwood(kept);
        if count < best {
            best = count;
            cards.clear();
        }
        if count == best {
            cards.push(card);
        }
    }
    let discards = cards
        .into_iter()
        .map(|card| Discard {
            card: card.into(),
            arrangement: best_arrangement_of(bits & !(1 << card.bit_index())),
        })
        .collect();
    DrawnHandAnalysis {
        deadwood: best,
        discards,
        big_gin: hand.len() == 11 && min_deadwood(hand) == 0,
    }
}

/// The outcome of [`best_discards`].
struct BestDiscards {
    /// The least deadwood of the hand less one card.
    deadwood: u32,
    /// Every card whose discard reaches it.
    cards: u64,
    /// The least deadwood of the whole hand, or more: exact when it is 0,
    /// which is all big gin asks (the search skips choices that cannot matter
    /// to the discards, never one of count 0).
    undiscarded: u32,
}

/// No extra discard (see [`DiscardOption`]): more than any count.
const NO_EXTRA: u32 = 0x200;

/// One option of a choosing rank in [`best_discards`]: the cards it keeps out
/// of the set, and a discard of one of the rank's own cards the option stands
/// for (one the pruned option lists do not reach otherwise): one of
/// `extra_cards` can go, leaving the choice's deadwood plus `extra_cost`
/// (none when there are no such cards: all zeros is the whole set without
/// one, so that the lists start zeroed rather than copied).
#[derive(Debug, Clone, Copy)]
struct DiscardOption {
    kept_out: u64,
    extra_cost: u32,
    extra_cards: u64,
}

impl DiscardOption {
    const WHOLE_SET: DiscardOption = DiscardOption {
        kept_out: 0,
        extra_cost: 0,
        extra_cards: 0,
    };

    /// The cost of the extra discard, [`NO_EXTRA`] without one.
    #[inline]
    fn extra_cost(&self) -> u32 {
        if self.extra_cards == 0 {
            NO_EXTRA
        } else {
            self.extra_cost
        }
    }
}

/// The options of one choosing rank, as [`RankOptions`].
#[derive(Debug, Clone, Copy)]
struct DiscardOptions {
    options: [DiscardOption; 6],
    last: usize,
    /// The rank's cards (none for an unused list).
    cards: u64,
}

impl DiscardOptions {
    const WHOLE_SET: DiscardOptions = DiscardOptions {
        options: [DiscardOption::WHOLE_SET; 6],
        last: 0,
        cards: 0,
    };

    #[inline]
    fn push(&mut self, option: DiscardOption) {
        // Never full: at most six options, as for `RankOptions`.
        if let Some(slot) = self.options.get_mut(self.last + 1) {
            *slot = option;
            self.last += 1;
        }
    }

    /// The options listed (a slice: cheaper to walk than a `take`).
    #[inline]
    fn as_slice(&self) -> &[DiscardOption] {
        // `last` is below 6 (see `push`), so the fallback is never taken.
        self.options.get(..=self.last).unwrap_or(&self.options)
    }
}

/// Adds the extra discard `(cost, cards)` to the cheapest so far.
#[inline]
fn merge_extra(best: &mut (u32, u64), cost: u32, cards: u64) {
    if cost < best.0 {
        *best = (cost, cards);
    } else if cost == best.0 {
        best.1 |= cards;
    }
}

/// The least deadwood over every discard from `hand`, and every discard
/// reaching it, in one search over the hand's set choices, for a hand of at
/// most eleven cards with ranks of three or more (`pending`); `None` when the
/// hand has more than three ranks with a choice (twelve cards or more).
///
/// The deadwood after discarding `x` is the least, over the set choices of
/// the whole hand that leave `x` out of sets, of the deadwood of the free
/// cards less `x` (an arrangement of the hand less `x` is one of the hand
/// with `x` in no meld). Dropping a card changes only its suit's lane, so for
/// one choice the best free discard is a table lookup per lane
/// ([`LANE_DISCARD`]: the most a drop lowers the lane's deadwood, and which
/// cards do it).
///
/// The choices are those of [`min_deadwood`] for the whole hand (each rank of
/// three or more: the whole set, the 3-card sets leaving out a card a run can
/// use, no set when that can help). They include those of every ten-card hand
/// left by a discard, for each rank but the discard's own: a discard only
/// takes run cards away. For the discard's own rank the ten-card hand needs
/// the option that leaves it free; where the lists lack it, it is an extra
/// discard of an option they have, costing a fixed amount more:
///
/// - a 3-card rank no run can use: no set, so any of its cards can go and the
///   other two are deadwood: the whole set's choice plus twice the rank's value;
/// - a 4-card rank: the 3-card set leaving out the discard is the whole set's
///   choice with that card gone, at no cost;
/// - a 4-card rank with one card a run can use: no set, with a discard that
///   is not that card, leaves the other two as deadwood: the choice keeping that
///   card out plus twice the rank's value.
///
/// (A 4-card rank no run can use never does better without a set.)
///
/// The search stops early as [`min_deadwood`] does: the free cards no run can
/// use are deadwood in every choice, so no discard leaves less than their
/// count less the highest of their values; once a choice's deadwood is their
/// count, discarding any of the highest of them reaches that, and only they do.
fn best_discards(hand: u64, mut pending: u16) -> Option<BestDiscards> {
    let runnable = run_cards(hand);
    let mut free = hand;
    let mut lists = [DiscardOptions::WHOLE_SET; 3];
    let mut ranks = 0;
    // The extra discards every choice has (ranks with their whole set in every
    // choice): the cheapest cost and its cards.
    let mut always = (NO_EXTRA, 0u64);
    while pending != 0 {
        let bit = pending.trailing_zeros();
        pending &= pending - 1;
        let rank_cards = hand & (RANK_STRIDE << bit);
        free &= !rank_cards;
        let flexible = rank_cards & runnable;
        let four = rank_cards == RANK_STRIDE << bit;
        let twice = 2 * rank_value(bit);
        if flexible == 0 {
            merge_extra(&mut always, if four { 0 } else { twice }, rank_cards);
            continue;
        }
        // Each list is written once, from its initial single whole set.
        let list = lists.get_mut(ranks)?;
        ranks += 1;
        list.cards = rank_cards;
        if four {
            if let Some(whole) = list.options.first_mut() {
                whole.extra_cost = 0;
                whole.extra_cards = rank_cards;
            }
            let single = flexible & (flexible - 1) == 0;
            let mut cards = flexible;
            while cards != 0 {
                let card = cards & cards.wrapping_neg();
                cards &= cards - 1;
                list.push(if single {
                    DiscardOption {
                        kept_out: card,
                        extra_cost: twice,
                        extra_cards: rank_cards & !card,
                    }
                } else {
                    DiscardOption {
                        kept_out: card,
                        ..DiscardOption::WHOLE_SET
                    }
                });
            }
            if !single {
                list.push(DiscardOption {
                    kept_out: rank_cards,
                    ..DiscardOption::WHOLE_SET
                });
            }
        } else {
            list.push(DiscardOption {
                kept_out: rank_cards,
                ..DiscardOption::WHOLE_SET
            });
        }
    }
    // The early stop: the free cards no run can use, their count, and the
    // highest of them (no stop without them).
    let stray = free & !runnable;
    let highest = highest_cards(stray);
    let stop = if highest == 0 {
        u32::MAX
    } else {
        deadwood_of_free(stray)
    };

    // The highest value of a card in the hand: no drop gains more.
    let top_value = lanes_or(hand).checked_ilog2().map_or(0, rank_value);
    let always = DiscardOption {
        kept_out: 0,
        extra_cost: always.0,
        extra_cards: always.1,
    };

    // The longest list innermost, where the bound below skips most (the
    // order of the lists does not matter: every choice is scored alike).
    let [first, second, third] = {
        let [a, b, c] = &lists;
        let mut order = [a, b, c];
        order.sort_unstable_by_key(|list| list.last);
        order
    };
    let mut tally = Tally {
        best: u32::MAX,
        cards: 0,
    };
    // The least count seen: the hand's least deadwood when that is 0 (for big
    // gin; the skips below only skip choices of a higher count).
    let mut undiscarded = u32::MAX;
    for a in first.as_slice() {
        for b in second.as_slice() {
            let kept = free | a.kept_out | b.kept_out;
            // A floor for every option of the innermost rank: the cards kept
            // so far that no run can use even with all of that rank's cards
            // are deadwood whatever it keeps out. The discards cannot lower
            // the count by more than `top_value`.
            let bound = deadwood_of_free(kept & !run_cards(kept | third.cards));
            if bound.saturating_sub(top_value) > tally.best {
                continue;
            }
            for c in third.as_slice() {
                let left = kept | c.kept_out;
                let lanes = lane_discards(left);
                let count = lane_count(lanes);
                undiscarded = undiscarded.min(count);
                if count == stop {
                    return Some(BestDiscards {
                        deadwood: stop
                            - CardSet::from_bits(highest & highest.wrapping_neg()).value(),
                        cards: highest,
                        undiscarded: stop,
                    });
                }
                // No drop lowers the count by more than the highest card's
                // value, and an extra discard does not lower it: most choices
                // stop here.
                if count.saturating_sub(top_value) <= tally.best {
                    tally.add(left, lanes, count, [&always, a, b, c]);
                }
            }
        }
    }
    Some(BestDiscards {
        deadwood: tally.best,
        cards: tally.cards,
        undiscarded,
    })
}

/// The best count over the discards seen so far, and the cards reaching it.
struct Tally {
    best: u32,
    cards: u64,
}

impl Tally {
    /// Adds the discards of one set choice: its free cards `left`, their
    /// [`LANE_DISCARD`] entries and count, and the options whose extra
    /// discards it has (the ranks that always meld whole, and its three
    /// choosing ranks'). Inlined: measured faster than a call kept out of
    /// the search loop, though most choices never get here.
    #[inline]
    fn add(&mut self, left: u64, lanes: [u32; 4], count: u32, options: [&DiscardOption; 4]) {
        let gain = lane_gain(lanes);
        let by_free = count + GAIN_BIAS - gain;
        let extra = options
            .iter()
            .fold(NO_EXTRA, |least, option| least.min(option.extra_cost()));
        let by_extra = count + extra;
        let value = by_free.min(by_extra);
        if value > self.best {
            return;
        }
        if value < self.best {
            self.best = value;
            self.cards = 0;
        }
        if by_free == value {
            self.cards |= best_drops(left, lanes, gain);
        }
        if by_extra == value {
            for option in options {
                if option.extra_cost() == extra {
                    self.cards |= option.extra_cards;
                }
            }
        }
    }
}

/// The count of a choice's free cards from their [`LANE_DISCARD`] entries: the
/// sum of the low bytes, which for eleven cards or fewer is below 256 (at
/// most 110), so summing whole entries and keeping the low byte is exact.
#[inline]
fn lane_count([s, h, d, c]: [u32; 4]) -> u32 {
    (s + h + d + c) & 0xFF
}

/// The most (biased) that dropping one card lowers the count, from the
/// [`LANE_DISCARD`] entries.
#[inline]
fn lane_gain([s, h, d, c]: [u32; 4]) -> u32 {
    (s >> 8).max(h >> 8).max((d >> 8).max(c >> 8))
}

/// The [`LANE_DISCARD`] entries of the four lanes of `cards`.
#[inline]
fn lane_discards(cards: u64) -> [u32; 4] {
    [cards, cards >> 16, cards >> 32, cards >> 48].map(|lane| {
        // The mask keeps the index in range: the fallback is never taken.
        LANE_DISCARD
            .get((lane & LANE) as usize)
            .map_or(0, |&e| u32::from(e))
    })
}

/// The free cards whose drop gains the most, `gain` (biased), given the
/// [`LANE_DISCARD`] entries of their lanes.
#[inline]
fn best_drops(free: u64, lanes: [u32; 4], gain: u32) -> u64 {
    let mut cards = 0;
    for (suit, entry) in lanes.into_iter().enumerate() {
        if entry >> 8 == gain {
            let lane = (free >> (16 * suit)) & LANE;
            let drops = LANE_BEST_DROPS
                .get(lane as usize)
                .map_or(0, |&d| u64::from(d));
            cards |= drops << (16 * suit);
        }
    }
    cards
}

/// [`best_discards`] of a hand whose ranks of three or more (`pending`, their
/// cards `in_sets`; perhaps none) meld whole in every choice: no run can use
/// their cards. One choice, the free cards being the rest, and the extra
/// discards of those sets (see [`best_discards`]).
fn whole_sets_discards(hand: u64, in_sets: u64, mut pending: u16) -> BestDiscards {
    let mut extra = (NO_EXTRA, 0u64);
    while pending != 0 {
        let bit = pending.trailing_zeros();
        pending &= pending - 1;
        let rank_cards = hand & (RANK_STRIDE << bit);
        let four = rank_cards == RANK_STRIDE << bit;
        merge_extra(
            &mut extra,
            if four { 0 } else { 2 * rank_value(bit) },
            rank_cards,
        );
    }
    let free = hand & !in_sets;
    let lanes = lane_discards(free);
    let count = lane_count(lanes);
    let gain = lane_gain(lanes);
    let by_free = count + GAIN_BIAS - gain;
    let by_extra = count + extra.0;
    let mut cards = 0;
    if by_free <= by_extra {
        cards |= best_drops(free, lanes, gain);
    }
    if by_extra <= by_free {
        cards |= extra.1;
    }
    BestDiscards {
        deadwood: by_free.min(by_extra),
        cards,
        undiscarded: count,
    }
}

/// The cards of `cards` of the highest value (every ten, jack, queen and king
/// when there is one); none for no cards.
fn highest_cards(cards: u64) -> u64 {
    let ranks = (cards | cards >> 16 | cards >> 32 | cards >> 48) & LANE;
    if ranks == 0 {
        return 0;
    }
    let top = 63 - ranks.leading_zeros();
    let same_value = if top >= 9 { LANE & !0x1FF } else { 1 << top };
    cards & (same_value * RANK_STRIDE)
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
mod tests {
    use super::*;
    use crate::card::cards;

    fn hand(text: &str) -> CardSet {
        cards(text).unwrap()
    }

    fn melds_text(arrangement: &Arrangement) -> Vec<String> {
        arrangement.melds.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn a_hand_of_nothing_counts_every_card() {
        let h = hand("KS QH JD TC 9S 8H 7D 5C 3S AH");
        assert_eq!(min_deadwood(h), h.value());
        assert!(best_arrangement(h).melds.is_empty());
    }

    #[test]
    fn a_four_card_set_gives_one_card_to_a_run() {
        let best = best_arrangement(hand("7S 7H 7D 7C 8H 9H KS QD 2C 3D"));
        assert_eq!(best.deadwood, 25);
        assert_eq!(melds_text(&best), ["7S 7D 7C", "7H 8H 9H"]);
    }

    #[test]
    fn a_card_shared_by_a_set_and_a_run_goes_where_it_saves_most() {
        // 5H completes the set of fives or the run 5-6-7H: the run saves 13, the set 10.
        let best = best_arrangement(hand("5S 5D 5H 6H 7H KC KD QS JS 2C"));
        assert_eq!(best.deadwood, 5 + 5 + 10 + 10 + 10 + 10 + 2);
        assert_eq!(melds_text(&best), ["5H 6H 7H"]);
        // ... and the set wins when it saves more.
        let best = best_arrangement(hand("5S 5D 5H 3H 4H KC KD QS JS 2C"));
        assert_eq!(melds_text(&best), ["5S 5H 5D"]);
    }

    #[test]
    fn ace_low_runs_meld_and_queen_king_ace_does_not() {
        assert_eq!(min_deadwood(hand("AS 2S 3S")), 0);
        assert_eq!(min_deadwood(hand("QS KS AS")), 21);
        assert_eq!(min_deadwood(hand("KS AS 2S")), 13);
    }

    #[test]
    fn gin_hands_have_no_deadwood() {
        let gin = hand("AS 2S 3S 4S 7H 7D 7C KH KD KC");
        assert_eq!(min_deadwood(gin), 0);
        assert_eq!(best_arrangement(gin).melds.len(), 4 - 1);
    }

    #[test]
    fn a_long_block_is_one_run() {
        let best = best_arrangement(hand("3H 4H 5H 6H 7H 8H 9H TH JH QH"));
        assert_eq!(melds_text(&best), ["3H 4H 5H 6H 7H 8H 9H TH JH QH"]);
    }

    #[test]
    fn every_optimal_arrangement_is_listed_once() {
        // 6H joins the four sixes or bridges 3-4-5H and 7-8-9H: gin either way.
        let all = optimal_arrangements(hand("6S 6D 6C 6H 3H 4H 5H 7H 8H 9H"));
        let texts: Vec<Vec<String>> = all.iter().map(melds_text).collect();
        assert_eq!(
            texts,
            [
                vec!["3H 4H 5H", "6S 6H 6D 6C", "7H 8H 9H"],
                vec!["3H 4H 5H 6H 7H 8H 9H", "6S 6D 6C"]
            ]
        );
    }

    #[test]
    fn two_four_card_sets_crossing_two_runs() {
        // 4s and 5s both complete; hearts and spades run 3-4-5-6.
        let h = hand("4S 4H 4D 4C 5S 5H 5D 5C 3H 6H");
        assert_eq!(min_deadwood(h), 0);
        let all = optimal_arrangements(h);
        assert!(all.iter().all(|a| a.deadwood == 0));
    }

    #[test]
    fn big_gin_melds_all_eleven_cards() {
        let analysis = analyze_drawn_hand(hand("AS 2S 3S 4S 7H 7D 7C KH KD KC QC"));
        assert!(analysis.big_gin || analysis.deadwood == 0);
        let big = analyze_drawn_hand(hand("AS 2S 3S 4S 7H 7D 7C JC QC KC 5S"));
        assert!(big.big_gin);
        assert_eq!(big.deadwood, 0);
    }

    #[test]
    fn eleven_cards_list_every_discard_reaching_the_minimum() {
        let ends = analyze_drawn_hand(hand("3S 4S 5S 6S KS KH KD 2D 6C 7D 8D"));
        let discarded: Vec<String> = ends.discards.iter().map(|d| d.card.to_string()).collect();
        assert_eq!(ends.deadwood, 2 + 6 + 7);
        assert_eq!(discarded, ["8D"]);
        let tie = analyze_drawn_hand(hand("3S 4S 5S 6S KS KH KD 2D 5C 5H AD"));
        let discarded: Vec<String> = tie.discards.iter().map(|d| d.card.to_string()).collect();
        // Keeping the run 3-4-5-6S leaves 5H and 5C as deadwood: either may go.
        assert_eq!(tie.deadwood, 2 + 5 + 1);
        assert_eq!(discarded, ["5H", "5C"]);
    }

    #[test]
    fn melds_within_lists_every_sub_run_and_sub_set() {
        let all = melds_within(hand("3H 4H 5H 6H 9S 9H 9D 9C 2C 2D 2S"));
        let runs = all.iter().filter(|m| m.kind() == MeldKind::Run).count();
        let sets = all.iter().filter(|m| m.kind() == MeldKind::Set).count();
        // Runs 3-5, 4-6, 3-6; sets: the four nines, its four 3-card subsets, the twos.
        assert_eq!((runs, sets), (3, 6));
    }
}
