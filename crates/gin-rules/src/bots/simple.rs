//! `simple`: the EAAI-2021 Gin Rummy challenge's SimpleGinRummyPlayer, the
//! baseline every entry of the challenge was measured against, ported from
//! the description of its policy (its code's licence is not this crate's).
//!
//! # The policy
//!
//! - **The upcard, and the pile's top at a draw**: taken exactly when the
//!   card would be part of a meld of the eleven cards (the hand with it):
//!   two cards of its rank held, or two cards that make a run of three with
//!   it. Otherwise pass (the offer) or draw from the stock.
//! - **The discard**: among the cards held, those the breaker allows, the
//!   ones leaving the least deadwood; a tie is broken by the seed. The card
//!   just taken from the pile is never discarded (the referee does not list
//!   it). *The loop breaker*: a card whose unordered pair with this turn's
//!   drawn card the bot already played this hand (drew the one, discarded
//!   the other) is not discarded; the pairs are read from the seat's own log,
//!   which names its stock draws. Two such bots would otherwise trade the
//!   same two cards through the pile for ever.
//! - **The knock**: after choosing the discard as above, the bot knocks with
//!   it whenever the referee lists that knock (its deadwood within the
//!   limit): at the first chance, with the referee's best arrangement.
//! - **The reply**: the best reply.
//!
//! # Where the port differs, and why
//!
//! - The original knocks only with the discard its rule chose; so does the
//!   port. Where the profile plays big gin (the challenge's rules do not), a
//!   listed big gin is taken: it is the first chance to go out, and worth
//!   more than the gin a discard would make.
//! - When the breaker forbids every discard the original fails (it draws
//!   from an empty list); the port then chooses among every listed discard.
//! - At a 50th-card offer (a rule the challenge does not play) the take is
//!   listed only when a knock can follow: the port takes it and knocks.
//! - With jokers (not in the challenge) a joker is taken when the best
//!   arrangement of the eleven cards melds it.
//! - The original picks one of its best meld sets at random when it knocks;
//!   the port declares none and the referee lays down its best arrangement.

use super::SeatView;
use super::rng::Rng;
use crate::audit::{LegalAction, LegalKind, Move, Source};
use crate::card::{Card, CardSet};
use crate::deadwood::{best_arrangement, min_deadwood};
use crate::hand::{Hand, HandCard};

/// The index of the listed action `simple` plays.
pub(super) fn choose(view: &SeatView, rng: &mut Rng) -> usize {
    let legal = view.legal_actions();
    let find = |kind: LegalKind| legal.iter().position(|a| a.kind == kind);
    let take = find(LegalKind::TakeDiscard);
    if let Some(reply) = find(LegalKind::BestReply).or(find(LegalKind::NoLayoffs)) {
        return reply;
    }
    if let Some(big_gin) = find(LegalKind::BigGin) {
        return big_gin;
    }
    if legal
        .iter()
        .any(|a| a.kind == LegalKind::Discard || a.kind == LegalKind::Knock)
    {
        return discard_or_knock(view, rng);
    }
    let top = view.discard_pile().first().copied();
    let wanted = top.is_some_and(|card| melds_with(view, card));
    // At the 50th-card offer the take is listed only when a knock follows.
    let fiftieth = view.phase() == crate::audit::StatePhase::LastDiscardOffer;
    match take {
        Some(take) if wanted || fiftieth => take,
        _ => find(LegalKind::DrawStock)
            .or(find(LegalKind::Pass))
            .unwrap_or(0),
    }
}

/// Whether `card` would be part of a meld of the hand with it.
pub(crate) fn melds_with(view: &SeatView, card: HandCard) -> bool {
    let hand = view.hand();
    match (card, hand.joker_free()) {
        (HandCard::Natural(card), Some(cards)) => in_some_meld(cards, card),
        _ => {
            let rules = view.profile().joker_rules();
            !best_arrangement(hand.with(card), &rules)
                .unmelded()
                .any(|left| left == card)
        }
    }
}

/// Whether `card` is in some meld of `hand` with `card`: a set (two more
/// of its rank) or a run of three holding it.
pub(crate) fn in_some_meld(hand: CardSet, card: Card) -> bool {
    let hand = hand.union(CardSet::single(card)).bits();
    if ((hand >> (card.bit_index() % 16)) & 0x0001_0001_0001_0001).count_ones() >= 3 {
        return true;
    }
    // Ranks are 16-bit lanes with their top three bits always clear, so a
    // shift never carries a card into a neighbouring suit's run.
    let bit = 1u64 << card.bit_index();
    let below = |n: u32| (bit >> n) & hand != 0;
    let above = |n: u32| (bit << n) & hand != 0;
    (below(1) && below(2)) || (below(1) && above(1)) || (above(1) && above(2))
}

/// The discard (or the knock with it) after the draw.
fn discard_or_knock(view: &SeatView, rng: &mut Rng) -> usize {
    let legal = view.legal_actions();
    let discards: Vec<(usize, HandCard)> = legal
        .iter()
        .enumerate()
        .filter_map(|(index, action)| match (action.kind, &action.action.play) {
            (LegalKind::Discard, Move::Discard { card }) => Some((index, *card)),
            _ => None,
        })
        .collect();
    let card = match discards.is_empty() {
        // After a 50th-card take only knocks are listed: the knock card is
        // chosen by the same rule among them.
        true => knocks(legal).collect(),
        false => discards.iter().map(|&(_, card)| card).collect(),
    };
    let card = pick_discard(view, card, rng);
    if let Some(knock) = card.and_then(|card| knock_index(legal, card)) {
        return knock;
    }
    discards
        .iter()
        .find(|&&(_, discarded)| Some(discarded) == card)
        .map(|&(index, _)| index)
        .unwrap_or(0)
}

fn knocks(legal: &[LegalAction]) -> impl Iterator<Item = HandCard> + '_ {
    legal.iter().filter_map(|action| match &action.action.play {
        Move::Knock {
            discard: Some(card),
            ..
        } if action.kind == LegalKind::Knock => Some(*card),
        _ => None,
    })
}

fn knock_index(legal: &[LegalAction], card: HandCard) -> Option<usize> {
    legal.iter().position(|action| {
        action.kind == LegalKind::Knock
            && matches!(&action.action.play, Move::Knock { discard: Some(c), .. } if *c == card)
    })
}

/// The discard among `candidates`: the breaker's allowed cards leaving the
/// least deadwood, a tie broken by `rng` (every candidate when the breaker
/// allows none).
fn pick_discard(view: &SeatView, candidates: Vec<HandCard>, rng: &mut Rng) -> Option<HandCard> {
    let (drawn, played) = breaker(view);
    let allowed: Vec<HandCard> = candidates
        .iter()
        .copied()
        .filter(|&card| drawn.is_none_or(|drawn| !played.contains(&pair(drawn, card))))
        .collect();
    let pool = if allowed.is_empty() {
        candidates
    } else {
        allowed
    };
    let rules = view.profile().joker_rules();
    let hand: Hand = view.hand();
    let counted: Vec<(HandCard, u32)> = pool
        .into_iter()
        .map(|card| (card, min_deadwood(hand.without(card), &rules)))
        .collect();
    let least = counted.iter().map(|&(_, count)| count).min()?;
    let best: Vec<HandCard> = counted
        .into_iter()
        .filter(|&(_, count)| count == least)
        .map(|(card, _)| card)
        .collect();
    best.get(rng.below(best.len())).copied()
}

/// An unordered pair of cards (one card twice: the card alone) as a mask.
pub(crate) fn pair(a: HandCard, b: HandCard) -> u128 {
    (1u128 << code(a)) | (1u128 << code(b))
}

fn code(card: HandCard) -> u32 {
    match card {
        HandCard::Natural(card) => card.bit_index(),
        HandCard::Joker(joker) => 64 + u32::from(joker.number()),
    }
}

/// This turn's drawn card, and the (drawn, discarded) pairs of the seat's
/// earlier turns this hand, read from its own log (the pile rebuilt from
/// the first upcard, since a recorded take may not name its card).
pub(crate) fn breaker(view: &SeatView) -> (Option<HandCard>, Vec<u128>) {
    let me = view.seat();
    let mut pile = vec![view.upcard()];
    let mut drawn: Option<HandCard> = None;
    let mut played = Vec::new();
    for action in view.log() {
        let mine = action.player == me;
        match &action.play {
            Move::Draw { from, card } => {
                let card = match from {
                    Source::DiscardPile => pile.pop().or(*card),
                    Source::Stock => *card,
                };
                if mine {
                    drawn = card;
                }
            }
            Move::Discard { card }
            | Move::Knock {
                discard: Some(card),
                ..
            } => {
                pile.push(*card);
                if mine && let Some(drawn) = drawn.take() {
                    played.push(pair(drawn, *card));
                }
            }
            Move::Pass | Move::Knock { .. } | Move::LayOff { .. } => {}
        }
    }
    (drawn, played)
}
