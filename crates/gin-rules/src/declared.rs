//! A knocker's declared melds with jokers: each card held and melded once,
//! each melded joker standing for a named card, each meld legal with its
//! jokers in place, and no card shown by two melds.
//!
//! Every fault is reported, each at its place (a card of a meld, a whole
//! meld, or a joker's named card), so a caller can point at all of them at
//! once, as the joker-free [`crate::check_arrangement`] does.

use crate::StandsFor;
use crate::card::{Card, CardSet};
use crate::meld::{Meld, MeldError, MeldProblemCode};
use crate::profile::JokerRules;

use crate::deadwood::Arrangement;
use crate::hand::{Hand, HandCard, Joker, Jokers};

/// Melds a knocker declares: the cards of each, a joker written in its
/// meld, and the card each melded joker stands for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DeclaredMelds {
    /// The melds, each a list of naturals and jokers.
    pub melds: Vec<Vec<HandCard>>,
    /// The card each melded joker stands for: every melded joker, and only
    /// those.
    pub stands_for: StandsFor,
}

impl DeclaredMelds {
    /// The card this joker is declared to stand for.
    pub fn stands_for(&self, joker: Joker) -> Option<Card> {
        self.stands_for.get(joker)
    }
}

/// Where a fault of declared melds lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclaredPlace {
    /// One card of one meld (both indices from 0).
    Card {
        /// The meld's index.
        meld: usize,
        /// The card's position in it.
        position: usize,
    },
    /// A whole meld.
    Meld(usize),
    /// The card a joker is declared to stand for.
    StandsFor(Joker),
}

impl DeclaredPlace {
    /// The place as the tail of a JSON pointer under the side that declared
    /// it (`melds/2/3`, `melds/0`, `jokers/X1`): one spelling for the scoring
    /// problems and the audits' violations.
    pub fn pointer_tail(&self) -> String {
        match self {
            DeclaredPlace::Card { meld, position } => format!("melds/{meld}/{position}"),
            DeclaredPlace::Meld(meld) => format!("melds/{meld}"),
            DeclaredPlace::StandsFor(joker) => format!("jokers/{joker}"),
        }
    }
}

/// What is wrong with declared melds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclaredFaultCode {
    /// A card or joker the hand does not hold.
    CardNotInHand,
    /// A card or joker melded twice, or a card shown by two melds.
    CardInTwoMelds,
    /// A melded joker without its card, or a card named for a joker no meld
    /// holds.
    JokerStandsFor,
    /// A meld holding a joker with fewer naturals than the rules ask.
    TooFewNaturals,
    /// With the jokers in place, the cards are not a set or a run.
    NotAMeld(MeldProblemCode),
}

/// One fault of declared melds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredFault {
    /// Where it lies.
    pub place: DeclaredPlace,
    /// What it is.
    pub code: DeclaredFaultCode,
    /// A sentence naming the cards.
    pub message: String,
}

/// Checks declared melds against the hand (see the module docs) and gives
/// the arrangement they make, or every fault found.
///
/// ```
/// use gin_rules::{declared_arrangement, DeclaredMelds};
/// use gin_rules::{parse_hand, Joker, JokerRules, HandCard};
/// let hand = parse_hand("5H X1 7H 9S 9D 9C KS KD KC 2C")?;
/// let card = |text: &str| text.parse::<HandCard>();
/// let declared = DeclaredMelds {
///     melds: vec![vec![card("5H")?, card("X1")?, card("7H")?]],
///     stands_for: [(Joker::X1, "6H".parse()?)].into_iter().collect(),
/// };
/// let arrangement = declared_arrangement(hand, &declared, &JokerRules::TWO_JOKERS).unwrap();
/// // Only the run is declared: the nines and kings count 27 + 30, the two 2.
/// assert_eq!(arrangement.deadwood, 59);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn declared_arrangement(
    hand: Hand,
    declared: &DeclaredMelds,
    rules: &JokerRules,
) -> Result<Arrangement, Vec<DeclaredFault>> {
    let mut faults = Vec::new();
    let mut melds = Vec::new();
    let mut shown = CardSet::EMPTY;
    let mut melded = Hand::default();
    for (index, list) in declared.melds.iter().enumerate() {
        let Some(read) = read_meld(hand, melded, declared, index, list, &mut faults) else {
            continue;
        };
        let meld_fault = |code, message| DeclaredFault {
            place: DeclaredPlace::Meld(index),
            code,
            message,
        };
        match Meld::with_jokers(read.naturals, &read.jokers, rules) {
            Ok(meld) => {
                if let Some(card) = meld.cards().intersection(shown).iter().next() {
                    faults.push(meld_fault(
                        DeclaredFaultCode::CardInTwoMelds,
                        format!("{card} is shown by two melds"),
                    ));
                }
                shown = shown.union(meld.cards());
                melded = read.cards.cards().fold(melded, Hand::with);
                melds.push(meld);
            }
            Err(MeldError::NotAMeld) => {
                let cards = read.jokers.iter().fold(read.naturals, |acc, &(_, card)| {
                    acc.union(CardSet::single(card))
                });
                for problem in Meld::try_from(cards).err().unwrap_or_default() {
                    faults.push(meld_fault(
                        DeclaredFaultCode::NotAMeld(problem.code),
                        problem.message,
                    ));
                }
            }
            Err(error @ MeldError::TooFewNaturals { .. }) => {
                faults.push(meld_fault(
                    DeclaredFaultCode::TooFewNaturals,
                    error.to_string(),
                ));
            }
            Err(error) => faults.push(meld_fault(
                DeclaredFaultCode::CardInTwoMelds,
                error.to_string(),
            )),
        }
    }
    for (joker, _) in declared.stands_for.pairs() {
        let in_a_meld = declared.melds.iter().flatten().any(|&c| c == joker.into());
        if !in_a_meld {
            faults.push(DeclaredFault {
                place: DeclaredPlace::StandsFor(joker),
                code: DeclaredFaultCode::JokerStandsFor,
                message: format!("`jokers` names {joker}, which no declared meld holds"),
            });
        }
    }
    if !faults.is_empty() {
        return Err(faults);
    }
    let deadwood_cards = hand.naturals().difference(melded.naturals());
    let deadwood_jokers: Jokers = hand.jokers().filter(|&j| !melded.holds(j)).collect();
    let left_out = u32::try_from(deadwood_jokers.len()).unwrap_or(0);
    Ok(Arrangement {
        deadwood: deadwood_cards.value() + left_out * u32::from(rules.joker_deadwood()),
        melds,
        deadwood_cards,
        deadwood_jokers,
    })
}

/// One declared meld's cards, each held and not melded before, each melded
/// joker with the card it stands for.
struct ReadMeld {
    cards: Hand,
    naturals: CardSet,
    jokers: Vec<(Joker, Card)>,
}

/// Reads declared meld `index` card by card against the hand and the cards
/// `melded` by the melds before it; `None` when some card is at fault (each
/// fault added to `faults`, at its card).
fn read_meld(
    hand: Hand,
    melded: Hand,
    declared: &DeclaredMelds,
    index: usize,
    list: &[HandCard],
    faults: &mut Vec<DeclaredFault>,
) -> Option<ReadMeld> {
    let mut read = ReadMeld {
        cards: Hand::default(),
        naturals: CardSet::EMPTY,
        jokers: Vec::new(),
    };
    let mut sound = true;
    for (position, &card) in list.iter().enumerate() {
        let fault = if !hand.contains(card) {
            Some((
                DeclaredFaultCode::CardNotInHand,
                format!("{card} is not in the hand"),
            ))
        } else if melded.contains(card) || read.cards.contains(card) {
            Some((
                DeclaredFaultCode::CardInTwoMelds,
                format!("{card} is declared twice"),
            ))
        } else {
            read.cards = read.cards.with(card);
            match card {
                HandCard::Natural(natural) => {
                    read.naturals = read.naturals.union(CardSet::single(natural));
                    None
                }
                HandCard::Joker(joker) => match declared.stands_for(joker) {
                    Some(stands_for) => {
                        read.jokers.push((joker, stands_for));
                        None
                    }
                    None => Some((
                        DeclaredFaultCode::JokerStandsFor,
                        format!(
                            "{joker} is melded, but `jokers` does not say which card it \
                             stands for"
                        ),
                    )),
                },
            }
        };
        if let Some((code, message)) = fault {
            faults.push(DeclaredFault {
                place: DeclaredPlace::Card {
                    meld: index,
                    position,
                },
                code,
                message,
            });
            sound = false;
        }
    }
    sound.then_some(read)
}

/// Every fault in one line: "meld 0: 6H is already on the table; ...".
pub(crate) fn faults_text(faults: &[DeclaredFault]) -> String {
    faults
        .iter()
        .map(|fault| match fault.place {
            DeclaredPlace::Card { meld, .. } | DeclaredPlace::Meld(meld) => {
                format!("meld {meld}: {}", fault.message)
            }
            DeclaredPlace::StandsFor(_) => fault.message.clone(),
        })
        .collect::<Vec<_>>()
        .join("; ")
}
