//! The search itself (see the parent's docs).

use std::sync::Arc;

use super::super::rng::Rng;
use super::super::simple::in_some_meld;
use super::super::{ScoreContext, SeatView};
use super::deals::{HiddenDeal, deals};
use super::equity::Equity;
use super::gate::{self, Start, Worth};
use super::knock;
use crate::audit::{LegalKind, Move, StatePhase};
use crate::card::Card;
use crate::deadwood::min_deadwood;
use crate::hand::{Hand, HandCard};
use crate::profile::JokerRules;

/// What a discard the opponent melds costs, in points of deadwood (1.5
/// measured stronger than 0, 3 and 6 in play against itself).
const DANGER: f64 = 1.5;
/// What a gin is worth beside its count of 0, in points of deadwood: its
/// bonus.
const GIN_WORTH: f64 = 25.0;
/// The deals the one-draw valuation reads (the first of the decision's);
/// the rest are only played out (by the knock and the gate).
pub const VALUED: usize = 16;
/// The discards the gate plays out: the valuation's choice and its closest
/// rivals.
const RIVALS: usize = 4;

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
    /// How many of `deals` the valuation reads (the first).
    valued: usize,
    /// In a match, the chance of winning it by the totals (module `equity`).
    equity: Option<(Arc<Equity>, ScoreContext)>,
}

impl<'a> Search<'a> {
    fn new(view: &'a SeatView, samples: u32, rng: &mut Rng) -> Search<'a> {
        let unseen: Vec<Card> = view.unseen().iter().collect();
        let samples = usize::try_from(samples).unwrap_or(usize::MAX);
        let deals = deals(view, &unseen, samples, rng);
        let valued = deals.len().min(VALUED);
        let draws = deals
            .iter()
            .take(valued)
            .filter_map(|deal| deal.stock.last().copied())
            .collect();
        let weights = unseen
            .iter()
            .map(|&card| {
                let held = deals
                    .iter()
                    .take(valued)
                    .filter(|deal| deal.opponent.contains(card))
                    .count();
                1.0 - held as f64 / valued.max(1) as f64
            })
            .collect();
        Search {
            view,
            rules: view.profile().joker_rules(),
            unseen,
            weights,
            draws,
            deals,
            valued,
            equity: view.score().map(|score| {
                let profile = view.profile();
                let equity =
                    Equity::for_match(score.target, profile.gin_bonus(), profile.undercut_bonus());
                (equity, score)
            }),
        }
    }

    /// The deals the valuation reads.
    fn valued_deals(&self) -> &[HiddenDeal] {
        self.deals.get(..self.valued).unwrap_or(&self.deals)
    }

    /// The deals the gate plays out: all of them, when there are more than
    /// the valuation reads (a budget of [`VALUED`] deals or fewer is the
    /// valuation alone: with no deals the gate keeps the valued choice).
    fn played_deals(&self) -> &[HiddenDeal] {
        if self.deals.len() > self.valued {
            &self.deals
        } else {
            &[]
        }
    }

    /// What a hand's points are worth here: the chance of winning the match
    /// when the hand is played in one, else the points.
    fn worth(&self) -> Worth<'_> {
        match &self.equity {
            Some((equity, score)) => Worth::Match(equity, *score),
            None => Worth::Points,
        }
    }

    /// The knock limit of this hand.
    fn limit(&self) -> Option<u32> {
        self.view
            .profile()
            .knock_limit_for(self.view.upcard().natural())
            .ok()
    }

    /// After the draw: a knock if one is listed, else the best discard.
    fn discard(&self, rng: &mut Rng) -> usize {
        // The knock plays out every deal, not only the valued ones: it
        // costs one play-out a deal, and over the first `VALUED` alone
        // chance decided many knocks (over every deal it won 52.3 % of
        // games in play against the knock over `VALUED`).
        if let Some(index) = knock::choose(self.view, &self.deals, self.worth()) {
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
        for &(index, _, value) in &valued {
            if value < least - 1e-9 {
                least = value;
                best.clear();
            }
            if value <= least + 1e-9 {
                best.push(index);
            }
        }
        let chosen = best.get(rng.below(best.len())).copied().unwrap_or(0);
        self.gate_discard(&valued, chosen)
    }

    /// The gate (module `gate`) over the valuation's choice and its closest
    /// rivals.
    fn gate_discard(&self, valued: &[(usize, HandCard, f64)], chosen: usize) -> usize {
        let (Some(held), Some(limit)) = (self.view.hand().joker_free(), self.limit()) else {
            return chosen;
        };
        let Some(first) = valued.iter().find(|(index, _, _)| *index == chosen) else {
            return chosen;
        };
        let mut rivals: Vec<&(usize, HandCard, f64)> = valued
            .iter()
            .filter(|(index, _, _)| *index != chosen)
            .collect();
        rivals.sort_by(|a, b| a.2.total_cmp(&b.2));
        let candidates: Vec<&(usize, HandCard, f64)> = std::iter::once(first)
            .chain(rivals.into_iter().take(RIVALS - 1))
            .collect();
        let starts: Option<Vec<Start>> = candidates
            .iter()
            .map(|(_, card, _)| card.natural().map(Start::Discard))
            .collect();
        let Some(starts) = starts else { return chosen };
        let pick = gate::choose(
            held,
            &starts,
            0,
            self.played_deals(),
            limit,
            self.view.profile(),
            self.worth(),
        );
        candidates.get(pick).map_or(chosen, |(index, _, _)| *index)
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
        let chosen = if taken < drawn { take } else { other };
        if self.view.phase() != StatePhase::Draw {
            return chosen;
        }
        let (Some(held), Some(limit), Some(natural)) =
            (hand.joker_free(), self.limit(), top.natural())
        else {
            return chosen;
        };
        let starts = [Start::TakeTop(natural), Start::DrawStock];
        let first = usize::from(chosen == other);
        let pick = gate::choose(
            held,
            &starts,
            first,
            self.played_deals(),
            limit,
            self.view.profile(),
            self.worth(),
        );
        if pick == 0 { take } else { other }
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
        let deals = self.valued_deals();
        if deals.is_empty() {
            return 0.0;
        }
        let melded = deals
            .iter()
            .filter(|deal| in_some_meld(deal.opponent, card))
            .count();
        melded as f64 / deals.len() as f64
    }
}
