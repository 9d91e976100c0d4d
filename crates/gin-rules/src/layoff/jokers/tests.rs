use super::*;
use crate::card::cards;
use crate::declared::{DeclaredFaultCode, DeclaredPlace};
use crate::hand::parse_hand;
use crate::layoff::{DeclaredLayoff, DeclaredReply, ReplyError, declared_reply};

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

fn wild(text: &str) -> HandCard {
    text.parse().unwrap()
}

/// `5H X1=6H 7H` and `9S 9H 9D`.
fn table() -> Vec<Meld> {
    let rules = JokerRules::TWO_JOKERS;
    vec![
        Meld::with_jokers(cards("5H 7H").unwrap(), &[(Joker::X1, card("6H"))], &rules).unwrap(),
        Meld::with_jokers(cards("9S 9H 9D").unwrap(), &[], &rules).unwrap(),
    ]
}

fn lay(text: &str, stands_for: Option<&str>, meld: Option<usize>) -> DeclaredLayoff {
    DeclaredLayoff {
        card: wild(text),
        stands_for: stands_for.map(card),
        meld,
    }
}

fn layoffs_only(layoffs: Vec<DeclaredLayoff>) -> DeclaredReply {
    DeclaredReply {
        layoffs: Some(layoffs),
        ..DeclaredReply::default()
    }
}

fn reply(declared: &DeclaredReply) -> Result<DefenderReply, ReplyError> {
    let defender = parse_hand("8H 4H 6H 9C X2 KS KD 2C 3C 4D").unwrap();
    declared_reply(&table(), defender, declared, &JokerRules::TWO_JOKERS, true)
}

#[test]
fn declared_layoffs_chain_on_a_run_in_the_order_given() {
    let declared = layoffs_only(vec![
        lay("4H", None, Some(0)),
        lay("X2", Some("3H"), Some(0)),
        lay("8H", None, Some(0)),
    ]);
    let reply = reply(&declared).unwrap();
    let shown: Vec<String> = reply
        .layoffs
        .iter()
        .map(|l| l.stands_for.to_string())
        .collect();
    assert_eq!(shown, ["4H", "3H", "8H"]);
    // The rest melds at its best: nothing melds, 6H stays out.
    assert_eq!(reply.deadwood(), 6 + 9 + 10 + 10 + 2 + 3 + 4);
    // Played out of order, X2 standing for 3H does not touch the run yet.
    let declared = layoffs_only(vec![
        lay("X2", Some("3H"), Some(0)),
        lay("4H", None, Some(0)),
    ]);
    let error = reply_err(&declared);
    assert!(
        matches!(
            error,
            ReplyError::DoesNotFit {
                index: 0,
                meld: 0,
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "layoff 0: X2 standing for 3H does not fit meld 0 (a run takes only the next card of its suit at either end)"
    );
}

fn reply_err(declared: &DeclaredReply) -> ReplyError {
    reply(declared).unwrap_err()
}

#[test]
fn a_card_a_knockers_joker_shows_cannot_be_laid_off_or_melded() {
    // The defender's natural 6H: X1 shows 6H already.
    let error = reply_err(&layoffs_only(vec![lay("6H", None, Some(0))]));
    assert_eq!(
        error,
        ReplyError::DoesNotFit {
            index: 0,
            card: wild("6H"),
            stands_for: card("6H"),
            meld: 0,
            reason: "that card is already on the table",
        }
    );
    // Nor may the defender's joker stand for it.
    let error = reply_err(&layoffs_only(vec![lay("X2", Some("6H"), Some(0))]));
    assert!(matches!(error, ReplyError::DoesNotFit { .. }));
    // Nor may a declared meld show it.
    let declared = DeclaredReply {
        melds: Some(vec![vec![wild("4H"), wild("X2"), wild("6H")]]),
        jokers: [(Joker::X2, card("5H"))].into_iter().collect(),
        layoffs: None,
    };
    let ReplyError::Melds(faults) = reply_err(&declared) else {
        panic!("not a meld fault");
    };
    assert_eq!(faults.len(), 1);
    assert_eq!(
        (faults[0].place, faults[0].code),
        (DeclaredPlace::Meld(0), DeclaredFaultCode::CardInTwoMelds)
    );
}

#[test]
fn unnamed_layoffs_are_placed_and_played_outward() {
    // 9C completes the set; 4H and 8H go onto the run, listed inward; the
    // run (meld 0) is played first, outward, then the set.
    let declared = layoffs_only(vec![
        lay("X2", Some("3H"), None),
        lay("4H", None, None),
        lay("9C", None, None),
        lay("8H", None, None),
    ]);
    let reply = reply(&declared).unwrap();
    let played: Vec<String> = reply
        .layoffs
        .iter()
        .map(|l| {
            format!(
                "{}>{}",
                crate::layoff::reply::shows(l.card, l.stands_for),
                l.meld
            )
        })
        .collect();
    assert_eq!(played, ["4H>0", "8H>0", "X2 standing for 3H>0", "9C>1"]);
    // No placement takes 2H: the first layoff none takes is the error.
    let declared = layoffs_only(vec![lay("4H", None, None), lay("X2", Some("2H"), None)]);
    assert!(matches!(
        reply_err(&declared),
        ReplyError::DoesNotFit { index: 1, .. }
    ));
}

#[test]
fn declared_melds_with_a_joker_lay_off_the_rest_at_best() {
    let declared = DeclaredReply {
        melds: Some(vec![vec![wild("KS"), wild("X2"), wild("KD")]]),
        jokers: [(Joker::X2, card("KC"))].into_iter().collect(),
        layoffs: None,
    };
    let reply = reply(&declared).unwrap();
    assert_eq!(
        reply.arrangement.melds[0].stands_for(Joker::X2),
        Some(card("KC"))
    );
    let laid: Vec<String> = reply.layoffs.iter().map(|l| l.card.to_string()).collect();
    assert_eq!(laid, ["4H", "8H", "9C"]);
    assert_eq!(reply.deadwood(), 6 + 2 + 3 + 4);
}

#[test]
fn the_rules_and_the_knock_limit_what_may_be_laid_off() {
    let declared = layoffs_only(vec![lay("X2", Some("8H"), Some(0))]);
    let defender = parse_hand("8H 4H 6H 9C X2 KS KD 2C 3C 4D").unwrap();
    let strict = JokerRules::TWO_JOKERS.with_layoff(false);
    assert_eq!(
        declared_reply(&table(), defender, &declared, &strict, true),
        Err(ReplyError::JokerLayoffNotAllowed {
            index: 0,
            joker: Joker::X2
        })
    );
    let gin = declared_reply(
        &table(),
        defender,
        &declared,
        &JokerRules::TWO_JOKERS,
        false,
    );
    assert_eq!(gin, Err(ReplyError::NotAllowedOnGin { index: 0 }));
    // A natural card stands only for itself; a joker must say.
    let error = reply_err(&layoffs_only(vec![lay("8H", Some("4H"), Some(0))]));
    assert!(matches!(error, ReplyError::StandsFor { index: 0, .. }));
    let error = reply_err(&layoffs_only(vec![lay("X2", None, Some(0))]));
    assert!(matches!(error, ReplyError::StandsFor { index: 0, .. }));
    // Not held, repeated, no such meld.
    assert!(matches!(
        reply_err(&layoffs_only(vec![lay("X1", Some("8H"), Some(0))])),
        ReplyError::CardNotInHand { .. }
    ));
    let twice = layoffs_only(vec![lay("8H", None, Some(0)), lay("8H", None, Some(0))]);
    assert!(matches!(
        reply_err(&twice),
        ReplyError::AlreadyLaidOff { .. }
    ));
    assert!(matches!(
        reply_err(&layoffs_only(vec![lay("8H", None, Some(2))])),
        ReplyError::NoSuchMeld { .. }
    ));
    // A joker map without melds.
    let stray = DeclaredReply {
        jokers: [(Joker::X2, card("KC"))].into_iter().collect(),
        ..DeclaredReply::default()
    };
    assert!(matches!(reply_err(&stray), ReplyError::Melds(_)));
}

#[test]
fn nothing_declared_is_the_best_reply() {
    let defender = parse_hand("8H 4H 6H 9C X2 KS KD 2C 3C 4D").unwrap();
    let rules = JokerRules::TWO_JOKERS;
    assert_eq!(
        declared_reply(&table(), defender, &DeclaredReply::default(), &rules, true),
        Ok(best_reply(&table(), defender, &rules, true))
    );
}
