//! The reply search with jokers: the defender's best reply to a knocker whose
//! melds may hold jokers, with jokers of its own ([`super::best_reply`]
//! chooses it; a joker-free reply takes the bit-mask twin in `natural.rs`).
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
//! meld showing a card on the table ([`crate::deadwood::jokers::min_deadwood_avoiding`]).
//! It keeps the least count, then the fewest layoffs, then the first in that
//! order (melds in the knocker's order; for each, no layoff first, naturals
//! before jokers, runs grown downward before upward).

use std::ops::ControlFlow;

use crate::card::{Card, CardSet};
use crate::meld::{Meld, MeldKind};
use crate::profile::JokerRules;

use super::placement::extends;
use super::reply::{DefenderReply, Layoff};
use crate::deadwood::jokers::{best_arrangement_avoiding, min_deadwood_avoiding};
use crate::hand::{Hand, HandCard, Joker};

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
/// use gin_rules::{best_reply, parse_hand, cards, Card, Joker, JokerRules, Meld};
/// let rules = JokerRules::TWO_JOKERS;
/// let six: Card = "6H".parse()?;
/// // The knocker's X1 stands for 6H: the run is 5H 6H 7H, and takes 4H and 8H.
/// let run = Meld::with_jokers(cards("5H 7H")?, &[(Joker::X1, six)], &rules)?;
/// let reply = best_reply(&[run], parse_hand("8H 9H KS KD X2")?, &rules, true);
/// let laid: Vec<String> = reply.layoffs.iter().map(|l| l.card.to_string()).collect();
/// // 8H and 9H go onto the run; X2 makes a set of the kings (KS KD X2).
/// assert_eq!(laid, ["8H", "9H"]);
/// assert_eq!(reply.deadwood(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub(crate) fn best_reply(
    knocker_melds: &[Meld],
    defender: Hand,
    rules: &JokerRules,
    layoffs_allowed: bool,
) -> DefenderReply {
    let table = shown_by(knocker_melds);
    let jokers_to_lay = if layoffs_allowed {
        layable_jokers(defender, rules)
    } else {
        0
    };
    let growth = if layoffs_allowed {
        best_growth(
            knocker_melds,
            table,
            defender,
            jokers_to_lay,
            |rest, growth| {
                let blocked = table.union(CardSet::from_bits(growth.claimed));
                min_deadwood_avoiding(rest, rules, blocked)
            },
        )
    } else {
        Growth::default()
    };
    let rest = rest_of(defender, &growth);
    let blocked = table.union(CardSet::from_bits(growth.claimed));
    let arrangement = best_arrangement_avoiding(rest, rules, blocked);
    let layoffs = layoffs_of(defender, &growth);
    DefenderReply {
        arrangement,
        layoffs,
    }
}

/// The defender's count after its best reply, as [`best_reply`] finds
/// it, or `None` as soon as some reply is found to count less than `floor`:
/// a caller that only needs to know whether the best reply leaves at least
/// `floor` (the knocker's choice of arrangement) stops at the first reply
/// that proves it does not.
pub(crate) fn best_reply_count_at_least(
    knocker_melds: &[Meld],
    defender: Hand,
    rules: &JokerRules,
    layoffs_allowed: bool,
    floor: u32,
) -> Option<u32> {
    let table = shown_by(knocker_melds);
    if !layoffs_allowed {
        let count = min_deadwood_avoiding(defender, rules, table);
        return (count >= floor).then_some(count);
    }
    let jokers_to_lay = layable_jokers(defender, rules);
    let mut least = u32::MAX;
    let flow = every_growth(
        knocker_melds,
        table,
        defender,
        jokers_to_lay,
        &mut |growth| {
            let rest = rest_of(defender, growth);
            let blocked = table.union(CardSet::from_bits(growth.claimed));
            least = least.min(min_deadwood_avoiding(rest, rules, blocked));
            if least < floor {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    );
    flow.is_continue().then_some(least)
}

/// Tries every growth of the knocker's melds (the table showing `table`) by
/// the cards of `hand`, laying at most `jokers_to_lay` jokers, calling
/// `visit` with each until it breaks.
fn every_growth(
    knocker_melds: &[Meld],
    table: CardSet,
    hand: Hand,
    jokers_to_lay: u32,
    visit: &mut dyn FnMut(&Growth) -> ControlFlow<()>,
) -> ControlFlow<()> {
    grow(
        knocker_melds,
        0,
        table.bits(),
        hand.naturals().bits(),
        jokers_to_lay,
        &mut Growth::default(),
        visit,
    )
}

/// Every card the melds show.
pub(super) fn shown_by(melds: &[Meld]) -> CardSet {
    melds
        .iter()
        .fold(CardSet::EMPTY, |acc, m| acc.union(m.cards()))
}

/// The jokers of `hand` the rules let the defender lay off.
fn layable_jokers(hand: Hand, rules: &JokerRules) -> u32 {
    if rules.joker_layoff() {
        u32::from(hand.joker_count())
    } else {
        0
    }
}

/// The defender's hand less what `growth` lays off (jokers laid `X1` first).
fn rest_of(defender: Hand, growth: &Growth) -> Hand {
    let naturals = defender
        .naturals()
        .difference(CardSet::from_bits(growth.naturals));
    let kept: Vec<Joker> = defender
        .jokers()
        .skip(usize::try_from(growth.jokers).unwrap_or(usize::MAX))
        .collect();
    Hand::new(naturals, &kept)
}

/// Tries every growth of the melds from `index` on, calling `visit` with each
/// complete choice.
fn grow(
    melds: &[Meld],
    index: usize,
    table: u64,
    held: u64,
    jokers: u32,
    growth: &mut Growth,
    visit: &mut dyn FnMut(&Growth) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let Some(meld) = melds.get(index) else {
        return visit(growth);
    };
    // No layoff on this meld.
    grow(melds, index + 1, table, held, jokers, growth, visit)?;
    match meld.kind() {
        MeldKind::Set => {
            let Some(rank) = meld.cards().iter().next().map(Card::rank) else {
                return ControlFlow::Continue(());
            };
            // A set takes one card at most (its missing suit, if it has
            // three), so the set as laid down is the set it grows from.
            for card in CardSet::FULL_DECK.of_rank(rank).difference(meld.cards()) {
                if extends(meld, meld.cards(), CardSet::EMPTY, card).is_err() {
                    continue;
                }
                for layer in [Layer::Natural, Layer::Joker] {
                    if try_lay(card, layer, index, table, held, jokers, growth) {
                        grow(melds, index + 1, table, held, jokers, growth, visit)?;
                        undo(growth, layer);
                    }
                }
            }
            ControlFlow::Continue(())
        }
        MeldKind::Run => {
            // What a run takes, card after card ([`extends`] applied outward
            // from each end): each side's cards in order, up to the lane's end.
            let (below, above) = outward(meld.cards());
            grow_run(
                melds, index, &below, &above, 0, table, held, jokers, growth, visit,
            )
        }
    }
}

/// Grows a run by the cards of `below` (outward), then of `above`, each laid
/// by a natural or a joker; every prefix of each side is a choice.
#[allow(clippy::too_many_arguments)]
fn grow_run(
    melds: &[Meld],
    index: usize,
    below: &[Card],
    above: &[Card],
    laid_below: usize,
    table: u64,
    held: u64,
    jokers: u32,
    growth: &mut Growth,
    visit: &mut dyn FnMut(&Growth) -> ControlFlow<()>,
) -> ControlFlow<()> {
    // Continue downward.
    if let Some(&card) = below.get(laid_below) {
        for layer in [Layer::Natural, Layer::Joker] {
            if try_lay(card, layer, index, table, held, jokers, growth) {
                // This prefix below, then every prefix above.
                grow_above(
                    melds, index, above, 0, true, table, held, jokers, growth, visit,
                )?;
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
                )?;
                undo(growth, layer);
            }
        }
    }
    if laid_below == 0 {
        // Nothing below: the nonempty prefixes above (the empty one is the
        // "no layoff on this meld" choice, already tried).
        grow_above(
            melds, index, above, 0, false, table, held, jokers, growth, visit,
        )?;
    }
    ControlFlow::Continue(())
}

/// Every prefix of `above` from `laid_above` on; the empty one (nothing more
/// above) only when `empty` says it is a new choice.
#[allow(clippy::too_many_arguments)]
fn grow_above(
    melds: &[Meld],
    index: usize,
    above: &[Card],
    laid_above: usize,
    empty: bool,
    table: u64,
    held: u64,
    jokers: u32,
    growth: &mut Growth,
    visit: &mut dyn FnMut(&Growth) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if empty {
        grow(melds, index + 1, table, held, jokers, growth, visit)?;
    }
    let Some(&card) = above.get(laid_above) else {
        return ControlFlow::Continue(());
    };
    for layer in [Layer::Natural, Layer::Joker] {
        if try_lay(card, layer, index, table, held, jokers, growth) {
            grow_above(
                melds,
                index,
                above,
                laid_above + 1,
                true,
                table,
                held,
                jokers,
                growth,
                visit,
            )?;
            undo(growth, layer);
        }
    }
    ControlFlow::Continue(())
}

/// Lays `card` onto meld `index` by `layer` when it is free on the table and
/// the defender has what it takes; false (nothing changed) otherwise. The
/// callers offer only cards that extend the meld ([`extends`] for a set, the
/// run's outward cards for a run), so that the search's inner step stays a
/// few bit operations.
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

/// The layoffs `growth` plays, in its order, jokers laid `X1` first.
fn layoffs_of(defender: Hand, growth: &Growth) -> Vec<Layoff> {
    let mut jokers = defender.jokers();
    growth
        .layoffs
        .iter()
        .map(|&(meld, stands_for, layer)| Layoff {
            card: match layer {
                Layer::Natural => HandCard::Natural(stands_for),
                Layer::Joker => jokers
                    .next()
                    .map_or(HandCard::Natural(stands_for), HandCard::Joker),
            },
            meld,
            stands_for,
        })
        .collect()
}

/// The best layoffs of cards no meld of the defender holds (its melds are
/// declared): the least count of what is left, then the fewest layoffs.
pub(super) fn best_layoffs(
    knocker_melds: &[Meld],
    unmelded: Hand,
    blocked: CardSet,
    rules: &JokerRules,
) -> Vec<Layoff> {
    let jokers_to_lay = layable_jokers(unmelded, rules);
    let growth = best_growth(
        knocker_melds,
        blocked,
        unmelded,
        jokers_to_lay,
        |rest, _| {
            rest.naturals().value()
                + u32::from(rest.joker_count()) * u32::from(rules.joker_deadwood())
        },
    );
    layoffs_of(unmelded, &growth)
}

/// The growth of the knocker's melds (the table showing `table`) by the
/// cards of `hand` that leaves the least `count` of what is left, then the
/// fewest layoffs; the first such in the search order (no layoff first).
fn best_growth(
    knocker_melds: &[Meld],
    table: CardSet,
    hand: Hand,
    jokers_to_lay: u32,
    count: impl Fn(Hand, &Growth) -> u32,
) -> Growth {
    let mut best: Option<(u32, usize, Growth)> = None;
    // The visit never stops early: every growth is tried.
    let _every_growth = every_growth(knocker_melds, table, hand, jokers_to_lay, &mut |growth| {
        let key = (count(rest_of(hand, growth), growth), growth.layoffs.len());
        if best.as_ref().is_none_or(|(c, n, _)| key < (*c, *n)) {
            best = Some((key.0, key.1, growth.clone()));
        }
        ControlFlow::Continue(())
    });
    best.map(|(_, _, growth)| growth).unwrap_or_default()
}

#[cfg(test)]
mod tests;
