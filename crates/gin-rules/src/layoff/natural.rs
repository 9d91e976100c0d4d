//! The best reply of a hand without jokers against melds without jokers: the
//! fast path of [`super::best_reply`], on bit masks.
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

use super::reply::ReplyError;
use crate::card::{Card, CardSet, LANE};
use crate::deadwood::natural::{best_arrangement, min_deadwood};
use crate::hand::Jokers;
use crate::meld::{Meld, MeldKind};

/// One card laid off onto a knocker's meld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Layoff {
    /// The defender's card laid off.
    pub card: Card,
    /// Index into the knocker's melds.
    pub meld: usize,
}

/// The defender's side of a knock: its melds, its layoffs in the order played, and
/// what is left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DefenderReply {
    /// The defender's own melds.
    pub melds: Vec<Meld>,
    /// Layoffs in the order played; `meld` indexes the knocker's melds.
    pub layoffs: Vec<Layoff>,
    /// The cards neither melded nor laid off.
    pub deadwood_cards: CardSet,
    /// The defender's count after layoffs.
    pub deadwood: u32,
}

impl From<DefenderReply> for super::reply::DefenderReply {
    /// The general reply: the natural cards' own layoffs (each stands for
    /// itself) and an arrangement with no joker.
    fn from(reply: DefenderReply) -> super::reply::DefenderReply {
        super::reply::DefenderReply {
            arrangement: crate::deadwood::Arrangement {
                melds: reply.melds,
                deadwood_cards: reply.deadwood_cards,
                deadwood_jokers: Jokers::NONE,
                deadwood: reply.deadwood,
            },
            layoffs: reply
                .layoffs
                .into_iter()
                .map(super::reply::Layoff::from)
                .collect(),
        }
    }
}

impl From<Layoff> for super::reply::Layoff {
    fn from(layoff: Layoff) -> super::reply::Layoff {
        super::reply::Layoff {
            card: layoff.card.into(),
            meld: layoff.meld,
            stands_for: layoff.card,
        }
    }
}

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

/// The defender's best reply to the knocker's melds (see the module docs).
/// With `layoffs_allowed` false (a gin hand under most profiles) the defender only
/// arranges its own melds.
pub(crate) fn best_reply(
    knocker_melds: &[Meld],
    defender: CardSet,
    layoffs_allowed: bool,
) -> DefenderReply {
    if !layoffs_allowed {
        return reply_with(knocker_melds, defender, CardSet::EMPTY);
    }
    let runs = run_cards_of(knocker_melds);
    let set_extensions = set_extensions_of(knocker_melds);
    let hand = defender.bits();
    let candidates = flood(runs, hand) | (set_extensions & hand);

    // Enumerate subsets of the candidates (Gosper-free: walk submasks downward).
    let mut best: Option<(u32, u32, u64)> = None;
    let mut subset = candidates;
    loop {
        if can_lay_off(runs, set_extensions, subset) {
            let count = min_deadwood(CardSet::from_bits(hand & !subset));
            let key = (count, subset.count_ones(), subset);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
        if subset == 0 {
            break;
        }
        subset = (subset - 1) & candidates;
    }
    let laid = best.map_or(0, |(_, _, subset)| subset);
    reply_with(knocker_melds, defender, CardSet::from_bits(laid))
}

/// The reply that lays off exactly `laid` (known to be feasible) and arranges the
/// rest optimally.
fn reply_with(knocker_melds: &[Meld], defender: CardSet, laid: CardSet) -> DefenderReply {
    let layoffs = play_order(knocker_melds, laid);
    let arrangement = best_arrangement(defender.difference(laid));
    DefenderReply {
        melds: arrangement.melds,
        layoffs,
        deadwood_cards: arrangement.deadwood_cards,
        deadwood: arrangement.deadwood,
    }
}

/// Orders a feasible set of layoffs so each is legal when played, naming the meld
/// each goes onto: set cards first, then run cards wave by wave outward from the
/// knocker's runs (lowest card first within a wave, onto the first meld it fits).
fn play_order(knocker_melds: &[Meld], laid: CardSet) -> Vec<Layoff> {
    let mut grown: Vec<CardSet> = knocker_melds.iter().map(|m| m.cards()).collect();
    let on_runs = CardSet::from_bits(flood(run_cards_of(knocker_melds), laid.bits()));
    let mut order = Vec::with_capacity(laid.len());
    for card in laid.difference(on_runs) {
        if let Some(meld) = knocker_melds
            .iter()
            .position(|m| m.kind() == MeldKind::Set && m.extensions().contains(card))
        {
            order.push(Layoff { card, meld });
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
                order.push(Layoff { card, meld });
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

/// The cards just beyond either end of a run's current cards.
fn run_extensions(run: CardSet) -> CardSet {
    let bits = run.bits();
    let lanes = (0..4).fold(0u64, |acc, s| {
        if bits >> (s * 16) & LANE != 0 {
            acc | LANE << (s * 16)
        } else {
            acc
        }
    });
    CardSet::from_bits(((bits << 1) | (bits >> 1)) & lanes & !bits)
}

/// Plays declared layoffs in order, checking each against the knocker's melds as
/// they grow. Returns the cards laid off.
pub(crate) fn check_layoffs(
    knocker_melds: &[Meld],
    defender: CardSet,
    layoffs: &[Layoff],
    layoffs_allowed: bool,
) -> Result<CardSet, ReplyError> {
    if !layoffs_allowed && !layoffs.is_empty() {
        return Err(ReplyError::NotAllowedOnGin { index: 0 });
    }
    let mut grown: Vec<CardSet> = knocker_melds.iter().map(|m| m.cards()).collect();
    let mut laid = CardSet::EMPTY;
    for (index, &Layoff { card, meld }) in layoffs.iter().enumerate() {
        if !defender.contains(card) {
            return Err(ReplyError::CardNotHeld {
                index,
                card: card.into(),
            });
        }
        if laid.contains(card) {
            return Err(ReplyError::AlreadyLaidOff {
                index,
                card: card.into(),
            });
        }
        let (Some(target), Some(cards)) = (knocker_melds.get(meld), grown.get_mut(meld)) else {
            return Err(ReplyError::NoSuchMeld { index, meld });
        };
        if let Err(reason) = fit(target.kind(), *cards, card) {
            return Err(ReplyError::DoesNotFit {
                index,
                card: card.into(),
                stands_for: card,
                meld,
                reason,
            });
        }
        cards.insert(card);
        laid.insert(card);
    }
    Ok(laid)
}

/// Most layoffs one recorded reply may place: a defender holds at most ten
/// cards, so a longer list repeats a card and is refused as it stands.
const MAX_PLACED: usize = 10;

/// Places layoffs whose target meld a record leaves open: `requests` pairs each
/// card with the knocker melds it may go onto (one index when the record names
/// the meld). Returns the layoffs in a legal playing order, each onto one of its
/// candidates, such that every knocker meld with its layoffs is still a meld;
/// `None` when no placement is legal (or the list cannot be one: longer than a
/// hand, a card twice, an index past the melds), so that the caller checks the
/// layoffs as recorded and reports the precise fault.
///
/// Which cards a meld ends up with decides legality, not the order they are
/// played in (a run grows outward either way), so the search is over
/// assignments: depth first, candidates in index order, the first legal one
/// wins, which makes the placement deterministic. Bound: at most ten cards,
/// each with at most one set and one run of its own suit to go to (two melds
/// of one suit cannot both be extended by it unless both are runs), so at
/// most a few thousand partial assignments.
pub(crate) fn place_layoffs(
    knocker_melds: &[Meld],
    requests: &[(Card, Vec<usize>)],
) -> Option<Vec<Layoff>> {
    if requests.len() > MAX_PLACED {
        return None;
    }
    let mut cards = CardSet::EMPTY;
    for (card, candidates) in requests {
        if !cards.insert(*card) || candidates.iter().any(|&m| m >= knocker_melds.len()) {
            return None;
        }
    }
    let mut assigned = vec![CardSet::EMPTY; knocker_melds.len()];
    if !assign(knocker_melds, requests, &mut assigned) {
        return None;
    }
    placement_order(knocker_melds, &assigned)
}

/// The layoffs as recorded, in order, each onto the first of its candidate
/// melds that takes it as the melds stand by then (else its first candidate):
/// for a record no placement makes legal, so that [`check_layoffs`] reports
/// the first layoff that cannot be played, at its place in the record.
pub(crate) fn greedy_layoffs(
    knocker_melds: &[Meld],
    requests: &[(Card, Vec<usize>)],
) -> Vec<Layoff> {
    let mut grown: Vec<CardSet> = knocker_melds.iter().map(|m| m.cards()).collect();
    requests
        .iter()
        .map(|(card, candidates)| {
            let takes = |&meld: &usize| {
                let (Some(target), Some(cards)) = (knocker_melds.get(meld), grown.get(meld)) else {
                    return false;
                };
                fit(target.kind(), *cards, *card).is_ok()
            };
            let meld = candidates
                .iter()
                .copied()
                .find(takes)
                .or_else(|| candidates.first().copied())
                .unwrap_or_default();
            if let Some(cards) = grown.get_mut(meld) {
                cards.insert(*card);
            }
            Layoff { card: *card, meld }
        })
        .collect()
}

/// Whether `card` extends a meld of this kind whose cards are now `cards`;
/// else why not. The one rule of what a meld takes: the joker layoffs
/// ([`super::jokers`]) apply it to the cards a meld shows.
pub(crate) fn fit(kind: MeldKind, cards: CardSet, card: Card) -> Result<(), &'static str> {
    match kind {
        MeldKind::Set if cards.len() >= 4 => Err("a set of four takes nothing more"),
        MeldKind::Set if cards.of_rank(card.rank()).len() == cards.len() => Ok(()),
        MeldKind::Set => Err("a set takes only its own rank"),
        MeldKind::Run if run_extensions(cards).contains(card) => Ok(()),
        MeldKind::Run => Err("a run takes only the next card of its suit at either end"),
    }
}

/// Depth-first assignment of `requests` to melds (see [`place_layoffs`]).
fn assign(melds: &[Meld], requests: &[(Card, Vec<usize>)], assigned: &mut [CardSet]) -> bool {
    let Some(((card, candidates), rest)) = requests.split_first() else {
        return placement_order(melds, assigned).is_some();
    };
    for &index in candidates {
        let (Some(meld), Some(laid)) = (melds.get(index), assigned.get(index).copied()) else {
            continue;
        };
        let fits = match meld.kind() {
            MeldKind::Set => meld.cards().union(laid).len() < 4 && meld.low_rank() == card.rank(),
            MeldKind::Run => meld.suit() == Some(card.suit()),
        };
        if !fits {
            continue;
        }
        if let Some(slot) = assigned.get_mut(index) {
            slot.insert(*card);
        }
        if assign(melds, rest, assigned) {
            return true;
        }
        if let Some(slot) = assigned.get_mut(index) {
            slot.remove(*card);
        }
    }
    false
}

/// The layoffs of an assignment in a playing order: set cards first, then run
/// cards wave by wave outward; `None` when a run's cards do not all connect.
fn placement_order(melds: &[Meld], assigned: &[CardSet]) -> Option<Vec<Layoff>> {
    let mut order = Vec::new();
    for (meld, (knocker, laid)) in melds.iter().zip(assigned).enumerate() {
        match knocker.kind() {
            MeldKind::Set => order.extend(laid.iter().map(|card| Layoff { card, meld })),
            MeldKind::Run => {
                let mut grown = knocker.cards();
                let mut pending = *laid;
                while !pending.is_empty() {
                    let wave = pending.intersection(run_extensions(grown));
                    if wave.is_empty() {
                        return None;
                    }
                    for card in wave {
                        order.push(Layoff { card, meld });
                        grown.insert(card);
                        pending.remove(card);
                    }
                }
            }
        }
    }
    Some(order)
}

/// Every card of `deadwood` that could still be laid off once `laid` is down:
/// used when the defender declares its melds but not its layoffs, so that every
/// card left over that fits goes down (laying off more never hurts once the
/// defender's own melds are fixed).
pub(crate) fn all_feasible_layoffs(knocker_melds: &[Meld], deadwood: CardSet) -> CardSet {
    let runs = run_cards_of(knocker_melds);
    let on_runs = flood(runs, deadwood.bits());
    CardSet::from_bits(on_runs | (set_extensions_of(knocker_melds) & deadwood.bits()))
}

/// The reply for a defender whose melds (and maybe layoffs) are fixed.
pub(crate) fn fixed_reply(
    knocker_melds: &[Meld],
    defender_melds: Vec<Meld>,
    laid: CardSet,
    rest: CardSet,
) -> DefenderReply {
    DefenderReply {
        melds: defender_melds,
        layoffs: play_order(knocker_melds, laid),
        deadwood_cards: rest,
        deadwood: rest.value(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::cards;

    fn meld(text: &str) -> Meld {
        Meld::try_from(cards(text).unwrap()).unwrap()
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
        assert_eq!(reply.deadwood, 10);
    }

    #[test]
    fn a_four_card_set_takes_no_layoff() {
        let reply = best_reply(
            &[meld("9S 9H 9D 9C"), meld("TH JH QH")],
            cards("KH 5D").unwrap(),
            true,
        );
        assert_eq!(laid(&reply), ["KH>1"]);
        assert!(check_layoffs(&[meld("9S 9H 9D 9C")], cards("9C").unwrap(), &[], true).is_ok());
    }

    #[test]
    fn chained_layoffs_extend_a_run_at_both_ends() {
        let reply = best_reply(&[meld("5C 6C 7C")], cards("3C 4C 8C 9C KD").unwrap(), true);
        assert_eq!(laid(&reply), ["4C>0", "8C>0", "9C>0", "3C>0"]);
        assert_eq!(reply.deadwood, 10);
        // With 8-9-T of clubs the defender's own run melds at the same count: the
        // tie goes to the reply with fewer layoffs.
        let reply = best_reply(
            &[meld("5C 6C 7C")],
            cards("3C 4C 8C 9C TC KD").unwrap(),
            true,
        );
        assert_eq!(laid(&reply), ["4C>0", "3C>0"]);
        assert_eq!(reply.deadwood, 10);
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
        assert_eq!(reply.melds, [meld("7S 7D 7C")]);
        assert_eq!(reply.deadwood, 18);
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
        assert_eq!(reply.deadwood, 9 + 20);
        assert_eq!(reply.melds, [meld("8S 8H 8D")]);
    }

    #[test]
    fn no_layoffs_after_gin_unless_the_profile_allows() {
        let knocker = [meld("5H 6H 7H")];
        let reply = best_reply(&knocker, cards("8H KS").unwrap(), false);
        assert!(reply.layoffs.is_empty());
        assert_eq!(reply.deadwood, 18);
        let err = check_layoffs(
            &knocker,
            cards("8H").unwrap(),
            &[Layoff {
                card: "8H".parse().unwrap(),
                meld: 0,
            }],
            false,
        )
        .unwrap_err();
        assert_eq!(err.code(), "layoffs_not_allowed");
    }

    #[test]
    fn declared_layoffs_are_checked_in_order() {
        let knocker = [meld("3H 4H 5H"), meld("9S 9H 9D")];
        let defender = cards("6H 7H 9C 2C").unwrap();
        let layoff = |c: &str, meld| Layoff {
            card: c.parse().unwrap(),
            meld,
        };
        assert!(
            check_layoffs(
                &knocker,
                defender,
                &[layoff("6H", 0), layoff("7H", 0), layoff("9C", 1)],
                true
            )
            .is_ok()
        );
        let out_of_order = check_layoffs(
            &knocker,
            defender,
            &[layoff("7H", 0), layoff("6H", 0)],
            true,
        )
        .unwrap_err();
        assert_eq!(
            (out_of_order.code(), out_of_order.index()),
            ("layoff_does_not_fit", Some(0))
        );
        assert_eq!(
            check_layoffs(&knocker, defender, &[layoff("2C", 1)], true)
                .unwrap_err()
                .code(),
            "layoff_does_not_fit"
        );
        assert_eq!(
            check_layoffs(&knocker, defender, &[layoff("8H", 0)], true)
                .unwrap_err()
                .code(),
            "layoff_card_not_in_hand"
        );
        assert_eq!(
            check_layoffs(&knocker, defender, &[layoff("6H", 7)], true)
                .unwrap_err()
                .code(),
            "layoff_meld_not_found"
        );
        assert_eq!(
            check_layoffs(
                &knocker,
                defender,
                &[layoff("6H", 0), layoff("6H", 0)],
                true
            )
            .unwrap_err()
            .code(),
            "layoff_card_repeated"
        );
    }

    #[test]
    fn a_knocker_set_card_does_not_bridge_a_run() {
        // 6H is in the knocker's set of sixes, not its heart run: 7H cannot follow 5H.
        let knocker = [meld("3H 4H 5H"), meld("6S 6H 6D")];
        let reply = best_reply(&knocker, cards("7H 6C").unwrap(), true);
        assert_eq!(laid(&reply), ["6C>1"]);
        assert_eq!(reply.deadwood, 7);
    }

    #[test]
    fn a_card_between_two_knocker_runs_fits_either() {
        let knocker = [meld("2D 3D 4D"), meld("6D 7D 8D")];
        let reply = best_reply(&knocker, cards("5D KC").unwrap(), true);
        assert_eq!(laid(&reply), ["5D>0"]);
    }
}
