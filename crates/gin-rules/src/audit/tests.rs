use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::*;
use crate::card::cards;
use crate::profile::{Preset, ProfileOverrides, StockEnd};
use crate::score::score_hand;

mod cases;
mod jokers;
pub(crate) mod play_outs;
mod recorded;

use cases::cases;

/// A card, or a card of a deck with jokers, as the context needs.
fn card<C: std::str::FromStr>(text: &str) -> C
where
    C::Err: std::fmt::Debug,
{
    text.parse().unwrap()
}

/// Cards in the order written (`cards` would sort them).
fn ordered(text: &str) -> Vec<HandCard> {
    text.split_whitespace().map(card).collect()
}

fn profile(json: &str) -> Profile {
    serde_json::from_str::<ProfileOverrides>(json)
        .unwrap()
        .resolve()
        .unwrap()
}

/// A deal with these hands and upcard; the stock starts with `stock_top` and
/// continues with the rest of the deck in canonical order.
fn deal_with(dealer: &str, non_dealer: &str, upcard: &str, stock_top: &str) -> Deal {
    let mut used = cards(&format!("{dealer} {non_dealer} {upcard} {stock_top}")).unwrap();
    let mut stock = ordered(stock_top);
    for c in Card::deck() {
        if used.insert(c) {
            stock.push(c.into());
        }
    }
    Deal {
        dealer: ordered(dealer),
        non_dealer: ordered(non_dealer),
        upcard: card(upcard),
        stock,
    }
}

// The non-dealer holds A-2-3S, 4-5-6H, three 9s and the king of clubs: the
// first stock card 2H lets it knock with 2 (discarding KC); 3H gives it gin.
const NON_DEALER: &str = "AS 2S 3S 4H 5H 6H 9C 9D 9H KC";
const DEALER: &str = "7S 8S TS JD QH KH 3C 4C 7H 4S";

fn knock_deal() -> Deal {
    deal_with(DEALER, NON_DEALER, "2C", "2H 5C")
}

fn gin_deal() -> Deal {
    deal_with(DEALER, NON_DEALER, "2C", "3H 5C")
}

/// A transcript in a terse notation: `N`/`D` then `pass`, `stock [card]`,
/// `pile [card]`, `discard card`, `knock [card]` (none: big gin) or `reply`.
fn script(text: &str) -> Vec<Action> {
    text.split(';')
        .map(|step| {
            let words: Vec<&str> = step.split_whitespace().collect();
            let player = match words[0] {
                "N" => Seat::NonDealer,
                "D" => Seat::Dealer,
                other => panic!("unknown seat {other}"),
            };
            let arg = words.get(2).map(|w| card(w));
            let play = match words[1] {
                "pass" => Move::Pass,
                "stock" => Move::Draw {
                    from: Source::Stock,
                    card: arg,
                },
                "pile" => Move::Draw {
                    from: Source::DiscardPile,
                    card: arg,
                },
                "discard" => Move::Discard { card: arg.unwrap() },
                "knock" => Move::Knock {
                    discard: arg,
                    melds: None,
                    jokers: StandsFor::default(),
                },
                "reply" => Move::LayOff {
                    melds: None,
                    layoffs: None,
                    jokers: StandsFor::default(),
                },
                other => panic!("unknown move {other}"),
            };
            Action { player, play }
        })
        .collect()
}

fn melds(groups: &[&str]) -> Option<Vec<Vec<HandCard>>> {
    Some(groups.iter().map(|g| ordered(g)).collect())
}

/// The non-dealer's knock discarding KC with its three melds declared
/// (meld 0 = A-2-3S, 1 = the hearts run, 2 = the 9s).
fn declared_knock(run: &str) -> Action {
    Action {
        player: Seat::NonDealer,
        play: Move::Knock {
            discard: Some(card("KC")),
            melds: melds(&["AS 2S 3S", run, "9C 9D 9H"]),
            jokers: StandsFor::default(),
        },
    }
}

fn layoffs(list: &[(&str, usize)]) -> Action {
    Action {
        player: Seat::Dealer,
        play: Move::LayOff {
            melds: None,
            layoffs: Some(
                list.iter()
                    .map(|&(c, meld)| RecordedLayoff {
                        card: card(c),
                        stands_for: None,
                        meld: Some(meld),
                        onto: None,
                    })
                    .collect(),
            ),
            jokers: StandsFor::default(),
        },
    }
}

/// Both pass the upcard, then each player draws from the stock and discards the
/// card drawn, until the non-dealer has drawn the 50th card (29 stock draws).
/// The non-dealer's discard of it is left to the caller.
fn run_down(deal: &Deal) -> Vec<Action> {
    let mut actions = script("N pass; D pass");
    let mut player = Seat::NonDealer;
    for (i, &drawn) in deal.stock[..STOCK_SIZE - STOCK_RESERVE].iter().enumerate() {
        actions.push(Action {
            player,
            play: Move::Draw {
                from: Source::Stock,
                card: Some(drawn),
            },
        });
        if i + 1 < STOCK_SIZE - STOCK_RESERVE {
            actions.push(Action {
                player,
                play: Move::Discard { card: drawn },
            });
            player = player.other();
        }
    }
    actions
}

fn the_50th_card(deal: &Deal) -> HandCard {
    deal.stock[STOCK_SIZE - STOCK_RESERVE - 1]
}

fn run_down_and(deal: &Deal, rest: &str) -> Vec<Action> {
    let discard = format!("N discard {}", the_50th_card(deal));
    let mut actions = run_down(deal);
    let tail = if rest.is_empty() {
        discard
    } else {
        format!("{discard}; {rest}")
    };
    actions.extend(script(&tail));
    actions
}

fn audit(profile: &Profile, deal: &Deal, actions: &[Action]) -> Audit {
    audit_hand(profile, deal, actions).unwrap()
}

fn with(mut actions: Vec<Action>, extra: Vec<Action>) -> Vec<Action> {
    actions.extend(extra);
    actions
}

#[test]
fn every_scripted_violation_is_flagged_at_its_action_with_its_code() {
    for case in cases() {
        let audit = audit(&case.profile, &case.deal, &case.actions);
        let violation = audit
            .violation
            .unwrap_or_else(|| panic!("{}: judged legal", case.rule));
        assert_eq!(
            (violation.action, violation.code),
            (Some(case.at), case.code),
            "{}: {}",
            case.rule,
            violation.message
        );
        assert!(audit.end.is_none(), "{}", case.rule);
        // The prefix before the violation is legal.
        let prefix = audit_hand(&case.profile, &case.deal, &case.actions[..case.at]).unwrap();
        assert!(
            prefix.is_legal(),
            "{}: prefix {:?}",
            case.rule,
            prefix.violation
        );
    }
}

#[test]
fn every_violation_code_has_a_scripted_transcript() {
    let covered: Vec<ViolationCode> = cases().iter().map(|c| c.code).collect();
    // Faults of the whole hand are judged before any action, by whoever derives
    // the deal or audits the match (tested there).
    let of_the_transcript = ViolationCode::ALL
        .into_iter()
        .filter(|&code| !code.of_the_whole_hand());
    for code in of_the_transcript {
        assert!(covered.contains(&code), "no scripted transcript for {code}");
    }
}

#[test]
fn violation_messages_name_the_cards_and_players() {
    let k = knock_deal();
    let message = |actions: Vec<Action>| {
        audit(&Profile::default(), &k, &actions)
            .violation
            .unwrap()
            .message
    };
    assert_eq!(
        message(script("N pass; D pass; N stock 2H; N discard 7S")),
        "the non-dealer does not hold 7S, so cannot discard it"
    );
    assert_eq!(
        message(script("N pile 2C; N discard 2C")),
        "the non-dealer took 2C from the discard pile this turn and may not discard it on \
         the same turn"
    );
    assert_eq!(
        message(script("N pass; D pass; N stock; N knock 9C")),
        "the non-dealer knocked at best: the knocker's deadwood is 30, over the knock limit of 10"
    );
    assert_eq!(
        message(script("D pile 2C")),
        "the upcard 2C is offered to the non-dealer first; the dealer cannot take the top \
         card of the discard pile before the non-dealer passes"
    );
    let invalid = message(with(
        script("N pass; D pass; N stock"),
        vec![declared_knock("4H 5H 6H 2H")],
    ));
    assert!(
        invalid.starts_with("the non-dealer's declared melds are not legal: meld 1: "),
        "{invalid}"
    );
}

#[test]
fn a_knock_is_scored_exactly_as_score_hand_scores_the_final_hands() {
    let k = knock_deal();
    let actions = script("N pass; D pass; N stock 2H; N knock KC");
    let audit = audit(&Profile::default(), &k, &actions);
    assert!(audit.is_legal());
    let Some(HandEnd::Scored(hand)) = audit.end else {
        panic!("not scored: {:?}", audit.end)
    };
    assert_eq!((hand.knocker, hand.knock_action), (Seat::NonDealer, 3));
    let expected = score_hand(
        &Profile::default(),
        Some(card("2C")),
        &KnockerHand::of_cards(cards("AS 2S 3S 4H 5H 6H 9C 9D 9H 2H").unwrap()),
        &DefenderHand::of_cards(cards(DEALER).unwrap()),
    )
    .unwrap();
    assert_eq!(hand.score, expected);
    // The dealer lays off 4S and 7H: 73 - 11 = 62 against 2.
    assert_eq!(hand.score.settlement.points, 60);
    assert_eq!(audit.table.discard_top, Some(card("KC")));
    assert_eq!(audit.table.to_act, None);
}

#[test]
fn a_declared_reply_is_checked_against_the_knockers_melds_and_scored() {
    let k = knock_deal();
    let actions = with(
        script("N pass; D pass; N stock"),
        vec![declared_knock("4H 5H 6H"), layoffs(&[("7H", 1)])],
    );
    let audit = audit(&Profile::default(), &k, &actions);
    let Some(HandEnd::Scored(hand)) = audit.end else {
        panic!("not scored: {:?}", audit.violation)
    };
    // Only 7H laid off (4S kept): 73 - 7 = 66 against 2.
    assert_eq!(hand.score.showdown.defender.deadwood(), 66);
    assert_eq!(hand.score.settlement.points, 64);
}

#[test]
fn a_transcript_that_stops_early_is_legal_so_far_with_no_result() {
    let k = knock_deal();
    for actions in [
        vec![],
        script("N pass"),
        script("N pass; D pile 2C"),
        script("N pass; D pass; N stock; N discard KC"),
    ] {
        let audit = audit(&Profile::default(), &k, &actions);
        assert!(audit.is_legal() && audit.end.is_none(), "{actions:?}");
    }
    let taken = audit(&Profile::default(), &k, &script("N pass; D pile 2C"));
    assert_eq!(taken.table.to_act, Some(Seat::Dealer));
    assert!(taken.table.dealer.contains(card("2C")));
    assert_eq!(taken.table.discard_top, None);
}

#[test]
fn the_upcard_taken_by_the_dealer_gives_the_non_dealer_the_next_turn() {
    let k = knock_deal();
    let actions = script("N pass; D pile 2C; D discard KH; N pile KH; N discard KC");
    let audit = audit(&Profile::default(), &k, &actions);
    assert!(audit.is_legal(), "{:?}", audit.violation);
    assert_eq!(audit.table.to_act, Some(Seat::Dealer));
    assert_eq!(audit.table.stock_remaining, STOCK_SIZE);
}

#[test]
fn a_hand_with_no_knock_by_the_50th_card_is_void() {
    let k = knock_deal();
    let standard = audit(&Profile::default(), &k, &run_down_and(&k, ""));
    assert_eq!(standard.end, Some(HandEnd::Void { action: 2 + 57 }));
    assert_eq!(standard.table.stock_remaining, STOCK_RESERVE);
    // The drawer of the 50th card may still knock (with the king of clubs, 10).
    let mut knock = run_down(&k);
    knock.extend(script(&format!("N knock {}", the_50th_card(&k))));
    let knocked = audit(&Profile::default(), &k, &knock);
    assert!(
        matches!(knocked.end, Some(HandEnd::Scored(ref hand)) if hand.score.showdown.knocker.deadwood == 10),
        "{knocked:?}"
    );
    let tournament = Preset::Tournament.profile();
    let offered = audit(&tournament, &k, &run_down_and(&k, ""));
    assert!(offered.is_legal() && offered.end.is_none());
    assert_eq!(offered.table.to_act, Some(Seat::Dealer));
    let passed = audit(&tournament, &k, &run_down_and(&k, "D pass"));
    assert_eq!(passed.end, Some(HandEnd::Void { action: 2 + 58 }));
}

#[test]
fn the_50th_card_discard_may_be_taken_to_knock() {
    let mut deal = deal_with("7S 8S 9S JD QD KD 3C 4C 5C KH", NON_DEALER, "2C", "");
    let ts = deal.stock.iter().position(|&c| c == card("TS")).unwrap();
    let ts = deal.stock.remove(ts);
    deal.stock.insert(STOCK_SIZE - STOCK_RESERVE - 1, ts);
    let audit = audit(
        &Preset::Tournament.profile(),
        &deal,
        &run_down_and(&deal, "D pile TS; D knock KH"),
    );
    let Some(HandEnd::Scored(hand)) = audit.end else {
        panic!("not scored: {:?}", audit.violation)
    };
    assert_eq!(hand.knocker, Seat::Dealer);
    assert_eq!(hand.score.settlement.outcome, crate::Outcome::Gin);
}

#[test]
fn big_gin_ends_the_hand_without_a_discard_where_the_profile_plays_it() {
    // The non-dealer's 11 cards after drawing 7H all meld.
    let deal = deal_with(
        "7S 8S TS JD QH KH 3C 4C 8H 4D",
        "AS 2S 3S 4H 5H 6H 9C 9D 9H 9S",
        "2C",
        "7H",
    );
    let big_gin = profile(r#"{"big_gin_bonus": 31}"#);
    let actions = script("N pass; D pass; N stock 7H; N knock");
    let hand = match audit(&big_gin, &deal, &actions).end {
        Some(HandEnd::Scored(hand)) => hand,
        other => panic!("not scored: {other:?}"),
    };
    assert_eq!(hand.score.settlement.outcome, crate::Outcome::BigGin);
    assert_eq!(hand.knocker_hand.hand.len(), 11);
    let no_big_gin = profile(r#"{"big_gin_bonus": null}"#);
    assert_eq!(
        audit(&no_big_gin, &deal, &actions)
            .violation
            .map(|v| v.code),
        Some(ViolationCode::BigGinNotAllowed)
    );
}

#[test]
fn an_impossible_deal_is_refused_with_the_place_of_the_fault() {
    let k = knock_deal();
    let mut long = k.clone();
    long.stock.push(card("KC"));
    assert_eq!(
        audit_hand(&Profile::default(), &long, &[]),
        Err(AuditError::Deal(DealError::StockTooLong {
            found: STOCK_SIZE + 1,
            most: STOCK_SIZE,
        }))
    );
    let mut short_hand = k.clone();
    short_hand.dealer.pop();
    assert_eq!(
        audit_hand(&Profile::default(), &short_hand, &[]),
        Err(AuditError::Deal(DealError::WrongCardCount {
            part: DealPart::Hand(Seat::Dealer),
            expected: 10,
            found: 9
        }))
    );
    let mut twice = k.clone();
    twice.stock[5] = card("KC");
    let err = audit_hand(&Profile::default(), &twice, &[]).unwrap_err();
    assert_eq!(
        err,
        AuditError::Deal(DealError::DuplicateCard {
            card: card("KC"),
            first: DealSlot {
                part: DealPart::Hand(Seat::NonDealer),
                index: 9
            },
            second: DealSlot {
                part: DealPart::Stock,
                index: 5
            },
        })
    );
    assert_eq!(
        err.to_string(),
        "KC is dealt twice: in the non-dealer's hand at position 9 and in the stock at \
         position 5"
    );
    let mut upcard = k;
    upcard.upcard = card("AS");
    assert!(matches!(
        audit_hand(&Profile::default(), &upcard, &[]),
        Err(AuditError::Deal(DealError::DuplicateCard {
            second: DealSlot {
                part: DealPart::Upcard,
                ..
            },
            ..
        }))
    ));
}
