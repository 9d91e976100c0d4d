//! Layoffs with jokers: the defender's best reply to a knocker whose melds may
//! hold jokers, with jokers of its own.
//!
//! What the table shows decides what fits: a knocker's joker stands for a
//! definite card, so a run `5H X1=6H 7H` takes 4H or 8H and a set
//! `7S 7H X1=7D` takes only 7C. Every card on the table stands for a distinct
//! card: a natural the knocker's joker stands for can be neither laid off nor
//! melded by the defender (it stays deadwood). A defender's joker may be laid
//! off (when the rules allow it) standing for the card that extends a run or
//! completes a three-card set.
//!
//! The best reply tries every way of growing each knocker meld (a set's
//! missing card or nothing; a run's cards beyond each end, each card laid by
//! the defender's natural or by a joker), the grown melds claiming distinct
//! cards, and for each plays the defender's least count of the rest with no
//! meld showing a card on the table ([`crate::deadwood::jokers::min_deadwood_avoiding`]).
//! It keeps the least count, then the fewest layoffs, then the first in that
//! order (melds in the knocker's order; for each, no layoff first, naturals
//! before jokers, runs grown downward before upward).

use std::ops::ControlFlow;

use crate::card::{Card, CardSet};
use crate::layoff::natural::fit;
use crate::meld::{Meld, MeldKind};
use crate::profile::JokerRules;

use super::reply::{DeclaredLayoff, DeclaredReply, DefenderReply, Layoff, ReplyError};
use crate::deadwood::Arrangement;
use crate::deadwood::jokers::{best_arrangement_avoiding, min_deadwood_avoiding};
use crate::declared::{
    DeclaredFault, DeclaredFaultCode, DeclaredMelds, DeclaredPlace, declared_arrangement,
};
use crate::hand::{Hand, HandCard, Joker, Jokers};

/// How one card of a grown meld is laid: by the defender's natural or by a
/// joker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layer {
    Natural,
    Joker,
}

/// The layoffs chosen so far: cards claimed on the table, naturals and jokers
/// spent, and the layoffs in playing order.
#[derive(Debug, Clone, Default)]
struct Growth {
    claimed: u64,
    naturals: u64,
    jokers: u32,
    layoffs: Vec<(usize, Card, Layer)>,
}

/// The cards of `run` (one suit) that a run would take next, below and above,
/// as lists outward from the run: every card up to the lane's ends.
fn outward(run: CardSet) -> (Vec<Card>, Vec<Card>) {
    let bits = run.bits();
    let low = bits.trailing_zeros();
    let high = 63 - bits.leading_zeros();
    let lane_low = low - low % 16;
    let below = (lane_low..low)
        .rev()
        .filter_map(|bit| CardSet::from_bits(1 << bit).iter().next())
        .collect();
    let lane_top = lane_low + 12;
    let above = (high + 1..=lane_top)
        .filter_map(|bit| CardSet::from_bits(1 << bit).iter().next())
        .collect();
    (below, above)
}

/// The defender's best reply (see the module docs). With `layoffs_allowed`
/// false (gin, under most profiles) the defender only arranges its own melds,
/// still showing no card the knocker's melds show.
///
/// ```
/// use gin_rules::{best_reply, parse_hand, cards, Card, Joker, JokerRules, Meld};
/// let rules = JokerRules::TWO_JOKERS;
/// let six: Card = "6H".parse()?;
/// // The knocker's X1 stands for 6H: the run is 5H 6H 7H, and takes 4H and 8H.
/// let run = Meld::with_jokers(cards("5H 7H")?, &[(Joker::X1, six)], &rules)?;
/// let reply = best_reply(&[run], parse_hand("8H 9H KS KD X2")?, &rules, true);
/// let laid: Vec<String> = reply.layoffs.iter().map(|l| l.card.to_string()).collect();
/// // 8H and 9H go onto the run; X2 makes a set of the kings (KS KD X2).
/// assert_eq!(laid, ["8H", "9H"]);
/// assert_eq!(reply.deadwood(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub(crate) fn best_reply(
    knocker_melds: &[Meld],
    defender: Hand,
    rules: &JokerRules,
    layoffs_allowed: bool,
) -> DefenderReply {
    let table = shown_by(knocker_melds);
    let jokers_to_lay = if layoffs_allowed {
        layable_jokers(defender, rules)
    } else {
        0
    };
    let growth = if layoffs_allowed {
        best_growth(
            knocker_melds,
            table,
            defender,
            jokers_to_lay,
            |rest, growth| {
                let blocked = table.union(CardSet::from_bits(growth.claimed));
                min_deadwood_avoiding(rest, rules, blocked)
            },
        )
    } else {
        Growth::default()
    };
    let rest = rest_of(defender, &growth);
    let blocked = table.union(CardSet::from_bits(growth.claimed));
    let arrangement = best_arrangement_avoiding(rest, rules, blocked);
    let layoffs = layoffs_of(defender, &growth);
    DefenderReply {
        arrangement,
        layoffs,
    }
}

/// The defender's count after its best reply, as [`best_reply`] finds
/// it, or `None` as soon as some reply is found to count less than `floor`:
/// a caller that only needs to know whether the best reply leaves at least
/// `floor` (the knocker's choice of arrangement) stops at the first reply
/// that proves it does not.
pub(crate) fn best_reply_count_at_least(
    knocker_melds: &[Meld],
    defender: Hand,
    rules: &JokerRules,
    layoffs_allowed: bool,
    floor: u32,
) -> Option<u32> {
    let table = shown_by(knocker_melds);
    if !layoffs_allowed {
        let count = min_deadwood_avoiding(defender, rules, table);
        return (count >= floor).then_some(count);
    }
    let jokers_to_lay = layable_jokers(defender, rules);
    let mut least = u32::MAX;
    let flow = grow(
        knocker_melds,
        0,
        table.bits(),
        defender.naturals().bits(),
        jokers_to_lay,
        &mut Growth::default(),
        &mut |growth| {
            let rest = rest_of(defender, growth);
            let blocked = table.union(CardSet::from_bits(growth.claimed));
            least = least.min(min_deadwood_avoiding(rest, rules, blocked));
            if least < floor {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    );
    flow.is_continue().then_some(least)
}

/// Every card the melds show.
fn shown_by(melds: &[Meld]) -> CardSet {
    melds
        .iter()
        .fold(CardSet::EMPTY, |acc, m| acc.union(m.cards()))
}

/// The jokers of `hand` the rules let the defender lay off.
fn layable_jokers(hand: Hand, rules: &JokerRules) -> u32 {
    if rules.joker_layoff() {
        u32::from(hand.joker_count())
    } else {
        0
    }
}

/// The defender's hand less what `growth` lays off (jokers laid `X1` first).
fn rest_of(defender: Hand, growth: &Growth) -> Hand {
    let naturals = defender
        .naturals()
        .difference(CardSet::from_bits(growth.naturals));
    let kept: Vec<Joker> = defender
        .jokers()
        .skip(usize::try_from(growth.jokers).unwrap_or(usize::MAX))
        .collect();
    Hand::new(naturals, &kept)
}

/// Tries every growth of the melds from `index` on, calling `visit` with each
/// complete choice.
fn grow(
    melds: &[Meld],
    index: usize,
    table: u64,
    held: u64,
    jokers: u32,
    growth: &mut Growth,
    visit: &mut dyn FnMut(&Growth) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let Some(meld) = melds.get(index) else {
        return visit(growth);
    };
    // No layoff on this meld.
    grow(melds, index + 1, table, held, jokers, growth, visit)?;
    match meld.kind() {
        MeldKind::Set => {
            let Some(rank) = meld.cards().iter().next().map(Card::rank) else {
                return ControlFlow::Continue(());
            };
            // A set takes one card at most (its missing suit, if it has
            // three), so the set as laid down is the set it grows from.
            for card in CardSet::FULL_DECK.of_rank(rank).difference(meld.cards()) {
                if extends(meld, meld.cards(), CardSet::EMPTY, card).is_err() {
                    continue;
                }
                for layer in [Layer::Natural, Layer::Joker] {
                    if try_lay(card, layer, index, table, held, jokers, growth) {
                        grow(melds, index + 1, table, held, jokers, growth, visit)?;
                        undo(growth, layer);
                    }
                }
            }
            ControlFlow::Continue(())
        }
        MeldKind::Run => {
            // What a run takes, card after card ([`extends`] applied outward
            // from each end): each side's cards in order, up to the lane's end.
            let (below, above) = outward(meld.cards());
            grow_run(
                melds, index, &below, &above, 0, table, held, jokers, growth, visit,
            )
        }
    }
}

/// Grows a run by the cards of `below` (outward), then of `above`, each laid
/// by a natural or a joker; every prefix of each side is a choice.
#[allow(clippy::too_many_arguments)]
fn grow_run(
    melds: &[Meld],
    index: usize,
    below: &[Card],
    above: &[Card],
    laid_below: usize,
    table: u64,
    held: u64,
    jokers: u32,
    growth: &mut Growth,
    visit: &mut dyn FnMut(&Growth) -> ControlFlow<()>,
) -> ControlFlow<()> {
    // Continue downward.
    if let Some(&card) = below.get(laid_below) {
        for layer in [Layer::Natural, Layer::Joker] {
            if try_lay(card, layer, index, table, held, jokers, growth) {
                // This prefix below, then every prefix above.
                grow_above(
                    melds, index, above, 0, true, table, held, jokers, growth, visit,
                )?;
                grow_run(
                    melds,
                    index,
                    below,
                    above,
                    laid_below + 1,
                    table,
                    held,
                    jokers,
                    growth,
                    visit,
                )?;
                undo(growth, layer);
            }
        }
    }
    if laid_below == 0 {
        // Nothing below: the nonempty prefixes above (the empty one is the
        // "no layoff on this meld" choice, already tried).
        grow_above(
            melds, index, above, 0, false, table, held, jokers, growth, visit,
        )?;
    }
    ControlFlow::Continue(())
}

/// Every prefix of `above` from `laid_above` on; the empty one (nothing more
/// above) only when `empty` says it is a new choice.
#[allow(clippy::too_many_arguments)]
fn grow_above(
    melds: &[Meld],
    index: usize,
    above: &[Card],
    laid_above: usize,
    empty: bool,
    table: u64,
    held: u64,
    jokers: u32,
    growth: &mut Growth,
    visit: &mut dyn FnMut(&Growth) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if empty {
        grow(melds, index + 1, table, held, jokers, growth, visit)?;
    }
    let Some(&card) = above.get(laid_above) else {
        return ControlFlow::Continue(());
    };
    for layer in [Layer::Natural, Layer::Joker] {
        if try_lay(card, layer, index, table, held, jokers, growth) {
            grow_above(
                melds,
                index,
                above,
                laid_above + 1,
                true,
                table,
                held,
                jokers,
                growth,
                visit,
            )?;
            undo(growth, layer);
        }
    }
    ControlFlow::Continue(())
}

/// Whether a card showing `shown` may be laid onto `meld`, whose cards on the
/// table are now `grown` (what it shows and what was laid on it), while
/// `taken` holds every card the table shows; else why not. The one test of a
/// layoff with jokers, for the best reply and for a declared one: every card
/// on the table stands for a distinct card, and what a meld takes is the
/// joker-free rule ([`crate::layoff`]'s `fit`) applied to the cards it shows
/// (a knocker's joker fixes the card it shows, so `5H X1=6H 7H` takes 4H).
fn extends(meld: &Meld, grown: CardSet, taken: CardSet, shown: Card) -> Result<(), &'static str> {
    if taken.contains(shown) {
        return Err("that card is already on the table");
    }
    fit(meld.kind(), grown, shown)
}

/// Lays `card` onto meld `index` by `layer` when it is free on the table and
/// the defender has what it takes; false (nothing changed) otherwise. The
/// callers offer only cards that extend the meld ([`extends`] for a set, the
/// run's outward cards for a run), so that the search's inner step stays a
/// few bit operations.
fn try_lay(
    card: Card,
    layer: Layer,
    index: usize,
    table: u64,
    held: u64,
    jokers: u32,
    growth: &mut Growth,
) -> bool {
    let bit = CardSet::single(card).bits();
    if (table | growth.claimed) & bit != 0 {
        return false;
    }
    match layer {
        Layer::Natural if held & bit != 0 => growth.naturals |= bit,
        Layer::Joker if growth.jokers < jokers => growth.jokers += 1,
        _ => return false,
    }
    growth.claimed |= bit;
    growth.layoffs.push((index, card, layer));
    true
}

/// Takes back the last layoff.
fn undo(growth: &mut Growth, layer: Layer) {
    if let Some((_, card, _)) = growth.layoffs.pop() {
        let bit = CardSet::single(card).bits();
        growth.claimed &= !bit;
        match layer {
            Layer::Natural => growth.naturals &= !bit,
            Layer::Joker => growth.jokers = growth.jokers.saturating_sub(1),
        }
    }
}

/// The layoffs `growth` plays, in its order, jokers laid `X1` first.
fn layoffs_of(defender: Hand, growth: &Growth) -> Vec<Layoff> {
    let mut jokers = defender.jokers();
    growth
        .layoffs
        .iter()
        .map(|&(meld, stands_for, layer)| Layoff {
            card: match layer {
                Layer::Natural => HandCard::Natural(stands_for),
                Layer::Joker => jokers
                    .next()
                    .map_or(HandCard::Natural(stands_for), HandCard::Joker),
            },
            meld,
            stands_for,
        })
        .collect()
}

/// The defender's declared melds, checked as a knocker's are
/// ([`declared_arrangement`]), and none showing a card of `table`.
fn defender_melds(
    defender: Hand,
    melds: &[Vec<HandCard>],
    jokers: &[(Joker, Card)],
    rules: &JokerRules,
    table: CardSet,
) -> Result<Arrangement, ReplyError> {
    let declared = DeclaredMelds {
        melds: melds.to_vec(),
        stands_for: jokers.to_vec(),
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
/// against its meld as grown so far (as [`crate::check_layoffs`] does). When
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
/// assert_eq!((error.code(), error.index()), ("layoff_does_not_fit", Some(0)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub(crate) fn declared_reply(
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
            defender_melds(defender, &[], &declared.jokers, rules, table)?;
        }
        let Some(layoffs) = &declared.layoffs else {
            return Ok(best_reply(knocker_melds, defender, rules, layoffs_allowed));
        };
        let laid = check_declared_layoffs(
            knocker_melds,
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
    let own = defender_melds(defender, melds, &declared.jokers, rules, table)?;
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
            unmelded,
            blocked,
            layoffs,
            rules,
            layoffs_allowed,
        )?,
        None if layoffs_allowed => best_layoffs_of(knocker_melds, unmelded, blocked, rules),
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

/// The best layoffs of cards no meld of the defender holds (its melds are
/// declared): the least count of what is left, then the fewest layoffs.
fn best_layoffs_of(
    knocker_melds: &[Meld],
    unmelded: Hand,
    blocked: CardSet,
    rules: &JokerRules,
) -> Vec<Layoff> {
    let jokers_to_lay = layable_jokers(unmelded, rules);
    let growth = best_growth(
        knocker_melds,
        blocked,
        unmelded,
        jokers_to_lay,
        |rest, _| {
            rest.naturals().value()
                + u32::from(rest.joker_count()) * u32::from(rules.joker_deadwood())
        },
    );
    layoffs_of(unmelded, &growth)
}

/// The growth of the knocker's melds (the table showing `table`) by the
/// cards of `hand` that leaves the least `count` of what is left, then the
/// fewest layoffs; the first such in the search order (no layoff first).
fn best_growth(
    knocker_melds: &[Meld],
    table: CardSet,
    hand: Hand,
    jokers_to_lay: u32,
    count: impl Fn(Hand, &Growth) -> u32,
) -> Growth {
    let mut best: Option<(u32, usize, Growth)> = None;
    // The visit never stops early: every growth is tried.
    let _every_growth = grow(
        knocker_melds,
        0,
        table.bits(),
        hand.naturals().bits(),
        jokers_to_lay,
        &mut Growth::default(),
        &mut |growth| {
            let key = (count(rest_of(hand, growth), growth), growth.layoffs.len());
            if best.as_ref().is_none_or(|(c, n, _)| key < (*c, *n)) {
                best = Some((key.0, key.1, growth.clone()));
            }
            ControlFlow::Continue(())
        },
    );
    best.map(|(_, _, growth)| growth).unwrap_or_default()
}

/// Most layoffs a declared reply may place by search: a defender holds ten
/// cards, so a longer list repeats one (refused before any search).
const MAX_PLACED: usize = 10;

/// A declared layoff after the checks that need no placement: the card, the
/// card it shows, and the melds it may go onto.
struct Request {
    index: usize,
    card: HandCard,
    shows: Card,
    candidates: Vec<usize>,
}

/// Checks declared layoffs of cards from `available` (see
/// [`declared_reply`]); `blocked` is every card the table shows before
/// them. Returns the layoffs in a legal playing order.
fn check_declared_layoffs(
    knocker_melds: &[Meld],
    available: Hand,
    blocked: CardSet,
    layoffs: &[DeclaredLayoff],
    rules: &JokerRules,
    layoffs_allowed: bool,
) -> Result<Vec<Layoff>, ReplyError> {
    if !layoffs_allowed && !layoffs.is_empty() {
        return Err(ReplyError::NotAllowedOnGin { index: 0 });
    }
    let in_order = layoffs.iter().all(|l| l.meld.is_some());
    let mut grown: Vec<CardSet> = knocker_melds.iter().map(|m| m.cards()).collect();
    let mut taken = blocked;
    let mut laid = Hand::default();
    let mut played = Vec::with_capacity(layoffs.len());
    let mut requests = Vec::with_capacity(layoffs.len());
    for (index, declared) in layoffs.iter().enumerate() {
        let card = declared.card;
        if !available.contains(card) {
            return Err(ReplyError::CardNotInHand { index, card });
        }
        if laid.contains(card) {
            return Err(ReplyError::AlreadyLaidOff { index, card });
        }
        laid = Hand::from_distinct(laid.cards().chain([card])).unwrap_or(laid);
        let shows = match (card, declared.stands_for) {
            (HandCard::Natural(natural), None) => natural,
            (HandCard::Natural(natural), Some(other)) if other == natural => natural,
            (HandCard::Natural(_), Some(_)) => {
                return Err(ReplyError::StandsFor {
                    index,
                    card,
                    reason: "is a natural card: it stands only for itself",
                });
            }
            (HandCard::Joker(_), None) => {
                return Err(ReplyError::StandsFor {
                    index,
                    card,
                    reason: "is laid off without saying which card it stands for",
                });
            }
            (HandCard::Joker(joker), Some(_)) if !rules.joker_layoff() => {
                return Err(ReplyError::JokerLayoffNotAllowed { index, joker });
            }
            (HandCard::Joker(_), Some(target)) => target,
        };
        let candidates: Vec<usize> = match declared.meld {
            Some(meld) if meld >= knocker_melds.len() => {
                return Err(ReplyError::NoSuchMeld { index, meld });
            }
            Some(meld) => vec![meld],
            None => (0..knocker_melds.len()).collect(),
        };
        if taken.contains(shows) {
            return Err(ReplyError::DoesNotFit {
                index,
                card,
                stands_for: shows,
                meld: candidates.first().copied().unwrap_or_default(),
                reason: "that card is already on the table",
            });
        }
        if in_order {
            let meld = declared.meld.unwrap_or_default();
            let (Some(target), Some(cards)) = (knocker_melds.get(meld), grown.get_mut(meld)) else {
                return Err(ReplyError::NoSuchMeld { index, meld });
            };
            if let Err(reason) = extends(target, *cards, taken, shows) {
                return Err(ReplyError::DoesNotFit {
                    index,
                    card,
                    stands_for: shows,
                    meld,
                    reason,
                });
            }
            cards.insert(shows);
            played.push(Layoff {
                card,
                meld,
                stands_for: shows,
            });
        }
        taken.insert(shows);
        requests.push(Request {
            index,
            card,
            shows,
            candidates,
        });
    }
    if in_order {
        return Ok(played);
    }
    if let Some(placed) = place(knocker_melds, &requests) {
        return Ok(placed);
    }
    greedy(knocker_melds, blocked, &requests)
}

/// The first placement of `requests` (depth first, candidates in meld order)
/// under which every knocker meld with its layoffs is still a meld, in a
/// playing order: sets first, then runs outward one card at a time. Bound: at
/// most ten requests, each onto a meld of its rank (a set) or of its suit (a
/// run), so a few thousand partial placements at most.
fn place(knocker_melds: &[Meld], requests: &[Request]) -> Option<Vec<Layoff>> {
    if requests.len() > MAX_PLACED {
        return None;
    }
    // Only melds of the card's rank (sets) or suit (runs) can take it.
    let options: Vec<Vec<usize>> = requests
        .iter()
        .map(|r| {
            r.candidates
                .iter()
                .copied()
                .filter(|&m| {
                    knocker_melds.get(m).is_some_and(|meld| match meld.kind() {
                        MeldKind::Set => meld.cards().iter().all(|c| c.rank() == r.shows.rank()),
                        MeldKind::Run => meld.cards().iter().all(|c| c.suit() == r.shows.suit()),
                    })
                })
                .collect()
        })
        .collect();
    let mut assigned = vec![CardSet::EMPTY; knocker_melds.len()];
    let mut choice = Vec::with_capacity(requests.len());
    if !assign(
        knocker_melds,
        requests,
        &options,
        &mut assigned,
        &mut choice,
    ) {
        return None;
    }
    // Play order: by distance from the meld as laid down, then as declared.
    let mut order: Vec<(u32, usize, Layoff)> = requests
        .iter()
        .zip(&choice)
        .filter_map(|(request, &meld)| {
            let target = knocker_melds.get(meld)?;
            let distance = match target.kind() {
                MeldKind::Set => 0,
                MeldKind::Run => {
                    let bits = target.cards().bits();
                    let at = CardSet::single(request.shows).bits().trailing_zeros();
                    let low = bits.trailing_zeros();
                    let high = 63 - bits.leading_zeros();
                    if at < low {
                        low - at
                    } else {
                        at.saturating_sub(high)
                    }
                }
            };
            Some((
                distance,
                request.index,
                Layoff {
                    card: request.card,
                    meld,
                    stands_for: request.shows,
                },
            ))
        })
        .collect();
    order.sort_by_key(|&(distance, index, _)| (distance, index));
    Some(order.into_iter().map(|(_, _, layoff)| layoff).collect())
}

/// Depth-first assignment for [`place`]: `choice` gets each request's meld.
fn assign(
    knocker_melds: &[Meld],
    requests: &[Request],
    options: &[Vec<usize>],
    assigned: &mut [CardSet],
    choice: &mut Vec<usize>,
) -> bool {
    let at = choice.len();
    let (Some(request), Some(melds)) = (requests.get(at), options.get(at)) else {
        // Every meld with what it took is still a meld of its kind.
        return knocker_melds
            .iter()
            .zip(assigned.iter())
            .all(|(meld, laid)| {
                laid.is_empty()
                    || Meld::try_from(meld.cards().union(*laid))
                        .is_ok_and(|m| m.kind() == meld.kind())
            });
    };
    for &meld in melds {
        let Some(slot) = assigned.get_mut(meld) else {
            continue;
        };
        slot.insert(request.shows);
        choice.push(meld);
        if assign(knocker_melds, requests, options, assigned, choice) {
            return true;
        }
        choice.pop();
        if let Some(slot) = assigned.get_mut(meld) {
            slot.remove(request.shows);
        }
    }
    false
}

/// No placement is legal: plays the layoffs in the order given, each onto
/// the first of its melds that takes it as the melds stand by then, and
/// reports the first that none takes.
fn greedy(
    knocker_melds: &[Meld],
    blocked: CardSet,
    requests: &[Request],
) -> Result<Vec<Layoff>, ReplyError> {
    let mut grown: Vec<CardSet> = knocker_melds.iter().map(|m| m.cards()).collect();
    let mut taken = blocked;
    let mut played = Vec::with_capacity(requests.len());
    for request in requests {
        let fits = |meld: usize| -> Result<(), &'static str> {
            match (knocker_melds.get(meld), grown.get(meld)) {
                (Some(target), Some(cards)) => extends(target, *cards, taken, request.shows),
                _ => Err("there is no such meld"),
            }
        };
        let mut first_reason = None;
        let mut chosen = None;
        for &meld in &request.candidates {
            match fits(meld) {
                Ok(()) => {
                    chosen = Some(meld);
                    break;
                }
                Err(reason) => {
                    first_reason.get_or_insert((meld, reason));
                }
            }
        }
        let Some(meld) = chosen else {
            let (meld, reason) = first_reason.unwrap_or((0, "there is no knocker meld"));
            return Err(ReplyError::DoesNotFit {
                index: request.index,
                card: request.card,
                stands_for: request.shows,
                meld,
                reason,
            });
        };
        if let Some(cards) = grown.get_mut(meld) {
            cards.insert(request.shows);
        }
        taken.insert(request.shows);
        played.push(Layoff {
            card: request.card,
            meld,
            stands_for: request.shows,
        });
    }
    Ok(played)
}

#[cfg(test)]
mod tests;
