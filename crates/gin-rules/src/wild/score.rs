//! Scoring a hand played with jokers: the knocker's arrangement, the
//! defender's reply and the points, through the joker-free scoring's
//! [`settle`] (the points depend only on the two counts).
//!
//! The knocker's arrangement is chosen as in the joker-free game: among every
//! arrangement within the knock limit (each plan of melds holding jokers with
//! the joker-free arrangements of the other naturals, melds kept as deadwood
//! included), the one with the best net result for the knocker after the
//! defender's best reply, then the lower knocker count, then the first in
//! the solver's fixed order. Where a knocker's joker must stand for a card
//! the knocker holds, it stands for the cheapest. A knocker whose count is 0
//! goes gin, even with an unmelded joker worth 0 (`joker_deadwood` 0); big gin
//! needs every one of the eleven cards melded, jokers included.

use crate::card::{Card, CardSet, Hand};
use crate::profile::Profile;
use crate::score::{HandError, Settlement as HandSettlement, Side, knocker_arrangements, settle};

use super::solve::plans_within;
use super::{Joker, Problem, WildArrangement, WildHand, WildReply, wild_best_reply};

/// Both hands laid down.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WildShowdown {
    /// The knocker's arrangement (the knocker never lays off).
    pub knocker: WildArrangement,
    /// The defender's reply to it.
    pub defender: WildReply,
    /// The knock limit that applied.
    pub knock_limit: u32,
    /// The knocker melded all eleven cards without discarding.
    pub big_gin: bool,
}

/// A scored hand with jokers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WildHandScore {
    /// Both hands laid down.
    pub showdown: WildShowdown,
    /// Who won what.
    pub settlement: HandSettlement,
}

/// Why a hand with jokers cannot be scored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WildHandError {
    /// A joker the profile's deck does not hold (any joker without jokers,
    /// `X2` with one).
    #[error("{joker} is not in the deck: this profile plays with {jokers} joker(s)")]
    JokerNotInDeck {
        /// The hand holding it.
        side: Side,
        /// The joker.
        joker: Joker,
        /// The jokers the profile adds to the deck.
        jokers: u8,
    },
    /// The same joker in both hands.
    #[error("{joker} is in both hands")]
    DuplicateJoker {
        /// The joker.
        joker: Joker,
    },
    /// What the joker-free scoring also refuses: a card in both hands, a
    /// wrong number of cards, a knock over the limit, big gin not played or
    /// not melded, a profile that needs the upcard.
    #[error(transparent)]
    Hand(#[from] HandError),
}

impl WildHandError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            WildHandError::JokerNotInDeck { .. } => "joker_not_in_deck",
            WildHandError::DuplicateJoker { .. } => "duplicate_card",
            WildHandError::Hand(error) => error.code(),
        }
    }
}

/// Checks that the profile's deck holds the hand's jokers.
fn check_jokers(profile: &Profile, side: Side, hand: WildHand) -> Result<(), WildHandError> {
    let deck = profile.jokers();
    match hand.jokers().find(|&joker| joker.number() > deck) {
        Some(joker) => Err(WildHandError::JokerNotInDeck {
            side,
            joker,
            jokers: deck,
        }),
        None => Ok(()),
    }
}

/// Every arrangement of the knocker's hand with a count within `limit`, in
/// the solver's fixed order (see the module docs).
fn knocker_candidates(problem: &Problem, limit: u32) -> Vec<WildArrangement> {
    let held = problem.held_jokers();
    let mut found = Vec::new();
    for (plan, _) in plans_within(problem.avail, problem.blocked, problem.params, limit) {
        let out = problem.params.jokers - plan.jokers();
        let extra = plan.held_cost() + out * problem.params.joker_deadwood;
        let Some(room) = limit.checked_sub(extra) else {
            continue;
        };
        let Ok(rest) = Hand::new(CardSet::from_bits(problem.avail & !plan.cards())) else {
            continue;
        };
        for rest in knocker_arrangements(rest, room) {
            let arrangement = problem.arrangement(&plan, &rest.melds, &held);
            if arrangement.deadwood <= limit && !super::has_touching_runs(&arrangement.melds) {
                found.push(arrangement);
            }
        }
    }
    found
}

/// Lays both hands down and settles the points: the knocker's 10 cards kept
/// after the knock discard (11 for big gin), the defender's 10, jokers
/// included, under a profile that plays with jokers.
///
/// ```
/// use gin_rules::{score_wild_hand, wild_cards, Outcome, Preset, Side};
/// let jokers = Preset::Jokers.profile();
/// let knocker = wild_cards("5H X1 7H 9S 9D 9C KS KD KC 2C")?;
/// let defender = wild_cards("8H 4H QS QD JC 3S 3D 6C 7C X2")?;
/// let score = score_wild_hand(&jokers, None, knocker, defender)?;
/// // The knocker counts 2 (X1 stands for 6H); the defender lays 4H and 8H off
/// // the run, melds QS QD X2 and counts 10 + 3 + 3 + 6 + 7 = 29.
/// assert_eq!(score.showdown.knocker.deadwood, 2);
/// let laid: Vec<String> = score.showdown.defender.layoffs.iter().map(|l| l.card.to_string()).collect();
/// assert_eq!(laid, ["4H", "8H"]);
/// assert_eq!(score.showdown.defender.deadwood(), 29);
/// assert_eq!((score.settlement.outcome, score.settlement.winner), (Outcome::Knock, Side::Knocker));
/// assert_eq!(score.settlement.points, 27);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn score_wild_hand(
    profile: &Profile,
    upcard: Option<Card>,
    knocker: WildHand,
    defender: WildHand,
) -> Result<WildHandScore, WildHandError> {
    let knock_limit = profile.knock_limit_for(upcard).map_err(HandError::from)?;
    let multiplier = profile.multiplier_for(upcard).map_err(HandError::from)?;
    check_jokers(profile, Side::Knocker, knocker)?;
    check_jokers(profile, Side::Defender, defender)?;
    if let Some(card) = knocker
        .naturals()
        .intersection(defender.naturals())
        .iter()
        .next()
    {
        let index = knocker
            .cards()
            .position(|c| c == super::WildCard::Natural(card))
            .unwrap_or(0);
        return Err(HandError::DuplicateCard {
            side: Side::Defender,
            index,
            card,
        }
        .into());
    }
    if let Some(joker) = defender.jokers().find(|&j| knocker.holds(j)) {
        return Err(WildHandError::DuplicateJoker { joker });
    }
    let big_gin = match knocker.len() {
        10 => false,
        11 if profile.big_gin_bonus().is_none() => return Err(HandError::BigGinNotPlayed.into()),
        11 => true,
        found => {
            return Err(HandError::WrongCardCount {
                side: Side::Knocker,
                expected: "10 (11 for big gin)",
                found,
            }
            .into());
        }
    };
    if defender.len() != 10 {
        return Err(HandError::WrongCardCount {
            side: Side::Defender,
            expected: "10",
            found: defender.len(),
        }
        .into());
    }
    let rules = profile.joker_rules();
    let problem = Problem::new(knocker, &rules, CardSet::EMPTY);
    let limit = if big_gin { 0 } else { knock_limit };
    let candidates: Vec<WildArrangement> = knocker_candidates(&problem, limit)
        .into_iter()
        // Big gin melds every card: no joker left out, even one worth 0.
        .filter(|a| !big_gin || a.deadwood_jokers.is_empty())
        .collect();
    if candidates.is_empty() {
        let deadwood = problem.least();
        return Err(if big_gin {
            HandError::NotBigGin { deadwood }
        } else {
            HandError::KnockOverLimit { deadwood, limit }
        }
        .into());
    }
    let mut best: Option<(i64, u32, WildArrangement, WildReply)> = None;
    for arrangement in candidates {
        let layoffs_allowed = arrangement.deadwood > 0 || profile.layoffs_on_gin();
        let reply = wild_best_reply(&arrangement.melds, defender, &rules, layoffs_allowed);
        let settlement = settle(profile, 1, arrangement.deadwood, reply.deadwood(), big_gin);
        let net = match settlement.winner {
            Side::Knocker => i64::from(settlement.points),
            Side::Defender => -i64::from(settlement.points),
        };
        let better = best.as_ref().is_none_or(|(best_net, best_count, _, _)| {
            (net, std::cmp::Reverse(arrangement.deadwood))
                > (*best_net, std::cmp::Reverse(*best_count))
        });
        if better {
            best = Some((net, arrangement.deadwood, arrangement, reply));
        }
    }
    let Some((_, _, knocker, defender)) = best else {
        return Err(HandError::KnockOverLimit {
            deadwood: problem.least(),
            limit,
        }
        .into());
    };
    let settlement = settle(
        profile,
        multiplier,
        knocker.deadwood,
        defender.deadwood(),
        big_gin,
    );
    Ok(WildHandScore {
        showdown: WildShowdown {
            knocker,
            defender,
            knock_limit: limit,
            big_gin,
        },
        settlement,
    })
}
