//! Scoring one hand: the knock, the knocker's arrangement, the defender's reply,
//! and the points.
//!
//! # The knocker's arrangement
//!
//! When the knocker declares melds they are checked (legal, disjoint, in the hand,
//! deadwood within the knock limit) and used. When not, the service picks the
//! arrangement best for the knocker, as `RULES.md` says: it enumerates every
//! legal arrangement (every collection of disjoint melds, including ones that keep
//! a meld as deadwood) whose count is within the limit, plays the defender's best
//! reply against each, and keeps the one with the highest net result for the
//! knocker (points won, or minus points lost to an undercut), ties broken by the
//! lower knocker count, then by the first in a fixed order: melds sorted by
//! [`Meld`]'s order, arrangements compared meld by meld (the enumeration order).
//! Two runs that touch in one suit are always one run (cutting a run changes
//! neither the count nor what can be laid off), so they are not listed twice.
//!
//! Bound: a 10-card hand contains at most a few dozen melds; collections of
//! disjoint ones within the limit number in the low hundreds at worst, each met
//! by one [`best_reply`] search.

use serde::Serialize;

use super::card::{Card, CardSet};
use super::deadwood::{melds_within, min_deadwood};
use super::layoff::{
    DefenderReply, Layoff, LayoffError, all_feasible_layoffs, best_reply, check_layoffs,
    fixed_reply,
};
use super::meld::{ArrangementReport, Meld, MeldKind, check_arrangement};
use super::profile::{Profile, ProfileError};

/// Which player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Knocker,
    Defender,
}

impl Side {
    pub const fn name(self) -> &'static str {
        match self {
            Side::Knocker => "knocker",
            Side::Defender => "defender",
        }
    }
}

/// The knocker's hand as declared: the cards kept after the knock discard (10, or
/// 11 for big gin) and optionally the melds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KnockerHand {
    pub hand: Vec<Card>,
    pub melds: Option<Vec<Vec<Card>>>,
}

/// The defender's hand, optionally with its melds and the layoffs it played.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DefenderHand {
    pub hand: Vec<Card>,
    pub melds: Option<Vec<Vec<Card>>>,
    pub layoffs: Option<Vec<Layoff>>,
}

/// The knocker's side once arranged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnockerArrangement {
    pub melds: Vec<Meld>,
    pub deadwood_cards: CardSet,
    pub deadwood: u32,
}

/// Both sides laid down: the knocker's melds and the defender's reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Showdown {
    pub knocker: KnockerArrangement,
    pub defender: DefenderReply,
    /// The knock limit that applied.
    pub knock_limit: u32,
    /// The knocker melded 11 cards without discarding.
    pub big_gin: bool,
}

/// How a hand ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Knock,
    Undercut,
    Gin,
    BigGin,
}

/// Where the points came from: `points = (deadwood_difference + gin_bonus +
/// big_gin_bonus + undercut_bonus) * multiplier`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Breakdown {
    pub deadwood_difference: u32,
    pub gin_bonus: u32,
    pub big_gin_bonus: u32,
    pub undercut_bonus: u32,
    pub multiplier: u32,
}

/// The result of a hand: who won what.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Settlement {
    pub outcome: Outcome,
    pub winner: Side,
    pub points: u32,
    pub breakdown: Breakdown,
}

/// A scored hand: the showdown and its settlement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandScore {
    pub showdown: Showdown,
    pub settlement: Settlement,
}

/// Why a hand cannot be scored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HandError {
    #[error("{card} at {side} hand position {index} repeats a card already dealt to a hand", side = side.name())]
    DuplicateCard {
        side: Side,
        index: usize,
        card: Card,
    },
    #[error("the {side} must hold {expected} cards, not {found}", side = side.name())]
    WrongCardCount {
        side: Side,
        expected: &'static str,
        found: usize,
    },
    #[error(transparent)]
    Profile(#[from] ProfileError),
    #[error(
        "the knocker holds 11 cards, but this profile does not play big gin (set big_gin_bonus to play it)"
    )]
    BigGinNotPlayed,
    #[error(
        "the knocker holds 11 cards but they do not all meld (best deadwood {deadwood}): only big gin keeps 11 cards"
    )]
    NotBigGin { deadwood: u32 },
    #[error("the knocker's deadwood is {deadwood}, over the knock limit of {limit}")]
    KnockOverLimit { deadwood: u32, limit: u32 },
    #[error("the {side}'s declared melds are not legal", side = side.name())]
    InvalidMelds {
        side: Side,
        report: ArrangementReport,
    },
    #[error(transparent)]
    Layoff(#[from] LayoffError),
}

impl HandError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            HandError::DuplicateCard { .. } => "duplicate_card",
            HandError::WrongCardCount { .. } => "wrong_card_count",
            HandError::Profile(e) => e.code(),
            HandError::BigGinNotPlayed => "big_gin_not_allowed",
            HandError::NotBigGin { .. } => "not_big_gin",
            HandError::KnockOverLimit { .. } => "knock_over_limit",
            HandError::InvalidMelds { .. } => "invalid_melds",
            HandError::Layoff(e) => e.code(),
        }
    }
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

/// Lays both hands down: the knocker's arrangement (declared, or the best for the
/// knocker) and the defender's reply (declared and checked, or the best).
pub fn showdown(
    profile: &Profile,
    upcard: Option<Card>,
    knocker: &KnockerHand,
    defender: &DefenderHand,
) -> Result<Showdown, HandError> {
    let knock_limit = profile.knock_limit_for(upcard)?;
    profile.multiplier_for(upcard)?;
    let knocker_cards = distinct(Side::Knocker, &knocker.hand, CardSet::EMPTY)?;
    let defender_cards = distinct(Side::Defender, &defender.hand, knocker_cards)?;
    let big_gin = match knocker_cards.len() {
        10 => false,
        11 if profile.big_gin_bonus.is_none() => return Err(HandError::BigGinNotPlayed),
        11 => true,
        found => {
            return Err(HandError::WrongCardCount {
                side: Side::Knocker,
                expected: "10 (11 for big gin)",
                found,
            });
        }
    };
    if defender_cards.len() != 10 {
        return Err(HandError::WrongCardCount {
            side: Side::Defender,
            expected: "10",
            found: defender_cards.len(),
        });
    }
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
            let arrangement = KnockerArrangement {
                melds,
                deadwood_cards: rest,
                deadwood,
            };
            let reply = defender_reply(profile, &arrangement, defender, defender_cards)?;
            (arrangement, reply)
        }
        None => {
            let candidates = knocker_arrangements(knocker_cards, limit);
            if candidates.is_empty() {
                return Err(HandError::KnockOverLimit {
                    deadwood: min_deadwood(knocker_cards),
                    limit,
                });
            }
            let mut best: Option<(i64, u32, KnockerArrangement, DefenderReply)> = None;
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
    Ok(Showdown {
        knocker: knocker_side,
        defender: reply,
        knock_limit: limit,
        big_gin,
    })
}

/// The defender's reply to one knocker arrangement: as declared (checked), or the best.
fn defender_reply(
    profile: &Profile,
    knocker: &KnockerArrangement,
    defender: &DefenderHand,
    cards: CardSet,
) -> Result<DefenderReply, HandError> {
    let layoffs_allowed = knocker.deadwood > 0 || profile.layoffs_on_gin;
    match (&defender.melds, &defender.layoffs) {
        (None, None) => Ok(best_reply(&knocker.melds, cards, layoffs_allowed)),
        (None, Some(layoffs)) => {
            let laid = check_layoffs(&knocker.melds, cards, layoffs, layoffs_allowed)?;
            let rest = super::deadwood::best_arrangement(cards.difference(laid));
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

/// Every arrangement of the knocker's hand with deadwood within `limit`, in the
/// fixed order described in the module docs.
pub fn knocker_arrangements(hand: CardSet, limit: u32) -> Vec<KnockerArrangement> {
    let melds = melds_within(hand);
    let mut found = Vec::new();
    let mut chosen = Vec::new();
    collect_arrangements(
        hand,
        &melds,
        0,
        CardSet::EMPTY,
        &mut chosen,
        limit,
        &mut found,
    );
    found
}

fn collect_arrangements(
    hand: CardSet,
    melds: &[Meld],
    from: usize,
    used: CardSet,
    chosen: &mut Vec<Meld>,
    limit: u32,
    found: &mut Vec<KnockerArrangement>,
) {
    // Even melding every remaining card could not reach the limit: prune.
    let rest = hand.difference(used);
    let meldable = melds[from..]
        .iter()
        .fold(CardSet::EMPTY, |acc, m| acc.union(m.cards()));
    if rest.difference(meldable).value() > limit {
        return;
    }
    if rest.value() <= limit && !has_touching_runs(chosen) {
        found.push(KnockerArrangement {
            melds: chosen.clone(),
            deadwood_cards: rest,
            deadwood: rest.value(),
        });
    }
    for (offset, meld) in melds[from..].iter().enumerate() {
        if meld.cards().is_disjoint(used) {
            chosen.push(*meld);
            collect_arrangements(
                hand,
                melds,
                from + offset + 1,
                used.union(meld.cards()),
                chosen,
                limit,
                found,
            );
            chosen.pop();
        }
    }
}

/// Two runs of one suit that touch would be one run: such arrangements are
/// listed once, as the single run.
fn has_touching_runs(melds: &[Meld]) -> bool {
    let runs: Vec<u64> = melds
        .iter()
        .filter(|m| m.kind() == MeldKind::Run)
        .map(|m| m.cards().bits())
        .collect();
    runs.iter().enumerate().any(|(i, a)| {
        runs[i + 1..]
            .iter()
            .any(|b| (a << 1) & b != 0 || (a >> 1) & b != 0)
    })
}

/// The knocker's net result of a settlement: points won, or minus points lost.
fn net_for_knocker(settlement: &Settlement) -> i64 {
    match settlement.winner {
        Side::Knocker => i64::from(settlement.points),
        Side::Defender => -i64::from(settlement.points),
    }
}

/// Scores a hand from the counts after layoffs (`knocker_deadwood` 0 is gin).
///
/// ```
/// use gin_rules::{settle, Outcome, Profile, Side};
/// let standard = Profile::default();
/// // Seed 000: knock 3 against 11 scores 8; knock 3 against 1 gives the defender 27.
/// assert_eq!(settle(&standard, 1, 3, 11, false).points, 8);
/// let undercut = settle(&standard, 1, 3, 1, false);
/// assert_eq!((undercut.outcome, undercut.winner, undercut.points), (Outcome::Undercut, Side::Defender, 27));
/// ```
pub fn settle(
    profile: &Profile,
    multiplier: u32,
    knocker_deadwood: u32,
    defender_deadwood: u32,
    big_gin: bool,
) -> Settlement {
    let mut breakdown = Breakdown {
        deadwood_difference: 0,
        gin_bonus: 0,
        big_gin_bonus: 0,
        undercut_bonus: 0,
        multiplier,
    };
    let (outcome, winner) = if big_gin {
        breakdown.deadwood_difference = defender_deadwood;
        breakdown.big_gin_bonus = profile.big_gin_bonus.unwrap_or(profile.gin_bonus);
        (Outcome::BigGin, Side::Knocker)
    } else if knocker_deadwood == 0 {
        breakdown.deadwood_difference = defender_deadwood;
        breakdown.gin_bonus = profile.gin_bonus;
        (Outcome::Gin, Side::Knocker)
    } else if defender_deadwood > knocker_deadwood {
        breakdown.deadwood_difference = defender_deadwood - knocker_deadwood;
        (Outcome::Knock, Side::Knocker)
    } else if defender_deadwood == knocker_deadwood && !profile.tie_is_undercut {
        (Outcome::Knock, Side::Knocker)
    } else {
        breakdown.deadwood_difference = knocker_deadwood - defender_deadwood;
        breakdown.undercut_bonus = profile.undercut_bonus;
        (Outcome::Undercut, Side::Defender)
    };
    let points = (breakdown.deadwood_difference
        + breakdown.gin_bonus
        + breakdown.big_gin_bonus
        + breakdown.undercut_bonus)
        * multiplier;
    Settlement {
        outcome,
        winner,
        points,
        breakdown,
    }
}

/// Scores a whole hand from the cards: [`showdown`], then [`settle`] with the
/// profile's multiplier for the upcard.
pub fn score_hand(
    profile: &Profile,
    upcard: Option<Card>,
    knocker: &KnockerHand,
    defender: &DefenderHand,
) -> Result<HandScore, HandError> {
    let showdown = showdown(profile, upcard, knocker, defender)?;
    let multiplier = profile.multiplier_for(upcard)?;
    let settlement = settle(
        profile,
        multiplier,
        showdown.knocker.deadwood,
        showdown.defender.deadwood,
        showdown.big_gin,
    );
    Ok(HandScore {
        showdown,
        settlement,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::cards;
    use crate::profile::{Preset, ProfileOverrides};

    fn hand(text: &str) -> Vec<Card> {
        cards(text).unwrap().to_vec()
    }

    fn knocker(text: &str) -> KnockerHand {
        KnockerHand {
            hand: hand(text),
            melds: None,
        }
    }

    fn defender(text: &str) -> DefenderHand {
        DefenderHand {
            hand: hand(text),
            ..DefenderHand::default()
        }
    }

    /// The knocker's melds as text, in the order scored.
    fn knocker_melds(score: &HandScore) -> Vec<String> {
        let melds = &score.showdown.knocker.melds;
        melds.iter().map(|m| m.to_string()).collect()
    }

    /// The cards the defender laid off, in play order.
    fn laid_off(score: &HandScore) -> Vec<String> {
        let layoffs = &score.showdown.defender.layoffs;
        layoffs.iter().map(|l| l.card.to_string()).collect()
    }

    fn profile(json: &str) -> Profile {
        serde_json::from_str::<ProfileOverrides>(json)
            .unwrap()
            .resolve()
            .unwrap()
    }

    #[test]
    fn seed_000_knock_and_undercut_counts() {
        let p = Profile::default();
        assert_eq!(settle(&p, 1, 5, 15, false).points, 10);
        assert_eq!(settle(&p, 1, 0, 6, false).points, 31);
        let undercut = settle(&p, 1, 4, 2, false);
        assert_eq!((undercut.winner, undercut.points), (Side::Defender, 27));
        assert_eq!(settle(&p, 1, 10, 43, false).points, 33);
        assert_eq!(settle(&p, 1, 0, 10, false).points, 35);
        assert_eq!(settle(&p, 1, 0, 11, false).points, 36);
    }

    #[test]
    fn seed_001_knock_8_against_20_scores_12() {
        assert_eq!(settle(&Profile::default(), 1, 8, 20, false).points, 12);
    }

    #[test]
    fn seed_002_ties_give_the_defender_the_undercut_bonus_and_gin_scores_20_plus_count() {
        let open_gin = Preset::OpenGin.profile();
        let tie = settle(&open_gin, 1, 7, 7, false);
        assert_eq!(
            (tie.outcome, tie.winner, tie.points),
            (Outcome::Undercut, Side::Defender, 10)
        );
        assert_eq!(settle(&open_gin, 1, 0, 30, false).points, 50);
    }

    #[test]
    fn ties_can_go_to_the_knocker_for_nothing() {
        let p = profile(r#"{"tie_is_undercut": false}"#);
        let tie = settle(&p, 1, 7, 7, false);
        assert_eq!(
            (tie.outcome, tie.winner, tie.points),
            (Outcome::Knock, Side::Knocker, 0)
        );
    }

    #[test]
    fn seed_004_elder_knocks_one_younger_lays_off_two_hearts_and_counts_nine() {
        // Elder: 3-4-5H, three 9s, 7-8-9? Elder's melds as in the seed: the ace of
        // hearts is his only deadwood.
        let elder = KnockerHand {
            hand: hand("3H 4H 5H 9S 9H 9D 3C 4C 5C AH"),
            melds: Some(vec![hand("3H 4H 5H"), hand("9S 9H 9D"), hand("3C 4C 5C")]),
        };
        let younger = defender("6H 2H JS JH JD 7S 7H 7C 4D 5S");
        let score = score_hand(&Profile::default(), None, &elder, &younger).unwrap();
        let laid = laid_off(&score);
        assert_eq!(laid, ["2H", "6H"]);
        assert_eq!(score.showdown.knocker.deadwood, 1);
        assert_eq!(score.showdown.defender.deadwood, 9);
        assert_eq!(
            (score.settlement.winner, score.settlement.points),
            (Side::Knocker, 8)
        );
    }

    #[test]
    fn the_knocker_never_lays_off() {
        // After the defender extends 3-4-5H down to 2H, the knocker's AH would fit,
        // but the knocker keeps it as deadwood.
        let elder = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C AH");
        let score = score_hand(
            &Profile::default(),
            None,
            &elder,
            &defender("6H 2H JS JH JD 7S 7H 7C 4D 5S"),
        )
        .unwrap();
        assert_eq!(score.showdown.knocker.deadwood_cards, cards("AH").unwrap());
    }

    #[test]
    fn gin_allows_no_layoffs_and_open_gin_does() {
        let gin = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C 6C");
        let def = defender("6H 2H JS JH JD 7S 7H 7C 4D 5S");
        let standard = score_hand(&Profile::default(), None, &gin, &def).unwrap();
        assert!(standard.showdown.defender.layoffs.is_empty());
        assert_eq!(standard.settlement.outcome, Outcome::Gin);
        assert_eq!(standard.settlement.points, 25 + 6 + 2 + 4 + 5);
        let open = score_hand(&Preset::OpenGin.profile(), None, &gin, &def).unwrap();
        assert_eq!(open.showdown.defender.deadwood, 4 + 5);
        assert_eq!(open.settlement.points, 20 + 9);
    }

    #[test]
    fn a_knock_over_the_limit_is_refused() {
        let err = score_hand(
            &Profile::default(),
            None,
            &knocker("3H 4H 5H 9S 9H 9D KC QC 2D 5S"),
            &defender("6H 2H JS JH JD 7S 7H 7C 4D 4S"),
        )
        .unwrap_err();
        assert_eq!(
            err,
            HandError::KnockOverLimit {
                deadwood: 27,
                limit: 10
            }
        );
    }

    #[test]
    fn oklahoma_needs_an_upcard_and_doubles_spades() {
        let p = Preset::Oklahoma.profile();
        let k = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C AH");
        let d = defender("6H 2H JS JH JD 7S 7H 7C 4D 5S");
        assert_eq!(
            score_hand(&p, None, &k, &d).unwrap_err().code(),
            "upcard_required"
        );
        let spade = score_hand(&p, Some("2S".parse().unwrap()), &k, &d).unwrap();
        assert_eq!(
            (
                spade.settlement.points,
                spade.settlement.breakdown.multiplier
            ),
            (16, 2)
        );
        let ace = score_hand(&p, Some("AD".parse().unwrap()), &k, &d).unwrap_err();
        assert_eq!(
            ace,
            HandError::KnockOverLimit {
                deadwood: 1,
                limit: 0
            }
        );
    }

    #[test]
    fn big_gin_needs_the_profile_and_eleven_melded_cards() {
        let eleven = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C 6C 7C");
        let d = defender("6H 2H JS JH JD 7S 7H KC 4D 5S");
        assert_eq!(
            score_hand(&Profile::default(), None, &eleven, &d)
                .unwrap_err()
                .code(),
            "big_gin_not_allowed"
        );
        let p = profile(r#"{"big_gin_bonus": 31}"#);
        let score = score_hand(&p, None, &eleven, &d).unwrap();
        assert_eq!(score.settlement.outcome, Outcome::BigGin);
        assert_eq!(
            score.settlement.points,
            31 + d.hand.iter().map(|c| u32::from(c.value())).sum::<u32>() - 30
        );
        let not_gin = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C 6C KC");
        assert_eq!(
            score_hand(
                &p,
                None,
                &not_gin,
                &defender("6H 2H JS JH JD 7S 7H 7C 4D 5S")
            )
            .unwrap_err()
            .code(),
            "not_big_gin"
        );
    }

    #[test]
    fn duplicates_and_wrong_counts_are_refused() {
        let d = defender("6H 2H JS JH JD 7S 7H 7C 4D 5S");
        let mut dup = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C AH");
        dup.hand[9] = "3h".parse().unwrap();
        assert_eq!(
            score_hand(&Profile::default(), None, &dup, &d).unwrap_err(),
            HandError::DuplicateCard {
                side: Side::Knocker,
                index: 9,
                card: "3H".parse().unwrap()
            }
        );
        let across = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C 6H");
        let six: Card = "6H".parse().unwrap();
        assert!(
            matches!(score_hand(&Profile::default(), None, &across, &d), Err(HandError::DuplicateCard { side: Side::Defender, card, .. }) if card == six)
        );
        let short = knocker("3H 4H 5H 9S 9H 9D 3C 4C 5C");
        assert_eq!(
            score_hand(&Profile::default(), None, &short, &d)
                .unwrap_err()
                .code(),
            "wrong_card_count"
        );
    }

    #[test]
    fn the_knocker_arranges_to_minimise_layoffs() {
        // 7H joins the four sevens or the run 4-5-6-7H; both leave 2C 3C AS (6).
        // As a run it would take the defender's 8H as well as 3H: the set wins.
        let k = knocker("4H 5H 6H 7H 7S 7D 7C 2C 3C AS");
        let d = defender("3H 8H KC QD JS 9C TD 5S 6D AD");
        let score = score_hand(&Profile::default(), None, &k, &d).unwrap();
        let melds = knocker_melds(&score);
        assert_eq!(melds, ["4H 5H 6H", "7S 7H 7D 7C"]);
        let laid = laid_off(&score);
        assert_eq!(laid, ["3H"]);
        assert_eq!(score.settlement.points, 72 - 3 - 6);
    }

    #[test]
    fn the_knocker_keeps_a_meld_as_deadwood_when_it_pays() {
        // Melding A-2-3S (count 2) lets the defender lay off 4S and 5S: 73 - 2 = 71.
        // Keeping it as deadwood (count 8, within 10) denies them: 82 - 8 = 74.
        let k = knocker("AS 2S 3S 9H TH JH 8C 8D 8H 2D");
        let d = defender("4S 5S KC KH QD QS JC JD 7C 6D");
        let score = score_hand(&Profile::default(), None, &k, &d).unwrap();
        let melds = knocker_melds(&score);
        assert_eq!(melds, ["8H 8D 8C", "9H TH JH"]);
        assert_eq!(
            score.showdown.knocker.deadwood_cards,
            cards("AS 2S 3S 2D").unwrap()
        );
        assert!(score.showdown.defender.layoffs.is_empty());
        assert_eq!(score.settlement.points, 74);
    }

    #[test]
    fn declared_knocker_melds_are_checked_and_used() {
        let d = defender("4S 5S KC KH QD QS JC JD 7C 6D");
        let declared = KnockerHand {
            hand: hand("AS 2S 3S 9H TH JH 8C 8D 8H 2D"),
            melds: Some(vec![hand("AS 2S 3S"), hand("9H TH JH"), hand("8C 8D 8H")]),
        };
        let score = score_hand(&Profile::default(), None, &declared, &d).unwrap();
        assert_eq!(score.settlement.points, 71);
        let illegal = KnockerHand {
            melds: Some(vec![hand("AS 2S 3S 2D")]),
            ..declared.clone()
        };
        assert_eq!(
            score_hand(&Profile::default(), None, &illegal, &d)
                .unwrap_err()
                .code(),
            "invalid_melds"
        );
        let over = KnockerHand {
            melds: Some(vec![hand("9H TH JH")]),
            ..declared
        };
        assert_eq!(
            score_hand(&Profile::default(), None, &over, &d)
                .unwrap_err()
                .code(),
            "knock_over_limit"
        );
    }

    #[test]
    fn declared_defender_layoffs_are_checked_and_declared_melds_lay_off_the_rest() {
        let k = KnockerHand {
            hand: hand("AS 2S 3S 9H TH JH 8C 8D 8H 2D"),
            melds: Some(vec![hand("AS 2S 3S"), hand("9H TH JH"), hand("8C 8D 8H")]),
        };
        let layoff = |c: &str, meld| Layoff {
            card: c.parse().unwrap(),
            meld,
        };
        let mut d = defender("4S 5S KC KH QD QS JC JD 7C 6D");
        d.layoffs = Some(vec![layoff("5S", 0)]);
        assert_eq!(
            score_hand(&Profile::default(), None, &k, &d)
                .unwrap_err()
                .code(),
            "layoff_does_not_fit"
        );
        d.layoffs = Some(vec![layoff("4S", 0)]);
        assert_eq!(
            score_hand(&Profile::default(), None, &k, &d)
                .unwrap()
                .showdown
                .defender
                .deadwood,
            78
        );
        d.layoffs = None;
        d.melds = Some(vec![]);
        assert_eq!(
            score_hand(&Profile::default(), None, &k, &d)
                .unwrap()
                .showdown
                .defender
                .deadwood,
            73
        );
    }
}
