//! Every arrangement of the knocker's hand within the knock limit.

use crate::card::CardSet;
use crate::deadwood::Arrangement;
use crate::deadwood::natural::melds_within;
use crate::hand::{Hand, Jokers};
use crate::meld::{Meld, has_touching_runs};

/// Every arrangement of the knocker's hand with deadwood within `limit`, in the
/// fixed order described in the module docs.
///
/// Bound: eleven cards hold at most three disjoint melds, chosen among the
/// melds within the hand (at most 45 runs in one suit and a few sets), so at
/// most tens of thousands of collections are tried, most pruned early; real
/// hands list a handful. A hand of more than [`Hand::MAX_CARDS`] cards lists
/// nothing.
pub(crate) fn within_limit(hand: CardSet, limit: u32) -> Vec<Arrangement> {
    if hand.len() > Hand::MAX_CARDS {
        return Vec::new();
    }
    let melds = melds_within(hand);
    let mut found = Vec::new();
    let mut chosen = Vec::new();
    collect_arrangements(hand, &melds, CardSet::EMPTY, &mut chosen, limit, &mut found);
    found
}

fn collect_arrangements(
    hand: CardSet,
    remaining: &[Meld],
    used: CardSet,
    chosen: &mut Vec<Meld>,
    limit: u32,
    found: &mut Vec<Arrangement>,
) {
    // Even melding every remaining card could not reach the limit: prune.
    let rest = hand.difference(used);
    let meldable = remaining
        .iter()
        .fold(CardSet::EMPTY, |acc, m| acc.union(m.cards()));
    if rest.difference(meldable).value() > limit {
        return;
    }
    if rest.value() <= limit && !has_touching_runs(chosen.iter().copied()) {
        found.push(Arrangement {
            melds: chosen.clone(),
            deadwood_cards: rest,
            deadwood_jokers: Jokers::NONE,
            deadwood: rest.value(),
        });
    }
    let mut next = remaining;
    while let Some((meld, later)) = next.split_first() {
        if meld.cards().is_disjoint(used) {
            chosen.push(*meld);
            collect_arrangements(hand, later, used.union(meld.cards()), chosen, limit, found);
            chosen.pop();
        }
        next = later;
    }
}
