//! Melds declared by a player whose hand may hold jokers: a knocker laying
//! its melds down, or a defender replying. Each joker of a declared meld is
//! written in the meld and named, once, with the card it stands for.
//!
//! Every fault is reported, each at its meld (and card, when one card is at
//! fault), so that a client or a tournament director sees them all at once.

use std::fmt;

use crate::card::{Card, CardSet};
use crate::meld::Meld;
use crate::profile::JokerRules;

use super::{Joker, WildArrangement, WildCard, WildHand, WildMeld, WildMeldError};

/// One fault of declared melds with jokers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredMeldFault {
    /// The meld at fault, by its place in the declaration; `None` for a fault
    /// of the joker map (`joker` says which entry).
    pub meld: Option<usize>,
    /// The card at fault, by its place in the meld, when one card is.
    pub position: Option<usize>,
    /// The entry of the joker map at fault, for a fault of the map.
    pub joker: Option<Joker>,
    /// A stable code: `card_not_in_hand`, `card_in_two_melds`,
    /// `joker_stands_for`, `too_few_naturals`, or one of the joker-free
    /// meld codes ([`crate::MeldProblemCode`]).
    pub code: &'static str,
    /// A sentence naming the cards.
    pub message: String,
}

/// Why declared melds with jokers are refused: every fault found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct DeclaredMeldsError {
    /// The faults, in the order of the declaration, the joker map's last.
    pub faults: Vec<DeclaredMeldFault>,
}

impl fmt::Display for DeclaredMeldsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for fault in &self.faults {
            if !first {
                f.write_str("; ")?;
            }
            first = false;
            match fault.meld {
                Some(meld) => write!(f, "meld {meld}: {}", fault.message)?,
                None => f.write_str(&fault.message)?,
            }
        }
        Ok(())
    }
}

/// The card `joker` stands for in a joker map (its first entry).
fn stands_for(jokers: &[(Joker, Card)], joker: Joker) -> Option<Card> {
    jokers
        .iter()
        .find(|(j, _)| *j == joker)
        .map(|&(_, card)| card)
}

/// Checks melds declared from `hand`, jokers written in place and `jokers`
/// naming the card each melded joker stands for: every card held and melded
/// once, every melded joker named (and no other), each meld legal with its
/// jokers in place, no card shown twice, and no meld showing a card of
/// `blocked` (the cards already on the table, for a defender). The melds
/// keep the declared order; what no meld holds is deadwood, a joker counting
/// the rules' `joker_deadwood`.
///
/// ```
/// use gin_rules::{wild_cards, Card, Joker, JokerRules, WildCard, CardSet};
/// use gin_rules::wild::wild_declared_arrangement;
/// let hand = wild_cards("5H X1 7H KS KD KC 2C 3C 9S 9D")?;
/// let meld = |text: &str| -> Vec<WildCard> { text.split(' ').map(|c| c.parse().unwrap()).collect() };
/// let six: Card = "6H".parse()?;
/// let declared = [meld("5H X1 7H"), meld("KS KD KC")];
/// let laid = wild_declared_arrangement(hand, &declared, &[(Joker::X1, six)], &JokerRules::TWO_JOKERS, CardSet::EMPTY)?;
/// assert_eq!(laid.deadwood, 2 + 3 + 9 + 9);
/// // Without saying what X1 stands for, the meld is refused at the joker.
/// let refused = wild_declared_arrangement(hand, &declared, &[], &JokerRules::TWO_JOKERS, CardSet::EMPTY).unwrap_err();
/// assert_eq!((refused.faults[0].position, refused.faults[0].code), (Some(1), "joker_stands_for"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn wild_declared_arrangement(
    hand: WildHand,
    declared: &[Vec<WildCard>],
    jokers: &[(Joker, Card)],
    rules: &JokerRules,
    blocked: CardSet,
) -> Result<WildArrangement, DeclaredMeldsError> {
    let mut faults: Vec<DeclaredMeldFault> = Vec::new();
    let mut melds = Vec::with_capacity(declared.len());
    let mut shown = CardSet::EMPTY;
    let mut melded = CardSet::EMPTY;
    let mut melded_jokers: Vec<Joker> = Vec::new();
    for (index, list) in declared.iter().enumerate() {
        let mut naturals = CardSet::EMPTY;
        let mut in_meld: Vec<(Joker, Card)> = Vec::new();
        let mut card_faults = 0;
        for (position, &card) in list.iter().enumerate() {
            let fault = match card {
                WildCard::Natural(natural) if !hand.naturals().contains(natural) => {
                    Some(("card_not_in_hand", format!("{natural} is not in the hand")))
                }
                WildCard::Natural(natural) => (melded.contains(natural)
                    || !naturals.insert(natural))
                .then(|| ("card_in_two_melds", format!("{natural} is declared twice"))),
                WildCard::Joker(joker) if !hand.holds(joker) => {
                    Some(("card_not_in_hand", format!("{joker} is not in the hand")))
                }
                WildCard::Joker(joker)
                    if melded_jokers.contains(&joker)
                        || in_meld.iter().any(|(j, _)| *j == joker) =>
                {
                    Some(("card_in_two_melds", format!("{joker} is declared twice")))
                }
                WildCard::Joker(joker) => match stands_for(jokers, joker) {
                    Some(target) => {
                        in_meld.push((joker, target));
                        None
                    }
                    None => Some((
                        "joker_stands_for",
                        format!("{joker} is melded without saying which card it stands for"),
                    )),
                },
            };
            if let Some((code, message)) = fault {
                faults.push(DeclaredMeldFault {
                    meld: Some(index),
                    position: Some(position),
                    joker: None,
                    code,
                    message,
                });
                card_faults += 1;
            }
        }
        if card_faults > 0 {
            continue;
        }
        let mut meld_fault = |code: &'static str, message: String| {
            faults.push(DeclaredMeldFault {
                meld: Some(index),
                position: None,
                joker: None,
                code,
                message,
            });
        };
        match WildMeld::new(naturals, &in_meld, rules) {
            Ok(meld) => {
                if let Some(card) = meld.cards().intersection(shown).iter().next() {
                    meld_fault("card_in_two_melds", format!("{card} is shown by two melds"));
                } else if let Some(card) = meld.cards().intersection(blocked).iter().next() {
                    meld_fault(
                        "card_in_two_melds",
                        format!("{card} is already on the table, in a meld of the knocker"),
                    );
                }
                shown = shown.union(meld.cards());
                melded = melded.union(naturals);
                melded_jokers.extend(in_meld.iter().map(|&(joker, _)| joker));
                melds.push(meld);
            }
            Err(WildMeldError::NotAMeld) => {
                let cards = in_meld
                    .iter()
                    .fold(naturals, |acc, &(_, card)| acc.union(CardSet::single(card)));
                for problem in Meld::try_from(cards).err().unwrap_or_default() {
                    meld_fault(problem.code.as_str(), problem.message);
                }
            }
            Err(error @ WildMeldError::TooFewNaturals { .. }) => {
                meld_fault("too_few_naturals", error.to_string());
            }
            Err(error) => meld_fault("card_in_two_melds", error.to_string()),
        }
    }
    for joker in Joker::ALL {
        if stands_for(jokers, joker).is_some()
            && !declared
                .iter()
                .flatten()
                .any(|&c| c == WildCard::Joker(joker))
        {
            faults.push(DeclaredMeldFault {
                meld: None,
                position: None,
                joker: Some(joker),
                code: "joker_stands_for",
                message: format!("the joker map names {joker}, which no declared meld holds"),
            });
        }
    }
    if !faults.is_empty() {
        return Err(DeclaredMeldsError { faults });
    }
    let deadwood_cards = hand.naturals().difference(melded);
    let deadwood_jokers: Vec<Joker> = hand
        .jokers()
        .filter(|j| !melded_jokers.contains(j))
        .collect();
    let left_out = u32::try_from(deadwood_jokers.len()).unwrap_or(0);
    Ok(WildArrangement {
        deadwood: deadwood_cards.value() + left_out * u32::from(rules.joker_deadwood()),
        melds,
        deadwood_cards,
        deadwood_jokers,
    })
}
