//! Dealing again what the seat cannot place, from the view alone.
//!
//! The unseen cards ([`SeatView::unseen`]) are split into the opponent's
//! unseen cards and the stock, uniformly, then weighed against what the
//! opponent let go: a player takes a card that melds, and discards one that
//! does not, so a deal in which the opponent would have melded a card it
//! passed, drew past or discarded is put back (up to four tries a deal,
//! the last rejected deals filling in when the tries run out).
//!
//! The opponent's hand is improved for its stock draws: it is the best of
//! its unseen cards and one more per [`DRAWS_PER_EXTRA_CARD`] stock draws,
//! dealt from the unseen cards.

use super::super::SeatView;
use super::super::rng::Rng;
use super::super::simple::in_some_meld;
use crate::audit::{Move, Source};
use crate::card::{Card, CardSet};
use crate::deadwood::natural::min_deadwood;

/// The opponent's stock draws per extra card it is dealt. A player who
/// drew keeps the better cards it saw, but it chose as they came, without
/// the cards still to come; the best ten of every card it saw, known at once, is a
/// stronger hand than the one it holds. In play against `strong` as it
/// was (one per draw), one per two draws won 57.2 % of games; one per
/// draw is the baseline, two per draw won 38.2 % and none 47.3 %: too
/// strong an opponent refuses knocks that win, too weak a one knocks into
/// undercuts.
const DRAWS_PER_EXTRA_CARD: usize = 2;

/// One deal of the hidden cards.
#[derive(Debug, Clone)]
pub(super) struct HiddenDeal {
    /// The opponent's hand: its known cards and the dealt ones.
    pub(super) opponent: CardSet,
    /// The rest of the unseen cards, in drawing order (top last).
    pub(super) stock: Vec<Card>,
}

/// `samples` deals of `unseen` (see the module docs).
pub(super) fn deals(
    view: &SeatView,
    unseen: &[Card],
    samples: usize,
    rng: &mut Rng,
) -> Vec<HiddenDeal> {
    let known = view.opponent_known().naturals();
    let hidden = view.opponent_unseen().min(unseen.len());
    let passed = declined(view);
    let drawn = opponent_stock_draws(view) / DRAWS_PER_EXTRA_CARD;
    let mut kept = Vec::with_capacity(samples);
    let mut rejected = Vec::new();
    for _ in 0..samples.saturating_mul(4) {
        if kept.len() >= samples {
            break;
        }
        let mut deck = unseen.to_vec();
        let seen = (hidden + drawn).min(deck.len());
        partial_shuffle(rng, &mut deck, seen);
        let (dealt, rest) = deck.split_at(seen);
        let (opponent, thrown) = improved(known, dealt, hidden);
        let mut stock = rest.to_vec();
        stock.extend(thrown);
        rng.shuffle(&mut stock);
        let deal = HiddenDeal { opponent, stock };
        if passed.iter().all(|&card| !in_some_meld(opponent, card)) {
            kept.push(deal);
        } else if rejected.len() < samples {
            rejected.push(deal);
        }
    }
    let missing = samples.saturating_sub(kept.len());
    kept.extend(rejected.into_iter().take(missing));
    kept
}

/// The opponent's hand from its known cards and `dealt`, keeping `keep`
/// of the dealt cards: the others thrown one by one, each the card whose
/// loss leaves the least deadwood. A player who drew from the stock kept
/// the better of the cards it saw; a hand dealt at random from the unseen
/// cards would be much worse than the one it holds.
fn improved(known: CardSet, dealt: &[Card], keep: usize) -> (CardSet, Vec<Card>) {
    let mut hand = dealt.iter().fold(known, |mut set, &card| {
        set.insert(card);
        set
    });
    let mut free: Vec<Card> = dealt.to_vec();
    let mut thrown = Vec::new();
    while free.len() > keep {
        let worst = free
            .iter()
            .enumerate()
            .min_by_key(|&(_, &card)| min_deadwood(hand.difference(CardSet::single(card))))
            .map(|(index, _)| index);
        let Some(index) = worst else { break };
        let card = free.swap_remove(index);
        hand.remove(card);
        thrown.push(card);
    }
    (hand, thrown)
}

/// How many times the opponent drew from the stock this hand.
fn opponent_stock_draws(view: &SeatView) -> usize {
    view.log()
        .iter()
        .filter(|action| {
            action.player != view.seat()
                && matches!(
                    action.play,
                    Move::Draw {
                        from: Source::Stock,
                        ..
                    }
                )
        })
        .count()
}

/// The cards the opponent let go: its discards, and the pile's tops it
/// passed or drew past from the stock (a card it holds again excepted).
fn declined(view: &SeatView) -> Vec<Card> {
    let me = view.seat();
    let mut pile = vec![view.upcard()];
    let mut declined = Vec::new();
    for action in view.log() {
        let theirs = action.player != me;
        match &action.play {
            Move::Pass
            | Move::Draw {
                from: Source::Stock,
                ..
            } if theirs => {
                declined.extend(pile.last().and_then(|card| card.natural()));
            }
            Move::Draw {
                from: Source::DiscardPile,
                ..
            } => {
                pile.pop();
            }
            Move::Discard { card } => {
                pile.push(*card);
                if theirs {
                    declined.extend(card.natural());
                }
            }
            _ => {}
        }
    }
    let held = view.opponent_known().naturals();
    declined.retain(|&card| !held.contains(card));
    declined
}

/// Moves `count` cards chosen uniformly to the front of `deck`.
fn partial_shuffle(rng: &mut Rng, deck: &mut [Card], count: usize) {
    for first in 0..count.min(deck.len()) {
        let pick = first + rng.below(deck.len() - first);
        deck.swap(first, pick);
    }
}
