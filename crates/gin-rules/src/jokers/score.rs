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

use crate::card::{Card, CardSet};
use crate::hand::Hand;
use crate::profile::Profile;
use std::cmp::Reverse;

use crate::score::{
    HandError, Settlement as HandSettlement, Side, is_big_gin, knocker_arrangements,
    net_for_knocker, settle,
};

use super::declared::{DeclaredFault, DeclaredWildMelds, declared_wild_arrangement};
use super::layoff::best_reply_count_at_least;
use super::solve::plans_within;
use super::{
    Problem, WildDeclaration, WildReply, WildReplyError, min_deadwood_avoiding, wild_best_reply,
    wild_declared_reply,
};
use crate::deadwood::Arrangement;
use crate::hand::{HandCard, HandReadFault};

/// Both hands laid down.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WildShowdown {
    /// The knocker's arrangement (the knocker never lays off).
    pub knocker: Arrangement,
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
    /// A hand's list repeats a card or holds a joker the profile's deck does
    /// not (any joker without jokers, `X2` with one).
    #[error("the {side} hand: {fault}", side = side.name())]
    Read {
        /// The hand at fault.
        side: Side,
        /// The fault, with its position in the list.
        fault: HandReadFault,
    },
    /// A card or joker of the defender's that the knocker holds too.
    #[error("{card} is in both hands")]
    InBothHands {
        /// Its position in the defender's list.
        index: usize,
        /// The card.
        card: HandCard,
    },
    /// Declared melds that are not legal, overlap, use cards not held or
    /// leave a joker's card unnamed: every fault found.
    #[error("the knocker's declared melds are not legal")]
    InvalidMelds(Vec<DeclaredFault>),
    /// The defender's declared reply is not legal.
    #[error(transparent)]
    Reply(WildReplyError),
    /// What the joker-free scoring also refuses: a wrong number of cards, a
    /// knock over the limit, big gin not played or not melded, a profile that
    /// needs the upcard.
    #[error(transparent)]
    Hand(#[from] HandError),
}

impl WildHandError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            WildHandError::Read { fault, .. } => fault.code(),
            WildHandError::InBothHands { .. } => "duplicate_card",
            WildHandError::InvalidMelds(_) => "invalid_melds",
            WildHandError::Reply(error) => error.code(),
            WildHandError::Hand(error) => error.code(),
        }
    }
}

/// Every arrangement of the knocker's hand with a count within `limit`, in
/// the solver's fixed order (see the module docs).
pub(super) fn knocker_candidates(problem: &Problem, limit: u32) -> Vec<Arrangement> {
    let held = problem.held_jokers();
    let mut found = Vec::new();
    for (plan, _) in plans_within(problem.avail, problem.blocked, problem.params, limit) {
        let out = problem.params.jokers - plan.jokers();
        let extra = plan.held_cost() + out * problem.params.joker_deadwood;
        let Some(room) = limit.checked_sub(extra) else {
            continue;
        };
        let rest = CardSet::from_bits(problem.avail & !plan.cards());
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
/// use gin_rules::{score_wild_hand, parse_hand, Outcome, Preset, Side};
/// let jokers = Preset::Jokers.profile();
/// let knocker = parse_hand("5H X1 7H 9S 9D 9C KS KD KC 2C")?;
/// let defender = parse_hand("8H 4H QS QD JC 3S 3D 6C 7C X2")?;
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
    knocker: Hand,
    defender: Hand,
) -> Result<WildHandScore, WildHandError> {
    let knocker: Vec<HandCard> = knocker.cards().collect();
    let defender: Vec<HandCard> = defender.cards().collect();
    score_wild_knock(
        profile,
        upcard,
        &knocker,
        None,
        &defender,
        &WildDeclaration::default(),
    )
}

/// [`score_wild_hand`] from the two hands' lists of cards, where the
/// knocker may declare its melds. Each list is read under the profile's
/// deck ([`Hand::read`]); a defender's card the knocker holds is
/// refused. Declared melds are checked ([`declared_wild_arrangement`]), must
/// be within the knock limit (all eleven cards melded for big gin), and the
/// defender replies to them at best; `None` chooses the arrangement as
/// [`score_wild_hand`] does.
///
/// ```
/// use gin_rules::{score_wild_knock, DeclaredWildMelds};
/// use gin_rules::{Joker, Preset, HandCard, WildDeclaration};
/// let jokers = Preset::Jokers.profile();
/// let list = |text: &str| text.split(' ').map(str::parse).collect::<Result<Vec<HandCard>, _>>();
/// let knocker = list("5H X1 7H 9S 9D 9C KS KD KC 2C")?;
/// let defender = list("8H 4H QS QD JC 3S 3D 6C 7C X2")?;
/// // X1 declared as 6H in the run, as the referee would choose.
/// let declared = DeclaredWildMelds {
///     melds: vec![list("5H X1 7H")?, list("9S 9D 9C")?, list("KS KD KC")?],
///     stands_for: vec![(Joker::X1, "6H".parse()?)],
/// };
/// let reply = WildDeclaration::default(); // the defender's best reply
/// let score = score_wild_knock(&jokers, None, &knocker, Some(&declared), &defender, &reply)?;
/// assert_eq!((score.showdown.knocker.deadwood, score.settlement.points), (2, 27));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn score_wild_knock(
    profile: &Profile,
    upcard: Option<Card>,
    knocker: &[HandCard],
    declared: Option<&DeclaredWildMelds>,
    defender: &[HandCard],
    reply: &WildDeclaration,
) -> Result<WildHandScore, WildHandError> {
    let read = |side: Side, cards: &[HandCard]| {
        Hand::read(cards, profile.jokers()).map_err(|fault| WildHandError::Read { side, fault })
    };
    let knocker = read(Side::Knocker, knocker)?;
    let defender_list = defender;
    let defender = read(Side::Defender, defender_list)?;
    if let Some((index, &card)) = defender_list
        .iter()
        .enumerate()
        .find(|&(_, &card)| knocker.contains(card))
    {
        return Err(WildHandError::InBothHands { index, card });
    }
    let knock = Knock::check(profile, upcard, knocker, defender)?;
    let rules = profile.joker_rules();
    let (knocker, defender) = match declared {
        Some(declared) => {
            let knocker = declared_wild_arrangement(knocker, declared, &rules)
                .map_err(WildHandError::InvalidMelds)?;
            knock.admits(&knocker)?;
            let reply = knock
                .reply(profile, &knocker, defender, reply)
                .map_err(WildHandError::Reply)?;
            (knocker, reply)
        }
        None if *reply == WildDeclaration::default() => {
            best_knock(profile, &knock, knocker, defender)?
        }
        None => declared_reply_knock(profile, &knock, knocker, defender, reply)?,
    };
    Ok(knock.settle(profile, knocker, defender))
}

/// What a knock's card counts and upcard decide, checked as the joker-free
/// scoring checks them.
struct Knock {
    /// The knock limit that applies: 0 for big gin.
    limit: u32,
    multiplier: u32,
    big_gin: bool,
}

impl Knock {
    /// The knocker's 10 cards (11 for big gin, where the profile plays it)
    /// against the defender's 10.
    fn check(
        profile: &Profile,
        upcard: Option<Card>,
        knocker: Hand,
        defender: Hand,
    ) -> Result<Knock, HandError> {
        let knock_limit = profile.knock_limit_for(upcard)?;
        let multiplier = profile.multiplier_for(upcard)?;
        let big_gin = is_big_gin(profile, knocker.len(), defender.len())?;
        let limit = if big_gin { 0 } else { knock_limit };
        Ok(Knock {
            limit,
            multiplier,
            big_gin,
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
        reply: &WildDeclaration,
    ) -> Result<WildReply, WildReplyError> {
        let layoffs_allowed = knocker.deadwood > 0 || profile.layoffs_on_gin();
        let rules = profile.joker_rules();
        wild_declared_reply(&knocker.melds, defender, reply, &rules, layoffs_allowed)
    }

    /// The points of both hands laid down.
    fn settle(
        &self,
        profile: &Profile,
        knocker: Arrangement,
        defender: WildReply,
    ) -> WildHandScore {
        let settlement = settle(
            profile,
            self.multiplier,
            knocker.deadwood,
            defender.deadwood(),
            self.big_gin,
        );
        WildHandScore {
            showdown: WildShowdown {
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
    reply: &WildDeclaration,
) -> Result<(Arrangement, WildReply), WildHandError> {
    let rules = profile.joker_rules();
    let problem = Problem::new(knocker, &rules, CardSet::EMPTY);
    let candidates = candidates_within(&problem, knock)?;
    let mut best: Option<(Rank, Arrangement, WildReply)> = None;
    for (index, arrangement) in candidates.into_iter().enumerate() {
        let checked = knock
            .reply(profile, &arrangement, defender, reply)
            .map_err(WildHandError::Reply)?;
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
        .ok_or_else(|| over_the_limit(&problem, knock))
}

/// The knocker's candidates that may knock (see [`knocker_candidates`]),
/// or why none may.
fn candidates_within(problem: &Problem, knock: &Knock) -> Result<Vec<Arrangement>, WildHandError> {
    let candidates: Vec<Arrangement> = knocker_candidates(problem, knock.limit)
        .into_iter()
        // Big gin melds every card: no joker left out, even one worth 0.
        .filter(|a| !knock.big_gin || a.deadwood_jokers.is_empty())
        .collect();
    if candidates.is_empty() {
        return Err(over_the_limit(problem, knock));
    }
    Ok(candidates)
}

/// No arrangement may knock: the least count is over the limit (or, for
/// big gin, some card is left out).
fn over_the_limit(problem: &Problem, knock: &Knock) -> WildHandError {
    let deadwood = problem.least();
    if knock.big_gin {
        HandError::NotBigGin { deadwood }
    } else {
        HandError::KnockOverLimit {
            deadwood,
            limit: knock.limit,
        }
    }
    .into()
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
) -> Result<(Arrangement, WildReply), WildHandError> {
    let big_gin = knock.big_gin;
    let rules = profile.joker_rules();
    let problem = Problem::new(knocker, &rules, CardSet::EMPTY);
    let candidates = candidates_within(&problem, knock)?;
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
        let reply = wild_best_reply(&arrangement.melds, defender, &rules, layoffs_allowed);
        Some((arrangement, reply))
    });
    chosen.ok_or_else(|| over_the_limit(&problem, knock))
}

/// Why a laid-down showdown with jokers cannot be scored: what the joker-free
/// scoring also refuses, or a declared reply at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WildShowdownError {
    /// A wrong number of cards, a knock over the limit, big gin not played
    /// or not melded, a profile that needs the upcard.
    #[error(transparent)]
    Hand(#[from] HandError),
    /// The defender's declared reply is not legal.
    #[error(transparent)]
    Reply(#[from] WildReplyError),
}

/// Scores a knock whose knocker has laid `knocker` down (an arrangement of
/// `knocker_hand`: declared and checked by
/// [`declared_wild_arrangement`](super::declared_wild_arrangement), or chosen
/// by [`score_wild_hand`]), the defender replying as `reply` declares
/// ([`wild_declared_reply`]; nothing declared is its best reply). The knock
/// is checked as [`score_wild_hand`] checks it (card counts, knock limit, big
/// gin), and the points settled the same way.
///
/// ```
/// use gin_rules::{score_wild_hand, parse_hand, Preset, WildDeclaration};
/// use gin_rules::score_wild_showdown;
/// let jokers = Preset::Jokers.profile();
/// let knocker = parse_hand("5H X1 7H 9S 9D 9C KS KD KC 2C")?;
/// let defender = parse_hand("8H 4H QS QD JC 3S 3D 6C 7C X2")?;
/// let best = score_wild_hand(&jokers, None, knocker, defender)?;
/// // The knocker's melds as laid down, the defender's best reply: the same score.
/// let again = score_wild_showdown(&jokers, None, knocker, best.showdown.knocker.clone(), defender, &WildDeclaration::default())?;
/// assert_eq!(again, best);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn score_wild_showdown(
    profile: &Profile,
    upcard: Option<Card>,
    knocker_hand: Hand,
    knocker: Arrangement,
    defender: Hand,
    reply: &WildDeclaration,
) -> Result<WildHandScore, WildShowdownError> {
    let knock = Knock::check(profile, upcard, knocker_hand, defender)?;
    knock.admits(&knocker)?;
    let reply = knock.reply(profile, &knocker, defender, reply)?;
    Ok(knock.settle(profile, knocker, reply))
}
