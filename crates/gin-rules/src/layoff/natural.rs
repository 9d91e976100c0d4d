//! The best reply of a hand without jokers against melds without jokers: the
//! bit-mask twin of the reply search ([`super::best_reply`] chooses it).
//!
//! # The best reply
//!
//! The defender chooses its own melds and its layoffs together: a card may either
//! complete one of its own melds or be laid off, and breaking its own meld to lay
//! off can be right. So the reply is searched, not built greedily:
//!
//! 1. The *candidates* are the defender's cards that any sequence of layoffs could
//!    reach: the missing card of each knocker 3-card set, and the defender's cards
//!    connected to a knocker run through other defender cards of the same suit
//!    (a flood fill on the bit mask).
//! 2. A subset `L` of the candidates can be laid off, in some order, exactly when
//!    every card of `L` that is not a set's missing card is connected to a knocker
//!    run through cards of `L` (cards of `L` can bridge for each other; a
//!    knocker's set card or deadwood never bridges a run).
//! 3. For each such `L`, the defender's deadwood is the minimum deadwood of the
//!    hand without `L` ([`min_deadwood`]); the best reply minimises it, then lays
//!    off fewer cards, then prefers the lower card mask: a fixed order.
//!
//! Bound: a 10-card defender hand has at most 10 candidates, so at most 1024
//! subsets, each a feasibility test of a few shifts plus one solver call.

use super::placement::run_extensions;
use super::reply::{DefenderReply, Layoff};
use crate::card::{CardSet, LANE};
use crate::deadwood::natural::{best_arrangement, min_deadwood};
use crate::hand::HandCard;
use crate::meld::{Meld, MeldKind};

/// The union of the knocker's run cards: the only cards a run layoff can attach to.
fn run_cards_of(melds: &[Meld]) -> u64 {
    melds
        .iter()
        .filter(|m| m.kind() == MeldKind::Run)
        .fold(0, |acc, m| acc | m.cards().bits())
}

/// The missing cards of the knocker's 3-card sets.
fn set_extensions_of(melds: &[Meld]) -> u64 {
    melds
        .iter()
        .filter(|m| m.kind() == MeldKind::Set)
        .fold(0, |acc, m| acc | m.extensions().bits())
}

/// Every card of `through` connected to `start` by a chain of same-suit neighbours
/// inside `start | through`.
fn flood(start: u64, through: u64) -> u64 {
    const DECK: u64 = LANE | LANE << 16 | LANE << 32 | LANE << 48;
    let mut reach = start;
    loop {
        let next = reach | (((reach << 1) | (reach >> 1)) & through & DECK);
        if next == reach {
            return reach & through;
        }
        reach = next;
    }
}

/// Whether the cards `laid` can all be laid off, in some order, onto these melds.
fn can_lay_off(runs: u64, set_extensions: u64, laid: u64) -> bool {
    let on_runs = flood(runs, laid);
    laid & !on_runs & !set_extensions == 0
}

/// Every subset of the defender's cards that can be laid off onto these
/// melds (see the module docs), with the count of the rest, in the search's
/// order (the candidates' submasks downward, the empty subset last); stops
/// when `visit` breaks.
fn each_layoff_subset(
    knocker_melds: &[Meld],
    defender: CardSet,
    mut visit: impl FnMut(u32, u64) -> bool,
) {
    let runs = run_cards_of(knocker_melds);
    let set_extensions = set_extensions_of(knocker_melds);
    let hand = defender.bits();
    let candidates = flood(runs, hand) | (set_extensions & hand);
    let mut subset = candidates;
    loop {
        if can_lay_off(runs, set_extensions, subset) {
            let count = min_deadwood(CardSet::from_bits(hand & !subset));
            if !visit(count, subset) {
                return;
            }
        }
        if subset == 0 {
            return;
        }
        subset = (subset - 1) & candidates;
    }
}

/// The defender's best reply to the knocker's melds (see the module docs).
/// With `layoffs_allowed` false (a gin hand under most profiles) the defender only
/// arranges its own melds.
pub(crate) fn best_reply(
    knocker_melds: &[Meld],
    defender: CardSet,
    layoffs_allowed: bool,
) -> DefenderReply {
    let mut best: Option<(u32, u32, u64)> = None;
    if layoffs_allowed {
        each_layoff_subset(knocker_melds, defender, |count, subset| {
            let key = (count, subset.count_ones(), subset);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
            true
        });
    }
    let laid = CardSet::from_bits(best.map_or(0, |(_, _, subset)| subset));
    DefenderReply {
        arrangement: best_arrangement(defender.difference(laid)),
        layoffs: play_order(knocker_melds, laid),
    }
}

/// The count of [`best_reply`], or `None` as soon as some reply counts less
/// than `floor` (see [`super::best_reply_count_at_least`]).
pub(crate) fn best_reply_count_at_least(
    knocker_melds: &[Meld],
    defender: CardSet,
    layoffs_allowed: bool,
    floor: u32,
) -> Option<u32> {
    if !layoffs_allowed {
        let count = min_deadwood(defender);
        return (count >= floor).then_some(count);
    }
    let mut least = u32::MAX;
    each_layoff_subset(knocker_melds, defender, |count, _| {
        least = least.min(count);
        least >= floor
    });
    (least >= floor).then_some(least)
}

/// The best layoffs of cards the defender's declared melds leave out: every
/// one that can go down (laying off more never raises the count once the
/// defender's own melds are fixed), in [`play_order`].
pub(crate) fn best_layoffs(knocker_melds: &[Meld], unmelded: CardSet) -> Vec<Layoff> {
    let on_runs = flood(run_cards_of(knocker_melds), unmelded.bits());
    let on_sets = set_extensions_of(knocker_melds) & unmelded.bits();
    play_order(knocker_melds, CardSet::from_bits(on_runs | on_sets))
}

/// Orders a feasible set of layoffs so each is legal when played, naming the meld
/// each goes onto: set cards first, then run cards wave by wave outward from the
/// knocker's runs (lowest card first within a wave, onto the first meld it fits).
fn play_order(knocker_melds: &[Meld], laid: CardSet) -> Vec<Layoff> {
    let lay = |card, meld| Layoff {
        card: HandCard::Natural(card),
        meld,
        stands_for: card,
    };
    let mut grown: Vec<CardSet> = knocker_melds.iter().map(|m| m.cards()).collect();
    let on_runs = CardSet::from_bits(flood(run_cards_of(knocker_melds), laid.bits()));
    let mut order = Vec::with_capacity(laid.len());
    for card in laid.difference(on_runs) {
        if let Some(meld) = knocker_melds
            .iter()
            .position(|m| m.kind() == MeldKind::Set && m.extensions().contains(card))
        {
            order.push(lay(card, meld));
        }
    }
    let mut pending = on_runs;
    while !pending.is_empty() {
        let mut progressed = false;
        for card in pending {
            let fits =
                knocker_melds
                    .iter()
                    .zip(grown.iter_mut())
                    .enumerate()
                    .find(|(_, (m, cards))| {
                        m.kind() == MeldKind::Run && run_extensions(**cards).contains(card)
                    });
            if let Some((meld, (_, cards))) = fits {
                cards.insert(card);
                pending.remove(card);
                order.push(lay(card, meld));
                progressed = true;
            }
        }
        if !progressed {
            // Unreachable for a feasible set: every card of `on_runs` is connected.
            break;
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::cards;
    use crate::layoff::{DeclaredLayoff, DeclaredReply, ReplyError};
    use crate::profile::JokerRules;

    fn meld(text: &str) -> Meld {
        Meld::try_from(cards(text).unwrap()).unwrap()
    }

    /// Declared layoffs of natural cards, each onto its meld, checked.
    fn check(
        knocker: &[Meld],
        defender: CardSet,
        layoffs: &[(&str, usize)],
        allowed: bool,
    ) -> Result<DefenderReply, ReplyError> {
        let layoffs = layoffs
            .iter()
            .map(|&(card, meld)| DeclaredLayoff {
                card: card.parse().unwrap(),
                stands_for: None,
                meld: Some(meld),
            })
            .collect();
        let declared = DeclaredReply {
            layoffs: Some(layoffs),
            ..DeclaredReply::default()
        };
        crate::layoff::declared_reply(knocker, defender, &declared, &JokerRules::NONE, allowed)
    }

    fn laid(reply: &DefenderReply) -> Vec<String> {
        reply
            .layoffs
            .iter()
            .map(|l| format!("{}>{}", l.card, l.meld))
            .collect()
    }

    #[test]
    fn a_three_card_set_takes_its_fourth_card() {
        let reply = best_reply(&[meld("9S 9H 9D")], cards("9C KS").unwrap(), true);
        assert_eq!(laid(&reply), ["9C>0"]);
        assert_eq!(reply.deadwood(), 10);
    }

    #[test]
    fn a_four_card_set_takes_no_layoff() {
        let reply = best_reply(
            &[meld("9S 9H 9D 9C"), meld("TH JH QH")],
            cards("KH 5D").unwrap(),
            true,
        );
        assert_eq!(laid(&reply), ["KH>1"]);
        assert!(check(&[meld("9S 9H 9D 9C")], cards("9C").unwrap(), &[], true).is_ok());
    }

    #[test]
    fn chained_layoffs_extend_a_run_at_both_ends() {
        let reply = best_reply(&[meld("5C 6C 7C")], cards("3C 4C 8C 9C KD").unwrap(), true);
        assert_eq!(laid(&reply), ["4C>0", "8C>0", "9C>0", "3C>0"]);
        assert_eq!(reply.deadwood(), 10);
        // With 8-9-T of clubs the defender's own run melds at the same count: the
        // tie goes to the reply with fewer layoffs.
        let reply = best_reply(
            &[meld("5C 6C 7C")],
            cards("3C 4C 8C 9C TC KD").unwrap(),
            true,
        );
        assert_eq!(laid(&reply), ["4C>0", "3C>0"]);
        assert_eq!(reply.deadwood(), 10);
    }

    #[test]
    fn a_chain_needs_every_link() {
        // 8C is missing, so 9C cannot reach the run.
        let reply = best_reply(&[meld("5C 6C 7C")], cards("9C TC 2D").unwrap(), true);
        assert!(reply.layoffs.is_empty());
    }

    #[test]
    fn the_defender_breaks_its_own_run_when_laying_off_saves_more() {
        // Without layoffs 7-8-9C is the best meld (7S 7D KH left: 24). Laying 9C
        // onto the knocker's nines lets 7S 7D 7C meld instead: 8C KH left, 18.
        let reply = best_reply(
            &[meld("9S 9H 9D")],
            cards("7C 8C 9C 7S 7D KH").unwrap(),
            true,
        );
        assert_eq!(laid(&reply), ["9C>0"]);
        assert_eq!(reply.arrangement.melds, [meld("7S 7D 7C")]);
        assert_eq!(reply.deadwood(), 18);
    }

    #[test]
    fn the_defender_keeps_its_own_set_when_that_saves_more() {
        // Keeping 8S 8H 8D leaves 9H (9); laying off 8H 9H leaves 8S 8D (16).
        let reply = best_reply(
            &[meld("5H 6H 7H")],
            cards("8H 8S 8D 9H KC KS").unwrap(),
            true,
        );
        assert!(reply.layoffs.is_empty());
        assert_eq!(reply.deadwood(), 9 + 20);
        assert_eq!(reply.arrangement.melds, [meld("8S 8H 8D")]);
    }

    #[test]
    fn no_layoffs_after_gin_unless_the_profile_allows() {
        let knocker = [meld("5H 6H 7H")];
        let reply = best_reply(&knocker, cards("8H KS").unwrap(), false);
        assert!(reply.layoffs.is_empty());
        assert_eq!(reply.deadwood(), 18);
        let err = check(&knocker, cards("8H").unwrap(), &[("8H", 0)], false).unwrap_err();
        assert_eq!(err, ReplyError::NotAllowedOnGin { index: 0 });
    }

    #[test]
    fn declared_layoffs_are_checked_in_order() {
        let knocker = [meld("3H 4H 5H"), meld("9S 9H 9D")];
        let defender = cards("6H 7H 9C 2C").unwrap();
        let played = check(&knocker, defender, &[("6H", 0), ("7H", 0), ("9C", 1)], true);
        assert!(played.is_ok());
        let out_of_order = check(&knocker, defender, &[("7H", 0), ("6H", 0)], true).unwrap_err();
        assert!(matches!(
            out_of_order,
            ReplyError::DoesNotFit { index: 0, .. }
        ));
        let wrong_rank = check(&knocker, defender, &[("2C", 1)], true).unwrap_err();
        assert!(matches!(
            wrong_rank,
            ReplyError::DoesNotFit { index: 0, .. }
        ));
        let not_held = check(&knocker, defender, &[("8H", 0)], true).unwrap_err();
        assert!(matches!(
            not_held,
            ReplyError::CardNotInHand {
                index: 0,
                melded: false,
                ..
            }
        ));
        let no_meld = check(&knocker, defender, &[("6H", 7)], true).unwrap_err();
        assert_eq!(no_meld, ReplyError::NoSuchMeld { index: 0, meld: 7 });
        let twice = check(&knocker, defender, &[("6H", 0), ("6H", 0)], true).unwrap_err();
        assert!(matches!(twice, ReplyError::AlreadyLaidOff { index: 1, .. }));
    }

    #[test]
    fn a_knocker_set_card_does_not_bridge_a_run() {
        // 6H is in the knocker's set of sixes, not its heart run: 7H cannot follow 5H.
        let knocker = [meld("3H 4H 5H"), meld("6S 6H 6D")];
        let reply = best_reply(&knocker, cards("7H 6C").unwrap(), true);
        assert_eq!(laid(&reply), ["6C>1"]);
        assert_eq!(reply.deadwood(), 7);
    }

    #[test]
    fn a_card_between_two_knocker_runs_fits_either() {
        let knocker = [meld("2D 3D 4D"), meld("6D 7D 8D")];
        let reply = best_reply(&knocker, cards("5D KC").unwrap(), true);
        assert_eq!(laid(&reply), ["5D>0"]);
    }
}
