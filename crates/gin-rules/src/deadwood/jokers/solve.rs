//! The wild-card deadwood solver: footprints, the fast least count, and the
//! plans behind an arrangement (the argument is in the module docs of [`super`]).

use crate::card::{CardSet, LANE, lowest_bits};
use crate::deadwood::natural::{min_deadwood, run_cards};
use crate::meld::MeldKind;

use super::params::Params;

/// One card of each suit at the same rank bit: `RANK_STRIDE << r` is rank `r`.
const RANK_STRIDE: u64 = 0x0001_0001_0001_0001;

/// The cards a meld holding jokers shows (its naturals and the cards its
/// jokers stand for), how many jokers it holds, and which of the hand's own
/// cards its jokers stand for (those stay deadwood).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Footprint {
    pub kind: MeldKind,
    /// Every card the meld shows: a set's rank in three or four suits, or an
    /// interval of one suit.
    pub cards: u64,
    /// Jokers in the meld: 1 or 2.
    pub jokers: u32,
    /// Held cards the jokers stand for (the cheapest, lowest first), left as
    /// deadwood: no other meld may use a card a joker stands for.
    pub held_fillers: u64,
    /// Their count.
    pub held_cost: u32,
    /// The value of the hand's cards inside the footprint (its naturals and
    /// the held cards its jokers stand for).
    pub inside_value: u32,
}

impl Footprint {
    /// The natural cards melded.
    pub fn naturals(&self, avail: u64) -> u64 {
        self.cards & avail & !self.held_fillers
    }

    /// The cards the jokers stand for: the missing cards, then the held fillers.
    pub fn fillers(&self, avail: u64) -> u64 {
        (self.cards & !avail) | self.held_fillers
    }
}

/// The value of the cards of `bits`: four lookups, where `CardSet::value`
/// takes four software popcounts (the default x86-64 target has no `popcnt`);
/// the search takes it for every footprint and pair it bounds.
#[inline]
fn value(bits: u64) -> u32 {
    let lane = |shift: u32| {
        LANE_VALUE
            .get(((bits >> shift) & LANE) as usize)
            .map_or(0, |&v| u32::from(v))
    };
    lane(0) + lane(16) + lane(32) + lane(48)
}

/// The value of every 13-bit lane's cards (at most 85: fits a byte). 8 KiB,
/// built at compile time.
static LANE_VALUE: [u8; 8192] = {
    let mut table = [0u8; 8192];
    let mut lane = 0usize;
    while lane < 8192 {
        let mut sum = 0u32;
        let mut bit = 0;
        while bit < 13 {
            if lane >> bit & 1 == 1 {
                sum += rank_value(bit);
            }
            bit += 1;
        }
        // In range by the loop condition; a const block cannot call `get_mut`.
        #[allow(clippy::indexing_slicing)]
        let entry = &mut table[lane];
        *entry = sum as u8;
        lane += 1;
    }
    table
};

/// The value of a card at rank bit `bit` (0 for the ace).
#[inline]
const fn rank_value(bit: u32) -> u32 {
    if bit >= 9 { 10 } else { bit + 1 }
}

/// Cards of `avail` in some natural meld within `avail`: a run of three or a
/// rank of three or more. The others are deadwood however the naturals meld.
#[inline]
pub(crate) fn natural_meld_cards(avail: u64) -> u64 {
    let [s, h, d, c] = [avail, avail >> 16, avail >> 32, avail >> 48].map(|l| l & LANE);
    let three = (s & h & (d | c)) | ((s | h) & d & c);
    run_cards(avail) | (avail & (three * RANK_STRIDE))
}

/// Calls `visit` with every footprint of a meld holding 1 or 2 jokers (at most
/// `p.jokers`) that the naturals `avail` can make while avoiding `blocked`, in
/// the fixed order the documented tie-break relies on: sets before runs; sets
/// by rank, the four-suit set first, then the three-suit sets leaving out
/// clubs, diamonds, hearts, spades (a joker stands for the lowest missing
/// suit first); runs by suit, the highest low end first (a joker extends a run
/// upwards first), then the shortest; fewer jokers first.
///
/// A footprint whose jokers would stand for held cards is skipped when
/// melding those cards naturally and leaving the jokers out costs no more.
/// Without `every_position`, for the count alone, a run of every joker held
/// is offered at one position per set of naturals.
#[inline]
pub(crate) fn for_each_footprint(
    avail: u64,
    blocked: u64,
    p: Params,
    every_position: bool,
    mut visit: impl FnMut(Footprint),
) {
    if p.jokers == 0 {
        return;
    }
    // A meld holding jokers has at least `need` naturals: the rules' minimum,
    // and 3 less the jokers (a meld has three cards).
    let need = p.min_natural.max(3u32.saturating_sub(p.jokers)).max(1);
    let lanes = [avail, avail >> 16, avail >> 32, avail >> 48].map(|l| l & LANE);
    offer_sets(avail, lanes, blocked, need, p, &mut visit);
    for (suit, lane) in (0u32..).zip(lanes) {
        if lane == 0 {
            continue;
        }
        let shift = 16 * suit;
        let runs = RunLane {
            cards: lane,
            blocked: (blocked >> shift) & LANE,
            shift,
            every_position,
        };
        // A run holding jokers starts where its first `need` naturals lie
        // within `need + jokers` cards: a bit-parallel count over every start
        // at once skips the suits (most of a random hand's) and starts that
        // cannot hold one.
        let mut starts = starts_with_enough(lane, need, p.jokers) & 0x7FF;
        while starts != 0 {
            let start = 63 - starts.leading_zeros();
            starts &= !(1 << start);
            runs.offer_from(start, p, &mut visit);
        }
    }
}

/// The set footprints of [`for_each_footprint`], rank by rank: at each rank
/// holding `need` naturals or more, the four-suit set, then the three-suit
/// sets leaving out clubs, diamonds, hearts, spades.
#[inline(always)]
fn offer_sets(
    avail: u64,
    [s, h, d, c]: [u64; 4],
    blocked: u64,
    need: u32,
    p: Params,
    visit: &mut impl FnMut(Footprint),
) {
    let ranks = match need {
        1 => s | h | d | c,
        2 => (s & (h | d | c)) | (h & (d | c)) | (d & c),
        _ => (s & h & (d | c)) | ((s | h) & d & c),
    };
    let mut pending = ranks;
    while pending != 0 {
        let bit = pending.trailing_zeros();
        pending &= pending - 1;
        let whole = RANK_STRIDE << bit;
        let held = avail & whole;
        offer_set(whole, held, blocked, rank_value(bit), p, visit);
        for suit in [3u32, 2, 1, 0] {
            let three = whole & !(1 << (16 * suit + bit));
            offer_set(three, held, blocked, rank_value(bit), p, visit);
        }
    }
}

/// One suit's cards as the run footprints see them, each lane at rank bit 0.
#[derive(Clone, Copy)]
struct RunLane {
    /// The hand's naturals of the suit.
    cards: u64,
    /// Its cards no meld may use.
    blocked: u64,
    /// Where the suit's lane sits in a card mask.
    shift: u32,
    /// Every position of a run of every joker (see [`for_each_footprint`]).
    every_position: bool,
}

impl RunLane {
    /// The run footprints whose low end is `start`, shortest first: the window
    /// grows a card at a time until it meets a blocked card, the lane's end,
    /// or needs more jokers than are held.
    #[inline(always)]
    fn offer_from(self, start: u32, p: Params, visit: &mut impl FnMut(Footprint)) {
        let mut span = 0u64;
        let mut missing = 0u32;
        let mut inside_value = 0u32;
        let mut end = start;
        while end < 13 {
            let card = 1u64 << end;
            if card & self.blocked != 0 {
                break;
            }
            span |= card;
            let is_held = card & self.cards != 0;
            missing += u32::from(!is_held);
            inside_value += if is_held { rank_value(end) } else { 0 };
            if missing > p.jokers {
                break;
            }
            end += 1;
            let len = end - start;
            if len < 3 {
                continue;
            }
            // A meld of every joker is in no pair: only the naturals it
            // takes count, so a window that slides one card up with the
            // same naturals (its low end and the card above both
            // missing, the card above free) is the same for the count,
            // and is left to that later window.
            let slides = !self.every_position
                && missing == p.jokers
                && (1u64 << start) & self.cards == 0
                && end < 13
                && (card << 1) & (self.cards | self.blocked) == 0;
            let window = Window {
                span,
                len,
                missing,
                inside_value,
            };
            self.offer_window(window, slides, p, visit);
        }
    }

    /// The footprints of one window of the lane, by the number of jokers in
    /// it: the missing cards at least, and more standing for its cheapest
    /// held cards while the rules' minimum of naturals allows (not when
    /// `slides`, for a run of every joker).
    #[inline(always)]
    fn offer_window(self, w: Window, slides: bool, p: Params, visit: &mut impl FnMut(Footprint)) {
        let most = p.jokers.min(w.len.saturating_sub(p.min_natural));
        for jokers in w.missing.max(1)..=most {
            if slides && jokers == p.jokers {
                continue;
            }
            let extra = jokers - w.missing;
            let held_fillers = if extra == 0 {
                0
            } else {
                lowest_bits(self.cards & w.span, extra)
            };
            let held_cost = if extra == 0 { 0 } else { value(held_fillers) };
            if extra > 0 && held_cost >= extra * p.joker_deadwood {
                continue;
            }
            visit(Footprint {
                kind: MeldKind::Run,
                cards: w.span << self.shift,
                jokers,
                held_fillers: held_fillers << self.shift,
                held_cost,
                inside_value: w.inside_value,
            });
        }
    }
}

/// A window of a run lane: its cards and their count (kept: the default
/// x86-64 target has no `popcnt`), how many of them the hand lacks, and the
/// value of those it holds.
#[derive(Clone, Copy)]
struct Window {
    span: u64,
    len: u32,
    missing: u32,
    inside_value: u32,
}

/// The rank bits `a` of `lane` such that `a .. a + need + jokers` holds at
/// least `need` of its cards: a bit-sliced count of `need + jokers` shifted
/// copies of the lane (at most 5, so three counter bits suffice).
#[inline]
fn starts_with_enough(lane: u64, need: u32, jokers: u32) -> u64 {
    let (mut ones, mut twos, mut fours) = (0u64, 0u64, 0u64);
    for k in 0..need + jokers {
        let add = lane >> k;
        let carry = ones & add;
        ones ^= add;
        let carry2 = twos & carry;
        twos ^= carry;
        fours |= carry2;
    }
    match need {
        0 | 1 => ones | twos | fours,
        2 => twos | fours,
        _ => fours | (twos & ones),
    }
}

/// The footprints of a set showing `cards` (three or four suits of one rank,
/// each card worth `each`), `held` being the hand's cards of that rank.
#[inline]
fn offer_set(
    cards: u64,
    held: u64,
    blocked: u64,
    each: u32,
    p: Params,
    visit: &mut impl FnMut(Footprint),
) {
    if cards & blocked != 0 {
        return;
    }
    // One bit per suit lane at the same rank: the lanes add up without a
    // popcount (the default x86-64 target has none).
    let per_lane = |bits: u64| {
        let low = bits >> (cards.trailing_zeros() % 16);
        ((low + (low >> 16) + (low >> 32) + (low >> 48)) & 0xF) as u32
    };
    let size = per_lane(cards);
    let held_here = held & cards;
    let held_count = per_lane(held_here);
    let missing = size - held_count;
    let most = p.jokers.min(size.saturating_sub(p.min_natural));
    for jokers in missing.max(1)..=most {
        let extra = jokers - missing;
        let held_cost = extra * each;
        if extra > 0 && held_cost >= extra * p.joker_deadwood {
            continue;
        }
        visit(Footprint {
            kind: MeldKind::Set,
            cards,
            jokers,
            held_fillers: if extra == 0 {
                0
            } else {
                lowest_bits(held_here, extra)
            },
            held_cost,
            inside_value: held_count * each,
        });
    }
}

/// A footprint of one joker kept for the search over pairs, with a second
/// footprint taking the same cards of the hand (the same set with the joker
/// standing for the other missing suit, the same run extended the other way):
/// both count the same, and a pair needs only one of them disjoint from its
/// partner, so the pair is solved once for both.
#[derive(Debug, Clone, Copy, Default)]
struct Single {
    /// The cards the footprints show (the second equal to the first when
    /// there is no second).
    cards: [u64; 2],
    /// The hand's cards inside them.
    content: u64,
    /// The value of the hand's cards inside it, less its held fillers: the
    /// most it can lower a count (taking cards out of a hand lowers its count
    /// by at most their value); exact when it shares no card with a natural
    /// meld.
    gain: i32,
    /// A floor of the naturals' count without it, plus its held fillers
    /// (exact when it shares no card with a natural meld).
    solo: i32,
    held_cost: u16,
    /// Shares a card with some natural meld: its effect needs the solver.
    touches: bool,
}

/// Singles kept on the stack; more (only in hands dense in one suit or rank)
/// spill to the heap.
const SINGLES_ON_STACK: usize = 16;

/// The one-joker footprints kept for the search over pairs (two jokers held),
/// twins merged: in an array on the caller's stack, spilling to the heap past
/// [`SINGLES_ON_STACK`]. The array is the caller's, not a field: held in a
/// struct, the optimiser zeroes it on every call (96 instructions).
struct Singles<'a> {
    stack: &'a mut [Single; SINGLES_ON_STACK],
    kept: usize,
    spilled: Vec<Single>,
}

impl<'a> Singles<'a> {
    #[inline(always)]
    fn new(stack: &'a mut [Single; SINGLES_ON_STACK]) -> Singles<'a> {
        Singles {
            stack,
            kept: 0,
            spilled: Vec::new(),
        }
    }

    /// Records `cards` as the second footprint of a kept single taking the
    /// same cards of the hand at the same held cost, if there is one without
    /// a second yet; says whether there was. Only the stack is searched: the
    /// spill is rare, and a twin missed there is only a pair solved twice.
    #[inline(always)]
    fn merge_twin(&mut self, content: u64, held_cost: u16, cards: u64) -> bool {
        let twin = self.stack.get_mut(..self.kept).and_then(|kept| {
            kept.iter_mut().find(|s| {
                s.content == content && s.held_cost == held_cost && s.cards[0] == s.cards[1]
            })
        });
        match twin {
            Some(twin) => {
                twin.cards[1] = cards;
                true
            }
            None => false,
        }
    }

    #[inline(always)]
    fn push(&mut self, single: Single) {
        match self.stack.get_mut(self.kept) {
            Some(slot) => {
                *slot = single;
                self.kept += 1;
            }
            None => self.spilled.push(single),
        }
    }

    /// [`best_pair`] over every single kept. By reference: moving the
    /// singles would copy the whole stack array.
    #[inline(always)]
    fn best_pair(&mut self, avail: u64, best: u32) -> u32 {
        if self.spilled.is_empty() {
            let singles = self.stack.get_mut(..self.kept).unwrap_or(&mut []);
            best_pair(singles, avail, best)
        } else {
            let mut all = self.stack.get(..self.kept).unwrap_or(&[]).to_vec();
            all.extend(self.spilled.iter().copied());
            best_pair(&mut all, avail, best)
        }
    }
}

/// Footprints needing the solver that [`min_cost`] holds back until the
/// cheap ones have lowered the best count (their floors then prune more);
/// more are solved at once.
const DEFERRED_ON_STACK: usize = 8;

/// The footprints held back (see [`DEFERRED_ON_STACK`]): the cards each
/// shows, what it adds to the naturals' count left (held fillers, jokers left
/// out), and a floor of its count. The slots are the caller's array, as for
/// [`Singles`].
struct Deferred<'a> {
    slots: &'a mut [(u64, u32, i64); DEFERRED_ON_STACK],
    waiting: usize,
}

impl<'a> Deferred<'a> {
    #[inline(always)]
    fn new(slots: &'a mut [(u64, u32, i64); DEFERRED_ON_STACK]) -> Deferred<'a> {
        Deferred { slots, waiting: 0 }
    }

    /// Holds a footprint back; `false` when every slot is taken (the caller
    /// solves it at once).
    #[inline(always)]
    fn hold(&mut self, cards: u64, extra: u32, floor: i64) -> bool {
        match self.slots.get_mut(self.waiting) {
            Some(slot) => {
                *slot = (cards, extra, floor);
                self.waiting += 1;
                true
            }
            None => false,
        }
    }

    /// The least of `best` and the counts of the footprints held back whose
    /// floor is still below the best.
    #[inline(always)]
    fn solve(&self, avail: u64, mut best: u32) -> u32 {
        for &(cards, extra, floor) in self.slots.get(..self.waiting).unwrap_or(&[]) {
            if floor < i64::from(best) {
                best = best.min(min_deadwood(CardSet::from_bits(avail & !cards)) + extra);
            }
        }
        best
    }
}

/// The least count of the naturals `avail` with `p.jokers` jokers, no meld
/// using a card of `blocked` (the caller counts the held cards that are
/// blocked). The fast path of `min_deadwood`.
pub(crate) fn min_cost(avail: u64, blocked: u64, p: Params) -> u32 {
    // Nothing blocked and at most two ranks of three naturals (every ten-card
    // hand with two jokers): decide those ranks' sets, and the suits' lanes
    // answer from tables (`lanes.rs`). Blocked cards (layoffs) and larger
    // hands take the footprint search.
    if blocked == 0
        && let Some(count) = super::lanes::min_cost_by_lanes(avail, p)
    {
        return count;
    }
    footprint_min_cost(avail, blocked, p)
}

/// [`min_cost`] by the footprint search, for any hand (the tests check the
/// lane path against it).
pub(crate) fn footprint_min_cost(avail: u64, blocked: u64, p: Params) -> u32 {
    let base = min_deadwood(CardSet::from_bits(avail));
    let mut best = base + p.jokers * p.joker_deadwood;
    if p.jokers == 0 || best == 0 {
        return best;
    }
    let meldable = natural_meld_cards(avail);
    let base = i64::from(base);
    let narrow = |count: i64| i32::try_from(count).unwrap_or(i32::MAX);
    let mut stack = [Single::default(); SINGLES_ON_STACK];
    let mut singles = Singles::new(&mut stack);
    let mut slots = [(0u64, 0u32, 0i64); DEFERRED_ON_STACK];
    let mut deferred = Deferred::new(&mut slots);
    let keep_pairs = p.jokers == 2;
    for_each_footprint(avail, blocked, p, false, |f| {
        if best == 0 {
            // Nothing is lower: the rest of the search is moot.
            return;
        }
        let left_out = (p.jokers - f.jokers) * p.joker_deadwood;
        let gain = i64::from(f.inside_value) - i64::from(f.held_cost);
        let pairs_with_another = keep_pairs && f.jokers == 1;
        // Taking cards out of a hand lowers its count by at most their value:
        // a footprint in no pair is done with when even that cannot win.
        if !pairs_with_another && base - gain + i64::from(left_out) >= i64::from(best) {
            return;
        }
        let touches = f.cards & meldable != 0;
        let rest = avail & !f.cards;
        // The naturals' count without the footprint, plus its held fillers:
        // exact when no natural meld uses its naturals (they are deadwood in
        // every arrangement, so taking them out lowers the count by exactly
        // their value); otherwise a floor.
        let solo = if touches {
            (base - gain).max(i64::from(
                value(rest & !natural_meld_cards(rest)) + f.held_cost,
            ))
        } else {
            base - gain
        };
        if solo + i64::from(left_out) < i64::from(best) {
            if !touches {
                best = u32::try_from(solo).map_or(best, |solo| solo + left_out);
            } else if !deferred.hold(f.cards, f.held_cost + left_out, solo + i64::from(left_out)) {
                best = best.min(min_deadwood(CardSet::from_bits(rest)) + f.held_cost + left_out);
            }
        }
        if pairs_with_another {
            let content = f.cards & avail;
            let held_cost = u16::try_from(f.held_cost).unwrap_or(u16::MAX);
            if singles.merge_twin(content, held_cost, f.cards) {
                return;
            }
            singles.push(Single {
                cards: [f.cards; 2],
                content,
                gain: narrow(gain),
                solo: narrow(solo),
                held_cost,
                touches,
            });
        }
    });
    best = singles.best_pair(avail, best);
    deferred.solve(avail, best)
}

/// The least count over pairs of disjoint one-joker footprints, or `best` when
/// none is lower. A pair counts at least `solo` of either less the other's
/// `gain`; the singles are tried by `solo`, least first, and the search stops
/// once even the best remaining pair cannot beat `best`.
fn best_pair(singles: &mut [Single], avail: u64, mut best: u32) -> u32 {
    if singles.len() < 2 || best == 0 {
        return best;
    }
    singles.sort_unstable_by_key(|s| s.solo);
    let most_gain = singles.iter().map(|s| s.gain).max().unwrap_or(0);
    let sorted: &[Single] = singles;
    for (i, first) in sorted.iter().enumerate() {
        if i64::from(first.solo) - i64::from(most_gain) >= i64::from(best) || best == 0 {
            break;
        }
        for second in sorted.iter().skip(i + 1) {
            // The later seconds have a larger `solo` still: none can do better.
            if i64::from(second.solo) - i64::from(first.gain) >= i64::from(best) {
                break;
            }
            if first.content & second.content != 0
                || i64::from(first.solo) - i64::from(second.gain) >= i64::from(best)
            {
                continue;
            }
            let [a, b] = first.cards;
            let [c, d] = second.cards;
            if !(a & c == 0 || a & d == 0 || b & c == 0 || b & d == 0) {
                continue;
            }
            let floor = (i64::from(first.solo) - i64::from(second.gain))
                .max(i64::from(second.solo) - i64::from(first.gain));
            let cost = if first.touches || second.touches {
                // A floor first: the naturals left in no natural meld of
                // what remains (taking the footprints out breaks melds).
                let rest = avail & !first.content & !second.content;
                let extra = u32::from(first.held_cost) + u32::from(second.held_cost);
                if value(rest & !natural_meld_cards(rest)) + extra < best {
                    min_deadwood(CardSet::from_bits(rest)) + extra
                } else {
                    best
                }
            } else {
                // Both exact: the naturals of neither meld naturally.
                u32::try_from(floor).unwrap_or(best)
            };
            best = best.min(cost);
        }
    }
    best
}

/// One way to place the jokers: no meld holding a joker, one, or two
/// (disjoint, one joker each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Every joker unmelded.
    Bare,
    /// One meld holds jokers.
    One(Footprint),
    /// Two melds hold one joker each.
    Two(Footprint, Footprint),
}

impl Plan {
    pub fn footprints(&self) -> impl Iterator<Item = Footprint> {
        let (a, b) = match *self {
            Plan::Bare => (None, None),
            Plan::One(a) => (Some(a), None),
            Plan::Two(a, b) => (Some(a), Some(b)),
        };
        a.into_iter().chain(b)
    }

    /// Every card its melds holding jokers show.
    pub fn cards(&self) -> u64 {
        self.footprints().fold(0, |acc, f| acc | f.cards)
    }

    pub fn jokers(&self) -> u32 {
        self.footprints().map(|f| f.jokers).sum()
    }

    pub fn held_cost(&self) -> u32 {
        self.footprints().map(|f| f.held_cost).sum()
    }

    /// Its count: the naturals left, best melded, the held cards its jokers
    /// stand for, and the jokers it leaves out.
    pub fn cost(&self, avail: u64, p: Params) -> u32 {
        min_deadwood(CardSet::from_bits(avail & !self.cards()))
            + self.held_cost()
            + (p.jokers - self.jokers()) * p.joker_deadwood
    }

    /// A floor of its count without the solver.
    fn floor(&self, avail: u64, meldable: u64, p: Params) -> u32 {
        value(avail & !self.cards() & !meldable)
            + self.held_cost()
            + (p.jokers - self.jokers()) * p.joker_deadwood
    }
}

/// Every plan in the fixed order (the bare plan, the footprints in
/// [`for_each_footprint`]'s order, then the pairs in that order), each with
/// its count, skipping plans whose floor is above `ceiling`.
pub(crate) fn plans_within(avail: u64, blocked: u64, p: Params, ceiling: u32) -> Vec<(Plan, u32)> {
    let meldable = natural_meld_cards(avail);
    let mut footprints = Vec::new();
    for_each_footprint(avail, blocked, p, true, |f| footprints.push(f));
    let mut plans = vec![Plan::Bare];
    plans.extend(footprints.iter().map(|&f| Plan::One(f)));
    if p.jokers == 2 {
        for (i, &a) in footprints.iter().enumerate() {
            if a.jokers != 1 {
                continue;
            }
            for &b in footprints.iter().skip(i + 1) {
                if b.jokers == 1 && a.cards & b.cards == 0 {
                    plans.push(Plan::Two(a, b));
                }
            }
        }
    }
    plans
        .into_iter()
        .filter(|plan| plan.floor(avail, meldable, p) <= ceiling)
        .map(|plan| (plan, plan.cost(avail, p)))
        .filter(|&(_, cost)| cost <= ceiling)
        .collect()
}
