//! Layoffs with jokers: the defender's best reply to a knocker whose melds may
//! hold jokers, with jokers of its own.
//!
//! What the table shows decides what fits: a knocker's joker stands for a
//! definite card, so a run `5H X1=6H 7H` takes 4H or 8H and a set
//! `7S 7H X1=7D` takes only 7C. Every card on the table stands for a distinct
//! card: a natural the knocker's joker stands for can be neither laid off nor
//! melded by the defender (it stays deadwood). A defender's joker may be laid
//! off (when the rules allow it) standing for the card that extends a run or
//! completes a three-card set.
//!
//! The best reply tries every way of growing each knocker meld (a set's
//! missing card or nothing; a run's cards beyond each end, each card laid by
//! the defender's natural or by a joker), the grown melds claiming distinct
//! cards, and for each plays the defender's least count of the rest with no
//! meld showing a card on the table ([`super::wild_min_deadwood_avoiding`]).
//! It keeps the least count, then the fewest layoffs, then the first in that
//! order (melds in the knocker's order; for each, no layoff first, naturals
//! before jokers, runs grown downward before upward).

use crate::card::{Card, CardSet};
use crate::meld::MeldKind;
use crate::profile::JokerRules;

use super::{
    Joker, WildArrangement, WildCard, WildHand, WildMeld, wild_best_arrangement_avoiding,
    wild_min_deadwood_avoiding,
};

/// One card or joker laid off onto a knocker's meld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WildLayoff {
    /// The defender's card or joker.
    pub card: WildCard,
    /// Index into the knocker's melds.
    pub meld: usize,
    /// The card it shows on the table: the card itself for a natural, the
    /// card a joker stands for.
    pub stands_for: Card,
}

/// The defender's side of a knock with jokers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WildReply {
    /// The defender's own melds and what is left, after the layoffs.
    pub arrangement: WildArrangement,
    /// The layoffs in an order in which each is legal when played.
    pub layoffs: Vec<WildLayoff>,
}

impl WildReply {
    /// The defender's count after layoffs.
    pub fn deadwood(&self) -> u32 {
        self.arrangement.deadwood
    }
}

/// How one card of a grown meld is laid: by the defender's natural or by a
/// joker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layer {
    Natural,
    Joker,
}

/// The layoffs chosen so far: cards claimed on the table, naturals and jokers
/// spent, and the layoffs in playing order.
#[derive(Debug, Clone, Default)]
struct Growth {
    claimed: u64,
    naturals: u64,
    jokers: u32,
    layoffs: Vec<(usize, Card, Layer)>,
}

/// The cards of `run` (one suit) that a run would take next, below and above,
/// as lists outward from the run: every card up to the lane's ends.
fn outward(run: CardSet) -> (Vec<Card>, Vec<Card>) {
    let bits = run.bits();
    let low = bits.trailing_zeros();
    let high = 63 - bits.leading_zeros();
    let lane_low = low - low % 16;
    let below = (lane_low..low)
        .rev()
        .filter_map(|bit| CardSet::from_bits(1 << bit).iter().next())
        .collect();
    let lane_top = lane_low + 12;
    let above = (high + 1..=lane_top)
        .filter_map(|bit| CardSet::from_bits(1 << bit).iter().next())
        .collect();
    (below, above)
}

/// The defender's best reply (see the module docs). With `layoffs_allowed`
/// false (gin, under most profiles) the defender only arranges its own melds,
/// still showing no card the knocker's melds show.
///
/// ```
/// use gin_rules::{wild_best_reply, wild_cards, cards, Card, Joker, JokerRules, WildMeld};
/// let rules = JokerRules::TWO_JOKERS;
/// let six: Card = "6H".parse()?;
/// // The knocker's X1 stands for 6H: the run is 5H 6H 7H, and takes 4H and 8H.
/// let run = WildMeld::new(cards("5H 7H")?, &[(Joker::X1, six)], &rules)?;
/// let reply = wild_best_reply(&[run], wild_cards("8H 9H KS KD X2")?, &rules, true);
/// let laid: Vec<String> = reply.layoffs.iter().map(|l| l.card.to_string()).collect();
/// // 8H and 9H go onto the run; X2 makes a set of the kings (KS KD X2).
/// assert_eq!(laid, ["8H", "9H"]);
/// assert_eq!(reply.deadwood(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn wild_best_reply(
    knocker_melds: &[WildMeld],
    defender: WildHand,
    rules: &JokerRules,
    layoffs_allowed: bool,
) -> WildReply {
    let table = knocker_melds
        .iter()
        .fold(CardSet::EMPTY, |acc, m| acc.union(m.cards()));
    let jokers_to_lay = if layoffs_allowed && rules.joker_layoff() {
        u32::from(defender.joker_count())
    } else {
        0
    };
    let mut best: Option<(u32, usize, Growth)> = None;
    if layoffs_allowed {
        let mut growth = Growth::default();
        grow(
            knocker_melds,
            0,
            table.bits(),
            defender.naturals().bits(),
            jokers_to_lay,
            &mut growth,
            &mut |growth| {
                let rest = rest_of(defender, growth);
                let blocked = table.union(CardSet::from_bits(growth.claimed));
                let count = wild_min_deadwood_avoiding(rest, rules, blocked);
                let key = (count, growth.layoffs.len());
                if best.as_ref().is_none_or(|(c, n, _)| key < (*c, *n)) {
                    best = Some((count, growth.layoffs.len(), growth.clone()));
                }
            },
        );
    }
    let growth = best.map(|(_, _, g)| g).unwrap_or_default();
    let rest = rest_of(defender, &growth);
    let blocked = table.union(CardSet::from_bits(growth.claimed));
    let arrangement = wild_best_arrangement_avoiding(rest, rules, blocked);
    let mut jokers = defender.jokers();
    let layoffs = growth
        .layoffs
        .iter()
        .map(|&(meld, stands_for, layer)| WildLayoff {
            card: match layer {
                Layer::Natural => WildCard::Natural(stands_for),
                Layer::Joker => jokers
                    .next()
                    .map_or(WildCard::Natural(stands_for), WildCard::Joker),
            },
            meld,
            stands_for,
        })
        .collect();
    WildReply {
        arrangement,
        layoffs,
    }
}

/// The defender's hand less what `growth` lays off (jokers laid `X1` first).
fn rest_of(defender: WildHand, growth: &Growth) -> WildHand {
    let naturals = defender
        .naturals()
        .difference(CardSet::from_bits(growth.naturals));
    let kept: Vec<Joker> = defender
        .jokers()
        .skip(usize::try_from(growth.jokers).unwrap_or(usize::MAX))
        .collect();
    WildHand::new(naturals, &kept)
}

/// Tries every growth of the melds from `index` on, calling `visit` with each
/// complete choice.
fn grow(
    melds: &[WildMeld],
    index: usize,
    table: u64,
    held: u64,
    jokers: u32,
    growth: &mut Growth,
    visit: &mut dyn FnMut(&Growth),
) {
    let Some(meld) = melds.get(index) else {
        visit(growth);
        return;
    };
    // No layoff on this meld.
    grow(melds, index + 1, table, held, jokers, growth, visit);
    match meld.kind() {
        MeldKind::Set => {
            if meld.len() != 3 {
                return;
            }
            let Some(rank) = meld.cards().iter().next().map(Card::rank) else {
                return;
            };
            for card in CardSet::FULL_DECK.of_rank(rank).difference(meld.cards()) {
                for layer in [Layer::Natural, Layer::Joker] {
                    if try_lay(card, layer, index, table, held, jokers, growth) {
                        grow(melds, index + 1, table, held, jokers, growth, visit);
                        undo(growth, layer);
                    }
                }
            }
        }
        MeldKind::Run => {
            let (below, above) = outward(meld.cards());
            grow_run(
                melds, index, &below, &above, 0, table, held, jokers, growth, visit,
            );
        }
    }
}

/// Grows a run by the cards of `below` (outward), then of `above`, each laid
/// by a natural or a joker; every prefix of each side is a choice.
#[allow(clippy::too_many_arguments)]
fn grow_run(
    melds: &[WildMeld],
    index: usize,
    below: &[Card],
    above: &[Card],
    laid_below: usize,
    table: u64,
    held: u64,
    jokers: u32,
    growth: &mut Growth,
    visit: &mut dyn FnMut(&Growth),
) {
    // Continue downward.
    if let Some(&card) = below.get(laid_below) {
        for layer in [Layer::Natural, Layer::Joker] {
            if try_lay(card, layer, index, table, held, jokers, growth) {
                // This prefix below, then every prefix above.
                grow_above(melds, index, above, 0, table, held, jokers, growth, visit);
                grow_run(
                    melds,
                    index,
                    below,
                    above,
                    laid_below + 1,
                    table,
                    held,
                    jokers,
                    growth,
                    visit,
                );
                undo(growth, layer);
            }
        }
    }
    if laid_below == 0 {
        // Nothing below: the nonempty prefixes above.
        grow_above_nonempty(melds, index, above, table, held, jokers, growth, visit);
    }
}

/// After a nonempty choice below: every prefix above (the empty one included).
#[allow(clippy::too_many_arguments)]
fn grow_above(
    melds: &[WildMeld],
    index: usize,
    above: &[Card],
    laid_above: usize,
    table: u64,
    held: u64,
    jokers: u32,
    growth: &mut Growth,
    visit: &mut dyn FnMut(&Growth),
) {
    if laid_above == 0 {
        grow(melds, index + 1, table, held, jokers, growth, visit);
    }
    if let Some(&card) = above.get(laid_above) {
        for layer in [Layer::Natural, Layer::Joker] {
            if try_lay(card, layer, index, table, held, jokers, growth) {
                grow(melds, index + 1, table, held, jokers, growth, visit);
                grow_above(
                    melds,
                    index,
                    above,
                    laid_above + 1,
                    table,
                    held,
                    jokers,
                    growth,
                    visit,
                );
                undo(growth, layer);
            }
        }
    }
}

/// Nothing below: every nonempty prefix above.
#[allow(clippy::too_many_arguments)]
fn grow_above_nonempty(
    melds: &[WildMeld],
    index: usize,
    above: &[Card],
    table: u64,
    held: u64,
    jokers: u32,
    growth: &mut Growth,
    visit: &mut dyn FnMut(&Growth),
) {
    let Some(&card) = above.first() else {
        return;
    };
    for layer in [Layer::Natural, Layer::Joker] {
        if try_lay(card, layer, index, table, held, jokers, growth) {
            grow(melds, index + 1, table, held, jokers, growth, visit);
            grow_above(melds, index, above, 1, table, held, jokers, growth, visit);
            undo(growth, layer);
        }
    }
}

/// Lays `card` onto meld `index` by `layer` when it is free on the table and
/// the defender has what it takes; false (nothing changed) otherwise.
fn try_lay(
    card: Card,
    layer: Layer,
    index: usize,
    table: u64,
    held: u64,
    jokers: u32,
    growth: &mut Growth,
) -> bool {
    let bit = CardSet::single(card).bits();
    if (table | growth.claimed) & bit != 0 {
        return false;
    }
    match layer {
        Layer::Natural if held & bit != 0 => growth.naturals |= bit,
        Layer::Joker if growth.jokers < jokers => growth.jokers += 1,
        _ => return false,
    }
    growth.claimed |= bit;
    growth.layoffs.push((index, card, layer));
    true
}

/// Takes back the last layoff.
fn undo(growth: &mut Growth, layer: Layer) {
    if let Some((_, card, _)) = growth.layoffs.pop() {
        let bit = CardSet::single(card).bits();
        growth.claimed &= !bit;
        match layer {
            Layer::Natural => growth.naturals &= !bit,
            Layer::Joker => growth.jokers = growth.jokers.saturating_sub(1),
        }
    }
}
