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
//! least count (`natural` has the argument for hands without a joker, the
//! joker search in `jokers` for the others); [`declared_reply`] checks
//! a reply as a defender declares it and plays the rest best. The choice of
//! path is [`Hand::joker_free`]'s, and both give the same reply on a hand
//! without jokers against melds without jokers (`tests.rs`).

pub(crate) mod jokers;
pub(crate) mod natural;
pub(crate) mod reply;
#[cfg(test)]
mod tests;

use crate::hand::Hand;
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
    let defender = defender.into();
    let knocker_natural = knocker_melds.iter().all(|m| m.joker_count() == 0);
    match defender.joker_free() {
        Some(cards) if knocker_natural => {
            natural::best_reply(knocker_melds, cards, layoffs_allowed).into()
        }
        _ => jokers::best_reply(knocker_melds, defender, rules, layoffs_allowed),
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
    jokers::declared_reply(
        knocker_melds,
        defender.into(),
        declared,
        rules,
        layoffs_allowed,
    )
}
