//! A defender's reply as declared, checked against the knocker's melds:
//! its own melds checked as a knocker's are, its layoffs checked and placed
//! ([`super::placement`]), what is not declared played best. One path for
//! every hand, with or without jokers.

use crate::StandsFor;
use crate::card::CardSet;
use crate::deadwood::{Arrangement, best_arrangement_avoiding};
use crate::declared::{
    DeclaredFault, DeclaredFaultCode, DeclaredMelds, DeclaredPlace, declared_arrangement,
};
use crate::hand::{Hand, HandCard, Jokers};
use crate::meld::Meld;
use crate::profile::JokerRules;

use super::Search;
use super::jokers::shown_by;
use super::placement::check_declared_layoffs;
use super::reply::{DeclaredReply, DefenderReply, Layoff, ReplyError};

/// The defender's declared melds, checked as a knocker's are
/// ([`declared_arrangement`]), and none showing a card of `table`.
fn defender_melds(
    defender: Hand,
    melds: &[Vec<HandCard>],
    jokers: StandsFor,
    rules: &JokerRules,
    table: CardSet,
) -> Result<Arrangement, ReplyError> {
    let declared = DeclaredMelds {
        melds: melds.to_vec(),
        stands_for: jokers,
    };
    let own = declared_arrangement(defender, &declared, rules).map_err(ReplyError::Melds)?;
    let faults: Vec<DeclaredFault> = own
        .melds
        .iter()
        .enumerate()
        .filter_map(|(index, meld)| {
            let card = meld.cards().intersection(table).iter().next()?;
            Some(DeclaredFault {
                place: DeclaredPlace::Meld(index),
                code: DeclaredFaultCode::CardInTwoMelds,
                message: format!("{card} is already on the table, in a meld of the knocker"),
            })
        })
        .collect();
    if faults.is_empty() {
        Ok(own)
    } else {
        Err(ReplyError::Melds(faults))
    }
}

/// Checks a defender's declared reply against the knocker's melds, under the
/// rules of [`best_reply`]: every card on the table (the knocker's
/// melds, the defender's melds and layoffs) stands for a distinct card; a
/// knocker's joker fixes what its meld shows; a joker is laid off only where
/// `joker_layoff` allows, standing for the card that extends a run or
/// completes a three-card set; layoffs chain on runs.
///
/// What is declared is checked; what is not is played best for the defender:
///
/// - melds and layoffs: both checked, the rest is deadwood;
/// - melds only: the best layoffs of the cards left out of them (the least
///   count, then the fewest layoffs);
/// - layoffs only: the best melds of the rest, none showing a card on the
///   table;
/// - neither: [`best_reply`].
///
/// Layoffs that all name their meld are played in the order given, each
/// against its meld as grown so far. When
/// one names none, the referee places them: each onto a meld it may go onto
/// (the one named, or any) so that every knocker meld with its layoffs is
/// still a meld, the first such placement in meld order; the reply lists
/// them in an order in which each is legal when played. When no placement
/// is legal, the first layoff that cannot be played in the order given is
/// the error.
///
/// ```
/// use gin_rules::{parse_hand, Card, Joker, JokerRules, HandCard, Meld};
/// use gin_rules::{declared_reply, DeclaredReply, DeclaredLayoff, ReplyError};
/// let rules = JokerRules::TWO_JOKERS;
/// let six: Card = "6H".parse()?;
/// let run = Meld::with_jokers(gin_rules::cards("5H 7H")?, &[(Joker::X1, six)], &rules)?;
/// let defender = parse_hand("8H X2 KS KD 2C 3C 4D 5D 9S 9D")?;
/// let lay = |card: &str, stands_for: Option<&str>| DeclaredLayoff {
///     card: card.parse().unwrap(),
///     stands_for: stands_for.map(|c| c.parse().unwrap()),
///     meld: Some(0),
/// };
/// // 8H, then X2 standing for 9H, onto the run 5H 6H 7H.
/// let declared = DeclaredReply {
///     layoffs: Some(vec![lay("8H", None), lay("X2", Some("9H"))]),
///     ..DeclaredReply::default()
/// };
/// let reply = declared_reply(&[run], defender, &declared, &rules, true)?;
/// assert_eq!(reply.layoffs[1].stands_for.to_string(), "9H");
/// // X2 cannot stand for 6H: the knocker's X1 already shows it.
/// let declared = DeclaredReply { layoffs: Some(vec![lay("X2", Some("6H"))]), ..DeclaredReply::default() };
/// let error = declared_reply(&[run], defender, &declared, &rules, true).unwrap_err();
/// assert!(matches!(error, ReplyError::DoesNotFit { index: 0, .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub(crate) fn declared_reply(
    search: Search,
    knocker_melds: &[Meld],
    defender: Hand,
    declared: &DeclaredReply,
    rules: &JokerRules,
    layoffs_allowed: bool,
) -> Result<DefenderReply, ReplyError> {
    let table = shown_by(knocker_melds);
    let Some(melds) = &declared.melds else {
        if !declared.jokers.is_empty() {
            // A joker map with no melds: the same fault as a map entry no
            // declared meld holds.
            defender_melds(defender, &[], declared.jokers, rules, table)?;
        }
        let Some(layoffs) = &declared.layoffs else {
            return Ok(search.best_reply(knocker_melds, defender, rules, layoffs_allowed));
        };
        let laid = check_declared_layoffs(
            knocker_melds,
            defender,
            defender,
            table,
            layoffs,
            rules,
            layoffs_allowed,
        )?;
        let rest = without_laid(defender, &laid);
        let blocked = laid
            .iter()
            .fold(table, |acc, l| acc.union(CardSet::single(l.stands_for)));
        return Ok(DefenderReply {
            arrangement: best_arrangement_avoiding(rest, rules, blocked),
            layoffs: laid,
        });
    };
    let own = defender_melds(defender, melds, declared.jokers, rules, table)?;
    let unmelded = own
        .deadwood_jokers
        .iter()
        .fold(Hand::from(own.deadwood_cards), |hand, joker| {
            hand.with(HandCard::Joker(joker))
        });
    let blocked = table.union(own.melded());
    let laid = match &declared.layoffs {
        Some(layoffs) => check_declared_layoffs(
            knocker_melds,
            defender,
            unmelded,
            blocked,
            layoffs,
            rules,
            layoffs_allowed,
        )?,
        None if layoffs_allowed => search.best_layoffs(knocker_melds, unmelded, blocked, rules),
        None => Vec::new(),
    };
    let rest = without_laid(unmelded, &laid);
    let deadwood_jokers: Jokers = rest.jokers().collect();
    let left_out = u32::try_from(deadwood_jokers.len()).unwrap_or(0);
    Ok(DefenderReply {
        arrangement: Arrangement {
            melds: own.melds,
            deadwood_cards: rest.naturals(),
            deadwood: rest.naturals().value() + left_out * u32::from(rules.joker_deadwood()),
            deadwood_jokers,
        },
        layoffs: laid,
    })
}

/// The hand less the cards and jokers laid off.
fn without_laid(hand: Hand, laid: &[Layoff]) -> Hand {
    laid.iter().fold(hand, |hand, l| hand.without(l.card))
}
