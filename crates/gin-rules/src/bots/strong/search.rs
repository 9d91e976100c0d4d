//! The search itself (see the parent's docs).

use super::super::SeatView;
use super::super::rng::Rng;
use super::super::simple::in_some_meld;
use super::deals::{HiddenDeal, deals};
use super::knock;
use crate::audit::{LegalKind, Move, StatePhase};
use crate::card::Card;
use crate::deadwood::min_deadwood;
use crate::hand::{Hand, HandCard};
use crate::profile::JokerRules;

/// What a discard the opponent melds costs, in points of deadwood.
const DANGER: f64 = 3.0;
/// What a gin is worth beside its count of 0, in points of deadwood: its
/// bonus.
const GIN_WORTH: f64 = 25.0;

/// The index of the listed action at a draw or a discard.
pub(super) fn choose(view: &SeatView, samples: u32, rng: &mut Rng) -> usize {
    let search = Search::new(view, samples, rng);
    match view.phase() {
        StatePhase::Discard => search.discard(rng),
        _ => search.draw(),
    }
}

struct Search<'a> {
    view: &'a SeatView,
    rules: JokerRules,
    unseen: Vec<Card>,
    /// For each unseen card, the chance that it is not in the opponent's
    /// hand (so that a draw may bring it), over the dealt hands.
    weights: Vec<f64>,
    /// Stock draws dealt from the unseen cards.
    draws: Vec<Card>,
    /// The deals of the unseen cards: the opponent's hands (known cards
    /// kept) and the stocks in order.
    deals: Vec<HiddenDeal>,
}

impl<'a> Search<'a> {
    fn new(view: &'a SeatView, samples: u32, rng: &mut Rng) -> Search<'a> {
        let unseen: Vec<Card> = view.unseen().iter().collect();
        let samples = usize::try_from(samples).unwrap_or(usize::MAX);
        let deals = deals(view, &unseen, samples, rng);
        let draws = deals
            .iter()
            .filter_map(|deal| deal.stock.last().copied())
            .collect();
        let weights = unseen
            .iter()
            .map(|&card| {
                let held = deals
                    .iter()
                    .filter(|deal| deal.opponent.contains(card))
                    .count();
                1.0 - held as f64 / deals.len().max(1) as f64
            })
            .collect();
        Search {
            view,
            rules: view.profile().joker_rules(),
            unseen,
            weights,
            draws,
            deals,
        }
    }

    /// After the draw: a knock if one is listed, else the best discard.
    fn discard(&self, rng: &mut Rng) -> usize {
        if let Some(index) = knock::choose(self.view, &self.deals) {
            return index;
        }
        let legal = self.view.legal_actions();
        let hand = self.view.hand();
        let valued: Vec<(usize, HandCard, f64)> = legal
            .iter()
            .enumerate()
            .filter_map(|(index, action)| match action.action.play {
                Move::Discard { card } => {
                    Some((index, card, self.after_discard(hand.without(card), card)))
                }
                _ => None,
            })
            .collect();
        let mut best: Vec<usize> = Vec::new();
        let mut least = f64::INFINITY;
        for (index, _, value) in valued {
            if value < least - 1e-9 {
                least = value;
                best.clear();
            }
            if value <= least + 1e-9 {
                best.push(index);
            }
        }
        best.get(rng.below(best.len())).copied().unwrap_or(0)
    }

    /// At a draw or the upcard offer: the pile's top when it is worth more
    /// than a stock draw (or a pass).
    fn draw(&self) -> usize {
        let legal = self.view.legal_actions();
        let find = |kind: LegalKind| legal.iter().position(|a| a.kind == kind);
        let other = find(LegalKind::DrawStock).or(find(LegalKind::Pass));
        let (Some(take), Some(other)) = (find(LegalKind::TakeDiscard), other) else {
            return find(LegalKind::TakeDiscard).or(other).unwrap_or(0);
        };
        let hand = self.view.hand();
        let top = self.view.discard_pile().first().copied();
        let Some(top) = top else { return other };
        // Never take back a card this seat let go: two players who did
        // could trade the same cards through the pile for ever, and a hand
        // with no stock draw would never end.
        let mine = self.view.seat();
        let let_go = self.view.log().iter().any(|action| {
            action.player == mine && matches!(action.play, Move::Discard { card } if card == top)
        });
        if let_go {
            return other;
        }
        let taken = self.best_after(hand.with(top), Some(top));
        let drawn = self
            .draws
            .iter()
            .map(|&card| self.best_after(hand.with(card.into()), None))
            .sum::<f64>()
            / self.draws.len().max(1) as f64;
        if taken < drawn { take } else { other }
    }

    /// The least value over the discards of an eleven-card hand (`taken`,
    /// the card taken from the pile, may not go).
    fn best_after(&self, eleven: Hand, taken: Option<HandCard>) -> f64 {
        eleven
            .cards()
            .filter(|&card| Some(card) != taken)
            .map(|card| self.after_discard(eleven.without(card), card))
            .fold(f64::INFINITY, f64::min)
    }

    /// The value (lower is better) of keeping `ten` and discarding `card`.
    fn after_discard(&self, ten: Hand, card: HandCard) -> f64 {
        if min_deadwood(ten, &self.rules) == 0 {
            return -GIN_WORTH;
        }
        self.expected(ten) + DANGER * self.danger(card)
    }

    /// The least count `ten` can expect after one more draw.
    fn expected(&self, ten: Hand) -> f64 {
        if self.unseen.is_empty() {
            return f64::from(min_deadwood(ten, &self.rules));
        }
        let mut total = 0.0;
        let mut weight = 0.0;
        for (&card, &chance) in self.unseen.iter().zip(&self.weights) {
            let eleven = ten.with(card.into());
            let least = eleven
                .cards()
                .map(|out| min_deadwood(eleven.without(out), &self.rules))
                .min()
                .unwrap_or(0);
            total += chance * f64::from(least);
            weight += chance;
        }
        if weight <= 0.0 {
            return f64::from(min_deadwood(ten, &self.rules));
        }
        total / weight
    }

    /// How often the opponent, dealt again, would meld `card`.
    fn danger(&self, card: HandCard) -> f64 {
        let HandCard::Natural(card) = card else {
            return 1.0;
        };
        if self.deals.is_empty() {
            return 0.0;
        }
        let melded = self
            .deals
            .iter()
            .filter(|deal| in_some_meld(deal.opponent, card))
            .count();
        melded as f64 / self.deals.len() as f64
    }
}
