//! Layoffs: the defender's reply to a knock.
//!
//! Only the defender lays off, only onto the knocker's melds: a 3-card set
//! takes its fourth card, a 4-card set takes nothing, and a run takes the next
//! card at either end, including cards that extend an earlier layoff (the 6
//! and the 2 of hearts both go onto 3-4-5 of hearts). Under a profile with
//! jokers, every card on the table stands for a distinct card: a knocker's
//! joker fixes what its meld shows, and a defender's joker may be laid off
//! (`joker_layoff`) standing for the card that extends a run or completes a
//! three-card set.
//!
//! [`best_reply`] searches the defender's melds and layoffs together for the
//! least count. The search has two twins, chosen inside it as `deadwood/`
//! chooses its solver: the bit-mask search of `natural.rs` (which has the
//! argument) for a hand without a joker against melds without one, the
//! joker search of `jokers.rs` for the others; both give the same reply
//! where both apply (`tests.rs`). Everything else is written once for every
//! hand: [`declared_reply`] checks a reply as a defender declares it
//! (`declared.rs`) and plays the rest best, and `placement.rs` checks and
//! places declared layoffs, for the scoring and the audits alike.

pub(crate) mod declared;
pub(crate) mod jokers;
pub(crate) mod natural;
pub(crate) mod placement;
pub(crate) mod reply;
#[cfg(test)]
mod tests;

use crate::card::CardSet;
use crate::hand::{Hand, HandCard};
use crate::meld::Meld;
use crate::profile::JokerRules;

pub use reply::{DeclaredLayoff, DeclaredReply, DefenderReply, Layoff, ReplyError};

/// The defender's best reply to the knocker's melds: its own melds and its
/// layoffs chosen together for the least count, then the fewest layoffs. With
/// `layoffs_allowed` false (a gin hand under most profiles) the defender only
/// arranges its own melds.
///
/// ```
/// use gin_rules::{best_reply, cards, JokerRules, Meld};
/// // The 6 and the 2 of hearts both go onto 3-4-5 of hearts.
/// let knocker = [
///     Meld::try_from(cards("3H 4H 5H").unwrap()).unwrap(),
///     Meld::try_from(cards("9S 9H 9D").unwrap()).unwrap(),
/// ];
/// let defender = cards("6H 2H JS JH JD 7S 7H 7C 4C 5S").unwrap();
/// let reply = best_reply(&knocker, defender, &JokerRules::NONE, true);
/// let laid: Vec<String> = reply.layoffs.iter().map(|l| l.card.to_string()).collect();
/// assert_eq!(laid, ["2H", "6H"]);
/// assert_eq!(reply.deadwood(), 9);
/// ```
pub fn best_reply(
    knocker_melds: &[Meld],
    defender: impl Into<Hand>,
    rules: &JokerRules,
    layoffs_allowed: bool,
) -> DefenderReply {
    // Nothing declared: the bit-mask twin itself checks the knocker's melds
    // and the defender's cards for a joker, all the knock shows here.
    let defender = defender.into();
    Search::for_knock(false, false, None).best_reply(
        knocker_melds,
        defender,
        rules,
        layoffs_allowed,
    )
}

/// Whether a joker is among the knocker's melds or the defender's cards.
#[inline]
pub(crate) fn shows_jokers(knocker_melds: &[Meld], defender: Hand) -> bool {
    defender.joker_free().is_none() || knocker_melds.iter().any(|m| m.joker_count() > 0)
}

/// Whether a joker is in one of these declared melds.
#[inline]
pub(crate) fn declares_jokers(melds: &Option<Vec<Vec<HandCard>>>) -> bool {
    melds
        .iter()
        .flatten()
        .any(|meld| meld.iter().any(|card| card.natural().is_none()))
}

/// Which twin of a reply search runs. The two find replies of the same count
/// with the same layoffs, melds and deadwood, but list the layoffs in
/// different legal playing orders (the bit-mask search wave by wave outward
/// from the knocker's runs, the joker search meld by meld); a knock chooses
/// the twin once, for the whole knock, in one place ([`Search::for_knock`]),
/// so that its layoffs come in one order from every step of it and from
/// every entry that lays off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Search {
    /// The bit-mask search wherever it applies: no joker in the defender's
    /// cards nor in the knocker's melds.
    Fastest,
    /// The joker search, whatever the cards.
    Jokers,
}

impl Search {
    /// The twin a knock's reply searches take, the one place it is chosen
    /// for every entry that lays off ([`best_reply`], [`declared_reply`],
    /// [`crate::score_hand`], [`crate::score_laid_down`], the audits and the
    /// live state): the bit-mask twin wherever it applies when nothing the
    /// knock shows is a joker (`jokers_shown`: a joker among both hands'
    /// cards or in a declared meld; `layoffs`: the defender's declared
    /// layoffs, each to name its meld) and no joker map names a joker
    /// (`jokers_named`; an empty map names none); the joker search otherwise. An
    /// entry passes what it is given of the knock: the choice only matters
    /// where the defender's layoffs are searched, and there the same hands
    /// give the same twin. The bit-mask twin checks the knocker's melds and
    /// the cards it searches itself: an entry that searches every card of
    /// the defender may leave those out of `jokers_shown`.
    #[inline]
    pub(crate) fn for_knock(
        jokers_named: bool,
        jokers_shown: bool,
        layoffs: Option<&[DeclaredLayoff]>,
    ) -> Search {
        let layoffs_natural = layoffs.into_iter().flatten().all(|layoff| {
            layoff.stands_for.is_none() && layoff.meld.is_some() && layoff.card.natural().is_some()
        });
        if jokers_named || jokers_shown || !layoffs_natural {
            Search::Jokers
        } else {
            Search::Fastest
        }
    }

    /// The defender's cards when the bit-mask search runs.
    fn bit_mask(self, knocker_melds: &[Meld], defender: Hand) -> Option<CardSet> {
        let knocker_natural = knocker_melds.iter().all(|m| m.joker_count() == 0);
        match self {
            Search::Fastest if knocker_natural => defender.joker_free(),
            Search::Fastest | Search::Jokers => None,
        }
    }

    /// The defender's best reply (see [`best_reply`]).
    pub(crate) fn best_reply(
        self,
        knocker_melds: &[Meld],
        defender: Hand,
        rules: &JokerRules,
        layoffs_allowed: bool,
    ) -> DefenderReply {
        match self.bit_mask(knocker_melds, defender) {
            Some(cards) => natural::best_reply(knocker_melds, cards, layoffs_allowed),
            None => jokers::best_reply(knocker_melds, defender, rules, layoffs_allowed),
        }
    }

    /// The best layoffs of the defender's cards its declared melds leave
    /// out, `blocked` being every card on the table: the least count of what
    /// is left, then the fewest layoffs.
    pub(crate) fn best_layoffs(
        self,
        knocker_melds: &[Meld],
        unmelded: Hand,
        blocked: CardSet,
        rules: &JokerRules,
    ) -> Vec<Layoff> {
        match self.bit_mask(knocker_melds, unmelded) {
            Some(cards) => natural::best_layoffs(knocker_melds, cards),
            None => jokers::best_layoffs(knocker_melds, unmelded, blocked, rules),
        }
    }
}

/// The defender's count after its [`best_reply`], or `None` as soon as some
/// reply is found to count less than `floor`: a caller that only needs to
/// know whether the best reply leaves at least `floor` (the knocker's choice
/// of arrangement) stops at the first reply that proves it does not. A
/// count lists no layoffs and is the same from either twin, so it takes the
/// fastest that applies.
pub(crate) fn best_reply_count_at_least(
    knocker_melds: &[Meld],
    defender: Hand,
    rules: &JokerRules,
    layoffs_allowed: bool,
    floor: u32,
) -> Option<u32> {
    match Search::Fastest.bit_mask(knocker_melds, defender) {
        Some(cards) => {
            natural::best_reply_count_at_least(knocker_melds, cards, layoffs_allowed, floor)
        }
        None => jokers::best_reply_count_at_least(
            knocker_melds,
            defender,
            rules,
            layoffs_allowed,
            floor,
        ),
    }
}

/// Checks a defender's declared reply against the knocker's melds (see
/// [`DeclaredReply`]): every card on the table stands for a distinct card, a
/// joker is laid off only where the rules allow it, layoffs chain on runs.
/// What is declared is checked; what is not is played best for the defender.
pub fn declared_reply(
    knocker_melds: &[Meld],
    defender: impl Into<Hand>,
    declared: &DeclaredReply,
    rules: &JokerRules,
    layoffs_allowed: bool,
) -> Result<DefenderReply, ReplyError> {
    let defender = defender.into();
    let search = Search::for_knock(
        !declared.jokers.is_empty(),
        shows_jokers(knocker_melds, defender) || declares_jokers(&declared.melds),
        declared.layoffs.as_deref(),
    );
    declared::declared_reply(
        search,
        knocker_melds,
        defender,
        declared,
        rules,
        layoffs_allowed,
    )
}
