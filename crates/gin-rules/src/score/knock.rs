//! The one knock pipeline, for every hand with or without jokers: the two
//! lists read as hands of the profile's deck, the card counts and the upcard
//! checked, the knocker's arrangement checked as declared or chosen, the
//! defender's reply checked as declared or searched, and the points settled
//! ([`settle`]: they depend only on the two counts).
//!
//! Only the searches have a joker-free twin on bit masks, chosen inside them
//! as `deadwood/` chooses its solver: the knocker's arrangements within the
//! limit ([`crate::knocker_arrangements`]), the least counts, and the
//! defender's best reply ([`crate::layoff`]). Reading, checking, placing
//! layoffs and settling are written once.
//!
//! The knocker's arrangement, when none is declared, is the one with the best
//! net result for the knocker after the defender's best reply, then the lower
//! knocker count, then the first in the fixed order of the arrangements.
//! Where a knocker's joker must stand for a card the knocker holds, it stands
//! for the cheapest. A knocker whose count is 0 goes gin, even with an
//! unmelded joker worth 0 (`joker_deadwood` 0); big gin needs every one of
//! the eleven cards melded, jokers included.

use crate::card::{Card, CardSet};
use crate::hand::{Hand, HandReadFault};
use crate::profile::Profile;
use std::cmp::Reverse;

use super::hand_score::{HandError, HandScore, Showdown, Side, net_for_knocker, settle};
use crate::score::arrangements::within_limit;

use crate::deadwood::jokers::solve::plans_within;
use crate::deadwood::jokers::{Problem, has_touching_runs};
use crate::deadwood::{Arrangement, min_deadwood, min_deadwood_avoiding};
use crate::declared::{DeclaredMelds, declared_arrangement};
use crate::hand::HandCard;
use crate::layoff::declared::declared_reply;
use crate::layoff::{DeclaredReply, DefenderReply, ReplyError, Search, best_reply_count_at_least};
use crate::profile::JokerRules;

/// Every arrangement of the knocker's hand with a count within `limit`, in
/// the solver's fixed order (see the module docs).
pub(crate) fn knocker_candidates(problem: &Problem, limit: u32) -> Vec<Arrangement> {
    let held = problem.held_jokers();
    let mut found = Vec::new();
    for (plan, _) in plans_within(problem.avail, problem.blocked, problem.params, limit) {
        let out = problem.params.jokers - plan.jokers();
        let extra = plan.held_cost() + out * problem.params.joker_deadwood;
        let Some(room) = limit.checked_sub(extra) else {
            continue;
        };
        let rest = CardSet::from_bits(problem.avail & !plan.cards());
        for rest in within_limit(rest, room) {
            let arrangement = problem.arrangement(&plan, &rest.melds, &held);
            if arrangement.deadwood <= limit && !has_touching_runs(&arrangement.melds) {
                found.push(arrangement);
            }
        }
    }
    found
}

/// Every arrangement of a hand with jokers within `limit` (see
/// [`crate::knocker_arrangements`]).
pub(crate) fn knocker_arrangements(hand: Hand, rules: &JokerRules, limit: u32) -> Vec<Arrangement> {
    knocker_candidates(&Problem::new(hand, rules, CardSet::EMPTY), limit)
}

/// [`crate::score_hand`] of a knock, from the two hands' lists of cards,
/// where the knocker may declare its melds ([`Knock::check`] reads and
/// checks the hands). Declared melds are checked ([`declared_arrangement`]),
/// must be within the knock limit (all eleven cards melded for big gin), and
/// the defender replies to them as it declares; `None` chooses the
/// arrangement as the module docs say.
///
/// `search` is the twin of the reply searches the knock takes (see
/// [`Search`]): [`crate::score_hand`] picks it for the whole knock.
pub(crate) fn score_knock(
    search: Search,
    profile: &Profile,
    upcard: Option<Card>,
    knocker: &[HandCard],
    declared: Option<&DeclaredMelds>,
    defender: &[HandCard],
    reply: &DeclaredReply,
) -> Result<HandScore, HandError> {
    let (knock, knocker, defender) = Knock::check(search, profile, upcard, knocker, defender)?;
    let rules = profile.joker_rules();
    let (knocker, defender) = match declared {
        Some(declared) => {
            let knocker =
                declared_arrangement(knocker, declared, &rules).map_err(HandError::InvalidMelds)?;
            knock.admits(&knocker)?;
            let reply = knock.reply(profile, &knocker, defender, reply)?;
            (knocker, reply)
        }
        None if *reply == DeclaredReply::default() => {
            best_knock(profile, &knock, knocker, defender)?
        }
        None => declared_reply_knock(profile, &knock, knocker, defender, reply)?,
    };
    Ok(knock.settle(profile, knocker, defender))
}

/// Reads the two lists as hands of the profile's deck. The knocker's list
/// first, at its first fault; then the defender's, position by position, at
/// the first card that repeats one of its own or is the knocker's.
fn read_hands(
    profile: &Profile,
    knocker: &[HandCard],
    defender: &[HandCard],
) -> Result<(Hand, Hand), HandError> {
    let knocker_hand = Hand::read(knocker, profile.jokers()).map_err(|fault| HandError::Read {
        side: Side::Knocker,
        fault,
    })?;
    let in_both = defender
        .iter()
        .enumerate()
        .find(|&(_, &card)| knocker_hand.contains(card));
    let read = Hand::read(defender, profile.jokers());
    let fault_at = read.as_ref().err().map(HandReadFault::index);
    match (in_both, fault_at) {
        (Some((index, &card)), fault) if fault.is_none_or(|at| index <= at) => {
            Err(HandError::InBothHands { index, card })
        }
        _ => read
            .map(|defender| (knocker_hand, defender))
            .map_err(|fault| HandError::Read {
                side: Side::Defender,
                fault,
            }),
    }
}

/// What a knock's card counts and upcard decide.
struct Knock {
    /// The knock limit that applies: 0 for big gin.
    limit: u32,
    multiplier: u32,
    big_gin: bool,
    /// The twin of the reply searches.
    search: Search,
}

impl Knock {
    /// Checks a knock in this order: the upcard the profile needs, the two
    /// hands ([`read_hands`]), then what [`Knock::of_hands`] checks.
    fn check(
        search: Search,
        profile: &Profile,
        upcard: Option<Card>,
        knocker: &[HandCard],
        defender: &[HandCard],
    ) -> Result<(Knock, Hand, Hand), HandError> {
        let knock_limit = profile.knock_limit_for(upcard)?;
        let multiplier = profile.multiplier_for(upcard)?;
        let (knocker, defender) = read_hands(profile, knocker, defender)?;
        let knock = Knock::of_read(
            search,
            profile,
            (knock_limit, multiplier),
            knocker,
            defender,
        )?;
        Ok((knock, knocker, defender))
    }

    /// The knocker's 10 cards (11 for big gin, where the profile plays it)
    /// against the defender's 10, and for big gin that the eleven cards can
    /// all meld.
    fn of_hands(
        search: Search,
        profile: &Profile,
        upcard: Option<Card>,
        knocker: Hand,
        defender: Hand,
    ) -> Result<Knock, HandError> {
        let knock_limit = profile.knock_limit_for(upcard)?;
        let multiplier = profile.multiplier_for(upcard)?;
        Knock::of_read(
            search,
            profile,
            (knock_limit, multiplier),
            knocker,
            defender,
        )
    }

    /// [`Knock::of_hands`] with the upcard's knock limit and multiplier
    /// already read (a check that reads them first, to refuse the upcard
    /// before the hands, reads them once).
    fn of_read(
        search: Search,
        profile: &Profile,
        (knock_limit, multiplier): (u32, u32),
        knocker: Hand,
        defender: Hand,
    ) -> Result<Knock, HandError> {
        let big_gin = is_big_gin(profile, knocker.len(), defender.len())?;
        if big_gin {
            let deadwood = min_deadwood(knocker, &profile.joker_rules());
            if deadwood > 0 {
                return Err(HandError::NotBigGin { deadwood });
            }
        }
        Ok(Knock {
            limit: if big_gin { 0 } else { knock_limit },
            multiplier,
            big_gin,
            search,
        })
    }

    /// A laid-down arrangement may knock: within the limit, and for big gin
    /// every card melded (no joker left out, even one worth 0).
    fn admits(&self, knocker: &Arrangement) -> Result<(), HandError> {
        if self.big_gin && (knocker.deadwood > 0 || !knocker.deadwood_jokers.is_empty()) {
            return Err(HandError::NotBigGin {
                deadwood: knocker.deadwood,
            });
        }
        if knocker.deadwood > self.limit {
            return Err(HandError::KnockOverLimit {
                deadwood: knocker.deadwood,
                limit: self.limit,
            });
        }
        Ok(())
    }

    /// The defender's reply to the knocker's melds as declared (what is not
    /// declared is played best), layoffs allowed unless the knocker went gin
    /// under a profile without layoffs on gin.
    fn reply(
        &self,
        profile: &Profile,
        knocker: &Arrangement,
        defender: Hand,
        reply: &DeclaredReply,
    ) -> Result<DefenderReply, ReplyError> {
        let layoffs_allowed = knocker.deadwood > 0 || profile.layoffs_on_gin();
        let rules = profile.joker_rules();
        declared_reply(
            self.search,
            &knocker.melds,
            defender,
            reply,
            &rules,
            layoffs_allowed,
        )
    }

    /// The points of both hands laid down.
    fn settle(
        &self,
        profile: &Profile,
        knocker: Arrangement,
        defender: DefenderReply,
    ) -> HandScore {
        let settlement = settle(
            profile,
            self.multiplier,
            knocker.deadwood,
            defender.deadwood(),
            self.big_gin,
        );
        HandScore {
            showdown: Showdown {
                knocker,
                defender,
                knock_limit: self.limit,
                big_gin: self.big_gin,
            },
            settlement,
        }
    }
}

/// The knocker's arrangement chosen (as [`best_knock`] chooses it) against
/// the defender's declared reply, checked against each candidate as the
/// joker-free scoring does: a reply that some candidate refuses is refused.
fn declared_reply_knock(
    profile: &Profile,
    knock: &Knock,
    knocker: Hand,
    defender: Hand,
    reply: &DeclaredReply,
) -> Result<(Arrangement, DefenderReply), HandError> {
    let rules = profile.joker_rules();
    let candidates = candidates_within(knocker, &rules, knock)?;
    let mut best: Option<(Rank, Arrangement, DefenderReply)> = None;
    for (index, arrangement) in candidates.into_iter().enumerate() {
        let checked = knock
            .reply(profile, &arrangement, defender, reply)
            .map_err(HandError::Reply)?;
        let settlement = settle(
            profile,
            1,
            arrangement.deadwood,
            checked.deadwood(),
            knock.big_gin,
        );
        let key = Rank::of(net_for_knocker(&settlement), arrangement.deadwood, index);
        if best.as_ref().is_none_or(|(best_key, _, _)| key > *best_key) {
            best = Some((key, arrangement, checked));
        }
    }
    best.map(|(_, arrangement, checked)| (arrangement, checked))
        .ok_or_else(|| over_the_limit(knocker, &rules, knock))
}

/// The knocker's candidates that may knock (see
/// [`crate::knocker_arrangements`]), or why none may.
fn candidates_within(
    knocker: Hand,
    rules: &JokerRules,
    knock: &Knock,
) -> Result<Vec<Arrangement>, HandError> {
    let candidates: Vec<Arrangement> = super::knocker_arrangements(knocker, rules, knock.limit)
        .into_iter()
        // Big gin melds every card: no joker left out, even one worth 0.
        .filter(|a| !knock.big_gin || a.deadwood_jokers.is_empty())
        .collect();
    if candidates.is_empty() {
        return Err(over_the_limit(knocker, rules, knock));
    }
    Ok(candidates)
}

/// No arrangement may knock: the least count is over the limit (or, for
/// big gin, some card is left out).
fn over_the_limit(knocker: Hand, rules: &JokerRules, knock: &Knock) -> HandError {
    let deadwood = min_deadwood(knocker, rules);
    if knock.big_gin {
        HandError::NotBigGin { deadwood }
    } else {
        HandError::KnockOverLimit {
            deadwood,
            limit: knock.limit,
        }
    }
}

/// Whether a knock of these card counts is big gin: the knocker keeps 10
/// cards, or 11 for big gin where the profile plays it; the defender holds 10.
fn is_big_gin(
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

/// The least count in `0..=most` for which `passes` holds, `passes` being
/// false then true as the count grows (`most` + 1 if it never holds).
fn least_passing(most: u32, passes: impl Fn(u32) -> bool) -> u32 {
    let (mut low, mut high) = (0, most.saturating_add(1));
    while low < high {
        let middle = low + (high - low) / 2;
        if passes(middle) {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    low
}

/// How good a knocker's candidate is: the knocker's net result, then the
/// lower count, then the earlier candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Rank(i64, Reverse<u32>, Reverse<usize>);

impl Rank {
    fn of(net: i64, knocker_count: u32, index: usize) -> Rank {
        Rank(net, Reverse(knocker_count), Reverse(index))
    }
}

/// The knocker's arrangement best for the knocker (see the module docs) and
/// the defender's reply to it.
fn best_knock(
    profile: &Profile,
    knock: &Knock,
    knocker: Hand,
    defender: Hand,
) -> Result<(Arrangement, DefenderReply), HandError> {
    let big_gin = knock.big_gin;
    let rules = profile.joker_rules();
    let candidates = candidates_within(knocker, &rules, knock)?;
    // The knocker's net result after the defender's best reply, highest
    // first; among equals the lower knocker count, then the earlier
    // candidate. The reply is the costly part, and the defender's count
    // without layoffs bounds it from above (layoffs only lower it), so the
    // net result it gives bounds the candidate's from above: candidates are
    // tried by that bound, and once the bound of the next is no better than
    // the best found, none left can be.
    let net = |knocker_count: u32, defender_count: u32| {
        net_for_knocker(&settle(profile, 1, knocker_count, defender_count, big_gin))
    };
    let mut order: Vec<(i64, usize, u32)> = candidates
        .iter()
        .enumerate()
        .map(|(index, arrangement)| {
            let unlaid = min_deadwood_avoiding(defender, &rules, arrangement.melded());
            (net(arrangement.deadwood, unlaid), index, unlaid)
        })
        .collect();
    order.sort_by_key(|&(bound, index, _)| {
        let count = candidates.get(index).map_or(0, |a| a.deadwood);
        Reverse(Rank::of(bound, count, index))
    });
    let mut best: Option<(Rank, usize)> = None;
    for (_, index, unlaid) in order {
        let Some(arrangement) = candidates.get(index) else {
            continue;
        };
        let passes = |count: u32| {
            let key = Rank::of(
                net(arrangement.deadwood, count),
                arrangement.deadwood,
                index,
            );
            best.is_none_or(|(best_key, _)| key > best_key)
        };
        if !passes(unlaid) {
            break;
        }
        // The least defender count with which this candidate would beat the
        // best so far: a reply counting less is enough to pass it over.
        let floor = least_passing(unlaid, passes);
        let layoffs_allowed = arrangement.deadwood > 0 || profile.layoffs_on_gin();
        let reply_count =
            best_reply_count_at_least(&arrangement.melds, defender, &rules, layoffs_allowed, floor);
        if let Some(count) = reply_count {
            let key = Rank::of(
                net(arrangement.deadwood, count),
                arrangement.deadwood,
                index,
            );
            best = Some((key, index));
        }
    }
    let chosen = best.and_then(|(_, index)| {
        let arrangement = candidates.into_iter().nth(index)?;
        let layoffs_allowed = arrangement.deadwood > 0 || profile.layoffs_on_gin();
        let reply = knock
            .search
            .best_reply(&arrangement.melds, defender, &rules, layoffs_allowed);
        Some((arrangement, reply))
    });
    chosen.ok_or_else(|| over_the_limit(knocker, &rules, knock))
}

/// [`crate::score_laid_down`] (see there), the reply searched by `search`.
pub(crate) fn score_laid_down(
    search: Search,
    profile: &Profile,
    upcard: Option<Card>,
    knocker_hand: Hand,
    knocker: Arrangement,
    defender: Hand,
    reply: &DeclaredReply,
) -> Result<HandScore, HandError> {
    let knock = Knock::of_hands(search, profile, upcard, knocker_hand, defender)?;
    knock.admits(&knocker)?;
    let reply = knock.reply(profile, &knocker, defender, reply)?;
    Ok(knock.settle(profile, knocker, reply))
}
