//! The knock below gin: knock now when the dealt opponents say it wins
//! by a wide margin (see the parent's docs).

use super::super::SeatView;
use crate::audit::{LegalKind, Move};
use crate::card::{Card, CardSet};
use crate::deadwood::best_arrangement;
use crate::deadwood::natural::min_deadwood;
use crate::meld::{Meld, MeldKind};
use crate::profile::JokerRules;

/// The least mean margin, in points, by which the dealt opponents' counts
/// (after laying off) must exceed the knock's count. A wide margin is met
/// early in a hand, before the opponent has built much: there the knock
/// wins against a player who knocks as soon as it can win (as
/// `gin-rummy-engine`'s Monte Carlo bot does), while waiting, later in a
/// hand, keeps undercutting a player who knocks at the first chance
/// (`simple`). Lower margins lost games against `simple` (BENCHMARKS.md).
const MARGIN: f64 = 30.0;

/// The listed knock to play now, if any: the knock of least count when
/// none of the dealt opponents would undercut it (their count after laying
/// off on its melds at most the knocker's) and the mean margin is at
/// least [`MARGIN`].
pub(super) fn choose(view: &SeatView, opponents: &[CardSet], rules: &JokerRules) -> Option<usize> {
    if opponents.is_empty() {
        return None;
    }
    let legal = view.legal_actions();
    let (index, count, discard) = legal
        .iter()
        .enumerate()
        .filter(|(_, action)| action.kind == LegalKind::Knock)
        .filter_map(|(index, action)| match action.action.play {
            Move::Knock {
                discard: Some(card),
                ..
            } => Some((index, action.deadwood?, card)),
            _ => None,
        })
        .min_by_key(|&(_, count, _)| count)?;
    let melds = best_arrangement(view.hand().without(discard), rules).melds;
    let mut undercut = 0usize;
    let mut margin = 0.0;
    for &opponent in opponents {
        let theirs = after_layoff(opponent, &melds);
        if theirs <= count {
            undercut += 1;
        }
        margin += f64::from(theirs) - f64::from(count);
    }
    let mean = margin / opponents.len() as f64;
    (undercut == 0 && mean >= MARGIN).then_some(index)
}

/// The opponent's count after laying off what it can on `melds`: the
/// lesser of its count and the count of what is left once every card that
/// fits is laid off (a cheap bound, not the defender's exact best).
fn after_layoff(opponent: CardSet, melds: &[Meld]) -> u32 {
    let off = laid_off(opponent, melds);
    min_deadwood(opponent).min(min_deadwood(opponent.difference(off)))
}

/// The cards of `opponent` that extend one of `melds`, a run extended
/// card by card.
fn laid_off(opponent: CardSet, melds: &[Meld]) -> CardSet {
    let mut off = CardSet::EMPTY;
    let mut grown: Vec<(MeldKind, CardSet)> = melds
        .iter()
        .map(|meld| (meld.kind(), meld.cards()))
        .collect();
    loop {
        let mut changed = false;
        for (kind, cards) in &mut grown {
            for card in opponent.difference(off).iter() {
                if fits(*kind, *cards, card) {
                    cards.insert(card);
                    off.insert(card);
                    changed = true;
                }
            }
        }
        if !changed {
            return off;
        }
    }
}

/// Whether `card` extends the meld of `kind` made of `cards`.
fn fits(kind: MeldKind, cards: CardSet, card: Card) -> bool {
    match kind {
        MeldKind::Set => cards.iter().all(|held| held.rank() == card.rank()),
        MeldKind::Run => {
            let number = card.rank().number();
            cards.iter().all(|held| held.suit() == card.suit())
                && cards.iter().any(|held| {
                    let other = held.rank().number();
                    other + 1 == number || number + 1 == other
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::cards;

    fn meld(text: &str) -> Meld {
        Meld::try_from(cards(text).unwrap()).unwrap()
    }

    #[test]
    fn a_run_takes_its_layoffs_card_by_card_at_either_end() {
        let opponent = cards("3S 4S 8S 9S JS 2H 5D 7C KC QD").unwrap();
        let off = laid_off(opponent, &[meld("5S 6S 7S")]);
        assert_eq!(off, cards("3S 4S 8S 9S").unwrap());
    }

    #[test]
    fn a_set_takes_its_fourth_card_and_nothing_else() {
        let opponent = cards("9D 8D 7C KC QD JH 2H 3H 4C 5C").unwrap();
        let off = laid_off(opponent, &[meld("9S 9H 9C")]);
        assert_eq!(off, cards("9D").unwrap());
    }

    #[test]
    fn the_count_after_laying_off_drops_the_cards_that_fit() {
        // 8S and 9S fit the knocker's run; the rest is 2H 5D 7C KC QD JD TD 4C.
        let opponent = cards("8S 9S 2H 5D 7C KC QD JD TD 4C").unwrap();
        let melds = [meld("5S 6S 7S")];
        assert_eq!(
            after_layoff(opponent, &melds),
            min_deadwood(cards("2H 5D 7C KC QD JD TD 4C").unwrap())
        );
        assert!(after_layoff(opponent, &melds) < min_deadwood(opponent));
    }
}
