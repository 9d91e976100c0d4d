//! Eleven cards: the discards of a drawn hand, found by one search.
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
//! the result with the per-discard definition (`tests/properties/drawn.rs`). The tables and the set-choice search are
//! the parent's ([`super`]).

use super::*;

/// Analyses an 11-card hand: every discard that reaches the least deadwood, and
/// whether all eleven cards meld (big gin).
///
/// The result is, by definition, [`min_deadwood`] of each ten-card hand left
/// by a discard, the discards reaching the least in canonical order, each with
/// the [`best_arrangement`] of the cards kept. For eleven cards or fewer it is
/// found by one search over the hand's set choices (the module docs), and
/// arrangements are built only for the best discards; larger hands, and the
/// empty one, take the definition.
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

/// The least count of `hand` less one card, and every card whose discard
/// reaches it: [`analyze_drawn_hand`] without the arrangements, for callers
/// that only play the hand on (a play-out's turns).
pub(crate) fn least_discards(hand: CardSet) -> (u32, CardSet) {
    let bits = hand.bits();
    if (1..=11).contains(&hand.len()) {
        let pending = ranks_with_three_or_more(hand);
        let in_sets = bits & (u64::from(pending) * RANK_STRIDE);
        let found = if in_sets & run_cards(bits) == 0 {
            Some(whole_sets_discards(bits, in_sets, pending))
        } else {
            best_discards(bits, pending)
        };
        if let Some(found) = found {
            return (found.deadwood, CardSet::from_bits(found.cards));
        }
    }
    least_discards_among(hand, hand)
}

/// The least count of `hand` less one card of `among`, and every card of
/// `among` whose discard reaches it, by their definition: one
/// [`min_deadwood`] per card (`u32::MAX` and no card when `among` is empty).
pub(crate) fn least_discards_among(hand: CardSet, among: CardSet) -> (u32, CardSet) {
    let bits = hand.bits();
    let mut least = (u32::MAX, CardSet::EMPTY);
    for card in among {
        let count = min_deadwood(CardSet::from_bits(bits & !(1 << card.bit_index())));
        if count < least.0 {
            least = (count, CardSet::EMPTY);
        }
        if count == least.0 {
            least.1.insert(card);
        }
    }
    least
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
    let (best, cards) = least_discards_among(hand, hand);
    let discards = cards
        .iter()
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
            list.offer_four(rank_cards, flexible, twice);
        } else {
            list.push(DiscardOption {
                kept_out: rank_cards,
                ..DiscardOption::WHOLE_SET
            });
        }
    }
    let (highest, stop) = early_stop(free & !runnable);

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

/// The early stop of [`best_discards`], from the free cards no run can use:
/// the highest of them, and their count (no stop without them).
#[inline(always)]
fn early_stop(stray: u64) -> (u64, u32) {
    let highest = highest_cards(stray);
    let stop = if highest == 0 {
        u32::MAX
    } else {
        deadwood_of_free(stray)
    };
    (highest, stop)
}

impl DiscardOptions {
    /// The options of a rank held four times, `flexible` the cards of it a
    /// run can use (see [`best_discards`]): the whole set, any of its cards
    /// the discard; with one such card, that card kept out and the other
    /// three an extra discard that leaves two of them as deadwood (twice the
    /// rank's value); with more, each alone kept out, or all four.
    #[inline(always)]
    fn offer_four(&mut self, rank_cards: u64, flexible: u64, twice: u32) {
        if let Some(whole) = self.options.first_mut() {
            whole.extra_cost = 0;
            whole.extra_cards = rank_cards;
        }
        let single = flexible & (flexible - 1) == 0;
        let mut cards = flexible;
        while cards != 0 {
            let card = cards & cards.wrapping_neg();
            cards &= cards - 1;
            self.push(if single {
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
            self.push(DiscardOption {
                kept_out: rank_cards,
                ..DiscardOption::WHOLE_SET
            });
        }
    }
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
