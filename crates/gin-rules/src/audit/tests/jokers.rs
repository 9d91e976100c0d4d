//! The hand audit with jokers: 53- and 54-card deals, jokers drawn,
//! discarded, melded and laid off, and `joker_pickup_must_meld`.

use super::*;
use crate::audit::scoring_upcard;
use crate::declared::DeclaredMelds;
use crate::hand::{HandCard, Joker};
use crate::layoff::Search;
use crate::score::knock::score_knock;

/// A deal from the deck with `jokers` jokers: these hands and upcard (cards
/// and jokers), the stock starting with `stock_top` and going on with the
/// rest of the deck, naturals in canonical order then the jokers.
pub(super) fn joker_deal(
    jokers: u8,
    dealer: &str,
    non_dealer: &str,
    upcard: &str,
    stock_top: &str,
) -> Deal {
    let used: Vec<HandCard> = ordered(&format!("{dealer} {non_dealer} {upcard} {stock_top}"));
    let mut stock = ordered(stock_top);
    let deck = Card::deck().map(HandCard::from).chain(
        Joker::ALL
            .into_iter()
            .take(usize::from(jokers))
            .map(HandCard::from),
    );
    stock.extend(deck.filter(|c| !used.contains(c)));
    Deal {
        dealer: ordered(dealer),
        non_dealer: ordered(non_dealer),
        upcard: card(upcard),
        stock,
    }
}

fn jokers(json: &str) -> Profile {
    profile(&format!(r#"{{"base": "jokers"{json}}}"#))
}

/// The non-dealer holds A-2-3S, 4-5-6H, three 9s and KC; X1 is the upcard.
fn joker_upcard_deal() -> Deal {
    joker_deal(2, DEALER, NON_DEALER, "X1", "2H X2")
}

#[test]
fn a_deal_of_54_cards_is_replayed_with_a_stock_of_33() {
    let deal = joker_upcard_deal();
    assert_eq!(deal.stock.len(), 33);
    let audit = audit(
        &Preset::Jokers.profile(),
        &deal,
        &script("N pass; D pass; N stock 2H"),
    );
    assert!(audit.is_legal(), "{:?}", audit.violation);
    assert_eq!(audit.table.stock_remaining, 32);
    assert_eq!(audit.table.discard_top, Some(card("X1")));
    // A joker is drawn and discarded like any card.
    let drawn = audit_hand(
        &Preset::Jokers.profile(),
        &deal,
        &script("N pass; D pass; N stock 2H; N discard KC; D stock X2; D discard X2; N pile X2"),
    )
    .unwrap();
    assert!(drawn.is_legal(), "{:?}", drawn.violation);
    assert!(drawn.table.non_dealer.holds(Joker::X2));
    assert_eq!(
        drawn.table.non_dealer.to_string(),
        "AS 2S 3S 2H 4H 5H 6H 9H 9D 9C X2"
    );
    // One joker: 53 cards, a stock of 32.
    let one = joker_deal(1, DEALER, NON_DEALER, "2C", "2H");
    let profile = jokers(r#", "jokers": 1"#);
    assert!(audit_hand(&profile, &one, &[]).is_ok());
    let mut long = one.clone();
    long.stock.push(long.stock[0]);
    assert!(matches!(
        audit_hand(&profile, &long, &[]),
        Err(AuditError::Deal(DealError::StockTooLong {
            found: 33,
            most: 32
        }))
    ));
}

#[test]
fn a_joker_outside_the_profiles_deck_is_refused_with_its_place() {
    let deal = joker_upcard_deal();
    let refused = audit_hand(&Profile::default(), &deal, &[]).unwrap_err();
    assert_eq!(
        refused,
        AuditError::Deal(DealError::JokerNotInDeck {
            joker: Joker::X1,
            jokers: 0,
            at: JokerPlace::Deal(DealSlot {
                part: DealPart::Upcard,
                index: 0
            }),
        })
    );
    let AuditError::Deal(error) = &refused else {
        unreachable!()
    };
    assert!(matches!(error, DealError::JokerNotInDeck { .. }));
    // X2 under one joker: first in the deal's reading order.
    let one = jokers(r#", "jokers": 1"#);
    assert!(matches!(
        audit_hand(&one, &deal, &[]),
        Err(AuditError::Deal(DealError::JokerNotInDeck {
            joker: Joker::X2,
            jokers: 1,
            ..
        }))
    ));
    // In an action: a joker-free deal, a knock declaring X1.
    let k = knock_deal();
    let actions = vec![
        script("N pass; D pass; N stock").remove(2),
        Action {
            player: Seat::NonDealer,
            play: Move::Knock {
                discard: Some(card("KC")),
                melds: Some(vec![ordered("AS 2S 3S X1")]),
                jokers: [(Joker::X1, card("4S"))].into_iter().collect(),
            },
        },
    ];
    assert_eq!(
        audit_hand(&Profile::default(), &k, &actions),
        Err(AuditError::Deal(DealError::JokerNotInDeck {
            joker: Joker::X1,
            jokers: 0,
            at: JokerPlace::Action {
                action: 1,
                field: "melds/0/3".to_owned()
            },
        }))
    );
}

#[test]
fn a_knock_with_a_joker_is_scored_as_score_hand_scores_it() {
    let deal = joker_upcard_deal();
    let profile = Preset::Jokers.profile();
    // The non-dealer takes X1 and knocks with it in a run (4S: A-2-3-4S),
    // discarding KC: gin.
    let mut actions = script("N pile X1");
    actions.push(Action {
        player: Seat::NonDealer,
        play: Move::Knock {
            discard: Some(card("KC")),
            melds: melds(&["AS 2S 3S X1", "4H 5H 6H", "9C 9D 9H"]),
            jokers: [(Joker::X1, card("4S"))].into_iter().collect(),
        },
    });
    let audit = audit(&profile, &deal, &actions);
    let Some(HandEnd::Scored(hand)) = &audit.end else {
        panic!("not scored with jokers: {:?}", audit.violation)
    };
    let declared = DeclaredMelds {
        melds: melds(&["AS 2S 3S X1", "4H 5H 6H", "9C 9D 9H"]).unwrap(),
        stands_for: [(Joker::X1, card("4S"))].into_iter().collect(),
    };
    let expected = score_knock(
        Search::Jokers,
        &profile,
        Some(scoring_upcard(deal.upcard)),
        &hand.knocker_hand.hand,
        Some(&declared),
        &hand.defender_hand.hand,
        &crate::DeclaredReply::default(),
    )
    .unwrap();
    assert_eq!(hand.score, expected);
    assert_eq!(hand.score.settlement.outcome, crate::Outcome::Gin);
    // X1 stands for 4S: the defender's natural 4S may not be laid off (no
    // layoffs on gin anyway) nor melded by the defender.
    assert_eq!(
        hand.score.showdown.knocker.melds[0].stands_for(Joker::X1),
        Some(card("4S"))
    );
    // Declared melds at fault: X1 without its card, pointed at as the
    // scoring problem points (the meld's card).
    let mut unnamed = actions.clone();
    if let Move::Knock { jokers, .. } = &mut unnamed[1].play {
        *jokers = StandsFor::default();
    }
    let violation = super::audit(&profile, &deal, &unnamed).violation.unwrap();
    assert_eq!(
        (violation.code, violation.field.as_deref()),
        (ViolationCode::InvalidMelds, Some("melds/0/3"))
    );
    assert!(violation.message.contains("X1"), "{}", violation.message);
}

/// The non-dealer knocks with 2 deadwood (2H kept); the dealer holds X2.
fn knock_against_a_joker() -> (Deal, Vec<Action>) {
    let deal = joker_deal(2, "7S 8S TS JD QH KH 3C 4C 7H X2", NON_DEALER, "2C", "2H");
    (deal, script("N pass; D pass; N stock 2H; N knock KC"))
}

#[test]
fn a_defenders_joker_is_laid_off_standing_for_the_card_it_shows() {
    let (deal, mut actions) = knock_against_a_joker();
    let profile = Preset::Jokers.profile();
    let knocked = audit(&profile, &deal, &actions);
    let Some(HandEnd::Scored(best)) = &knocked.end else {
        panic!("not scored with jokers: {:?}", knocked.violation)
    };
    // Knocker melds in order: A-2-3S (0), 4-5-6H (1), the 9s (2).
    let shown: Vec<String> = best
        .score
        .showdown
        .knocker
        .melds
        .iter()
        .map(|m| m.cards().to_string())
        .collect();
    assert_eq!(shown, ["AS 2S 3S", "4H 5H 6H", "9H 9D 9C"]);
    let lay = |c: &str, stands_for: Option<&str>, meld: Option<usize>| RecordedLayoff {
        card: card(c),
        stands_for: stands_for.map(card),
        meld,
        onto: None,
    };
    // 7H onto the hearts, X2 standing for 8H after it.
    actions.push(Action {
        player: Seat::Dealer,
        play: Move::LayOff {
            melds: None,
            jokers: StandsFor::default(),
            layoffs: Some(vec![
                lay("7H", None, Some(1)),
                lay("X2", Some("8H"), Some(1)),
            ]),
        },
    });
    let replied = audit(&profile, &deal, &actions);
    let Some(HandEnd::Scored(hand)) = &replied.end else {
        panic!("not scored: {:?}", replied.violation)
    };
    let laid: Vec<String> = hand
        .score
        .showdown
        .defender
        .layoffs
        .iter()
        .map(|l| format!("{}={}>{}", l.card, l.stands_for, l.meld))
        .collect();
    assert_eq!(laid, ["7H=7H>1", "X2=8H>1"]);
    // X2 standing for 9H: 9H is shown by the knocker's set.
    let last = actions.len() - 1;
    actions[last].play = Move::LayOff {
        melds: None,
        jokers: StandsFor::default(),
        layoffs: Some(vec![
            lay("7H", None, Some(1)),
            lay("X2", Some("9H"), Some(1)),
        ]),
    };
    let violation = audit(&profile, &deal, &actions).violation.unwrap();
    assert_eq!(
        (violation.action, violation.code, violation.field.as_deref()),
        (
            Some(last),
            ViolationCode::LayoffDoesNotFit,
            Some("layoffs/1")
        )
    );
    assert!(
        violation.message.contains("already on the table"),
        "{}",
        violation.message
    );
    // Placed by the referee (no meld named), recorded inward: still legal.
    actions[last].play = Move::LayOff {
        melds: None,
        jokers: StandsFor::default(),
        layoffs: Some(vec![lay("X2", Some("8H"), None), lay("7H", None, None)]),
    };
    let placed = audit(&profile, &deal, &actions);
    assert!(placed.is_legal(), "{:?}", placed.violation);
    // Under joker_layoff false the same layoff is refused.
    let strict = jokers(r#", "joker_layoff": false"#);
    let refused = audit(&strict, &deal, &actions).violation.unwrap();
    assert_eq!(refused.code, ViolationCode::LayoffDoesNotFit);
}

#[test]
fn a_reply_naming_a_joker_no_hand_holds_is_refused() {
    // Jokers in the deck, none in either hand at the knock.
    let deal = joker_deal(2, DEALER, NON_DEALER, "2C", "2H");
    let mut actions = script("N pass; D pass; N stock 2H; N knock KC");
    let knocked = audit(&Preset::Jokers.profile(), &deal, &actions);
    // Scored by the joker-free referee, as /v1/hands/score scores it.
    assert!(
        matches!(knocked.end, Some(HandEnd::Scored(_))),
        "{:?}",
        knocked.end
    );
    actions.push(Action {
        player: Seat::Dealer,
        play: Move::LayOff {
            melds: None,
            jokers: StandsFor::default(),
            layoffs: Some(vec![RecordedLayoff {
                card: card("X1"),
                stands_for: Some(card("7H")),
                meld: Some(1),
                onto: None,
            }]),
        },
    });
    let violation = audit(&Preset::Jokers.profile(), &deal, &actions)
        .violation
        .unwrap();
    assert_eq!(
        (violation.code, violation.field.as_deref()),
        (ViolationCode::LayoffCardNotInHand, Some("layoffs/0"))
    );
}

#[test]
fn a_joker_taken_from_the_pile_must_be_melded_that_turn_when_the_profile_says_so() {
    let deal = joker_upcard_deal();
    let must = jokers(r#", "joker_pickup_must_meld": true, "joker_deadwood": 0"#);
    // Taken and discarded instead of a knock.
    let discarded = audit(&must, &deal, &script("N pile X1; N discard KC"));
    let violation = discarded.violation.unwrap();
    assert_eq!(
        (violation.action, violation.code, violation.field),
        (Some(1), ViolationCode::JokerNotMelded, None)
    );
    assert!(violation.message.contains("X1"), "{}", violation.message);
    // Without the rule, the same play is legal.
    assert!(
        audit(
            &jokers(r#", "joker_deadwood": 0"#),
            &deal,
            &script("N pile X1; N discard KC")
        )
        .is_legal()
    );
    // Knocked with X1 in deadwood (worth 0: gin without it).
    let knock = |melds: Option<Vec<Vec<HandCard>>>, jokers: StandsFor| {
        let mut actions = script("N pile X1");
        actions.push(Action {
            player: Seat::NonDealer,
            play: Move::Knock {
                discard: Some(card("KC")),
                melds,
                jokers,
            },
        });
        actions
    };
    let left_out = knock(
        melds(&["AS 2S 3S", "4H 5H 6H", "9C 9D 9H"]),
        StandsFor::default(),
    );
    let violation = audit(&must, &deal, &left_out).violation.unwrap();
    assert_eq!(
        (violation.action, violation.code, violation.field.as_deref()),
        (Some(1), ViolationCode::JokerNotMelded, Some("melds"))
    );
    // Melded: legal.
    let melded = knock(
        melds(&["AS 2S 3S X1", "4H 5H 6H", "9C 9D 9H"]),
        [(Joker::X1, card("4S"))].into_iter().collect(),
    );
    let audit = audit(&must, &deal, &melded);
    assert!(audit.is_legal(), "{:?}", audit.violation);
    // A joker drawn from the stock is free to be discarded.
    let stock = joker_deal(2, DEALER, NON_DEALER, "2C", "X2");
    assert!(
        super::audit(
            &must,
            &stock,
            &script("N pass; D pass; N stock X2; N discard X2")
        )
        .is_legal()
    );
}

#[test]
fn a_joker_upcard_counts_as_a_face_card_that_is_not_a_spade() {
    // Oklahoma: the knock limit is 10 and nothing doubles.
    let deal = joker_deal(2, DEALER, NON_DEALER, "X2", "2H");
    let oklahoma = profile(r#"{"base": "oklahoma", "jokers": 2}"#);
    let audit = audit(
        &oklahoma,
        &deal,
        &script("N pass; D pass; N stock 2H; N knock KC"),
    );
    let Some(HandEnd::Scored(hand)) = &audit.end else {
        panic!("not scored: {:?}", audit.violation)
    };
    assert_eq!(hand.score.showdown.knock_limit, 10);
    assert_eq!(scoring_upcard(card("X2")), card("KH"));
}

#[test]
fn a_joker_map_without_melds_and_a_natural_standing_for_another_are_refused() {
    let deal = joker_upcard_deal();
    let profile = Preset::Jokers.profile();
    let mut actions = script("N pile X1");
    actions.push(Action {
        player: Seat::NonDealer,
        play: Move::Knock {
            discard: Some(card("KC")),
            melds: None,
            jokers: [(Joker::X1, card("4S"))].into_iter().collect(),
        },
    });
    let violation = audit(&profile, &deal, &actions).violation.unwrap();
    assert_eq!(
        (violation.code, violation.field.as_deref()),
        (ViolationCode::InvalidMelds, Some("jokers"))
    );
    // A joker-free knock: a natural laid off "standing for" another card.
    let mut actions = script("N pass; D pass; N stock 2H; N knock KC");
    actions.push(Action {
        player: Seat::Dealer,
        play: Move::LayOff {
            melds: None,
            jokers: StandsFor::default(),
            layoffs: Some(vec![RecordedLayoff {
                card: card("7H"),
                stands_for: Some(card("3H")),
                meld: Some(1),
                onto: None,
            }]),
        },
    });
    let violation = audit(&Profile::default(), &knock_deal(), &actions)
        .violation
        .unwrap();
    assert_eq!(
        (violation.code, violation.field.as_deref()),
        (ViolationCode::LayoffDoesNotFit, Some("layoffs/0"))
    );
    // Standing for itself, it is the plain layoff.
    if let Move::LayOff {
        layoffs: Some(list),
        ..
    } = &mut actions[4].play
    {
        list[0].stands_for = Some(card("7H"));
    }
    assert!(audit(&Profile::default(), &knock_deal(), &actions).is_legal());
}
