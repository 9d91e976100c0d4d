//! The showdown of a knock without jokers (the fast path of
//! [`super::score_hand`]): both hands laid down, declared melds and layoffs
//! checked, the knocker's best arrangement chosen when none is declared.

use super::hand_score::{
    DefenderHand, HandError, HandScore, KnockerHand, Showdown, Side, net_for_knocker, settle,
};
use crate::card::{Card, CardSet};
use crate::deadwood::Arrangement;
use crate::deadwood::natural::min_deadwood;
use crate::hand::{HandCard, Jokers};
use crate::layoff::natural::{
    DefenderReply, Layoff, all_feasible_layoffs, best_reply, check_layoffs, fixed_reply,
};
use crate::meld::{Meld, check_arrangement};
use crate::profile::Profile;

/// The knocker's hand when no card of it, nor of its declared melds, is a
/// joker and no joker map is given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Knocker {
    pub hand: Vec<Card>,
    pub melds: Option<Vec<Vec<Card>>>,
}

/// The defender's hand when nothing of it is a joker: no joker map, and each
/// declared layoff a natural card onto a named meld.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Defender {
    pub hand: Vec<Card>,
    pub melds: Option<Vec<Vec<Card>>>,
    pub layoffs: Option<Vec<Layoff>>,
}

/// The natural cards of a list, if none is a joker.
fn naturals(cards: &[HandCard]) -> Option<Vec<Card>> {
    cards.iter().map(|card| card.natural()).collect()
}

/// Declared melds of natural cards only (`Some(None)`: none declared).
fn natural_melds(melds: Option<&Vec<Vec<HandCard>>>) -> Option<Option<Vec<Vec<Card>>>> {
    match melds {
        None => Some(None),
        Some(melds) => melds
            .iter()
            .map(|meld| naturals(meld))
            .collect::<Option<Vec<_>>>()
            .map(Some),
    }
}

impl Knocker {
    /// The hand on the joker-free path, if nothing of it is a joker.
    pub(crate) fn of(hand: &KnockerHand) -> Option<Knocker> {
        if hand.jokers.is_some() {
            return None;
        }
        Some(Knocker {
            melds: natural_melds(hand.melds.as_ref())?,
            hand: naturals(&hand.hand)?,
        })
    }
}

impl Defender {
    /// The hand on the joker-free path, if nothing of it is a joker.
    pub(crate) fn of(hand: &DefenderHand) -> Option<Defender> {
        if hand.jokers.is_some() {
            return None;
        }
        let layoffs = match &hand.layoffs {
            None => None,
            Some(layoffs) => Some(
                layoffs
                    .iter()
                    .map(
                        |layoff| match (layoff.card, layoff.stands_for, layoff.meld) {
                            (HandCard::Natural(card), None, Some(meld)) => {
                                Some(Layoff { card, meld })
                            }
                            _ => None,
                        },
                    )
                    .collect::<Option<Vec<_>>>()?,
            ),
        };
        Some(Defender {
            melds: natural_melds(hand.melds.as_ref())?,
            hand: naturals(&hand.hand)?,
            layoffs,
        })
    }
}

/// Scores a knock without jokers: [`showdown`], then [`settle`] with the
/// profile's multiplier for the upcard.
pub(crate) fn score_hand(
    profile: &Profile,
    upcard: Option<Card>,
    knocker: &Knocker,
    defender: &Defender,
) -> Result<HandScore, HandError> {
    let (knocker, reply, knock_limit, big_gin) = showdown(profile, upcard, knocker, defender)?;
    let multiplier = profile.multiplier_for(upcard)?;
    let settlement = settle(
        profile,
        multiplier,
        knocker.deadwood,
        reply.deadwood,
        big_gin,
    );
    Ok(HandScore {
        showdown: Showdown {
            knocker,
            defender: reply.into(),
            knock_limit,
            big_gin,
        },
        settlement,
    })
}

/// Collects a side's cards, rejecting repeats within the hand or across hands.
fn distinct(side: Side, cards: &[Card], other: CardSet) -> Result<CardSet, HandError> {
    let mut set = CardSet::EMPTY;
    for (index, &card) in cards.iter().enumerate() {
        if !set.insert(card) || other.contains(card) {
            return Err(HandError::DuplicateCard { side, index, card });
        }
    }
    Ok(set)
}

/// Checks a declared arrangement against a hand.
fn declared_melds(
    side: Side,
    melds: &[Vec<Card>],
    hand: CardSet,
) -> Result<(Vec<Meld>, CardSet), HandError> {
    let report = check_arrangement(melds, Some(hand));
    match (report.valid_melds(), report.deadwood) {
        (Some(valid), Some((rest, _))) => Ok((valid, rest)),
        _ => Err(HandError::InvalidMelds { side, report }),
    }
}

/// Whether a knock of these card counts is big gin: the knocker keeps 10
/// cards, or 11 for big gin where the profile plays it; the defender holds 10.
pub(crate) fn is_big_gin(
    profile: &Profile,
    knocker_cards: usize,
    defender_cards: usize,
) -> Result<bool, HandError> {
    let big_gin = match knocker_cards {
        10 => false,
        11 if profile.big_gin_bonus().is_none() => return Err(HandError::BigGinNotPlayed),
        11 => true,
        found => {
            return Err(HandError::WrongCardCount {
                side: Side::Knocker,
                expected: "10 (11 for big gin)",
                found,
            });
        }
    };
    if defender_cards != 10 {
        return Err(HandError::WrongCardCount {
            side: Side::Defender,
            expected: "10",
            found: defender_cards,
        });
    }
    Ok(big_gin)
}

/// Lays both hands down: the knocker's arrangement (declared, or the best for the
/// knocker) and the defender's reply (declared and checked, or the best), with
/// the knock limit that applied and whether it is big gin.
fn showdown(
    profile: &Profile,
    upcard: Option<Card>,
    knocker: &Knocker,
    defender: &Defender,
) -> Result<(Arrangement, DefenderReply, u32, bool), HandError> {
    let knock_limit = profile.knock_limit_for(upcard)?;
    profile.multiplier_for(upcard)?;
    let knocker_cards = distinct(Side::Knocker, &knocker.hand, CardSet::EMPTY)?;
    let defender_cards = distinct(Side::Defender, &defender.hand, knocker_cards)?;
    let big_gin = is_big_gin(profile, knocker_cards.len(), defender_cards.len())?;
    if big_gin {
        let deadwood = min_deadwood(knocker_cards);
        if deadwood > 0 {
            return Err(HandError::NotBigGin { deadwood });
        }
    }
    let limit = if big_gin { 0 } else { knock_limit };

    let (knocker_side, reply) = match &knocker.melds {
        Some(declared) => {
            let (melds, rest) = declared_melds(Side::Knocker, declared, knocker_cards)?;
            let deadwood = rest.value();
            if deadwood > limit {
                return Err(if big_gin {
                    HandError::NotBigGin { deadwood }
                } else {
                    HandError::KnockOverLimit { deadwood, limit }
                });
            }
            let arrangement = Arrangement {
                melds,
                deadwood_cards: rest,
                deadwood_jokers: Jokers::NONE,
                deadwood,
            };
            let reply = defender_reply(profile, &arrangement, defender, defender_cards)?;
            (arrangement, reply)
        }
        None => {
            // Ten or eleven cards, checked above.
            let candidates = super::arrangements::within_limit(knocker_cards, limit);
            if candidates.is_empty() {
                return Err(HandError::KnockOverLimit {
                    deadwood: min_deadwood(knocker_cards),
                    limit,
                });
            }
            let mut best: Option<(i64, u32, Arrangement, DefenderReply)> = None;
            for arrangement in candidates {
                let reply = defender_reply(profile, &arrangement, defender, defender_cards)?;
                let net = net_for_knocker(&settle(
                    profile,
                    1,
                    arrangement.deadwood,
                    reply.deadwood,
                    big_gin,
                ));
                let better = best.as_ref().is_none_or(|(best_net, best_deadwood, _, _)| {
                    (net, std::cmp::Reverse(arrangement.deadwood))
                        > (*best_net, std::cmp::Reverse(*best_deadwood))
                });
                if better {
                    best = Some((net, arrangement.deadwood, arrangement, reply));
                }
            }
            match best {
                Some((_, _, arrangement, reply)) => (arrangement, reply),
                None => {
                    return Err(HandError::KnockOverLimit {
                        deadwood: min_deadwood(knocker_cards),
                        limit,
                    });
                }
            }
        }
    };
    Ok((knocker_side, reply, limit, big_gin))
}

/// The defender's reply to one knocker arrangement: as declared (checked), or the best.
fn defender_reply(
    profile: &Profile,
    knocker: &Arrangement,
    defender: &Defender,
    cards: CardSet,
) -> Result<DefenderReply, HandError> {
    let layoffs_allowed = knocker.deadwood > 0 || profile.layoffs_on_gin();
    match (&defender.melds, &defender.layoffs) {
        (None, None) => Ok(best_reply(&knocker.melds, cards, layoffs_allowed)),
        (None, Some(layoffs)) => {
            let laid = check_layoffs(&knocker.melds, cards, layoffs, layoffs_allowed)?;
            let rest = crate::deadwood::natural::best_arrangement(cards.difference(laid));
            Ok(DefenderReply {
                melds: rest.melds,
                layoffs: layoffs.clone(),
                deadwood_cards: rest.deadwood_cards,
                deadwood: rest.deadwood,
            })
        }
        (Some(melds), layoffs) => {
            let (melds, unmelded) = declared_melds(Side::Defender, melds, cards)?;
            match layoffs {
                Some(layoffs) => {
                    let laid = check_layoffs(&knocker.melds, unmelded, layoffs, layoffs_allowed)?;
                    let rest = unmelded.difference(laid);
                    Ok(DefenderReply {
                        layoffs: layoffs.clone(),
                        ..fixed_reply(&knocker.melds, melds, laid, rest)
                    })
                }
                None => {
                    let laid = if layoffs_allowed {
                        all_feasible_layoffs(&knocker.melds, unmelded)
                    } else {
                        CardSet::EMPTY
                    };
                    Ok(fixed_reply(
                        &knocker.melds,
                        melds,
                        laid,
                        unmelded.difference(laid),
                    ))
                }
            }
        }
    }
}
