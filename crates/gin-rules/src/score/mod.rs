//! Scoring one hand: the knock, the knocker's arrangement, the defender's reply,
//! and the points.
//!
//! # The knocker's arrangement
//!
//! When the knocker declares melds they are checked (legal, disjoint, in the hand,
//! deadwood within the knock limit) and used. When not, the service picks the
//! arrangement best for the knocker, as `docs/RULES.md` ("The knocker's
//! arrangement") says: it enumerates every legal arrangement (every collection of
//! disjoint melds, including ones that keep a meld as deadwood) whose count is
//! within the limit, plays the defender's best reply against each, and keeps the
//! one with the highest net result for the knocker (points won, or minus points
//! lost to an undercut), ties broken by the lower knocker count, then by the first
//! in a fixed order: melds sorted by [`Meld`](crate::Meld)'s order, arrangements compared meld
//! by meld (the enumeration order). Two runs that touch in one suit are always one
//! run (cutting a run changes neither the count nor what can be laid off), so they
//! are not listed twice.
//!
//! Bound: a 10-card hand contains at most a few dozen melds; collections of
//! disjoint ones within the limit number in the low hundreds at worst, each met
//! by one [`best_reply`](crate::best_reply) search.

use crate::StandsFor;
use crate::card::Card;
use crate::deadwood::Arrangement;
use crate::declared::DeclaredMelds;
use crate::hand::{Hand, HandCard};
use crate::layoff::{DeclaredReply, Search, declares_jokers, shows_jokers};
use crate::profile::{JokerRules, Profile};

pub(crate) mod arrangements;
mod hand_score;
pub(crate) mod knock;
#[cfg(test)]
mod tests;

pub use hand_score::{
    Breakdown, DefenderHand, HandError, HandScore, KnockerHand, Outcome, Settlement, Showdown,
    Side, settle,
};

/// The twin of the reply searches a knock of these hands takes, as
/// [`Search::for_knock`] chooses it: both hands' cards and declared melds,
/// the defender's declared layoffs, and whether either names a joker in
/// its joker map (an empty map names none, as in every other entry).
#[inline]
pub(crate) fn knock_search(knocker: &KnockerHand, defender: &DefenderHand) -> Search {
    let natural = |cards: &[HandCard]| cards.iter().all(|card| card.natural().is_some());
    let names = |map: &Option<StandsFor>| map.is_some_and(|map| !map.is_empty());
    Search::for_knock(
        names(&knocker.jokers) || names(&defender.jokers),
        !(natural(&knocker.hand) && natural(&defender.hand))
            || declares_jokers(&knocker.melds)
            || declares_jokers(&defender.melds),
        defender.layoffs.as_deref(),
    )
}

/// Scores a whole hand from the cards: both hands laid down (declared melds
/// and layoffs checked, what is not declared played best: the module docs),
/// then [`settle`]d with the profile's multiplier for the upcard. Every knock
/// takes the one pipeline of `knock.rs`, with or without jokers.
pub fn score_hand(
    profile: &Profile,
    upcard: Option<Card>,
    knocker: &KnockerHand,
    defender: &DefenderHand,
) -> Result<HandScore, HandError> {
    let search = knock_search(knocker, defender);
    let declared = knocker.melds.as_ref().map(|melds| DeclaredMelds {
        melds: melds.clone(),
        stands_for: knocker.jokers.unwrap_or_default(),
    });
    knock::score_knock(
        search,
        profile,
        upcard,
        &knocker.hand,
        declared.as_ref(),
        &defender.hand,
        &defender.declared(),
    )
}

/// Every arrangement of the knocker's hand with deadwood within `limit`, in
/// a fixed order: the choices [`score_hand`] weighs when the knocker declares
/// no melds (see the module docs). With jokers, every card each joker may
/// stand for. A hand of more than [`Hand::MAX_CARDS`] cards lists nothing.
pub fn knocker_arrangements(
    hand: impl Into<Hand>,
    rules: &JokerRules,
    limit: u32,
) -> Vec<Arrangement> {
    let hand = hand.into();
    if hand.len() > Hand::MAX_CARDS {
        return Vec::new();
    }
    match hand.joker_free() {
        Some(cards) => arrangements::within_limit(cards, limit),
        None => knock::knocker_arrangements(hand, rules, limit),
    }
}

/// Scores a knock whose knocker has laid `knocker` down (an arrangement of
/// `knocker_hand`, such as the one [`score_hand`] chose, or declared melds
/// an audit has checked), the defender replying as `reply` declares (what is
/// not declared is played best). The knock is checked as [`score_hand`]
/// checks it (card counts, knock limit, big gin), and the points settled the
/// same way.
///
/// ```
/// use gin_rules::{parse_hand, score_hand, score_laid_down, DeclaredReply, DefenderHand, KnockerHand, Preset};
/// let jokers = Preset::Jokers.profile();
/// let knocker = parse_hand("5H X1 7H 9S 9D 9C KS KD KC 2C")?;
/// let defender = parse_hand("8H 4H QS QD JC 3S 3D 6C 7C X2")?;
/// let best = score_hand(&jokers, None, &KnockerHand::of_cards(knocker.cards()), &DefenderHand::of_cards(defender.cards()))?;
/// // The knocker counts 2 (X1 stands for 6H); the defender lays 4H and 8H off
/// // the run, melds QS QD X2 and counts 10 + 3 + 3 + 6 + 7 = 29.
/// assert_eq!((best.showdown.knocker.deadwood, best.showdown.defender.deadwood()), (2, 29));
/// assert_eq!(best.settlement.points, 27);
/// // The knocker's melds as laid down, the defender's best reply: the same score.
/// let again = score_laid_down(&jokers, None, knocker, best.showdown.knocker.clone(), defender, &DeclaredReply::default())?;
/// assert_eq!(again, best);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn score_laid_down(
    profile: &Profile,
    upcard: Option<Card>,
    knocker_hand: Hand,
    knocker: Arrangement,
    defender: Hand,
    reply: &DeclaredReply,
) -> Result<HandScore, HandError> {
    let search = Search::for_knock(
        !reply.jokers.is_empty(),
        knocker_hand.joker_free().is_none()
            || shows_jokers(&knocker.melds, defender)
            || declares_jokers(&reply.melds),
        reply.layoffs.as_deref(),
    );
    knock::score_laid_down(
        search,
        profile,
        upcard,
        knocker_hand,
        knocker,
        defender,
        reply,
    )
}

/// [`score_hand`] of two hands with nothing declared: the tests' shorthand.
#[cfg(test)]
pub(crate) fn score_cards(
    profile: &Profile,
    upcard: Option<Card>,
    knocker: Hand,
    defender: Hand,
) -> Result<HandScore, HandError> {
    score_hand(
        profile,
        upcard,
        &KnockerHand::of_cards(knocker.cards()),
        &DefenderHand::of_cards(defender.cards()),
    )
}
